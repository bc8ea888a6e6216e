//! Command-line front end: clap structures, turned once into library calls.
//!
//! Exit codes: 0 ok, 1 "the answer is no" (a wrong answer, an infeasible
//! schedule under `--check`, an invalid submission), 2 an error (usage,
//! unreadable or invalid input). A closed pipe is not an error.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use course_content::data::Source;
use course_content::drill::Drill;
use course_engine::model::machine::Machine;

mod autograder;
mod flash;
mod grade;
mod mca;
mod path;
mod progress;
mod quiz;
mod term;
mod worksheet;

/// The most bytes an input, machine or answer file may have.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

#[derive(Parser, Debug)]
#[command(
    name = "course",
    version,
    about = "Drills, quizzes, grading and analysis for Chapter 23: instruction scheduling",
    after_help = "Examples:\n  course drill list-schedule --seed 4 --solution\n  course drill mii --seed 2 --solution\n  course schedule labs/ch23-sched/inputs/running.txt\n  course quiz 23\n  course grade labs/ch23-sched/inputs/running.txt out/running.sched\n  course autograder gradescope --lab ch23-sched --out autograder.zip"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Args, Debug, Clone)]
pub struct Global {
    /// Machine model: a YAML file, or the name of a built-in machine.
    #[arg(long, global = true, value_name = "FILE|NAME", help = machine_help())]
    pub machine: Option<String>,
    /// Read drills, quizzes and labs from this folder instead of the built-in copy.
    #[arg(long, global = true, value_name = "DIR")]
    pub course_dir: Option<PathBuf>,
    /// Colour: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Output formats of the data commands that draw no graph (drill, machine).
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Output formats of the commands that can draw the dependence graph
/// (schedule, analyze): clap refuses `dot` everywhere else.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum GraphFormat {
    #[default]
    Text,
    Json,
    /// Graphviz dependence graph.
    Dot,
}

/// The built-in machine names, as `--help` lists them.
pub fn builtin_machines() -> Vec<&'static str> {
    course_content::data::builtin_machine_names()
}

fn machine_help() -> String {
    format!(
        "Machine model: a YAML file, or a built-in machine: {} (default toy), \
         or pathological:D (1 ≤ D ≤ 64, Lesson 23.1 §5)",
        builtin_machines().join(", ")
    )
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Practice problems with solutions and checking (`course drill list`).
    #[command(
        after_help = "Examples:\n  course drill list\n  course drill list-schedule --seed 4 --solution\n  course drill list-schedule --seed 4 --check my.txt\n  course drill mii --seed 2 --solution --format json"
    )]
    Drill(DrillArgs),
    /// The reference schedule of an input, with its reservation table (and a block's optimum).
    #[command(
        after_help = "Examples:\n  course schedule labs/ch23-sched/inputs/running.txt\n  course schedule loop.txt --format json"
    )]
    Schedule(ScheduleArgs),
    /// Heights, usage, ResMII, RecMII, MII, RThroughput and the Theorem 23.1.12 bound.
    #[command(
        after_help = "Examples:\n  course analyze labs/ch23-sched/inputs/running.txt\n  course analyze loop.txt --format dot | dot -Tpng > g.png"
    )]
    Analyze(InputArgs),
    /// A machine model: reservation tables, forbidden latencies, hazard automata.
    #[command(
        after_help = "Examples:\n  course machine\n  course machine --reverse\n  course machine pathological:6\n  course machine my.yaml --format json"
    )]
    Machine(MachineArgs),
    /// A seeded random block or loop in lab format.
    #[command(
        after_help = "Examples:\n  course gen block --ops 10 --seed 7\n  course gen loop --ops 12 --seed 7 > loop.txt"
    )]
    Gen(GenArgs),
    /// Grade lab submissions (one input, a student folder, or a class folder).
    Grade(grade::GradeArgs),
    /// A Gradescope autograder: build its zip, or run it on a submission.
    Autograder(autograder::AutograderArgs),
    /// The chapter quiz.
    Quiz(quiz::QuizArgs),
    /// Flashcards with spaced repetition.
    Flash(flash::FlashArgs),
    /// An llvm-mca-style simulation of a loop body on a machine model.
    Mca(mca::McaArgs),
    /// Per topic: attempts, right, the mistakes made most and a trend.
    #[command(
        after_help = "Examples:\n  course progress\n  course progress --who ada --format json"
    )]
    Progress(progress::ProgressArgs),
    /// The chapter's path: write the current step's exercise file, or
    /// check it and move on when it is right.
    #[command(
        visible_alias = "start",
        after_help = "Examples:\n  course next\n  course next my-work\n\nThe steps follow Lesson 23.1: forbidden latencies, hazard automata, the\nautomaton, list scheduling, MII, modulo scheduling, RThroughput. A step is done\nwhen its drill is answered right without its solution shown first (the review\nlog says where you are; `course progress` shows it)."
    )]
    Next(path::PathArgs),
    /// `course next` on every save of the current exercise file.
    #[command(after_help = "Examples:\n  course watch\n  course watch my-work")]
    Watch(path::PathArgs),
    /// The next problem to practise, on the weakest topic that is due.
    #[command(after_help = "Examples:\n  course practice\n  course practice --today 2026-01-15")]
    Practice(progress::ProgressArgs),
    /// Printable problem sheets of chosen drills, per seed or per student
    /// of a roster, with the worked solutions apart.
    #[command(
        after_help = "Examples:\n  course worksheet --drill mii --drill list-schedule --seeds 1-3\n  course worksheet --drill mii,modulo --seeds 1,4,7 --format html -o exam.html\n  course worksheet --drill mii --roster class.txt --format html -o class.html\n\nEach problem is what `course drill NAME --seed N` prints, headed by that\ncommand; the solutions follow all the problems (in HTML, from a new page).\nStudent i of a roster (from 0) gets the seed --first-seed + i (default 1)."
    )]
    Worksheet(worksheet::WorksheetArgs),
    /// Shell completions.
    #[command(after_help = "Example:\n  course completions bash > /etc/bash_completion.d/course")]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(clap::Args, Debug)]
