//! `course flash`: [`open`] loads a chapter's deck and the saved review
//! state (recovering a damaged one); the [`Flashcards`] it returns starts a
//! [`Review`], a session the front end drives line by line (front → Enter →
//! back → rating), which saves each rated card before it says where the
//! card went, and asks again later in the session the cards rated `again`.
//! [`list`] shows the cards without changing anything on disk.
//! [`check_deck`] validates a deck.
//!
//! Ratings go through [`flash_state::record_review`]: under a lock, the
//! rating is appended to the review log and the card's new state is
//! computed from the state as it is on disk then (with every rating other
//! sessions logged meanwhile), never from this session's copy; so two
//! reviews of one state file at the same time keep each other's work, even
//! on the same card.

use std::path::PathBuf;

use course_content::data::Source;
use course_content::flash::{
    Card, CardBack, CardFront, CardList, CardState, Date, Deck, DeckCheck, NotARating, NothingDue,
    Rating, ReviewEnd, ReviewStart, State, StateRead, read_state, schedule,
};
use course_content::flash_log::Logged;
use course_engine::formats::diagnostic::Diagnostics;
use course_host::flash_state::{self, StateError};

/// Why the flashcards could not be opened or the state saved.
#[derive(Debug, thiserror::Error)]
pub enum FlashError {
    #[error("no flashcards for chapter {0} (available: 23)")]
    NoChapter(u32),
    /// A course file that could not be read.
    #[error("{0}")]
    Read(String),
    #[error("invalid deck:\n{0}")]
    InvalidDeck(Diagnostics),
    #[error("{0}")]
    UnknownTag(String),
    #[error("no data folder (HOME and XDG_DATA_HOME are unset); use --state FILE")]
    NoDataFolder,
    #[error(transparent)]
    State(#[from] StateError),
}

/// What to open.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    pub source: &'a Source,
    pub chapter: u32,
    /// Only cards with any of these tags (none: all).
    pub tags: &'a [String],
    /// The state file (default: in the user's data folder).
    pub state: Option<&'a std::path::Path>,
    /// The day to review on (the command line's `--today`, else today on
    /// the clock, in local time).
    pub today: Date,
    /// The moment the deck is opened, in seconds since the epoch: it stamps
    /// a state file moved aside when damaged.
    pub now: i64,
}

/// The deck path of a chapter inside the course data.
pub fn deck_path(chapter: u32) -> String {
    format!("quizzes/ch{chapter}-flash.yaml")
}

fn origin(source: &Source, path: &str) -> String {
    match source {
        Source::Dir(d) => d.join(path).display().to_string(),
        Source::Embedded => path.to_string(),
    }
}

/// `--check-bank FILE`: validates the deck `text` read from `origin`.
pub fn check_deck(text: &str, origin: &str) -> DeckCheck {
    DeckCheck::of(text, origin)
}

/// `--check-bank`: validates a chapter's deck in the course data.
pub fn check_chapter_deck(source: &Source, chapter: u32) -> Result<DeckCheck, FlashError> {
    let path = deck_path(chapter);
    let text = source.read(&path).map_err(FlashError::Read)?;
    Ok(DeckCheck::of(&text, &origin(source, &path)))
}

/// The deck's selected cards, the state file's path and today.
struct Opened {
    chapter: u32,
    today: Date,
    cards: Vec<Card>,
    state_path: PathBuf,
    now: i64,
}

/// The selected cards of a chapter's deck.
fn deck_cards(source: &Source, chapter: u32, tags: &[String]) -> Result<Vec<Card>, FlashError> {
    let path = deck_path(chapter);
    let text = source.read(&path).map_err(|e| match source {
        Source::Embedded => FlashError::NoChapter(chapter),
        Source::Dir(_) => FlashError::Read(e),
    })?;
    let deck = Deck::parse(&text, &origin(source, &path)).map_err(FlashError::InvalidDeck)?;
    Ok(deck
        .select(tags)
        .map_err(FlashError::UnknownTag)?
        .into_iter()
        .cloned()
        .collect())
}

