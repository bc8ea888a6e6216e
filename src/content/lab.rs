//! Grading lab submissions (product.md §8): one input, a student folder, or
//! a class folder, with text, JSON, CSV and Gradescope reports.
//!
//! For each input the hard checks of [`crate::engine::check`] (parse, completeness,
//! every dependence, Alg 23.1.4 feasibility — modulo II for loops) gate all
//! credit. A valid schedule earns [`HARD_SHARE`] of the input's points, and
//! the rest scales with quality: `reference / achieved` of the schedule
//! length (blocks) or II (loops), capped at 1, so matching or beating the
//! reference scheduler earns everything.
//!
//! Submissions are untrusted: files are read with a byte limit, invalid
//! UTF-8 is a format error, and nothing is sized by a submitted number.

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};
use similar::TextDiff;

use crate::content::data::Source;
use crate::engine::check::{self, Violation, ViolationKind};
use crate::engine::mii;
use crate::engine::modulo;
use crate::engine::sched;
use crate::model::ids::Cycle;
use crate::model::machine::Machine;
use crate::model::program::{self, Kind, Program};
use crate::view::report;

/// The largest submission file that is read (1 MiB).
pub const MAX_SUBMISSION_BYTES: u64 = 1 << 20;
/// The share of an input's points that a valid schedule earns.
pub const HARD_SHARE: f64 = 0.6;

/// `labs/NAME/lab.yaml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub name: String,
    pub machine: String,
    pub points_per_input: u32,
    pub inputs: Vec<String>,
}

/// One lab input with its reference schedule and lower bound.
#[derive(Clone, Debug)]
pub struct LabInput {
    pub stem: String,
    pub program: Program,
    pub reference: Vec<Cycle>,
    /// The reference II, for loops.
    pub ii: Option<u64>,
    /// The reference's length (blocks) or II (loops).
    pub target: u64,
    /// The lower bound on that figure: max(critical path, ResMII) for blocks,
    /// MII for loops.
    pub bound: u64,
    /// The reference reservation table (for diffs).
    pub table: String,
}

impl LabInput {
    /// Computes the reference schedule of `program`.
    pub fn new(stem: &str, program: Program, m: &Machine) -> LabInput {
        let b = mii::analyze(&program, m);
        let (reference, ii, target, bound) = match program.kind {
            Kind::Block => {
                let s = sched::list_schedule(&program, m);
                let cp = s.heights.iter().copied().max().unwrap_or(0);
                (s.cycles, None, s.length as u64, cp.max(b.res_mii))
            }
            Kind::Loop => {
                let s = modulo::modulo_schedule(&program, m);
                (s.cycles, Some(s.ii), s.ii, b.mii)
            }
        };
        let table = report::reservation_table(&program, m, &reference, ii);
        LabInput {
            stem: stem.to_string(),
            program,
            reference,
            ii,
            target,
            bound,
            table,
        }
    }

    /// The reference in the submission format.
    pub fn reference_text(&self) -> String {
        check::submission_text(&self.program, &self.reference, self.ii)
    }
}

/// A lab: its machine and inputs.
#[derive(Clone, Debug)]
pub struct Lab {
    pub name: String,
    pub machine: Machine,
    pub points: f64,
    pub inputs: Vec<LabInput>,
}

/// Loads `labs/NAME/lab.yaml` and its inputs from `source`.
pub fn load_lab(source: &Source, name: &str) -> Result<Lab, String> {
    let path = format!("labs/{name}/lab.yaml");
    let text = source.read(&path)?;
    let manifest: Manifest = serde_yaml::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let mpath = format!("labs/{name}/machines/{}.yaml", manifest.machine);
    let machine = Machine::from_yaml(&source.read(&mpath)?, &mpath).map_err(|e| e.to_string())?;
    let mut inputs = Vec::new();
    for stem in &manifest.inputs {
        let ipath = format!("labs/{name}/inputs/{stem}.txt");
        let text = source.read(&ipath)?;
        let p = program::parse(&text, &ipath, &machine).map_err(|e| e.to_string())?;
        inputs.push(LabInput::new(stem, p, &machine));
    }
    if inputs.is_empty() {
        return Err(format!("{path}: the lab lists no inputs"));
    }
    Ok(Lab {
        name: manifest.name,
        machine,
        points: f64::from(manifest.points_per_input.max(1)),
        inputs,
    })
}

