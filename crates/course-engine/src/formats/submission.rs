//! The submission format (product.md §8): one `LABEL CYCLE` line per
//! operation, an II line for loops, `#` comments; a BOM, CRLF, tabs and
//! trailing spaces are accepted. Placement lines are split by the
//! key-value reader of [`crate::formats::answer`], so `LABEL CYCLE`,
//! `LABEL: CYCLE`, `LABEL = CYCLE` and `LABEL=CYCLE` read the same, as in
//! every other answer file.
//!
//! The II line is `ii N`, written in any case and with an optional `:` or
//! `=` after `ii` (`ii: 4`, `II = 4`, `ii:4`). It cannot be mistaken for a
//! placement because no operation may be labelled `ii` in any case (the
//! input parser refuses it, see [`is_reserved_label`]).
//!
//! Submissions are untrusted: numbers are range-checked, at most
//! [`MAX_LINES`] lines are read, and parsing never fails: every line that
//! is not a placement becomes a [`Diagnostic`]. Only the first
//! [`MAX_ERRORS`] of those are kept; the rest are counted.
//!
//! ```
//! let s = course_engine::formats::submission::parse("ii: 4\na 0\nb: 2 # late\n", "a.sched");
//! assert_eq!(s.ii.map(|(ii, _)| ii), Some(4));
//! assert_eq!(s.placements.len(), 2);
//! assert!(s.errors.is_empty());
//! ```

use crate::formats::answer::{self, shorten};
use crate::formats::diagnostic::Diagnostic;

/// The largest cycle or II a submission may state.
pub const MAX_CYCLE: i64 = 1_000_000_000_000;
/// The most lines of a submission that are read.
pub const MAX_LINES: usize = 100_000;
/// The most line problems kept in [`Submission::errors`]; the rest are
/// only counted in [`Submission::more_errors`].
pub const MAX_ERRORS: usize = 20;

/// One `LABEL CYCLE` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The operation's label as written.
    pub label: String,
    /// The issue cycle.
    pub cycle: i64,
    /// 1-based line of the submission.
    pub line: u32,
}

/// A parsed submission, with the problems found while parsing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Submission {
    /// The placements in the order written.
    pub placements: Vec<Placement>,
    /// `ii N` and its line.
    pub ii: Option<(u64, u32)>,
    /// Lines that are not placements, numbers out of range: the first
    /// [`MAX_ERRORS`] of them.
    pub errors: Vec<Diagnostic>,
    /// How many further problems were found and not kept.
    pub more_errors: u64,
}

impl Submission {
    fn error(&mut self, d: Diagnostic) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(d);
        } else {
            self.more_errors += 1;
        }
    }
}

/// True for `ii` in any case: the word that starts the II line, which no
/// operation may use as its label.
pub fn is_reserved_label(s: &str) -> bool {
    s.eq_ignore_ascii_case("ii")
}

/// The number part of an II line (`ii 4`, `ii: 4`, `II = 4`, `ii:4`), or
/// `None` when the line does not start with the word `ii`.
fn ii_value(text: &str) -> Option<&str> {
    let head = text.get(..2)?;
    if !is_reserved_label(head) {
        return None;
    }
    let rest = &text[2..];
    if rest.is_empty() {
        return Some(rest);
    }
    let rest = match rest.trim_start().strip_prefix([':', '=']) {
        Some(r) => r,
        None if rest.starts_with(char::is_whitespace) => rest,
        None => return None,
    };
    Some(rest.trim())
}

fn number(s: &str, what: &str) -> Result<i64, String> {
    let digits = s.strip_prefix('+').unwrap_or(s);
    if digits.starts_with('-')
        && digits.len() > 1
        && digits[1..].chars().all(|c| c.is_ascii_digit())
    {
        return Err(format!("{what} {s} is negative; cycles start at 0"));
    }
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "expected a whole number for the {what}, found '{}'",
            shorten(s)
        ));
    }
    match digits.parse::<i64>() {
        Ok(v) if v <= MAX_CYCLE => Ok(v),
        _ => Err(format!(
            "{what} {} is out of range (at most {MAX_CYCLE})",
            shorten(s)
        )),
    }
}