pub struct InputArgs {
    /// A lab-format input (`-` for standard input).
    pub input: String,
    #[arg(long, value_enum, default_value_t = GraphFormat::Text)]
    pub format: GraphFormat,
}

#[derive(clap::Args, Debug)]
pub struct ScheduleArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The exact searches' budget, in solver conflicts: for a loop of up to
    /// 100 operations over every II it decides, for a block of up to 200
    /// over every length (0: only the proofs that need no search).
    /// Counted, not timed, so the answer is the same on every machine.
    #[arg(long, value_name = "N", default_value_t = course_engine::engine::modulo::exact::DEFAULT_BUDGET)]
    pub search_budget: u64,
}

#[derive(clap::Args, Debug)]
pub struct MachineArgs {
    /// A machine file or built-in name (default: the --machine, else toy).
    #[arg(id = "machine_spec", value_name = "NAME|FILE")]
    pub spec: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Mirror the tables for a bottom-up scheduler: its reverse hazard automaton.
    #[arg(long)]
    pub reverse: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum GenKind {
    Block,
    Loop,
}

#[derive(clap::Args, Debug)]
pub struct GenArgs {
    #[arg(value_enum)]
    pub kind: GenKind,
    /// Number of operations (default: the drill parameters' range).
    #[arg(long)]
    pub ops: Option<u64>,
    /// Seed (default: drawn at random and printed in the header).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// `course drill NAME`: `list`, or one drill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrillChoice {
    List,
    One(Drill),
}

impl DrillChoice {
    const ALL: [DrillChoice; 8] = [
        DrillChoice::List,
        DrillChoice::One(Drill::ALL[0]),
        DrillChoice::One(Drill::ALL[1]),
        DrillChoice::One(Drill::ALL[2]),
        DrillChoice::One(Drill::ALL[3]),
        DrillChoice::One(Drill::ALL[4]),
        DrillChoice::One(Drill::ALL[5]),
        DrillChoice::One(Drill::ALL[6]),
    ];
}

impl ValueEnum for DrillChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &DrillChoice::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(match self {
            DrillChoice::List => {
                clap::builder::PossibleValue::new("list").help("the drills and what each practises")
            }
            DrillChoice::One(d) => clap::builder::PossibleValue::new(d.name()).help(d.summary()),
        })
    }
}

