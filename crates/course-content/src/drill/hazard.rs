//! The hazard drill: the trace of the hazard recognizer of Algorithm 23.1.7
//! on the unit that multiplies and divides, for a random sequence of issue
//! attempts (the event table of Lesson 23.1 §3). The answer is one
//! `accept {…}` or `reject {…}` line per issue, the set read with
//! [`answer::set`].
//!
//! A replay takes its issue attempts from the command line instead of a
//! seed (`div@4 mul@5 mul@7 mul@8`, [`LESSON_EVENTS`]: the §3 trace itself)
//! and traces the first unit of the first class named.

use std::sync::Arc;

use serde::Serialize;

use super::forbidden::{located, named_slip, offsets_on};
use super::{
    Drill, DrillError, Mistake, MistakeKind, ProblemLine, Verdict, all_right, mistakes_only,
};
use crate::json::MachineJson;
use course_engine::engine::check::ViolationKind;
use course_engine::engine::hazard::{self, Event, TraceRow, set_string};
use course_engine::formats::answer::{self, shorten};
use course_engine::model::ids::ResourceId;
use course_engine::model::machine::Machine;
use course_engine::util::rng::{GENERATOR_VERSION, Rng};

/// The problem: issue attempts on the multiplier.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub drill: Drill,
    /// `cycle 0: Issue(div)`, … (Advance implied between cycles).
    pub events: Vec<String>,
    pub generator_version: u32,
    pub machine: MachineJson<Arc<Machine>>,
    /// The issue attempts of a replay as given (`div@4 mul@5`); the seed is
    /// then 0 and unused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Solution>,
    /// The cycle of the first event (for the text view).
    #[serde(skip)]
    pub start: i64,
    /// The machine (for the text view).
    #[serde(skip)]
    pub model: Arc<Machine>,
    /// The unit traced (for the text view).
    #[serde(skip)]
    pub unit: ResourceId,
}

impl Problem {
    /// The problem's first line (the command that makes it); it names the machine.
    pub fn line(&self) -> ProblemLine {
        ProblemLine::on(self.drill, self.seed, &self.model)
    }
}

/// The recognizer's answer to each issue attempt.
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct Solution {
    pub steps: Vec<Step>,
    /// Every row of the trace, Advance included (for the text view).
    #[serde(skip)]
    pub trace: Vec<TraceRow>,
}

/// One issue attempt and its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    pub accepted: bool,
    /// `s[unit]` after the attempt.
    pub after: Vec<u32>,
    pub cycle: i64,
    /// `Issue(div)`.
    pub event: String,
}

impl Step {
    /// `accept` or `reject`.
    fn word(&self) -> &'static str {
        verdict_word(self.accepted)
    }
}

/// `accept` for an accepted issue, `reject` otherwise.
fn verdict_word(accepted: bool) -> &'static str {
    if accepted { "accept" } else { "reject" }
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        self.steps
            .iter()
            .map(|s| {
                let after: Vec<String> = s.after.iter().map(u32::to_string).collect();
                format!("{} {{{}}}\n", s.word(), after.join(", "))
            })
            .collect()
    }
}

/// An issue the student traced right.
pub type Right = Step;

/// The outcome of checking a trace.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub correct: bool,
    pub drill: Drill,
    /// Each issue in order, then surplus lines (serialised as the list of
    /// mistakes).
    #[serde(rename = "mistakes", serialize_with = "mistakes_only")]
    pub verdicts: Vec<Verdict<Right>>,
    /// The issue attempts of a replay as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
    pub seed: u64,
    /// The machine's name (for the text view).
    #[serde(skip)]
    pub machine_name: String,
}

