//! `course drill`: one call that loads the drill's generator parameters
//! from the course data, then makes the problem (with its solution) or
//! checks an answer. An answer is checked against the problem its first
//! line names ([`ProblemLine`]) or the seed given; with neither, or when
//! they disagree, nothing is graded.
//!
//! ```
//! use course::api::drill::{run, Answer, DrillOutput, DrillRequest};
//! use course::content::{data::Source, drill::Drill};
//! use course::model::machine::Machine;
//! let m = Machine::toy();
//! let req = DrillRequest {
//!     drill: Drill::Rthroughput,
//!     seed: Some(3),
//!     machine: &m,
//!     source: &Source::Embedded,
//!     solution: false,
//!     check: Some(Answer { file: "a.txt", text: "2,5\n" }),
//! };
//! let DrillOutput::Report(r) = run(&req).unwrap() else { panic!() };
//! assert!(!r.correct());
//! assert_eq!(r.mistakes()[0].message, "a.txt:1:1: '2,5' is not a number (write 5/2 or 2.5)");
//! ```

use serde::Serialize;

use crate::content::data::Source;
use crate::content::drill::{
    self, Drill, DrillEntry, DrillError, Named, Problem, ProblemLine, Report,
};
use crate::content::generate::GenParams;
use crate::model::machine::Machine;

/// The student's answer file.
#[derive(Clone, Copy, Debug)]
pub struct Answer<'a> {
    /// How messages name it (`my.txt`, `<stdin>`).
    pub file: &'a str,
    /// Its text.
    pub text: &'a str,
}

/// What `course drill NAME` asks for.
#[derive(Clone, Copy, Debug)]
pub struct DrillRequest<'a> {
    pub drill: Drill,
    /// The seed; without it a problem draws one, and an answer must name
    /// its problem in its first line.
    pub seed: Option<u64>,
    pub machine: &'a Machine,
    /// Where the generator parameters (`drills/*.yaml`) are read from.
    pub source: &'a Source,
    /// Include the solution with the problem.
    pub solution: bool,
    /// Check this answer instead of stating the problem.
    pub check: Option<Answer<'a>>,
}

/// The problem, or the report on an answer.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum DrillOutput {
    Problem(Box<Problem>),
    Report(Box<Report>),
}

/// Why a drill could not run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The parameter file could not be read or is invalid.
    #[error("{0}")]
    Params(String),
    #[error(transparent)]
    Drill(#[from] DrillError),
    /// The answer names no problem, or another one than the arguments.
    #[error("{0}")]
    Answer(String),
}

/// The drill's generator parameters from `source`, when it has a file.
fn params(drill: Drill, source: &Source) -> Result<Option<GenParams>, Error> {
    let Some(path) = drill.params_file() else {
        return Ok(None);
    };
    let text = source.read(path).map_err(Error::Params)?;
    GenParams::from_yaml(&text, path)
        .map(Some)
        .map_err(Error::Params)
}

/// An answer file that is the drill's saved output with the answer below
/// it: the lines after the problem line that repeat the problem's text
/// (`problem`, as it was printed, rewrapped or not) become blank, so that
/// only the answer is read and every line keeps its number. The problem
/// line stays (it names the problem); the first line that does not
/// continue the problem's text, and every line after it, is the answer.
pub fn without_saved_problem(answer: &str, problem: &str) -> String {
    let mut words = problem.split_whitespace().peekable();
    let mut lines = answer.split_inclusive('\n');
    let mut out = String::with_capacity(answer.len());
    // Up to and including the problem line, as written.
    let mut found = false;
    for l in lines.by_ref() {
        out.push_str(l);
        let t = l.trim_start();
        if t.starts_with('#') && t[1..].split_whitespace().take(2).eq(["course", "drill"]) {
            found = true;
            break;
        }
    }
    if !found {
        return answer.to_string();
    }
    // The problem's text starts after its own first line.
    let first = problem.lines().next().unwrap_or("");
    for _ in first.split_whitespace() {
        words.next();
    }
    let mut rest = lines.peekable();
    while let Some(l) = rest.peek() {
        let mut probe = words.clone();
        let matches = l.split_whitespace().all(|w| probe.next() == Some(w));
        if !matches {
            break;
        }
        words = probe;
        let end = if l.ends_with("\r\n") {
            "\r\n"
        } else if l.ends_with('\n') {
            "\n"
        } else {
            ""
        };
        out.push_str(end);
        rest.next();
        if words.peek().is_none() {
            break;
        }
    }
    out.extend(rest);
    out
}

