//! The statements of an assembly file, as LLVM's assembler lexer finds
//! them: comments (`//` on both; `#` on x86-64, and `#` opening a statement
//! on AArch64; `/* … */` on both), statements separated by newlines or `;`,
//! labels (`name:`), directives (`.p2align 4`), and llvm-mca's region
//! markers (`# LLVM-MCA-BEGIN name`, `# LLVM-MCA-END`), which live in
//! comments. One pass over the text, no copy of it.

use super::Dialect;

/// What a scan finds, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item<'t> {
    /// An instruction statement (labels and comments removed).
    Statement(Statement<'t>),
    /// `LLVM-MCA-BEGIN name`: a region starts here (`name` may be empty).
    Begin(Marker<'t>),
    /// `LLVM-MCA-END name`.
    End(Marker<'t>),
    /// A label definition (`name:`): the name, line and column.
    Label(&'t str, u32, u32),
}

/// One instruction statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statement<'t> {
    /// 1-based line of the statement.
    pub line: u32,
    /// 1-based column (in characters) of its first character.
    pub column: u32,
    /// Its text, trimmed, without comment.
    pub text: &'t str,
    /// Byte offset of the text in the file (regions compare positions).
    pub offset: usize,
}

/// A region marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker<'t> {
    /// The region's name: the rest of the comment, trimmed.
    pub name: &'t str,
    /// 1-based line of the marker.
    pub line: u32,
    /// Byte offset of the comment in the file.
    pub offset: usize,
}

/// Scans `text` for statements and region markers.
pub fn scan<'t>(text: &'t str, dialect: Dialect) -> Vec<Item<'t>> {
    scan_with(text, dialect, true)
}

/// [`scan`], with region markers in AArch64 `//` comments seen or not
/// (LLVM 14's llvm-mca does not see them: its lexer keeps `//` comments
/// from the comment consumer).
pub fn scan_with<'t>(text: &'t str, dialect: Dialect, slash_markers: bool) -> Vec<Item<'t>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut line = 1u32;
    let mut line_start = 0usize;
    // The current statement's first byte, if it has begun.
    let mut start: Option<usize> = None;
    let mut i = 0usize;
    let mut in_quote = false;
    let mut cursor = Cursor::default();
    let flush = |out: &mut Vec<Item<'t>>,
                 cur: &mut Cursor,
                 s: Option<usize>,
                 end: usize,
                 line: u32,
                 ls: usize| {
        if let Some(s) = s {
            push_statement(out, cur, text, s, end, line, ls);
        }
    };
    while i < bytes.len() {
        let c = bytes[i];
        if in_quote {
            // An escaped character, but never the end of the line.
            if c == b'\\' && bytes.get(i + 1) != Some(&b'\n') {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_quote = false;
            }
            if c == b'\n' {
                in_quote = false;
                flush(&mut out, &mut cursor, start.take(), i, line, line_start);
                line += 1;
                line_start = i + 1;
            }
            i += 1;
            continue;
        }
        match c {
            b'\n' => {
                flush(&mut out, &mut cursor, start.take(), i, line, line_start);
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            b';' => {
                flush(&mut out, &mut cursor, start.take(), i, line, line_start);
                i += 1;
            }
            b'"' => {
                in_quote = true;
                start.get_or_insert(i);
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(bytes.len(), |k| i + 2 + k);
                comment(&mut out, &text[i + 2..end], line, i);
                // A block comment ends the line's statement only if it spans lines.
                for (k, &b) in bytes[i..end].iter().enumerate() {
                    if b == b'\n' {
                        flush(&mut out, &mut cursor, start.take(), i, line, line_start);
                        line += 1;
                        line_start = i + k + 1;
                    }
                }
                i = (end + 2).min(bytes.len());
            }
            _ if starts_line_comment(bytes, i, dialect, start.is_none()) => {
                let end = text[i..].find('\n').map_or(bytes.len(), |k| i + k);
                let body = text[i..end].trim_start_matches(['#', '/', '@']);
                if slash_markers || bytes[i] != b'/' {
                    comment(&mut out, body, line, i);
                }
                flush(&mut out, &mut cursor, start.take(), i, line, line_start);
                i = end;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => i += 1,
            _ => {
                start.get_or_insert(i);
                i += 1;
            }
        }
    }
    flush(&mut out, &mut cursor, start, bytes.len(), line, line_start);
    out
}

/// Whether a line comment starts at `i`: `//` everywhere (LLVM's lexer
/// takes it on every target); `#` on x86-64, and on AArch64 a `#` that
/// opens a statement (a preprocessor line marker).
fn starts_line_comment(bytes: &[u8], i: usize, dialect: Dialect, at_statement_start: bool) -> bool {
    let slashes = bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'/');
    match dialect {
        Dialect::X86 => slashes || bytes[i] == b'#',
        Dialect::AArch64 => slashes || (bytes[i] == b'#' && at_statement_start),
    }
}