/// A random sequence of multiply/divide issue attempts and advances, and
/// the unit they share.
fn events(m: &Machine, seed: u64) -> Result<(Vec<Event>, ResourceId), DrillError> {
    let needs = || {
        DrillError::Machine(
            "the hazard drill needs a machine with 'mul' and 'div' on one unit".into(),
        )
    };
    let mul = m.class_by_opcode("mul").ok_or_else(needs)?;
    let div = m.class_by_opcode("div").ok_or_else(needs)?;
    let unit = m
        .class(div)
        .reservation
        .iter()
        .find(|(r, _)| r.index() != 0)
        .map(|&(r, _)| r)
        .ok_or_else(|| DrillError::Machine("div uses no unit".into()))?;
    let mut rng = Rng::derived(seed, "hazard/events");
    let mut events = vec![Event::Issue(div)];
    let n = rng.range(5, 7);
    for _ in 0..n {
        let adv = rng.range(0, 2);
        for _ in 0..adv {
            events.push(Event::Advance);
        }
        events.push(Event::Issue(if rng.percent(30) { div } else { mul }));
    }
    Ok((events, unit))
}

/// The §3 trace of Lesson 23.1: a div at cycle 4, then muls at 5, 7 and 8.
pub const LESSON_EVENTS: &str = "div@4 mul@5 mul@7 mul@8";

/// The most issue attempts a replay may have.
pub const MAX_REPLAY_EVENTS: usize = 100;

/// The largest cycle a replay may name.
pub const MAX_REPLAY_CYCLE: u64 = 10_000;

/// Issue attempts from the command line: `CLASS@CYCLE` items (a class or
/// an opcode) separated by blanks or commas, cycles in nondecreasing
/// order. Returns the events from the first cycle on, that cycle, the
/// unit traced (the first unit of the first class named) and the spec
/// written back in canonical form.
pub fn parse_events(
    m: &Machine,
    spec: &str,
) -> Result<(Vec<Event>, i64, ResourceId, String), DrillError> {
    let bad = DrillError::Events;
    let items: Vec<&str> = spec
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if items.is_empty() {
        return Err(bad(format!(
            "no issue attempts; write them like '{LESSON_EVENTS}'"
        )));
    }
    if items.len() > MAX_REPLAY_EVENTS {
        return Err(bad(format!(
            "{} issue attempts, more than {MAX_REPLAY_EVENTS}",
            items.len()
        )));
    }
    let mut events = Vec::new();
    let mut canonical = Vec::new();
    let mut start = None;
    let mut cycle = 0u64;
    for item in items {
        let Some((name, at)) = item.split_once('@') else {
            return Err(bad(format!(
                "'{}' is not CLASS@CYCLE (e.g. div@4)",
                shorten(item)
            )));
        };
        let Some(class) = m.class_by_name(name).or_else(|| m.class_by_opcode(name)) else {
            return Err(bad(format!(
                "machine {} has no class or opcode '{}'",
                m.name(),
                shorten(name)
            )));
        };
        let at = answer::whole(at).map_err(|e| bad(format!("{item}: {e}")))?;
        if at > MAX_REPLAY_CYCLE {
            return Err(bad(format!("{item}: cycles go up to {MAX_REPLAY_CYCLE}")));
        }
        match start {
            None => {
                start = Some(at);
                cycle = at;
            }
            Some(_) if at < cycle => {
                return Err(bad(format!(
                    "{item} comes after cycle {cycle}: the recognizer only moves forward (Algorithm 23.1.7), so give the cycles in order"
                )));
            }
            Some(_) => {}
        }
        while cycle < at {
            events.push(Event::Advance);
            cycle += 1;
        }
        events.push(Event::Issue(class));
        canonical.push(format!("{}@{at}", m.class(class).name));
    }
    let Some(Event::Issue(first)) = events.first().copied() else {
        return Err(bad("no issue attempts".into()));
    };
    let units: Vec<ResourceId> = m
        .class(first)
        .reservation
        .iter()
        .map(|&(r, _)| r)
        .filter(|r| r.index() != 0)
        .collect();
    let unit = units
        .iter()
        .copied()
        .find(|&r| m.resource(r).capacity == 1)
        .or(units.first().copied())
        .ok_or_else(|| {
            bad(format!(
                "{} uses no unit to trace; start with a class that does",
                m.class(first).name
            ))
        })?;
    Ok((events, start.unwrap_or(0) as i64, unit, canonical.join(" ")))
}

