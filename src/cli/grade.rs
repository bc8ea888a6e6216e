//! `course grade`: one input and submission, or a student or class folder.

use std::path::{Path, PathBuf};

use clap::ValueEnum;

use course::api;
use course::api::grade::Grades;
use course::view::grade as grade_view;
use course_host::roster::{Roster, merge_csv};
use course_host::students::Mode;

use super::{CliError, CmdResult, Ctx, print, print_json, read_file};

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
    /// What the class gets wrong (with --lab): per input and over the
    /// class, score histograms, the causes of mistakes with the share of
    /// students who made each, the operations most often misplaced.
    Stats,
    /// The same figures as JSON (what --report writes beside its page).
    StatsJson,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  course grade labs/ch23-sched/inputs/running.txt out/running.sched\n  course grade --lab ch23-sched submissions/alice/\n  course grade --lab ch23-sched submissions/ --format gradescope > results.json\n  course grade --lab ch23-sched submissions/ --format csv --roster roster.csv > grades.csv\n  course grade --lab ch23-sched submissions/alice --format csv --merge grades.csv > new.csv\n\nA folder with sub-folders and no .sched file at its top is a class; one with .sched files\nand no sub-folder is a student; --class or --student says it when both are there.\nHidden entries and __MACOSX are skipped; symbolic links, FIFOs and devices are never opened.\n\nExit status: 0 every schedule valid, 1 some schedule invalid, 2 nothing could be graded\nor a grading error (a file the grader could not read; the others are still graded)."
)]
pub struct GradeArgs {
    /// INPUT SUBMISSION, or with --lab a student folder (STEM.sched files)
    /// or a class folder (one sub-folder per student).
    #[arg(required_unless_present = "check_sandbox", num_args = 1..=2, value_parser = clap::value_parser!(PathBuf))]
    pub paths: Vec<PathBuf>,
    /// Say which sandbox `--run` can use on this machine (and why not the
    /// others), trying each with a run of `true`; grade nothing.
    #[arg(long, conflicts_with_all = ["lab", "run"])]
    pub check_sandbox: bool,
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
    /// Also write what the class gets wrong (as --format stats) as a
    /// self-contained HTML page FILE (charts drawn in SVG, no script, no
    /// network: it opens from file://) and its figures as JSON beside it
    /// (FILE with the extension .json). With --lab.
    #[arg(long, value_name = "FILE", requires = "lab", value_parser = clap::value_parser!(PathBuf))]
    pub report: Option<PathBuf>,
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
    /// With --run: seconds of wall time allowed per input.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, requires = "run")]
    pub time_limit: f64,
    /// With --run: seconds of CPU time per process (default: the time limit).
    #[arg(long, value_name = "SECS", requires = "run")]
    pub cpu_limit: Option<f64>,
    /// With --run: MiB of address space per process.
    #[arg(long, value_name = "MIB", default_value_t = 512, requires = "run")]
    pub memory_limit: u64,
    /// With --run: processes and threads per run.
    #[arg(long, value_name = "N", default_value_t = 64, requires = "run")]
    pub process_limit: u64,
    /// With --run: MiB of the largest file a program may write, and of its
    /// private /tmp and home folder.
    #[arg(long, value_name = "MIB", default_value_t = 16, requires = "run")]
    pub file_limit: u64,
    /// With --run: KiB of output read per input (1 to 1048576).
    #[arg(long, value_name = "KIB", default_value_t = 1024, requires = "run")]
    pub output_limit: u64,
    /// With --run: show hidden inputs' problems one by one (with lines and
    /// labels) in --format json and csv-long: the instructor's full view.
    /// Without it every format names only their kinds.
    #[arg(long, requires = "run")]
    pub reveal_hidden: bool,
    /// With --run: students graded at once (default: the number of cores).
    #[arg(long, value_name = "N", requires = "run")]
    pub jobs: Option<usize>,
    /// With --run: the isolation of the programs. auto: namespaces where
    /// the kernel allows them, else (as root) a separate uid; never none.
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto, requires = "run")]
    pub sandbox: SandboxArg,
    /// With --run: run the programs with the grader's rights (the limits
    /// still hold); the report says so at its top.
    #[arg(long, requires = "run", conflicts_with = "sandbox")]
    pub unsandboxed: bool,
    /// With --run: a folder bound read-only into the sandbox at the same
    /// path (an interpreter outside /usr, say); may be repeated.
    #[arg(long, value_name = "DIR", requires = "run", value_parser = clap::value_parser!(PathBuf))]
    pub sandbox_bind: Vec<PathBuf>,
    /// With --run as root: the first uid the programs run as (job k of
    /// --jobs runs as UID+k).
    #[arg(long, value_name = "UID", default_value_t = course_host::sandbox::DEFAULT_UID_BASE, requires = "run")]
    pub sandbox_uid: u32,
    /// With --run and --jobs above 1 under uid separation on a kernel
    /// without Landlock: grade anyway, knowing that programs running at
    /// the same time can pass data through the folders every user may
    /// write (--check-sandbox lists them).
    #[arg(long, requires = "run")]
    pub sandbox_open_parallel: bool,
}

