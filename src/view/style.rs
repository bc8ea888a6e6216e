//! How text reaches a terminal: prose wrapped to its width, and colour.
//!
//! Views write plain text. The views of the quiz and the flashcards take a
//! [`Style`] and mark right and wrong answers themselves; the shared
//! reports (drill `--check`, grading) are coloured afterwards by [`paint`],
//! which knows the few things worth colouring in them: `✓`/`✗`, the `-`
//! and `+` lines of a unified diff, and a reservation-table cell that holds
//! more operations than the resource's capacity. Colour codes are only
//! ever added when colour is on (`--color`, `NO_COLOR`), so text with
//! colour off is byte for byte what the views wrote.

use course_content::text;

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const REVERSE_RED: &str = "\x1b[1;41m";
const RESET: &str = "\x1b[0m";

/// The width prose is wrapped to when nothing else is known.
pub const DEFAULT_WIDTH: usize = 80;

/// Colour on or off, and the columns prose may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
    pub width: usize,
}

impl Default for Style {
    /// No colour, 80 columns: what a pipe, a file or a test gets.
    fn default() -> Style {
        Style {
            color: false,
            width: DEFAULT_WIDTH,
        }
    }
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.color {
            format!("{code}{s}{RESET}")
        } else {
            s.to_string()
        }
    }

    /// A right answer, a good rating.
    pub fn good(&self, s: &str) -> String {
        self.paint(GREEN, s)
    }

    /// A wrong answer, a card to see again.
    pub fn bad(&self, s: &str) -> String {
        self.paint(RED, s)
    }

    /// Partly right, hard, unanswered.
    pub fn warn(&self, s: &str) -> String {
        self.paint(YELLOW, s)
    }

    /// Prose reflowed to the width ([`text::wrap`]).
    pub fn wrap(&self, s: &str) -> String {
        text::wrap(s, self.width)
    }
}

/// A report with colour added: `✓` green and `✗` red, a unified diff's
/// removed lines red and added lines green, and over-capacity cells of a
/// reservation table (Definition 23.1.3) on red.
pub fn paint(report: &str) -> String {
    let mut out = String::with_capacity(report.len() + 64);
    let mut in_diff = false;
    let mut table: Option<Table> = None;
    for line in report.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let nl = if body.len() < line.len() { "\n" } else { "" };
        let t = body.trim_start();
        if t.starts_with("--- ") || t.starts_with("+++ ") {
            in_diff = true;
        } else if in_diff && !(t.starts_with("@@") || body.starts_with([' ', '-', '+'])) {
            in_diff = false;
        }
        if in_diff {
            let indent = &body[..body.len() - t.len()];
            let code = if t.starts_with("@@") {
                Some(CYAN)
            } else if t.starts_with('-') {
                Some(RED)
            } else if t.starts_with('+') {
                Some(GREEN)
            } else {
                None
            };
            match code {
                Some(c) => out.push_str(&format!("{indent}{c}{t}{RESET}{nl}")),
                None => out.push_str(line),
            }
            continue;
        }
        if let Some(tb) = Table::header(body) {
            table = Some(tb);
            out.push_str(&marks(line));
            continue;
        }
        match &table {
            Some(tb) if !t.is_empty() => {
                out.push_str(&tb.row(body));
                out.push_str(nl);
            }
            _ => {
                table = None;
                out.push_str(&marks(line));
            }
        }
    }
    out
}

fn marks(s: &str) -> String {
    s.replace('✓', &format!("{GREEN}✓{RESET}"))
        .replace('✗', &format!("{RED}✗{RESET}"))
}

/// The columns of a reservation table as `view::report` lays it out: a
/// header `cycle  issue (2)  alu (2)  …  placed` (or `row` for a modulo
/// table), cells aligned under it.
struct Table {
    /// (first character, capacity, counts holders rather than a number).
    columns: Vec<(usize, usize, bool)>,
    /// Where the `placed` column starts.
    end: usize,
}

