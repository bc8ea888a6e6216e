//! The hazard drill: the trace of the hazard recognizer of Algorithm 23.1.7
//! on the unit that multiplies and divides, for a random sequence of issue
//! attempts (the event table of Lesson 23.1 §3). The answer is one
//! `accept {…}` or `reject {…}` line per issue, the set read with
//! [`answer::set`].

use serde::Serialize;

use super::{
    all_right, mistakes_only, Drill, DrillError, Mistake, MistakeKind, ProblemLine, Verdict,
};
use crate::engine::hazard::{self, set_string, Event, TraceRow};
use crate::formats::answer::{self, shorten};
use crate::formats::diagnostic::Diagnostic;
use crate::model::ids::ResourceId;
use crate::model::machine::{Machine, MachineInfo};
use crate::util::rng::{Rng, GENERATOR_VERSION};

/// The problem: issue attempts on the multiplier.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub drill: Drill,
    /// `cycle 0: Issue(div)`, … (Advance implied between cycles).
    pub events: Vec<String>,
    pub generator_version: u32,
    pub machine: MachineInfo,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Solution>,
    /// The machine (for the text view).
    #[serde(skip)]
    pub model: Machine,
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
    fn word(&self) -> &'static str {
        if self.accepted {
            "accept"
        } else {
            "reject"
        }
    }
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

/// The issue attempts as `cycle N: Issue(class)`.
fn event_names(m: &Machine, events: &[Event]) -> Vec<String> {
    let mut cycle = 0;
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
    let (events, unit) = events(m, seed)?;
    let solution = solution.then(|| {
        let trace = hazard::trace(m, unit, 0, &events);
        Solution {
            steps: steps(&trace),
            trace,
        }
    });
    Ok(Problem {
        drill: Drill::Hazard,
        events: event_names(m, &events),
        generator_version: GENERATOR_VERSION,
        machine: m.info(),
        seed,
        solution,
        model: m.clone(),
        unit,
    })
}

/// Checks one `accept {…}` / `reject {…}` line per issue attempt; a wrong
/// one gets the state that decided it.
pub fn check(m: &Machine, seed: u64, text: &str, file: &str) -> Result<Report, DrillError> {
    let (events, unit) = events(m, seed)?;
    let trace = hazard::trace(m, unit, 0, &events);
    let befores: Vec<&Vec<u32>> = trace
        .iter()
        .filter(|r| r.accepted.is_some())
        .map(|r| &r.before)
        .collect();
    let want = steps(&trace);
    let given: Vec<answer::Line> = answer::lines(text).collect();
    let located = |l: u32, c: u32, message: String| {
        Verdict::Wrong(Mistake::new(
            MistakeKind::Format,
            Diagnostic::new(file, l, c, message).to_string(),
        ))
    };
    let mut verdicts = Vec::new();
    for (i, (step, before)) in want.iter().zip(&befores).enumerate() {
        let what = format!("cycle {}: {}", step.cycle, step.event);
        let Some(l) = given.get(i) else {
            verdicts.push(Verdict::Wrong(Mistake::new(
                MistakeKind::Missing,
                format!("{what}: missing"),
            )));
            continue;
        };
        // `accept {…}`, or `accept: {…}` as in every key-value answer.
        let end = l
            .text
            .find(|c: char| c == ':' || c.is_whitespace())
            .unwrap_or(l.text.len());
        let (word, rest) = l.text.split_at(end);
        let rest = rest.trim_start();
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        let word = word.to_ascii_lowercase();
        if word != "accept" && word != "reject" {
            verdicts.push(located(
                l.line,
                l.column,
                format!(
                    "expected 'accept {{…}}' or 'reject {{…}}', found '{}'",
                    shorten(l.text)
                ),
            ));
            continue;
        }
        let set_at = l.column
            + l.text[..l.text.len() - rest.trim_start().len()]
                .chars()
                .count() as u32;
        let set = match answer::set(rest) {
            // Elements are at most answer::MAX_SET_ELEMENT.
            Ok(s) => s.into_iter().map(|x| x as u32).collect::<Vec<u32>>(),
            Err(e) => {
                verdicts.push(located(l.line, set_at, e));
                continue;
            }
        };
        if word == step.word() && set == step.after {
            verdicts.push(Verdict::Right(step.clone()));
            continue;
        }
        let why = if word != step.word() {
            if step.accepted {
                format!(
                    "K ∩ s = ∅ with s = {}, so it is accepted",
                    set_string(before)
                )
            } else {
                format!(
                    "s = {} already holds an offset it needs, so it is rejected",
                    set_string(before)
                )
            }
        } else {
            format!("the state after is {}", set_string(&step.after))
        };
        verdicts.push(Verdict::Wrong(Mistake::new(
            MistakeKind::Wrong,
            format!("{what}: you said {word} {}; {why}", set_string(&set)),
        )));
    }
    if let Some(extra) = given.get(want.len()) {
        verdicts.push(located(
            extra.line,
            extra.column,
            format!(
                "{} more line(s) than issue events",
                given.len() - want.len()
            ),
        ));
    }
    Ok(Report {
        correct: all_right(&verdicts),
        drill: Drill::Hazard,
        verdicts,
        seed,
        machine_name: m.name().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(r: &Report) -> Vec<String> {
        r.verdicts
            .iter()
            .filter_map(|v| v.mistake().map(|x| x.message.clone()))
            .collect()
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
            messages(&r)[0].contains("so it is accepted"),
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
        let r = check(&m, 3, "accept {0, 1\nmaybe {0}\n\taccept 0,1\n", "a.txt").unwrap();
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
            msgs[2].starts_with("a.txt:3:9: '0,1' does not start with '{'"),
            "{}",
            msgs[2]
        );
        let r = check(&m, 3, "reject\n", "a.txt").unwrap();
        assert!(
            messages(&r)[0].starts_with("a.txt:1:7: an empty answer"),
            "{:?}",
            messages(&r)
        );
    }

    #[test]
    fn machines_without_a_multiplier_are_refused() {
        let m = crate::engine::hazard::pathological_machine(2);
        assert!(problem(&m, 1, false).is_err());
    }
}
