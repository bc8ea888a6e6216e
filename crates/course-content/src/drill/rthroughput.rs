//! The rthroughput drill: the Block RThroughput llvm-mca prints for a
//! random loop body (Definition 23.1.10). The answer is one number, read
//! with [`answer::number`]: the exact fraction (`5/2`) or its one-decimal
//! rounding as llvm-mca prints it (`2.5`).

use std::sync::Arc;

use serde::Serialize;

use super::{
    Drill, Mistake, MistakeKind, ProblemLine, Verdict, all_right, example, generated, mistakes_only,
};
use crate::generate::GenParams;
use crate::json::{MachineJson, OpsJson};
use course_engine::engine::check::ViolationKind;
use course_engine::engine::mii::{self, Bounds};
use course_engine::formats::answer::{self, shorten};
use course_engine::formats::diagnostic::Diagnostic;
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::ratio::Ratio;
use course_engine::util::rng::{GENERATOR_VERSION, Rng};

/// The problem: a loop body's operations.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub drill: Drill,
    pub generator_version: u32,
    pub machine: MachineJson<Arc<Machine>>,
    pub ops: OpsJson<Arc<Machine>>,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Solution>,
    /// The loop body (for the text view).
    #[serde(skip)]
    pub program: Arc<Program>,
    /// The machine (for the text view).
    #[serde(skip)]
    pub model: Arc<Machine>,
}

impl Problem {
    /// The problem's first line (the command that makes it); it names the machine.
    pub fn line(&self) -> ProblemLine {
        ProblemLine::on(self.drill, self.seed, &self.model)
    }
}

/// RThroughput as an exact fraction.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// A fraction such as "5/2".
    pub rthroughput: String,
    /// The usage that decides it (for the text view).
    #[serde(skip)]
    pub bounds: Bounds,
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        format!("{}\n", self.rthroughput)
    }
}

/// The outcome of checking the number.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub correct: bool,
    pub drill: Drill,
    /// The one number, right (with the exact value) or not (serialised as
    /// the list of mistakes).
    #[serde(rename = "mistakes", serialize_with = "mistakes_only")]
    pub verdicts: Vec<Verdict<Ratio>>,
    pub seed: u64,
    /// The machine's name (for the text view).
    #[serde(skip)]
    pub machine_name: String,
}

/// Its own stream: the rthroughput body differs from the mii drill's.
fn body(m: &Machine, params: &GenParams, seed: u64) -> Program {
    let sub_seed = Rng::derived(seed, "rthroughput/body").next_u64();
    generated(m, params, sub_seed, Kind::Loop)
}

