//! YAML with positions: the one place the crate reads YAML ([`from_str`]),
//! serde_yaml errors at their line and column, and an index of list items
//! so semantic mistakes can be reported where they are.
//!
//! Before the parser sees a file, [`check_depth`] measures its nesting in
//! one linear pass and refuses anything deeper than [`MAX_DEPTH`]: the
//! parser's time grows with the square of the depth, so `[[[[…` forty
//! thousand deep would otherwise take seconds, and deeper minutes.

use serde::de::DeserializeOwned;

use crate::formats::diagnostic::{Diagnostic, Location};

/// Deserializes `text`; a syntax or type error becomes a [`Diagnostic`] at
/// its line and column in `origin`.
///
/// ```
/// use course_engine::formats::yaml;
/// let n: u32 = yaml::from_str("7\n", "n.yaml").unwrap();
/// assert_eq!(n, 7);
/// let e = yaml::from_str::<u32>("[1\n", "n.yaml").unwrap_err();
/// assert!(e.to_string().starts_with("n.yaml:"), "{e}");
/// ```
pub fn from_str<T: DeserializeOwned>(text: &str, origin: &str) -> Result<T, Diagnostic> {
    check_depth(text, origin)?;
    serde_yaml::from_str(text).map_err(|e| yaml_error(&e, origin))
}

/// The deepest nesting a YAML file may have: flow collections (`[`, `{`)
/// and block levels (indentation, `- ` entries) counted together. The
/// course's own files need fewer than ten.
pub const MAX_DEPTH: usize = 64;

/// Refuses `text` when it nests deeper than [`MAX_DEPTH`], at the line and
/// column of the first bracket, entry or indented line past the limit. One
/// pass over the text, so its time is linear whatever the depth. The count
/// is a close estimate of the parser's own: quoted scalars, comments and
/// block scalars (`|`, `>`) are skipped, and brackets count only where a
/// flow collection can start.
///
/// ```
/// use course_engine::formats::yaml;
/// assert!(yaml::check_depth("a: [[1, 2], {b: [3]}]\n", "f.yaml").is_ok());
/// let deep = "[".repeat(40_000);
/// let e = yaml::check_depth(&deep, "f.yaml").unwrap_err();
/// assert_eq!(e.to_string(), "f.yaml:1:64: nested deeper than 64 levels; refused before parsing");
/// ```
pub fn check_depth(text: &str, origin: &str) -> Result<(), Diagnostic> {
    let mut scan = DepthScan::default();
    for (n, l) in text.lines().enumerate() {
        if let Err(byte) = scan.line(l.as_bytes()) {
            return Err(Diagnostic::new(
                origin,
                n as u32 + 1,
                l[..byte].chars().count() as u32 + 1,
                format!("nested deeper than {MAX_DEPTH} levels; refused before parsing"),
            ));
        }
    }
    Ok(())
}

/// The state of [`check_depth`]'s pass: open block levels by column, the
/// flow depth, an open quoted scalar (which may span lines), and the
/// indentation under which the lines of a block scalar are text. Each scan
/// step returns `Err(byte)` at a bracket, entry or indented line past
/// [`MAX_DEPTH`].
#[derive(Default)]
struct DepthScan {
    blocks: Vec<usize>,
    flow: usize,
    quote: Option<u8>,
    literal: Option<usize>,
    /// The current line's indentation.
    indent: usize,
    /// At a place where a node may start (the line's start, after `- `,
    /// `? ` or `: `), in block context.
    node_start: bool,
    /// In flow context: the previous character lets a quoted scalar start.
    token_start: bool,
}

impl DepthScan {
    /// Scans one line, byte by byte after [`DepthScan::line_start`].
    fn line(&mut self, b: &[u8]) -> Result<(), usize> {
        let Some(mut i) = self.line_start(b)? else {
            return Ok(());
        };
        while i < b.len() {
            let next = if let Some(q) = self.quote {
                Some(self.quoted(b, i, q))
            } else if self.flow > 0 {
                self.flow_byte(b, i)?
            } else {
                self.block_byte(b, i)?
            };
            match next {
                Some(n) => i = n,
                None => break,
            }
        }
        Ok(())
    }

