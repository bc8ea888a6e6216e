//! `course mca`: the llvm-mca-style simulation of [`course::engine::mca`].

use super::{print, print_json, read_file, CmdResult, Ctx};
use course::api::mca::{self, Request, Views};
use course::engine::mca::DEFAULT_TIMELINE_ITERATIONS;
use course::view;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  course mca labs/ch23-sched/inputs/mca/div.txt --machine skylake --iterations 1 --timeline\n  course mca labs/ch23-sched/inputs/mca/dot-x86.txt --machine znver4 --iterations 100 --format json\n  course mca labs/ch23-sched/inputs/mca/model.txt --machine skylake --instruction-tables"
)]
pub struct McaArgs {
    /// A lab-format block or loop body (`-` for standard input).
    pub input: String,
    /// How many times the body runs.
    #[arg(long, default_value_t = 100)]
    pub iterations: u64,
    /// Print the timeline view.
    #[arg(long)]
    pub timeline: bool,
    /// Iterations the timeline shows (llvm-mca's -timeline-max-iterations).
    #[arg(long, default_value_t = DEFAULT_TIMELINE_ITERATIONS)]
    pub timeline_max_iterations: u64,
    /// Print the resource pressure views.
    #[arg(long)]
    pub resource_pressure: bool,
    /// Print the instruction info view (resources with ReleaseAtCycles).
    #[arg(long)]
    pub instruction_info: bool,
    /// Print only what the model says about each instruction, without
    /// simulating (llvm-mca's --instruction-tables).
    #[arg(long)]
    pub instruction_tables: bool,
    #[arg(long, value_enum, default_value_t = McaFormat::Text)]
    pub format: McaFormat,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum McaFormat {
    Text,
    Json,
}

pub fn run(ctx: &Ctx, args: &McaArgs) -> CmdResult {
    let text = read_file(&args.input)?;
    if args.instruction_tables {
        let out = mca::tables(&text, &args.input, &ctx.machine)?;
        match args.format {
            McaFormat::Text => print(&view::mca::tables_text(&ctx.machine, &out)),
            McaFormat::Json => print_json(&out),
        }
        return Ok(0);
    }
    let req = Request {
        iterations: args.iterations,
        timeline_iterations: args.timeline_max_iterations,
        views: Views {
            instruction_info: args.instruction_info,
            resource_pressure: args.resource_pressure,
            timeline: args.timeline,
        },
    };
    let out = mca::run(&text, &args.input, &ctx.machine, &req)?;
    match args.format {
        McaFormat::Text => print(&view::mca::text(&out)),
        McaFormat::Json => print_json(&out),
    }
    Ok(0)
}
