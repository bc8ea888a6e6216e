//! `course flash`: flashcards with Leitner-box spaced repetition; the review
//! state is saved atomically after every card.

use std::io;
use std::path::PathBuf;

use course::content::flash::{self, Card, Date, Deck, Rating, State};

use super::quiz::read_line;
use super::{print, read_file, CliError, CmdResult, Ctx};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Each card shows its front; press Enter to see the back, then say how it went:
again (0), hard (1), good (2) or easy (3); q stops. Scheduling uses five Leitner
boxes with intervals of 1, 2, 4, 8 and 16 days: again sends a card to box 1 (due
today), hard keeps its box (half the interval), good moves it up one box, easy two.
New cards are due at once. Due cards come first, most overdue first.

The state is saved after every card, atomically, in --state FILE or by default in
$XDG_DATA_HOME/course/flash-<chapter>.json (~/.local/share/course/...). A damaged
state file is moved aside to FILE.corrupt-<time> and reviewing starts fresh; cards
that left the deck keep their saved progress.

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
    /// Pretend today is this day (YYYY-MM-DD).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub today: Option<String>,
    /// Validate a deck (default: the chapter's) and report mistakes.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    pub check_bank: Option<String>,
}

fn deck_path(chapter: u32) -> String {
    format!("quizzes/ch{chapter}-flash.yaml")
}

fn origin(ctx: &Ctx, path: &str) -> String {
    match &ctx.source {
        course::content::data::Source::Dir(d) => d.join(path).display().to_string(),
        course::content::data::Source::Embedded => path.to_string(),
    }
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// `20260102T134501Z`: the suffix of a moved-aside state file.
fn stamp(secs: i64) -> String {
    let d = Date::from_unix(secs);
    let (y, m, day) = d.ymd();
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}{m:02}{day:02}T{:02}{:02}{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

pub fn run(ctx: &Ctx, args: &FlashArgs) -> CmdResult {
    if let Some(file) = &args.check_bank {
        let (text, origin) = if file.is_empty() {
            let path = deck_path(args.chapter.unwrap_or(23));
            (
                ctx.source.read(&path).map_err(CliError)?,
                origin(ctx, &path),
            )
        } else {
            (read_file(file)?, file.clone())
        };
        return match Deck::parse(&text, &origin) {
            Ok(d) => {
                print(&format!(
                    "{origin}: ok, {} cards, tags: {}\n",
                    d.cards.len(),
                    d.tags().join(", ")
                ));
                Ok(0)
            }
            Err(e) => {
                print(&format!("{e}\n{origin}: {} mistake(s)\n", e.0.len()));
                Ok(1)
            }
        };
    }
    let chapter = args
        .chapter
        .ok_or_else(|| CliError("which chapter? e.g. `course flash 23` (see --help)".into()))?;
    let path = deck_path(chapter);
    let text = ctx.source.read(&path).map_err(|e| match ctx.source {
        course::content::data::Source::Embedded => CliError(format!(
            "no flashcards for chapter {chapter} (available: 23)"
        )),
        _ => CliError(e),
    })?;
    let deck = Deck::parse(&text, &origin(ctx, &path))
        .map_err(|e| CliError(format!("invalid deck:\n{e}")))?;
    let today = match &args.today {
        Some(t) => Date::parse(t)
            .ok_or_else(|| CliError(format!("--today {t}: expected a date YYYY-MM-DD")))?,
        None => Date::from_unix(now_secs()),
    };
    let selected = deck.select(&args.tag).map_err(CliError)?;
    let state_path = match &args.state {
        Some(p) => p.clone(),
        None => flash::default_state_path(|k| std::env::var(k).ok(), chapter).ok_or_else(|| {
            CliError("no data folder (HOME and XDG_DATA_HOME are unset); use --state FILE".into())
        })?,
    };
    let loaded = flash::load_state(&state_path, &format!("ch{chapter}"), &stamp(now_secs()))?;
    for w in &loaded.warnings {
        eprintln!("course: warning: {w}");
    }
    let mut state = loaded.state;
    if loaded.backup.is_some() {
        // Keep what was recovered even if this run reviews nothing.
        flash::save_state(&state_path, &state)?;
    }
    if args.list {
        print(&list(&selected, &state, today));
        return Ok(0);
    }
    let order = state.order(&selected, today, args.all);
    if order.is_empty() {
        let next = selected
            .iter()
            .filter_map(|c| state.cards.get(&c.id).and_then(|s| s.due_date()))
            .min();
        let when = next.map_or(String::new(), |d| format!("; the next card is due {d}"));
        print(&format!(
            "Nothing is due on {today}{when}. Use --all to review anyway.\n"
        ));
        return Ok(0);
    }
    let due = order.iter().filter(|c| state.is_due(&c.id, today)).count();
    print(&format!(
        "Flashcards {chapter}: {} card(s) to review ({due} due on {today}); state: {}\n\n",
        order.len(),
        state_path.display()
    ));
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut reviewed = 0;
    'cards: for (i, card) in order.iter().enumerate() {
        let status = match state.cards.get(&card.id) {
            None => "new".to_string(),
            Some(s) => format!("box {}, due {}", s.leitner_box, s.due),
        };
        print(&format!(
            "[{}/{}] {} ({}) - {status}\nQ: {}\n(Enter shows the answer) ",
            i + 1,
            order.len(),
            card.id,
            card.tags.join(", "),
            indent(&card.front)
        ));
        match read_line(&mut input) {
            None => {
                print("\n");
                break;
            }
            Some(l) if l.trim() == "q" => break,
            Some(_) => {}
        }
        print(&format!("A: {}\n", indent(&card.back)));
        let rating = loop {
            print("How did it go? again/hard/good/easy (0-3, q stops): ");
            let Some(line) = read_line(&mut input) else {
                print("\n");
                break 'cards;
            };
            if line.trim() == "q" {
                break 'cards;
            }
            match Rating::parse(&line) {
                Some(r) => break r,
                None => print(&format!("`{}` is not a rating.\n", line.trim())),
            }
        };
        let next = flash::schedule(state.cards.get(&card.id), rating, today);
        print(&format!(
            "-> box {}, next review {}\n\n",
            next.leitner_box, next.due
        ));
        state.cards.insert(card.id.clone(), next);
        flash::save_state(&state_path, &state)?;
        reviewed += 1;
    }
    let left = selected
        .iter()
        .filter(|c| state.is_due(&c.id, today))
        .count();
    print(&format!(
        "Reviewed {reviewed} card(s); {left} still due on {today}.\n"
    ));
    Ok(0)
}

fn indent(s: &str) -> String {
    s.lines().collect::<Vec<_>>().join("\n   ")
}

fn list(cards: &[&Card], state: &State, today: Date) -> String {
    let mut s = String::new();
    for c in cards {
        let (b, due) = match state.cards.get(&c.id) {
            Some(cs) => (cs.leitner_box.to_string(), cs.due.clone()),
            None => ("-".into(), "new".into()),
        };
        let mark = if state.is_due(&c.id, today) { "*" } else { " " };
        s += &format!(
            "{mark} {:<24} box {b:<2} due {due:<10} {}\n",
            c.id,
            c.tags.join(",")
        );
    }
    let due = cards.iter().filter(|c| state.is_due(&c.id, today)).count();
    s + &format!("{} cards, {due} due on {today} (*)\n", cards.len())
}
