//! Plain-text layout helpers shared by every view.

use std::fmt;

/// Lays out rows as left-aligned columns separated by two spaces, trailing
/// spaces trimmed. Widths count characters, not bytes.
pub fn columns(rows: &[Vec<String>]) -> String {
    let ncol = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut width = vec![0usize; ncol];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            width[i] = width[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < row.len() {
                let pad = width[i] - cell.chars().count() + 2;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
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
}
