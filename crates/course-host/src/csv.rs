//! CSV as gradebooks read and write it (RFC 4180): fields separated by
//! commas, quoted when they hold a comma, a quote or a line break, quotes
//! doubled inside quotes; CRLF or LF line ends, a BOM accepted. Read by
//! [`roster`](crate::roster) (rosters, `--merge`) and written by the
//! gradebook views of `course grade --format csv`; pure text in and out.
//!
//! Written cells that a spreadsheet would run as a formula (they start with
//! `=`, `+`, `-`, `@`, a tab or a carriage return) are neutralised with a
//! leading `'`, so a student's file or folder name cannot become one.

/// One field as written: neutralised, then quoted when needed.
pub fn field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// One record as a line (fields written with [`field`]), with its `\n`.
pub fn record<S: AsRef<str>>(fields: &[S]) -> String {
    let mut line = fields
        .iter()
        .map(|f| field(f.as_ref()))
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}

/// Reads every record; `origin` names the text in errors (with the line).
/// Blank lines are skipped.
pub fn parse(text: &str, origin: &str) -> Result<Vec<Vec<String>>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut line = 1usize;
    let mut start_line = 1usize;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cur.push('"');
                }
                '"' => quoted = false,
                c => {
                    if c == '\n' {
                        line += 1;
                    }
                    cur.push(c);
                }
            }
            continue;
        }
        match c {
            '"' if cur.is_empty() => {
                quoted = true;
                any = true;
            }
            ',' => {
                record.push(std::mem::take(&mut cur));
                any = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                if any || !cur.is_empty() {
                    record.push(std::mem::take(&mut cur));
                    records.push(std::mem::take(&mut record));
                }
                any = false;
                line += 1;
                start_line = line;
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err(format!(
            "{origin}:{start_line}: a quoted field is never closed"
        ));
    }
    if any || !cur.is_empty() {
        record.push(cur);
        records.push(record);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_formulas_neutralised() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        for bad in ["+1", "-1", "@SUM(A1)", "\tx"] {
            assert!(
                field(bad).trim_start_matches('"').starts_with('\''),
                "{bad}"
            );
        }
        assert_eq!(record(&["a", "b,c"]), "a,\"b,c\"\n");
    }

    #[test]
    fn records_round_trip() {
        let rows = vec![
            vec!["student".to_string(), "note".to_string()],
            vec!["ann".to_string(), "a, \"b\"\nc".to_string()],
            vec!["bob".to_string(), String::new()],
        ];
        let text: String = rows.iter().map(|r| record(r)).collect();
        assert_eq!(parse(&text, "t.csv").unwrap(), rows);
        let crlf = "\u{feff}a,b\r\n\r\n1,2\r\n";
        assert_eq!(
            parse(crlf, "t.csv").unwrap(),
            vec![vec!["a", "b"], vec!["1", "2"]]
        );
        assert!(
            parse("a,\"b\n", "t.csv")
                .unwrap_err()
                .starts_with("t.csv:1:")
        );
    }
}
