//! The flashcard review log (Lesson 23.1 §9): every rating `course flash`
//! takes, one line each, appended to a text file next to the state file
//! (`<state file>.log`, e.g. `flash-23.json.log`). The log is never
//! rewritten; the state is what replaying it through
//! [`crate::flash::schedule`] gives, so a rating that was shown
//! and taken is never lost, even when two sessions rate one card at once.
//! Where the file lives and how it is locked is the host's business
//! (`course_host::flash_state`).
//!
//! # Format (version 1)
//!
//! UTF-8 text, one record per line, ending in `\n`. A line starting with
//! `#` is a comment, and a blank line is ignored; the first line of a log
//! `course flash` creates is [`HEADER`]. A record has five fields, each
//! separated by one space:
//!
//! ```text
//! 2026-01-05 1767614400 two-bounds again wrong
//! ```
//!
//! 1. the review day, `YYYY-MM-DD`: the day the session took as today
//!    (`--today`, else the local date); scheduling counts from it;
//! 2. the time the rating was taken, in Unix seconds (UTC), for the record;
//! 3. the card id (letters, digits, `-`, `_`, as in the deck);
//! 4. the rating: `again`, `hard`, `good` or `easy`;
//! 5. `wrong` for `again`, `right` for the others.
//!
//! The state file counts the log lines already folded into it
//! (`"log_lines"`): reading a state replays only the lines after those, in
//! order. A line that is not a record (cut short by a full disk, a hand
//! edit) is reported as `file:line:column: ...` and skipped; the lines
//! after it still count.

use crate::flash::{Date, Rating, State, schedule};
use crate::log_lines;
use course_engine::formats::diagnostic::Diagnostic;

/// The first line of a new log: its format, for whoever opens the file.
pub const HEADER: &str =
    "# course flash review log, version 1: day unix-time card rating right|wrong";

/// One rating, as a log line holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logged {
    /// The day the review was made on (the session's today).
    pub day: Date,
    /// When the rating was taken, in Unix seconds.
    pub time: i64,
    pub card: String,
    pub rating: Rating,
}

/// `right` or `wrong`: whether the card was known (anything but `again`).
pub fn verdict(rating: Rating) -> &'static str {
    if rating == Rating::Again {
        "wrong"
    } else {
        "right"
    }
}

/// Whether `id` may appear in a log line (the deck's id characters).
fn is_card_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl Logged {
    /// The record's line, with its `\n`.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {}\n",
            self.day,
            self.time,
            self.card,
            self.rating.name(),
            verdict(self.rating)
        )
    }

    /// Reads one line (without its `\n`): `Ok(None)` for a comment or a
    /// blank line, `Err((column, message))` for anything else that is not a
    /// record.
    pub fn parse(line: &str) -> Result<Option<Logged>, (u32, String)> {
        let Some(fields) = log_lines::fields(line, 5, "day unix-time card rating right|wrong")?
        else {
            return Ok(None);
        };
        let (day, time) = log_lines::day_and_time(&fields)?;
        let (c, card) = fields[2];
        if !is_card_id(card) {
            return Err((c, format!("`{card}` is not a card id")));
        }
        let (c, rating) = fields[3];
        let rating = Rating::ALL
            .into_iter()
            .find(|r| r.name() == rating)
            .ok_or((
                c,
                format!("`{rating}` is not a rating (again, hard, good or easy)"),
            ))?;
        let (c, v) = fields[4];
        if v != verdict(rating) {
            return Err((
                c,
                format!(
                    "`{v}` does not go with `{}` (expected `{}`)",
                    rating.name(),
                    verdict(rating)
                ),
            ));
        }
        Ok(Some(Logged {
            day,
            time,
            card: card.to_string(),
            rating,
        }))
    }
}

/// What reading a log found past the lines a state already holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogRead {
    /// The records after the first `skip` lines, in order, each with its
    /// 1-based line.
    pub entries: Vec<(usize, Logged)>,
    /// The lines after those that are not records, one diagnostic each.
    pub bad: Vec<Diagnostic>,
    /// Every line of the log (a last line without `\n` counts).
    pub lines: usize,
    /// Whether the log is empty or ends in `\n` (an append may start at
    /// once; otherwise the cut-short last line must be ended first).
    pub ends_in_newline: bool,
}

/// Reads a log's bytes (`origin` names it in diagnostics), parsing only
/// the lines after the first `skip`. Never fails: what is not a record is
/// reported in [`LogRead::bad`].
pub fn read_log(bytes: &[u8], origin: &str, skip: usize) -> LogRead {
    let r = log_lines::read(bytes, origin, skip, usize::MAX, Logged::parse);
    LogRead {
        entries: r.records,
        bad: r.bad,
        lines: r.lines,
        ends_in_newline: r.ends_in_newline,
    }
}

