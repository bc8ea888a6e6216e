//! `course grade`: one input and submission, or a student or class folder.

use std::path::{Path, PathBuf};

use clap::ValueEnum;

use course::api;
use course::host::class::Mode;
use course::view::grade::{self as grade_view, Grades, Roster};

use super::{print, print_json, read_file, CliError, CmdResult, Ctx};

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum GradeFormat {
    Text,
    Json,
    /// A gradebook: one row per student, a total and a column per input.
    Csv,
    /// One row per student and input.
    CsvLong,
    /// Gradescope's results.json (for a class folder an export keyed by
    /// student, for the grader's records).
    Gradescope,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  course grade labs/ch23-sched/inputs/running.txt out/running.sched\n  course grade --lab ch23-sched submissions/alice/\n  course grade --lab ch23-sched submissions/ --format gradescope > results.json\n  course grade --lab ch23-sched submissions/ --format csv --roster roster.csv > grades.csv\n  course grade --lab ch23-sched submissions/alice --format csv --merge grades.csv > new.csv\n\nA folder with sub-folders and no .sched file at its top is a class; one with .sched files\nand no sub-folder is a student; --class or --student says it when both are there.\nHidden entries and __MACOSX are skipped; symbolic links, FIFOs and devices are never opened.\n\nExit status: 0 every schedule valid, 1 some schedule invalid, 2 nothing could be graded\nor a grading error (a file the grader could not read; the others are still graded)."
)]
pub struct GradeArgs {
    /// INPUT SUBMISSION, or with --lab a student folder (STEM.sched files)
    /// or a class folder (one sub-folder per student).
    #[arg(required = true, num_args = 1..=2, value_parser = clap::value_parser!(PathBuf))]
    pub paths: Vec<PathBuf>,
    /// Grade a whole lab (its inputs are built in, or read from --course-dir).
    #[arg(long, value_name = "NAME")]
    pub lab: Option<String>,
    #[arg(long, value_enum, default_value_t = GradeFormat::Text)]
    pub format: GradeFormat,
    /// The folder is one student's (with --lab).
    #[arg(long, conflicts_with = "class")]
    pub student: bool,
    /// The folder is a class: one sub-folder per student (with --lab).
    #[arg(long)]
    pub class: bool,
    /// A roster CSV with a header `folder,id,email`: ids and e-mails for
    /// the gradebook (--format csv).
    #[arg(long, value_name = "FILE", value_parser = clap::value_parser!(PathBuf))]
    pub roster: Option<PathBuf>,
    /// Merge the graded students' rows into this gradebook CSV (made with
    /// --format csv) and print the whole gradebook.
    #[arg(long, value_name = "FILE", value_parser = clap::value_parser!(PathBuf))]
    pub merge: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunOpts,
}

/// Running students' schedulers (`--run` and its limits).
#[derive(clap::Args, Debug, Clone)]
pub struct RunOpts {
    /// Run each student's scheduler on every lab input (and the hidden
    /// ones) and grade what it prints: 'CMD ARG… {input}', split into words
    /// at spaces ('…' and "…" group; no shell), {input} replaced by the
    /// input file's path (without it the input comes on standard input).
    #[arg(long, value_name = "CMD")]
    pub run: Option<String>,
    /// With --run: this many hidden inputs generated from the secret seed.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "run")]
    pub hidden: usize,
    /// With --hidden: a file holding the instructor's secret seed (any
    /// text; COURSE_SECRET_SEED may hold it instead). It is never printed.
    #[arg(long, value_name = "FILE", requires = "run", value_parser = clap::value_parser!(PathBuf))]
    pub secret_seed_file: Option<PathBuf>,
    /// With --run: seconds allowed per input.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, requires = "run")]
    pub time_limit: f64,
    /// With --run: KiB of output read per input.
    #[arg(long, value_name = "KIB", default_value_t = 1024, requires = "run")]
    pub output_limit: u64,
}