    /// Where the scan of a line starts: `None` for a line of block-scalar
    /// text or a blank line in block context; in block context, past the
    /// indentation, which closes deeper block levels and may open one.
    fn line_start(&mut self, b: &[u8]) -> Result<Option<usize>, usize> {
        let indent = b.iter().take_while(|&&c| c == b' ').count();
        let blank = indent == b.len() || b[indent] == b'#';
        if let Some(parent) = self.literal {
            if blank || indent > parent {
                return Ok(None);
            }
            self.literal = None;
        }
        self.indent = indent;
        self.node_start = false;
        self.token_start = true;
        if self.quote.is_some() || self.flow > 0 {
            return Ok(Some(0));
        }
        if blank {
            return Ok(None);
        }
        while self.blocks.last().is_some_and(|&c| c > indent) {
            self.blocks.pop();
        }
        if self.blocks.last() != Some(&indent) {
            self.blocks.push(indent);
            if self.blocks.len() > MAX_DEPTH {
                return Err(indent);
            }
        }
        self.node_start = true;
        Ok(Some(indent))
    }

    /// Byte `i` inside a scalar quoted by `q`: an escape or a doubled `'`
    /// is skipped, the closing quote ends it. Returns the next byte.
    #[inline]
    fn quoted(&mut self, b: &[u8], mut i: usize, q: u8) -> usize {
        match b[i] {
            b'\\' if q == b'"' => i += 1,
            b'\'' if q == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 1,
            c if c == q => self.quote = None,
            _ => {}
        }
        self.token_start = false;
        i + 1
    }

    /// Byte `i` in flow context: brackets open and close, a quote may start
    /// a scalar, a comment ends the line (`None`).
    #[inline]
    fn flow_byte(&mut self, b: &[u8], i: usize) -> Result<Option<usize>, usize> {
        let c = b[i];
        match c {
            b'[' | b'{' => {
                self.flow += 1;
                if self.blocks.len() + self.flow > MAX_DEPTH {
                    return Err(i);
                }
            }
            b']' | b'}' => self.flow -= 1,
            b'"' | b'\'' if self.token_start => self.quote = Some(c),
            b'#' if spaced(b, i) => return Ok(None),
            _ => {}
        }
        self.token_start = matches!(c, b'[' | b'{' | b',' | b':' | b' ' | b'\t');
        Ok(Some(i + 1))
    }

    /// Byte `i` in block context: an entry (`- `, `? `) opens a level, a
    /// bracket a flow collection, a quote a scalar; a block scalar (`|`,
    /// `>`) or a comment ends the line (`None`).
    #[inline]
    fn block_byte(&mut self, b: &[u8], mut i: usize) -> Result<Option<usize>, usize> {
        let c = b[i];
        let ends_indicator = matches!(b.get(i + 1), None | Some(b' ' | b'\t'));
        match c {
            b' ' | b'\t' => {}
            b'#' if spaced(b, i) => return Ok(None),
            b'-' | b'?' if self.node_start && ends_indicator => {
                self.blocks.push(i + 2);
                if self.blocks.len() > MAX_DEPTH {
                    return Err(i);
                }
            }
            b'[' | b'{' if self.node_start => {
                self.flow = 1;
                self.node_start = false;
                if self.blocks.len() + self.flow > MAX_DEPTH {
                    return Err(i);
                }
            }
            b'"' | b'\'' if self.node_start => {
                self.quote = Some(c);
                self.node_start = false;
            }
            b'|' | b'>' if self.node_start => {
                self.literal = Some(self.indent);
                return Ok(None);
            }
            b'&' | b'!' if self.node_start => {
                // An anchor or a tag: the node follows it.
                while i + 1 < b.len() && !matches!(b[i + 1], b' ' | b'\t') {
                    i += 1;
                }
            }
            b':' if ends_indicator => self.node_start = true,
            _ => self.node_start = false,
        }
        Ok(Some(i + 1))
    }
}

/// Whether byte `i` starts the line or follows a space or tab (where `#`
/// starts a comment).
#[inline]
fn spaced(b: &[u8], i: usize) -> bool {
    i == 0 || matches!(b[i - 1], b' ' | b'\t')
}

/// Finds the lines of list items and their keys in block-style YAML, so
/// that semantic mistakes can be reported at `file:line:col` (serde's
/// values carry no positions).
pub struct LineIndex<'t> {
    origin: String,
    lines: Vec<&'t str>,
    /// Per item of the top-level list under `key`: (first line index, end).
    items: Vec<(usize, usize)>,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

