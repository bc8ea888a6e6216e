//! Plain-text layout helpers shared by every view.

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
    fn columns_align_by_characters() {
        let rows = vec![
            vec!["µs".to_string(), "x".into()],
            vec!["abcd".to_string(), "y".into()],
        ];
        assert_eq!(columns(&rows), "µs    x\nabcd  y\n");
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