/// A comment: a region marker when it is one.
fn comment<'t>(out: &mut Vec<Item<'t>>, body: &'t str, line: u32, offset: usize) {
    let b = body.trim_start_matches([' ', '\t']);
    if let Some(rest) = b.strip_prefix("LLVM-MCA-END") {
        out.push(Item::End(Marker {
            name: rest.trim(),
            line,
            offset,
        }));
    } else if let Some(rest) = b.strip_prefix("LLVM-MCA-BEGIN") {
        out.push(Item::Begin(Marker {
            name: rest.trim(),
            line,
            offset,
        }));
    }
}

/// The statement in `text[s..end]`, without its labels, if it is an
/// instruction (not a directive).
fn push_statement<'t>(
    out: &mut Vec<Item<'t>>,
    cur: &mut Cursor,
    text: &'t str,
    s: usize,
    end: usize,
    line: u32,
    line_start: usize,
) {
    let mut stmt = text[s..end].trim_end();
    let mut at = s;
    while let Some((name, rest)) = strip_label(stmt) {
        let skipped = stmt.len() - rest.len();
        let column = cur.column(text, line_start, at);
        out.push(Item::Label(name, line, column));
        at += skipped;
        stmt = rest;
    }
    if stmt.is_empty() || stmt.starts_with('.') {
        return;
    }
    let column = cur.column(text, line_start, at);
    out.push(Item::Statement(Statement {
        line,
        column,
        text: stmt,
        offset: at,
    }));
}

/// The column of the last place asked on a line, so that the columns of
/// many statements and labels of one line cost one pass over it.
#[derive(Default)]
struct Cursor {
    line_start: usize,
    at: usize,
    column: u32,
}

impl Cursor {
    /// The column (from 1) of byte `at` of the line starting at `line_start`.
    fn column(&mut self, text: &str, line_start: usize, at: usize) -> u32 {
        if self.line_start != line_start || at < self.at || self.column == 0 {
            *self = Cursor {
                line_start,
                at: line_start,
                column: 1,
            };
        }
        self.column += text[self.at..at].chars().count() as u32;
        self.at = at;
        self.column
    }
}

/// The leading label of `stmt` (`name:`, `"quoted name":`, `1:`) and the
/// rest, or None when it does not start with one.
fn strip_label(stmt: &str) -> Option<(&str, &str)> {
    let b = stmt.as_bytes();
    let end = if b.first() == Some(&b'"') {
        stmt[1..].find('"').map(|k| k + 2)?
    } else {
        b.iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'@')))
            .unwrap_or(b.len())
    };
    if end == 0 || b.get(end) != Some(&b':') {
        return None;
    }
    // `a::b` is not a label.
    if b.get(end + 1) == Some(&b':') {
        return None;
    }
    Some((&stmt[..end], stmt[end + 1..].trim_start()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stmts(text: &str, d: Dialect) -> Vec<(u32, u32, String)> {
        scan(text, d)
            .into_iter()
            .filter_map(|i| match i {
                Item::Statement(s) => Some((s.line, s.column, s.text.to_string())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn labels_directives_and_comments_are_not_statements() {
        let x = ".LBB0_2:  # %bb.3:\n\t.p2align 4, 0x90\n\taddq $32, %rax # in Loop: Header=BB0_2\n# %bb.4:\nl1: l2: jne .LBB0_2\n// x\n\tincq %rcx // y\n";
        assert_eq!(
            stmts(x, Dialect::X86),
            [
                (3, 2, "addq $32, %rax".to_string()),
                (5, 9, "jne .LBB0_2".to_string()),
                (7, 2, "incq %rcx".to_string())
            ]
        );
        let a =
            "// %bb.4:\n\tldr q1, [x0, x8] // load\n# 1 \"a.c\"\n\tmov x0, #16 ; add x1, x1, #1\n";
        assert_eq!(
            stmts(a, Dialect::AArch64),
            [
                (2, 2, "ldr q1, [x0, x8]".to_string()),
                (4, 2, "mov x0, #16".to_string()),
                (4, 16, "add x1, x1, #1".to_string())
            ]
        );
    }

    #[test]
    fn region_markers_are_found_in_comments() {
        let items = scan(
            "# LLVM-MCA-BEGIN dot\naddq %rax, %rbx\n# LLVM-MCA-END\n",
            Dialect::X86,
        );
        assert!(matches!(
            items[0],
            Item::Begin(Marker {
                name: "dot",
                line: 1,
                ..
            })
        ));
        assert!(matches!(
            items[2],
            Item::End(Marker {
                name: "",
                line: 3,
                ..
            })
        ));
        let items = scan("/* LLVM-MCA-BEGIN a */ add x0, x0, #1\n", Dialect::AArch64);
        assert!(matches!(items[0], Item::Begin(Marker { name: "a", .. })));
        assert!(matches!(
            items[1],
            Item::Statement(Statement { column: 24, .. })
        ));
    }

    #[test]
    fn quotes_hold_separators() {
        assert!(stmts(".ascii \"a;b#c\"\nnop\n", Dialect::X86) == [(2, 1, "nop".to_string())]);
    }
}
