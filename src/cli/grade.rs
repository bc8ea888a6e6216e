//! `course grade`: one input and submission, or a student or class folder.

use std::path::Path;

use clap::ValueEnum;

use course::content::lab::{self as grade, LabInput, StudentReport};
use course::model::program;

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
    let students: Vec<StudentReport> = match (&args.lab, args.paths.as_slice()) {
        (Some(lab), [dir]) => {
            let lab = grade::load_lab(&ctx.source, lab)?;
            grade::grade_dir(&lab, Path::new(dir))?
        }
        (None, [input, submission]) => {
            let text = read_file(input)?;
            let p = program::parse(&text, input, &ctx.machine)?;
            let stem = Path::new(input)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.name.clone());
            let li = LabInput::new(&stem, p, &ctx.machine);
            let sub = grade::read_submission(Path::new(submission));
            let r = grade::grade_input(
                &li,
                &ctx.machine,
                10.0,
                sub.as_deref().map_err(String::clone),
            );
            let student = Path::new(submission)
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| submission.clone());
            vec![StudentReport {
                student,
                inputs: vec![r],
            }]
        }
        (Some(_), _) => {
            return Err(CliError(
                "with --lab give one folder: course grade --lab ch23-sched DIR".into(),
            ))
        }
        (None, _) => return Err(CliError("give INPUT SUBMISSION, or --lab NAME DIR".into())),
    };
    let single = args.lab.is_none();
    match args.format {
        GradeFormat::Text => print(&super::paint(ctx, &grade::text_report(&students))),
        GradeFormat::Json if single => {
            print_json(&grade::input_report_json(&students[0].inputs[0]))
        }
        GradeFormat::Json => print_json(&grade::json_report(&students)),
        GradeFormat::Csv => print(&grade::csv_report(&students)),
        GradeFormat::Gradescope if students.len() == 1 => {
            print_json(&grade::gradescope(&students[0]))
        }
        GradeFormat::Gradescope => {
            let mut map = serde_json::Map::new();
            for st in &students {
                map.insert(st.student.clone(), grade::gradescope(st));
            }
            print_json(&serde_json::Value::Object(map));
        }
    }
    Ok(if students.iter().all(StudentReport::valid) {
        0
    } else {
        1
    })
}
