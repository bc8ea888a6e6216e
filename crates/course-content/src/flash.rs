//! Flashcards with Leitner-box spaced repetition (Lesson 23.1 §9): the deck,
//! the scheduling rules, the review state, and the typed values `course
//! flash` shows. Where the state is kept (a file, written atomically) is the
//! host's business: `course_host::flash_state`.
//!
//! Scheduling (Leitner, five boxes; [`schedule`]): a card's box `b` sets its
//! interval `2^(b-1)` days (1, 2, 4, 8, 16). A new card counts as box 1, and
//! `again` puts a card back there, due the same day: a failure restarts the
//! card's progress, so nothing rated after it can do better than on a new
//! card. `hard` keeps the box with half its interval (at least a day);
//! `good` moves one box up, due after the new box's interval; `easy` moves
//! two boxes up and waits twice as long as `good` would (the new box's
//! interval, unless the top box cut the move short). So from every state
//! `again` < `hard` < `good` < `easy` in days. A card never reviewed is due
//! at once. Entries for cards that no longer exist are kept untouched, so a
//! card that comes back keeps its progress.
//!
//! The ratings themselves are kept too, one line each, in an append-only
//! review log next to the state file ([`crate::flash_log`]); the
//! state is what replaying that log through [`schedule`] gives.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize, Serializer};

use crate::quiz::{all_tags, check_item_id, select_by_tags};
use course_engine::formats::diagnostic::{Diagnostic, Diagnostics, Location};
use course_engine::formats::yaml::LineIndex;

/// Number of Leitner boxes.
pub const BOXES: u8 = 5;

/// A calendar day, as days since 1970-01-01 (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub i64);

impl Date {
    /// From a civil date; `None` if it does not exist.
    pub fn from_ymd(y: i64, m: u32, d: u32) -> Option<Date> {
        if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) || !(1..=9999).contains(&y) {
            return None;
        }
        // Howard Hinnant's days_from_civil.
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = i64::from((m + 9) % 12);
        let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Date(era * 146_097 + doe - 719_468))
    }

    /// `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Option<Date> {
        let mut it = s.trim().splitn(3, '-');
        let y = it.next()?;
        let m = it.next()?;
        let d = it.next()?;
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        Date::from_ymd(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
    }

    /// The day of a Unix time in seconds (UTC).
    pub fn from_unix(secs: i64) -> Date {
        Date(secs.div_euclid(86_400))
    }

    pub fn ymd(self) -> (i64, u32, u32) {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let y = yoe + era * 400;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        (if m <= 2 { y + 1 } else { y }, m, d)
    }

    /// The last day a date is written for (9999-12-31, as
    /// [`Date::from_ymd`] and [`Date::parse`] take it).
    pub const LAST: Date = Date(2_932_896);

    /// `days` later, but never past [`Date::LAST`]: a due date always reads
    /// back from the state file.
    pub fn plus(self, days: i64) -> Date {
        Date(self.0.saturating_add(days).min(Date::LAST.0))
    }
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// `"YYYY-MM-DD"`.
impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Card {
    pub id: String,
    pub tags: Vec<String>,
    pub front: String,
    pub back: String,
}

/// A validated deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    pub chapter: Option<u32>,
    pub cards: Vec<Card>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    #[serde(default)]
    chapter: Option<u32>,
    #[serde(default)]
    title: Option<String>,
    cards: Vec<RawCard>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    id: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    front: Option<String>,
    back: Option<String>,
}

