//! `course drill`: one call that loads the drill's generator parameters
//! from the course data, then makes the problem (with its solution) or
//! checks an answer.
//!
//! ```
//! use course::api::drill::{run, Answer, DrillOutput, DrillRequest};
//! use course::content::{data::Source, drill::Drill};
//! use course::model::machine::Machine;
//! let m = Machine::toy();
//! let req = DrillRequest {
//!     drill: Drill::Rthroughput,
//!     seed: 3,
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
use crate::content::drill::{self, Drill, DrillEntry, DrillError, Problem, Report};
use crate::content::gen::GenParams;
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
    pub seed: u64,
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

/// Runs the drill: checks the answer when one is given, else states the
/// problem (with its solution when asked).
pub fn run(req: &DrillRequest<'_>) -> Result<DrillOutput, Error> {
    let params = params(req.drill, req.source)?;
    let (m, seed) = (req.machine, req.seed);
    Ok(match req.check {
        Some(a) => DrillOutput::Report(Box::new(req.drill.check(
            m,
            params.as_ref(),
            seed,
            a.text,
            a.file,
        )?)),
        None => DrillOutput::Problem(Box::new(req.drill.problem(
            m,
            params.as_ref(),
            seed,
            req.solution,
        )?)),
    })
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

/// `course drill list`: every drill with what it practises.
pub fn list() -> Vec<DrillEntry> {
    drill::list()
}
