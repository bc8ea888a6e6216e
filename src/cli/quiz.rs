//! `course quiz`: the chapter quiz at a terminal, from piped input, or
//! graded from an answer file; `--check-bank` validates a question bank.
//! Arguments in, one [`course::api::quiz`] call, [`course::view::quiz`] or
//! JSON out.

use std::io::{self, BufRead, IsTerminal};
use std::path::PathBuf;

use clap::ValueEnum;

use course::api::quiz::{self as api, Missed, Reply, Selection, Session};
use course::view::quiz as view;
use course_host::clock;

use super::{CliError, CmdResult, Ctx, print, print_json, read_file};

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum QuizFormat {
    #[default]
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Interactive: each question is shown with the rules its answer is read and
graded by; you type an answer and press Enter, and see right or wrong with an
explanation; the score comes at the end. Numbers may be written 3, 5/2 or 2.5,
a unit word may follow (5 cycles), and each number question states its
tolerance (or that it is exact). Sets: {0, 2}, [0, 2], 0, 2 or 0 2 in any order
({} when empty); ranges such as 0..3 are refused. Bit vectors: offset 0 first,
0101 (no 0b), or the set of the offsets holding 1. Choices by letter (b, B,
b), (b)) or by their text; several as a, c or a c or a; c or a and c or ac, or
as texts separated by ;. Sets and multiple choice earn partial credit
|given ∩ answer| / |given ∪ answer|. An answer that cannot be read (\"abc\" for
a number, {1, 2 for a set) is not graded: it is said why, and the question is
asked again. End of input stops the quiz; the remaining questions count as
unanswered. The order of the choices and the generated questions (on the toy
machine) depend on the seed, so letters in an answer file refer to that seed's
order; a choice's text works for any seed.

The result of an interactive quiz (its seed and the questions not right) is
kept in --state FILE or by default in $XDG_DATA_HOME/course/quiz-<chapter>.json
(~/.local/share/course/..., next to the flashcard state); --missed asks only
those questions again, with the same seed unless --seed is given, and keeps
its own result in turn, so repeating it narrows down to what is still missed.

Answer file (--answers): one `id: answer` a line; `#` comments and blank lines
are ignored; an optional `seed: N` line fixes the variant of the generated
questions (else --seed, else 0). An answer that cannot be read is a format
error at its file:line:column (no credit); every answer that is not right is
shown with its explanation. Example:
  seed: 7
  find-skl-divider: 8
  forbidden-latencies: {0, 1}
  tables-vs-automaton: a

Exit status: 0 every question right, 1 some not right (or the bank has mistakes
under --check-bank), 2 an error.

Examples:
  course quiz 23
  course quiz 23 --tag llvm-mca --seed 7
  course quiz 23 --missed
  course quiz 23 --list
  course quiz 23 --reveal --seed 7
  course quiz 23 --answers mine.txt --format json
  course quiz --check-bank quizzes/ch23.yaml")]
pub struct QuizArgs {
    /// The chapter (23).
    pub chapter: Option<u32>,
    /// Only questions with this tag (repeatable: any of them).
    #[arg(long)]
    pub tag: Vec<String>,
    /// Seed of the generated questions (default: drawn at random and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// List the questions (id, kind, tags) without asking them.
    #[arg(long)]
    pub list: bool,
    /// Instructor view: every question with its answer and explanation
    /// (with --answers: the answers of the questions left blank too).
    #[arg(long)]
    pub reveal: bool,
    /// Grade an answer file (`-` for standard input) instead of asking.
    #[arg(long, value_name = "FILE|-")]
    pub answers: Option<String>,
    /// Validate a question bank (default: the chapter's) and report mistakes.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    pub check_bank: Option<String>,
    /// Ask only the questions not right in the last interactive quiz.
    #[arg(long, conflicts_with_all = ["list", "reveal", "answers", "check_bank"])]
    pub missed: bool,
    /// The file keeping the last result for --missed (default: in the
    /// user's data folder).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Output format of --list, --reveal and --answers.
    #[arg(long, value_enum, default_value_t = QuizFormat::Text)]
    pub format: QuizFormat,
    /// Where each answer of an interactive quiz is logged (`course progress`).
    #[command(flatten)]
    pub log: super::progress::LogArgs,
}

/// The most bytes one typed answer may have.
const MAX_LINE: usize = 64 << 10;

/// What was read from a pipe is written after the prompt, so that a
/// transcript shows each reply on its own line, as a terminal would.
pub fn echo(line: &str) {
    if !io::stdin().is_terminal() {
        print(&format!("{line}\n"));
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes (the rest of a longer line
/// is discarded); `None` at end of input.
pub fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return any.then(|| String::from_utf8_lossy(&buf).into_owned());
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        if done {
            let s = String::from_utf8_lossy(&buf).into_owned();
            return Some(s.trim_end_matches(['\n', '\r']).to_string());
        }
    }
}

pub fn run(ctx: &Ctx, args: &QuizArgs) -> CmdResult {
    let json = args.format == QuizFormat::Json;
    if let Some(file) = &args.check_bank {
        let check = if file.is_empty() {
            api::check_chapter_bank(&ctx.source, args.chapter.unwrap_or(23))?
        } else {
            api::check_bank(&read_file(file)?, file)
        };
        print(&view::bank_check(&check));
        return Ok(u8::from(!check.is_valid()));
    }
    let chapter = args
        .chapter
        .ok_or_else(|| CliError("which chapter? e.g. `course quiz 23` (see --help)".into()))?;
    let sel = Selection {
        source: &ctx.source,
        chapter,
        tags: &args.tag,
    };
    if args.list {
        let l = api::list(sel, args.seed)?;
        print_as(json, &l, view::list);
        return Ok(0);
    }
    if let Some(path) = &args.answers {
        let r = api::grade(sel, &read_file(path)?, path, args.seed, args.reveal)?;
        // Every answered question reaches the review log, as at the prompt.
        let who = args.log.who()?;
        let (day, time) = super::progress::now();
        let reviews: Vec<_> = r
            .summary
            .questions
            .iter()
            .filter(|o| o.status != course_content::quiz::Status::Unanswered)
            .map(|o| course_content::review_log::quiz_review(o, o.kind, &who, day, time))
            .collect();
        args.log.record(&reviews);
        print_as(json, &r, |r| view::results(r, &ctx.style()));
        return Ok(u8::from(!r.summary.all_right));
    }
    if args.reveal {
        let r = api::reveal(sel, args.seed.unwrap_or_else(clock::fresh_seed))?;
        print_as(json, &r, |r| view::reveal(r, &ctx.style()));
        return Ok(0);
    }
    if json {
        return Err(CliError(
            "--format json needs --list, --reveal or --answers".into(),
        ));
    }
    let session = if args.missed {
        let path = api::result_path(args.state.as_deref(), chapter)?;
        match api::missed_session(sel, args.seed, &path)? {
            Missed::Ask(s) => s,
            Missed::Nothing(n) => {
                print(&view::nothing_missed(&n));
                return Ok(0);
            }
        }
    } else {
        api::session(sel, args.seed.unwrap_or_else(clock::fresh_seed))?
    };
    interactive(ctx, args, chapter, session)
}

/// Prints `value` as JSON, or as the text `text` makes of it.
fn print_as<T: serde::Serialize>(json: bool, value: &T, text: impl FnOnce(&T) -> String) {
    if json {
        print_json(value);
    } else {
        print(&text(value));
    }
}

/// Asks the questions of `session` at the terminal (or from a pipe), logs
/// each answer, prints the score and keeps the result for --missed.
fn interactive(ctx: &Ctx, args: &QuizArgs, chapter: u32, mut session: Session) -> CmdResult {
    let who = args.log.who()?;
    let style = ctx.style();
    print(&view::intro(&session.intro(), &style));
    let stdin = io::stdin();
    let mut input = stdin.lock();
    'questions: while let Some(q) = session.question() {
        print(&view::question(&q, &style));
        loop {
            print(&view::answer_prompt(&q));
            let Some(line) = read_line(&mut input) else {
                print("\n");
                print(&view::input_ended(&session.end_of_input()));
                break 'questions;
            };
            echo(&line);
            let reply = if io::stdin().is_terminal() {
                session.reply(&line)
            } else {
                session.reply_piped(&line).map(Reply::Feedback)
            };
            match reply {
                Some(Reply::Retry(r)) => print(&view::retry(&r, &style)),
                Some(Reply::Feedback(f)) => {
                    let (day, time) = super::progress::now();
                    args.log.record(&[course_content::review_log::quiz_review(
                        &f.outcome, q.kind, &who, day, time,
                    )]);
                    print(&view::feedback(&f, &style));
                    break;
                }
                None => break 'questions,
            }
        }
    }
    let summary = session.summary();
    print(&view::summary(&summary, &style));
    // The result is kept for --missed; a quiz is not failed for want of it.
    let kept =
        api::result_path(args.state.as_deref(), chapter).and_then(|p| api::record(&session, &p));
    match kept {
        Ok(last) => {
            let flag = args.state.as_ref().map(|p| p.display().to_string());
            print(&view::kept(&last, flag.as_deref()));
        }
        Err(e) => eprintln!("course: warning: the result is not kept for --missed: {e}"),
    }
    Ok(u8::from(!summary.all_right))
}