/// The most students `--run` grades at once (each holds a uid, a
/// staging folder and a thread).
const MAX_JOBS: usize = 256;

/// `--sandbox`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SandboxArg {
    Auto,
    Namespaces,
    Uid,
}

/// The `--run` request of `args`, if any.
pub fn run_request(
    args: &RunOpts,
    course_dir: Option<&Path>,
) -> Result<Option<api::grade::RunRequest>, CliError> {
    let Some(cmd) = &args.run else {
        return Ok(None);
    };
    let words =
        course_host::run::split_command(cmd).map_err(|e| CliError(format!("--run: {e}")))?;
    if !(args.time_limit > 0.0 && args.time_limit <= 3600.0) {
        return Err(CliError("--time-limit: between 0 and 3600 seconds".into()));
    }
    let secret = match &args.secret_seed_file {
        Some(p) => Some(read_file(&path_arg(p))?),
        None => std::env::var("COURSE_SECRET_SEED").ok(),
    };
    if !(1..=1 << 20).contains(&args.output_limit) {
        return Err(CliError(
            "--output-limit: between 1 and 1048576 KiB (a program must be able to print its schedule)".into(),
        ));
    }
    let cpu = args.cpu_limit.unwrap_or(args.time_limit);
    if !(cpu > 0.0 && cpu <= 3600.0) {
        return Err(CliError("--cpu-limit: between 0 and 3600 seconds".into()));
    }
    for (name, v, max) in [
        ("--memory-limit", args.memory_limit, 1 << 20),
        ("--process-limit", args.process_limit, 1 << 16),
        ("--file-limit", args.file_limit, 1 << 20),
    ] {
        if v == 0 || v > max {
            return Err(CliError(format!("{name}: between 1 and {max}")));
        }
    }
    if secret.as_deref().is_some_and(|s| s.trim().is_empty()) {
        return Err(CliError(
            "the secret seed is empty: hidden inputs from an empty secret could be guessed".into(),
        ));
    }
    let mut masks: Vec<PathBuf> = args.secret_seed_file.iter().cloned().collect();
    masks.extend(course_dir.map(Path::to_path_buf));
    let masks = masks
        .into_iter()
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
        .collect();
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS))
    });
    if !(1..=MAX_JOBS).contains(&jobs) {
        return Err(CliError(format!("--jobs: between 1 and {MAX_JOBS}")));
    }
    use course_host::sandbox::{Limits, Wanted};
    Ok(Some(api::grade::RunRequest {
        spec: course_host::run::RunSpec {
            words,
            limits: Limits {
                wall: std::time::Duration::from_secs_f64(args.time_limit),
                cpu: std::time::Duration::from_secs_f64(cpu),
                memory: args.memory_limit << 20,
                processes: args.process_limit,
                file_size: args.file_limit << 20,
                output: args.output_limit << 10,
                disk: (args.file_limit << 20).max(16 << 20),
            },
            wanted: match (args.unsandboxed, args.sandbox) {
                (true, _) => Wanted::Off,
                (_, SandboxArg::Auto) => Wanted::Auto,
                (_, SandboxArg::Namespaces) => Wanted::Namespaces,
                (_, SandboxArg::Uid) => Wanted::Uid,
            },
            binds: args.sandbox_bind.clone(),
            uid_base: args.sandbox_uid,
            open_parallel: args.sandbox_open_parallel,
            jobs,
        },
        hidden: args.hidden,
        secret,
        masks,
    }))
}