impl Deck {
    /// Parses and validates a deck; every mistake is reported with its
    /// location.
    pub fn parse(text: &str, origin: &str) -> Result<Deck, Diagnostics> {
        let raw: RawDeck =
            course_engine::formats::yaml::from_str(text, origin).map_err(Diagnostics::from)?;
        let _ = raw.title;
        let idx = LineIndex::new(text, origin, "cards");
        let mut diags = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut cards = Vec::new();
        if raw.cards.is_empty() {
            diags.push(Diagnostic::at(
                Location {
                    file: origin.into(),
                    line: 1,
                    column: 1,
                },
                "the deck has no cards",
            ));
        }
        for (i, c) in raw.cards.into_iter().enumerate() {
            let Some(id) = check_item_id(&idx, i, c.id.as_deref(), "card", &mut seen, &mut diags)
            else {
                continue;
            };
            let mut err = |at: Location, message: String| diags.push(Diagnostic::at(at, message));
            let front = c.front.unwrap_or_default();
            let back = c.back.unwrap_or_default();
            if front.trim().is_empty() {
                err(idx.field(i, "front"), format!("{id}: empty front"));
            }
            if back.trim().is_empty() {
                err(idx.field(i, "back"), format!("{id}: empty back"));
            }
            if c.tags.is_empty() {
                err(idx.item(i), format!("{id}: no tags"));
            }
            for (j, t) in c.tags.iter().enumerate() {
                if t.trim().is_empty() || t.contains(char::is_whitespace) {
                    err(
                        idx.list_elem(i, "tags", j),
                        format!("{id}: tag `{t}` must be one word"),
                    );
                }
            }
            cards.push(Card {
                id,
                tags: c.tags,
                front: front.trim_end().to_string(),
                back: back.trim_end().to_string(),
            });
        }
        if diags.is_empty() {
            Ok(Deck {
                chapter: raw.chapter,
                cards,
            })
        } else {
            Err(Diagnostics(diags))
        }
    }

    /// Every tag used, sorted.
    pub fn tags(&self) -> Vec<String> {
        all_tags(&self.cards, |c| &c.tags)
    }

    /// Cards with any of `tags` (all if empty); an unknown tag is an error.
    pub fn select(&self, tags: &[String]) -> Result<Vec<&Card>, String> {
        select_by_tags(&self.cards, |c| &c.tags, tags)
    }
}

/// How a review went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rating {
    Again,
    Hard,
    Good,
    Easy,
}

impl Rating {
    /// Every rating, from the worst to the best.
    pub const ALL: [Rating; 4] = [Rating::Again, Rating::Hard, Rating::Good, Rating::Easy];

    /// `again`, `hard`, `good` or `easy`.
    pub fn name(self) -> &'static str {
        match self {
            Rating::Again => "again",
            Rating::Hard => "hard",
            Rating::Good => "good",
            Rating::Easy => "easy",
        }
    }

    /// `again`/`a`/`0`, `hard`/`h`/`1`, `good`/`g`/`2`, `easy`/`e`/`3`.
    pub fn parse(s: &str) -> Option<Rating> {
        Some(match s.trim().to_lowercase().as_str() {
            "again" | "a" | "0" => Rating::Again,
            "hard" | "h" | "1" => Rating::Hard,
            "good" | "g" | "2" => Rating::Good,
            "easy" | "e" | "3" => Rating::Easy,
            _ => return None,
        })
    }
}

/// The review state of one card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardState {
    /// Leitner box, 1..=5.
    #[serde(rename = "box")]
    pub leitner_box: u8,
    /// `YYYY-MM-DD`.
    pub due: String,
    pub reviews: u32,
    pub lapses: u32,
    pub last: String,
}

impl CardState {
    pub fn due_date(&self) -> Option<Date> {
        Date::parse(&self.due)
    }
}

/// The days until a card in box `b` is due again.
pub fn interval(b: u8) -> i64 {
    1i64 << (b.clamp(1, BOXES) - 1)
}

/// The box a card starts from: a new card, and a card just rated `again`,
/// are both in box 1 (progress restarted).
pub const START_BOX: u8 = 1;

/// Where one rating sends a card in box `b` (a new card is in
/// [`START_BOX`]): its new box and the days until it is due. `again`: box 1,
/// 0 days (shown again this session). `hard`: the same box, half its
/// interval, at least 1 day. `good`: one box up (at most [`BOXES`]), that
/// box's interval. `easy`: two boxes up (at most [`BOXES`]), twice `good`'s
/// days, which is the new box's interval unless the top box cut the move
/// short. Hence `0 = again < hard < good < easy` from every box: `hard` ≤
/// `interval(b)` < `interval(b + 1)` = `good` when `b` < 5, and at the top
/// `hard` = 8 < `good` = 16 < `easy` = 32.
pub fn step(b: u8, rating: Rating) -> (u8, i64) {
    let b = b.clamp(START_BOX, BOXES);
    let up = |k: u8| (b + k).min(BOXES);
    match rating {
        Rating::Again => (START_BOX, 0),
        Rating::Hard => (b, (interval(b) / 2).max(1)),
        Rating::Good => (up(1), interval(up(1))),
        Rating::Easy => (up(2), 2 * interval(up(1))),
    }
}

