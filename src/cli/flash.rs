//! `course flash`: flashcards with Leitner-box spaced repetition; every
//! rating is appended to the review log and the state saved atomically.
//! Arguments in, one [`course::api::flash`] session, [`course::view::flash`]
//! out.

use std::io;
use std::path::PathBuf;

use course::api::flash::{self as api, Options, Rated};
use course::view::flash as view;
use course_content::flash::Date;

use super::quiz::{echo, read_line};
use super::{CliError, CmdResult, Ctx, print, read_file};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Each card shows its front; press Enter to see the back, then say how it went:
again (0), hard (1), good (2) or easy (3); q stops. Scheduling uses five Leitner
boxes with intervals of 1, 2, 4, 8 and 16 days. A new card counts as box 1;
again puts a card back there (its progress restarts) and brings it back later
in the same session; hard keeps its box (half the interval, at least a day),
good moves it up one box, easy two and waits twice as long as good would. So
hard < good < easy from every box. New cards are due at once. Due cards come
first, most overdue first. \"Today\" is the local date (--today overrides it).

Every rating is appended to a review log (FILE.log: day, Unix time, card,
rating, right|wrong) and the state saved atomically, before the card's new box
is shown, in --state FILE or by default in
$XDG_DATA_HOME/course/flash-<chapter>.json (~/.local/share/course/...). The
state is the replay of the log. Several sessions may share one state file:
each rating locks the file's folder, reads the state and the log again and
applies the rating to that fresh state, so no session loses another's reviews,
even of the same card. A bad log line is reported (file:line:column) and
skipped. A damaged state file is moved aside to
FILE.corrupt-<time> and reviewing starts fresh; cards that left the deck keep
their saved progress. --list only reads: it never writes, moves or locks the
state.

Examples:
  course flash 23
  course flash 23 --tag llvm-mca --all
  course flash 23 --list
  course flash 23 --state my.json --today 2026-01-15
  course flash --check-bank quizzes/ch23-flash.yaml")]
pub struct FlashArgs {
    /// The chapter (23).
    pub chapter: Option<u32>,
    /// Only cards with this tag (repeatable: any of them).
    #[arg(long)]
    pub tag: Vec<String>,
    /// Review every selected card, not only the due ones (due first).
    #[arg(long)]
    pub all: bool,
    /// List the cards with their box and due date.
    #[arg(long)]
    pub list: bool,
    /// The review state file (default: in the user's data folder).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Pretend today is this day (YYYY-MM-DD; default: the local date).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub today: Option<String>,
    /// Validate a deck (default: the chapter's) and report mistakes.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    pub check_bank: Option<String>,
    /// Where each rating is logged too (`course progress`).
    #[command(flatten)]
    pub log: super::progress::LogArgs,
}

pub fn run(ctx: &Ctx, args: &FlashArgs) -> CmdResult {
    if let Some(file) = &args.check_bank {
        let check = if file.is_empty() {
            api::check_chapter_deck(&ctx.source, args.chapter.unwrap_or(23))?
        } else {
            api::check_deck(&read_file(file)?, file)
        };
        print(&view::deck_check(&check));
        return Ok(u8::from(!check.is_valid()));
    }
    let chapter = args
        .chapter
        .ok_or_else(|| CliError("which chapter? e.g. `course flash 23` (see --help)".into()))?;
    let (clock_day, now) = super::progress::now();
    let today = match &args.today {
        Some(t) => Date::parse(t)
            .ok_or_else(|| CliError(format!("--today {t}: expected a date YYYY-MM-DD")))?,
        None => clock_day,
    };
    let opts = Options {
        source: &ctx.source,
        chapter,
        tags: &args.tag,
        state: args.state.as_deref(),
        today,
        now,
    };
    if args.list {
        let l = api::list(opts)?;
        warn(&l.warnings);
        print(&view::list(&l.list));
        return Ok(0);
    }
    let cards = api::open(opts)?;
    warn(cards.warnings());
    let mut review = match cards.review(args.all) {
        Ok(r) => r,
        Err(nothing) => {
            print(&view::nothing_due(&nothing));
            return Ok(0);
        }
    };
    let who = args.log.who()?;
    let style = ctx.style();
    print(&view::start(&review.start(), &style));
    let stdin = io::stdin();
    let mut input = stdin.lock();
    while let Some(front) = review.front() {
        print(&view::front(&front, &style));
        let Some(line) = read_line(&mut input) else {
            print("\n");
            break;
        };
        echo(&line);
        let Some(back) = review.reveal(&line) else {
            break;
        };
        print(&view::back(&back, &style));
        loop {
            print(view::RATING_PROMPT);
            let Some(line) = read_line(&mut input) else {
                print("\n");
                review.stop();
                break;
            };
            echo(&line);
            match review.rate(&line, super::progress::now().1)? {
                Rated::Scheduled(next) => {
                    if let Some(rating) = course_content::flash::Rating::parse(&line) {
                        let (day, time) = super::progress::now();
                        args.log.record(&[course_content::review_log::flash_review(
                            &front.id,
                            &front.tags,
                            rating,
                            &who,
                            day,
                            time,
                        )]);
                    }
                    print(&view::scheduled(&next, &style));
                    break;
                }
                Rated::NotARating(n) => print(&view::not_a_rating(&n)),
                Rated::Stopped => break,
            }
        }
    }
    warn(review.warnings());
    print(&view::end(&review.end()));
    Ok(0)
}

fn warn(warnings: &[String]) {
    for w in warnings {
        eprintln!("course: warning: {w}");
    }
}
