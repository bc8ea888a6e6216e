//! The list-schedule drill: the top-down list schedule of a random block
//! (Lesson 23.3), placing each ready operation in priority order when it
//! Fits (Algorithm 23.1.4). The answer is a submission file, `LABEL CYCLE`
//! lines; the check explains every difference from the reference schedule
//! and shows a diff.

use std::collections::BTreeMap;

use serde::Serialize;
use similar::TextDiff;

use super::{by_label, generated, violations, Drill, Mistake, MistakeKind, ProgramProblem};
use crate::content::gen::GenParams;
use crate::engine::check;
use crate::engine::schedule::{self, Schedule};
use crate::formats::{answer, submission};
use crate::model::ids::Cycle;
use crate::model::machine::Machine;
use crate::model::program::{Kind, Program};
use crate::util::rng::GENERATOR_VERSION;

/// The problem: a random block.
pub type Problem = ProgramProblem<Solution>;

/// The reference list schedule with the heights that ordered it.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// h(x) per label.
    pub heights: BTreeMap<String, u64>,
    pub length: Cycle,
    /// The issue cycle per label.
    pub schedule: BTreeMap<String, Cycle>,
    /// The same schedule by operation (for the text view).
    #[serde(skip)]
    pub reference: Schedule,
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        self.schedule
            .iter()
            .map(|(label, c)| format!("{label} {c}\n"))
            .collect()
    }
}

/// The outcome of checking a list schedule.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub correct: bool,
    /// Unified diff of the answer against the reference.
    pub diff: String,
    pub drill: Drill,
    pub generator_version: u32,
    pub mistakes: Vec<Mistake>,
    pub seed: u64,
    /// The block (for the text view).
    #[serde(skip)]
    pub program: Program,
    /// The machine (for the text view).
    #[serde(skip)]
    pub model: Machine,
    /// The student's cycles, when every operation has exactly one.
    #[serde(skip)]
    pub cycles: Option<Vec<Cycle>>,
    /// The reference schedule's length.
    #[serde(skip)]
    pub length: Cycle,
}

fn block(m: &Machine, params: &GenParams, seed: u64) -> Program {
    generated(m, params, seed, Kind::Block)
}

/// The block for `seed`, with the reference schedule when `solution`.
pub fn problem(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Problem {
    let p = block(m, params, seed);
    let solution = solution.then(|| {
        let s = schedule::reference(&p, m);
        Solution {
            heights: by_label(&p, &s.heights),
            length: s.length,
            schedule: by_label(&p, &s.cycles),
            reference: s,
        }
    });
    ProgramProblem::new(Drill::ListSchedule, m, p, seed, solution)
}

/// Checks a submission: the hard checks first, then every feasible
/// placement that is not where the list scheduler puts it.
pub fn check(m: &Machine, params: &GenParams, seed: u64, text: &str, file: &str) -> Report {
    let p = block(m, params, seed);
    let reference = schedule::reference(&p, m);
    let sub = submission::parse(text, file);
    let result = check::check(&p, m, &sub);
    let mut mistakes = violations(&sub, &result);
    if let Some(t) = &result.cycles {
        for x in p.op_ids() {
            let (mine, refc) = (t[x.index()], reference.cycles[x.index()]);
            if mine == refc || result.violations.iter().any(|v| v.op == Some(x)) {
                continue;
            }
            let label = p.label(x);
            mistakes.push(Mistake::new(
                MistakeKind::Order,
                format!(
                    "{label} at {mine}: feasible, but the list scheduler places {label} at {refc} (ready from {}, height {})",
                    reference.ready[x.index()],
                    reference.heights[x.index()]
                ),
            ));
        }
    }
    let reference_text = check::submission_text(&p, &reference.cycles, None);
    let mine_text = match &result.cycles {
        Some(t) => check::submission_text(&p, t, None),
        None => answer_lines(text),
    };
    let diff = TextDiff::from_lines(&mine_text, &reference_text)
        .unified_diff()
        .header("your schedule", "reference")
        .to_string();
    Report {
        correct: mistakes.is_empty(),
        diff,
        drill: Drill::ListSchedule,
        generator_version: GENERATOR_VERSION,
        mistakes,
        seed,
        program: p,
        model: m.clone(),
        cycles: result.cycles,
        length: reference.length,
    }
}

/// The answer's meaningful lines, blanks collapsed: what the diff shows
/// when the answer does not place every operation once.
fn answer_lines(text: &str) -> String {
    answer::lines(text)
        .map(|l| {
            let mut s = l.text.split_whitespace().collect::<Vec<_>>().join(" ");
            s.push('\n');
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solutions_check_as_correct() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        for seed in 0..40 {
            let s = problem(&m, &params, seed, true).solution.unwrap();
            let r = check(&m, &params, seed, &s.answer(), "a.txt");
            assert!(r.correct, "seed {seed}: {:?}", r.mistakes);
            assert_eq!(r.diff, "");
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        let r = check(&m, &params, 4, "", "a.txt");
        assert!(!r.correct);
        assert!(r
            .mistakes
            .iter()
            .any(|x| x.message.contains("no cycle for")));
        // One operation late: feasible, but not the list scheduler's choice.
        let s = problem(&m, &params, 4, true).solution.unwrap();
        let (last, c) = s.schedule.iter().max_by_key(|(_, c)| **c).unwrap();
        let late = s
            .answer()
            .replace(&format!("{last} {c}\n"), &format!("{last} {}\n", c + 5));
        let r = check(&m, &params, 4, &late, "a.txt");
        assert_eq!(r.mistakes.len(), 1);
        assert_eq!(r.mistakes[0].kind, MistakeKind::Order);
        assert!(r.diff.contains(&format!("+{last} {c}")), "{}", r.diff);
    }

    #[test]
    fn format_problems_are_located() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        let r = check(&m, &params, 4, "# mine\n  a x\n", "a.txt");
        assert_eq!(r.mistakes[0].kind, MistakeKind::Format);
        assert_eq!(
            r.mistakes[0].message,
            "a.txt:2:3: a: expected a whole number for the cycle, found 'x'"
        );
        assert_eq!(r.diff.lines().nth(3), Some("-a x"), "{}", r.diff);
    }
}
