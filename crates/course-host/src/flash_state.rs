//! The flashcard review state on disk. The state file is JSON, written
//! atomically ([`crate::fsutil::write_atomic`]: a temporary file in the same
//! folder, fsync, rename), so a killed process leaves the old or the new
//! state, never half of one. A file
//! that cannot be read as a state is moved aside to
//! `<file>.corrupt-<timestamp>` (nothing is deleted) and the review starts
//! fresh, keeping whatever whole card entries a cut-short file still holds;
//! single bad card entries are dropped with a warning after the original is
//! copied aside the same way.
//!
//! Every rating is first appended to the review log next to the state,
//! `<file>.log` ([`log_path`]; the format is in
//! [`course_content::flash_log`]), one line, with `O_APPEND`, flushed to
//! disk; only then is the state file rewritten. The state file counts the
//! log lines it holds (`log_lines`), and every read of the state replays
//! the lines after those ([`catch_up`]), so a rating whose state write never
//! happened (a killed process) is still there. A state file from before
//! the log (no `log_lines`) keeps its cards; the log starts with the next
//! rating. Bad log lines are reported as `file:line:column` and skipped.
//!
//! Several `course flash` processes may share one state file. Every change
//! ([`record_review`]) is made under an exclusive lock on the state's
//! folder (an advisory `flock` on the folder itself, so no lock file is
//! left behind; a `.course-flash.lock` file where folders cannot be
//! locked): the state is read again, the log lines other processes added
//! meanwhile are replayed, the new rating is appended and applied to that
//! fresh state, and the result is written back. Two sessions rating one
//! card therefore both count, one after the other. Reading for a listing
//! ([`peek_state`]) takes no lock and changes nothing.

use std::fmt;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use course_content::flash::{self, Date, State, StateRead};
use course_content::flash_log::{self, Logged};

/// What loading a state file found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub state: State,
    /// Things the user must be told (recovery, dropped entries).
    pub warnings: Vec<String>,
    /// Where an unreadable or partly bad file was moved or copied.
    pub backup: Option<PathBuf>,
    /// The file was not a state: the cards it lost may be rebuilt from
    /// the whole review log ([`catch_up`]).
    pub damaged: bool,
}

/// Why the state could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct StateError {
    pub path: String,
    pub message: String,
}

fn state_err(path: &Path, e: impl fmt::Display) -> StateError {
    StateError {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// The aside name for a bad state file: `<file>.corrupt-<stamp>`, made unique.
fn aside_path(path: &Path, stamp: &str) -> PathBuf {
    let base = format!("{}.corrupt-{stamp}", path.display());
    let mut p = PathBuf::from(&base);
    let mut n = 1;
    while p.exists() {
        n += 1;
        p = PathBuf::from(format!("{base}-{n}"));
    }
    p
}

pub use course_content::flash::MAX_STATE_BYTES;

/// What a state file holds, before anything is done about it.
enum Found {
    /// No file: a fresh start.
    Missing,
    /// A valid state; `dropped` says which entries were bad and left out.
    State { state: State, dropped: Vec<String> },
    /// Not a state at all: why, and the whole card entries a cut-short file
    /// still holds (if any).
    Damaged {
        problem: String,
        salvaged: Option<State>,
    },
}

/// Reads and checks the state file, changing nothing.
fn read_state(path: &Path, deck: &str) -> Result<Found, StateError> {
    // One byte past the limit is enough to tell a file too large.
    let mut bytes = Vec::new();
    match File::open(path).and_then(|f| f.take(MAX_STATE_BYTES + 1).read_to_end(&mut bytes)) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Missing),
        Err(e) => return Err(state_err(path, e)),
    }
    Ok(match flash::read_state(&bytes, deck) {
        StateRead::Whole(state) => Found::State {
            state,
            dropped: Vec::new(),
        },
        StateRead::Partly { state, dropped } => Found::State { state, dropped },
        StateRead::Damaged { problem, recovered } => Found::Damaged {
            problem,
            salvaged: recovered,
        },
    })
}

