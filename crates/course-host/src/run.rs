//! A student's scheduler as `course grade --run` is asked to run it: the
//! command, split into words by [`split_command`] (words separated by
//! spaces or tabs; `'…'` or `"…"` keeps a stretch together, the quotes
//! removed, nothing inside them special; no other quoting, escaping,
//! variable, glob or redirection: the words are the program and its
//! arguments), the limits, the isolation asked for and the number of
//! parallel runs. `{input}` inside a word is replaced by the path of the
//! input file as the program sees it; a command without `{input}` gets
//! the input's text on standard input instead.
//!
//! Running it is [`crate::sandbox`]'s work: every run of a student's
//! program goes through that one module.

use std::path::PathBuf;

#[cfg(target_os = "linux")]
pub use crate::sandbox::{INPUT, Limits, Wanted};

/// What to run, within which limits and how isolated.
#[cfg(target_os = "linux")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSpec {
    /// The program and its arguments, [`INPUT`] not yet replaced.
    pub words: Vec<String>,
    /// The limits of each run.
    pub limits: Limits,
    /// The isolation asked for (`--unsandboxed`, `--sandbox`).
    pub wanted: Wanted,
    /// Folders bound read-only into the sandbox (`--sandbox-bind`).
    pub binds: Vec<PathBuf>,
    /// The first outside uid of the programs when the grader is root.
    pub uid_base: u32,
    /// How many students are graded at once.
    pub jobs: usize,
    /// `--sandbox-open-parallel`: `jobs` above 1 under uid separation
    /// without Landlock, accepted knowingly.
    pub open_parallel: bool,
}

/// Splits a command into words by the rule of the module documentation.
pub fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    use course_content::text::{WordsError, split_words};
    let words = split_words(cmd).map_err(|e| match e {
        WordsError::Unclosed(q) => format!("the command has an unclosed {q}"),
        WordsError::LineBreak => "the command is one line".to_string(),
    })?;
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_into_words_without_a_shell() {
        assert_eq!(
            split_command("python3  'my sched.py' {input} --x \"a b\"").unwrap(),
            ["python3", "my sched.py", "{input}", "--x", "a b"]
        );
        assert_eq!(split_command("a$HOME;b *").unwrap(), ["a$HOME;b", "*"]);
        assert_eq!(split_command("x ''").unwrap(), ["x", ""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("x 'y").unwrap_err().contains("unclosed"));
    }
}