/// Applies one review on `today` ([`step`]; a new card has no `prev`). The
/// due date saturates at [`Date::LAST`]. `again` on a card reviewed before
/// counts a lapse.
pub fn schedule(prev: Option<&CardState>, rating: Rating, today: Date) -> CardState {
    let b = prev.map_or(START_BOX, |s| s.leitner_box);
    let (nb, days) = step(b, rating);
    CardState {
        leitner_box: nb,
        due: today.plus(days).to_string(),
        reviews: prev.map_or(0, |s| s.reviews).saturating_add(1),
        lapses: prev
            .map_or(0, |s| s.lapses)
            .saturating_add(u32::from(rating == Rating::Again && prev.is_some())),
        last: today.to_string(),
    }
}

/// The saved state of one deck.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub version: u32,
    pub deck: String,
    /// How many lines of the review log ([`crate::flash_log`])
    /// this state already holds; reading it replays only the later ones.
    /// Absent (0) in a state that no log has touched.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub log_lines: usize,
    /// By card id; ids not in the deck are kept as they are.
    pub cards: BTreeMap<String, CardState>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The current state format.
pub const STATE_VERSION: u32 = 1;

impl State {
    pub fn new(deck: &str) -> State {
        State {
            version: STATE_VERSION,
            deck: deck.into(),
            log_lines: 0,
            cards: BTreeMap::new(),
        }
    }

    /// Whether `card` is due on `today` (new cards are).
    pub fn is_due(&self, card: &str, today: Date) -> bool {
        match self.cards.get(card).and_then(CardState::due_date) {
            Some(d) => d <= today,
            None => true,
        }
    }

    /// The review order: due cards by due date (most overdue first), then
    /// new cards, in deck order within each; with `all`, the cards not yet
    /// due follow, soonest first.
    pub fn order<'c>(&self, cards: &[&'c Card], today: Date, all: bool) -> Vec<&'c Card> {
        let mut keyed: Vec<(u8, Date, usize, &Card)> = cards
            .iter()
            .enumerate()
            .filter_map(
                |(i, c)| match self.cards.get(&c.id).and_then(CardState::due_date) {
                    Some(d) if d <= today => Some((0, d, i, *c)),
                    None => Some((1, today, i, *c)),
                    Some(d) if all => Some((2, d, i, *c)),
                    Some(_) => None,
                },
            )
            .collect();
        keyed.sort_by_key(|&(g, d, i, _)| (g, d, i));
        keyed.into_iter().map(|k| k.3).collect()
    }
}

/// The most bytes a state file may have (a deck of thousands of cards fits).
pub const MAX_STATE_BYTES: u64 = 16 << 20;

/// A state as its file holds it: pretty JSON and a newline (what `course
/// flash` saves and the web page exports).
pub fn state_text(state: &State) -> String {
    serde_json::to_string_pretty(state).unwrap_or_default() + "\n"
}

/// What reading the bytes of a state file found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateRead {
    /// A state, every entry usable.
    Whole(State),
    /// A state without the entries that had to be dropped, one message each.
    Partly { state: State, dropped: Vec<String> },
    /// Not a state (`problem` says why); `recovered` holds the whole card
    /// entries of a file cut short, when there are any.
    Damaged {
        problem: String,
        recovered: Option<State>,
    },
}

/// Reads the bytes of a state file for `deck` (the deck named in the file
/// wins when it names one).
pub fn read_state(bytes: &[u8], deck: &str) -> StateRead {
    let problem = if bytes.len() as u64 > MAX_STATE_BYTES {
        format!("larger than {} MiB", MAX_STATE_BYTES >> 20)
    } else {
        match serde_json::from_slice::<serde_json::Value>(bytes) {
            Err(e) => match e.classify() {
                serde_json::error::Category::Eof => {
                    format!("it ends early at line {}, truncated?", e.line())
                }
                _ => format!("not valid JSON at line {}, column {}", e.line(), e.column()),
            },
            Ok(v) => match salvage(&v, deck) {
                Err(m) => m,
                Ok((state, dropped)) if dropped.is_empty() => return StateRead::Whole(state),
                Ok((state, dropped)) => return StateRead::Partly { state, dropped },
            },
        }
    };
    // A file cut short (a full disk, a hand edit) usually still holds whole
    // card entries: keep those.
    let recovered = repair_truncated(bytes)
        .and_then(|v| salvage(&v, deck).ok())
        .map(|(state, _)| state)
        .filter(|state| !state.cards.is_empty());
    StateRead::Damaged { problem, recovered }
}

