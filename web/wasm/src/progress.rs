//! `course progress` and `course practice` over the page's review log, and
//! that log imported and exported as a file (`--review-log`).

use serde::{Deserialize, Serialize};

use course::api;
use course::view;
use course_content::flash::Date;
use course_content::path::Position;
use course_content::progress::{self as p, Practice, Progress};
use course_content::review_log;

use crate::Text;

/// The most bytes of review log the page imports at once: a browser keeps
/// a few MiB per page, and a larger log is read by `course progress`.
pub(crate) const MAX_IMPORT_BYTES: usize = 2 << 20;

/// `{"cmd":"progress","log":TEXT,"today":"YYYY-MM-DD","who":NAME?}`: the
/// figures of `course progress` and the pick of `course practice` on the
/// page's review log, as JSON and text, and the log's bad lines.
#[derive(Deserialize)]
pub(crate) struct ProgressReq {
    #[serde(default)]
    log: String,
    today: String,
    #[serde(default)]
    who: Option<String>,
}

/// Progress and practice, each as data and as text, and the log's bad
/// lines.
#[derive(Serialize)]
pub(crate) struct Figures {
    /// Where the reviewer is on the chapter's path (`course next`).
    path: Position,
    practice: Practice,
    practice_text: String,
    progress: Progress,
    progress_text: String,
    warnings: Vec<String>,
}

/// Reads the log and works out progress and practice for `who` on `today`.
pub(crate) fn progress(a: &ProgressReq) -> Result<Figures, String> {
    let today = Date::parse(&a.today).ok_or_else(|| format!("`{}` is not a day", a.today))?;
    let (reviews, warnings) = api::progress::reviews_of_text(&a.log, "review log");
    let who = a.who.as_deref().filter(|w| !w.is_empty());
    let progress = p::progress(&reviews, who, today);
    let practice = p::practice(&reviews, who, today);
    Ok(Figures {
        path: course_content::path::position(&reviews, who),
        practice_text: view::progress::practice_text(&practice),
        practice,
        progress_text: view::progress::progress_text(&progress),
        progress,
        warnings,
    })
}

/// `{"cmd":"progress_import","name":NAME,"text":TEXT}`: the records of an
/// imported review log.
#[derive(Deserialize)]
pub(crate) struct ImportReq {
    name: String,
    #[serde(default)]
    text: String,
    /// The file's size, when the page asks before reading it.
    #[serde(default)]
    size: usize,
}

/// The records of an imported log, one line each as `course` writes them,
/// how many there are, and its bad lines (reported and left out).
#[derive(Serialize)]
pub(crate) struct Imported {
    count: usize,
    lines: String,
    warnings: Vec<String>,
}

/// Reads an imported review log; a file over [`MAX_IMPORT_BYTES`] is refused.
pub(crate) fn import(a: &ImportReq) -> Result<Imported, String> {
    if a.text.len().max(a.size) > MAX_IMPORT_BYTES {
        return Err(format!(
            "{}: larger than {} MiB, more than the page keeps; read it with course progress --review-log {}",
            a.name,
            MAX_IMPORT_BYTES >> 20,
            a.name
        ));
    }
    let read = review_log::read_log(a.text.as_bytes(), &a.name);
    Ok(Imported {
        count: read.reviews.len(),
        lines: read.reviews.iter().map(|r| r.line()).collect(),
        warnings: read.bad.iter().map(ToString::to_string).collect(),
    })
}

/// `{"cmd":"progress_export","log":TEXT}`: the page's review log.
#[derive(Deserialize)]
pub(crate) struct ExportReq {
    #[serde(default)]
    log: String,
}

/// The page's review log as a file `course progress --review-log` reads,
/// its header first.
pub(crate) fn export(a: &ExportReq) -> Result<Text, String> {
    let text = if a.log.starts_with('#') {
        a.log.clone()
    } else {
        format!("{}\n{}", review_log::HEADER, a.log)
    };
    Ok(Text { text })
}
