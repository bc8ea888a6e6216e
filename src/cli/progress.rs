//! `course progress` and `course practice`, and the review-log flags the
//! reviewing commands share (`--review-log`, `--who`). Arguments in, one
//! [`course::api::progress`] call, [`course::view::progress`] or JSON out.

use std::path::PathBuf;

use course::api::progress as api;
use course::view::progress as view;
use course_content::flash::Date;
use course_content::review_log::{MAX_WHO, Review, is_who};
use course_host::clock;

use super::{CliError, CmdResult, Format, print, print_json};

/// Where reviews are logged and under which name.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LogArgs {
    /// The review log to append to (default: reviews.log in the user's
    /// data folder, next to the flashcard state).
    #[arg(long, value_name = "FILE")]
    pub review_log: Option<PathBuf>,
    /// The name the review log keeps (default: the login name).
    #[arg(long, value_name = "NAME")]
    pub who: Option<String>,
}

impl LogArgs {
    /// The name to log, refused when a log line cannot hold it.
    pub fn who(&self) -> Result<String, CliError> {
        match &self.who {
            Some(w) if !is_who(w) => Err(CliError(format!(
                "--who {w}: a name of letters, digits, '.', '_', '-', '@' or '+', at most \
                 {MAX_WHO} characters"
            ))),
            w => Ok(api::who(w.as_deref())),
        }
    }

    /// Appends `reviews`; a review that cannot be logged is said on
    /// stderr and does not change the command's outcome.
    pub fn record(&self, reviews: &[Review]) {
        if let Err(e) = api::record(self.review_log.as_deref(), reviews) {
            eprintln!("course: warning: not kept in the review log: {e}");
        }
    }
}

const AFTER: &str = "\
The review log has a line for every drill answer checked (course drill ...
--check), every quiz answer and every flashcard rating: day, Unix time, who,
drill|quiz|flash, the item (DRILL:SEED, question id, card id), the topic,
right|wrong and the kind of mistake (the drill's first mistake, the quiz
question's kind and status, the card's rating). It is
$XDG_DATA_HOME/course/reviews.log (~/.local/share/course/...) unless
--review-log FILE names another; a bad line is reported (file:line:column) and
skipped. Topics: reservation-tables, forbidden-latencies, hazard-automata,
list-scheduling, mii, modulo, rthroughput, machine-model, llvm-mca.

Spacing is the flashcards': each topic is a card rated once a day, good for a
day of right answers only, again for a day of wrong ones only, hard (the box
kept) for a day with both; so a topic right day after day waits 2, 4, 8, 16
days and one got wrong is due at once. A right answer after its solution was
shown (--solution) counts as wrong; hints and solutions shown are counted.
The log also holds lines for the hints and solutions shown (kinds hints-N and
solution-viewed). practice picks, among the due topics, the one with the
smallest share right in its last 10 reviews (never tried counts as half
right), then the lowest box, then the most overdue, and prints the command for
a problem not tried yet: a drill and seed, or the quiz on the topics no drill
practises. The same log and day give the same pick. `course next` follows one
path through the chapter instead, and progress shows where you are on it.";

#[derive(clap::Args, Debug)]
#[command(after_help = AFTER)]
pub struct ProgressArgs {
    /// The review log to read (default: reviews.log in the user's data
    /// folder).
    #[arg(long, value_name = "FILE")]
    pub review_log: Option<PathBuf>,
    /// Only this name's reviews (default: every review in the log).
    #[arg(long, value_name = "NAME")]
    pub who: Option<String>,
    /// Pretend today is this day (YYYY-MM-DD; default: the local date).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub today: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl ProgressArgs {
    /// `--today`, else today on the clock.
    fn today(&self) -> Result<Date, CliError> {
        match &self.today {
            Some(t) => Date::parse(t)
                .ok_or_else(|| CliError(format!("--today {t}: expected a date YYYY-MM-DD"))),
            None => Ok(now().0),
        }
    }
}

/// The day and time a review made now is logged with: the one place the
/// commands read the clock (`COURSE_NOW` fixes it, for tests); the library
/// takes both as arguments.
pub fn now() -> (Date, i64) {
    let t = clock::now_secs();
    (clock::today(t), t)
}

fn warn(warnings: &[String]) {
    for w in warnings {
        eprintln!("course: warning: {w}");
    }
}

/// `course progress`.
pub fn progress(a: &ProgressArgs) -> CmdResult {
    let r = api::progress(a.review_log.as_deref(), a.who.as_deref(), a.today()?)?;
    warn(&r.warnings);
    match a.format {
        Format::Json => print_json(&r.value),
        Format::Text => print(&view::progress_text(&r.value)),
    }
    Ok(0)
}

/// `course practice`.
pub fn practice(a: &ProgressArgs) -> CmdResult {
    let r = api::practice(a.review_log.as_deref(), a.who.as_deref(), a.today()?)?;
    warn(&r.warnings);
    match a.format {
        Format::Json => print_json(&r.value),
        Format::Text => print(&view::practice_text(&r.value)),
    }
    Ok(0)
}
