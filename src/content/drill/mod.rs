//! Drills: seeded practice problems with solutions and answer checking.
//!
//! Every drill is a pure function of (machine, parameters, seed): the same
//! inputs give the same value. Each part of a drill draws from its own
//! stream ([`Rng::derived`](crate::util::rng::Rng::derived)), so changing one
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
//! [`crate::formats::answer`] and [`crate::formats::submission`] only.
//!
//! A problem's text starts with its [`ProblemLine`], `# course drill
//! list-schedule --seed 4 --machine toy`: a comment the student keeps at the
//! top of the answer file, so that `--check` grades the answer against the
//! problem it was written for.
//!
//! ```
//! use course::content::drill::Drill;
//! use course::model::machine::Machine;
//! let m = Machine::toy();
//! let p = Drill::Mii.problem(&m, None, 2, true).unwrap();
//! let Some(answer) = p.answer() else { panic!("mii has an answer") };
//! assert!(Drill::Mii.check(&m, None, 2, &answer, "a.txt").unwrap().correct());
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::content::gen::{self, GenParams};
use crate::engine::check::{CheckResult, ViolationKind};
use crate::formats::answer;
use crate::formats::diagnostic::Diagnostic;
use crate::formats::submission::Submission;
use crate::model::json::{EdgesJson, MachineJson, OpsJson};
use crate::model::machine::Machine;
use crate::model::program::{Kind, Program};
use crate::util::rng::GENERATOR_VERSION;
use crate::util::text::{split_words, WordsError};

pub mod automaton;
pub mod forbidden;
pub mod hazard;
pub mod list_schedule;
pub mod mii;
pub mod modulo;
mod replay;
pub mod rthroughput;

