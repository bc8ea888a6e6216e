//! The review log: one line for every drill answer checked, quiz answer
//! given and flashcard rated, as Anki's revlog keeps them, so that `course
//! progress` and `course practice` can say how each topic of Lesson 23.1
//! goes and what to practise next. The native log is a file next to the
//! flashcard state (the host appends to it, `course_host::review_log`);
//! the web page keeps the same lines in its local storage and exports and
//! imports them as such a file.
//!
//! # Format (version 1)
//!
//! UTF-8 text, one record per line ending in `\n`, at most [`MAX_LINE`]
//! bytes. A line starting with `#` is a comment ([`HEADER`] opens a new
//! log) and a blank line is ignored. A record has eight fields, each
//! separated by one space:
//!
//! ```text
//! 2026-01-05 1767614400 alice drill list-schedule:7 list-scheduling wrong order
//! 2026-01-05 1767614460 alice quiz mul-automaton-states hazard-automata right -
//! 2026-01-05 1767614520 alice flash two-bounds machine-model wrong again
//! ```
//!
//! 1. the day, `YYYY-MM-DD` (local): spacing counts whole days from it;
//! 2. the time, in Unix seconds (UTC);
//! 3. who: the user name or `--who` (letters, digits, `.`, `_`, `-`, `@`,
//!    `+`; at most [`MAX_WHO`] characters);
//! 4. the source: `drill`, `quiz` or `flash`;
//! 5. the item: `DRILL:SEED` for a drill (`hazard:events=div@4,mul@5` for
//!    issue attempts given as text), the question id, or the card id;
//! 6. the topic, one of [`Topic`]'s names (a name the reader does not know
//!    is kept and shown after the lesson's);
//! 7. `right` or `wrong`;
//! 8. the root-cause kind: for a drill the first mistake's
//!    [`MistakeKind`](crate::drill::MistakeKind) stable name
//!    (`latency`, `resource`, `order`, …); for a quiz answer the question's
//!    kind and its status (`set-partial`, `number-wrong`); for a card its
//!    rating (`again`, `hard`, `good`, `easy`); `-` for a right drill or
//!    quiz answer.
//!
//! A line that is not a record (cut short, edited by hand) is reported as
//! `file:line:column: …` and skipped; the others still count.

use serde::Serialize;

use crate::flash::Date;
use crate::log_lines;
use course_engine::formats::diagnostic::Diagnostic;

/// The first line of a new log.
pub const HEADER: &str =
    "# course review log, version 1: day unix-time who source item topic right|wrong kind";

/// The most bytes a record's line may have (its `\n` excluded).
pub const MAX_LINE: usize = 512;

/// The most characters of a `who`.
pub const MAX_WHO: usize = 64;

/// The topics of Lesson 23.1, in the order `course progress` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topic {
    /// Definitions 23.1.1–23.1.3, Algorithm 23.1.4.
    ReservationTables,
    /// Definition 23.1.5, Lemma 23.1.6.
    ForbiddenLatencies,
    /// Algorithm 23.1.7.
    HazardAutomata,
    /// Lesson 23.1 §3: top-down list scheduling.
    ListScheduling,
    /// ResMII, RecMII, MII.
    Mii,
    /// Modulo scheduling.
    Modulo,
    /// Definition 23.1.10.
    Rthroughput,
    /// Definitions 23.1.2, 23.1.8.
    MachineModel,
    /// Algorithm 23.1.11 and llvm-mca's views.
    LlvmMca,
}

impl Topic {
    /// Every topic, in listing order.
    pub const ALL: [Topic; 9] = [
        Topic::ReservationTables,
        Topic::ForbiddenLatencies,
        Topic::HazardAutomata,
        Topic::ListScheduling,
        Topic::Mii,
        Topic::Modulo,
        Topic::Rthroughput,
        Topic::MachineModel,
        Topic::LlvmMca,
    ];