impl Table {
    fn header(line: &str) -> Option<Table> {
        if !(line.starts_with("cycle  ") || line.starts_with("row  ")) || !line.ends_with("placed")
        {
            return None;
        }
        let chars: Vec<char> = line.chars().collect();
        let mut columns = Vec::new();
        let mut i = 0;
        let mut end = None;
        while i < chars.len() {
            // A column starts after two blanks (or at 0).
            let starts = i == 0 || (i >= 2 && chars[i - 1] == ' ' && chars[i - 2] == ' ');
            if starts && chars[i] != ' ' {
                let rest: String = chars[i..].iter().collect();
                let name: String = match rest.find("  ") {
                    Some(k) => rest[..k].to_string(),
                    None => rest.clone(),
                };
                if name == "placed" {
                    end = Some(i);
                    break;
                }
                if let Some(cap) = name
                    .strip_suffix(')')
                    .and_then(|n| n.rsplit_once(" ("))
                    .and_then(|(_, c)| c.parse::<usize>().ok())
                {
                    columns.push((i, cap, !name.starts_with("issue (")));
                }
                i += name.chars().count();
                continue;
            }
            i += 1;
        }
        (!columns.is_empty()).then(|| Table {
            columns,
            end: end.unwrap_or(chars.len()),
        })
    }

    /// A row with its over-capacity cells marked.
    fn row(&self, line: &str) -> String {
        let chars: Vec<char> = line.chars().collect();
        if !chars.first().is_some_and(char::is_ascii_digit) || chars.len() < self.end {
            return marks(line);
        }
        let mut out = String::new();
        let mut at = 0;
        for (k, &(start, cap, holders)) in self.columns.iter().enumerate() {
            let stop = self.columns.get(k + 1).map_or(self.end, |c| c.0);
            let cell: String = chars[start..stop].iter().collect();
            let value = cell.trim_end();
            let over = value.ends_with(crate::view::report::OVER);
            let counted = value.trim_end_matches(crate::view::report::OVER);
            let used = if holders {
                if counted == "." {
                    0
                } else {
                    counted.split(',').count()
                }
            } else {
                counted.parse().unwrap_or(0)
            };
            out.extend(&chars[at..start]);
            if over || used > cap {
                out.push_str(&format!(
                    "{REVERSE_RED}{value}{RESET}{}",
                    &cell[value.len()..]
                ));
            } else {
                out.push_str(&cell);
            }
            at = stop;
        }
        out.extend(&chars[at..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_adds_codes_only_when_on() {
        let off = Style::default();
        assert_eq!(off.good("Right."), "Right.");
        let on = Style { color: true, ..off };
        assert_eq!(on.bad("Wrong."), "\x1b[31mWrong.\x1b[0m");
    }

    #[test]
    fn diffs_marks_and_over_capacity_cells() {
        let report = "✗ i at 3\n\n--- yours\n+++ reference\n@@ -1 +1 @@\n a 0\n-i 3\n+i 4\n\nTable:\n\
cycle  issue (2)  alu (2)  mul (1)  placed\n\
3      3          .        b,i      b (mul), i (mul)\n\
4      1          a        .        a (add)\n";
        let p = paint(report);
        assert!(p.contains("\x1b[31m✗\x1b[0m"));
        assert!(p.contains("\x1b[31m-i 3\x1b[0m\n"));
        assert!(p.contains("\x1b[32m+i 4\x1b[0m\n"));
        assert!(p.contains(" a 0\n"));
        assert!(p.contains(
            "3      \x1b[1;41m3\x1b[0m          .        \x1b[1;41mb,i\x1b[0m      b (mul)"
        ));
        assert!(p.contains("4      1          a        .        a (add)\n"));
        // Without the codes it is the same text.
        let plain = p
            .replace("\x1b[31m", "")
            .replace("\x1b[32m", "")
            .replace("\x1b[36m", "")
            .replace("\x1b[1;41m", "")
            .replace("\x1b[0m", "");
        assert_eq!(plain, report);
    }
}