fn open_deck(opts: Options<'_>) -> Result<Opened, FlashError> {
    let chapter = opts.chapter;
    let cards = deck_cards(opts.source, chapter, opts.tags)?;
    let (now, today) = (opts.now, opts.today);
    let state_path = match opts.state {
        Some(p) => p.to_path_buf(),
        None => flash_state::default_state_path(|k| std::env::var(k).ok(), chapter)
            .ok_or(FlashError::NoDataFolder)?,
    };
    Ok(Opened {
        chapter,
        today,
        cards,
        state_path,
        now,
    })
}

/// The name a chapter's deck has in its state file.
fn deck_name(chapter: u32) -> String {
    format!("ch{chapter}")
}

/// `--list`: the selected cards with their box and due date, and what
/// reading the state found. Nothing on disk changes, even for a damaged
/// state file (the next review moves that aside).
pub fn list(opts: Options<'_>) -> Result<Listing, FlashError> {
    let o = open_deck(opts)?;
    let loaded = flash_state::peek_state(&o.state_path, &deck_name(o.chapter))?;
    let cards: Vec<&Card> = o.cards.iter().collect();
    Ok(Listing {
        list: CardList::new(&cards, &loaded.state, o.today),
        warnings: loaded.warnings,
    })
}

/// What `--list` shows.
#[derive(Clone, Debug)]
pub struct Listing {
    pub list: CardList,
    /// What reading the state had to tell (a damaged file, bad entries).
    pub warnings: Vec<String>,
}

/// Loads the deck, selects the cards and loads the state for a review. A
/// state that had to be recovered is saved at once, so what was saved
/// survives even if nothing is reviewed; [`Flashcards::warnings`] says what
/// happened.
pub fn open(opts: Options<'_>) -> Result<Flashcards, FlashError> {
    let o = open_deck(opts)?;
    let loaded = flash_state::open_state(
        &o.state_path,
        &deck_name(o.chapter),
        &flash_state::stamp(o.now),
    )?;
    Ok(Flashcards {
        chapter: o.chapter,
        today: o.today,
        cards: o.cards,
        state: loaded.state,
        store: Store::File(o.state_path),
        warnings: loaded.warnings,
    })
}
/// Where a state kept by the caller comes from: the text of a state file
/// (as `course flash` saves it), and how the review names the place.
#[derive(Clone, Copy, Debug)]
pub struct KeptState<'a> {
    /// The state file's text; `None` for a fresh start.
    pub text: Option<&'a str>,
    /// Where it is kept, as the review's opening line says it.
    pub kept_in: &'a str,
}

/// Like [`open`], for a caller that keeps the state itself (the web page,
/// in its local storage): no file is read or written, and the caller takes
/// [`Review::state`] after each rating. A damaged state starts fresh with
/// whatever whole entries it holds; [`Flashcards::warnings`] says so.
pub fn open_kept(
    source: &Source,
    chapter: u32,
    tags: &[String],
    kept: KeptState<'_>,
    today: Date,
) -> Result<Flashcards, FlashError> {
    let cards = deck_cards(source, chapter, tags)?;
    let deck = deck_name(chapter);
    let (state, warnings) = match kept.text.map(|t| read_state(t.as_bytes(), &deck)) {
        None => (State::new(&deck), Vec::new()),
        Some(StateRead::Whole(state)) => (state, Vec::new()),
        Some(StateRead::Partly { state, dropped }) => (
            state,
            dropped
                .iter()
                .map(|m| format!("{}: ignoring a bad entry: {m}", kept.kept_in))
                .collect(),
        ),
        Some(StateRead::Damaged { problem, recovered }) => {
            let n = recovered.as_ref().map_or(0, |s| s.cards.len());
            (
                recovered.unwrap_or_else(|| State::new(&deck)),
                vec![format!(
                    "{}: the review state is damaged ({problem}); recovered {n} card(s) from it, the rest start fresh",
                    kept.kept_in
                )],
            )
        }
    };
    Ok(Flashcards {
        chapter,
        today,
        cards,
        state,
        store: Store::Kept(kept.kept_in.to_string()),
        warnings,
    })
}

/// Where ratings are saved.
#[derive(Clone, Debug)]
enum Store {
    /// A state file, written after every rating.
    File(PathBuf),
    /// Kept by the caller, named as shown.
    Kept(String),
}