/// The drills, in the order `course drill list` shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, clap::ValueEnum)]
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

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Drill::ListSchedule => "list-schedule",
            Drill::Mii => "mii",
            Drill::Modulo => "modulo",
            Drill::Forbidden => "forbidden",
            Drill::Hazard => "hazard",
            Drill::Automaton => "automaton",
            Drill::Rthroughput => "rthroughput",
        }
    }

    /// One line on what the drill practises.
    pub fn summary(self) -> &'static str {
        match self {
            Drill::ListSchedule => {
                "top-down list scheduling of a random block (heights, Fits, the reservation table)"
            }
            Drill::Mii => {
                "ResMII, RecMII and MII of a random loop (usage from reservation tables, the critical recurrence)"
            }
            Drill::Modulo => {
                "a modulo schedule of a random loop at the smallest II (the modulo reservation table; MII bounds it)"
            }
            Drill::Forbidden => {
                "forbidden latencies and collision vectors of random reservation tables (Definition 23.1.5)"
            }
            Drill::Hazard => {
                "the hazard recognizer's trace on the multiplier (Algorithm 23.1.7, the event table of Lesson 23.1 §3)"
            }
            Drill::Automaton => {
                "the pipeline automaton of one resource: every reachable state and its transitions (Algorithm 23.1.7)"
            }
            Drill::Rthroughput => {
                "Block RThroughput of a random loop body, as llvm-mca prints it (Definition 23.1.10)"
            }
        }
    }

    /// The generator parameter file in the course folder, if the drill has
    /// one: blocks for list-schedule, loops for the loop drills.
    pub fn params_file(self) -> Option<&'static str> {
        match self {
            Drill::ListSchedule => Some("drills/list-schedule.yaml"),
            Drill::Mii | Drill::Modulo | Drill::Rthroughput => Some("drills/mii.yaml"),
            Drill::Forbidden | Drill::Hazard | Drill::Automaton => None,
        }
    }

    /// The name and summary, for the listing.
    pub fn entry(self) -> DrillEntry {
        DrillEntry {
            name: self.name(),
            summary: self.summary(),
        }
    }

    /// `given`, or the built-in parameters of the drill's file.
    fn params(self, given: Option<&GenParams>) -> GenParams {
        match (given, self) {
            (Some(p), _) => p.clone(),
            (None, Drill::ListSchedule) => GenParams::block_default(),
            (None, _) => GenParams::loop_default(),
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
        Ok(match self {
            Drill::ListSchedule => Problem::ListSchedule(list_schedule::problem(
                m,
                &self.params(params),
                seed,
                solution,
            )),
            Drill::Mii => Problem::Mii(mii::problem(m, &self.params(params), seed, solution)),
            Drill::Modulo => {
                Problem::Modulo(modulo::problem(m, &self.params(params), seed, solution))
            }
            Drill::Forbidden => Problem::Forbidden(forbidden::problem(seed, solution)),
            Drill::Hazard => Problem::Hazard(hazard::problem(m, seed, solution)?),
            Drill::Automaton => Problem::Automaton(automaton::problem(seed, solution)),
            Drill::Rthroughput => Problem::Rthroughput(rthroughput::problem(
                m,
                &self.params(params),
                seed,
                solution,
            )),
        })
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
        Ok(match self {
            Drill::ListSchedule => Report::ListSchedule(list_schedule::check(
                m,
                &self.params(params),
                seed,
                answer,
                file,
            )),
            Drill::Mii => Report::Mii(mii::check(m, &self.params(params), seed, answer, file)),
            Drill::Modulo => {
                Report::Modulo(modulo::check(m, &self.params(params), seed, answer, file))
            }
            Drill::Forbidden => Report::Forbidden(forbidden::check(seed, answer, file)),
            Drill::Hazard => Report::Hazard(hazard::check(m, seed, answer, file)?),
            Drill::Automaton => Report::Automaton(automaton::check(seed, answer, file)),
            Drill::Rthroughput => Report::Rthroughput(rthroughput::check(
                m,
                &self.params(params),
                seed,
                answer,
                file,
            )),
        })
    }
}

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
    let named = crate::content::data::builtin_machine(name).is_some()
        || matches!(crate::content::family::machine(name), Some(Ok(_)));
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
            let line = i as u32 + 1;
            let column = (raw.len() - t.len()) as u32 + 1;
            let err = |m: String| Diagnostic::new(file, line, column, m).to_string();
            let mut head = rest.split_whitespace();
            if head.next() != Some("course") || head.next() != Some("drill") {
                continue;
            }
            let words = split_words(rest).map_err(|e| {
                err(match e {
                    WordsError::Unclosed(q) => format!("the quote {q} is not closed"),
                    WordsError::LineBreak => "a stray line break (CR) in the problem line".into(),
                })
            })?;
            let name = words.get(2).map_or("", String::as_str);
            let drill = Drill::ALL
                .into_iter()
                .find(|d| d.name() == name)
                .ok_or_else(|| err(format!("'{}' is not a drill", answer::shorten(name))))?;
            let (mut seed, mut machine, mut events) = (None, None, None);
            let mut it = words.iter().skip(3);
            while let Some(w) = it.next() {
                let (flag, inline) = match w.split_once('=') {
                    Some((f, v)) => (f, Some(v)),
                    None => (w.as_str(), None),
                };
                if flag == "--lesson" {
                    events = Some(hazard::LESSON_EVENTS.to_string());
                    continue;
                }
                if !matches!(flag, "--seed" | "--machine" | "--events") {
                    continue;
                }
                let Some(value) = inline.or_else(|| it.next().map(String::as_str)) else {
                    return Err(err(format!("{flag} has no value")));
                };
                match flag {
                    "--seed" => {
                        seed = Some(answer::whole(value).map_err(|e| err(format!("--seed: {e}")))?)
                    }
                    "--machine" => machine = Some(value.to_string()),
                    _ => events = Some(value.to_string()),
                }
            }
            let named = match (seed, events) {
                (Some(_), Some(_)) => {
                    return Err(err(
                        "the problem line has both a --seed and issue attempts".into()
                    ))
                }
                (Some(seed), None) => Named::Seed(ProblemLine {
                    drill,
                    seed,
                    machine,
                }),
                (None, Some(_)) if drill != Drill::Hazard => {
                    return Err(err(format!(
                        "issue attempts (--events, --lesson) belong to the hazard drill, not {name}"
                    )))
                }
                (None, Some(events)) => Named::Events { events, machine },
                (None, None) => return Err(err("the problem line has no --seed".into())),
            };
            return Ok(Some((named, line)));
        }
        Ok(None)
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
    /// The problem's first line (the command that makes it).
    pub fn line(&self) -> ProblemLine {
        match self {
            Problem::ListSchedule(p) => p.line(),
            Problem::Mii(p) => p.line(),
            Problem::Modulo(p) => p.line(),
            Problem::Forbidden(p) => p.line(),
            Problem::Hazard(p) => p.line(),
            Problem::Automaton(p) => p.line(),
            Problem::Rthroughput(p) => p.line(),
        }
    }

    /// The solution written as an answer file that checks as correct, when
    /// the problem was made with its solution.
    pub fn answer(&self) -> Option<String> {
        match self {
            Problem::ListSchedule(p) => p.solution.as_ref().map(|s| s.answer()),
            Problem::Mii(p) => p.solution.as_ref().map(|s| s.answer()),
            Problem::Modulo(p) => p.solution.as_ref().map(|s| s.answer()),
            Problem::Forbidden(p) => p.solution.as_ref().map(|s| s.answer()),
            Problem::Hazard(p) => p.solution.as_ref().map(|s| s.answer()),
            Problem::Automaton(p) => p.solution.as_ref().map(|s| s.answer()),
            Problem::Rthroughput(p) => p.solution.as_ref().map(|s| s.answer()),
        }
    }
}

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
    /// True when the answer has no mistake.
    pub fn correct(&self) -> bool {
        match self {
            Report::ListSchedule(r) => r.correct,
            Report::Mii(r) => r.correct,
            Report::Modulo(r) => r.correct,
            Report::Forbidden(r) => r.correct,
            Report::Hazard(r) => r.correct,
            Report::Automaton(r) => r.correct,
            Report::Rthroughput(r) => r.correct,
        }
    }

    /// Every mistake, in answer order.
    pub fn mistakes(&self) -> Vec<&Mistake> {
        fn wrong<R>(v: &[Verdict<R>]) -> Vec<&Mistake> {
            v.iter().filter_map(Verdict::mistake).collect()
        }
        match self {
            Report::ListSchedule(r) => r.mistakes.iter().collect(),
            Report::Mii(r) => wrong(&r.verdicts),
            Report::Modulo(r) => r.mistakes.iter().collect(),
            Report::Forbidden(r) => wrong(&r.verdicts),
            Report::Hazard(r) => wrong(&r.verdicts),
            Report::Automaton(r) => wrong(&r.verdicts),
            Report::Rthroughput(r) => wrong(&r.verdicts),
        }
    }
}

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
    gen::program(m, params, seed, None, kind).1
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
        .map(|d| Mistake::new(MistakeKind::Format, d.to_string()));
    let checks = result
        .violations
        .iter()
        .filter(|v| v.kind != ViolationKind::Format)
        .map(|v| Mistake::new(v.kind.into(), v.message.clone()));
    located.chain(checks).collect()
}

