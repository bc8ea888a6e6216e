//! The review log on disk ([`course_content::review_log`] has the format):
//! `$XDG_DATA_HOME/course/reviews.log` (else
//! `~/.local/share/course/reviews.log`), next to the flashcard state, or
//! the file `--review-log FILE` names.
//!
//! Appending is safe with other processes appending at once: the record is
//! written under an exclusive `flock` on the log itself, in one `write`
//! with `O_APPEND`, and flushed to disk; a last line cut short by a crash
//! is ended first, so it stays one bad line and the new record stays
//! whole. Records are never rewritten or removed.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::flash_state::{StateError, data_file};
use course_content::review_log::{self, HEADER, LogRead, Review};

/// The log's file name in the data folder.
pub const FILE_NAME: &str = "reviews.log";

/// The most bytes a log is read to (about a million reviews).
pub const MAX_LOG_BYTES: u64 = 128 << 20;

fn err(path: &Path, message: impl ToString) -> StateError {
    StateError {
        path: path.display().to_string(),
        message: message.to_string(),
    }
}

/// The default log: `reviews.log` in the user's data folder. `env` looks a
/// variable up.
pub fn default_path(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    data_file(env, FILE_NAME)
}

/// `given`, else the default log; `None` when there is no data folder.
pub fn path(given: Option<&Path>) -> Option<PathBuf> {
    match given {
        Some(p) => Some(p.to_path_buf()),
        None => default_path(|k| std::env::var(k).ok()),
    }
}

/// Who reviews, when `--who` says nothing: the login name (`USER`, else
/// `LOGNAME`, else `USERNAME`), made fit for a line; `me` without one.
pub fn default_who() -> String {
    let name = ["USER", "LOGNAME", "USERNAME"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_default();
    review_log::clean_who(&name)
}

/// How far back from the end [`append`] looks for the start of a cut line.
const TAIL: u64 = 4096;

/// Appends `reviews` to the log at `path` (made with its folder and
/// [`HEADER`] when missing), under an exclusive lock on the file, in one
/// write, flushed to disk. A last line cut short by a crash is dropped
/// first.
pub fn append(path: &Path, reviews: &[Review]) -> Result<(), StateError> {
    if reviews.is_empty() {
        return Ok(());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    }
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)?;
        f.lock()?;
        let mut len = f.metadata()?.len();
        let mut text = String::new();
        if len > 0 {
            // A last line without its line feed was cut by a crash (every
            // append writes whole lines under this lock): it is dropped.
            let start = len.saturating_sub(TAIL);
            let mut tail = Vec::with_capacity((len - start) as usize);
            f.seek(SeekFrom::Start(start))?;
            (&mut f).take(TAIL).read_to_end(&mut tail)?;
            if tail.last() != Some(&b'\n') {
                match tail.iter().rposition(|&b| b == b'\n') {
                    Some(i) => len = start + i as u64 + 1,
                    None if start == 0 => len = 0,
                    // A line longer than any this log writes: kept, ended.
                    None => text.push('\n'),
                }
                if text.is_empty() {
                    f.set_len(len)?;
                }
            }
        }
        if len == 0 {
            text.push_str(HEADER);
            text.push('\n');
        }
        for r in reviews {
            text.push_str(&r.line());
        }
        f.write_all(text.as_bytes())?;
        f.sync_data()?;
        Ok(())
    };
    write().map_err(|e| err(path, e))
}

/// Reads the log at `path` (a missing one is empty).
pub fn read(path: &Path) -> Result<LogRead, StateError> {
    let mut bytes = Vec::new();
    match File::open(path).and_then(|f| f.take(MAX_LOG_BYTES + 1).read_to_end(&mut bytes)) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LogRead::default()),
        Err(e) => return Err(err(path, e)),
    }
    if bytes.len() as u64 > MAX_LOG_BYTES {
        return Err(err(
            path,
            format!(
                "the review log is larger than {} MiB; move it aside to go on",
                MAX_LOG_BYTES >> 20
            ),
        ));
    }
    Ok(review_log::read_log(&bytes, &path.display().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_content::flash::Date;
    use course_content::review_log::Origin;

    #[test]
    fn appends_start_with_the_header_and_drop_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("course-review-log-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let p = dir.join("sub/reviews.log");
        let day = Date::parse("2026-01-05").unwrap();
        let r = Review::new(day, 1, "a", Origin::Drill, "mii:1", "mii", true, "-");
        append(&p, std::slice::from_ref(&r)).unwrap();
        // A crash cut the next line short; the record after it is whole.
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"2026-01-05 2 a dri").unwrap();
        drop(f);
        append(&p, std::slice::from_ref(&r)).unwrap();
        let read = read(&p).unwrap();
        assert_eq!(read.reviews, vec![r.clone(), r.clone()]);
        assert!(read.bad.is_empty(), "{:?}", read.bad);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.starts_with(HEADER));
        assert_eq!(text.lines().count(), 3, "{text}");
        // A header cut short is written again.
        std::fs::write(&p, &HEADER[..5]).unwrap();
        append(&p, std::slice::from_ref(&r)).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text, format!("{HEADER}\n{}", r.line()));
        assert_eq!(
            super::read(&dir.join("none.log")).unwrap(),
            LogRead::default()
        );
        let _ = std::fs::remove_dir_all(&dir);
        let home = |k: &str| (k == "HOME").then(|| "/h".to_string());
        assert_eq!(
            default_path(home),
            Some(PathBuf::from("/h/.local/share/course/reviews.log"))
        );
    }
}
