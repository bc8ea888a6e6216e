//! The mii drill: ResMII, RecMII and MII of a random loop (Lesson 23.6),
//! usage counted from the reservation tables and the critical recurrence.
//! The answer is three `key: value` lines (`res_mii 4`, `ResMII: 4`,
//! `mii = 4`), read with [`answer::key_values`].

use serde::Serialize;

use super::{
    Drill, Mistake, MistakeKind, ProgramProblem, Verdict, all_right, example, generated,
    mistakes_only,
};
use crate::generate::GenParams;
use course_engine::engine::check::ViolationKind;
use course_engine::engine::mii::{self, Bounds, BoundsInfo};
use course_engine::formats::answer;
use course_engine::formats::diagnostic::Diagnostic;
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::rng::GENERATOR_VERSION;

/// The problem: a random loop with at least one recurrence.
pub type Problem = ProgramProblem<Solution>;

/// The bounds of the loop, as `course analyze` names them.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// ResMII, RecMII, MII, RThroughput, the bound, the usage and the
    /// critical recurrence, as data (their JSON fields are this struct's).
    #[serde(flatten)]
    pub info: BoundsInfo,
    /// The bounds themselves (for the text view).
    #[serde(skip)]
    pub bounds: Bounds,
}

impl Solution {
    fn new(p: &Program, m: &Machine, b: Bounds) -> Solution {
        Solution {
            info: b.info(p, m),
            bounds: b,
        }
    }

    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        format!(
            "res_mii {}\nrec_mii: {}\nMII = {}\n",
            self.info.res_mii, self.info.rec_mii, self.info.mii
        )
    }
}

/// A value the student got right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Right {
    /// `res_mii`, `rec_mii` or `mii`.
    pub key: &'static str,
    pub value: u64,
}

/// The outcome of checking the three values.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub correct: bool,
    pub drill: Drill,
    pub generator_version: u32,
    /// Format problems, then each value in the order res_mii, rec_mii, mii
    /// (serialised as the list of mistakes).
    #[serde(rename = "mistakes", serialize_with = "mistakes_only")]
    pub verdicts: Vec<Verdict<Right>>,
    pub seed: u64,
    /// The machine's name (for the text view).
    #[serde(skip)]
    pub machine_name: String,
}

fn body(m: &Machine, params: &GenParams, seed: u64) -> Program {
    generated(m, params, seed, Kind::Loop)
}