/// The `--run` request of `args`, if any.
pub fn run_request(args: &RunOpts) -> Result<Option<api::grade::RunRequest>, CliError> {
    let Some(cmd) = &args.run else {
        return Ok(None);
    };
    let words =
        course::host::run::split_command(cmd).map_err(|e| CliError(format!("--run: {e}")))?;
    if !(args.time_limit > 0.0 && args.time_limit <= 3600.0) {
        return Err(CliError("--time-limit: between 0 and 3600 seconds".into()));
    }
    let secret = match &args.secret_seed_file {
        Some(p) => Some(read_file(&path_arg(p))?),
        None => std::env::var("COURSE_SECRET_SEED").ok(),
    };
    Ok(Some(api::grade::RunRequest {
        spec: course::host::run::RunSpec {
            words,
            time_limit: std::time::Duration::from_secs_f64(args.time_limit),
            output_limit: args.output_limit.clamp(1, 1 << 20) << 10,
        },
        hidden: args.hidden,
        secret,
    }))
}

/// `path` as `read_file` takes it.
pub fn path_arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

pub fn run(ctx: &Ctx, args: &GradeArgs) -> CmdResult {
    let mode = match (args.student, args.class) {
        (true, _) => Mode::Student,
        (_, true) => Mode::Class,
        _ => Mode::Detect,
    };
    if (args.roster.is_some() || args.merge.is_some()) && args.format != GradeFormat::Csv {
        return Err(CliError(
            "--roster and --merge make a gradebook: add --format csv".into(),
        ));
    }
    match (&args.lab, args.paths.as_slice()) {
        (Some(lab), [dir]) => {
            let g = match run_request(&args.run)? {
                Some(req) => api::grade::run_lab(&ctx.source, lab, dir, mode, &req)?,
                None => api::grade::lab(&ctx.source, lab, dir, mode)?,
            };
            report(ctx, args, &g)
        }
        (None, [input, submission]) => {
            if args.student || args.class || args.run.run.is_some() {
                return Err(CliError(
                    "--student, --class and --run go with --lab".into(),
                ));
            }
            let input = path_arg(input);
            let text = read_file(&input)?;
            let g = api::grade::input(&text, &input, submission, &ctx.machine)?;
            match args.format {
                GradeFormat::Json => {
                    print_json(&g);
                    Ok(exit_code(g.grades()))
                }
                _ => report(ctx, args, g.grades()),
            }
        }
        (Some(_), _) => Err(CliError(
            "with --lab give one folder: course grade --lab ch23-sched DIR".into(),
        )),
        (None, _) => Err(CliError("give INPUT SUBMISSION, or --lab NAME DIR".into())),
    }
}

/// Prints the report in the asked format, the notes and grading errors on
/// standard error; the exit code.
pub fn report(ctx: &Ctx, args: &GradeArgs, g: &Grades) -> CmdResult {
    match args.format {
        GradeFormat::Text => print(&super::paint(ctx, &grade_view::text(g))),
        GradeFormat::Json => print_json(g),
        GradeFormat::CsvLong => print(&grade_view::csv_long(g)),
        GradeFormat::Gradescope => print_json(&grade_view::gradescope(g)),
        GradeFormat::Csv => {
            let roster = match &args.roster {
                Some(p) => {
                    let p = path_arg(p);
                    Some(Roster::parse(&read_file(&p)?, &p)?)
                }
                None => None,
            };
            let rows = grade_view::csv(g, roster.as_ref());
            match &args.merge {
                Some(p) => {
                    let p = path_arg(p);
                    print(&grade_view::merge_csv(&read_file(&p)?, &p, &rows)?)
                }
                None => print(&rows),
            }
        }
    }
    for n in &g.notes {
        eprintln!("course: note: {n}");
    }
    Ok(exit_code(g))
}

/// 2 when the grader could not read something (every grading error is
/// named on standard error), else 0 when every schedule is valid, else 1.
fn exit_code(g: &Grades) -> u8 {
    let errors = g.grading_errors();
    for e in &errors {
        eprintln!("course: grading error: {e}");
    }
    if !errors.is_empty() {
        2
    } else if g.valid() {
        0
    } else {
        1
    }
}