/// Loads the state of `deck` from `path`. A missing file is a fresh start;
/// an unreadable one is moved aside (`stamp` names the copy) and reported in
/// the warnings. Only I/O failures that prevent recovery are errors. Call it
/// under [`FolderLock`] when others may be writing.
pub fn load_state(path: &Path, deck: &str, stamp: &str) -> Result<Loaded, StateError> {
    match read_state(path, deck)? {
        Found::Missing => Ok(Loaded {
            state: State::new(deck),
            ..Loaded::default()
        }),
        Found::State { state, dropped } if dropped.is_empty() => Ok(Loaded {
            state,
            ..Loaded::default()
        }),
        Found::State { state, dropped } => {
            // Keep the original so the dropped entries are not lost.
            let aside = aside_path(path, stamp);
            std::fs::copy(path, &aside).map_err(|e| state_err(&aside, e))?;
            let mut warnings: Vec<String> = dropped
                .iter()
                .map(|m| format!("{}: ignoring a bad entry: {m}", path.display()))
                .collect();
            warnings.push(format!(
                "{}: kept the other {} card(s); the original file is saved as {}",
                path.display(),
                state.cards.len(),
                aside.display()
            ));
            Ok(Loaded {
                state,
                warnings,
                backup: Some(aside),
                damaged: false,
            })
        }
        Found::Damaged { problem, salvaged } => {
            let aside = aside_path(path, stamp);
            std::fs::rename(path, &aside).map_err(|e| {
                state_err(path, format!("{problem}, and moving it aside failed: {e}"))
            })?;
            let warning = match &salvaged {
                Some(state) => format!(
                    "{}: the review state is damaged ({problem}); recovered {} card(s) from it, the rest \
                     start fresh; the original is moved to {}",
                    path.display(),
                    state.cards.len(),
                    aside.display()
                ),
                None => format!(
                    "{}: the review state is damaged ({problem}); moved it to {} and starting with a fresh \
                     state (restore it by fixing that file and moving it back)",
                    path.display(),
                    aside.display()
                ),
            };
            Ok(Loaded {
                state: salvaged.unwrap_or_else(|| State::new(deck)),
                warnings: vec![warning],
                backup: Some(aside),
                damaged: true,
            })
        }
    }
}

/// The state as a listing shows it: like [`load_state`], but nothing on
/// disk is moved, copied or written; a damaged file is only reported.
pub fn peek_state(path: &Path, deck: &str) -> Result<Loaded, StateError> {
    let mut loaded = match read_state(path, deck)? {
        Found::Missing => Loaded {
            state: State::new(deck),
            ..Loaded::default()
        },
        Found::State { state, dropped } => Loaded {
            warnings: dropped
                .iter()
                .map(|m| {
                    format!(
                        "{}: ignoring a bad entry: {m} (the file is left as it is until the next review)",
                        path.display()
                    )
                })
                .collect(),
            state,
            backup: None,
            damaged: false,
        },
        Found::Damaged { problem, salvaged } => Loaded {
            warnings: vec![format!(
                "{}: the review state is damaged ({problem}); listing {} card(s) from it; the file is \
                 left as it is until the next review moves it aside",
                path.display(),
                salvaged.as_ref().map_or(0, |s| s.cards.len())
            )],
            state: salvaged.unwrap_or_else(|| State::new(deck)),
            backup: None,
            damaged: true,
        },
    };
    catch_up(path, &mut loaded)?;
    Ok(loaded)
}

/// An exclusive lock on the folder of a state file, held until dropped.
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Waits for the lock on the folder that holds `path` (created if
    /// missing).
    pub fn acquire(path: &Path) -> Result<FolderLock, StateError> {
        let dir = folder(path);
        std::fs::create_dir_all(&dir).map_err(|e| state_err(&dir, e))?;
        let file = open_lock(&dir).map_err(|e| state_err(&dir, e))?;
        file.lock().map_err(|e| state_err(&dir, e))?;
        Ok(FolderLock { _file: file })
    }
}

#[cfg(unix)]
fn open_lock(dir: &Path) -> std::io::Result<File> {
    File::open(dir)
}

#[cfg(not(unix))]
fn open_lock(dir: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".course-flash.lock"))
}

