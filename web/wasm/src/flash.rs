//! `course flash 23` as a review the page drives (open, reveal, rate), on
//! the state file the page keeps, and that file imported.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use course::api;
use course::api::flash::{KeptState, Rated, Review};
use course::view;
use course_content::data::Source;
use course_content::flash::{
    CardFront, CardList, CardState, Date, Rating, StateRead, read_state, state_text,
};
use course_content::review_log::flash_review;

use crate::{CHAPTER, STYLE, Stamp, with_session};

/// How the page names the flashcard state it keeps.
const KEPT_IN: &str = "this browser's local storage";

thread_local! {
    static FLASH: RefCell<Option<Review>> = const { RefCell::new(None) };
}

/// `{"cmd":"flash_open","today":DAY,…}`: the deck with the kept state,
/// and a review of the cards due (or of all of them).
#[derive(Deserialize)]
pub(crate) struct OpenReq {
    /// The state file's text kept by the page, if any.
    #[serde(default)]
    state: Option<String>,
    /// Today, `YYYY-MM-DD` (the page's local date, as the CLI's).
    today: String,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    all: bool,
}

/// `{"cmd":"flash_reveal"|"flash_rate","reply":TEXT}`: a reply to the
/// current card.
#[derive(Deserialize)]
pub(crate) struct ReplyReq {
    #[serde(default)]
    reply: String,
    #[serde(default)]
    stamp: Option<Stamp>,
}

/// `{"cmd":"flash_import","name":NAME,"text":TEXT}`: a state file.
#[derive(Deserialize)]
pub(crate) struct ImportReq {
    text: String,
    /// The file's name, for messages.
    name: String,
}

/// The current card of a review (`front` is `null` at the end).
#[derive(Serialize)]
pub(crate) struct Card {
    front: Option<CardFront>,
    #[serde(flatten)]
    shown: CardShown,
}

/// The current card's front as text, or the end line.
#[derive(Serialize)]
#[serde(untagged)]
enum CardShown {
    Front { front_text: String },
    End { end_text: String },
}

/// The current card of the review `r`.
fn card(r: &Review) -> Card {
    let front = r.front();
    let shown = match &front {
        Some(f) => CardShown::Front {
            front_text: view::flash::front(f, &STYLE),
        },
        None => CardShown::End {
            end_text: view::flash::end(&r.end()),
        },
    };
    Card { front, shown }
}

/// The reply to `flash_open`: the deck's listing and kept state, then the
/// review's start and first card, or why nothing is due.
#[derive(Serialize)]
pub(crate) struct Opened {
    list: CardList,
    list_text: String,
    state: String,
    warnings: Vec<String>,
    #[serde(flatten)]
    review: Opening,
}

/// How a review opens.
#[derive(Serialize)]
#[serde(untagged)]
enum Opening {
    NothingDue {
        /// `null`: there is no card.
        front: Option<CardFront>,
        nothing_due_text: String,
    },
    Started {
        #[serde(flatten)]
        card: Card,
        start_text: String,
    },
}

/// Opens the deck on the kept state and starts a review of it.
pub(crate) fn open(a: &OpenReq) -> Result<Opened, String> {
    let today =
        Date::parse(&a.today).ok_or_else(|| format!("{}: expected a date YYYY-MM-DD", a.today))?;
    let kept = KeptState {
        text: a.state.as_deref(),
        kept_in: KEPT_IN,
    };
    let cards = api::flash::open_kept(&Source::Embedded, CHAPTER, &a.tags, kept, today)
        .map_err(|e| e.to_string())?;
    let warnings = cards.warnings().to_vec();
    let list = cards.list();
    let list_text = view::flash::list(&list);
    let state = state_text(cards.state());
    let (review, running) = match cards.review(a.all) {
        Err(nothing) => (
            Opening::NothingDue {
                front: None,
                nothing_due_text: view::flash::nothing_due(&nothing),
            },
            None,
        ),
        Ok(review) => (
            Opening::Started {
                card: card(&review),
                start_text: view::flash::start(&review.start(), &STYLE),
            },
            Some(review),
        ),
    };
    FLASH.set(running);
    Ok(Opened {
        list,
        list_text,
        state,
        warnings,
        review,
    })
}

/// The reply to `flash_reveal`: the card's back, or the current card when
/// the reply stops the review.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum Revealed {
    Back { back_text: String },
    Card(Card),
}

/// Shows the current card's back (a `q` reply stops the review).
pub(crate) fn reveal(a: &ReplyReq) -> Result<Revealed, String> {
    with_session(&FLASH, "no review is running", |r| {
        Ok(match r.reveal(&a.reply) {
            Some(back) => Revealed::Back {
                back_text: view::flash::back(&back, &STYLE),
            },
            None => Revealed::Card(card(r)),
        })
    })
}

/// The reply to `flash_rate`: what the rating led to, and the state to
/// keep.
#[derive(Serialize)]
pub(crate) struct RateReply {
    state: String,
    #[serde(flatten)]
    rated: RatedShown,
}

/// Not a rating (asked again); the card's new box and due date, with the
/// review-log line when stamped, then the next card; or the review
/// stopped.
#[derive(Serialize)]
#[serde(untagged)]
enum RatedShown {
    NotARating {
        not_a_rating_text: String,
    },
    Scheduled {
        #[serde(flatten)]
        card: Card,
        scheduled: CardState,
        scheduled_text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        review_line: Option<String>,
    },
    Stopped(Card),
}

/// Rates the current card and moves to the next.
pub(crate) fn rate(a: &ReplyReq) -> Result<RateReply, String> {
    with_session(&FLASH, "no review is running", |r| {
        let front = r.front();
        let rated = match r
            .rate(&a.reply, a.stamp.as_ref().map_or(0, |s| s.time))
            .map_err(|e| e.to_string())?
        {
            Rated::NotARating(n) => RatedShown::NotARating {
                not_a_rating_text: view::flash::not_a_rating(&n),
            },
            Rated::Scheduled(next) => {
                let review_line = match (&a.stamp, &front, Rating::parse(&a.reply)) {
                    (Some(st), Some(f), Some(rating)) => st.line(|who, day, time| {
                        Some(flash_review(&f.id, &f.tags, rating, who, day, time))
                    })?,
                    _ => None,
                };
                RatedShown::Scheduled {
                    card: card(r),
                    scheduled_text: view::flash::scheduled(&next, &STYLE),
                    scheduled: next,
                    review_line,
                }
            }
            Rated::Stopped => RatedShown::Stopped(card(r)),
        };
        Ok(RateReply {
            state: state_text(r.state()),
            rated,
        })
    })
}

/// An imported state file: its text as the page will keep it, and what
/// had to be dropped.
#[derive(Serialize)]
pub(crate) struct Imported {
    state: String,
    warnings: Vec<String>,
}

/// Reads an imported state file. A damaged file is refused (the kept
/// state stays).
pub(crate) fn import(a: &ImportReq) -> Result<Imported, String> {
    let deck = format!("ch{CHAPTER}");
    let (state, dropped) = match read_state(a.text.as_bytes(), &deck) {
        StateRead::Whole(state) => (state, Vec::new()),
        StateRead::Partly { state, dropped } => (state, dropped),
        StateRead::Damaged { problem, .. } => {
            return Err(format!(
                "{}: not a review state ({problem}); nothing imported",
                a.name
            ));
        }
    };
    let warnings = dropped
        .iter()
        .map(|m| format!("{}: ignoring a bad entry: {m}", a.name))
        .collect();
    Ok(Imported {
        state: state_text(&state),
        warnings,
    })
}
