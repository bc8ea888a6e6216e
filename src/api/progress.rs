//! `course progress` and `course practice` over the review log, and the
//! one place the commands that review (drill `--check`, the quiz, the
//! flashcards) append to it ([`record`]). The figures are
//! [`course_content::progress`]'s; the file is [`course_host::review_log`]'s.

use std::path::{Path, PathBuf};

use course_content::flash::Date;
use course_content::progress::{self, Practice, Progress};
use course_content::review_log::{self, Review};
use course_host::flash_state::StateError;
use course_host::review_log as log_file;

/// Why the log could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ProgressError {
    #[error("no data folder (HOME and XDG_DATA_HOME are unset); use --review-log FILE")]
    NoDataFolder,
    #[error(transparent)]
    State(#[from] StateError),
}

/// The log: `given`, else `reviews.log` in the user's data folder.
pub fn log_path(given: Option<&Path>) -> Result<PathBuf, ProgressError> {
    log_file::path(given).ok_or(ProgressError::NoDataFolder)
}

/// Who reviews: `given`, else the login name.
pub fn who(given: Option<&str>) -> String {
    given.map_or_else(log_file::default_who, review_log::clean_who)
}

/// Appends `reviews` to the log (`given`, else the default one); returns
/// the file written.
pub fn record(given: Option<&Path>, reviews: &[Review]) -> Result<PathBuf, ProgressError> {
    let path = log_path(given)?;
    log_file::append(&path, reviews)?;
    Ok(path)
}

/// A report on the log, with what reading it had to tell (bad lines as
/// `file:line:column: …`).
#[derive(Clone, Debug)]
pub struct Read<T> {
    pub value: T,
    pub warnings: Vec<String>,
}

fn read(given: Option<&Path>) -> Result<(Vec<Review>, Vec<String>), ProgressError> {
    let path = log_path(given)?;
    let r = log_file::read(&path)?;
    Ok((r.reviews, r.bad.iter().map(ToString::to_string).collect()))
}

/// `course progress`: the log's figures per topic (of `who`, or everyone's).
pub fn progress(
    given: Option<&Path>,
    who: Option<&str>,
    day: Date,
) -> Result<Read<Progress>, ProgressError> {
    let (reviews, warnings) = read(given)?;
    Ok(Read {
        value: progress::progress(&reviews, who, day),
        warnings,
    })
}

/// Where `who` is on the chapter's path (`course next`, `course watch`).
pub fn position(
    given: Option<&Path>,
    who: &str,
) -> Result<course_content::path::Position, ProgressError> {
    let (reviews, _) = read(given)?;
    Ok(course_content::path::position(&reviews, Some(who)))
}

/// `course practice`: the next problem, on the weakest due topic.
pub fn practice(
    given: Option<&Path>,
    who: Option<&str>,
    day: Date,
) -> Result<Read<Practice>, ProgressError> {
    let (reviews, warnings) = read(given)?;
    Ok(Read {
        value: progress::practice(&reviews, who, day),
        warnings,
    })
}

/// The same over a log's text (the web page's, from its local storage).
pub fn reviews_of_text(text: &str, origin: &str) -> (Vec<Review>, Vec<String>) {
    let r = review_log::read_log(text.as_bytes(), origin);
    (r.reviews, r.bad.iter().map(ToString::to_string).collect())
}
