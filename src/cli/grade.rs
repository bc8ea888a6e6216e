//! `course grade`: one input and submission, or a student or class folder.

use std::path::Path;

use clap::ValueEnum;

use course::api;
use course::view::grade::{self as grade_view, Grades};

use super::{print, print_json, read_file, CliError, CmdResult, Ctx};

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum GradeFormat {
    Text,
    Json,
    Csv,
    /// Gradescope's results.json (an object per student for a class folder).
    Gradescope,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  course grade labs/ch23-sched/inputs/running.txt out/running.sched\n  course grade --lab ch23-sched submissions/alice/\n  course grade --lab ch23-sched submissions/ --format gradescope > results.json\n  course grade --lab ch23-sched submissions/ --format csv > grades.csv\n\nExit status: 0 every schedule valid, 1 some schedule invalid, 2 nothing could be graded."
)]
pub struct GradeArgs {
    /// INPUT SUBMISSION, or with --lab a student folder (STEM.sched files)
    /// or a class folder (one sub-folder per student).
    #[arg(required = true, num_args = 1..=2)]
    pub paths: Vec<String>,
    /// Grade a whole lab (its inputs are built in, or read from --course-dir).
    #[arg(long, value_name = "NAME")]
    pub lab: Option<String>,
    #[arg(long, value_enum, default_value_t = GradeFormat::Text)]
    pub format: GradeFormat,
}

pub fn run(ctx: &Ctx, args: &GradeArgs) -> CmdResult {
    match (&args.lab, args.paths.as_slice()) {
        (Some(lab), [dir]) => {
            let g = api::grade::lab(&ctx.source, lab, Path::new(dir))?;
            match args.format {
                GradeFormat::Json => print_json(&g),
                format => show(ctx, format, &g),
            }
            Ok(exit_code(&g))
        }
        (None, [input, submission]) => {
            let text = read_file(input)?;
            let g = api::grade::input(&text, input, submission, &ctx.machine)?;
            match args.format {
                GradeFormat::Json => print_json(&g),
                format => show(ctx, format, g.grades()),
            }
            Ok(exit_code(g.grades()))
        }
        (Some(_), _) => Err(CliError(
            "with --lab give one folder: course grade --lab ch23-sched DIR".into(),
        )),
        (None, _) => Err(CliError("give INPUT SUBMISSION, or --lab NAME DIR".into())),
    }
}

/// Prints the text, CSV or Gradescope view (or the JSON of every student).
fn show(ctx: &Ctx, format: GradeFormat, g: &Grades) {
    match format {
        GradeFormat::Text => print(&super::paint(ctx, &grade_view::text(g))),
        GradeFormat::Json => print_json(g),
        GradeFormat::Csv => print(&grade_view::csv(g)),
        GradeFormat::Gradescope => print_json(&grade_view::gradescope(g)),
    }
}

/// 0 when every schedule is valid, else 1.
fn exit_code(g: &Grades) -> u8 {
    if g.valid() {
        0
    } else {
        1
    }
}
