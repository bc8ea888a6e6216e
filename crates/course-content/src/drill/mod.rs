//! Drills: seeded practice problems with solutions and answer checking.
//!
//! Every drill is a pure function of (machine, parameters, seed): the same
//! inputs give the same value. Each part of a drill draws from its own
//! stream ([`Rng::derived`](course_engine::util::rng::Rng::derived)), so changing one
//! part never shifts another.
//!
//! | drill | the student computes | answer file |
//! |---|---|---|
//! | `list-schedule` | the top-down list schedule of a random block | `LABEL CYCLE` lines |
//! | `mii` | ResMII, RecMII, MII of a random loop | `res_mii N`, `rec_mii N`, `mii N` |
//! | `modulo` | a modulo schedule (II and a cycle per operation) | `ii N` and `LABEL CYCLE` lines |
//! | `forbidden` | forbidden latencies and collision vectors (Definition 23.1.5) | `F(A,B) = {…}` lines |
//! | `hazard` | the recognizer trace of Algorithm 23.1.7 on the multiplier | `accept {…}` / `reject {…}` per issue |
//! | `automaton` | the pipeline automaton of one resource (Algorithm 23.1.7) | `{0, 2}: - {0, 1, 2} {1}` per state |
//! | `rthroughput` | Block RThroughput of a loop body (Definition 23.1.10) | one number (`5/2` or `2.5`) |
//!
//! A drill yields a typed [`Problem`] (with its solution when asked) or,
//! for an answer, a typed [`Report`]. Both serialise to the drill's JSON;
//! the drill views (`view::drill`) render them as text. Answers are read with
//! [`course_engine::formats::answer`] and [`course_engine::formats::submission`] only.
//!
//! A problem's text starts with its [`ProblemLine`], `# course drill
//! list-schedule --seed 4 --machine toy`: a comment the student keeps at the
//! top of the answer file, so that `--check` grades the answer against the
//! problem it was written for.
//!
//! Each drill has its module; `registry.rs` tells the drills apart,
//! `line.rs` reads the problem line, and `mistake.rs` holds the mistakes
//! and verdicts every drill reports.
//!
//! ```
//! use course_content::drill::Drill;
//! use course_engine::model::machine::Machine;
//! let m = Machine::toy();
//! let p = Drill::Mii.problem(&m, None, 2, true).unwrap();
//! let Some(answer) = p.answer() else { panic!("mii has an answer") };
//! assert!(Drill::Mii.check(&m, None, 2, &answer, "a.txt").unwrap().correct());
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::generate::{self, GenParams};
use crate::json::{EdgesJson, MachineJson, OpsJson};
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::rng::GENERATOR_VERSION;

pub mod automaton;
mod departure;
pub mod example;
pub mod forbidden;
pub mod hazard;
mod line;
pub mod list_schedule;
pub mod mii;
mod mistake;
pub mod modulo;
mod registry;
pub mod rthroughput;

pub use line::{Named, ProblemLine, machine_flag};
pub use mistake::{Mistake, MistakeKind, Verdict, Verdicts};
pub use registry::{Drill, DrillEntry, DrillError, list};

#[cfg(test)]
pub(crate) use mistake::mistake_messages;
use mistake::{all_right, mistakes_only, set_text, violations};
pub(crate) use mistake::{consequence_text, set_slip};

/// A drill's problem, with its solution when asked.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Problem {
    ListSchedule(list_schedule::Problem),
    Mii(mii::Problem),
    Modulo(modulo::Problem),
    Forbidden(forbidden::Problem),
    Hazard(hazard::Problem),
    Automaton(automaton::Problem),
    Rthroughput(rthroughput::Problem),
}

impl Problem {
    /// The drill's own problem, behind what every drill's problem offers.
    fn posed(&self) -> &dyn Posed {
        match self {
            Problem::ListSchedule(p) => p,
            Problem::Mii(p) => p,
            Problem::Modulo(p) => p,
            Problem::Forbidden(p) => p,
            Problem::Hazard(p) => p,
            Problem::Automaton(p) => p,
            Problem::Rthroughput(p) => p,
        }
    }

    /// The problem's first line (the command that makes it).
    pub fn line(&self) -> ProblemLine {
        self.posed().first_line()
    }

    /// The solution written as an answer file that checks as correct, when
    /// the problem was made with its solution.
    pub fn answer(&self) -> Option<String> {
        self.posed().solution_answer()
    }

    /// The first `level` hints on the problem (at most the drill's number
    /// of hints), each one step of the method further than the last; no
    /// hint gives the answer to the part it is about.
    pub fn hints(&self, level: usize) -> Vec<String> {
        self.posed().first_hints(level)
    }
}

/// What every drill's problem offers ([`Problem`] dispatches to it).
trait Posed {
    fn first_line(&self) -> ProblemLine;
    fn solution_answer(&self) -> Option<String>;
    fn first_hints(&self, level: usize) -> Vec<String>;
}

/// [`Posed`] for the problem of each drill module named: its `line`, its
/// solution's `answer` and the module's `hints`.
macro_rules! posed {
    ($($drill:ident),*) => {$(
        impl Posed for $drill::Problem {
            fn first_line(&self) -> ProblemLine {
                self.line()
            }
            fn solution_answer(&self) -> Option<String> {
                self.solution.as_ref().map(|s| s.answer())
            }
            fn first_hints(&self, level: usize) -> Vec<String> {
                $drill::hints(self, level)
            }
        }
    )*};
}

