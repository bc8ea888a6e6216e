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
//! ```
//! use course_content::drill::Drill;
//! use course_engine::model::machine::Machine;
//! let m = Machine::toy();
//! let p = Drill::Mii.problem(&m, None, 2, true).unwrap();
//! let Some(answer) = p.answer() else { panic!("mii has an answer") };
//! assert!(Drill::Mii.check(&m, None, 2, &answer, "a.txt").unwrap().correct());
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::generate::{self, GenParams};
use course_engine::engine::check::{CheckResult, ViolationKind};
use course_engine::formats::answer;
use course_engine::formats::diagnostic::Diagnostic;
use course_engine::formats::submission::Submission;
use course_engine::model::json::{EdgesJson, MachineJson, OpsJson};
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::rng::GENERATOR_VERSION;
use course_engine::util::text::{WordsError, split_words};

pub mod automaton;
mod departure;
pub mod example;
pub mod forbidden;
pub mod hazard;
pub mod list_schedule;
pub mod mii;
pub mod modulo;
pub mod rthroughput;

/// The drills, in the order `course drill list` shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Drill {
    /// The top-down list schedule of a random block.
    ListSchedule,
    /// ResMII, RecMII and MII of a random loop.
    Mii,
    /// A modulo schedule of a random loop.
    Modulo,
    /// Forbidden latencies and collision vectors of random tables.
    Forbidden,
    /// The hazard recognizer's trace on the multiplier.
    Hazard,
    /// The pipeline automaton of one resource: states and transitions.
    Automaton,
    /// Block RThroughput of a random loop body.
    Rthroughput,
}

/// A drill's name and what it practises (`course drill list`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DrillEntry {
    /// The name on the command line.
    pub name: &'static str,
    /// One line on what it practises.
    pub summary: &'static str,
}

/// Why a drill could not run.
#[derive(Debug, thiserror::Error)]
pub enum DrillError {
    /// The machine lacks what the drill needs.
    #[error("{0}")]
    Machine(String),
    /// The issue attempts of a hazard replay cannot be read.
    #[error("--events: {0}")]
    Events(String),
}

impl Drill {
    /// Every drill, in listing order.
    pub const ALL: [Drill; 7] = [
        Drill::ListSchedule,
        Drill::Mii,
        Drill::Modulo,
        Drill::Forbidden,
        Drill::Hazard,
        Drill::Automaton,
        Drill::Rthroughput,
    ];

    /// The drill's row of [`KINDS`]: the one place a drill is told apart.
    fn kind(self) -> &'static DrillKind {
        &KINDS[self as usize]
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        self.kind().name
    }

    /// One line on what the drill practises.
    pub fn summary(self) -> &'static str {
        self.kind().summary
    }

    /// The generator parameter file in the course folder, if the drill has
    /// one: blocks for list-schedule, loops for the loop drills.
    pub fn params_file(self) -> Option<&'static str> {
        self.kind().params_file
    }

    /// How many hints the drill has.
    pub fn hint_count(self) -> usize {
        self.kind().hints
    }

    /// The name and summary, for the listing.
    pub fn entry(self) -> DrillEntry {
        DrillEntry {
            name: self.name(),
            summary: self.summary(),
        }
    }

    /// The problem for `seed`, with its solution when `solution` is set.
    /// `params` replaces the built-in generator parameters.
    pub fn problem(
        self,
        m: &Machine,
        params: Option<&GenParams>,
        seed: u64,
        solution: bool,
    ) -> Result<Problem, DrillError> {
        (self.kind().problem)(m, params, seed, solution)
    }

    /// Checks `answer` (the text of the student's file, named `file` in
    /// messages) against the problem for `seed`.
    pub fn check(
        self,
        m: &Machine,
        params: Option<&GenParams>,
        seed: u64,
        answer: &str,
        file: &str,
    ) -> Result<Report, DrillError> {
        (self.kind().check)(m, params, seed, answer, file)
    }
}