/// The folder a state file lives in (`.` for a bare name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Opens the state under the folder lock: loads it (recovering a damaged
/// file), replays the log lines it does not hold yet, saves the result at
/// once when either changed it (so that what was kept survives), and
/// removes temporary files that killed processes left.
pub fn open_state(path: &Path, deck: &str, stamp: &str) -> Result<Loaded, StateError> {
    let _lock = FolderLock::acquire(path)?;
    remove_stale_temporaries(path);
    let mut loaded = load_state(path, deck, stamp)?;
    let log = catch_up(path, &mut loaded)?;
    if loaded.backup.is_some() || log.replayed {
        save_state(path, &loaded.state)?;
    }
    Ok(loaded)
}

/// The review log of a state file: `<file>.log`.
pub fn log_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".log");
    PathBuf::from(name)
}

/// The most bytes a review log may have (a million reviews fit).
pub const MAX_LOG_BYTES: u64 = 64 << 20;

/// What [`catch_up`] found in the log.
#[derive(Clone, Copy, Debug, Default)]
pub struct LogTail {
    /// Lines the state did not hold yet were read (and replayed).
    pub replayed: bool,
    /// Every line of the log (0 when there is none).
    pub lines: usize,
    /// The log is empty or ends in a newline.
    pub ends_in_newline: bool,
}

/// Replays onto `loaded.state` the records of the log past the
/// `log_lines` it holds, and counts them in; bad lines become warnings
/// (`file:line:column: ...`), reported once, when they are first counted
/// in. A log shorter than the state says (replaced, or cut) is counted
/// from its end, with a warning. Reads only.
pub fn catch_up(path: &Path, loaded: &mut Loaded) -> Result<LogTail, StateError> {
    let log = log_path(path);
    let mut bytes = Vec::new();
    match File::open(&log).and_then(|f| f.take(MAX_LOG_BYTES + 1).read_to_end(&mut bytes)) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(state_err(&log, e)),
    }
    if bytes.len() as u64 > MAX_LOG_BYTES {
        return Err(state_err(
            &log,
            format!(
                "the review log is larger than {} MiB; move it aside to go on",
                MAX_LOG_BYTES >> 20
            ),
        ));
    }
    let held = loaded.state.log_lines;
    let origin = log.display().to_string();
    // One parse of the log: a damaged state needs its head too (the lines
    // it held), a sound one only the tail.
    let skip = if loaded.damaged { 0 } else { held };
    let mut read = flash_log::read_log(&bytes, &origin, skip);
    let tail_at = read.entries.partition_point(|(line, _)| *line <= held);
    let head: Vec<(usize, Logged)> = read.entries.drain(..tail_at).collect();
    let bad_at = read.bad.partition_point(|d| (d.line as usize) <= held);
    read.bad.drain(..bad_at);
    if loaded.damaged && held > 0 {
        // The cards a damaged state lost: their records in the lines it
        // held, replayed from a new card (exact for every card the log has
        // seen from its first review).
        let lost: Vec<&Logged> = head
            .iter()
            .filter(|(_, e)| !loaded.state.cards.contains_key(&e.card))
            .map(|(_, e)| e)
            .collect();
        let before = loaded.state.cards.len();
        flash_log::replay(&mut loaded.state, lost);
        let rebuilt = loaded.state.cards.len().saturating_sub(before);
        if rebuilt > 0 {
            loaded.warnings.push(format!(
                "{}: rebuilt {rebuilt} more card(s) from the review log {origin}",
                path.display()
            ));
        }
    }
    if read.lines < held {
        loaded.warnings.push(format!(
            "{}: the review log has {} line(s), but the state holds {held}; its lines are counted \
             from here on",
            log.display(),
            read.lines
        ));
    }
    loaded
        .warnings
        .extend(read.bad.iter().map(ToString::to_string));
    flash_log::replay(&mut loaded.state, read.entries.iter().map(|(_, e)| e));
    loaded.state.log_lines = read.lines;
    Ok(LogTail {
        replayed: read.lines > held,
        lines: read.lines,
        ends_in_newline: read.ends_in_newline,
    })
}