/// The grade of one submission for one input.
#[derive(Clone, Debug)]
pub struct InputReport {
    pub input: String,
    pub valid: bool,
    pub violations: Vec<Violation>,
    pub score: f64,
    pub max_score: f64,
    /// The submission's length (blocks) or II (loops), when valid.
    pub achieved: Option<u64>,
    pub target: u64,
    pub bound: u64,
    /// Human feedback: the verdict, every violation, the table diff.
    pub feedback: String,
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Grades one submission. `submission` is the file's text, or why it could
/// not be read.
pub fn grade_input(
    lab_input: &LabInput,
    m: &Machine,
    points: f64,
    submission: Result<&str, String>,
) -> InputReport {
    let p = &lab_input.program;
    let (violations, cycles, ii) = match submission {
        Err(why) => (
            vec![Violation {
                kind: ViolationKind::Format,
                message: why,
                line: None,
                op: None,
            }],
            None,
            None,
        ),
        Ok(text) => {
            let r = check::check(p, m, &crate::formats::submission::parse(text, "submission"));
            (r.violations, r.cycles, r.ii)
        }
    };
    let valid = violations.is_empty();
    let achieved = match (valid, &cycles, p.kind) {
        (true, Some(t), Kind::Block) => Some(sched::schedule_length(p, m, t) as u64),
        (true, Some(_), Kind::Loop) => ii,
        _ => None,
    };
    let score = match achieved {
        Some(a) => {
            let quality = (lab_input.target as f64 / a.max(1) as f64).min(1.0);
            round2(points * (HARD_SHARE + (1.0 - HARD_SHARE) * quality))
        }
        None => 0.0,
    };
    let what = if p.kind == Kind::Block {
        "length"
    } else {
        "II"
    };
    let mut fb = String::new();
    match achieved {
        Some(a) => {
            let _ = writeln!(
                fb,
                "{}: valid · {what} {a} (reference {}, lower bound {}) · {score}/{points}",
                lab_input.stem, lab_input.target, lab_input.bound
            );
            if a > lab_input.target {
                let _ = writeln!(
                    fb,
                    "  the reference reaches {what} {}: quality credit {:.0}%",
                    lab_input.target,
                    100.0 * lab_input.target as f64 / a as f64
                );
            }
        }
        None => {
            let _ = writeln!(fb, "{}: INVALID · 0/{points}", lab_input.stem);
            for v in &violations {
                let _ = writeln!(fb, "  ✗ {}: {v}", v.kind.as_str());
            }
        }
    }
    if let Some(t) = &cycles {
        let mine = report::reservation_table(p, m, t, ii.or(lab_input.ii));
        if mine != lab_input.table {
            let diff = TextDiff::from_lines(&mine, &lab_input.table)
                .unified_diff()
                .header("your reservation table", "reference")
                .to_string();
            fb.push_str(&indent(&diff));
        }
    }
    InputReport {
        input: lab_input.stem.clone(),
        valid,
        violations,
        score,
        max_score: points,
        achieved,
        target: lab_input.target,
        bound: lab_input.bound,
        feedback: fb,
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}\n")).collect()
}

/// Reads a submission file with the size limit; why it failed otherwise.
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

/// Every input of the lab graded for one student.
#[derive(Clone, Debug)]
pub struct StudentReport {
    pub student: String,
    pub inputs: Vec<InputReport>,
}

impl StudentReport {
    pub fn score(&self) -> f64 {
        round2(self.inputs.iter().map(|i| i.score).sum())
    }
    pub fn max_score(&self) -> f64 {
        self.inputs.iter().map(|i| i.max_score).sum()
    }
    pub fn valid(&self) -> bool {
        self.inputs.iter().all(|i| i.valid)
    }
}

/// Grades one student folder (one `STEM.sched` per input).
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
    StudentReport {
        student: student.to_string(),
        inputs,
    }
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
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if has_sched {
        return Ok(vec![grade_student(lab, &name(dir), dir)]);
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
        .map(|d| grade_student(lab, &name(d), d))
        .collect())
}