/// Runs the drill: checks the answer when one is given, else states the
/// problem (with its solution when asked).
pub fn run(req: &DrillRequest<'_>) -> Result<DrillOutput, Error> {
    let params = params(req.drill, req.source)?;
    let m = req.machine;
    Ok(match req.check {
        Some(a) => {
            let seed = match answer_problem(req, a)? {
                Asked::Seed(seed) => seed,
                Asked::Events(events) => return replay_events(req, &events),
            };
            DrillOutput::Report(Box::new(req.drill.check(
                m,
                params.as_ref(),
                seed,
                a.text,
                a.file,
            )?))
        }
        None => DrillOutput::Problem(Box::new(req.drill.problem(
            m,
            params.as_ref(),
            req.seed.unwrap_or_else(crate::host::clock::fresh_seed),
            req.solution,
        )?)),
    })
}

/// [`run`] with the first `level` hints on the problem (none when 0): the
/// problem's own hints, or, with an answer, the hints on the problem it is
/// for, the list-schedule drill's last one being the ready set where the
/// answer first departs from the list rule.
pub fn run_with_hints(
    req: &DrillRequest<'_>,
    level: usize,
) -> Result<(DrillOutput, Vec<String>), Error> {
    let out = run(req)?;
    if level == 0 {
        return Ok((out, Vec::new()));
    }
    let hints = match &out {
        DrillOutput::Problem(p) => p.hints(level),
        DrillOutput::Report(_) => {
            let params = params(req.drill, req.source)?;
            let a = req.check.ok_or_else(|| Error::Answer("no answer".into()))?;
            let problem = match answer_problem(req, a)? {
                Asked::Seed(seed) => {
                    req.drill
                        .problem(req.machine, params.as_ref(), seed, false)?
                }
                Asked::Events(events) => {
                    Problem::Hazard(drill::hazard::replay_problem(req.machine, &events, false)?)
                }
            };
            let mut hints = problem.hints(level);
            if let (Problem::ListSchedule(p), true) =
                (&problem, level >= drill::list_schedule::HINTS)
            {
                let departure = drill::list_schedule::departure_hint(
                    req.machine,
                    &params.unwrap_or_else(GenParams::block_default),
                    p.seed,
                    a.text,
                    a.file,
                );
                if let (Some(d), Some(last)) = (departure, hints.last_mut()) {
                    *last = d;
                }
            }
            hints
        }
    };
    Ok((out, hints))
}

/// [`replay`] with the first `level` hints on the replayed problem.
pub fn replay_with_hints(
    req: &DrillRequest<'_>,
    events: &str,
    level: usize,
) -> Result<(DrillOutput, Vec<String>), Error> {
    let out = replay(req, events)?;
    let hints = match level {
        0 => Vec::new(),
        _ => {
            Problem::Hazard(drill::hazard::replay_problem(req.machine, events, false)?).hints(level)
        }
    };
    Ok((out, hints))
}

/// A problem or report with the hints shown (JSON): its own fields, then
/// `hints` and `hints_used`.
#[derive(Serialize)]
pub struct Hinted<'a, T: Serialize> {
    #[serde(flatten)]
    pub output: &'a T,
    pub hints: &'a [String],
    pub hints_used: usize,
}

/// The problem an answer is for.
enum Asked {
    Seed(u64),
    /// The hazard drill's issue attempts, from the answer's problem line.
    Events(String),
}