/// The `--course-dir` of the run, if any.
pub fn course_dir(ctx: &Ctx) -> Option<&Path> {
    match &ctx.source {
        course_content::data::Source::Dir(d) => Some(d),
        _ => None,
    }
}

/// The limit flags of `args` as `autograder run` takes them again (the
/// bundle's `run_autograder` passes them on).
pub fn limit_args(args: &RunOpts) -> Vec<String> {
    let mut v = vec![
        format!("--time-limit={}", args.time_limit),
        format!("--memory-limit={}", args.memory_limit),
        format!("--process-limit={}", args.process_limit),
        format!("--file-limit={}", args.file_limit),
        format!("--output-limit={}", args.output_limit),
    ];
    if let Some(c) = args.cpu_limit {
        v.push(format!("--cpu-limit={c}"));
    }
    v
}

/// `path` as `read_file` takes it.
pub fn path_arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

pub fn run(ctx: &Ctx, args: &GradeArgs) -> CmdResult {
    if args.check_sandbox {
        let c = api::grade::check_sandbox()?;
        match args.format {
            GradeFormat::Json => print_json(&c),
            _ => print(&grade_view::sandbox_text(&c)),
        }
        return Ok(if c.chosen.is_some() { 0 } else { 2 });
    }
    let mode = match (args.student, args.class) {
        (true, _) => Mode::Student,
        (_, true) => Mode::Class,
        _ => Mode::Detect,
    };
    let stats = matches!(args.format, GradeFormat::Stats | GradeFormat::StatsJson);
    if args.merge.is_some() && args.format != GradeFormat::Csv {
        return Err(CliError(
            "--merge makes a gradebook: add --format csv".into(),
        ));
    }
    if args.roster.is_some() && args.format != GradeFormat::Csv && !stats && args.report.is_none() {
        return Err(CliError(
            "--roster goes with a gradebook (--format csv) or the class report (--report, --format stats)".into(),
        ));
    }
    if stats && args.lab.is_none() {
        return Err(CliError(
            "--format stats and stats-json report on a class: add --lab NAME DIR".into(),
        ));
    }
    let report_to = match &args.report {
        Some(p) => Some(report_paths(p, args.paths.first().map(PathBuf::as_path))?),
        None => None,
    };
    let report_to = report_to.as_ref();
    match (&args.lab, args.paths.as_slice()) {
        (Some(lab), [dir]) => {
            let g = match run_request(&args.run, course_dir(ctx))? {
                Some(req) => api::grade::run_lab(&ctx.source, lab, dir, mode, &req)?,
                None => api::grade::lab(&ctx.source, lab, dir, mode)?,
            };
            report(ctx, args, &g, report_to)
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
                _ => report(ctx, args, g.grades(), report_to),
            }
        }
        (Some(_), _) => Err(CliError(
            "with --lab give one folder: course grade --lab ch23-sched DIR".into(),
        )),
        (None, _) => Err(CliError("give INPUT SUBMISSION, or --lab NAME DIR".into())),
    }
}