/// The issue attempts a problem traces: drawn from a seed, or given as a
/// replay (`seed` is then 0 and `replay` the attempts as written back).
struct Attempts {
    events: Vec<Event>,
    /// The cycle of the first event.
    start: i64,
    /// The unit traced.
    unit: ResourceId,
    seed: u64,
    replay: Option<String>,
}

impl Attempts {
    /// The attempts of `seed`, from cycle 0.
    fn of_seed(m: &Machine, seed: u64) -> Result<Attempts, DrillError> {
        let (events, unit) = events(m, seed)?;
        Ok(Attempts {
            events,
            start: 0,
            unit,
            seed,
            replay: None,
        })
    }

    /// The attempts written in `spec` ([`parse_events`]).
    fn of_spec(m: &Machine, spec: &str) -> Result<Attempts, DrillError> {
        let (events, start, unit, canonical) = parse_events(m, spec)?;
        Ok(Attempts {
            events,
            start,
            unit,
            seed: 0,
            replay: Some(canonical),
        })
    }
}

/// The replay of `spec` ([`parse_events`]), with the trace when `solution`.
pub fn replay_problem(m: &Machine, spec: &str, solution: bool) -> Result<Problem, DrillError> {
    Ok(problem_of(m, Attempts::of_spec(m, spec)?, solution))
}

/// Checks an answer to the replay of `spec`.
pub fn replay_check(m: &Machine, spec: &str, text: &str, file: &str) -> Result<Report, DrillError> {
    Ok(check_of(m, Attempts::of_spec(m, spec)?, text, file))
}

/// The issue attempts as `cycle N: Issue(class)`, the first at `start`.
fn event_names(m: &Machine, start: i64, events: &[Event]) -> Vec<String> {
    let mut cycle = start;
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::Advance => cycle += 1,
            Event::Issue(c) => out.push(format!("cycle {cycle}: Issue({})", m.class(*c).name)),
        }
    }
    out
}

/// The issue rows of the trace as steps.
fn steps(trace: &[TraceRow]) -> Vec<Step> {
    trace
        .iter()
        .filter_map(|r| {
            r.accepted.map(|accepted| Step {
                accepted,
                after: r.after.clone(),
                cycle: r.cycle,
                event: r.event.clone(),
            })
        })
        .collect()
}

/// The events for `seed`, with the trace when `solution`.
pub fn problem(m: &Machine, seed: u64, solution: bool) -> Result<Problem, DrillError> {
    Ok(problem_of(m, Attempts::of_seed(m, seed)?, solution))
}

/// The problem of the attempts `a`.
fn problem_of(m: &Machine, a: Attempts, solution: bool) -> Problem {
    let solution = solution.then(|| {
        let trace = hazard::trace(m, a.unit, a.start, &a.events);
        Solution {
            steps: steps(&trace),
            trace,
        }
    });
    let model = Arc::new(m.clone());
    Problem {
        drill: Drill::Hazard,
        events: event_names(m, a.start, &a.events),
        generator_version: GENERATOR_VERSION,
        machine: MachineJson(model.clone()),
        replay: a.replay,
        seed: a.seed,
        solution,
        start: a.start,
        model,
        unit: a.unit,
    }
}

/// Checks one `accept {…}` / `reject {…}` line per issue attempt; a wrong
/// one gets the state that decided it.
pub fn check(m: &Machine, seed: u64, text: &str, file: &str) -> Result<Report, DrillError> {
    Ok(check_of(m, Attempts::of_seed(m, seed)?, text, file))
}

