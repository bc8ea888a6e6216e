//! The problem line, `# course drill NAME --seed N [--machine M]`: the
//! first line of every problem, which the student keeps at the top of the
//! answer file, so that `--check` grades the answer against the problem it
//! was written for. [`ProblemLine::find`] reads it with a hand-written flag
//! reader (`LineFlags`) that takes `--seed`, `--machine`, `--events` and
//! `--lesson` as the command line does, and skips every other word.

use crate::text::{WordsError, split_words};
use course_engine::formats::answer;
use course_engine::formats::diagnostic::Diagnostic;
use course_engine::model::machine::Machine;

use super::{Drill, hazard};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