#[derive(clap::Args, Debug)]
pub struct DrillArgs {
    /// `list`, or a drill name.
    #[arg(value_enum)]
    pub drill: DrillChoice,
    /// Seed of the problem (default: drawn at random and printed; with
    /// --check, the seed in the answer's first line).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Show the solution.
    #[arg(long)]
    pub solution: bool,
    /// Check an answer file (`-` for standard input).
    #[arg(long, value_name = "FILE|-")]
    pub check: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// hazard: these issue attempts instead of a seed, e.g. 'div@4 mul@5 mul@7 mul@8'.
    #[arg(long, value_name = "CLASS@CYCLE…", conflicts_with = "seed")]
    pub events: Option<String>,
    /// Print the problem followed by a hint on the method; repeat for the
    /// next one (`--hint --hint`). Each hint goes one step further without
    /// giving the answer: list-schedule has 3 (the rule, the heights, the
    /// ready set at cycle 0, or with --check where the answer departs),
    /// the other drills 2. With --check the report says `hints used: N`.
    #[arg(long, action = clap::ArgAction::Count)]
    pub hint: u8,
    /// hazard: the trace of Lesson 23.1 §3 (div at 4, mul at 5, 7 and 8).
    #[arg(long, conflicts_with_all = ["seed", "events"])]
    pub lesson: bool,
    /// Where a checked answer is logged (`course progress`).
    #[command(flatten)]
    pub log: progress::LogArgs,
}

/// What every command gets: the machine, the data source, and styling.
pub struct Ctx {
    pub machine: Machine,
    /// The machine as named (`--machine`, `-mcpu`), when named.
    pub machine_name: Option<String>,
    pub source: Source,
    /// Colour codes on (a terminal without NO_COLOR, or `--color always`).
    pub color: bool,
    /// The columns prose is wrapped to: the terminal's, else 80.
    pub width: usize,
}

/// An error that ends the command with exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<T: std::fmt::Display> From<T> for CliError {
    fn from(e: T) -> CliError {
        CliError(e.to_string())
    }
}

/// A command's outcome: the exit code it wants.
pub type CmdResult = Result<u8, CliError>;

pub fn main() -> ExitCode {
    let width = term::width();
    let args = match mca::llvm_spelling(std::env::args_os().collect()) {
        Ok(a) => a,
        Err(CliError(msg)) => {
            let _ = writeln!(io::stderr(), "course: error: {msg}");
            return ExitCode::from(2);
        }
    };
    let parsed = Cli::command()
        .term_width(width)
        .max_term_width(width)
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli, width) {
        Ok(code) => ExitCode::from(code),
        Err(CliError(msg)) => {
            let _ = writeln!(io::stderr(), "course: error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli, width: usize) -> CmdResult {
    course_host::clock::fixed_now().map_err(CliError)?;
    let color = match cli.global.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stdout().is_terminal()
        }
    };
    let source = match &cli.global.course_dir {
        Some(d) => Source::Dir(d.clone()),
        None => Source::Embedded,
    };
    let machine = match (&cli.command, cli.global.machine.as_deref()) {
        // `course machine NAME` names the machine itself; `--machine` too is
        // fine when both say the same.
        (Command::Machine(a), global) => match (a.spec.as_deref(), global) {
            (Some(spec), Some(g)) if spec != g => {
                return Err(CliError(format!(
                    "two machines: `{spec}` and --machine {g}; give one"
                )));
            }
            (spec, g) => load_machine(spec.or(g))?,
        },
        (_, global) => load_machine(global)?,
    };
    let ctx = Ctx {
        machine,
        machine_name: cli.global.machine.clone(),
        source,
        color,
        width,
    };
    match &cli.command {
        Command::Drill(a) => crate::cli::drill(&ctx, a),
        Command::Schedule(a) => schedule(&ctx, a),
        Command::Analyze(a) => analyze(&ctx, a),
        Command::Machine(a) => machine_cmd(&ctx, a),
        Command::Gen(a) => generate(&ctx, a),
        Command::Grade(a) => grade::run(&ctx, a),
        Command::Autograder(a) => autograder::run(&ctx, a),
        Command::Quiz(a) => quiz::run(&ctx, a),
        Command::Flash(a) => flash::run(&ctx, a),
        Command::Mca(a) => mca::run(&ctx, a),
        Command::Progress(a) => progress::progress(a),
        Command::Practice(a) => progress::practice(a),
        Command::Next(a) => path::next(&ctx, a),
        Command::Watch(a) => path::watch(&ctx, a),
        Command::Worksheet(a) => worksheet::run(&ctx, a),
        Command::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "course", &mut buf);
            print(&String::from_utf8_lossy(&buf));
            Ok(0)
        }
    }
}

