//! `course grade`: one submission on one input, or a student or class
//! folder on a whole lab.

use std::path::Path;

use crate::content::data::Source;
use crate::content::lab::{self, Lab, LabInput};
use crate::formats::diagnostic::Diagnostics;
use crate::host::class;
use crate::model::machine::Machine;
use crate::model::program;

pub use crate::view::grade::{Grades, InputGrade};

/// The points of an input graded on its own.
pub const SINGLE_POINTS: f64 = 10.0;

/// Grades the submission file `submission` on the lab-format input
/// `input_text` (named `input` in diagnostics; its file stem names the
/// input). A submission that cannot be read is graded as invalid.
pub fn input(
    input_text: &str,
    input: &str,
    submission: &str,
    m: &Machine,
) -> Result<InputGrade, Diagnostics> {
    let text = class::read_submission(Path::new(submission));
    let student = Path::new(submission)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| submission.to_string());
    grade_one(
        input_text,
        input,
        &student,
        text.as_deref().map_err(String::clone),
        m,
    )
}

/// Grades a submission given as text (`name` is how reports name it, e.g.
/// an uploaded file's name), as [`input`] grades a file: the same limit,
/// checks and feedback.
pub fn input_text(
    input_text: &str,
    input: &str,
    name: &str,
    submission: &str,
    m: &Machine,
) -> Result<InputGrade, Diagnostics> {
    let text = if submission.len() as u64 > class::MAX_SUBMISSION_BYTES {
        Err(format!(
            "{name}: larger than the {} KiB limit; not graded",
            class::MAX_SUBMISSION_BYTES >> 10
        ))
    } else {
        Ok(submission)
    };
    grade_one(input_text, input, name, text, m)
}

fn grade_one(
    input_text: &str,
    input: &str,
    student: &str,
    text: Result<&str, String>,
    m: &Machine,
) -> Result<InputGrade, Diagnostics> {
    let p = program::parse(input_text, input, m)?;
    let stem = Path::new(input)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.name().to_string());
    let li = LabInput::new(&stem, p, m);
    let report = lab::grade_input(&li, m, SINGLE_POINTS, text);
    Ok(InputGrade::new(
        Lab::single(li, m, SINGLE_POINTS),
        student,
        report,
    ))
}

/// Grades a student folder or a class folder on the lab `name` (read from
/// `source`).
pub fn lab(source: &Source, name: &str, dir: &Path) -> Result<Grades, String> {
    let lab = lab::load_lab(source, name)?;
    let students = class::grade_dir(&lab, dir)?;
    Ok(Grades { students, lab })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_submission_is_invalid_and_a_class_folder_is_graded_whole() {
        let m = Machine::toy();
        let g = input(
            crate::content::data::RUNNING_TXT,
            "labs/ch23-sched/inputs/running.txt",
            "/nonexistent/alice.sched",
            &m,
        )
        .unwrap();
        assert_eq!(g.report().input, "running");
        assert!(!g.report().valid);
        assert_eq!(g.grades().students[0].student, "alice.sched");
        let dir = std::env::temp_dir().join(format!("course-api-grade-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bob")).unwrap();
        let graded = lab(&Source::Embedded, "ch23-sched", &dir).unwrap();
        assert_eq!(graded.students.len(), 1);
        assert!(!graded.valid());
        assert!(lab(&Source::Embedded, "no-such-lab", &dir).is_err());
        let text = "c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n";
        let g = input_text(
            crate::content::data::RUNNING_TXT,
            "running.txt",
            "me",
            text,
            &m,
        )
        .unwrap();
        assert!(g.report().valid);
        let big = "#".repeat(2 << 20);
        let g = input_text(
            crate::content::data::RUNNING_TXT,
            "running.txt",
            "me",
            &big,
            &m,
        )
        .unwrap();
        assert!(g.report().violations[0].message.contains("limit"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
