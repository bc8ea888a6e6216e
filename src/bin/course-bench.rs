//! `course bench`: runs the scale benchmarks of [`course::bench`] and prints
//! their figures as a table per section (as each completes) or JSON.

use super::{print, print_json, CliError, CmdResult, Ctx};
use course::api;
use course::view::bench::section_text;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  course bench --quick\n  course bench --only list-schedule\n  course bench --only mii-ladder --format json\n  course bench --only process --exe /tmp/before/target/release/course"
)]
pub struct BenchArgs {
    /// Run only this benchmark: list-schedule, parse, mii, mii-ladder, modulo, exact, hazard, grading, drill-latency, process.
    #[arg(long, value_name = "NAME")]
    pub only: Option<String>,
    /// Small sizes and single runs (a smoke test, not figures for the record).
    #[arg(long)]
    pub quick: bool,
    /// The course binary whose whole processes the `process` benchmark
    /// times (default: this one), e.g. a build of an earlier commit.
    #[arg(long, value_name = "PATH")]
    pub exe: Option<std::path::PathBuf>,
    #[arg(long, value_enum, default_value_t = BenchFormat::Text)]
    pub format: BenchFormat,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum BenchFormat {
    Text,
    Json,
}

pub fn run(ctx: &Ctx, args: &BenchArgs) -> CmdResult {
    let exe = std::env::current_exe()
        .map_err(|e| CliError(format!("cannot locate the course binary: {e}")))?;
    let text = args.format == BenchFormat::Text;
    let measured = args.exe.clone().unwrap_or_else(|| exe.clone());
    let out = api::bench::run(
        args.only.as_deref(),
        args.quick,
        &ctx.machine,
        &exe,
        &measured,
        |s| {
            if text {
                print(&section_text(s));
            }
        },
    )?;
    if !text {
        print_json(&out);
    }
    Ok(0)
}