/// What tells one drill from another: its names, its parameter file, and
/// the functions that pose and check its problems.
struct DrillKind {
    name: &'static str,
    summary: &'static str,
    params_file: Option<&'static str>,
    hints: usize,
    problem: PoseFn,
    check: CheckFn,
}

/// [`Drill::problem`] for one drill (`None`: the drill's built-in
/// generator parameters).
type PoseFn = fn(&Machine, Option<&GenParams>, u64, bool) -> Result<Problem, DrillError>;

/// [`Drill::check`] for one drill.
type CheckFn = fn(&Machine, Option<&GenParams>, u64, &str, &str) -> Result<Report, DrillError>;

/// `given`, or the built-in parameters that `default` reads.
fn params_or(given: Option<&GenParams>, default: fn() -> GenParams) -> Cow<'_, GenParams> {
    given.map_or_else(|| Cow::Owned(default()), Cow::Borrowed)
}

/// One row per drill, in the order of [`Drill::ALL`] (the enum's order).
static KINDS: [DrillKind; 7] = [
    DrillKind {
        name: "list-schedule",
        summary: "top-down list scheduling of a random block (heights, Fits, the reservation table)",
        params_file: Some("drills/list-schedule.yaml"),
        hints: list_schedule::HINTS,
        problem: |m, p, seed, solution| {
            let p = params_or(p, GenParams::block_default);
            Ok(Problem::ListSchedule(list_schedule::problem(
                m, &p, seed, solution,
            )))
        },
        check: |m, p, seed, answer, file| {
            let p = params_or(p, GenParams::block_default);
            Ok(Report::ListSchedule(list_schedule::check(
                m, &p, seed, answer, file,
            )))
        },
    },
    DrillKind {
        name: "mii",
        summary: "ResMII, RecMII and MII of a random loop (usage from reservation tables, the critical recurrence)",
        params_file: Some("drills/mii.yaml"),
        hints: mii::HINTS,
        problem: |m, p, seed, solution| {
            let p = params_or(p, GenParams::loop_default);
            Ok(Problem::Mii(mii::problem(m, &p, seed, solution)))
        },
        check: |m, p, seed, answer, file| {
            let p = params_or(p, GenParams::loop_default);
            Ok(Report::Mii(mii::check(m, &p, seed, answer, file)))
        },
    },
    DrillKind {
        name: "modulo",
        summary: "a modulo schedule of a random loop at the smallest II (the modulo reservation table; MII bounds it)",
        params_file: Some("drills/mii.yaml"),
        hints: modulo::HINTS,
        problem: |m, p, seed, solution| {
            let p = params_or(p, GenParams::loop_default);
            Ok(Problem::Modulo(modulo::problem(m, &p, seed, solution)))
        },
        check: |m, p, seed, answer, file| {
            let p = params_or(p, GenParams::loop_default);
            Ok(Report::Modulo(modulo::check(m, &p, seed, answer, file)))
        },
    },
    DrillKind {
        name: "forbidden",
        summary: "forbidden latencies and collision vectors of random reservation tables (Definition 23.1.5)",
        params_file: None,
        hints: forbidden::HINTS,
        problem: |_, _, seed, solution| Ok(Problem::Forbidden(forbidden::problem(seed, solution))),
        check: |_, _, seed, answer, file| {
            Ok(Report::Forbidden(forbidden::check(seed, answer, file)))
        },
    },
    DrillKind {
        name: "hazard",
        summary: "the hazard recognizer's trace on the multiplier (Algorithm 23.1.7, the event table of Lesson 23.1 §3)",
        params_file: None,
        hints: hazard::HINTS,
        problem: |m, _, seed, solution| hazard::problem(m, seed, solution).map(Problem::Hazard),
        check: |m, _, seed, answer, file| hazard::check(m, seed, answer, file).map(Report::Hazard),
    },
    DrillKind {
        name: "automaton",
        summary: "the pipeline automaton of one resource: every reachable state and its transitions (Algorithm 23.1.7)",
        params_file: None,
        hints: automaton::HINTS,
        problem: |_, _, seed, solution| Ok(Problem::Automaton(automaton::problem(seed, solution))),
        check: |_, _, seed, answer, file| {
            Ok(Report::Automaton(automaton::check(seed, answer, file)))
        },
    },
    DrillKind {
        name: "rthroughput",
        summary: "Block RThroughput of a random loop body, as llvm-mca prints it (Definition 23.1.10)",
        params_file: Some("drills/mii.yaml"),
        hints: rthroughput::HINTS,
        problem: |m, p, seed, solution| {
            let p = params_or(p, GenParams::loop_default);
            Ok(Problem::Rthroughput(rthroughput::problem(
                m, &p, seed, solution,
            )))
        },
        check: |m, p, seed, answer, file| {
            let p = params_or(p, GenParams::loop_default);
            Ok(Report::Rthroughput(rthroughput::check(
                m, &p, seed, answer, file,
            )))
        },
    },
];