/// Prints the report in the asked format, the notes and grading errors on
/// standard error, and writes the class report's page and figures to
/// `report_to` (from [`report_paths`]); the exit code.
fn report(
    ctx: &Ctx,
    args: &GradeArgs,
    g: &Grades,
    report_to: Option<&(PathBuf, PathBuf)>,
) -> CmdResult {
    let full = g;
    let redacted;
    let g = if args.run.reveal_hidden
        || !matches!(args.format, GradeFormat::Json | GradeFormat::CsvLong)
    {
        g
    } else {
        let mut r = g.clone();
        for st in &mut r.students {
            for i in &mut st.inputs {
                course_content::lab::redact_hidden(i);
            }
        }
        redacted = r;
        &redacted
    };
    let roster = match &args.roster {
        Some(p) => {
            let p = path_arg(p);
            Some(Roster::parse(&read_file(&p)?, &p)?)
        }
        None => None,
    };
    // The class report is made from the report as graded: it names a
    // hidden input's kinds of mistakes only.
    let stats = (matches!(args.format, GradeFormat::Stats | GradeFormat::StatsJson)
        || args.report.is_some())
    .then(|| api::grade::class_report(full, roster.as_ref()));
    if let (Some((html, json)), Some(r)) = (report_to, &stats) {
        write_out(html, &course::view::class_report::html(r))?;
        let mut j = serde_json::to_string_pretty(r)
            .map_err(|e| CliError(format!("the class report: {e}")))?;
        j.push('\n');
        write_out(json, &j)?;
    }
    match args.format {
        GradeFormat::Stats | GradeFormat::StatsJson => match &stats {
            Some(r) if args.format == GradeFormat::Stats => {
                print(&course::view::class_report::text(r))
            }
            Some(r) => print_json(r),
            None => {}
        },
        GradeFormat::Text => print(&super::paint(ctx, &grade_view::text(g))),
        GradeFormat::Json => print_json(g),
        GradeFormat::CsvLong => print(&grade_view::csv_long(g)),
        GradeFormat::Gradescope => print_json(&api::grade::gradescope(g, grade_view::feedback)),
        GradeFormat::Csv => {
            let rows = grade_view::csv(g, roster.as_ref());
            match &args.merge {
                Some(p) => {
                    let p = path_arg(p);
                    print(&merge_csv(&read_file(&p)?, &p, &rows)?)
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

/// The page and the JSON file of `--report FILE`: FILE, and FILE with the
/// extension `.json`.
///
/// The page must be named `.html` (or `.htm`), so that a slip of the
/// argument never writes a page over the roster, a gradebook or a
/// submission; neither file may lie inside the class folder `class`
/// being graded (a student's folder is the student's, not the grader's);
/// and FILE.json, when it exists, must be an earlier class report, not a
/// file of another kind that happens to share the name.
fn report_paths(p: &Path, class: Option<&Path>) -> Result<(PathBuf, PathBuf), CliError> {
    let html = p
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if !html {
        return Err(CliError(format!(
            "--report {}: this is the HTML page, and its figures go to FILE.json beside it: give a name such as class.html",
            p.display()
        )));
    }
    if let Some(class) = class {
        // Compared as the file system resolves them (`..`, symbolic links).
        let folder = |x: &Path| {
            let parent = match x.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            parent.canonicalize().ok()
        };
        if let (Some(at), Ok(class)) = (folder(p), class.canonicalize())
            && at.starts_with(&class)
        {
            return Err(CliError(format!(
                "--report {}: inside the class folder {}; write the report outside it",
                p.display(),
                class.display()
            )));
        }
    }
    let json = p.with_extension("json");
    if json.exists() && !is_class_report(&json) {
        return Err(CliError(format!(
            "--report {}: {} exists and is not a class report; move it aside or give another name",
            p.display(),
            json.display()
        )));
    }
    Ok((p.to_path_buf(), json))
}

/// Whether the file at `path` reads as a class report's figures (a JSON
/// object with the report's fields), read up to a bound.
fn is_class_report(path: &Path) -> bool {
    use std::io::Read;
    const MAX: u64 = 256 << 20;
    let mut text = String::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(MAX).read_to_string(&mut text));
    if read.is_err() {
        return false;
    }
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(o)) => ["inputs", "lab", "max_total", "students", "total"]
            .iter()
            .all(|k| o.contains_key(*k)),
        _ => false,
    }
}

/// Writes `text` to `path`, or says why not.
fn write_out(path: &Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|e| CliError(format!("{}: {e}", path.display())))
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
