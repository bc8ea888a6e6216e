//! `course drill`: one call that loads the drill's generator parameters
//! from the course data, then makes the problem (with its solution) or
//! checks an answer. An answer is checked against the problem its first
//! line names ([`ProblemLine`]) or the seed given; with neither, or when
//! they disagree, nothing is graded.
//!
//! ```
//! use course::api::drill::{run, Answer, DrillOutput, DrillRequest};
//! use course_content::{data::Source, drill::Drill};
//! use course_engine::model::machine::Machine;
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

use course_content::data::Source;
use course_content::drill::{
    self, Drill, DrillEntry, DrillError, Named, Problem, ProblemLine, Report,
};
use course_content::generate::GenParams;
use course_engine::model::machine::Machine;

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
    /// The seed. A problem needs one (the command line draws a fresh one
    /// when none is given); without it an answer must name its problem in
    /// its first line.
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
    Ok(run_asked(req)?.0)
}

/// [`run`], with the problem a checked answer was for (read once from its
/// first line or the seed).
fn run_asked(req: &DrillRequest<'_>) -> Result<(DrillOutput, Option<Asked>), Error> {
    let params = params(req.drill, req.source)?;
    let m = req.machine;
    Ok(match req.check {
        Some(a) => {
            let asked = answer_problem(req, a)?;
            let out = match &asked {
                Asked::Seed(seed) => DrillOutput::Report(Box::new(req.drill.check(
                    m,
                    params.as_ref(),
                    *seed,
                    a.text,
                    a.file,
                )?)),
                Asked::Events(events) => replay_events(req, events)?,
            };
            (out, Some(asked))
        }
        None => {
            let seed = req
                .seed
                .ok_or_else(|| Error::Answer("a problem needs a seed".into()))?;
            let problem = req.drill.problem(m, params.as_ref(), seed, req.solution)?;
            (DrillOutput::Problem(Box::new(problem)), None)
        }
    })
}

/// What a drill run gave: the problem or the report, the hints shown, and,
/// for a checked answer, the review-log item of the problem it was for.
#[derive(Clone, Debug)]
pub struct Drilled {
    /// The drill of the request.
    pub drill: Drill,
    pub output: DrillOutput,
    pub hints: Vec<String>,
    /// `drill:NAME:SEED` or the hazard drill's issue attempts (see
    /// [`course_content::review_log::drill_item`]); `None` for a problem.
    pub item: Option<String>,
}

impl Drilled {
    /// The review-log record of the checked answer, by `who` at `day` and
    /// `time` (`None` for a problem).
    pub fn review(
        &self,
        who: &str,
        day: course_content::flash::Date,
        time: i64,
    ) -> Option<course_content::review_log::Review> {
        let (DrillOutput::Report(report), Some(item)) = (&self.output, &self.item) else {
            return None;
        };
        Some(course_content::review_log::drill_review(
            report,
            item,
            course_content::review_log::Topic::of_drill(self.drill),
            who,
            day,
            time,
        ))
    }
}

/// [`run`] with the first `level` hints on the problem (none when 0): the
/// problem's own hints, or, with an answer, the hints on the problem it is
/// for, the list-schedule drill's last one being the ready set where the
/// answer first departs from the list rule (made by the check itself).
pub fn run_with_hints(req: &DrillRequest<'_>, level: usize) -> Result<Drilled, Error> {
    use course_content::review_log::{drill_item, events_item};
    let (output, asked) = run_asked(req)?;
    let item = asked.as_ref().map(|a| match a {
        Asked::Seed(seed) => drill_item(req.drill, *seed),
        Asked::Events(e) => events_item(e),
    });
    let hints = match (&output, asked) {
        _ if level == 0 => Vec::new(),
        (DrillOutput::Problem(p), _) => p.hints(level),
        (DrillOutput::Report(report), Some(asked)) => {
            let problem = match asked {
                Asked::Seed(seed) => {
                    let params = params(req.drill, req.source)?;
                    req.drill
                        .problem(req.machine, params.as_ref(), seed, false)?
                }
                Asked::Events(events) => {
                    Problem::Hazard(drill::hazard::replay_problem(req.machine, &events, false)?)
                }
            };
            let mut hints = problem.hints(level);
            if let (Report::ListSchedule(r), true) =
                (&**report, level >= drill::list_schedule::HINTS)
                && let (Some(d), Some(last)) = (&r.departure_hint, hints.last_mut())
            {
                last.clone_from(d);
            }
            hints
        }
        (DrillOutput::Report(_), None) => Vec::new(),
    };
    Ok(Drilled {
        drill: req.drill,
        output,
        hints,
        item,
    })
}

/// [`replay`] with the first `level` hints on the replayed problem.
pub fn replay_with_hints(
    req: &DrillRequest<'_>,
    events: &str,
    level: usize,
) -> Result<Drilled, Error> {
    let output = replay(req, events)?;
    let hints = match level {
        0 => Vec::new(),
        _ => {
            Problem::Hazard(drill::hazard::replay_problem(req.machine, events, false)?).hints(level)
        }
    };
    let item = matches!(output, DrillOutput::Report(_))
        .then(|| course_content::review_log::events_item(events));
    Ok(Drilled {
        drill: req.drill,
        output,
        hints,
        item,
    })
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
    use course_content::drill::hazard;
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
    placed: &[(String, course_engine::model::ids::Cycle)],
) -> Result<drill::list_schedule::Placements, Error> {
    let params = params(Drill::ListSchedule, source)?.unwrap_or_else(GenParams::block_default);
    Ok(drill::list_schedule::placements(
        machine, &params, seed, placed,
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
    day: course_content::flash::Date,
    time: i64,
) -> Vec<course_content::review_log::Review> {
    use course_content::review_log::{self as log, Topic};
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
    step: &course_content::path::Step,
    machine: &course_engine::model::machine::Machine,
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