/// The first line of a problem, `# course drill NAME --seed N [--machine
/// M]`: the command that makes it. Kept at the top of an answer file (it is
/// a comment to every answer reader), it tells `--check` which problem the
/// answer is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemLine {
    pub drill: Drill,
    pub seed: u64,
    /// The machine's name, for the drills that run on the `--machine`.
    pub machine: Option<String>,
}

impl std::fmt::Display for ProblemLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "# course drill {} --seed {}",
            self.drill.name(),
            self.seed
        )?;
        match &self.machine {
            Some(m) => write!(f, " --machine {m}"),
            None => Ok(()),
        }
    }
}

/// How to ask for the machine `name` on the command line: `--machine
/// NAME` for a built-in machine or a family member (`pathological-3`), the
/// machine's file otherwise.
pub fn machine_flag(name: &str) -> String {
    let named = crate::data::builtin_machine(name).is_some()
        || matches!(crate::family::machine(name), Some(Ok(_)));
    if named {
        format!("--machine {name}")
    } else {
        format!("--machine FILE (the file of machine {name})")
    }
}

impl ProblemLine {
    /// The line of a problem on the machine `m`.
    pub fn on(drill: Drill, seed: u64, m: &Machine) -> ProblemLine {
        ProblemLine {
            drill,
            seed,
            machine: Some(m.name().to_string()),
        }
    }

    /// The first problem line of an answer text and its line number, if it
    /// has one; a line that starts like one but cannot be read is an error
    /// located in `file`.
    pub fn find(text: &str, file: &str) -> Result<Option<(Named, u32)>, String> {
        for (i, raw) in answer::strip_bom(text).lines().enumerate() {
            let t = raw.trim_start();
            let Some(rest) = t.strip_prefix('#') else {
                continue;
            };
            let mut head = rest.split_whitespace();
            if head.next() != Some("course") || head.next() != Some("drill") {
                continue;
            }
            let line = i as u32 + 1;
            return match Named::read(rest) {
                Ok(named) => Ok(Some((named, line))),
                Err(m) => {
                    let column = (raw.len() - t.len()) as u32 + 1;
                    Err(Diagnostic::new(file, line, column, m).to_string())
                }
            };
        }
        Ok(None)
    }
}

/// The flags of a problem line that say which problem it is. `--seed`,
/// `--machine` and `--events` take the text after `=`, else the next word,
/// whatever it is (`--machine --seed` names the machine `--seed`, and
/// `--seed -3` is a negative seed); `--lesson` takes no value and drops an
/// `=…` it is given; the line's other words (`--solution`, `--hint 2`) are
/// skipped. As on the command line, the last of a repeated flag counts, and
/// so does the last of `--events` and `--lesson`.
#[derive(Debug, Default)]
struct LineFlags {
    seed: Option<u64>,
    machine: Option<String>,
    /// The issue attempts: `--events`' value, or the lesson's for
    /// `--lesson` ([`hazard::LESSON_EVENTS`]).
    events: Option<String>,
}