/// The usable part of a parsed state: the state and one message per entry
/// that had to be dropped. `Err` if the file as a whole is not a state.
fn salvage(v: &serde_json::Value, deck: &str) -> Result<(State, Vec<String>), String> {
    let obj = v.as_object().ok_or("not a JSON object")?;
    match obj.get("version").and_then(serde_json::Value::as_u64) {
        Some(x) if x == u64::from(STATE_VERSION) => {}
        Some(x) => return Err(format!("state version {x}, expected {STATE_VERSION}")),
        None => return Err("no `version`".into()),
    }
    let cards = obj
        .get("cards")
        .and_then(serde_json::Value::as_object)
        .ok_or("no `cards` object")?;
    let mut state = State::new(
        obj.get("deck")
            .and_then(serde_json::Value::as_str)
            .unwrap_or(deck),
    );
    state.log_lines = match obj.get("log_lines") {
        None => 0,
        Some(n) => n
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or("`log_lines` is not a count of lines")?,
    };
    let mut dropped = Vec::new();
    for (id, entry) in cards {
        match serde_json::from_value::<CardState>(entry.clone()) {
            Ok(cs) if cs.due_date().is_some() && (1..=BOXES).contains(&cs.leitner_box) => {
                state.cards.insert(id.clone(), cs);
            }
            Ok(cs) => dropped.push(format!(
                "card `{id}`: box {} / due `{}` out of range",
                cs.leitner_box, cs.due
            )),
            Err(e) => dropped.push(format!("card `{id}`: {e}")),
        }
    }
    Ok((state, dropped))
}

/// The complete card entries of a state file cut short: everything up to
/// the last closed entry, with the outer braces closed again. Relies on the
/// layout [`state_text`] writes (pretty JSON, entries at four spaces).
fn repair_truncated(bytes: &[u8]) -> Option<serde_json::Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    let cut = text.rfind("\n    }")?;
    let candidate = format!("{}\n    }}\n  }}\n}}\n", &text[..cut]);
    serde_json::from_str(&candidate).ok()
}

/// One card of `--list`: its box and due date (none for a new card).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListedCard {
    /// Due today or earlier (new cards are).
    pub due_now: bool,
    pub id: String,
    /// The saved state; `None` for a new card.
    pub state: Option<CardState>,
    pub tags: Vec<String>,
}

/// `--list`: the selected cards and how many are due.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardList {
    pub cards: Vec<ListedCard>,
    pub due: usize,
    pub today: Date,
}

impl CardList {
    /// The listing of `cards` under `state` on `today`.
    pub fn new(cards: &[&Card], state: &State, today: Date) -> CardList {
        let cards: Vec<ListedCard> = cards
            .iter()
            .map(|c| ListedCard {
                due_now: state.is_due(&c.id, today),
                id: c.id.clone(),
                state: state.cards.get(&c.id).cloned(),
                tags: c.tags.clone(),
            })
            .collect();
        CardList {
            due: cards.iter().filter(|c| c.due_now).count(),
            cards,
            today,
        }
    }
}

/// Nothing to review today.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NothingDue {
    /// When the next selected card is due, if any has a date.
    pub next: Option<Date>,
    pub today: Date,
}

/// The opening line of a review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewStart {
    /// How many cards this review goes through.
    pub cards: usize,
    pub chapter: u32,
    /// How many of them are due today.
    pub due: usize,
    /// Where the state is saved, as shown to the user.
    pub state: String,
    pub today: Date,
}