/// The loop for `seed`, with its bounds when `solution`.
pub fn problem(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Problem {
    let p = body(m, params, seed);
    let solution = solution.then(|| Solution::new(&p, m, mii::analyze(&p, m)));
    ProgramProblem::new(Drill::Mii, m, p, seed, solution)
}

/// Checks `res_mii`, `rec_mii` and `mii` lines; a wrong value gets the
/// reason (the bottleneck resource, the critical recurrence, the maximum).
pub fn check(m: &Machine, params: &GenParams, seed: u64, text: &str, file: &str) -> Report {
    let p = body(m, params, seed);
    let b = mii::analyze(&p, m);
    let (given, errors) = answer::key_values(text, file);
    let mut verdicts: Vec<Verdict<Right>> = errors
        .into_iter()
        .map(|d| Verdict::Wrong(Mistake::new(ViolationKind::Format, d.to_string())))
        .collect();
    const KEYS: [&str; 3] = ["res_mii", "rec_mii", "mii"];
    for kv in given.iter().filter(|kv| !KEYS.iter().any(|k| kv.is(k))) {
        verdicts.push(Verdict::Wrong(Mistake::new(
            ViolationKind::Format,
            Diagnostic::new(
                file,
                kv.line,
                kv.key_column,
                format!(
                    "'{}' is not asked for: the answer has the lines res_mii, rec_mii and mii",
                    answer::shorten(kv.key)
                ),
            )
            .to_string(),
        )));
    }
    let reason = |key: &str| -> String {
        match key {
            "res_mii" => format!(
                "ResMII = max over resources of ⌈U/cap⌉; {} has U = {} ({}) on capacity {}, so {}",
                m.resource(b.res_bottleneck).name,
                b.usage[b.res_bottleneck.index()],
                super::usage_breakdown(&p, m, b.res_bottleneck),
                m.resource(b.res_bottleneck).capacity,
                b.res_mii
            ),
            "rec_mii" => format!("the critical recurrence is {}", b.recurrence_text(&p)),
            _ => format!(
                "MII = max(ResMII, RecMII) = max({}, {}) = {}",
                b.res_mii, b.rec_mii, b.mii
            ),
        }
    };
    // The student's own ResMII and RecMII, when both are readable: an MII
    // that is their maximum is right given those two, so when one of them
    // is wrong it is that one's consequence, not a mistake of its own.
    let own = |key: &str| {
        given
            .iter()
            .rev()
            .find(|kv| kv.is(key))
            .and_then(|kv| whole_value(kv.value).ok())
    };
    let own_mii = own("res_mii").zip(own("rec_mii")).map(|(r, c)| r.max(c));
    let wrong_part = [("res_mii", b.res_mii), ("rec_mii", b.rec_mii)]
        .into_iter()
        .position(|(k, want)| own(k).is_some_and(|v| v != want));
    for (key, want) in [
        ("res_mii", b.res_mii),
        ("rec_mii", b.rec_mii),
        ("mii", b.mii),
    ] {
        if key == "mii"
            && let (Some(got), Some(own_mii), Some(cause)) = (own(key), own_mii, wrong_part)
            && got == own_mii
            && got != want
        {
            // The wrong part's verdict is among the last two.
            let at = verdicts.len() - 2 + cause;
            if let Verdict::Wrong(mk) = &mut verdicts[at] {
                mk.consequences.push(format!(
                            "mii {got} follows from it: max(ResMII, RecMII) of your values; with the right ones {}",
                            reason(key)
                        ));
                continue;
            }
        }
        // A key given twice counts as its last line.
        let verdict = match given.iter().rev().find(|kv| kv.is(key)) {
            None => Verdict::Wrong(Mistake::new(
                ViolationKind::Missing,
                format!("{key}: missing (expected a line '{key} N')"),
            )),
            Some(kv) => match whole_value(kv.value) {
                Ok(value) if value == want => Verdict::Right(Right { key, value }),
                Ok(got) => Verdict::Wrong(Mistake::new(
                    cause_kind(key),
                    format!("{key}: you said {got}; {}", reason(key)),
                )),
                Err(e) => Verdict::Wrong(Mistake::new(
                    ViolationKind::Format,
                    Diagnostic::new(file, kv.line, kv.column, format!("{key}: {e}")).to_string(),
                )),
            },
        };
        verdicts.push(verdict);
    }
    Report {
        correct: all_right(&verdicts),
        drill: Drill::Mii,
        generator_version: GENERATOR_VERSION,
        verdicts,
        seed,
        machine_name: m.name().to_string(),
    }
}

/// The cause kind of a wrong value of `key`.
fn cause_kind(key: &str) -> MistakeKind {
    match key {
        "res_mii" => MistakeKind::ResourceBound,
        "rec_mii" => MistakeKind::Recurrence,
        _ => MistakeKind::Maximum,
    }
}

/// A whole number, also written with a zero fraction (`3.0` reads as 3);
/// any other fraction is refused with the reason.
fn whole_value(v: &str) -> Result<u64, String> {
    let t = v.trim();
    if let Some((int, frac)) = t.split_once('.') {
        if !int.is_empty() && !frac.is_empty() && frac.bytes().all(|b| b == b'0') {
            return answer::whole(int);
        }
        if answer::number(t).is_ok() {
            return Err(format!(
                "'{}' is not a whole number: these bounds count whole cycles (rounded up)",
                answer::shorten(t)
            ));
        }
    }
    answer::whole(t)
}

/// How many hints the drill has.
pub const HINTS: usize = 2;

/// The first `level` hints (at most [`HINTS`]): what to compute and from
/// what, then the method worked on another small loop of the same machine
/// (Lesson 23.6); no figure of the student's answer.
pub fn hints(p: &Problem, level: usize) -> Vec<String> {
    let (prog, m) = (&p.program, &p.model);
    let mut out = vec![
        "Work from the reservation tables and the dependence graph. For each \
         resource, add up the cycles one iteration holds it (each operation's \
         entries in that row; issue: one slot per operation) and divide by its \
         capacity, rounding up. For each dependence cycle, add up its latencies \
         and its distances, and divide, rounding up. Each of the three answers \
         is a maximum over one of those lists, or over both."
            .to_string(),
    ];
    let b = mii::analyze(prog, m);
    let avoid = [b.res_mii, b.rec_mii, b.mii].map(course_engine::util::ratio::Ratio::int);
    let worked = example::small_loop(m, p.seed, &avoid, |q, e| {
        let r = e.recurrence.as_ref();
        format!(
            "Worked on another loop of this machine, {}. {}; the largest, rounded \
             up, is its ResMII, {}. Its longest dependence cycle per iteration is {} \
             (latencies {}, distances {}), so its RecMII is {}; its MII, the larger, \
             is {}.",
            example::listing(q),
            example::usage(m, e),
            e.res_mii,
            example::recurrence(q, e),
            r.map_or(0, |r| r.latency),
            r.map_or(0, |r| r.distance),
            e.rec_mii,
            e.mii
        )
    });
    out.extend(worked);
    out.truncate(level.min(HINTS));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_fraction_reads_as_a_whole_number() {
        assert_eq!(whole_value("3.0"), Ok(3));
        assert_eq!(whole_value("3.00"), Ok(3));
        assert_eq!(whole_value("3"), Ok(3));
        let e = whole_value("3.5").unwrap_err();
        assert!(
            e.contains("not a whole number: these bounds count whole cycles"),
            "{e}"
        );
        let m = Machine::toy();
        let params = GenParams::loop_default();
        let s = problem(&m, &params, 2, true).solution.unwrap();
        let text = format!(
            "res_mii {}.0\nrec_mii {}\nmii {}.0\n",
            s.info.res_mii, s.info.rec_mii, s.info.mii
        );
        assert!(check(&m, &params, 2, &text, "a.txt").correct);
    }

    fn messages(r: &Report) -> Vec<String> {
        crate::drill::mistake_messages(&r.verdicts)
    }

    #[test]
    fn solutions_check_as_correct_in_every_spelling() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        for seed in 0..40 {
            let s = problem(&m, &params, seed, true).solution.unwrap();
            assert!(check(&m, &params, seed, &s.answer(), "a.txt").correct);
            let other = format!(
                "\u{feff}ResMII: {} # by hand\r\nrec-mii = {}\r\n\r\nmii {}\r\n",
                s.info.res_mii, s.info.rec_mii, s.info.mii
            );
            assert!(check(&m, &params, seed, &other, "a.txt").correct, "{other}");
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        let r = check(&m, &params, 2, "res_mii 1\nrec_mii x\n", "a.txt");
        assert!(!r.correct);
        let msgs = messages(&r);
        assert!(msgs[0].starts_with("res_mii: you said 1; ResMII = max"));
        assert_eq!(msgs[1], "a.txt:2:9: rec_mii: 'x' is not a whole number");
        assert_eq!(msgs[2], "mii: missing (expected a line 'mii N')");
    }

    #[test]
    fn format_problems_are_located() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        let r = check(&m, &params, 2, "res_mii 4\n\n  broken\nmii: -1\n", "a.txt");
        let msgs = messages(&r);
        assert_eq!(msgs[0], "a.txt:3:3: expected 'KEY: VALUE', found 'broken'");
        assert!(msgs.contains(&"a.txt:4:6: mii: '-1' is negative".to_string()));
    }

    #[test]
    fn keys_not_asked_for_are_named() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        let s = problem(&m, &params, 2, true).solution.unwrap();
        let r = check(&m, &params, 2, &format!("{}  ii 3\n", s.answer()), "a.txt");
        assert!(!r.correct);
        assert_eq!(
            messages(&r),
            vec![
                "a.txt:4:3: 'ii' is not asked for: the answer has the lines res_mii, rec_mii and mii"
            ]
        );
    }
}
