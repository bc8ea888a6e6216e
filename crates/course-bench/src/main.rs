//! `course-bench`: the scale benchmarks of `course-bench` (the crate) with
//! the counting allocator installed, printed as a table per section (as each
//! completes) or JSON. Whole-process figures time the `course` binary next
//! to this one.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use course_bench::report::section_text;
use course_engine::model::machine::Machine;

/// Counts heap bytes for the in-process peaks (`heap::peak_during`).
#[global_allocator]
static HEAP: course_bench::heap::Counting = course_bench::heap::Counting;

/// Benchmarks of the engine (figures for BENCHMARKS.md).
#[derive(Parser, Debug)]
#[command(
    name = "course-bench",
    version,
    after_help = "Examples:\n  course-bench --quick\n  course-bench --only list-schedule\n  course-bench --only mii-ladder --format json\n  course-bench --only process --exe /tmp/before/target/release/course"
)]
struct Args {
    /// Run only this benchmark: list-schedule, parse, mii, mii-ladder, modulo, exact, hazard, grading, drill-latency, process.
    #[arg(long, value_name = "NAME")]
    only: Option<String>,
    /// Small sizes and single runs (a smoke test, not figures for the record).
    #[arg(long)]
    quick: bool,
    /// The course binary whose whole processes the `process` benchmark
    /// times (default: the `course` next to this program), e.g. a build of
    /// an earlier commit.
    #[arg(long, value_name = "PATH")]
    exe: Option<PathBuf>,
    /// A built-in machine (toy, a named model, or pathological:D).
    #[arg(long, value_name = "NAME", default_value = "toy")]
    machine: String,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            let _ = writeln!(std::io::stderr(), "course-bench: error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// The built-in machine `name`.
fn machine(name: &str) -> Result<Machine, String> {
    if name == "toy" {
        return Ok(Machine::toy());
    }
    if let Some(m) = course_content::family::machine(name) {
        return m;
    }
    match course_content::data::builtin_machine(name) {
        Some(text) => Machine::from_yaml(text, &format!("{name}.yaml")).map_err(|e| e.to_string()),
        None => Err(format!("unknown machine `{name}`: not a built-in machine")),
    }
}

fn run(args: &Args) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot locate this program: {e}"))?;
    let course = me.with_file_name(format!("course{}", std::env::consts::EXE_SUFFIX));
    let measured = args.exe.clone().unwrap_or_else(|| course.clone());
    let m = machine(&args.machine)?;
    let text = args.format == Format::Text;
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    let sections = course_bench::suite::run(
        args.only.as_deref(),
        args.quick,
        &m,
        &course,
        &measured,
        |s| {
            if text && failed.is_none() {
                failed = write!(out, "{}", section_text(s))
                    .and_then(|()| out.flush())
                    .err();
            }
        },
    )?;
    if !text {
        let json = serde_json::to_string_pretty(&sections).map_err(|e| e.to_string())?;
        failed = writeln!(out, "{json}").err();
    }
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("writing the output: {e}"))
        }
        _ => Ok(()),
    }
}