/// [`check`] for the attempts `a`.
fn check_of(m: &Machine, a: Attempts, text: &str, file: &str) -> Report {
    let trace = hazard::trace(m, a.unit, a.start, &a.events);
    let issues: Vec<&TraceRow> = trace.iter().filter(|r| r.accepted.is_some()).collect();
    let want = steps(&trace);
    let given: Vec<answer::Line> = answer::lines(text).collect();
    // On a capacity-1 unit the state is a set, and each step is judged
    // against the state the student's own previous step implies: a later
    // step that follows from an earlier wrong one is listed under it.
    let sets = m.resource(a.unit).capacity == 1;
    let mut verdicts: Vec<Verdict<Right>> = Vec::new();
    // The student's state after the last step read, with its cycle, and
    // the verdict a knock-on difference is listed under.
    let mut own: Option<(Vec<u32>, i64)> = None;
    let mut cause: Option<usize> = None;
    for (i, (step, row)) in want.iter().zip(&issues).enumerate() {
        let implied = Implied::new(m, a.unit, sets, own.as_ref(), step, row);
        let said = match given.get(i) {
            Some(l) => read_step(l, &implied, file),
            None => Err(Verdict::Wrong(Mistake::new(
                ViolationKind::Missing,
                format!("{}: missing: no line for this issue attempt", implied.what),
            ))),
        };
        let said = match said {
            Ok(said) => said,
            Err(verdict) => {
                verdicts.push(verdict);
                own = None;
                continue;
            }
        };
        own = Some((said.set.clone(), step.cycle));
        if said.word == step.word() && said.set == step.after {
            verdicts.push(Verdict::Right(step.clone()));
            continue;
        }
        if sets && said.word == implied.word() && said.set == implied.after {
            // Right given the student's earlier steps: a knock-on
            // difference of the step that went wrong.
            if let Some(Verdict::Wrong(mk)) = cause.and_then(|c| verdicts.get_mut(c)) {
                mk.consequences.push(format!(
                    "{}: {} {} follows from your earlier step; it is {} {}",
                    implied.what,
                    said.word,
                    shorten(&set_string(&said.set)),
                    step.word(),
                    set_string(&step.after)
                ));
                continue;
            }
        }
        cause = Some(verdicts.len());
        verdicts.push(Verdict::Wrong(explain_step(m, row, &implied, &said)));
    }
    if let Some(extra) = given.get(want.len()) {
        verdicts.push(located(
            ViolationKind::Format,
            file,
            extra.line,
            extra.column,
            format!(
                "{} more line(s) than issue events",
                given.len() - want.len()
            ),
        ));
    }
    Report {
        correct: all_right(&verdicts),
        drill: Drill::Hazard,
        verdicts,
        replay: a.replay,
        seed: a.seed,
        machine_name: m.name().to_string(),
    }
}

/// One issue attempt as the student's own earlier steps imply it
/// (Algorithm 23.1.7 from the student's last state, on a capacity-1 unit),
/// or as the trace has it.
struct Implied {
    /// `cycle 5: Issue(mul)`.
    what: String,
    /// The state before the issue.
    before: Vec<u32>,
    /// The states from the student's last step to `before`, one Advance
    /// apart (empty when `before` is the trace's).
    path: Vec<Vec<u32>>,
    /// The cycle of the student's last step, when `before` follows from it.
    from: Option<i64>,
    /// K of the class issued, on the unit traced.
    k: Vec<u32>,
    /// Whether the issue is accepted from `before`.
    accepted: bool,
    /// The state after the issue.
    after: Vec<u32>,
}

impl Implied {
    /// The issue `step` (the trace's `row`), from the student's state `own`
    /// (with its cycle) when the unit is a set (`sets`).
    fn new(
        m: &Machine,
        unit: ResourceId,
        sets: bool,
        own: Option<&(Vec<u32>, i64)>,
        step: &Step,
        row: &TraceRow,
    ) -> Implied {
        let (before, path, from) = match own {
            Some((s, c)) if sets => {
                let mut path = vec![s.clone()];
                for _ in *c..step.cycle {
                    let next = advance(path.last().map_or(&[][..], Vec::as_slice));
                    path.push(next);
                }
                (path.last().cloned().unwrap_or_default(), path, Some(*c))
            }
            _ => (row.before.clone(), Vec::new(), None),
        };
        let k = row
            .class
            .map(|o| offsets_on(m, o, unit))
            .unwrap_or_default();
        let (accepted, after) = if sets {
            let ok = k.iter().all(|x| !before.contains(x));
            (
                ok,
                if ok {
                    union(&before, &k)
                } else {
                    before.clone()
                },
            )
        } else {
            (step.accepted, step.after.clone())
        };
        Implied {
            what: format!("cycle {}: {}", step.cycle, step.event),
            before,
            path,
            from,
            k,
            accepted,
            after,
        }
    }