/// Appends one record to the log (a new log starts with its header; a
/// cut-short last line is ended first, so it stays one bad line), with
/// `O_APPEND`, and flushes it to disk. Returns the lines added. Call it
/// under [`FolderLock`].
fn append_log(path: &Path, tail: LogTail, entry: &Logged) -> Result<usize, StateError> {
    let log = log_path(path);
    let mut text = String::new();
    let mut added = 0;
    if tail.lines == 0 {
        text.push_str(flash_log::HEADER);
        text.push('\n');
        added += 1;
    } else if !tail.ends_in_newline {
        text.push('\n');
    }
    text.push_str(&entry.line());
    added += 1;
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if tail.lines == 0
            && let Ok(d) = File::open(folder(path))
        {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|e| state_err(&log, e))?;
    Ok(added)
}

/// Records one rating under the folder lock: reads the state again,
/// replays the log lines other processes added meanwhile, appends `entry`
/// to the log, applies it to that fresh state (never to a copy read
/// earlier) and saves the state. `mine` is the caller's copy, used in
/// place of a state file found damaged meanwhile (it is exact up to its
/// `log_lines`). Returns the state saved.
pub fn record_review(
    path: &Path,
    deck: &str,
    stamp: &str,
    mine: &State,
    entry: &Logged,
) -> Result<Loaded, StateError> {
    let _lock = FolderLock::acquire(path)?;
    let mut loaded = load_state(path, deck, stamp)?;
    if loaded.backup.is_some() {
        loaded.state = mine.clone();
        loaded.damaged = false;
    }
    let tail = catch_up(path, &mut loaded)?;
    let added = append_log(path, tail, entry)?;
    flash_log::replay(&mut loaded.state, std::slice::from_ref(entry));
    loaded.state.log_lines = tail.lines + added;
    save_state(path, &loaded.state)?;
    Ok(loaded)
}

