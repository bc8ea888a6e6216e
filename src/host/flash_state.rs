//! The flashcard review state on disk. The state file is JSON, written
//! atomically (a temporary file in the same folder, fsync, rename), so a
//! killed process leaves the old or the new state, never half of one. A file
//! that cannot be read as a state is moved aside to
//! `<file>.corrupt-<timestamp>` (nothing is deleted) and the review starts
//! fresh, keeping whatever whole card entries a cut-short file still holds;
//! single bad card entries are dropped with a warning after the original is
//! copied aside the same way.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::content::flash::{read_state, state_text, Date, State, StateRead};

/// What loading a state file found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub state: State,
    /// Things the user must be told (recovery, dropped entries).
    pub warnings: Vec<String>,
    /// Where an unreadable or partly bad file was moved or copied.
    pub backup: Option<PathBuf>,
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

pub use crate::content::flash::MAX_STATE_BYTES;

/// Loads the state of `deck` from `path`. A missing file is a fresh start;
/// an unreadable one is moved aside (`stamp` names the copy) and reported in
/// the warnings. Only I/O failures that prevent recovery are errors.
pub fn load_state(path: &Path, deck: &str, stamp: &str) -> Result<Loaded, StateError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Loaded {
                state: State::new(deck),
                ..Loaded::default()
            })
        }
        Err(e) => return Err(state_err(path, e)),
    };
    let (problem, recovered) = match read_state(&bytes, deck) {
        StateRead::Whole(state) => {
            return Ok(Loaded {
                state,
                ..Loaded::default()
            })
        }
        StateRead::Partly { state, dropped } => {
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
            return Ok(Loaded {
                state,
                warnings,
                backup: Some(aside),
            });
        }
        StateRead::Damaged { problem, recovered } => (problem, recovered),
    };
    let aside = aside_path(path, stamp);
    std::fs::rename(path, &aside)
        .map_err(|e| state_err(path, format!("{problem}, and moving it aside failed: {e}")))?;
    if let Some(state) = recovered {
        return Ok(Loaded {
            warnings: vec![format!(
                "{}: the review state is damaged ({problem}); recovered {} card(s) from it, the rest start \
                 fresh; the original is moved to {}",
                path.display(),
                state.cards.len(),
                aside.display()
            )],
            state,
            backup: Some(aside),
        });
    }
    Ok(Loaded {
        state: State::new(deck),
        warnings: vec![format!(
            "{}: the review state is damaged ({problem}); moved it to {} and starting with a fresh state \
             (restore it by fixing that file and moving it back)",
            path.display(),
            aside.display()
        )],
        backup: Some(aside),
    })
}

/// Writes the state atomically: a temporary file in the same folder,
/// flushed to disk, then renamed over the old one.
pub fn save_state(path: &Path, state: &State) -> Result<(), StateError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| state_err(&dir, e))?;
    let name = path
        .file_name()
        .map_or("state".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let text = state_text(state);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Persist the rename itself; not every platform can open a folder.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        state_err(path, e)
    })
}

/// The default state file: `$XDG_DATA_HOME/course/flash-<chapter>.json`,
/// else `$HOME/.local/share/course/…`. `env` looks a variable up (so tests
/// need not touch the process environment). A relative XDG_DATA_HOME is
/// ignored, as the XDG spec says.
pub fn default_state_path(env: impl Fn(&str) -> Option<String>, chapter: u32) -> Option<PathBuf> {
    let file = format!("flash-{chapter}.json");
    if let Some(x) = env("XDG_DATA_HOME").filter(|x| Path::new(x).is_absolute()) {
        return Some(Path::new(&x).join("course").join(file));
    }
    let home = env("HOME").filter(|h| !h.is_empty())?;
    Some(Path::new(&home).join(".local/share/course").join(file))
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
            crate::content::flash::schedule(None, crate::content::flash::Rating::Good, today),
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
}