impl Store {
    fn shown(&self) -> String {
        match self {
            Store::File(p) => p.display().to_string(),
            Store::Kept(s) => s.clone(),
        }
    }
}

/// A chapter's selected cards and their review state.
#[derive(Clone, Debug)]
pub struct Flashcards {
    chapter: u32,
    today: Date,
    /// The selected cards, in deck order.
    cards: Vec<Card>,
    state: State,
    store: Store,
    warnings: Vec<String>,
}

impl Flashcards {
    /// What loading the state had to tell (recovery, dropped entries).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The review state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The cards with their box and due date.
    pub fn list(&self) -> CardList {
        let cards: Vec<&Card> = self.cards.iter().collect();
        CardList::new(&cards, &self.state, self.today)
    }

    /// A review of the due cards (most overdue first, then new ones); with
    /// `all`, the others follow. `Err` when there is nothing to review.
    pub fn review(self, all: bool) -> Result<Review, NothingDue> {
        let selected: Vec<&Card> = self.cards.iter().collect();
        let order: Vec<Card> = self
            .state
            .order(&selected, self.today, all)
            .into_iter()
            .cloned()
            .collect();
        if order.is_empty() {
            let next = self
                .cards
                .iter()
                .filter_map(|c| self.state.cards.get(&c.id).and_then(CardState::due_date))
                .min();
            return Err(NothingDue {
                next,
                today: self.today,
            });
        }
        Ok(Review {
            order,
            at: 0,
            reviewed: 0,
            stopped: false,
            told: self.warnings.len(),
            flash: self,
        })
    }
}

/// What a reply to the rating question led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rated {
    /// The card's new box and due date (already saved).
    Scheduled(CardState),
    /// Not a rating: asked again.
    NotARating(NotARating),
    /// `q`: the review ends here.
    Stopped,
}

/// A review session.
#[derive(Clone, Debug)]
pub struct Review {
    flash: Flashcards,
    order: Vec<Card>,
    /// The current card.
    at: usize,
    reviewed: usize,
    stopped: bool,
    /// Warnings the front end had before the review started.
    told: usize,
}

/// The reply that ends a review.
fn is_stop(reply: &str) -> bool {
    reply.trim() == "q"
}

impl Review {
    /// The opening line's figures.
    pub fn start(&self) -> ReviewStart {
        let f = &self.flash;
        ReviewStart {
            cards: self.order.len(),
            chapter: f.chapter,
            due: self
                .order
                .iter()
                .filter(|c| f.state.is_due(&c.id, f.today))
                .count(),
            state: f.store.shown(),
            today: f.today,
        }
    }

    /// The current card's front; `None` when the review is over.
    pub fn front(&self) -> Option<CardFront> {
        if self.stopped {
            return None;
        }
        let card = self.order.get(self.at)?;
        Some(CardFront {
            front: card.front.clone(),
            id: card.id.clone(),
            number: self.at + 1,
            of: self.order.len(),
            state: self.flash.state.cards.get(&card.id).cloned(),
            tags: card.tags.clone(),
        })
    }

    /// The current card's back, after the reply to its front; `q` stops the
    /// review instead.
    pub fn reveal(&mut self, reply: &str) -> Option<CardBack> {
        if is_stop(reply) {
            self.stop();
            return None;
        }
        let card = self.order.get(self.at).filter(|_| !self.stopped)?;
        Some(CardBack {
            back: card.back.clone(),
        })
    }

