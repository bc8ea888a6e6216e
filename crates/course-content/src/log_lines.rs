//! What the two append-only logs (the flashcard log, [`super::flash_log`],
//! and the review log, [`super::review_log`]) share: one record a line of
//! fields separated by one space, a day and a Unix time first, comments
//! after `#`, and a last line without its `\n` not trusted (a write cut
//! short). Reading never fails; a line that is not a record becomes a
//! diagnostic naming its line and column.

use crate::flash::Date;
use course_engine::formats::diagnostic::Diagnostic;

/// A line's fields, each with its 1-based column (in characters).
pub type Fields<'l> = Vec<(u32, &'l str)>;

/// Splits a line (without its `\n`) into exactly `n` fields separated by
/// one space: `Ok(None)` for a blank line or a comment, an error naming
/// the expected fields (`layout`) otherwise.
pub fn fields<'l>(
    line: &'l str,
    n: usize,
    layout: &str,
) -> Result<Option<Fields<'l>>, (u32, String)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields: Fields<'l> = Vec::with_capacity(n);
    let mut col = 1u32;
    for f in line.split(' ') {
        fields.push((col, f));
        col = col.saturating_add(f.chars().count() as u32 + 1);
    }
    if fields.len() != n || fields.iter().any(|(_, f)| f.is_empty()) {
        return Err((
            1,
            format!(
                "expected {n} fields separated by one space ({layout}), found {}",
                line.split_whitespace().count()
            ),
        ));
    }
    Ok(Some(fields))
}

/// The day (`YYYY-MM-DD`) and Unix time in seconds of the first two fields.
pub fn day_and_time(fields: &[(u32, &str)]) -> Result<(Date, i64), (u32, String)> {
    let [(dc, day), (tc, time), ..] = fields else {
        return Err((1, "expected a day and a Unix time".to_string()));
    };
    let day = Date::parse(day).ok_or((*dc, format!("`{day}` is not a day YYYY-MM-DD")))?;
    let time = time
        .parse::<i64>()
        .map_err(|_| (*tc, format!("`{time}` is not a Unix time in seconds")))?;
    Ok((day, time))
}

/// What reading a log's lines found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read<T> {
    /// The records after the skipped lines, in order, each with its
    /// 1-based line.
    pub records: Vec<(usize, T)>,
    /// The lines that are not records, one diagnostic each.
    pub bad: Vec<Diagnostic>,
    /// Every line of the log (a last line without `\n` counts).
    pub lines: usize,
    /// Whether the log is empty or ends in `\n`.
    pub ends_in_newline: bool,
}

/// Reads a log's bytes (`origin` names it in diagnostics), parsing each
/// line after the first `skip` with `parse`. A line longer than
/// `max_line` bytes, a line that is not UTF-8, and a cut-short last line
/// are skipped with a diagnostic.
pub fn read<T>(
    bytes: &[u8],
    origin: &str,
    skip: usize,
    max_line: usize,
    parse: impl Fn(&str) -> Result<Option<T>, (u32, String)>,
) -> Read<T> {
    let mut out = Read {
        records: Vec::new(),
        bad: Vec::new(),
        lines: 0,
        ends_in_newline: bytes.is_empty() || bytes.ends_with(b"\n"),
    };
    if bytes.is_empty() {
        return out;
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    out.lines = body.split(|&b| b == b'\n').count();
    for (i, raw) in body.split(|&b| b == b'\n').enumerate().skip(skip) {
        let at = |column: u32, message: String| {
            Diagnostic::new(
                origin,
                u32::try_from(i + 1).unwrap_or(u32::MAX),
                column,
                message,
            )
        };
        let last_cut = i + 1 == out.lines && !out.ends_in_newline;
        // A `\r` before the `\n` does not count against the limit.
        if raw.strip_suffix(b"\r").unwrap_or(raw).len() > max_line {
            out.bad.push(at(
                1,
                format!("longer than {max_line} bytes; the line is skipped"),
            ));
            continue;
        }
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                let col = String::from_utf8_lossy(&raw[..e.valid_up_to()])
                    .chars()
                    .count()
                    + 1;
                out.bad.push(at(
                    u32::try_from(col).unwrap_or(u32::MAX),
                    "not UTF-8 text; the line is skipped".into(),
                ));
                continue;
            }
        };
        match parse(text) {
            Ok(Some(r)) if !last_cut => out.records.push((i + 1, r)),
            Ok(Some(_)) => out.bad.push(at(
                1,
                "the last line has no end of line (cut short?); it is skipped".into(),
            )),
            Ok(None) => {}
            Err((col, m)) if last_cut => out.bad.push(at(
                col,
                format!("{m} (the last line, cut short?); the line is skipped"),
            )),
            Err((col, m)) => out.bad.push(at(col, format!("{m}; the line is skipped"))),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(line: &str) -> Result<Option<String>, (u32, String)> {
        Ok(fields(line, 3, "day time word")?.map(|f| f[2].1.to_string()))
    }

    #[test]
    fn lines_are_read_skipped_and_located() {
        let log = b"# c\n2026-01-02 5 a\n2026-01-02 5\n\xffx\n2026-01-02 5 b";
        let r = read(log, "l", 0, 64, word);
        assert_eq!(r.records, vec![(2, "a".to_string())]);
        assert_eq!(r.lines, 5);
        assert!(!r.ends_in_newline);
        let bad: Vec<String> = r.bad.iter().map(|d| d.to_string()).collect();
        assert_eq!(bad.len(), 3, "{bad:?}");
        assert!(bad[0].starts_with("l:3:1: expected 3 fields"), "{bad:?}");
        assert!(bad[1].contains("not UTF-8"), "{bad:?}");
        assert!(bad[2].contains("cut short"), "{bad:?}");
        let skipped = read(log, "l", 2, 64, word);
        assert!(skipped.records.is_empty());
        let long = read(format!("{}\n", "x".repeat(70)).as_bytes(), "l", 0, 64, word);
        assert!(long.bad[0].message.starts_with("longer than 64 bytes"));
    }

    #[test]
    fn day_and_time_are_located() {
        let f = fields("2026-13-01 x y", 3, "d t w").unwrap().unwrap();
        assert_eq!(day_and_time(&f).unwrap_err().0, 1);
        let f = fields("2026-01-01 x y", 3, "d t w").unwrap().unwrap();
        assert_eq!(day_and_time(&f).unwrap_err().0, 12);
    }
}