    /// The name a log line and a tag write.
    pub fn name(self) -> &'static str {
        match self {
            Topic::ReservationTables => "reservation-tables",
            Topic::ForbiddenLatencies => "forbidden-latencies",
            Topic::HazardAutomata => "hazard-automata",
            Topic::ListScheduling => "list-scheduling",
            Topic::Mii => "mii",
            Topic::Modulo => "modulo",
            Topic::Rthroughput => "rthroughput",
            Topic::MachineModel => "machine-model",
            Topic::LlvmMca => "llvm-mca",
        }
    }

    /// How a person reads it.
    pub fn label(self) -> &'static str {
        match self {
            Topic::ReservationTables => "reservation tables",
            Topic::ForbiddenLatencies => "forbidden latencies",
            Topic::HazardAutomata => "hazard automata",
            Topic::ListScheduling => "list scheduling",
            Topic::Mii => "MII",
            Topic::Modulo => "modulo scheduling",
            Topic::Rthroughput => "RThroughput",
            Topic::MachineModel => "machine model",
            Topic::LlvmMca => "llvm-mca",
        }
    }

    pub fn from_name(name: &str) -> Option<Topic> {
        Topic::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The topic a drill practises.
    pub fn of_drill(d: crate::drill::Drill) -> Topic {
        use crate::drill::Drill;
        match d {
            Drill::ListSchedule => Topic::ListScheduling,
            Drill::Mii => Topic::Mii,
            Drill::Modulo => Topic::Modulo,
            Drill::Forbidden => Topic::ForbiddenLatencies,
            Drill::Hazard | Drill::Automaton => Topic::HazardAutomata,
            Drill::Rthroughput => Topic::Rthroughput,
        }
    }

    /// The topic of a question or card from its tags: the most specific
    /// topic among them (a drill's topic before `llvm-mca`, then
    /// `reservation-tables`, then `machine-model`); `machine-model` when no
    /// tag names a topic.
    pub fn of_tags(tags: &[String]) -> Topic {
        // The topics a drill practises, in listing order, are the most
        // specific.
        let drilled = |t: &Topic| {
            crate::drill::Drill::ALL
                .iter()
                .any(|&d| Topic::of_drill(d) == *t)
        };
        (Topic::ALL.into_iter().filter(drilled))
            .chain([Topic::LlvmMca, Topic::ReservationTables])
            .find(|t| tags.iter().any(|g| g == t.name()))
            .unwrap_or(Topic::MachineModel)
    }
}

/// Where a review was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Drill,
    Quiz,
    Flash,
}

impl Origin {
    pub const ALL: [Origin; 3] = [Origin::Drill, Origin::Quiz, Origin::Flash];

    pub fn name(self) -> &'static str {
        match self {
            Origin::Drill => "drill",
            Origin::Quiz => "quiz",
            Origin::Flash => "flash",
        }
    }
}

/// One review, as a log line holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Review {
    pub day: Date,
    /// Right, or the root-cause kind (`-` when right and there is none).
    pub kind: String,
    pub item: String,
    pub origin: Origin,
    pub right: bool,
    pub time: i64,
    /// The topic's name ([`Topic::name`], or one this version does not know).
    pub topic: String,
    pub who: String,
}

/// The kind of a marker line: the solution of the item was shown.
pub const SOLUTION_VIEWED: &str = "solution-viewed";
/// The prefix of a marker line's kind: `hints-2`, two hints were shown.
pub const HINTS_VIEWED: &str = "hints-";

impl Review {
    /// A marker, not an attempt: a solution or hints shown for the item
    /// (never right; left out of the tallies and the spacing).
    pub fn is_marker(&self) -> bool {
        self.kind == SOLUTION_VIEWED || self.hints().is_some()
    }

    /// The hints a `hints-N` marker records.
    pub fn hints(&self) -> Option<usize> {
        self.kind.strip_prefix(HINTS_VIEWED)?.parse().ok()
    }
}

/// The marker of a drill's solution shown (`course drill … --solution`).
pub fn solution_marker(item: &str, topic: Topic, who: &str, day: Date, time: i64) -> Review {
    marker(item, topic, SOLUTION_VIEWED, who, day, time)
}

/// The marker of `n` hints shown on a drill's problem.
pub fn hints_marker(item: &str, topic: Topic, n: usize, who: &str, day: Date, time: i64) -> Review {
    marker(item, topic, &format!("{HINTS_VIEWED}{n}"), who, day, time)
}

/// A marker line of `kind` for a drill's `item`: never right.
fn marker(item: &str, topic: Topic, kind: &str, who: &str, day: Date, time: i64) -> Review {
    Review::new(
        day,
        time,
        who,
        Origin::Drill,
        item,
        topic.name(),
        false,
        kind,
    )
}