    /// `accept` or `reject`.
    fn word(&self) -> &'static str {
        verdict_word(self.accepted)
    }

    /// The cycle of the student's last step and the states since, written
    /// `{0,1,2}→{0,1}`, when Advances lie between.
    fn walk(&self) -> Option<(i64, String)> {
        let c = self.from.filter(|_| self.path.len() > 1)?;
        let walk: Vec<String> = self.path.iter().map(|s| set_string(s)).collect();
        Some((c, walk.join("→")))
    }
}

/// What the student wrote for one issue attempt.
struct Said {
    /// `accept` or `reject`.
    word: String,
    /// The state after it.
    set: Vec<u32>,
}

/// Reads `accept {…}` or `reject {…}` from line `l` (or `accept: {…}`, as
/// in every key-value answer); a line that cannot be read gets its
/// verdict, located.
fn read_step(l: &answer::Line, implied: &Implied, file: &str) -> Result<Said, Verdict<Right>> {
    let end = l
        .text
        .find(|c: char| c == ':' || c.is_whitespace())
        .unwrap_or(l.text.len());
    let (word, rest) = l.text.split_at(end);
    let rest = rest.trim_start();
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let word = word.to_ascii_lowercase();
    if word != "accept" && word != "reject" {
        let (kind, message) = if answer::set(l.text).is_ok() {
            (
                ViolationKind::Missing,
                format!(
                    "{}: the verdict is missing: write accept or reject before the set",
                    implied.what
                ),
            )
        } else {
            (
                ViolationKind::Format,
                format!(
                    "expected 'accept {{…}}' or 'reject {{…}}', found '{}'",
                    shorten(l.text)
                ),
            )
        };
        return Err(located(kind, file, l.line, l.column, message));
    }
    let set_at = l.column
        + l.text[..l.text.len() - rest.trim_start().len()]
            .chars()
            .count() as u32;
    if rest.trim().is_empty() {
        return Err(missing_set(l, implied, &word, set_at, file));
    }
    match answer::set(rest) {
        // Elements are at most answer::MAX_SET_ELEMENT.
        Ok(s) => Ok(Said {
            word,
            set: s.into_iter().map(|x| x as u32).collect(),
        }),
        Err(e) => Err(located(ViolationKind::Format, file, l.line, set_at, e)),
    }
}

/// A verdict `word` without the set after it (which would start at
/// `set_at`); the verdict is still checked, and a wrong one is the cause.
fn missing_set(
    l: &answer::Line,
    implied: &Implied,
    word: &str,
    set_at: u32,
    file: &str,
) -> Verdict<Right> {
    let what = &implied.what;
    let own_word = implied.word();
    if word == own_word {
        return located(
            ViolationKind::Missing,
            file,
            l.line,
            set_at,
            format!("{what}: the set after it is missing: write {word} {{…}}"),
        );
    }
    located(
        MistakeKind::Wrong,
        file,
        l.line,
        l.column,
        format!(
            "{what}: {word} is the wrong verdict: K = {} and s = {} {}, so it is {own_word}; and the set after it is missing: write {own_word} {{…}}",
            set_string(&implied.k),
            set_string(&implied.before),
            if implied.accepted {
                "do not meet"
            } else {
                "meet"
            },
        ),
    )
}