/// A machine by file path or built-in name. A name that is neither a
/// built-in machine nor a file is refused with the list of built-in ones.
pub fn load_machine(spec: Option<&str>) -> Result<Machine, CliError> {
    match spec {
        None | Some("toy") => Ok(Machine::toy()),
        Some(name) => {
            if let Some(m) = course_content::family::machine(name) {
                return m.map_err(CliError);
            }
            if let Some(text) = course_content::data::builtin_machine(name) {
                return Ok(Machine::from_yaml(text, &format!("{name}.yaml"))?);
            }
            let looks_like_a_path = name.contains(['/', '\\', '.']);
            if !looks_like_a_path && name != "-" && !Path::new(name).exists() {
                return Err(CliError(format!(
                    "unknown machine `{name}`: neither a built-in machine ({}) nor a file \
                     (pathological:D, 1 ≤ D ≤ 64, names the family of Lesson 23.1 §5)",
                    builtin_machines().join(", ")
                )));
            }
            let text = read_file(name)?;
            Ok(Machine::from_yaml(&text, name)?)
        }
    }
}

/// Reads a file (or `-` for stdin) as UTF-8 text, refusing anything larger
/// than [`MAX_FILE_BYTES`].
pub fn read_file(path: &str) -> Result<String, CliError> {
    read_limited(path, MAX_FILE_BYTES)
}

/// Reads at most `limit` bytes; larger files are refused, not truncated.
pub fn read_limited(path: &str, limit: u64) -> Result<String, CliError> {
    use std::io::Read;
    let mut buf = Vec::new();
    let res = if path == "-" {
        io::stdin().lock().take(limit + 1).read_to_end(&mut buf)
    } else {
        match std::fs::File::open(Path::new(path)) {
            Ok(f) => f.take(limit + 1).read_to_end(&mut buf),
            Err(e) => return Err(CliError(format!("{path}: {}", io_reason(&e)))),
        }
    };
    if let Err(e) = res {
        return Err(CliError(format!("{path}: {}", io_reason(&e))));
    }
    if buf.len() as u64 > limit {
        return Err(CliError(format!(
            "{path}: larger than the {} MiB limit",
            limit >> 20
        )));
    }
    let shown = origin(path);
    course_engine::formats::diagnostic::decode_utf8(buf, shown).map_err(|d| CliError(d.to_string()))
}

fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Writes to stdout; a closed pipe ends the process quietly with 0.
pub fn print(s: &str) {
    print_with(|w| std::fmt::Write::write_str(w, s));
}

/// Standard output behind a buffer, as the `fmt::Write` the views write to;
/// the first I/O error is kept for [`print_with`] to report.
pub struct Out {
    w: io::BufWriter<io::StdoutLock<'static>>,
    err: Option<io::Error>,
}

impl std::fmt::Write for Out {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.w.write_all(s.as_bytes()).map_err(|e| {
            self.err = Some(e);
            std::fmt::Error
        })
    }
}

/// Runs `f` on buffered stdout, so text is written as it is produced
/// rather than built whole first; a closed pipe ends the process quietly
/// with 0, any other write error with 2.
pub fn print_with(f: impl FnOnce(&mut Out) -> std::fmt::Result) {
    let mut out = Out {
        w: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        err: None,
    };
    let _ = f(&mut out);
    let flushed = out.w.flush();
    if let Some(e) = out.err.or(flushed.err()) {
        write_failed(&e);
    }
}

/// Ends the process after a failed write to stdout.
fn write_failed(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let _ = writeln!(io::stderr(), "course: error: writing output: {e}");
    std::process::exit(2);
}

/// A report with colour when colour is on ([`course::view::style::paint`]:
/// ✓ and ✗, diff lines, over-capacity cells).
pub fn paint(ctx: &Ctx, s: &str) -> String {
    if ctx.color {
        course::view::style::paint(s)
    } else {
        s.to_string()
    }
}

impl Ctx {
    /// Colour and width for the views that take them.
    pub fn style(&self) -> course::view::style::Style {
        course::view::style::Style {
            color: self.color,
            width: self.width,
        }
    }
}

/// Pretty JSON plus a newline, serialised straight into buffered stdout.
pub fn print_json<T: serde::Serialize + ?Sized>(v: &T) {
    let mut w = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let res = serde_json::to_writer_pretty(&mut w, v)
        .map_err(io::Error::from)
        .and_then(|()| w.write_all(b"\n"))
        .and_then(|()| w.flush());
    if let Err(e) = res {
        write_failed(&e);
    }
}

mod commands;
pub use commands::*;
