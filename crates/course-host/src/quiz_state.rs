//! The quiz's last result on disk, next to the flashcard state: which
//! questions of the last interactive quiz were not right, and its seed, so
//! that `course quiz 23 --missed` can ask them again. The file is JSON
//! ([`LastResult`]), written atomically ([`crate::fsutil::write_atomic`]:
//! a temporary file in the same folder, fsync, rename): a killed process
//! leaves the old result or the
//! new one. Two quizzes ending at once: the later one's result is kept.

use std::path::{Path, PathBuf};

use crate::flash_state::{StateError, data_file};
use course_content::quiz::LastResult;

/// The default file: `$XDG_DATA_HOME/course/quiz-<chapter>.json`, else
/// `$HOME/.local/share/course/…`. `env` looks a variable up.
pub fn default_path(env: impl Fn(&str) -> Option<String>, chapter: u32) -> Option<PathBuf> {
    data_file(env, &format!("quiz-{chapter}.json"))
}

fn err(path: &Path, message: impl ToString) -> StateError {
    StateError {
        path: path.display().to_string(),
        message: message.to_string(),
    }
}

/// The last result stored in `path`; `None` when there is no such file.
/// A file that is not a result is an error that says it will be replaced.
pub fn load(path: &Path) -> Result<Option<LastResult>, StateError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(path, e)),
    };
    LastResult::parse(&text).map(Some).map_err(|e| {
        err(
            path,
            format!("not a quiz result ({e}); the next quiz will replace it"),
        )
    })
}

/// Writes `result` to `path` atomically, making its folder if needed.
pub fn save(path: &Path, result: &LastResult) -> Result<(), StateError> {
    crate::fsutil::write_atomic(path, result.text().as_bytes()).map_err(|e| err(&e.path, e.error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_round_trip_and_bad_files_are_said() {
        let dir = std::env::temp_dir().join(format!("course-quiz-state-{}", std::process::id()));
        let path = dir.join("sub/quiz-23.json");
        assert_eq!(load(&path).unwrap(), None);
        let r = LastResult {
            chapter: 23,
            missed: vec!["a".into(), "b".into()],
            seed: 7,
        };
        save(&path, &r).unwrap();
        assert_eq!(load(&path).unwrap(), Some(r));
        std::fs::write(&path, "{not json").unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(
            e.contains("not a quiz result") && e.contains("quiz-23.json"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
        let home = |k: &str| (k == "HOME").then(|| "/h".to_string());
        assert_eq!(
            default_path(home, 23),
            Some(PathBuf::from("/h/.local/share/course/quiz-23.json"))
        );
    }
}