impl<'t> LineIndex<'t> {
    /// Indexes the items of the list under the top-level `list_key:`.
    pub fn new(text: &'t str, origin: &str, list_key: &str) -> LineIndex<'t> {
        let lines: Vec<&str> = text.lines().collect();
        let mut items = Vec::new();
        let head = format!("{list_key}:");
        if let Some(start) = lines
            .iter()
            .position(|l| indent(l) == 0 && l.trim_end().starts_with(&head))
        {
            let mut item_indent = None;
            let mut i = start + 1;
            while i < lines.len() {
                let l = lines[i];
                if is_blank(l) {
                    i += 1;
                    continue;
                }
                let ind = indent(l);
                if ind == 0 && !l.starts_with('-') {
                    break;
                }
                let dash = l.trim_start().starts_with('-');
                match item_indent {
                    None if dash => item_indent = Some(ind),
                    _ => {}
                }
                if dash && Some(ind) == item_indent {
                    if let Some(last) = items.last_mut() {
                        let (_, end): &mut (usize, usize) = last;
                        *end = i;
                    }
                    items.push((i, lines.len()));
                } else if item_indent.is_some_and(|ii| ind < ii) {
                    break;
                }
                i += 1;
            }
            if let Some(last) = items.last_mut() {
                last.1 = last.1.min(i);
            }
        }
        LineIndex {
            origin: origin.to_string(),
            lines,
            items,
        }
    }

    fn loc(&self, line: usize, column: usize) -> Location {
        Location {
            file: self.origin.clone(),
            line: line as u32 + 1,
            column: column as u32,
        }
    }

    /// The location of item `i` (its dash), or the file start.
    pub fn item(&self, i: usize) -> Location {
        match self.items.get(i) {
            Some(&(l, _)) => self.loc(l, indent(self.lines[l]) + 1),
            None => self.loc(0, 1),
        }
    }

    /// The location of `key:` inside item `i`, else the item.
    pub fn field(&self, i: usize, key: &str) -> Location {
        if let Some(&(start, end)) = self.items.get(i) {
            let pat = format!("{key}:");
            for l in start..end.min(self.lines.len()) {
                let line = self.lines[l];
                let t = line.trim_start();
                let t2 = t.strip_prefix('-').map_or(t, str::trim_start);
                if t2.starts_with(&pat) {
                    return self.loc(l, line.len() - t2.len() + 1);
                }
            }
        }
        self.item(i)
    }

    /// The location of element `j` of the block list under `key:` in item
    /// `i` (`- x` lines), else the key.
    pub fn list_elem(&self, i: usize, key: &str, j: usize) -> Location {
        let at = self.field(i, key);
        if let Some(&(_, end)) = self.items.get(i) {
            let mut seen = 0;
            for l in at.line as usize..end.min(self.lines.len()) {
                let line = self.lines[l];
                let t = line.trim_start();
                if t.starts_with("- ") {
                    if seen == j {
                        return self.loc(l, indent(line) + 1);
                    }
                    seen += 1;
                } else if !is_blank(line) {
                    break;
                }
            }
        }
        at
    }
}

impl LineIndex<'_> {
    /// The location of the top-level `key:`, else the file start.
    pub fn top(&self, key: &str) -> Location {
        let pat = format!("{key}:");
        match self
            .lines
            .iter()
            .position(|l| indent(l) == 0 && l.starts_with(&pat))
        {
            Some(l) => self.loc(l, 1),
            None => self.loc(0, 1),
        }
    }

    /// The location of `key:` inside item `i`, written either in block
    /// style (a line of its own) or inside a flow mapping (`{ a: 1, key: 2
    /// }`); `None` when the item has no such key.
    fn find_key(&self, i: usize, key: &str) -> Option<(usize, usize)> {
        let &(start, end) = self.items.get(i)?;
        let pat = format!("{key}:");
        for l in start..end.min(self.lines.len()) {
            let line = self.lines[l];
            let mut from = 0;
            while let Some(k) = line[from..].find(&pat) {
                let at = from + k;
                let before = line[..at].trim_end_matches(' ').chars().next_back();
                if matches!(before, None | Some('{' | ',' | '-')) {
                    return Some((l, line[..at].chars().count() + 1));
                }
                from = at + pat.len();
            }
        }
        None
    }

    /// The location of `key:` inside item `i` in block or flow style, else
    /// the item, else the top-level `list` key (a flow-style list has no
    /// indexed items).
    pub fn key(&self, list: &str, i: usize, key: &str) -> Location {
        match self.find_key(i, key) {
            Some((l, c)) => self.loc(l, c),
            None if i < self.items.len() => self.item(i),
            None => self.top(list),
        }
    }