/// The line that lists violation `v` (of operation `x`) under the wrong
/// steps `by` that cause it: `f at 0 would fit if d were not at 0 (…)`.
pub(crate) fn consequence_text(
    p: &crate::model::program::Program,
    result: &crate::engine::check::CheckResult,
    v: &crate::engine::check::Violation,
    x: crate::model::ids::OpId,
    by: &[crate::model::ids::OpId],
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

/// What kind of mistake an answer has (stable names for JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MistakeKind {
    /// The answer file could not be read as the drill's format.
    Format,
    /// A part of the answer is absent.
    Missing,
    /// An operation placed more than once.
    Duplicate,
    /// A label the problem does not have.
    Unknown,
    /// A loop schedule without `ii`, or an `ii` on a block.
    Ii,
    /// A dependence whose latency has not elapsed.
    Latency,
    /// A resource over capacity (Algorithm 23.1.4).
    Resource,
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
        match k {
            ViolationKind::Format => MistakeKind::Format,
            ViolationKind::Missing => MistakeKind::Missing,
            ViolationKind::Duplicate => MistakeKind::Duplicate,
            ViolationKind::Unknown => MistakeKind::Unknown,
            ViolationKind::Ii => MistakeKind::Ii,
            ViolationKind::Latency => MistakeKind::Latency,
            ViolationKind::Resource => MistakeKind::Resource,
        }
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
    pub fn new(kind: MistakeKind, message: impl Into<String>) -> Mistake {
        Mistake {
            kind,
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

/// Serialises the verdicts of an answer as the list of its mistakes.
fn mistakes_only<R, S: Serializer>(verdicts: &[Verdict<R>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(verdicts.iter().filter_map(Verdict::mistake))
}

/// True when no verdict is a mistake.
fn all_right<R>(verdicts: &[Verdict<R>]) -> bool {
    verdicts.iter().all(|v| v.mistake().is_none())
}

impl Problem {
    /// The first `level` hints on the problem (at most the drill's number
    /// of hints), each one step of the method further than the last; no
    /// hint gives the answer to the part it is about.
    pub fn hints(&self, level: usize) -> Vec<String> {
        match self {
            Problem::ListSchedule(p) => list_schedule::hints(p, level),
            Problem::Mii(p) => mii::hints(p, level),
            Problem::Modulo(p) => modulo::hints(p, level),
            Problem::Forbidden(p) => forbidden::hints(p, level),
            Problem::Hazard(p) => hazard::hints(p, level),
            Problem::Automaton(p) => automaton::hints(p, level),
            Problem::Rthroughput(p) => rthroughput::hints(p, level),
        }
    }
}

impl Drill {
    /// How many hints the drill has.
    pub fn hint_count(self) -> usize {
        match self {
            Drill::ListSchedule => list_schedule::HINTS,
            Drill::Mii => mii::HINTS,
            Drill::Modulo => modulo::HINTS,
            Drill::Forbidden => forbidden::HINTS,
            Drill::Hazard => hazard::HINTS,
            Drill::Automaton => automaton::HINTS,
            Drill::Rthroughput => rthroughput::HINTS,
        }
    }
}

/// `K(o) = {0, 2}` on `r` for every class that reserves `r`
/// (Definition 23.1.5), as a hint line.
fn k_sets(m: &Machine, r: crate::model::ids::ResourceId) -> String {
    let sets: Vec<String> = m
        .class_ids()
        .filter_map(|c| {
            let mut k: Vec<u32> = m.class(c).offsets(r).collect();
            k.sort_unstable();
            k.dedup();
            (!k.is_empty()).then(|| format!("K({}) = {}", m.class(c).name, set_text(&k)))
        })
        .collect();
    format!(
        "The offsets each class reserves on {} (its K set): {}.",
        m.resource(r).name,
        sets.join(", ")
    )
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
    fn names_round_trip_through_clap() {
        use clap::ValueEnum;
        for d in Drill::ALL {
            assert_eq!(Drill::from_str(d.name(), false), Ok(d));
            assert_eq!(
                serde_json::to_value(d).unwrap(),
                serde_json::Value::from(d.name())
            );
        }
        assert_eq!(Drill::value_variants(), &Drill::ALL);
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
