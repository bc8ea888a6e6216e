//! Flashcards with Leitner-box spaced repetition (Lesson 23.1 §9), and the
//! review state that survives days, crashes and hand edits.
//!
//! Scheduling (Leitner, five boxes): a card's box `b` sets its interval
//! `2^(b-1)` days (1, 2, 4, 8, 16). `again` sends it to box 1, due the same
//! day; `hard` keeps its box with half the interval (at least a day); `good`
//! moves it up one box, `easy` two (at most box 5), due after the new box's
//! interval. A card never reviewed is new and due at once.
//!
//! The state file is JSON, written atomically (a temporary file in the same
//! folder, fsync, rename), so a killed process leaves the old or the new
//! state, never half of one. A file that cannot be read as a state is moved
//! aside to `<file>.corrupt-<timestamp>` (nothing is deleted) and the review
//! starts fresh; single bad card entries are dropped with a warning after the
//! original is backed up the same way. Entries for cards that no longer exist
//! are kept untouched, so a card that comes back keeps its progress.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::content::quiz::{all_tags, check_item_id, select_by_tags};
use crate::formats::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::formats::yaml::{yaml_error, LineIndex};

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

    pub fn plus(self, days: i64) -> Date {
        Date(self.0 + days)
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

/// One card.
#[derive(Clone, Debug, PartialEq, Eq)]
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
            serde_yaml::from_str(text).map_err(|e| Diagnostics(vec![yaml_error(&e, origin)]))?;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rating {
    Again,
    Hard,
    Good,
    Easy,
}

impl Rating {
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

/// Applies one review (the Leitner rules in the module docs).
pub fn schedule(prev: Option<&CardState>, rating: Rating, today: Date) -> CardState {
    let b = prev.map_or(0, |s| s.leitner_box.min(BOXES));
    let (nb, days) = match rating {
        Rating::Again => (1, 0),
        Rating::Hard => {
            let nb = b.max(1);
            (nb, (interval(nb) / 2).max(1))
        }
        Rating::Good => {
            let nb = (b + 1).min(BOXES);
            (nb, interval(nb))
        }
        Rating::Easy => {
            let nb = (b + 2).min(BOXES);
            (nb, interval(nb))
        }
    };
    CardState {
        leitner_box: nb,
        due: today.plus(days).to_string(),
        reviews: prev.map_or(0, |s| s.reviews).saturating_add(1),
        lapses: prev
            .map_or(0, |s| s.lapses)
            .saturating_add(u32::from(rating == Rating::Again && b > 0)),
        last: today.to_string(),
    }
}

/// The saved state of one deck.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub version: u32,
    pub deck: String,
    /// By card id; ids not in the deck are kept as they are.
    pub cards: BTreeMap<String, CardState>,
}

/// The current state format.
pub const STATE_VERSION: u32 = 1;

impl State {
    pub fn new(deck: &str) -> State {
        State {
            version: STATE_VERSION,
            deck: deck.into(),
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

/// What loading a state file found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub state: State,
    /// Things the user must be told (recovery, dropped entries).
    pub warnings: Vec<String>,
    /// Where an unreadable or partly bad file was moved or copied.
    pub backup: Option<PathBuf>,
}

/// Why the state could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct StateError {
    pub path: String,
    pub message: String,
}

fn state_err(path: &Path, e: impl fmt::Display) -> StateError {
    StateError {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// The aside name for a bad state file: `<file>.corrupt-<stamp>`, made unique.
fn aside_path(path: &Path, stamp: &str) -> PathBuf {
    let base = format!("{}.corrupt-{stamp}", path.display());
    let mut p = PathBuf::from(&base);
    let mut n = 1;
    while p.exists() {
        n += 1;
        p = PathBuf::from(format!("{base}-{n}"));
    }
    p
}

/// The most bytes a state file may have (a deck of thousands of cards fits).
pub const MAX_STATE_BYTES: u64 = 16 << 20;

/// Loads the state of `deck` from `path`. A missing file is a fresh start;
/// an unreadable one is moved aside (`stamp` names the copy) and reported in
/// the warnings. Only I/O failures that prevent recovery are errors.
pub fn load_state(path: &Path, deck: &str, stamp: &str) -> Result<Loaded, StateError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Loaded {
                state: State::new(deck),
                ..Loaded::default()
            })
        }
        Err(e) => return Err(state_err(path, e)),
    };
    let problem = if bytes.len() as u64 > MAX_STATE_BYTES {
        Some(format!("larger than {} MiB", MAX_STATE_BYTES >> 20))
    } else {
        match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Err(e) => Some(match e.classify() {
                serde_json::error::Category::Eof => {
                    format!("it ends early at line {}, truncated?", e.line())
                }
                _ => format!("not valid JSON at line {}, column {}", e.line(), e.column()),
            }),
            Ok(v) => match salvage(&v, deck) {
                Err(m) => Some(m),
                Ok((state, dropped)) => {
                    if dropped.is_empty() {
                        return Ok(Loaded {
                            state,
                            ..Loaded::default()
                        });
                    }
                    // Keep the original so the dropped entries are not lost.
                    let aside = aside_path(path, stamp);
                    std::fs::copy(path, &aside).map_err(|e| state_err(&aside, e))?;
                    let mut warnings: Vec<String> = dropped
                        .iter()
                        .map(|m| format!("{}: ignoring a bad entry: {m}", path.display()))
                        .collect();
                    warnings.push(format!(
                        "{}: kept the other {} card(s); the original file is saved as {}",
                        path.display(),
                        state.cards.len(),
                        aside.display()
                    ));
                    return Ok(Loaded {
                        state,
                        warnings,
                        backup: Some(aside),
                    });
                }
            },
        }
    };
    let problem = problem.unwrap_or_default();
    let aside = aside_path(path, stamp);
    std::fs::rename(path, &aside)
        .map_err(|e| state_err(path, format!("{problem}, and moving it aside failed: {e}")))?;
    // A file cut short (a full disk, a hand edit) usually still holds whole
    // card entries: keep those.
    if let Some((state, _)) = repair_truncated(&bytes).and_then(|v| salvage(&v, deck).ok()) {
        if !state.cards.is_empty() {
            return Ok(Loaded {
                warnings: vec![format!(
                    "{}: the review state is damaged ({problem}); recovered {} card(s) from it, the rest start \
                     fresh; the original is moved to {}",
                    path.display(),
                    state.cards.len(),
                    aside.display()
                )],
                state,
                backup: Some(aside),
            });
        }
    }
    Ok(Loaded {
        state: State::new(deck),
        warnings: vec![format!(
            "{}: the review state is damaged ({problem}); moved it to {} and starting with a fresh state \
             (restore it by fixing that file and moving it back)",
            path.display(),
            aside.display()
        )],
        backup: Some(aside),
    })
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
/// layout [`save_state`] writes (pretty JSON, entries at four spaces).
fn repair_truncated(bytes: &[u8]) -> Option<serde_json::Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    let cut = text.rfind("\n    }")?;
    let candidate = format!("{}\n    }}\n  }}\n}}\n", &text[..cut]);
    serde_json::from_str(&candidate).ok()
}