/// The text report.
pub fn text_report(students: &[StudentReport]) -> String {
    let mut s = String::new();
    for st in students {
        let _ = writeln!(s, "== {}: {}/{}", st.student, st.score(), st.max_score());
        for i in &st.inputs {
            s.push_str(&i.feedback);
        }
        s.push('\n');
    }
    s
}

fn input_json(i: &InputReport) -> Value {
    json!({
        "input": i.input,
        "valid": i.valid,
        "violations": i.violations.iter().map(|v| json!({"kind": v.kind.as_str(), "message": v.to_string()})).collect::<Vec<_>>(),
        "score": i.score,
        "max_score": i.max_score,
        "achieved": i.achieved,
        "reference": i.target,
        "lower_bound": i.bound,
    })
}

/// The JSON report: per student, per input `valid`, `violations`, `score`,
/// `max_score`.
pub fn json_report(students: &[StudentReport]) -> Value {
    json!({
        "students": students.iter().map(|st| json!({
            "student": st.student,
            "score": st.score(),
            "max_score": st.max_score(),
            "inputs": st.inputs.iter().map(input_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>()
    })
}

/// One input's report as JSON (single-input mode).
pub fn input_report_json(i: &InputReport) -> Value {
    input_json(i)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"").replace(['\n', '\r'], " "))
    } else {
        s.to_string()
    }
}

/// CSV: one row per student and input.
pub fn csv_report(students: &[StudentReport]) -> String {
    let mut s = String::from("student,input,valid,score,max_score,violations,first_problem\n");
    for st in students {
        for i in &st.inputs {
            let first = i
                .violations
                .first()
                .map(|v| v.to_string())
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{}",
                csv_field(&st.student),
                csv_field(&i.input),
                i.valid,
                i.score,
                i.max_score,
                i.violations.len(),
                csv_field(&first)
            );
        }
    }
    s
}

/// Gradescope's `results.json` for one student.
pub fn gradescope(st: &StudentReport) -> Value {
    json!({
        "score": st.score(),
        "output": format!("{}: {}/{} ({} of {} inputs valid)", st.student, st.score(), st.max_score(),
            st.inputs.iter().filter(|i| i.valid).count(), st.inputs.len()),
        "tests": st.inputs.iter().map(|i| json!({
            "name": i.input,
            "score": i.score,
            "max_score": i.max_score,
            "status": if i.valid { "passed" } else { "failed" },
            "output": i.feedback,
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn running() -> (LabInput, Machine) {
        let m = Machine::toy();
        let p = program::parse(crate::content::data::RUNNING_TXT, "running.txt", &m).unwrap();
        (LabInput::new("running", p, &m), m)
    }

    #[test]
    fn reference_earns_everything_and_bounds_are_right() {
        let (li, m) = running();
        assert_eq!((li.target, li.bound), (10, 9));
        let r = grade_input(&li, &m, 10.0, Ok(&li.reference_text()));
        assert!(r.valid);
        assert_eq!(r.score, 10.0);
        assert!(!r.feedback.contains("---"), "no diff for the reference");
    }

    #[test]
    fn a_valid_but_longer_schedule_gets_partial_quality() {
        let (li, m) = running();
        // Everything one cycle later except c: still valid, length 11.
        let text = "c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 10\n";
        let r = grade_input(&li, &m, 10.0, Ok(text));
        assert!(r.valid);
        assert_eq!(r.achieved, Some(11));
        assert_eq!(r.score, round2(10.0 * (0.6 + 0.4 * 10.0 / 11.0)));
        assert!(r.feedback.contains("+++ reference"));
    }

    #[test]
    fn invalid_gets_zero_and_reasons() {
        let (li, m) = running();
        let r = grade_input(
            &li,
            &m,
            10.0,
            Ok("c 0\na 1\nb 2\ne 3\nf 4\nd 4\ng 5\nh 6\ni 8\nj 9\n"),
        );
        assert!(!r.valid);
        assert_eq!(r.score, 0.0);
        assert!(
            r.feedback.contains("d at 4: mul is taken at cycle 4 by f"),
            "{}",
            r.feedback
        );
        let r = grade_input(&li, &m, 10.0, Err("no submission file x.sched".into()));
        assert!(!r.valid && r.feedback.contains("no submission file"));
    }

    #[test]
    fn csv_quotes() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