/// The problem an answer is checked against: the seed given, or the
/// problem its problem line names (a seed, or a hazard drill's issue
/// attempts); an error when there is neither, or when the line names
/// another drill, seed or machine than the run.
fn answer_problem(req: &DrillRequest<'_>, a: Answer<'_>) -> Result<Asked, Error> {
    let name = req.drill.name();
    let Some((named, at)) = ProblemLine::find(a.text, a.file).map_err(Error::Answer)? else {
        return req.seed.map(Asked::Seed).ok_or_else(|| {
            Error::Answer(format!(
                "{}: which problem is this answer for? Give --seed N, or keep the problem's \
                 first line ('# course drill {name} --seed N …') at the top of the file",
                a.file
            ))
        });
    };
    let here = format!("{}:{at}", a.file);
    let (drill, machine) = match &named {
        Named::Seed(line) => (line.drill, line.machine.as_deref()),
        Named::Events { machine, .. } => (Drill::Hazard, machine.as_deref()),
    };
    if drill != req.drill {
        return Err(Error::Answer(format!(
            "{here}: this answer is for drill {}, not {name}",
            drill.name()
        )));
    }
    if let Some(machine) = machine.filter(|n| *n != req.machine.name()) {
        return Err(Error::Answer(format!(
            "{here}: this answer is for machine {machine}, but the run uses machine {}: \
             give {}",
            req.machine.name(),
            drill::machine_flag(machine)
        )));
    }
    match named {
        Named::Seed(line) => match req.seed.filter(|&s| s != line.seed) {
            Some(seed) => Err(Error::Answer(format!(
                "{here}: this answer is for seed {}, but --seed {seed} was given",
                line.seed
            ))),
            None => Ok(Asked::Seed(line.seed)),
        },
        Named::Events { events, .. } => match req.seed {
            Some(seed) => Err(Error::Answer(format!(
                "{here}: this answer is for the issue attempts '{events}', but --seed {seed} \
                 was given"
            ))),
            None => Ok(Asked::Events(events)),
        },
    }
}

/// The hazard drill on issue attempts given as text instead of a seed
/// (`div@4 mul@5 mul@7 mul@8`, [`drill::hazard::LESSON_EVENTS`]): the
/// problem (with the trace when asked), or the report on the answer. The
/// request's drill and seed are not used.
pub fn replay(req: &DrillRequest<'_>, events: &str) -> Result<DrillOutput, Error> {
    // An answer's own problem line, if any, must name these attempts.
    if let Some(a) = req.check
        && let Some((named, at)) = ProblemLine::find(a.text, a.file).map_err(Error::Answer)?
    {
        let same = match &named {
            Named::Events { events: e, .. } => same_events(e, events),
            Named::Seed(_) => false,
        };
        if !same {
            return Err(Error::Answer(format!(
                "{}:{at}: this answer's first line names another problem than \
                     --events '{events}'",
                a.file
            )));
        }
    }
    replay_events(req, events)
}

/// [`replay`] once the answer is known to be for `events`.
fn replay_events(req: &DrillRequest<'_>, events: &str) -> Result<DrillOutput, Error> {
    use crate::content::drill::hazard;
    let m = req.machine;
    Ok(match req.check {
        Some(a) => DrillOutput::Report(Box::new(Report::Hazard(hazard::replay_check(
            m, events, a.text, a.file,
        )?))),
        None => DrillOutput::Problem(Box::new(Problem::Hazard(hazard::replay_problem(
            m,
            events,
            req.solution,
        )?))),
    })
}