/// Why a step is wrong from the student's own state: accept and reject
/// swapped (K(o) against s, Algorithm 23.1.7), or the set after it, a slip
/// named, with the Advances since the student's last step.
fn explain_step(m: &Machine, row: &TraceRow, implied: &Implied, said: &Said) -> Mistake {
    let what = &implied.what;
    let word = &said.word;
    let own_word = implied.word();
    let said_text = format!("you said {word} {}", shorten(&set_string(&said.set)));
    if *word != own_word {
        let (before, k) = (set_string(&implied.before), set_string(&implied.k));
        let name = row
            .class
            .map(|o| m.class(o).name.clone())
            .unwrap_or_default();
        let why = if implied.accepted {
            format!("K({name}) = {k} misses s = {before}")
        } else {
            format!("s = {before} holds an offset of K({name}) = {k}")
        };
        let context = implied.walk().map_or(String::new(), |(c, walk)| {
            format!(" (from cycle {c}: {walk})")
        });
        return Mistake::new(
            MistakeKind::Swapped,
            format!("{what}: {own_word}ed, not {word}ed: {why}{context}; {said_text}"),
        );
    }
    let since = implied.walk().map_or(String::new(), |(c, walk)| {
        let n = implied.path.len() - 1;
        let advances = if n == 1 {
            "one Advance".to_string()
        } else {
            format!("{n} Advances")
        };
        format!("{advances} since cycle {c} ({walk}), then ")
    });
    // The issue reserved as if it held the unit one cycle: its first
    // offset only, where K has several.
    if implied.accepted
        && implied.k.len() > 1
        && said.set == union(&implied.before, &implied.k[..1])
    {
        let name = row
            .class
            .map(|o| m.class(o).name.clone())
            .unwrap_or_default();
        return Mistake::new(
            MistakeKind::OneCycle,
            format!(
                "{what}: {name} reserved as a one-cycle operation: K({name}) = {} holds the \
                 unit at every one of those offsets, so {since}{own_word} leaves s ∪ K({name}) = \
                 {}; {said_text}",
                set_string(&implied.k),
                set_string(&implied.after)
            ),
        );
    }
    let (kind, named) = named_slip(super::set_slip(&said.set, &implied.after));
    Mistake::new(
        kind,
        format!(
            "{what}: {named}{since}{own_word} leaves {}; {said_text}",
            set_string(&implied.after)
        ),
    )
}

/// The state after Advance (Algorithm 23.1.7): every offset down one,
/// offset 0 dropped.
pub(super) fn advance(s: &[u32]) -> Vec<u32> {
    s.iter().filter(|&&k| k > 0).map(|k| k - 1).collect()
}

/// The state after an accepted Issue (Algorithm 23.1.7): `s ∪ K`, sorted.
pub(super) fn union(s: &[u32], k: &[u32]) -> Vec<u32> {
    let mut u: Vec<u32> = s.iter().chain(k).copied().collect();
    u.sort_unstable();
    u.dedup();
    u
}

/// How many hints the drill has.
pub const HINTS: usize = 2;