/// Whether `s` may be an item, topic or kind field: no blank, no control
/// character, not empty.
fn is_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_graphic())
}

/// Whether `s` may be a `who`.
pub fn is_who(s: &str) -> bool {
    !s.is_empty()
        && s.chars().count() <= MAX_WHO
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+'))
}

/// A `who` from any text (a login name, a name typed on the web page):
/// characters a `who` may not have become `_`, cut to [`MAX_WHO`]; `me`
/// for an empty one.
pub fn clean_who(s: &str) -> String {
    let w: String = s
        .trim()
        .chars()
        .take(MAX_WHO)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if w.is_empty() { "me".into() } else { w }
}

/// A field made safe for a line: blanks and other characters a field may
/// not hold become `_`, cut to `max` bytes; `-` for an empty one.
fn clean_field(s: &str, max: usize) -> String {
    let mut w = String::new();
    for c in s.chars() {
        let c = if c.is_ascii_graphic() { c } else { '_' };
        if w.len() + c.len_utf8() > max {
            break;
        }
        w.push(c);
    }
    if w.is_empty() { "-".into() } else { w }
}

/// The item of a drill answer: `DRILL:SEED`.
pub fn drill_item(drill: crate::drill::Drill, seed: u64) -> String {
    format!("{}:{seed}", drill.name())
}

/// The item of a hazard drill on issue attempts given as text:
/// `hazard:events=div@4,mul@5`.
pub fn events_item(events: &str) -> String {
    let joined: Vec<&str> = events.split_whitespace().collect();
    clean_field(&format!("hazard:events={}", joined.join(",")), 200)
}

/// The seed of a drill item `DRILL:SEED` of `drill`, if it is one.
pub fn drill_seed(item: &str, drill: &str) -> Option<u64> {
    item.strip_prefix(drill)?.strip_prefix(':')?.parse().ok()
}

impl Review {
    /// A review with every field made fit for a line (see [`clean_who`];
    /// an item is cut to 200 bytes, a kind to 64).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        day: Date,
        time: i64,
        who: &str,
        origin: Origin,
        item: &str,
        topic: &str,
        right: bool,
        kind: &str,
    ) -> Review {
        Review {
            day,
            time,
            who: clean_who(who),
            origin,
            item: clean_field(item, 200),
            topic: clean_field(topic, 64),
            right,
            kind: clean_field(kind, 64),
        }
    }

    /// The record's line, with its `\n`.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {}\n",
            self.day,
            self.time,
            self.who,
            self.origin.name(),
            self.item,
            self.topic,
            if self.right { "right" } else { "wrong" },
            self.kind
        )
    }

    /// The topic, when it is one of the lesson's.
    pub fn lesson_topic(&self) -> Option<Topic> {
        Topic::from_name(&self.topic)
    }

    /// Reads one line (without its `\n`): `Ok(None)` for a comment or a
    /// blank line, `Err((column, message))` for anything else that is not
    /// a record. The reader ([`read_log`]) has already refused a line longer
    /// than [`MAX_LINE`].
    pub fn parse(line: &str) -> Result<Option<Review>, (u32, String)> {
        let Some(fields) = log_lines::fields(
            line,
            8,
            "day unix-time who source item topic right|wrong kind",
        )?
        else {
            return Ok(None);
        };
        let (day, time) = log_lines::day_and_time(&fields)?;
        let (c, who) = fields[2];
        if !is_who(who) {
            return Err((c, format!("`{who}` is not a user name")));
        }
        let (c, origin) = fields[3];
        let origin = Origin::ALL
            .into_iter()
            .find(|o| o.name() == origin)
            .ok_or((c, format!("`{origin}` is not drill, quiz or flash")))?;
        for &(c, f) in &fields[4..6] {
            if !is_word(f) {
                return Err((c, format!("`{f}` is not a word")));
            }
        }
        let (c, verdict) = fields[6];
        let right = match verdict {
            "right" => true,
            "wrong" => false,
            v => return Err((c, format!("`{v}` is neither right nor wrong"))),
        };
        let (c, kind) = fields[7];
        if !is_word(kind) {
            return Err((c, format!("`{kind}` is not a word")));
        }
        Ok(Some(Review {
            day,
            time,
            who: who.to_string(),
            origin,
            item: fields[4].1.to_string(),
            topic: fields[5].1.to_string(),
            right,
            kind: kind.to_string(),
        }))
    }
}