impl LineFlags {
    /// Reads the words after `# course drill NAME`; a message for the first
    /// flag without its value (the line's last word), or with a seed that is
    /// not a whole number ([`answer::whole`]).
    fn read(words: &[String]) -> Result<LineFlags, String> {
        let mut flags = LineFlags::default();
        let mut it = words.iter().map(String::as_str);
        while let Some(w) = it.next() {
            let (flag, inline) = w.split_once('=').map_or((w, None), |(f, v)| (f, Some(v)));
            if flag == "--lesson" {
                flags.events = Some(hazard::LESSON_EVENTS.to_string());
                continue;
            }
            if !matches!(flag, "--seed" | "--machine" | "--events") {
                continue;
            }
            let Some(value) = inline.or_else(|| it.next()) else {
                return Err(format!("{flag} has no value"));
            };
            match flag {
                "--seed" => {
                    let seed = answer::whole(value).map_err(|why| format!("--seed: {why}"))?;
                    flags.seed = Some(seed);
                }
                "--machine" => flags.machine = Some(value.to_string()),
                _ => flags.events = Some(value.to_string()),
            }
        }
        Ok(flags)
    }
}

impl Named {
    /// What the problem line `# course drill NAME …` (after its `#`) names;
    /// a message when it cannot be read.
    fn read(rest: &str) -> Result<Named, String> {
        let words = split_words(rest).map_err(|e| match e {
            WordsError::Unclosed(q) => format!("the quote {q} is not closed"),
            WordsError::LineBreak => "a stray line break (CR) in the problem line".into(),
        })?;
        let name = words.get(2).map_or("", String::as_str);
        let drill = Drill::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| format!("'{}' is not a drill", answer::shorten(name)))?;
        let LineFlags {
            seed,
            machine,
            events,
        } = LineFlags::read(words.get(3..).unwrap_or_default())?;
        match (seed, events) {
            (Some(_), Some(_)) => {
                Err("the problem line has both a --seed and issue attempts".into())
            }
            (Some(seed), None) => Ok(Named::Seed(ProblemLine {
                drill,
                seed,
                machine,
            })),
            (None, Some(_)) if drill != Drill::Hazard => Err(format!(
                "issue attempts (--events, --lesson) belong to the hazard drill, not {name}"
            )),
            (None, Some(events)) => Ok(Named::Events { events, machine }),
            (None, None) => Err("the problem line has no --seed".into()),
        }
    }
}

/// What a problem line names: a seed's problem, or a hazard drill on the
/// issue attempts given (`--events '…'`, `--lesson`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Named {
    Seed(ProblemLine),
    Events {
        events: String,
        machine: Option<String>,
    },
}

/// The listing of `course drill list`.
pub fn list() -> Vec<DrillEntry> {
    Drill::ALL.iter().map(|d| d.entry()).collect()
}

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

/// The mistakes of a checked submission in order: problems with the file
/// itself (located at line and column), then the hard checks.
fn violations(sub: &Submission, result: &CheckResult) -> Vec<Mistake> {
    let located = sub
        .errors
        .iter()
        .map(|d| Mistake::new(ViolationKind::Format, d.to_string()));
    let checks = result
        .violations
        .iter()
        .filter(|v| v.kind != ViolationKind::Format)
        .map(|v| Mistake::new(v.kind, v.message.clone()));
    located.chain(checks).collect()
}

