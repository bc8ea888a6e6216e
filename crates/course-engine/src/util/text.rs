//! Plain-text layout the engine's own `Display` forms use (the hazard
//! automaton's transition table). The rest of the course's text helpers
//! (reflowing, names, command-line words) live in `course-content`.

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