/// Replays records onto a state, in order ([`schedule`] from each card's
/// state so far, on the record's day).
pub fn replay<'e>(state: &mut State, entries: impl IntoIterator<Item = &'e Logged>) {
    for e in entries {
        let next = schedule(state.cards.get(&e.card), e.rating, e.day);
        state.cards.insert(e.card.clone(), next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(card: &str, rating: Rating, day: &str) -> Logged {
        Logged {
            day: Date::parse(day).unwrap(),
            time: 1_767_225_600,
            card: card.into(),
            rating,
        }
    }

    #[test]
    fn lines_round_trip() {
        for r in Rating::ALL {
            let e = rec("two-bounds", r, "2026-01-01");
            let line = e.line();
            assert!(line.ends_with(if r == Rating::Again {
                "wrong\n"
            } else {
                "right\n"
            }));
            assert_eq!(Logged::parse(line.trim_end_matches('\n')), Ok(Some(e)));
        }
        assert_eq!(Logged::parse(HEADER), Ok(None));
        assert_eq!(Logged::parse(""), Ok(None));
    }

    #[test]
    fn bad_lines_are_located_and_skipped() {
        let text = format!(
            "{HEADER}\n{}2026-01-01 17 x good wrong\n2026-13-01 1 x good right\n\
             2026-01-01 1 x meh right\n2026-01-01 1 x\n2026-01-01 1 a\u{e9} good right\n{}2026-01-0",
            rec("a", Rating::Good, "2026-01-01").line(),
            rec("b", Rating::Easy, "2026-01-02").line(),
        );
        let bytes = text.into_bytes();
        let r = read_log(&bytes, "s.json.log", 0);
        assert_eq!(r.lines, 9);
        assert!(!r.ends_in_newline);
        assert_eq!(
            r.entries,
            vec![
                (2, rec("a", Rating::Good, "2026-01-01")),
                (8, rec("b", Rating::Easy, "2026-01-02"))
            ]
        );
        let shown: Vec<String> = r.bad.iter().map(|d| d.to_string()).collect();
        assert_eq!(shown.len(), 6, "{shown:#?}");
        assert!(shown[0].starts_with("s.json.log:3:22: `wrong` does not go with `good`"));
        assert!(shown[1].starts_with("s.json.log:4:1: `2026-13-01` is not a day"));
        assert!(shown[2].starts_with("s.json.log:5:16: `meh` is not a rating"));
        assert!(shown[3].starts_with("s.json.log:6:1: expected 5 fields"));
        assert!(shown[4].starts_with("s.json.log:7:14: `a\u{e9}` is not a card id"));
        assert!(
            shown[5].starts_with("s.json.log:9:1: expected 5 fields"),
            "{}",
            shown[5]
        );
        assert!(shown[5].contains("cut short"));
        // Skipping lines a state already holds: only the rest is read.
        let tail = read_log(&bytes, "s.json.log", 8);
        assert_eq!((tail.entries.len(), tail.bad.len(), tail.lines), (0, 1, 9));
        // Not UTF-8, at its column; an empty log.
        let r = read_log(b"2026-01-01 1 \xff good right\n", "l", 0);
        assert_eq!(
            r.bad[0].to_string(),
            "l:1:14: not UTF-8 text; the line is skipped"
        );
        assert_eq!(
            read_log(b"", "l", 0),
            LogRead {
                ends_in_newline: true,
                ..LogRead::default()
            }
        );
    }

    #[test]
    fn a_complete_record_without_its_newline_is_not_trusted() {
        let line = rec("a", Rating::Good, "2026-01-01").line();
        let r = read_log(line.trim_end().as_bytes(), "l", 0);
        assert!(r.entries.is_empty());
        assert!(r.bad[0].message.contains("no end of line"), "{:?}", r.bad);
    }

    #[test]
    fn replay_schedules_each_record_from_the_state_so_far() {
        let mut st = State::new("ch23");
        replay(
            &mut st,
            &[
                rec("a", Rating::Good, "2026-01-01"),
                rec("a", Rating::Good, "2026-01-03"),
                rec("b", Rating::Again, "2026-01-01"),
            ],
        );
        assert_eq!(
            (st.cards["a"].leitner_box, st.cards["a"].due.as_str()),
            (3, "2026-01-07")
        );
        assert_eq!(st.cards["a"].reviews, 2);
        assert_eq!((st.cards["b"].leitner_box, st.cards["b"].reviews), (1, 1));
    }
}