/// The line that lists violation `v` (of operation `x`) under the wrong
/// steps `by` that cause it: `f at 0 would fit if d were not at 0 (…)`.
pub(crate) fn consequence_text(
    p: &course_engine::model::program::Program,
    result: &course_engine::engine::check::CheckResult,
    v: &course_engine::engine::check::Violation,
    x: course_engine::model::ids::OpId,
    by: &[course_engine::model::ids::OpId],
) -> String {
    let at = result.placed[x.index()].unwrap_or_default();
    let whom: Vec<String> = by
        .iter()
        .map(|&w| {
            let c = result.placed[w.index()].unwrap_or_default();
            format!("{} were not at {c}", p.label(w))
        })
        .collect();
    let would = if v.kind == ViolationKind::Latency {
        "be ready"
    } else {
        "fit"
    };
    format!(
        "{} at {at} would {would} if {} ({})",
        p.label(x),
        whom.join(" and "),
        v.message
    )
}

/// What kind of mistake an answer has (stable names for JSON): one the
/// schedule checker names too, or one of the drills' own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MistakeKind {
    /// Not what the list rule does at the first cycle where the answer
    /// departs from it.
    Order,
    /// A wrong value.
    Wrong,
    /// A valid modulo schedule at an II above the reference.
    Quality,
    /// An II below MII: no schedule can exist (the bound says which).
    BelowMii,
    /// A bit vector written in the opposite order (offset 0 last).
    Reversed,
    /// A set with one offset one too high or too low.
    OffByOne,
    /// A set with every offset one too high or too low.
    Shifted,
    /// `accept` where the recognizer rejects, or the other way round.
    Swapped,
    /// `F(A,B)` answered with `F(B,A)`: the pair in the other order.
    PairOrder,
    /// A set of forbidden latencies without its 0.
    MissingZero,
    /// An issue whose K has several offsets reserved as if it held the unit
    /// one cycle (a div as a one-cycle operation).
    OneCycle,
    /// An Advance that did not lower the offsets.
    NotLowered,
    /// A wrong resource bound (ResMII, RThroughput): a usage miscounted.
    ResourceBound,
    /// A wrong RecMII: the critical recurrence missed or misadded.
    Recurrence,
    /// A wrong MII where ResMII and RecMII were right: not their maximum.
    Maximum,
    /// RThroughput rounded up as ResMII is.
    RoundedUp,
    /// A kind of the schedule checker, under its name (`format`, `latency`,
    /// …): a drill's answer that does not read is a `format` mistake, a
    /// part left out `missing`, whatever the drill.
    #[serde(untagged)]
    Check(ViolationKind),
}

/// A named slip between a set given and the right one: every offset one
/// off (shifted), or exactly one offset one off.
pub(crate) fn set_slip(said: &[u32], want: &[u32]) -> Option<(MistakeKind, String)> {
    if said.len() != want.len() || said == want || said.is_empty() {
        return None;
    }
    let up = said.iter().zip(want).all(|(s, w)| *s == w + 1);
    let down = said.iter().zip(want).all(|(s, w)| s + 1 == *w);
    if up || down {
        let how = if up { "up" } else { "down" };
        return Some((
            MistakeKind::Shifted,
            format!("the right set shifted {how} by one"),
        ));
    }
    // Sets, so that a student's set of a million offsets costs n log n.
    let (said_set, want_set): (BTreeSet<u32>, BTreeSet<u32>) = (
        said.iter().copied().collect(),
        want.iter().copied().collect(),
    );
    let only: Vec<u32> = said
        .iter()
        .filter(|x| !want_set.contains(x))
        .copied()
        .collect();
    let lost: Vec<u32> = want
        .iter()
        .filter(|x| !said_set.contains(x))
        .copied()
        .collect();
    match (only.as_slice(), lost.as_slice()) {
        ([s], [w]) if s.abs_diff(*w) == 1 => Some((
            MistakeKind::OffByOne,
            format!("offset {w} off by one (you wrote {s})"),
        )),
        _ => None,
    }
}

impl From<ViolationKind> for MistakeKind {
    fn from(k: ViolationKind) -> MistakeKind {
        MistakeKind::Check(k)
    }
}

