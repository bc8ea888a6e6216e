//! Diagnostics: a problem in a file at a 1-based line and column.
//!
//! Every parser of the crate (lab inputs, submissions, answer files,
//! machine files, question banks, flashcard decks) reports its problems as
//! [`Diagnostic`]s, printed `file:line:column: message`, and collects them in
//! [`Diagnostics`] so that one bad line does not hide the next.
//!
//! ```
//! use course_engine::formats::diagnostic::{decode_utf8, Diagnostic};
//! let d = Diagnostic::new("in.txt", 2, 9, "unknown opcode 'frob'");
//! assert_eq!(d.to_string(), "in.txt:2:9: unknown opcode 'frob'");
//! let e = decode_utf8(b"block b\na: r1 = li \xff\n".to_vec(), "in.txt").unwrap_err();
//! assert_eq!(e.to_string(), "in.txt:2:12: not UTF-8 text (byte 0xff)");
//! ```

use std::fmt;

/// A place in a file, 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Location {
    /// The file as the user named it (`quizzes/ch23.yaml`, `<stdin>`).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One problem, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnostic {
    /// The file as the user named it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at `file:line:column`.
    pub fn new(
        file: impl Into<String>,
        line: u32,
        column: u32,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            file: file.into(),
            line,
            column,
            message: message.into(),
        }
    }

    /// A diagnostic at a location.
    pub fn at(loc: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: loc.file,
            line: loc.line,
            column: loc.column,
            message: message.into(),
        }
    }

    /// Where it is.
    pub fn location(&self) -> Location {
        Location {
            file: self.file.clone(),
            line: self.line,
            column: self.column,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// Every problem found in one file (never empty when returned as an error),
/// printed one a line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The problems, in the order they were found.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// How many problems.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics(vec![d])
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The 1-based line and character column of byte offset `at` in `bytes`
/// (which are valid UTF-8 before `at`).
pub fn line_column(bytes: &[u8], at: usize) -> (u32, u32) {
    let before = &bytes[..at.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count() as u32
        + 1;
    (line, column)
}

/// The bytes as text, or a diagnostic at the line and column of the first
/// byte that is not UTF-8 (a UTF-16 file is named as such).
pub fn decode_utf8(bytes: Vec<u8>, file: &str) -> Result<String, Diagnostic> {
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let bytes = e.as_bytes();
            if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
                return Err(Diagnostic::new(
                    file,
                    1,
                    1,
                    "UTF-16 text; save the file as UTF-8",
                ));
            }
            let at = e.utf8_error().valid_up_to();
            let (line, column) = line_column(bytes, at);
            Err(Diagnostic::new(
                file,
                line,
                column,
                format!("not UTF-8 text (byte 0x{:02x})", bytes[at]),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_errors_are_located() {
        let e = decode_utf8(vec![b'a', b'\n', 0xc3, 0xa9, b'x', 0x80], "f").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = decode_utf8(vec![0xff, 0xfe, b'a', 0], "f").unwrap_err();
        assert!(e.message.contains("UTF-16"), "{e}");
        assert_eq!(decode_utf8(b"ok".to_vec(), "f").unwrap(), "ok");
    }

    #[test]
    fn several_print_one_a_line() {
        let d = Diagnostics(vec![
            Diagnostic::new("a", 1, 2, "x"),
            Diagnostic::new("a", 3, 4, "y"),
        ]);
        assert_eq!(d.to_string(), "a:1:2: x\na:3:4: y");
    }
}