/// Writes the state atomically: a temporary file in the same folder,
/// flushed to disk, then renamed over the old one.
pub fn save_state(path: &Path, state: &State) -> Result<(), StateError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| state_err(&dir, e))?;
    let name = path
        .file_name()
        .map_or("state".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let text = serde_json::to_string_pretty(state).map_err(|e| state_err(path, e))? + "\n";
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Persist the rename itself; not every platform can open a folder.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        state_err(path, e)
    })
}

/// The default state file: `$XDG_DATA_HOME/course/flash-<chapter>.json`,
/// else `$HOME/.local/share/course/…`. `env` looks a variable up (so tests
/// need not touch the process environment). A relative XDG_DATA_HOME is
/// ignored, as the XDG spec says.
pub fn default_state_path(env: impl Fn(&str) -> Option<String>, chapter: u32) -> Option<PathBuf> {
    let file = format!("flash-{chapter}.json");
    if let Some(x) = env("XDG_DATA_HOME").filter(|x| Path::new(x).is_absolute()) {
        return Some(Path::new(&x).join("course").join(file));
    }
    let home = env("HOME").filter(|h| !h.is_empty())?;
    Some(Path::new(&home).join(".local/share/course").join(file))
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
    }

    #[test]
    fn leitner_rules() {
        let t = Date::parse("2026-01-01").unwrap();
        let s = schedule(None, Rating::Good, t);
        assert_eq!((s.leitner_box, s.due.as_str()), (1, "2026-01-02"));
        let s = schedule(Some(&s), Rating::Easy, t.plus(1));
        assert_eq!((s.leitner_box, s.due.as_str()), (3, "2026-01-06"));
        let h = schedule(Some(&s), Rating::Hard, t.plus(5));
        assert_eq!((h.leitner_box, h.due.as_str()), (3, "2026-01-08"));
        let a = schedule(Some(&h), Rating::Again, t.plus(7));
        assert_eq!(
            (a.leitner_box, a.due.as_str(), a.lapses, a.reviews),
            (1, "2026-01-08", 1, 4)
        );
        let mut top = a;
        for _ in 0..10 {
            top = schedule(Some(&top), Rating::Easy, t);
        }
        assert_eq!(top.leitner_box, BOXES);
        assert_eq!(top.due, t.plus(16).to_string());
    }

    #[test]
    fn embedded_deck_is_valid() {
        let d = Deck::parse(
            crate::content::data::FLASH_CH23_YAML,
            "quizzes/ch23-flash.yaml",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(d.cards.len() >= 30);
        for t in crate::content::quiz::TECHNIQUE_TAGS {
            assert!(d.cards.iter().any(|c| c.tags.iter().any(|x| x == t)), "{t}");
        }
    }

    #[test]
    fn default_path_prefers_absolute_xdg() {
        let env = |xdg: Option<&'static str>| {
            move |k: &str| match k {
                "XDG_DATA_HOME" => xdg.map(String::from),
                "HOME" => Some("/home/u".to_string()),
                _ => None,
            }
        };
        assert_eq!(
            default_state_path(env(Some("/x")), 23),
            Some(PathBuf::from("/x/course/flash-23.json"))
        );
        assert_eq!(
            default_state_path(env(Some("rel")), 23),
            Some(PathBuf::from("/home/u/.local/share/course/flash-23.json"))
        );
        assert_eq!(default_state_path(|_| None, 23), None);
    }
}
