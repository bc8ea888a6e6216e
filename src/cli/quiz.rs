//! `course quiz`: the chapter quiz at a terminal, from piped input, or
//! graded from an answer file; `--check-bank` validates a question bank.

use std::io::{self, BufRead};

use clap::ValueEnum;

use course::content::quiz::{self, Bank, Instance, Outcome, Status};

use super::{print, print_json, read_file, CliError, CmdResult, Ctx};

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum QuizFormat {
    #[default]
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Interactive: each question is shown, you type an answer and press Enter, and you see
right/wrong with an explanation; the score comes at the end. Numbers may be written
2.5 or 5/2; sets as {0, 2} in any order ({} when empty); choices by letter or text.
An answer that cannot be read (\"abc\" for a number) is said and asked once more; a
second unreadable answer counts as a format error (no credit). End of input stops
the quiz; the remaining questions count as unanswered. The order of the choices and
the generated questions (on the toy machine) depend on the seed, so letters in an
answer file refer to that seed's order; the choice's text works for any seed.

Answer file (--answers): one `id: answer` a line; `#` comments and blank lines are
ignored; an optional `seed: N` line fixes the variant of the generated questions
(else --seed, else 0). Example:
  seed: 7
  find-skl-divider: 8
  forbidden-latencies: {0, 1}
  tables-vs-automaton: a

Exit status: 0 every question right, 1 some not right (or the bank has mistakes
under --check-bank), 2 an error.

Examples:
  course quiz 23
  course quiz 23 --tag llvm-mca --seed 7
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
    /// Instructor view: every question with its answer and explanation.
    #[arg(long)]
    pub reveal: bool,
    /// Grade an answer file (`-` for standard input) instead of asking.
    #[arg(long, value_name = "FILE|-")]
    pub answers: Option<String>,
    /// Validate a question bank (default: the chapter's) and report mistakes.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    pub check_bank: Option<String>,
    /// Output format of --list, --reveal and --answers.
    #[arg(long, value_enum, default_value_t = QuizFormat::Text)]
    pub format: QuizFormat,
}

/// The most bytes one typed answer may have.
const MAX_LINE: usize = 64 << 10;

/// The bank path of a chapter inside the course data.
pub fn bank_path(chapter: u32) -> String {
    format!("quizzes/ch{chapter}.yaml")
}

fn origin(ctx: &Ctx, path: &str) -> String {
    match &ctx.source {
        course::content::data::Source::Dir(d) => d.join(path).display().to_string(),
        course::content::data::Source::Embedded => path.to_string(),
    }
}

fn load_bank(ctx: &Ctx, chapter: u32) -> Result<Bank, CliError> {
    let path = bank_path(chapter);
    let text = ctx.source.read(&path).map_err(|e| match ctx.source {
        course::content::data::Source::Embedded => {
            CliError(format!("no quiz for chapter {chapter} (available: 23)"))
        }
        _ => CliError(e),
    })?;
    Bank::parse(&text, &origin(ctx, &path))
        .map_err(|e| CliError(format!("invalid question bank:\n{e}")))
}

/// A seed for a quiz nobody asked to repeat: the clock, kept short to type.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
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
    if let Some(file) = &args.check_bank {
        return check_bank(ctx, args, file);
    }
    let chapter = args
        .chapter
        .ok_or_else(|| CliError("which chapter? e.g. `course quiz 23` (see --help)".into()))?;
    let bank = load_bank(ctx, chapter)?;
    let selected = bank.select(&args.tag).map_err(CliError)?;
    if selected.is_empty() {
        return Err(CliError("no questions selected".into()));
    }
    if args.list {
        if args.format == QuizFormat::Json {
            let seed = args.seed.unwrap_or(0);
            let insts: Vec<Instance> = selected.iter().map(|q| q.instantiate(seed)).collect();
            let mut v = quiz::instances_json(&insts, seed, false);
            for (q, j) in selected
                .iter()
                .zip(v["questions"].as_array_mut().into_iter().flatten())
            {
                j["generator"] = q.generator.clone().into();
            }
            print_json(&v);
        } else {
            print(&quiz::render_list(&selected));
        }
        return Ok(0);
    }
    if let Some(path) = &args.answers {
        let text = read_file(path)?;
        let known: Vec<&str> = bank.questions.iter().map(|q| q.id.as_str()).collect();
        let file = quiz::parse_answer_file(&text, &known).map_err(|errs| {
            CliError(
                errs.iter()
                    .map(|e| format!("{path}:{}: {}", e.line, e.message))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        })?;
        let seed = match (args.seed, file.seed) {
            (Some(a), Some(b)) if a != b => {
                return Err(CliError(format!(
                    "--seed {a} disagrees with the answer file's `seed: {b}`"
                )))
            }
            (a, b) => a.or(b).unwrap_or(0),
        };
        let insts: Vec<Instance> = selected.iter().map(|q| q.instantiate(seed)).collect();
        let outcomes = quiz::grade_answers(&insts, &file);
        if args.format == QuizFormat::Json {
            print_json(&quiz::results_json(&insts, &outcomes, seed));
        } else {
            print(&quiz::render_results(&insts, &outcomes, seed));
        }
        return Ok(exit_code(&outcomes));
    }
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let insts: Vec<Instance> = selected.iter().map(|q| q.instantiate(seed)).collect();
    if args.reveal {
        if args.format == QuizFormat::Json {
            print_json(&quiz::instances_json(&insts, seed, true));
        } else {
            print(&quiz::render_reveal(&insts, seed));
        }
        return Ok(0);
    }
    if args.format == QuizFormat::Json {
        return Err(CliError(
            "--format json needs --list, --reveal or --answers".into(),
        ));
    }
    interactive(&bank, &insts, seed, chapter)
}

fn exit_code(outcomes: &[Outcome]) -> u8 {
    u8::from(!outcomes.iter().all(|o| o.status == Status::Right))
}

fn interactive(bank: &Bank, insts: &[Instance], seed: u64, chapter: u32) -> CmdResult {
    let title = bank
        .title
        .as_deref()
        .map_or(String::new(), |t| format!(" ({t})"));
    print(&format!(
        "Quiz {chapter}{title}: {} questions, seed {seed} (repeat with --seed {seed}).\n\n",
        insts.len()
    ));
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut outcomes = Vec::new();
    let mut ended = false;
    for (i, inst) in insts.iter().enumerate() {
        if ended {
            outcomes.push(quiz::outcome(inst, None));
            continue;
        }
        print(&quiz::render_question(inst, i + 1, insts.len()));
        let mut tries = 0;
        let o = loop {
            print(&format!("Your answer ({}): ", inst.answer_hint()));
            let Some(line) = read_line(&mut input) else {
                print("\n");
                ended = true;
                break quiz::outcome(inst, None);
            };
            let o = quiz::outcome(inst, Some(&line));
            tries += 1;
            if o.status == Status::FormatError && tries < 2 {
                print(&format!(
                    "Cannot read that: {}. Try once more.\n",
                    o.message
                ));
                continue;
            }
            break o;
        };
        if ended {
            print(&format!(
                "Input ended: {} question(s) left unanswered.\n\n",
                insts.len() - i
            ));
            outcomes.push(o);
            continue;
        }
        print(&quiz::render_feedback(inst, &o));
        print("\n");
        outcomes.push(o);
    }
    print(&format!("{}\n", quiz::summary_line(&outcomes)));
    let missed: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.status != Status::Right)
        .map(|o| o.id.as_str())
        .collect();
    if !missed.is_empty() {
        print(&format!("To review: {}\n", missed.join(", ")));
    }
    Ok(exit_code(&outcomes))
}

fn check_bank(ctx: &Ctx, args: &QuizArgs, file: &str) -> CmdResult {
    let (text, origin) = if file.is_empty() {
        let path = bank_path(args.chapter.unwrap_or(23));
        (
            ctx.source.read(&path).map_err(CliError)?,
            origin(ctx, &path),
        )
    } else {
        (read_file(file)?, file.to_string())
    };
    match Bank::parse(&text, &origin) {
        Ok(b) => {
            let generated = b.questions.iter().filter(|q| q.generator.is_some()).count();
            print(&format!(
                "{origin}: ok, {} questions ({generated} generated), tags: {}\n",
                b.questions.len(),
                b.tags().join(", ")
            ));
            Ok(0)
        }
        Err(e) => {
            print(&format!("{e}\n{origin}: {} mistake(s)\n", e.0.len()));
            Ok(1)
        }
    }
}
