//! `course autograder gradescope` (build the bundle) and `course autograder
//! run` (what the bundle's `run_autograder` runs).

use std::path::PathBuf;

use clap::Subcommand;

use course::api::autograder::{self, BundleRequest, RunConfig};

use super::grade::{RunOpts, run_request};
use super::{CmdResult, Ctx, print, print_json};

#[derive(clap::Args, Debug)]
pub struct AutograderArgs {
    #[command(subcommand)]
    pub command: AutograderCommand,
}

#[derive(Subcommand, Debug)]
pub enum AutograderCommand {
    /// Build a Gradescope autograder zip: setup.sh, run_autograder and a
    /// static `course`.
    #[command(
        after_help = "Examples:\n  cargo build --profile dist --target x86_64-unknown-linux-musl\n  target/x86_64-unknown-linux-musl/dist/course autograder gradescope --lab ch23-sched --out autograder.zip\n  course autograder gradescope --lab ch23-sched --out autograder.zip --binary path/to/static/course\n  course autograder gradescope --lab ch23-sched --out autograder.zip --run './sched {input}' --hidden 4 --secret-seed-file secret.txt\n\nThe bundled course must be a static x86-64 program (the musl build), so no C library\nversion of Gradescope's image matters. With --course-dir the lab's files go in the bundle."
    )]
    Gradescope(BundleArgs),
    /// Grade ROOT/submission and write ROOT/results/results.json (what
    /// run_autograder does; ROOT is /autograder or $COURSE_AUTOGRADER_ROOT).
    Run(RunArgs),
}

#[derive(clap::Args, Debug)]
pub struct BundleArgs {
    #[arg(long, value_name = "NAME")]
    pub lab: String,
    /// The zip to write.
    #[arg(long, value_name = "FILE.zip", value_parser = clap::value_parser!(PathBuf))]
    pub out: PathBuf,
    /// The static `course` to bundle (default: this program, if static).
    #[arg(long, value_name = "PATH", value_parser = clap::value_parser!(PathBuf))]
    pub binary: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = super::Format::Text)]
    pub format: super::Format,
    #[command(flatten)]
    pub run: RunOpts,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[arg(long, value_name = "NAME")]
    pub lab: String,
    /// The autograder folder (default: $COURSE_AUTOGRADER_ROOT, else /autograder).
    #[arg(long, value_name = "DIR", value_parser = clap::value_parser!(PathBuf))]
    pub root: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunOpts,
}

pub fn run(ctx: &Ctx, args: &AutograderArgs) -> CmdResult {
    match &args.command {
        AutograderCommand::Gradescope(a) => bundle(ctx, a),
        AutograderCommand::Run(a) => grade(ctx, a),
    }
}

fn bundle(ctx: &Ctx, a: &BundleArgs) -> CmdResult {
    // The options are checked (and the secret read) as `autograder run`
    // will take them, so no bundle is made that fails on every submission.
    let run = match (
        &a.run.run,
        run_request(&a.run, super::grade::course_dir(ctx))?,
    ) {
        (Some(command), Some(req)) => Some(RunConfig {
            command: command.clone(),
            hidden: req.hidden,
            secret: req.secret,
            limits: super::grade::limit_args(&a.run),
        }),
        _ => None,
    };
    let b = autograder::gradescope(&BundleRequest {
        source: &ctx.source,
        lab: &a.lab,
        out: &a.out,
        binary: a.binary.as_deref(),
        run,
    })?;
    match a.format {
        super::Format::Json => print_json(&b),
        super::Format::Text => print(&course::view::autograder::bundle_text(&b)),
    }
    Ok(0)
}

fn grade(ctx: &Ctx, a: &RunArgs) -> CmdResult {
    let root = a
        .root
        .clone()
        .unwrap_or_else(course_host::autograder::default_root);
    let req = run_request(&a.run, super::grade::course_dir(ctx))?;
    let o = autograder::run(
        &ctx.source,
        &a.lab,
        &root,
        req.as_ref(),
        course::view::grade::feedback,
    );
    print(&course::view::autograder::outcome_text(&o));
    Ok(if o.written.is_ok() { 0 } else { 2 })
}