/// A card's front, as shown before the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardFront {
    pub front: String,
    pub id: String,
    /// 1-based position in the review.
    pub number: usize,
    /// How many cards the review has.
    pub of: usize,
    /// The saved state before this review; `None` for a new card.
    pub state: Option<CardState>,
    pub tags: Vec<String>,
}

/// A card's back, shown on request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardBack {
    pub back: String,
}

/// A reply that is not a rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotARating {
    /// The reply, trimmed.
    pub reply: String,
}

/// The end of a review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewEnd {
    /// Selected cards still due today.
    pub left: usize,
    pub reviewed: usize,
    pub today: Date,
}

/// `--check-bank` on a deck: its figures, or its mistakes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckCheck {
    Valid {
        cards: usize,
        origin: String,
        tags: Vec<String>,
    },
    Mistakes {
        diagnostics: Diagnostics,
        origin: String,
    },
}

impl DeckCheck {
    /// Checks the deck `text` read from `origin`.
    pub fn of(text: &str, origin: &str) -> DeckCheck {
        match Deck::parse(text, origin) {
            Ok(d) => DeckCheck::Valid {
                cards: d.cards.len(),
                origin: origin.to_string(),
                tags: d.tags(),
            },
            Err(diagnostics) => DeckCheck::Mistakes {
                diagnostics,
                origin: origin.to_string(),
            },
        }
    }

