//! Plain-text helpers shared by the course's layers: layout for the views,
//! byte counts, printable file names, and the one way a command line is
//! split into words. [`columns`] is the engine's own (its automaton table
//! uses it), re-exported here so a view finds every layout helper in one
//! place.

use std::fmt;

pub use course_engine::util::text::columns;

/// Prose reflowed to `width` columns (characters). Paragraphs are runs of
/// lines that start without a blank; their lines are joined and broken
/// again at spaces. A line that starts with a blank (a table, code, an
/// indented list) is kept as it is unless it is too wide, and then only
/// that line is broken, its continuations indented like it. A line that
/// opens a list item (`- `, `* `, `• `, `a) `, `1. `) starts a paragraph
/// of its own, continued under its text; a line ending in `:` ends one. A
/// word wider than `width` stays whole. The result ends in a newline
/// exactly when `text` does.
pub fn wrap(text: &str, width: usize) -> String {
    let width = width.max(1);
    let mut out = String::new();
    let mut para: Vec<&str> = Vec::new();
    let flush = |para: &mut Vec<&str>, out: &mut String| {
        if para.is_empty() {
            return;
        }
        let first = para[0];
        let hang = " ".repeat(item_marker(first));
        let words = para.iter().flat_map(|l| l.split_whitespace());
        fill(words, "", &hang, width, out);
        para.clear();
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len();
    for (i, line) in lines.into_iter().enumerate() {
        let last = i + 1 == n;
        if last && line.is_empty() {
            break;
        }
        let line = line.trim_end();
        if line.is_empty() || line.starts_with(char::is_whitespace) {
            flush(&mut para, &mut out);
            if line.chars().count() <= width {
                out.push_str(line);
            } else {
                let body = line.trim_start();
                let indent = &line[..line.len() - body.len()];
                let hang = format!("{indent}{}", " ".repeat(item_marker(body)));
                break_line(line, &hang, width, &mut out);
            }
            out.push('\n');
            continue;
        }
        if item_marker(line) > 0 {
            flush(&mut para, &mut out);
        }
        para.push(line);
        if line.ends_with(':') {
            flush(&mut para, &mut out);
        }
    }
    flush(&mut para, &mut out);
    if !text.ends_with('\n') && out.ends_with('\n') {
        out.pop();
    }
    out
}

/// One line broken at spaces to `width` columns, the spacing inside each
/// piece kept; pieces after the first start with `hang`. No final newline.
pub fn wrap_line(line: &str, hang: &str, width: usize) -> String {
    let mut out = String::new();
    break_line(line, hang, width.max(1), &mut out);
    out
}

/// One over-wide line broken at spaces, the spacing inside each piece kept
/// (a table row stays aligned as far as it goes); pieces after the first
/// start with `hang`. No final newline.
fn break_line(line: &str, hang: &str, width: usize, out: &mut String) {
    let mut rest = line;
    // Characters left in `rest`, kept up to date so that a long line is
    // counted once, not once per piece.
    let mut left = rest.chars().count();
    let mut prefix = "";
    loop {
        let room = width.saturating_sub(prefix.chars().count()).max(1);
        if left <= room {
            out.push_str(prefix);
            out.push_str(rest);
            return;
        }
        // The byte offset of character `room`, and the last space before it
        // (after the leading blanks); else the first space after it.
        let lead = rest.len() - rest.trim_start().len();
        let limit = rest.char_indices().nth(room).map_or(rest.len(), |(i, _)| i);
        let cut = rest[..limit]
            .rfind(' ')
            .filter(|&i| i > lead)
            .or_else(|| rest[limit..].find(' ').map(|i| i + limit));
        let Some(cut) = cut else {
            out.push_str(prefix);
            out.push_str(rest);
            return;
        };
        out.push_str(prefix);
        out.push_str(rest[..cut].trim_end());
        out.push('\n');
        let next = rest[cut..].trim_start();
        left -= rest[..rest.len() - next.len()].chars().count();
        rest = next;
        prefix = hang;
    }
}

/// The width of a list-item marker opening `line` (`- `, `* `, `• `,
/// `a) `, `12. `), or 0.
fn item_marker(line: &str) -> usize {
    for m in ["- ", "* ", "• "] {
        if line.starts_with(m) {
            return m.chars().count();
        }
    }
    let head: String = line
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let rest = &line[head.len()..];
    let short_letter = head.len() == 1 && head.chars().all(|c| c.is_ascii_lowercase());
    let number = !head.is_empty() && head.len() <= 3 && head.chars().all(|c| c.is_ascii_digit());
    if (short_letter && rest.starts_with(") ")) || (number && rest.starts_with(". ")) {
        return head.len() + 2;
    }
    0
}

/// Words laid out greedily in lines of at most `width` characters, the
/// first line after `first`, the others after `rest`; each line ends in a
/// newline.
fn fill<'a>(
    words: impl Iterator<Item = &'a str>,
    first: &str,
    rest: &str,
    width: usize,
    out: &mut String,
) {
    let mut line = first.to_string();
    let mut len = first.chars().count();
    let mut empty = true;
    for w in words {
        let wl = w.chars().count();
        if !empty && len + 1 + wl > width {
            out.push_str(&line);
            out.push('\n');
            line = rest.to_string();
            len = rest.chars().count();
            empty = true;
        }
        if !empty {
            line.push(' ');
            len += 1;
        }
        line.push_str(w);
        len += wl;
        empty = false;
    }
    if !empty {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The widest line of `text`, in characters (what a terminal shows, for
/// the scripts in use here: no double-width characters).
pub fn max_line_width(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// The cells of one row for [`write_columns`], reusing their buffers from
/// row to row.
#[derive(Debug, Default)]
pub struct Row {
    cells: Vec<String>,
    len: usize,
}

impl Row {
    /// The next cell, empty, to write into.
    pub fn cell(&mut self) -> &mut String {
        if self.len == self.cells.len() {
            self.cells.push(String::new());
        }
        let c = &mut self.cells[self.len];
        c.clear();
        self.len += 1;
        c
    }

    /// A cell holding `s`.
    pub fn push(&mut self, s: &str) {
        self.cell().push_str(s);
    }

    /// The cells written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no cell is written yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Cell `i`, one of those written so far, to add to.
    pub fn get(&mut self, i: usize) -> &mut String {
        &mut self.cells[..self.len][i]
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn cells(&self) -> &[String] {
        &self.cells[..self.len]
    }
}

/// Characters in a cell (its width in a column).
fn width_of(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// [`columns`] written to `w` without holding the rows: `fill(i, row)`
/// writes the cells of row `i`; it is called twice per row, once to
/// measure the columns and once to write. `between(i, w)` may write extra
/// lines before row `i` (and, with `i == nrows`, after the last row) that
/// take no part in the alignment.
pub fn write_columns<W: fmt::Write + ?Sized>(
    w: &mut W,
    nrows: usize,
    mut fill: impl FnMut(usize, &mut Row),
    mut between: impl FnMut(usize, &mut W) -> fmt::Result,
) -> fmt::Result {
    let mut row = Row::default();
    let mut width: Vec<usize> = Vec::new();
    for i in 0..nrows {
        row.clear();
        fill(i, &mut row);
        if width.len() < row.len {
            width.resize(row.len, 0);
        }
        for (c, cell) in row.cells().iter().enumerate() {
            width[c] = width[c].max(width_of(cell));
        }
    }
    let mut line = String::new();
    for i in 0..nrows {
        between(i, w)?;
        row.clear();
        fill(i, &mut row);
        line.clear();
        let cells = row.cells();
        for (c, cell) in cells.iter().enumerate() {
            line.push_str(cell);
            if c + 1 < cells.len() {
                let pad = width[c] - width_of(cell) + 2;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        w.write_str(line.trim_end())?;
        w.write_char('\n')?;
    }
    between(nrows, w)
}

/// A byte count in binary units, three significant figures.
pub fn bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else if v >= 100.0 {
        format!("{v:.0} {}", UNITS[u])
    } else if v >= 10.0 {
        format!("{v:.1} {}", UNITS[u])
    } else {
        format!("{v:.2} {}", UNITS[u])
    }
}

/// A file or folder name as printable text that keeps distinct names
/// distinct: bytes that are not UTF-8 print as `\xNN`, control characters
/// as `\xNN` (`\u{NNNN}` beyond ASCII), and a backslash as `\\`, so the
/// mapping is one-to-one.
pub fn escape_name(name: &[u8]) -> String {
    let mut out = String::with_capacity(name.len());
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                c if c.is_control() && c.is_ascii() => {
                    out.push_str(&format!("\\x{:02x}", c as u32));
                }
                c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_in_binary_units() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1024), "1.00 KiB");
        assert_eq!(bytes(15 * 1024 + 512), "15.5 KiB");
        assert_eq!(bytes(169 * 1024 * 1024), "169 MiB");
        assert_eq!(bytes(3 << 40), "3072 GiB");
    }

    #[test]
    fn wrap_reflows_paragraphs_and_keeps_indented_lines() {
        let text =
            "one two three\nfour five six\n\n  k  0 1 2\n  A  X . X\n- item one two\n  three\n";
        assert_eq!(
            wrap(text, 14),
            "one two three\nfour five six\n\n  k  0 1 2\n  A  X . X\n- item one two\n  three\n"
        );
        assert_eq!(
            wrap(text, 9),
            "one two\nthree\nfour five\nsix\n\n  k  0 1\n  2\n  A  X .\n  X\n- item\n  one two\n  three\n"
        );
        // Lines joined when wider, a colon ends a paragraph, no final
        // newline is added.
        assert_eq!(wrap("a b\nc d:\ne f", 80), "a b c d:\ne f");
        // A long indented line is broken under its own indent; a long word
        // stays whole.
        assert_eq!(
            wrap("  a) aaa bbb ccc\nxxxxxxxxxxxx", 10),
            "  a) aaa\n     bbb\n     ccc\nxxxxxxxxxxxx"
        );
        assert_eq!(max_line_width(&wrap("µµµ µµµ µµµ", 7)), 7);
    }

    #[test]
    fn columns_align_by_characters() {
        use std::fmt::Write;
        let rows = vec![
            vec!["µs".to_string(), "x".into()],
            vec!["abcd".to_string(), "y".into()],
        ];
        assert_eq!(columns(&rows), "µs    x\nabcd  y\n");
        let mut out = String::new();
        write_columns(
            &mut out,
            2,
            |i, row| rows[i].iter().for_each(|c| row.push(c)),
            |i, w| match i {
                1 => w.write_str("⋮\n"),
                _ => Ok(()),
            },
        )
        .unwrap();
        assert_eq!(out, "µs    x\n⋮\nabcd  y\n");
    }

    #[test]
    fn escaped_names_stay_distinct_and_printable() {
        assert_eq!(escape_name(b"alice"), "alice");
        assert_eq!(escape_name("zoë".as_bytes()), "zoë");
        assert_eq!(escape_name(b"a\xffb"), "a\\xffb");
        assert_eq!(escape_name(b"a\\xffb"), "a\\\\xffb");
        assert_eq!(escape_name(b"a\nb"), "a\\x0ab");
        assert_ne!(escape_name(b"\xfe"), escape_name(b"\xff"));
    }
}

/// Why a line could not be split into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordsError {
    /// A quote (the character) is opened and never closed.
    Unclosed(char),
    /// A line break outside quotes.
    LineBreak,
}

/// A command line's words as a shell splits them, without anything else a
/// shell does: blanks (space, tab) separate words, `'…'` or `"…"` keeps a
/// stretch together (the quotes removed, nothing inside them special).
///
/// ```
/// use course_content::text::{split_words, WordsError};
/// assert_eq!(split_words("a 'b c'd \"\"").unwrap(), ["a", "b cd", ""]);
/// assert_eq!(split_words("x 'y"), Err(WordsError::Unclosed('\'')));
/// ```
pub fn split_words(line: &str) -> Result<Vec<String>, WordsError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.get_or_insert_with(String::new).push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    word.get_or_insert_with(String::new);
                }
                ' ' | '\t' => words.extend(word.take()),
                '\n' | '\r' => return Err(WordsError::LineBreak),
                c => word.get_or_insert_with(String::new).push(c),
            },
        }
    }
    if let Some(q) = quote {
        return Err(WordsError::Unclosed(q));
    }
    words.extend(word);
    Ok(words)
}