/// True for a label of the lab format: a letter or `_`, then letters,
/// digits, `_` or `.`.
pub fn is_label(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Parses a submission; `file` names it in diagnostics. Never fails:
/// problems are in `errors` (and counted in `more_errors`).
pub fn parse(text: &str, file: &str) -> Submission {
    let mut sub = Submission::default();
    for l in answer::lines(text) {
        let line = l.line;
        let err = |message: String| Diagnostic::new(file, line, l.column, message);
        if line as usize > MAX_LINES {
            sub.error(err(format!(
                "more than {MAX_LINES} lines; the rest is not read"
            )));
            break;
        }
        if let Some(n) = ii_value(l.text) {
            if n.is_empty() || n.contains(char::is_whitespace) {
                sub.error(err(format!(
                    "expected 'ii N' with one whole number N, found '{}'",
                    shorten(l.text)
                )));
                continue;
            }
            match number(n, "II") {
                Ok(0) => sub.error(err("ii 0: the initiation interval is at least 1".into())),
                Ok(v) => {
                    if let Some((_, prev)) = sub.ii {
                        sub.error(err(format!(
                            "a second 'ii' line (the first is line {prev})"
                        )));
                    } else {
                        sub.ii = Some((v as u64, line));
                    }
                }
                Err(e) => sub.error(err(e)),
            }
            continue;
        }
        // The key-value reader every answer file uses: `a 0`, `a: 0`,
        // `a = 0` and `a=0` are one placement.
        let kv = match answer::key_value(l) {
            Ok(kv) if !kv.value.contains(char::is_whitespace) => kv,
            _ => {
                sub.error(err(format!(
                    "expected 'LABEL CYCLE' or 'ii N', found '{}'",
                    shorten(l.text)
                )));
                continue;
            }
        };
        let label = kv.key;
        if !is_label(label) {
            sub.error(err(format!(
                "'{}' is not an operation label",
                shorten(label)
            )));
            continue;
        }
        match number(kv.value, "cycle") {
            Ok(c) => sub.placements.push(Placement {
                label: label.to_string(),
                cycle: c,
                line,
            }),
            Err(e) => sub.error(err(format!("{label}: {e}"))),
        }
    }
    sub
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_value_spelling_is_one_placement() {
        let s = parse("a 0\nb: 1\nc = 2\nd=3\nii=4\n", "a.sched");
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let got: Vec<(&str, i64)> = s
            .placements
            .iter()
            .map(|p| (p.label.as_str(), p.cycle))
            .collect();
        assert_eq!(got, vec![("a", 0), ("b", 1), ("c", 2), ("d", 3)]);
        assert_eq!(s.ii, Some((4, 5)));
    }

    #[test]
    fn malformed_lines_are_located() {
        let s = parse("a\n  b 1 2\nc: x\n1a 3\n", "a.sched");
        let msgs: Vec<String> = s.errors.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            msgs,
            vec![
                "a.sched:1:1: expected 'LABEL CYCLE' or 'ii N', found 'a'",
                "a.sched:2:3: expected 'LABEL CYCLE' or 'ii N', found 'b 1 2'",
                "a.sched:3:1: c: expected a whole number for the cycle, found 'x'",
                "a.sched:4:1: '1a' is not an operation label",
            ]
        );
    }

    #[test]
    fn every_spelling_of_the_ii_line_is_read() {
        for line in [
            "ii 4", "ii: 4", "ii:4", "II 4", "II: 4", "ii = 4", "II=4", "Ii\t4",
        ] {
            let s = parse(&format!("{line}\na 0\n"), "s");
            assert_eq!(s.ii, Some((4, 1)), "{line}: {:?}", s.errors);
            assert!(s.errors.is_empty(), "{line}: {:?}", s.errors);
        }
        let s = parse("a:1\nb: 2\n", "s");
        assert_eq!(s.placements.len(), 2, "{:?}", s.errors);
        let s = parse("ii\niii 3\n", "s");
        assert!(
            s.errors[0].message.contains("expected 'ii N'"),
            "{:?}",
            s.errors
        );
        // `iii` is a label, not an II line.
        assert_eq!(s.placements[0].label, "iii");
    }

    #[test]
    fn line_problems_are_kept_up_to_the_cap_and_counted_beyond() {
        let junk = "%% junk\n".repeat(1000);
        let s = parse(&junk, "s");
        assert_eq!(s.errors.len(), MAX_ERRORS);
        assert_eq!(s.more_errors, 1000 - MAX_ERRORS as u64);
    }
}