posed!(
    list_schedule,
    mii,
    modulo,
    forbidden,
    hazard,
    automaton,
    rthroughput
);

/// The outcome of checking an answer.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Report {
    ListSchedule(list_schedule::Report),
    Mii(mii::Report),
    Modulo(modulo::Report),
    Forbidden(forbidden::Report),
    Hazard(hazard::Report),
    Automaton(automaton::Report),
    Rthroughput(rthroughput::Report),
}

impl Report {
    /// The drill's own report, behind what every drill's report offers.
    fn graded(&self) -> &dyn Graded {
        match self {
            Report::ListSchedule(r) => r,
            Report::Mii(r) => r,
            Report::Modulo(r) => r,
            Report::Forbidden(r) => r,
            Report::Hazard(r) => r,
            Report::Automaton(r) => r,
            Report::Rthroughput(r) => r,
        }
    }

    /// True when the answer has no mistake.
    pub fn correct(&self) -> bool {
        self.graded().is_correct()
    }

    /// Every mistake, in answer order.
    pub fn mistakes(&self) -> Vec<&Mistake> {
        self.graded().all_mistakes()
    }
}

/// What every drill's report offers ([`Report`] dispatches to it).
trait Graded {
    fn is_correct(&self) -> bool;
    fn all_mistakes(&self) -> Vec<&Mistake>;
}

/// The mistakes a report keeps in its field `mistakes` (a list of them, or
/// of verdicts).
trait MistakeList {
    fn wrong(&self) -> Vec<&Mistake>;
}

impl MistakeList for [Mistake] {
    fn wrong(&self) -> Vec<&Mistake> {
        self.iter().collect()
    }
}

impl<R> MistakeList for [Verdict<R>] {
    fn wrong(&self) -> Vec<&Mistake> {
        self.iter().filter_map(Verdict::mistake).collect()
    }
}

/// [`Graded`] for the report of each drill module named, from its
/// `correct` and the list in `field`.
macro_rules! graded {
    ($field:ident: $($drill:ident),*) => {$(
        impl Graded for $drill::Report {
            fn is_correct(&self) -> bool {
                self.correct
            }
            fn all_mistakes(&self) -> Vec<&Mistake> {
                self.$field.wrong()
            }
        }
    )*};
}

graded!(mistakes: list_schedule, modulo);
graded!(verdicts: mii, forbidden, hazard, automaton, rthroughput);

/// A problem on a generated block or loop (list-schedule, mii, modulo):
/// the input as product.md §6 names it, and the solution `S` when asked.
/// The operations, edges and machine are written straight from the program
/// and machine when serialised.
#[derive(Clone, Debug, Serialize)]
pub struct ProgramProblem<S> {
    pub drill: Drill,
    pub edges: EdgesJson,
    pub generator_version: u32,
    pub kind: Kind,
    pub machine: MachineJson<Arc<Machine>>,
    pub name: String,
    pub ops: OpsJson<Arc<Machine>>,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<S>,
    /// The generated input (for the text view).
    #[serde(skip)]
    pub program: Arc<Program>,
    /// The machine it runs on (for the text view).
    #[serde(skip)]
    pub model: Arc<Machine>,
}

impl<S> ProgramProblem<S> {
    /// The problem's first line (the command that makes it).
    pub fn line(&self) -> ProblemLine {
        ProblemLine::on(self.drill, self.seed, &self.model)
    }

    fn new(drill: Drill, m: &Machine, p: Program, seed: u64, solution: Option<S>) -> Self {
        let p = Arc::new(p);
        let m = Arc::new(m.clone());
        ProgramProblem {
            drill,
            edges: EdgesJson::new(p.clone()),
            generator_version: GENERATOR_VERSION,
            kind: p.kind(),
            machine: MachineJson(m.clone()),
            name: p.name().to_string(),
            ops: OpsJson::new(p.clone(), m.clone()),
            seed,
            solution,
            program: p,
            model: m,
        }
    }
}

/// A generated block or loop body: the seed's program for `kind`.
fn generated(m: &Machine, params: &GenParams, seed: u64, kind: Kind) -> Program {
    generate::program(m, params, seed, None, kind).1
}

/// Where resource `r`'s usage U in `p` comes from, class by class: `4
/// from 1 div holding it 4 cycles, 2 from 2 mul` (the counts a student
/// adds up, Definition 23.1.2).
pub fn usage_breakdown(
    p: &Program,
    m: &Machine,
    r: course_engine::model::ids::ResourceId,
) -> String {
    let mut per_class = vec![0u64; m.classes().len()];
    for op in p.ops() {
        per_class[op.class.index()] += 1;
    }
    let parts: Vec<String> = m
        .class_ids()
        .filter_map(|c| {
            let (n, u) = (per_class[c.index()], m.class(c).usage(r));
            let name = &m.class(c).name;
            (n > 0 && u > 0).then(|| match u {
                1 => format!("{n} from {n} {name}"),
                u => format!("{} from {n} {name} holding it {u} cycles", n * u),
            })
        })
        .collect();
    parts.join(", ")
}

/// One value per operation, keyed by label (for JSON).
fn by_label<T: Copy>(p: &Program, values: &[T]) -> BTreeMap<String, T> {
    p.op_ids()
        .map(|x| (p.label(x).to_string(), values[x.index()]))
        .collect()
}