/// One mistake in an answer, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mistake {
    pub kind: MistakeKind,
    pub message: String,
    /// Violations that exist only because of this mistake: each would
    /// disappear if the answer's wrong steps were taken out. They are
    /// listed under it, never as mistakes of their own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consequences: Vec<String>,
}

impl Mistake {
    pub fn new(kind: impl Into<MistakeKind>, message: impl Into<String>) -> Mistake {
        Mistake {
            kind: kind.into(),
            message: message.into(),
            consequences: Vec::new(),
        }
    }
}

/// One part of an answer, judged: right (with what the text view shows for
/// it), or a mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<R> {
    Right(R),
    Wrong(Mistake),
}

/// The messages of the wrong verdicts, in order (for tests).
#[cfg(test)]
pub(crate) fn mistake_messages<R>(verdicts: &[Verdict<R>]) -> Vec<String> {
    verdicts
        .iter()
        .filter_map(|v| v.mistake().map(|x| x.message.clone()))
        .collect()
}

impl<R> Verdict<R> {
    /// The mistake, when it is one.
    pub fn mistake(&self) -> Option<&Mistake> {
        match self {
            Verdict::Right(_) => None,
            Verdict::Wrong(m) => Some(m),
        }
    }
}

/// The outcome of checking an answer that is a list of judged parts and
/// nothing more (the forbidden and automaton drills).
#[derive(Clone, Debug, Serialize)]
pub struct Verdicts<R> {
    pub correct: bool,
    pub drill: Drill,
    /// Each part's verdict, in the drill's order (serialised as the list
    /// of mistakes).
    #[serde(rename = "mistakes", serialize_with = "mistakes_only")]
    pub verdicts: Vec<Verdict<R>>,
    pub seed: u64,
}

impl<R> Verdicts<R> {
    /// The verdicts of `drill` for `seed`; correct when none is a mistake.
    pub fn new(drill: Drill, seed: u64, verdicts: Vec<Verdict<R>>) -> Verdicts<R> {
        Verdicts {
            correct: all_right(&verdicts),
            drill,
            verdicts,
            seed,
        }
    }
}