/// What reading a log found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogRead {
    /// The records in order.
    pub reviews: Vec<Review>,
    /// The lines that are not records, one diagnostic each.
    pub bad: Vec<Diagnostic>,
}

/// Reads a log's bytes (`origin` names it in diagnostics). Never fails:
/// what is not a record is reported in [`LogRead::bad`]; a last line
/// without its `\n` (a write cut short) is not trusted.
pub fn read_log(bytes: &[u8], origin: &str) -> LogRead {
    let r = log_lines::read(bytes, origin, 0, MAX_LINE, Review::parse);
    LogRead {
        reviews: r.records.into_iter().map(|(_, r)| r).collect(),
        bad: r.bad,
    }
}

/// The stable name of a drill mistake's kind (`latency`, `order`, …), as
/// its JSON writes it.
pub fn mistake_kind_name(kind: &crate::drill::MistakeKind) -> String {
    match serde_json::to_value(kind) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "wrong".into(),
    }
}

/// The review of a checked drill answer: right, or the first mistake's
/// kind.
pub fn drill_review(
    report: &crate::drill::Report,
    item: &str,
    topic: Topic,
    who: &str,
    day: Date,
    time: i64,
) -> Review {
    let right = report.correct();
    // A wrong answer without a listed mistake still names a cause.
    let kind = match report.mistakes().first() {
        _ if right => "-".to_string(),
        Some(m) => mistake_kind_name(&m.kind),
        None => "wrong".to_string(),
    };
    Review::new(
        day,
        time,
        who,
        Origin::Drill,
        item,
        topic.name(),
        right,
        &kind,
    )
}

/// The review of one graded quiz answer: right, or the question's kind and
/// status (`set-partial`).
pub fn quiz_review(
    o: &crate::quiz::Outcome,
    kind: crate::quiz::Kind,
    who: &str,
    day: Date,
    time: i64,
) -> Review {
    use crate::quiz::Status;
    let right = o.status == Status::Right;
    let cause = if right {
        "-".to_string()
    } else {
        format!("{}-{}", kind.name(), o.status.as_str().replace('_', "-"))
    };
    Review::new(
        day,
        time,
        who,
        Origin::Quiz,
        &o.id,
        Topic::of_tags(&o.tags).name(),
        right,
        &cause,
    )
}

