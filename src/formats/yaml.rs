//! YAML with positions: serde_yaml errors at their line and column, and an
//! index of list items so semantic mistakes can be reported where they are.

use crate::formats::diagnostic::{Diagnostic, Location};

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