    /// Rates the current card (`again`/`hard`/`good`/`easy` or 0–3), saves
    /// the state (the log entry stamped `now`, seconds since the epoch) and
    /// moves on; `q` stops the review.
    pub fn rate(&mut self, reply: &str, now: i64) -> Result<Rated, StateError> {
        if is_stop(reply) {
            self.stop();
            return Ok(Rated::Stopped);
        }
        let Some(card) = self.order.get(self.at).filter(|_| !self.stopped) else {
            return Ok(Rated::Stopped);
        };
        let Some(rating) = Rating::parse(reply) else {
            return Ok(Rated::NotARating(NotARating {
                reply: reply.trim().to_string(),
            }));
        };
        let card = card.clone();
        let f = &mut self.flash;
        let next = match &f.store {
            Store::File(path) => {
                let entry = Logged {
                    day: f.today,
                    time: now,
                    card: card.id.clone(),
                    rating,
                };
                let saved = flash_state::record_review(
                    path,
                    &deck_name(f.chapter),
                    &flash_state::stamp(now),
                    &f.state,
                    &entry,
                )?;
                f.state = saved.state;
                f.warnings.extend(saved.warnings);
                // What the log's replay gave, other sessions' ratings of
                // this card included.
                f.state
                    .cards
                    .get(&card.id)
                    .cloned()
                    .unwrap_or_else(|| schedule(None, rating, f.today))
            }
            Store::Kept(_) => {
                let next = schedule(f.state.cards.get(&card.id), rating, f.today);
                f.state.cards.insert(card.id.clone(), next.clone());
                next
            }
        };
        self.at += 1;
        self.reviewed += 1;
        // `again` means "not yet": the card comes back before the end.
        if rating == Rating::Again {
            self.order.push(card);
        }
        Ok(Rated::Scheduled(next))
    }

    /// What saving had to tell since the review started (a state file
    /// found damaged and moved aside meanwhile).
    pub fn warnings(&self) -> &[String] {
        &self.flash.warnings[self.told..]
    }

    /// The review state, with every rating so far.
    pub fn state(&self) -> &State {
        &self.flash.state
    }

    /// Ends the review (input ended, or `q`).
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// The closing line's figures.
    pub fn end(&self) -> ReviewEnd {
        let f = &self.flash;
        ReviewEnd {
            left: f
                .cards
                .iter()
                .filter(|c| f.state.is_due(&c.id, f.today))
                .count(),
            reviewed: self.reviewed,
            today: f.today,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_rates_saves_and_stops() {
        let dir = std::env::temp_dir().join(format!("course-api-flash-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let state = dir.join("s.json");
        let tags = ["llvm-mca".to_string()];
        let opts = Options {
            source: &Source::Embedded,
            chapter: 23,
            tags: &tags,
            state: Some(&state),
            today: Date::parse("2026-01-01").unwrap(),
            now: 1_767_225_600,
        };
        let cards = open(opts).unwrap();
        assert!(cards.warnings().is_empty());
        let n = cards.list().due;
        let mut r = cards.review(false).unwrap();
        assert_eq!(r.start().cards, n);
        assert!(
            r.front()
                .is_some_and(|f| f.number == 1 && f.state.is_none())
        );
        assert!(r.reveal("").is_some());
        assert!(matches!(
            r.rate("maybe", 1_767_225_600),
            Ok(Rated::NotARating(_))
        ));
        let Ok(Rated::Scheduled(s)) = r.rate("good", 1_767_225_600) else {
            panic!()
        };
        assert_eq!((s.leitner_box, s.due.as_str()), (2, "2026-01-03"));
        assert!(state.exists());
        assert_eq!(r.front().map(|f| f.number), Some(2));
        assert!(r.reveal("q").is_none());
        assert!(r.front().is_none());
        assert_eq!(r.end().reviewed, 1);
        assert_eq!(r.end().left, n - 1);
        let again = open(opts).unwrap();
        assert_eq!(again.list().due, n - 1);
        // The same state kept by the caller gives the same list.
        let text = std::fs::read_to_string(&state).unwrap();
        let kept = |text| KeptState {
            text,
            kept_in: "local storage",
        };
        let today = Date::parse("2026-01-01").unwrap();
        let web = open_kept(&Source::Embedded, 23, &tags, kept(Some(&text)), today).unwrap();
        assert_eq!(web.list(), again.list());
        let mut r = web.review(false).unwrap();
        assert_eq!(r.start().state, "local storage");
        r.reveal("");
        assert!(matches!(
            r.rate("easy", 1_767_225_600),
            Ok(Rated::Scheduled(_))
        ));
        assert_eq!(r.state().cards.len(), 2);
        let bad = open_kept(&Source::Embedded, 23, &tags, kept(Some("{")), today).unwrap();
        assert!(
            bad.warnings()[0].contains("damaged"),
            "{:?}",
            bad.warnings()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