/// The review of one flashcard rating (wrong for `again`).
pub fn flash_review(
    card: &str,
    tags: &[String],
    rating: crate::flash::Rating,
    who: &str,
    day: Date,
    time: i64,
) -> Review {
    use crate::flash::Rating;
    Review::new(
        day,
        time,
        who,
        Origin::Flash,
        card,
        Topic::of_tags(tags).name(),
        rating != Rating::Again,
        rating.name(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    #[test]
    fn lines_round_trip_and_fields_are_cleaned() {
        let r = Review::new(
            day("2026-01-05"),
            1_767_614_400,
            "Ada Lovelace",
            Origin::Drill,
            "list-schedule:7",
            "list-scheduling",
            false,
            "order",
        );
        assert_eq!(r.who, "Ada_Lovelace");
        let line = r.line();
        assert_eq!(
            line,
            "2026-01-05 1767614400 Ada_Lovelace drill list-schedule:7 list-scheduling wrong order\n"
        );
        assert_eq!(Review::parse(line.trim_end()), Ok(Some(r)));
        assert_eq!(Review::parse(HEADER), Ok(None));
        let odd = Review::new(day("2026-01-05"), 0, "", Origin::Quiz, "a b", "", true, "");
        assert_eq!(
            (odd.who.as_str(), odd.item.as_str(), odd.topic.as_str()),
            ("me", "a_b", "-")
        );
        assert!(odd.line().len() <= MAX_LINE);
        let long = Review::new(
            day("2026-01-05"),
            i64::MIN,
            &"w".repeat(500),
            Origin::Flash,
            &"é".repeat(500),
            &"t".repeat(500),
            true,
            &"k".repeat(500),
        );
        assert!(long.line().len() <= MAX_LINE, "{}", long.line().len());
        assert_eq!(Review::parse(long.line().trim_end()), Ok(Some(long)));
        assert_eq!(
            events_item("div@4  mul@5"),
            "hazard:events=div@4,mul@5".to_string()
        );
        assert_eq!(drill_seed("mii:12", "mii"), Some(12));
        assert_eq!(drill_seed("modulo:12", "mii"), None);
    }

    #[test]
    fn bad_lines_are_located_and_skipped() {
        let good = "2026-01-05 1 a drill mii:1 mii right -\n";
        let text = format!(
            "{HEADER}\n{good}2026-01-05 1 a drill mii:1 mii maybe -\n\
             2026-01-05 1 a b c d e\n2026-01-05 x a drill mii:1 mii right -\n\
             2026-01-05 1 a\u{e9} drill mii:1 mii right -\n{}\n{good}2026-01-05 1 a",
            "x".repeat(600)
        );
        let r = read_log(text.as_bytes(), "r.log");
        assert_eq!(r.reviews.len(), 2);
        let shown: Vec<String> = r.bad.iter().map(|d| d.to_string()).collect();
        assert_eq!(shown.len(), 6, "{shown:#?}");
        assert!(
            shown[0].starts_with("r.log:3:32: `maybe` is neither"),
            "{}",
            shown[0]
        );
        assert!(shown[1].starts_with("r.log:4:1: expected 8 fields"));
        assert!(shown[2].starts_with("r.log:5:12: `x` is not a Unix time"));
        assert!(shown[3].starts_with("r.log:6:14: `a\u{e9}` is not a user name"));
        assert!(shown[4].starts_with("r.log:7:1: longer than 512 bytes"));
        assert!(shown[5].starts_with("r.log:9:1:"), "{}", shown[5]);
        let r = read_log(b"2026-01-05 1 a drill \xff mii right -\n", "l");
        assert_eq!(
            r.bad[0].to_string(),
            "l:1:22: not UTF-8 text; the line is skipped"
        );
        assert_eq!(read_log(b"", "l"), LogRead::default());
        // A complete record without its newline is not trusted.
        let r = read_log(good.trim_end().as_bytes(), "l");
        assert!(r.reviews.is_empty() && r.bad[0].message.contains("no end of line"));
    }

    #[test]
    fn topics_come_from_drills_and_tags() {
        use crate::drill::Drill;
        assert_eq!(Topic::of_drill(Drill::Automaton), Topic::HazardAutomata);
        let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            Topic::of_tags(&tags(&["machine-model", "llvm-mca"])),
            Topic::LlvmMca
        );
        assert_eq!(
            Topic::of_tags(&tags(&["reservation-tables", "hazard-automata"])),
            Topic::HazardAutomata
        );
        assert_eq!(Topic::of_tags(&tags(&["other"])), Topic::MachineModel);
        // Between two drilled topics, the one listed first.
        assert_eq!(
            Topic::of_tags(&tags(&["rthroughput", "mii", "forbidden-latencies"])),
            Topic::ForbiddenLatencies
        );
        for t in Topic::ALL {
            assert_eq!(Topic::from_name(t.name()), Some(t));
            assert_eq!(
                serde_json::to_value(t).unwrap(),
                serde_json::Value::from(t.name())
            );
        }
    }

    #[test]
    fn a_drill_report_gives_its_first_mistake_kind() {
        use crate::drill::Drill;
        let m = course_engine::model::machine::Machine::toy();
        let d = day("2026-01-05");
        let r = Drill::Rthroughput.check(&m, None, 3, "999\n", "a").unwrap();
        let rev = drill_review(
            &r,
            &drill_item(Drill::Rthroughput, 3),
            Topic::Rthroughput,
            "a",
            d,
            0,
        );
        assert!(!rev.right);
        assert_eq!(rev.kind, mistake_kind_name(&r.mistakes()[0].kind));
        assert_ne!(rev.kind, "-");
        let p = Drill::Rthroughput.problem(&m, None, 3, true).unwrap();
        let ok = Drill::Rthroughput
            .check(&m, None, 3, &p.answer().unwrap(), "a")
            .unwrap();
        let rev = drill_review(&ok, "rthroughput:3", Topic::Rthroughput, "a", d, 0);
        assert!(rev.right);
        assert_eq!(rev.kind, "-");
    }
}