/// True when two spellings of issue attempts list the same words.
fn same_events(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// A list-schedule problem in the making (the web page's table): each
/// placement `(label, cycle)`, in the order made, judged as `--check` judges
/// it; see [`drill::list_schedule::placements`].
pub fn place(
    seed: u64,
    machine: &Machine,
    source: &Source,
    placed: &[(String, crate::model::ids::Cycle)],
) -> Result<drill::list_schedule::Placements, Error> {
    let params = params(Drill::ListSchedule, source)?.unwrap_or_else(GenParams::block_default);
    Ok(drill::list_schedule::placements(
        machine, &params, seed, placed,
    ))
}

/// The review-log record of a checked answer ([`run`] or [`replay`] gave
/// `report` for `req`; `events` when the issue attempts were given as
/// text): the drill and seed of the problem it was checked against, the
/// drill's topic, right or the first mistake's kind. `None` when the
/// request has no answer or names no problem.
pub fn review(
    req: &DrillRequest<'_>,
    events: Option<&str>,
    report: &Report,
    who: &str,
    day: crate::content::flash::Date,
    time: i64,
) -> Option<crate::content::review_log::Review> {
    use crate::content::review_log::{self as log, Topic};
    let a = req.check?;
    let item = match events {
        Some(e) => log::events_item(e),
        None => match answer_problem(req, a).ok()? {
            Asked::Seed(seed) => log::drill_item(req.drill, seed),
            Asked::Events(e) => log::events_item(&e),
        },
    };
    Some(log::drill_review(
        report,
        &item,
        Topic::of_drill(req.drill),
        who,
        day,
        time,
    ))
}

/// The marker lines of what was shown for the problem `item` of `drill`:
/// its solution (`solution`) and `hints` hints; `course progress` counts
/// them, and a right answer after the solution is not counted as right.
pub fn shown(
    drill: Drill,
    item: &str,
    solution: bool,
    hints: usize,
    who: &str,
    day: crate::content::flash::Date,
    time: i64,
) -> Vec<crate::content::review_log::Review> {
    use crate::content::review_log::{self as log, Topic};
    let topic = Topic::of_drill(drill);
    let mut out = Vec::new();
    if solution {
        out.push(log::solution_marker(item, topic, who, day, time));
    }
    if hints > 0 {
        out.push(log::hints_marker(item, topic, hints, who, day, time));
    }
    out
}

/// The problem of a step of the chapter's path, without its solution.
pub fn exercise(
    step: &crate::content::path::Step,
    machine: &crate::model::machine::Machine,
    source: &Source,
) -> Result<Problem, Error> {
    let req = DrillRequest {
        drill: step.drill,
        seed: Some(step.seed),
        machine,
        source,
        solution: false,
        check: None,
    };
    match run(&req)? {
        DrillOutput::Problem(p) => Ok(*p),
        DrillOutput::Report(_) => Err(Error::Answer("a problem was asked for".into())),
    }
}

/// `course drill list`: every drill with what it practises.
pub fn list() -> Vec<DrillEntry> {
    drill::list()
}

#[cfg(test)]
mod tests {
    use super::without_saved_problem;

    const PROBLEM: &str = "# course drill mii --seed 3 --machine toy\n\
        Drill mii · seed 3\n\nFind ResMII, RecMII and MII of this\nloop body.\n\nloop scale\na: r1 = load [x]\n";

    #[test]
    fn the_saved_problem_is_skipped_and_the_lines_keep_their_numbers() {
        let saved = format!("{PROBLEM}\nres_mii 4\nrec_mii 3\nmii 4\n");
        let got = without_saved_problem(&saved, PROBLEM);
        let lines: Vec<&str> = got.lines().collect();
        assert_eq!(lines[0], "# course drill mii --seed 3 --machine toy");
        assert!(lines[1..8].iter().all(|l| l.is_empty()), "{got}");
        assert_eq!(&lines[9..], ["res_mii 4", "rec_mii 3", "mii 4"]);
        assert_eq!(got.lines().count(), saved.lines().count());
        // Rewrapped (a wider terminal) and with CRLF: the same.
        let wide = "# course drill mii --seed 3 --machine toy\r\nDrill mii · seed 3\r\n\r\n\
            Find ResMII, RecMII and MII of this loop body.\r\n\r\nloop scale\r\na: r1 = load [x]\r\nmii 4\r\n";
        let got = without_saved_problem(wide, PROBLEM);
        assert_eq!(
            got.lines().filter(|l| !l.trim().is_empty()).count(),
            2,
            "{got:?}"
        );
        assert!(got.ends_with("mii 4\r\n"));
        // An answer right under the problem line is all answer.
        let bare = "# course drill mii --seed 3 --machine toy\nres_mii 4\n";
        assert_eq!(without_saved_problem(bare, PROBLEM), bare);
        // No problem line: nothing to skip.
        assert_eq!(without_saved_problem("Drill mii\n", PROBLEM), "Drill mii\n");
    }
}