/// Removes the temporary files of saves that never finished: the
/// `.<file>.tmp-XXXXXX` of [`crate::fsutil::write_atomic`], and those of
/// earlier versions (`.<file>.tmp`, `.<file>.tmp-<pid>`). Only called under
/// the folder lock, when no save can be under way.
fn remove_stale_temporaries(path: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let old = format!(".{name}.tmp");
    let old_pid = format!("{old}-");
    let Ok(entries) = std::fs::read_dir(folder(path)) else {
        return;
    };
    for e in entries.flatten() {
        let entry = e.file_name();
        let shown = entry.to_string_lossy();
        let stale = crate::fsutil::is_temporary(path, &entry)
            || shown == old
            || shown
                .strip_prefix(&old_pid)
                .is_some_and(|pid| !pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit()));
        if stale {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes the state atomically ([`crate::fsutil::write_atomic`]): a
/// temporary file in the same folder, flushed to disk, then renamed over
/// the old one. Several writers must hold the [`FolderLock`] (so that
/// none removes another's temporary file as stale).
pub fn save_state(path: &Path, state: &State) -> Result<(), StateError> {
    let text = flash::state_text(state);
    crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| state_err(&e.path, e.error))
}

/// The default state file: `$XDG_DATA_HOME/course/flash-<chapter>.json`,
/// else `$HOME/.local/share/course/…`. `env` looks a variable up (so tests
/// need not touch the process environment). A relative XDG_DATA_HOME is
/// ignored, as the XDG spec says.
pub fn default_state_path(env: impl Fn(&str) -> Option<String>, chapter: u32) -> Option<PathBuf> {
    data_file(env, &format!("flash-{chapter}.json"))
}

/// The file `name` in the user's data folder: `$XDG_DATA_HOME/course/`,
/// else `$HOME/.local/share/course/` (a relative XDG_DATA_HOME ignored).
pub fn data_file(env: impl Fn(&str) -> Option<String>, name: &str) -> Option<PathBuf> {
    if let Some(x) = env("XDG_DATA_HOME").filter(|x| Path::new(x).is_absolute()) {
        return Some(Path::new(&x).join("course").join(name));
    }
    let home = env("HOME").filter(|h| !h.is_empty())?;
    Some(Path::new(&home).join(".local/share/course").join(name))
}

/// `20260102T134501Z`: the suffix of a moved-aside state file, for a Unix
/// time in seconds.
pub fn stamp(secs: i64) -> String {
    let d = Date::from_unix(secs);
    let (y, m, day) = d.ymd();
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}{m:02}{day:02}T{:02}{:02}{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_path_prefers_absolute_xdg() {
        let env = |xdg: Option<&'static str>| {
            move |k: &str| match k {
                "XDG_DATA_HOME" => xdg.map(String::from),
                "HOME" => Some("/home/u".to_string()),
                _ => None,
            }
        };
        assert_eq!(
            default_state_path(env(Some("/x")), 23),
            Some(PathBuf::from("/x/course/flash-23.json"))
        );
        assert_eq!(
            default_state_path(env(Some("rel")), 23),
            Some(PathBuf::from("/home/u/.local/share/course/flash-23.json"))
        );
        assert_eq!(default_state_path(|_| None, 23), None);
    }

    #[test]
    fn stamps_are_utc_and_sortable() {
        assert_eq!(stamp(0), "19700101T000000Z");
        assert_eq!(stamp(86_400 + 3_661), "19700102T010101Z");
    }

    #[test]
    fn save_then_load_round_trips_and_garbage_is_moved_aside() {
        let dir = std::env::temp_dir().join(format!("course-flash-state-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let p = dir.join("s.json");
        let mut st = State::new("ch23");
        let today = Date::parse("2026-01-01").unwrap_or(Date(0));
        st.cards.insert(
            "a".into(),
            course_content::flash::schedule(None, course_content::flash::Rating::Good, today),
        );
        save_state(&p, &st).unwrap();
        let back = load_state(&p, "ch23", "T").unwrap();
        assert_eq!((back.state, back.backup), (st, None));
        std::fs::write(&p, "not json").unwrap();
        let bad = load_state(&p, "ch23", "T").unwrap();
        assert!(bad.state.cards.is_empty());
        assert_eq!(bad.backup, Some(dir.join("s.json.corrupt-T")));
        assert!(!p.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_rating_from_a_stale_copy_is_applied_to_the_fresh_state() {
        use course_content::flash::Rating;
        let dir = std::env::temp_dir().join(format!("course-flash-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let p = dir.join("s.json");
        let day = Date::parse("2026-01-01").unwrap_or(Date(0));
        let entry = |rating| Logged {
            day,
            time: 0,
            card: "a".into(),
            rating,
        };
        // Two sessions opened the same (empty) state; both rate card `a`.
        let stale = open_state(&p, "ch23", "T").unwrap().state;
        let one = record_review(&p, "ch23", "T", &stale, &entry(Rating::Good)).unwrap();
        assert_eq!(one.state.cards["a"].leitner_box, 2);
        let two = record_review(&p, "ch23", "T", &stale, &entry(Rating::Good)).unwrap();
        let a = &two.state.cards["a"];
        assert_eq!(
            (a.leitner_box, a.reviews, a.due.as_str()),
            (3, 2, "2026-01-05")
        );
        // Header and two records; the state holds all three lines.
        assert_eq!(two.state.log_lines, 3);
        let log = std::fs::read_to_string(log_path(&p)).unwrap();
        assert_eq!(log.lines().count(), 3, "{log}");
        assert_eq!(load_state(&p, "ch23", "T").unwrap().state, two.state);
        // A state write that never happened: the log line alone counts.
        std::fs::write(&p, flash::state_text(&one.state)).unwrap();
        assert_eq!(peek_state(&p, "ch23").unwrap().state, two.state);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_state_file_past_the_limit_is_read_no_further() {
        let dir = std::env::temp_dir().join(format!("course-flash-big-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("s.json");
        // Sparse: the length is past the limit without writing the bytes.
        let f = File::create(&p).unwrap();
        f.set_len(4 * MAX_STATE_BYTES).unwrap();
        drop(f);
        let peeked = peek_state(&p, "ch23").unwrap();
        assert!(peeked.state.cards.is_empty());
        assert!(
            peeked.warnings[0].contains("larger than 16 MiB"),
            "{:?}",
            peeked.warnings
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
