//! Class folders on disk: reading submission files and grading a student
//! folder (one `STEM.sched` per lab input) or a class folder (one folder
//! per student) with [`crate::content::lab`].
//!
//! Submissions are untrusted: files are read with a byte limit, invalid
//! UTF-8 is a format error, and nothing is sized by a submitted number.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::content::lab::{grade_input, Lab, StudentReport};

/// The largest submission file that is read (1 MiB).
pub const MAX_SUBMISSION_BYTES: u64 = 1 << 20;

/// Reads a submission file with the size limit; why it failed otherwise
/// (the grader reports that as a format violation).
pub fn read_submission(path: &Path) -> Result<String, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("no submission file {name}"),
        _ => format!("{name}: {e}"),
    })?;
    let mut buf = Vec::new();
    file.take(MAX_SUBMISSION_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("{name}: {e}"))?;
    if buf.len() as u64 > MAX_SUBMISSION_BYTES {
        return Err(format!(
            "{name}: larger than the {} KiB limit; not graded",
            MAX_SUBMISSION_BYTES >> 10
        ));
    }
    String::from_utf8(buf).map_err(|e| {
        format!(
            "{name}: not a text file (invalid UTF-8 at byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Grades one student folder (one `STEM.sched` per input; a missing file is
/// an invalid submission).
pub fn grade_student(lab: &Lab, student: &str, dir: &Path) -> StudentReport {
    let inputs = lab
        .inputs
        .iter()
        .map(|li| {
            let text = read_submission(&dir.join(format!("{}.sched", li.stem)));
            grade_input(
                li,
                &lab.machine,
                lab.points,
                text.as_deref().map_err(String::clone),
            )
        })
        .collect();
    StudentReport::new(student, inputs)
}

/// Grades a student folder (it holds `.sched` files) or a class folder (one
/// sub-folder per student, sorted by name).
pub fn grade_dir(lab: &Lab, dir: &Path) -> Result<Vec<StudentReport>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut subdirs: Vec<PathBuf> = Vec::new();
    let mut has_sched = false;
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            subdirs.push(path);
        } else if path.extension().is_some_and(|x| x == "sched") {
            has_sched = true;
        }
    }
    if has_sched {
        return Ok(vec![grade_student(lab, &file_name(dir), dir)]);
    }
    if subdirs.is_empty() {
        return Err(format!(
            "{}: neither a student folder (STEM.sched files) nor a class folder (one folder per student)",
            dir.display()
        ));
    }
    subdirs.sort();
    Ok(subdirs
        .iter()
        .map(|d| grade_student(lab, &file_name(d), d))
        .collect())
}

/// The last component of `p`, or "" (for `/`).
pub fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::data::Source;
    use crate::content::lab::load_lab;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("course-host-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn submissions_are_read_with_limits() {
        let d = scratch("read");
        let e = read_submission(&d.join("none.sched")).unwrap_err();
        assert!(e.starts_with("no submission file"), "{e}");
        std::fs::write(d.join("bin.sched"), b"a 0\n\xff").unwrap();
        let e = read_submission(&d.join("bin.sched")).unwrap_err();
        assert!(e.contains("invalid UTF-8 at byte 4"), "{e}");
        std::fs::write(d.join("ok.sched"), "a 0\n").unwrap();
        assert_eq!(read_submission(&d.join("ok.sched")).unwrap(), "a 0\n");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn class_folders_are_graded_per_student_in_name_order() {
        let lab = load_lab(&Source::Embedded, "ch23-sched").unwrap();
        let d = scratch("class");
        for st in ["zoe", "amy"] {
            std::fs::create_dir_all(d.join(st)).unwrap();
        }
        let li = &lab.inputs[0];
        std::fs::write(
            d.join("amy").join(format!("{}.sched", li.stem)),
            li.reference_text(),
        )
        .unwrap();
        let r = grade_dir(&lab, &d).unwrap();
        let names: Vec<&str> = r.iter().map(|s| s.student.as_str()).collect();
        assert_eq!(names, ["amy", "zoe"]);
        assert!(r[0].inputs[0].valid && !r[0].inputs[1].valid);
        assert_eq!(r[0].score, lab.points);
        let one = grade_dir(&lab, &d.join("amy"));
        // A folder with .sched files is one student.
        assert_eq!(one.unwrap()[0].student, "amy");
        assert!(grade_dir(&lab, &d.join("zoe")).is_err());
        let _ = std::fs::remove_dir_all(&d);
    }
}