    /// The location of element `j` of the sequence under `key:` in item `i`,
    /// written as a block list (`- x` lines) or a flow list (`[x, y]`), else
    /// the key.
    pub fn elem(&self, list: &str, i: usize, key: &str, j: usize) -> Location {
        let Some((l, c)) = self.find_key(i, key) else {
            return self.key(list, i, key);
        };
        let end = self.items.get(i).map_or(self.lines.len(), |it| it.1);
        let end = end.min(self.lines.len());
        // The value starts after `key:`, on that line or a later one.
        let line = self.lines[l];
        let byte = line
            .char_indices()
            .nth(c - 1)
            .map_or(line.len(), |(b, _)| b);
        let mut at = (l, byte + key.len() + 1);
        while at.0 < end {
            let text = self.lines[at.0];
            let rest = text[at.1..].trim_start();
            if !rest.is_empty() && !rest.starts_with('#') {
                at.1 = text.len() - rest.len();
                break;
            }
            at = (at.0 + 1, 0);
        }
        if at.0 >= end || !self.lines[at.0][at.1..].starts_with('[') {
            return self.list_elem(i, key, j);
        }
        // Walk the flow sequence, across lines, counting top-level commas.
        let mut depth = 0usize;
        let mut seen = 0usize;
        let mut want_start = false;
        for n in at.0..end {
            let text = self.lines[n];
            let skip = if n == at.0 { at.1 } else { 0 };
            for (b, ch) in text.char_indices().skip_while(|&(b, _)| b < skip) {
                if want_start && !ch.is_whitespace() {
                    if seen == j {
                        return self.loc(n, text[..b].chars().count() + 1);
                    }
                    want_start = false;
                }
                match ch {
                    '[' | '{' => {
                        depth += 1;
                        if depth == 1 {
                            want_start = true;
                        }
                    }
                    ']' | '}' => {
                        if depth <= 1 {
                            return self.loc(l, c);
                        }
                        depth -= 1;
                    }
                    ',' if depth == 1 => {
                        seen += 1;
                        want_start = true;
                    }
                    _ => {}
                }
            }
        }
        self.loc(l, c)
    }
}

/// A serde_yaml error at its location.
pub fn yaml_error(e: &serde_yaml::Error, origin: &str) -> Diagnostic {
    let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
    let msg = e.to_string();
    // serde_yaml appends " at line L column C"; the location is in front.
    let msg = match msg.find(" at line ") {
        Some(k) => msg[..k].to_string(),
        None => msg,
    };
    Diagnostic::new(origin, line as u32, column as u32, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_error(text: &str) -> Option<(u32, u32)> {
        check_depth(text, "f.yaml")
            .err()
            .map(|d| (d.line, d.column))
    }

    #[test]
    fn deep_flow_and_block_nesting_are_refused_where_they_pass_the_limit() {
        assert_eq!(depth_error(&"[".repeat(300_000)), Some((1, 64)));
        let nested = format!("a: {}{}\n", "[".repeat(64), "]".repeat(64));
        assert_eq!(depth_error(&nested), Some((1, 67)));
        let ok = format!("a: {}{}\n", "[".repeat(62), "]".repeat(62));
        assert_eq!(depth_error(&ok), None);
        assert_eq!(depth_error(&"- ".repeat(100)), Some((1, 127)));
        let stairs: String = (0..100)
            .map(|k| format!("{}k{k}:\n", " ".repeat(k)))
            .collect();
        assert_eq!(depth_error(&stairs), Some((65, 65)));
        // Flow collections spanning lines keep their depth.
        let lines = format!("a:\n{}\n", "[\n".repeat(70));
        assert_eq!(depth_error(&lines), Some((65, 1)));
    }

    #[test]
    fn brackets_in_scalars_and_comments_do_not_count() {
        let b = "[".repeat(100);
        for text in [
            format!("a: \"{b}\"\n"),
            format!("a: '{b}'\n"),
            format!("a: 'it''s {b}'\n"),
            format!("a: \"x\\\"{b}\"\n"),
            format!("a: x{b}\n"),
            format!("a: 1 # {b}\n"),
            format!("# {b}\n"),
            format!("a: |\n  {b}\n  more {b}\nb: 2\n"),
            format!("a: >-\n  {b}\n\n  {b}\n"),
            format!("a: [\"{b}\", '{b}', x # {b}\n  ]\n"),
            format!("a: \"multi\n  line {b}\n  end\"\n"),
            format!("a: &anchor [1]\nb: !!str x{b}\n"),
        ] {
            assert_eq!(depth_error(&text), None, "{text}");
        }
    }

    #[test]
    fn from_str_refuses_before_parsing() {
        let e = from_str::<serde_yaml::Value>(&"[".repeat(40_000), "deep.yaml").unwrap_err();
        assert_eq!(
            e.to_string(),
            "deep.yaml:1:64: nested deeper than 64 levels; refused before parsing"
        );
    }
}