/// Serialises the verdicts of an answer as the list of its mistakes.
fn mistakes_only<R, S: Serializer>(verdicts: &[Verdict<R>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(verdicts.iter().filter_map(Verdict::mistake))
}

/// True when no verdict is a mistake.
fn all_right<R>(verdicts: &[Verdict<R>]) -> bool {
    verdicts.iter().all(|v| v.mistake().is_none())
}

/// `{0, 2}`, or `{}` for the empty set.
fn set_text(s: &[u32]) -> String {
    let v: Vec<String> = s.iter().map(u32::to_string).collect();
    format!("{{{}}}", v.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_json_names_and_tell_drills_apart() {
        for (i, d) in Drill::ALL.into_iter().enumerate() {
            assert_eq!(d as usize, i);
            assert_eq!(
                serde_json::to_value(d).unwrap(),
                serde_json::Value::from(d.name())
            );
            let named = |e: &Drill| e.name() == d.name();
            assert_eq!(Drill::ALL.iter().filter(|e| named(e)).count(), 1);
        }
    }

    #[test]
    fn problem_lines_round_trip() {
        let m = Machine::toy();
        for d in Drill::ALL {
            let line = d.problem(&m, None, 4, false).unwrap().line();
            let text = format!("\u{feff}\n  {line}\nrest # course drill mii\n");
            assert_eq!(
                ProblemLine::find(&text, "a.txt"),
                Ok(Some((Named::Seed(line), 2)))
            );
        }
        let find = |t: &str| ProblemLine::find(t, "a.txt");
        assert_eq!(find("a 0\n# a comment, isn't it\n"), Ok(None));
        assert_eq!(
            find("# course drill mii --seed=7 --solution --machine=wide\n"),
            Ok(Some((
                Named::Seed(ProblemLine {
                    drill: Drill::Mii,
                    seed: 7,
                    machine: Some("wide".into())
                }),
                1
            )))
        );
        assert_eq!(
            find("#course drill mii --seed x\n"),
            Err("a.txt:1:1: --seed: 'x' is not a whole number".into())
        );
        assert_eq!(
            find("# course drill nope --seed 1\n"),
            Err("a.txt:1:1: 'nope' is not a drill".into())
        );
        assert!(find("# course drill mii\n").is_err());
    }

    #[test]
    fn hazard_replay_lines_name_their_issue_attempts() {
        // The first line a replay prints (tests/it/practice.rs reads the
        // printed one), quoted as a shell quotes it.
        let first = "# course drill hazard --events 'div@0 mul@1' --machine toy";
        let events = |e: &str| Named::Events {
            events: e.into(),
            machine: Some("toy".into()),
        };
        let find = |t: &str| ProblemLine::find(t, "a.txt");
        assert_eq!(find(first), Ok(Some((events("div@0 mul@1"), 1))));
        assert_eq!(
            find("# course drill hazard --events=\"div@4  mul@5\" --machine toy"),
            Ok(Some((events("div@4  mul@5"), 1)))
        );
        assert_eq!(
            find("# course drill hazard --lesson --machine toy"),
            Ok(Some((events(hazard::LESSON_EVENTS), 1)))
        );
        assert_eq!(
            find("# course drill hazard --events 'div@0"),
            Err("a.txt:1:1: the quote ' is not closed".into())
        );
        assert_eq!(
            find("# course drill hazard --seed 2 --lesson"),
            Err("a.txt:1:1: the problem line has both a --seed and issue attempts".into())
        );
        assert!(find("# course drill mii --events 'div@0'").is_err());
    }

    #[test]
    fn problem_line_flags_skip_other_words_and_let_the_last_count() {
        let find = |t: &str| ProblemLine::find(t, "a.txt");
        let seed = |seed, machine: Option<&str>| {
            Ok(Some((
                Named::Seed(ProblemLine {
                    drill: Drill::Mii,
                    seed,
                    machine: machine.map(Into::into),
                }),
                1,
            )))
        };
        assert_eq!(
            find("# course drill mii x -- --hint=2 --seed 3 -s"),
            seed(3, None)
        );
        assert_eq!(
            find("# course drill mii --seed 3 --machine a --seed 4 --machine=b"),
            seed(4, Some("b"))
        );
        assert_eq!(
            find("# course drill mii --seed --machine toy"),
            Err("a.txt:1:1: --seed: '--machine' is not a whole number".into())
        );
        assert_eq!(
            find("# course drill mii --seed 1 --machine"),
            Err("a.txt:1:1: --machine has no value".into())
        );
        let events = |e: &str| {
            Ok(Some((
                Named::Events {
                    events: e.into(),
                    machine: None,
                },
                1,
            )))
        };
        assert_eq!(
            find("# course drill hazard --events 'a b' --lesson=x"),
            events(hazard::LESSON_EVENTS)
        );
        assert_eq!(
            find("# course drill hazard --lesson --events 'a b'"),
            events("a b")
        );
    }

    /// What the flags of tricky problem lines read as, kept from when clap
    /// read them (`LineFlags` was a clap derive with `allow_hyphen_values`
    /// and `args_override_self`): the hand-written reader keeps every answer
    /// and message.
    #[test]
    fn problem_line_flags_read_as_they_did_with_clap() {
        let read = |rest: &str| match ProblemLine::find(&format!("# course drill {rest}"), "f") {
            Ok(Some((Named::Seed(p), 1))) => format!("seed {} machine {:?}", p.seed, p.machine),
            Ok(Some((Named::Events { events, machine }, 1))) => {
                format!("events {events:?} machine {machine:?}")
            }
            Ok(other) => panic!("{rest}: {other:?}"),
            Err(m) => m.strip_prefix("f:1:1: ").unwrap().to_string(),
        };
        let lesson = format!("events {:?} machine None", hazard::LESSON_EVENTS);
        let table: [(&str, &str); 38] = [
            ("mii --seed", "--seed has no value"),
            ("mii --machine toy --seed", "--seed has no value"),
            ("mii --seed=", "--seed: '' is not a whole number"),
            ("mii --seed ''", "--seed: '' is not a whole number"),
            ("mii --seed=x", "--seed: 'x' is not a whole number"),
            ("mii --seed -1", "--seed: '-1' is negative"),
            ("mii --seed=-1", "--seed: '-1' is negative"),
            ("mii --seed -", "--seed: '-' is not a whole number"),
            ("mii --seed +3", "seed 3 machine None"),
            ("mii --seed ' 3 '", "seed 3 machine None"),
            (
                "mii --seed 99999999999999999999999",
                "--seed: '99999999999999999999999' is too large",
            ),
            ("mii --seed=3=4", "--seed: '3=4' is not a whole number"),
            ("mii --machine --seed 3", "the problem line has no --seed"),
            (
                "mii --seed 3 --machine --seed",
                "seed 3 machine Some(\"--seed\")",
            ),
            (
                "mii --seed --seed 3",
                "--seed: '--seed' is not a whole number",
            ),
            ("mii --seed 2 --machine -- x", "seed 2 machine Some(\"--\")"),
            ("mii --seed 2 -- --machine a", "seed 2 machine Some(\"a\")"),
            ("mii --seed 2 --machine=", "seed 2 machine Some(\"\")"),
            ("mii --seed 2 --machine=a=b", "seed 2 machine Some(\"a=b\")"),
            (
                "mii --seed 2 --machine --lesson",
                "seed 2 machine Some(\"--lesson\")",
            ),
            ("mii --seed 3 --seed 4", "seed 4 machine None"),
            ("mii --seed x --seed 4", "--seed: 'x' is not a whole number"),
            ("mii --seed 4 --seed x", "--seed: 'x' is not a whole number"),
            (
                "mii --seed x --machine",
                "--seed: 'x' is not a whole number",
            ),
            (
                "mii --seed 1 --machine=a --machine",
                "--machine has no value",
            ),
            (
                "mii --seed 2 --Seed 3 ---seed 5 -s 6 --seed2 7",
                "seed 2 machine None",
            ),
            ("mii --foo 3 --seed 2 --foo", "seed 2 machine None"),
            (
                "mii --foo=3 --seed=2 --solution --hint 2",
                "seed 2 machine None",
            ),
            (
                "mii --lesson=yes",
                "issue attempts (--events, --lesson) belong to the hazard drill, not mii",
            ),
            ("hazard --lesson=yes", &lesson),
            ("hazard --events a --lesson", &lesson),
            ("hazard --lesson --events a", "events \"a\" machine None"),
            ("hazard --events a --events b", "events \"b\" machine None"),
            ("hazard --lesson --lesson", &lesson),
            (
                "hazard --events --lesson",
                "events \"--lesson\" machine None",
            ),
            ("hazard --events=", "events \"\" machine None"),
            ("hazard --events", "--events has no value"),
            (
                "hazard --seed 1 --events x --lesson=",
                "the problem line has both a --seed and issue attempts",
            ),
        ];
        for (rest, want) in table {
            assert_eq!(read(rest), want, "{rest}");
        }
    }

    #[test]
    fn every_solution_checks_as_correct() {
        let m = Machine::toy();
        for d in Drill::ALL {
            for seed in 0..40 {
                let p = d.problem(&m, None, seed, true).unwrap();
                let answer = p.answer().unwrap();
                let r = d.check(&m, None, seed, &answer, "a.txt").unwrap();
                assert!(r.correct(), "{} seed {seed}:\n{answer}", d.name());
                assert!(r.mistakes().is_empty());
            }
        }
    }
}