/// The first `level` hints (at most [`HINTS`]): the K sets on the unit
/// traced, then Algorithm 23.1.7 applied to an issue that is not one of
/// the problem's attempts.
pub fn hints(p: &Problem, level: usize) -> Vec<String> {
    let m = &p.model;
    let unit = m.resource(p.unit).name.clone();
    let mut out = vec![format!(
        "Replay the attempts in order, keeping the state s of {unit} (its offsets \
         already reserved). Before an attempt at a later cycle, apply one Advance per \
         cycle that passed. Then compare K(o) with s: no shared offset means accept and \
         add K(o) to s; a shared one means reject, s unchanged. Write each verdict with \
         the s after it."
    )];
    // A made-up class x on an empty unit: the moves, none of them a step of
    // the problem (its classes are not x), and K(x) chosen so that no state
    // shown is one of the answer's.
    let answer_states: Vec<Vec<u32>> = match &p.solution {
        Some(s) => s.steps.iter().map(|st| st.after.clone()).collect(),
        None => {
            let solved = match &p.replay {
                Some(spec) => replay_problem(m, spec, true).ok(),
                None => problem(m, p.seed, true).ok(),
            };
            solved
                .and_then(|q| q.solution)
                .map(|s| s.steps.into_iter().map(|st| st.after).collect())
                .unwrap_or_default()
        }
    };
    let moves = |kx: &[u32]| {
        let first = union(&[], kx);
        let one = advance(&first);
        let second = union(&one, kx);
        (first, one, second)
    };
    let candidates: [&[u32]; 8] = [
        &[0, 2],
        &[0, 3],
        &[0, 4],
        &[0, 5],
        &[0, 2, 4],
        &[0, 3, 5],
        &[0, 6],
        &[0, 7],
    ];
    let kx: Vec<u32> = candidates
        .iter()
        .find(|k| {
            let (a, b, c) = moves(k);
            [a, b, c].iter().all(|st| !answer_states.contains(st))
        })
        .map_or(vec![0, 2], |k| k.to_vec());
    let (first, one, second) = moves(&kx);
    out.push(format!(
        "Algorithm 23.1.7 on a made-up class x with K(x) = {}: issued on an empty \
         {unit}, x is accepted and leaves {}; one Advance gives {}; a second x then \
         shares no offset, so it is accepted and leaves {}; a third x in that cycle \
         meets offset 0 and is rejected, leaving {} as it was.",
        super::set_text(&kx),
        super::set_text(&first),
        super::set_text(&one),
        super::set_text(&second),
        super::set_text(&second),
    ));
    out.truncate(level.min(HINTS));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(r: &Report) -> Vec<String> {
        crate::drill::mistake_messages(&r.verdicts)
    }

    #[test]
    fn a_huge_wrong_set_is_echoed_shortened() {
        let m = Machine::toy();
        let big: Vec<String> = (0..5000).map(|i| i.to_string()).collect();
        let r = check(&m, 3, &format!("accept {{{}}}\n", big.join(",")), "a.txt").unwrap();
        let said = &messages(&r)[0];
        assert!(said.contains("you said accept {0,1,2,"), "{said}");
        assert!(said.len() < 200, "{said}");
    }

    #[test]
    fn solutions_check_as_correct() {
        let m = Machine::toy();
        for seed in 0..40 {
            let s = problem(&m, seed, true).unwrap().solution.unwrap();
            let r = check(&m, seed, &s.answer(), "a.txt").unwrap();
            assert!(r.correct, "seed {seed}: {:?}", messages(&r));
            let colons = s
                .answer()
                .replace("accept ", "Accept: ")
                .replace("reject ", "reject:");
            let r = check(&m, seed, &colons, "a.txt").unwrap();
            assert!(r.correct, "seed {seed}: {:?}", messages(&r));
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let m = Machine::toy();
        let s = problem(&m, 3, true).unwrap().solution.unwrap();
        let flipped = s.answer().replacen("accept", "reject", 1);
        let r = check(&m, 3, &flipped, "a.txt").unwrap();
        assert_eq!(messages(&r).len(), 1);
        assert!(
            messages(&r)[0].contains("accepted, not rejected: K("),
            "{:?}",
            messages(&r)
        );
        let r = check(&m, 3, "", "a.txt").unwrap();
        assert_eq!(messages(&r).len(), s.steps.len());
        let r = check(&m, 3, &format!("{}accept {{}}\n", s.answer()), "a.txt").unwrap();
        assert_eq!(
            messages(&r),
            vec![format!(
                "a.txt:{}:1: 1 more line(s) than issue events",
                s.steps.len() + 1
            )]
        );
    }

    #[test]
    fn malformed_lines_are_located_format_errors() {
        let m = Machine::toy();
        let r = check(&m, 3, "accept {0, 1\nmaybe {0}\n\taccept 0-1\n", "a.txt").unwrap();
        let msgs = messages(&r);
        assert!(
            msgs[0].starts_with("a.txt:1:8: '{0, 1' does not end with '}'"),
            "{}",
            msgs[0]
        );
        assert_eq!(
            msgs[1],
            "a.txt:2:1: expected 'accept {…}' or 'reject {…}', found 'maybe {0}'"
        );
        assert!(
            msgs[2].starts_with("a.txt:3:9: '0-1' is a range, and ranges are not read"),
            "{}",
            msgs[2]
        );
        let r = check(&m, 3, "accept\n", "a.txt").unwrap();
        assert!(
            messages(&r)[0]
                .starts_with("a.txt:1:7: cycle 0: Issue(div): the set after it is missing"),
            "{:?}",
            messages(&r)
        );
        // A wrong verdict without its set: the verdict is named first.
        let r = check(&m, 3, "reject\n", "a.txt").unwrap();
        assert!(
            messages(&r)[0].starts_with(
                "a.txt:1:1: cycle 0: Issue(div): reject is the wrong verdict: K = {0,1,2,3} and s = ∅ do not meet, so it is accept; and the set after it is missing"
            ),
            "{:?}",
            messages(&r)
        );
    }

    /// The slips named: a set shifted by one, one offset off by one, the
    /// Advances between the last right state and the wrong one, a missing
    /// verdict, accept and reject swapped; and a later step that follows
    /// from the wrong one is its consequence.
    #[test]
    fn slips_are_named_with_their_events() {
        let m = Machine::toy();
        // The lesson's trace: div@4 (K = {0,1,2,3}), then mul@5, mul@7, mul@8.
        let check = |t: &str| replay_check(&m, LESSON_EVENTS, t, "a.txt").unwrap();
        let p = replay_problem(&m, LESSON_EVENTS, true).unwrap();
        let right = p.solution.unwrap().answer();
        let lines: Vec<&str> = right.lines().collect();
        let with = |i: usize, l: &str| -> String {
            let mut v = lines.clone();
            v[i] = l;
            v.join("\n") + "\n"
        };
        let r = check(&with(1, "reject {1,2,3}"));
        let first = &r.verdicts.iter().find_map(Verdict::mistake).unwrap();
        assert!(
            first.message.starts_with(
                "cycle 5: Issue(mul): the right set shifted up by one: one Advance since cycle 4 \
                 ({0,1,2,3}→{0,1,2}), then reject leaves {0,1,2}"
            ),
            "{}",
            first.message
        );
        assert_eq!(first.kind, MistakeKind::Shifted);
        let r = check(&with(1, "reject {0,1,3}"));
        let first = r.verdicts.iter().find_map(Verdict::mistake).unwrap();
        assert_eq!(first.kind, MistakeKind::OffByOne, "{}", first.message);
        assert!(first.message.contains("offset 2 off by one (you wrote 3)"));
        let r = check(&with(1, "accept {0,1,2}"));
        let first = r.verdicts.iter().find_map(Verdict::mistake).unwrap();
        assert_eq!(first.kind, MistakeKind::Swapped, "{}", first.message);
        assert!(
            first.message.contains("rejected, not accepted"),
            "{}",
            first.message
        );
        let r = check(&with(1, "{0,1,2}"));
        assert!(
            messages(&r)[0].ends_with(
                "cycle 5: Issue(mul): the verdict is missing: write accept or reject before the set"
            ),
            "{:?}",
            messages(&r)
        );
        // Carried forward from a wrong state: the next step follows from
        // it, so it is listed under it (tests/it/drill_blame.rs checks
        // this on every seed).
        let r = check(&format!(
            "accept {{0,1,2}}\nreject {{0,1}}\n{}\n",
            lines[2..].join("\n")
        ));
        let wrong: Vec<&Mistake> = r.verdicts.iter().filter_map(Verdict::mistake).collect();
        assert!(
            wrong[0].consequences[0].starts_with("cycle 5: Issue(mul): reject {0,1} follows"),
            "{wrong:#?}"
        );
    }

    #[test]
    fn replays_check_their_own_solutions() {
        let m = Machine::toy();
        for spec in [LESSON_EVENTS, "mul@0 div@0 div@3 mul@3 mul@9", "div@0"] {
            let p = replay_problem(&m, spec, true).unwrap();
            assert_eq!(p.replay.as_deref(), Some(spec));
            let answer = p.solution.unwrap().answer();
            let r = replay_check(&m, spec, &answer, "a.txt").unwrap();
            assert!(r.correct, "{spec}: {:?}", messages(&r));
        }
        let (events, start, unit, _) = parse_events(&m, LESSON_EVENTS).unwrap();
        assert_eq!(
            (start, events.len(), m.resource(unit).name.as_str()),
            (4, 8, "mul")
        );
    }

    #[test]
    fn machines_without_a_multiplier_are_refused() {
        let m = course_engine::engine::hazard::pathological_machine(2);
        assert!(problem(&m, 1, false).is_err());
    }
}
