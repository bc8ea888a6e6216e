//! The text of `course autograder`'s results: what went into a
//! [`Bundle`], and what a run of `run_autograder` did (an [`Outcome`]: its
//! standard output, which Gradescope shows to instructors only).

use std::fmt::Write as _;

use crate::api::autograder::{Bundle, Outcome};

/// The bundle's files and the next steps.
pub fn bundle_text(b: &Bundle) -> String {
    let mut s = format!("wrote {} (lab {}):\n", b.out, b.lab);
    for f in &b.files {
        let _ = writeln!(s, "  {:>4}  {:>10} bytes  {}", f.mode, f.bytes, f.name);
    }
    s.push_str(
        "Upload it on Gradescope: the assignment's Configure Autograder page, Zip file upload,\nthen Update Autograder; a test submission shows what students will see.\n",
    );
    s
}

/// The log of one graded submission.
pub fn outcome_text(o: &Outcome) -> String {
    let mut s = String::new();
    for l in &o.log {
        let _ = writeln!(s, "{l}");
    }
    let max: f64 = o.results.tests.iter().map(|t| t.max_score).sum();
    let _ = writeln!(s, "score {}/{max}", o.results.score);
    for t in &o.results.tests {
        let _ = writeln!(s, "  {} {}/{} {}", t.name, t.score, t.max_score, t.status);
    }
    match &o.written {
        Ok(p) => {
            let _ = writeln!(s, "wrote {p}");
        }
        Err(e) => {
            let _ = writeln!(s, "could not write the results: {e}");
        }
    }
    s
}