/// The loop body for `seed`, with RThroughput when `solution`.
pub fn problem(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Problem {
    let p = body(m, params, seed);
    let solution = solution.then(|| {
        let b = mii::analyze(&p, m);
        Solution {
            rthroughput: b.rthroughput.fraction_string(),
            bounds: b,
        }
    });
    let p = Arc::new(p);
    let m = Arc::new(m.clone());
    Problem {
        drill: Drill::Rthroughput,
        generator_version: GENERATOR_VERSION,
        machine: MachineJson(m.clone()),
        ops: OpsJson::new(p.clone(), m.clone()),
        seed,
        solution,
        program: p,
        model: m,
    }
}

/// Checks the one number; a wrong one gets the bottleneck resource.
pub fn check(m: &Machine, params: &GenParams, seed: u64, text: &str, file: &str) -> Report {
    let p = body(m, params, seed);
    let b = mii::analyze(&p, m);
    let lines: Vec<answer::Line> = answer::lines(text).collect();
    let located = |line: u32, column: u32, message: String| {
        Verdict::Wrong(Mistake::new(
            ViolationKind::Format,
            Diagnostic::new(file, line, column, message).to_string(),
        ))
    };
    let verdict = match lines.as_slice() {
        [] => located(
            1,
            1,
            "an empty answer; write one number such as 5/2 or 2.5".into(),
        ),
        [_, second, ..] => located(
            second.line,
            second.column,
            format!(
                "expected one number, found a second line '{}'",
                shorten(second.text)
            ),
        ),
        [l] => match answer::number(l.text) {
            Err(e) => located(l.line, l.column, e),
            Ok(r) => {
                // llvm-mca prints one decimal: accept the exact value or that rounding.
                let rounded = answer::number(&b.rthroughput.decimal1()).ok();
                if r == b.rthroughput || (l.text.contains('.') && rounded == Some(r)) {
                    Verdict::Right(b.rthroughput)
                } else {
                    let bott = m.resource(b.res_bottleneck);
                    // The ResMII habit: ⌈U/cap⌉ instead of U/cap.
                    let rounded_up =
                        b.rthroughput.den() > 1 && r == Ratio::int(b.rthroughput.ceil());
                    Verdict::Wrong(Mistake::new(
                        if rounded_up {
                            MistakeKind::RoundedUp
                        } else {
                            MistakeKind::ResourceBound
                        },
                        format!(
                            "you said {}; {}{} has U = {} ({}) on capacity {}, so RThroughput = {} ({})",
                            r.fraction_string(),
                            if rounded_up {
                                "RThroughput is not rounded up, unlike ResMII: "
                            } else {
                                ""
                            },
                            bott.name,
                            b.usage[b.res_bottleneck.index()],
                            super::usage_breakdown(&p, m, b.res_bottleneck),
                            bott.capacity,
                            b.rthroughput.fraction_string(),
                            b.rthroughput.decimal1()
                        ),
                    ))
                }
            }
        },
    };
    let verdicts = vec![verdict];
    Report {
        correct: all_right(&verdicts),
        drill: Drill::Rthroughput,
        verdicts,
        seed,
        machine_name: m.name().to_string(),
    }
}

/// How many hints the drill has.
pub const HINTS: usize = 2;

/// The first `level` hints (at most [`HINTS`]): the definition, then the
/// usage per resource (Definition 23.1.10); never the maximum.
pub fn hints(p: &Problem, level: usize) -> Vec<String> {
    let (prog, m) = (&p.program, &p.model);
    let mut out = vec![
        "Work from the reservation tables of the body's operations: for each \
         resource, add up the cycles one pass of the body holds it (issue: one \
         slot per operation) and divide by its capacity, keeping the fraction \
         (no rounding). The answer is the largest of those quotients."
            .to_string(),
    ];
    let b = mii::analyze(prog, m);
    let avoid = [b.rthroughput];
    let worked = example::small_loop(m, p.seed, &avoid, |q, e| {
        format!(
            "Worked on another body of this machine, {}. {}; the largest is {}, \
             its RThroughput.",
            example::listing(q),
            example::usage(m, e),
            e.rthroughput
        )
    });
    out.extend(worked);
    out.truncate(level.min(HINTS));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: &Report) -> String {
        r.verdicts[0]
            .mistake()
            .map(|x| x.message.clone())
            .unwrap_or_default()
    }

    #[test]
    fn solutions_check_as_correct_exact_or_rounded() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        for seed in 0..40 {
            let s = problem(&m, &params, seed, true).solution.unwrap();
            assert!(check(&m, &params, seed, &s.answer(), "a.txt").correct);
            let dec = s.bounds.rthroughput.decimal1();
            let r = check(
                &m,
                &params,
                seed,
                &format!("# llvm-mca\r\n {dec} \r\n"),
                "a.txt",
            );
            assert!(r.correct, "{dec}: {}", message(&r));
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        let r = check(&m, &params, 4, "999\n", "a.txt");
        assert!(!r.correct);
        assert!(message(&r).starts_with("you said 999; "), "{}", message(&r));
        assert_eq!(
            r.verdicts[0].mistake().map(|x| x.kind),
            Some(MistakeKind::ResourceBound)
        );
    }

    #[test]
    fn a_rounded_up_answer_is_told_why() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        let mut seen = 0;
        for seed in 0..40 {
            let s = problem(&m, &params, seed, true).solution.unwrap();
            let exact = s.bounds.rthroughput;
            let r = check(&m, &params, seed, &format!("{}\n", exact.ceil()), "a.txt");
            if exact.den() == 1 {
                assert!(r.correct);
                continue;
            }
            seen += 1;
            assert!(
                message(&r).contains("RThroughput is not rounded up, unlike ResMII"),
                "{}",
                message(&r)
            );
        }
        assert!(seen > 0);
    }

    #[test]
    fn malformed_numbers_are_located_format_errors() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        for (text, expect) in [
            ("abc", "a.txt:1:1: 'abc' is not a number (write 5/2 or 2.5)"),
            (
                "# mine\n  2,5\n",
                "a.txt:2:3: '2,5' is not a number (write 5/2 or 2.5)",
            ),
            ("5/0", "a.txt:1:1: '5/0' divides by zero"),
            (
                "1\n2\n",
                "a.txt:2:1: expected one number, found a second line '2'",
            ),
            (
                "",
                "a.txt:1:1: an empty answer; write one number such as 5/2 or 2.5",
            ),
        ] {
            let r = check(&m, &params, 4, text, "a.txt");
            assert_eq!(message(&r), expect);
            assert_eq!(
                r.verdicts[0].mistake().map(|x| x.kind),
                Some(MistakeKind::Check(ViolationKind::Format))
            );
        }
    }
}