    /// True when the deck has no mistakes.
    pub fn is_valid(&self) -> bool {
        matches!(self, DeckCheck::Valid { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        for s in ["1970-01-01", "2000-02-29", "2026-12-02", "2024-03-01"] {
            assert_eq!(Date::parse(s).map(|d| d.to_string()), Some(s.to_string()));
        }
        assert_eq!(Date::parse("1970-01-02"), Some(Date(1)));
        assert_eq!(Date::parse("2023-02-29"), None);
        assert_eq!(Date::parse("2026-13-01"), None);
        assert_eq!(Date::parse("26-1-1"), None);
        assert_eq!(
            Date::parse("2026-01-31").map(|d| d.plus(1).to_string()),
            Some("2026-02-01".into())
        );
        assert_eq!(Date::from_ymd(9999, 12, 31), Some(Date::LAST));
        assert_eq!(Date::LAST.plus(16).to_string(), "9999-12-31");
    }

    #[test]
    fn a_review_on_the_last_day_reads_back() {
        let s = schedule(None, Rating::Easy, Date::LAST);
        assert_eq!(s.due_date(), Some(Date::LAST));
    }

    #[test]
    fn leitner_rules() {
        let t = Date::parse("2026-01-01").unwrap();
        let s = schedule(None, Rating::Good, t);
        assert_eq!((s.leitner_box, s.due.as_str()), (2, "2026-01-03"));
        let s = schedule(Some(&s), Rating::Easy, t.plus(2));
        assert_eq!((s.leitner_box, s.due.as_str()), (4, "2026-01-11"));
        let h = schedule(Some(&s), Rating::Hard, t.plus(10));
        assert_eq!((h.leitner_box, h.due.as_str()), (4, "2026-01-15"));
        let a = schedule(Some(&h), Rating::Again, t.plus(14));
        assert_eq!(
            (a.leitner_box, a.due.as_str(), a.lapses, a.reviews),
            (1, "2026-01-15", 1, 4)
        );
        let n = schedule(None, Rating::Again, t);
        assert_eq!((n.leitner_box, n.lapses), (1, 0));
        let mut top = a;
        for _ in 0..10 {
            top = schedule(Some(&top), Rating::Easy, t);
        }
        assert_eq!(top.leitner_box, BOXES);
        assert_eq!(top.due, t.plus(32).to_string());
        let good = schedule(Some(&top), Rating::Good, t);
        assert_eq!(
            (good.leitner_box, good.due),
            (BOXES, t.plus(16).to_string())
        );
    }

    /// The days from `day` until the card is due after `rating`.
    fn days(prev: Option<&CardState>, rating: Rating, day: Date) -> i64 {
        let next = schedule(prev, rating, day);
        next.due_date().map_or(i64::MIN, |d| d.0 - day.0)
    }

    /// Every state reachable from a new card in at most `n` ratings, each
    /// given on the day the card is due (the new card is `None`).
    fn reachable(n: usize, t: Date) -> Vec<(Vec<Rating>, Option<CardState>)> {
        let mut all = vec![(Vec::new(), None)];
        let mut frontier = all.clone();
        for _ in 0..n {
            let mut next = Vec::new();
            for (seq, st) in &frontier {
                for r in Rating::ALL {
                    let day = st.as_ref().and_then(CardState::due_date).unwrap_or(t);
                    let mut seq: Vec<Rating> = seq.clone();
                    seq.push(r);
                    next.push((seq, Some(schedule(st.as_ref(), r, day))));
                }
            }
            all.extend(next.iter().cloned());
            frontier = next;
        }
        all
    }

    /// The rules that keep ratings meaningful, over every sequence of up to
    /// three ratings from a new card (85 states, every box among them):
    /// a failure earns no bonus, and the four ratings are strictly ordered.
    #[test]
    fn ratings_are_ordered_and_a_failure_earns_nothing() {
        let t = Date::parse("2026-03-01").unwrap();
        let states = reachable(3, t);
        assert_eq!(states.len(), 1 + 4 + 16 + 64);
        let boxes: std::collections::BTreeSet<u8> = states
            .iter()
            .filter_map(|(_, s)| s.as_ref().map(|s| s.leitner_box))
            .collect();
        assert_eq!(boxes.into_iter().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
        for (seq, st) in &states {
            let day = st.as_ref().and_then(CardState::due_date).unwrap_or(t);
            let d: Vec<i64> = Rating::ALL
                .iter()
                .map(|&r| days(st.as_ref(), r, day))
                .collect();
            // (b) hard < good < easy, and (c) again is the shortest.
            assert!(d[0] < d[1] && d[1] < d[2] && d[2] < d[3], "{seq:?}: {d:?}");
            assert_eq!(d[0], 0, "{seq:?}: again is due the same day");
            // (a) again, then X: never longer than X on a new card; in
            // fact exactly a new card's schedule.
            let failed = schedule(st.as_ref(), Rating::Again, day);
            assert_eq!(failed.leitner_box, START_BOX, "{seq:?}");
            for x in Rating::ALL {
                let after = days(Some(&failed), x, day);
                let fresh = days(None, x, day);
                assert!(after <= fresh, "{seq:?} again {x:?}: {after} > {fresh}");
                assert_eq!(after, fresh, "{seq:?} again {x:?}");
                assert_eq!(
                    schedule(Some(&failed), x, day).leitner_box,
                    schedule(None, x, day).leitner_box,
                    "{seq:?} again {x:?}"
                );
            }
        }
        // Pairs and triples containing `again`, spelled out: whatever came
        // before `again`, the ratings after it land where they would on a
        // new card.
        for (seq, st) in &states {
            let Some(k) = seq.iter().rposition(|&r| r == Rating::Again) else {
                continue;
            };
            let tail = &seq[k + 1..];
            let fresh = states
                .iter()
                .find(|(s, _)| s.as_slice() == tail)
                .and_then(|(_, s)| s.as_ref().map(|s| s.leitner_box))
                .unwrap_or(START_BOX);
            assert_eq!(st.as_ref().map(|s| s.leitner_box), Some(fresh), "{seq:?}");
        }
        // The whole table of (box, rating) -> (box, days).
        let table: Vec<Vec<(u8, i64)>> = (1..=BOXES)
            .map(|b| Rating::ALL.iter().map(|&r| step(b, r)).collect())
            .collect();
        assert_eq!(
            table,
            vec![
                vec![(1, 0), (1, 1), (2, 2), (3, 4)],
                vec![(1, 0), (2, 1), (3, 4), (4, 8)],
                vec![(1, 0), (3, 2), (4, 8), (5, 16)],
                vec![(1, 0), (4, 4), (5, 16), (5, 32)],
                vec![(1, 0), (5, 8), (5, 16), (5, 32)],
            ]
        );
    }

    #[test]
    fn embedded_deck_is_valid() {
        let d = Deck::parse(crate::data::FLASH_CH23_YAML, "quizzes/ch23-flash.yaml")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(d.cards.len() >= 30);
        for t in crate::quiz::TECHNIQUE_TAGS {
            assert!(d.cards.iter().any(|c| c.tags.iter().any(|x| x == t)), "{t}");
        }
    }
}
