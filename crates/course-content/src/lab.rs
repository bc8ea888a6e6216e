//! Grading lab submissions (product.md §8), as pure functions of text: a
//! lab and its inputs with their reference schedules, and the grade of one
//! submission as plain data. Reading submission files and walking student
//! and class folders belong to the host layer (`course_host::students`); feedback
//! text and CSV are views (`view::grade`), and Gradescope's results are
//! built by `api::grade`.
//!
//! For each input the hard checks of [`course_engine::engine::check`] (parse,
//! completeness, every dependence, Algorithm 23.1.4 feasibility — modulo II
//! for loops) gate all credit. A valid schedule earns [`HARD_SHARE`] of the
//! input's points, and the rest scales with quality: `target / achieved`,
//! capped at 1, of the schedule length against the shortest schedule the
//! exact search finds (blocks, [`course_engine::engine::optimum`]: the
//! optimum when proven) or of the II against the reference II (loops), so
//! matching or beating that target earns everything; a block's list
//! schedule earns less when a shorter schedule exists.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize, Serializer};

use crate::data::Source;
use course_engine::engine::check::{self, Violation, ViolationKind};
use course_engine::engine::list;
use course_engine::engine::mii;
use course_engine::engine::reference;
use course_engine::formats::yaml;
use course_engine::model::ids::Cycle;
use course_engine::model::machine::Machine;
use course_engine::model::program::{self, Kind, Program};

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

/// One lab input with its reference schedule, the figure quality is
/// measured against, and its lower bound.
#[derive(Clone, Debug)]
pub struct LabInput {
    pub stem: String,
    pub program: Program,
    /// The reference schedule: the list schedule of a block, the modulo
    /// schedule of a loop (the feedback's table diff is against it).
    pub reference: Vec<Cycle>,
    /// The reference II, for loops.
    pub ii: Option<u64>,
    /// What quality is measured against: the length of the shortest
    /// schedule the exact search found (blocks), the reference II (loops).
    pub target: u64,
    /// The lower bound on that figure: for blocks the bound the exact
    /// search proved (the target itself when it is the optimum); for loops
    /// the smallest II the exact search did not prove infeasible (the
    /// reference II itself when proven minimal, at least MII).
    pub bound: u64,
    /// The list schedule's length, for blocks.
    pub list_length: Option<u64>,
}

impl LabInput {
    /// Computes the reference schedule of `program`
    /// ([`course_engine::engine::reference::reference`]), the target and
    /// its lower bound.
    pub fn new(stem: &str, program: Program, m: &Machine) -> LabInput {
        let s = reference::reference(&program, m);
        let (target, bound, list_length) = match (s.ii, &s.optimum) {
            (None, Some(o)) => (
                o.length as u64,
                o.lower.min(o.length) as u64,
                Some(s.length as u64),
            ),
            (None, None) => {
                let cp = s.heights.iter().copied().max().unwrap_or(0);
                let bound = cp.max(mii::analyze(&program, m).res_mii);
                (s.length as u64, bound, Some(s.length as u64))
            }
            // The bound the exact search proved (MII when it did not run).
            (Some(ii), _) => {
                let bound = match &s.ii_facts {
                    Some(f) => f.lower,
                    None => mii::analyze(&program, m).mii,
                };
                (ii, bound, None)
            }
        };
        LabInput {
            stem: stem.to_string(),
            program,
            reference: s.cycles,
            ii: s.ii,
            target,
            bound,
            list_length,
        }
    }

    /// The input without its reference schedule (empty, figures 0): for a
    /// submission refused before any scheduling is done.
    pub fn unscheduled(stem: &str, program: Program) -> LabInput {
        LabInput {
            stem: stem.to_string(),
            program,
            reference: Vec::new(),
            ii: None,
            target: 0,
            bound: 0,
            list_length: None,
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

impl Lab {
    /// A lab of one input (`course grade INPUT SUBMISSION`).
    pub fn single(input: LabInput, machine: &Machine, points: f64) -> Lab {
        Lab {
            name: input.stem.clone(),
            machine: machine.clone(),
            points,
            inputs: vec![input],
        }
    }

    /// The input named `stem`.
    pub fn input(&self, stem: &str) -> Option<&LabInput> {
        self.inputs.iter().find(|i| i.stem == stem)
    }
}

/// The most hidden inputs a lab may be graded on.
pub const MAX_HIDDEN: usize = 1000;

/// The hidden inputs of a lab: `count` (at most [`MAX_HIDDEN`]) inputs
/// generated from the instructor's secret `seed` (blocks and loops in turn,
/// 10–24 and 6–14 operations), named `hidden-1`, `hidden-2`, …, with their
/// text. The same seed gives the same inputs, so every student meets the
/// same ones.
pub fn hidden_inputs(
    lab: &Lab,
    seed: u64,
    count: usize,
) -> Result<Vec<(LabInput, String)>, String> {
    use crate::generate::{self, GenParams};
    if count > MAX_HIDDEN {
        return Err(format!(
            "--hidden {count}: at most {MAX_HIDDEN} hidden inputs"
        ));
    }
    let mut rng = course_engine::util::rng::Rng::derived(seed, "hidden-inputs");
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let (kind, params, ops) = if i % 2 == 0 {
            (Kind::Block, GenParams::block_default(), rng.range(10, 24))
        } else {
            (Kind::Loop, GenParams::loop_default(), rng.range(6, 14))
        };
        let s = rng.next_u64();
        // No `# generated: … --seed …` line: it would hand the input's
        // seed, and so every hidden input, to the program that reads it.
        let text: String = generate::generate(&lab.machine, &params, s, Some(ops), kind)
            .lines()
            .filter(|l| !l.starts_with("# generated:"))
            .flat_map(|l| [l, "\n"])
            .collect();
        let stem = format!("hidden-{}", i + 1);
        let p = program::parse(&text, &stem, &lab.machine).map_err(|e| e.to_string())?;
        out.push((LabInput::new(&stem, p, &lab.machine), text));
    }
    Ok(out)
}

/// A hidden input's report as students and every export see it: one
/// problem per kind, with a count and no line, label or cycle; nothing to
/// diff a table against.
pub fn redact_hidden(r: &mut InputReport) {
    if !r.hidden {
        return;
    }
    // Kinds without counts: a count would carry any number a program reads
    // from the hidden input out through how many mistakes it makes.
    let mut kinds: BTreeSet<ViolationKind> = r.violations.iter().map(|v| v.kind).collect();
    kinds.extend(std::mem::take(&mut r.more_violations).into_keys());
    r.violations = kinds
        .into_iter()
        .map(|kind| Violation {
            kind,
            message: "a hidden input: problems of this kind, not shown".to_string(),
            line: None,
            op: None,
            detail: None,
        })
        .collect();
    r.submitted = None;
    r.submitted_ii = None;
    // One more figure of the hidden input than the grade needs.
    r.list_length = None;
}

/// Loads `labs/NAME/lab.yaml` and its inputs from `source`.
pub fn load_lab(source: &Source, name: &str) -> Result<Lab, String> {
    let path = format!("labs/{name}/lab.yaml");
    let text = source.read(&path)?;
    let manifest: Manifest = yaml::from_str(&text, &path).map_err(|d| d.to_string())?;
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

/// Why a submission could not be graded on its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// The student's doing (no file, a link, not a regular file, over the
    /// size limit, not UTF-8 text, a program that failed): a zero, with
    /// this reason.
    Student(String),
    /// The grader's side (permission denied, an I/O error): not the
    /// student's zero but a grading error, reported apart.
    Grader(String),
}

/// The grade of one submission for one input. Fields are declared in
/// alphabetical order, the order JSON objects print their keys in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InputReport {
    /// The submission's length (blocks) or II (loops), when valid.
    pub achieved: Option<u64>,
    /// Set when the grader could not read the submission ([`Unread::Grader`]):
    /// the input is not graded, and the score is not the student's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grading_error: Option<String>,
    /// True for an input generated from the instructor's secret seed: its
    /// feedback names the kinds of mistakes but no table.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// The input's stem.
    pub input: String,
    /// The list schedule's length, for a block ([`LabInput::list_length`]);
    /// absent for a loop, a hidden input's redacted report, and when the
    /// submission was refused before the reference was computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_length: Option<u64>,
    /// The lower bound on the reference figure ([`LabInput::bound`]); absent
    /// when the submission was refused before the reference was computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
    pub max_score: f64,
    /// Violations found beyond the first [`check::MAX_PER_KIND`] of their
    /// kind, counted by kind.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub more_violations: BTreeMap<ViolationKind, u64>,
    /// The figure quality is measured against ([`LabInput::target`]: the
    /// shortest schedule's length for a block, the reference II for a
    /// loop); absent when the submission was refused before the reference
    /// was computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<u64>,
    pub score: f64,
    pub valid: bool,
    /// The problems found (at most [`check::MAX_PER_KIND`] of each kind);
    /// printed as `{kind, message}` with the line in the message.
    #[serde(serialize_with = "violation_lines")]
    pub violations: Vec<Violation>,
    /// The submitted cycles, when every operation has exactly one (for the
    /// reservation-table diff).
    #[serde(skip)]
    pub submitted: Option<Vec<Cycle>>,
    /// The submitted II, for a loop.
    #[serde(skip)]
    pub submitted_ii: Option<u64>,
}

/// A violation as the reports print it.
#[derive(Serialize)]
struct ViolationLine {
    kind: ViolationKind,
    message: String,
}

fn violation_lines<S: Serializer>(v: &[Violation], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|v| ViolationLine {
        kind: v.kind,
        message: v.to_string(),
    }))
}

/// Rounds a score to cents.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Grades one submission. `submission` is the file's text, or why it could
/// not be read (the student's doing).
pub fn grade_input(
    lab_input: &LabInput,
    m: &Machine,
    points: f64,
    submission: Result<&str, String>,
) -> InputReport {
    grade_submission(lab_input, m, points, submission.map_err(Unread::Student))
}

/// The largest submission that is read (1 MiB).
pub const MAX_SUBMISSION_BYTES: u64 = 1 << 20;

/// The refusal of a submission over [`MAX_SUBMISSION_BYTES`]; `shown` names
/// it.
pub fn too_large(shown: &str) -> Unread {
    Unread::Student(format!(
        "{shown}: larger than the {} KiB limit; not graded",
        MAX_SUBMISSION_BYTES >> 10
    ))
}

/// A report for a submission refused before its input's reference was
/// computed (over the size limit, not a regular file, …): a zero with the
/// reason (or a grading error), and no reference figures.
pub fn refused(stem: &str, points: f64, why: Unread) -> InputReport {
    let (violations, grading_error) = match why {
        Unread::Student(why) => (vec![format_violation(why)], None),
        Unread::Grader(why) => (Vec::new(), Some(why)),
    };
    InputReport {
        achieved: None,
        grading_error,
        hidden: false,
        input: stem.to_string(),
        list_length: None,
        lower_bound: None,
        max_score: points,
        more_violations: BTreeMap::new(),
        reference: None,
        score: 0.0,
        valid: false,
        violations,
        submitted: None,
        submitted_ii: None,
    }
}

fn format_violation(message: String) -> Violation {
    Violation {
        kind: ViolationKind::Format,
        message,
        line: None,
        op: None,
        detail: None,
    }
}

/// Grades one submission: its text, or why it could not be read. A
/// grader-side failure gives a report with `grading_error` set and no
/// violations.
pub fn grade_submission(
    lab_input: &LabInput,
    m: &Machine,
    points: f64,
    submission: Result<&str, Unread>,
) -> InputReport {
    let p = &lab_input.program;
    let mut grading_error = None;
    let mut more_violations = BTreeMap::new();
    let (violations, submitted, submitted_ii) = match submission {
        Err(Unread::Student(why)) => (vec![format_violation(why)], None, None),
        Err(Unread::Grader(why)) => {
            grading_error = Some(why);
            (Vec::new(), None, None)
        }
        Ok(text) => {
            let r = check::check(
                p,
                m,
                &course_engine::formats::submission::parse(text, "submission"),
            );
            more_violations = r.omitted;
            (r.violations, r.cycles, r.ii)
        }
    };
    let valid = violations.is_empty() && grading_error.is_none();
    let achieved = match (valid, &submitted, p.kind()) {
        (true, Some(t), Kind::Block) => Some(list::schedule_length(p, m, t) as u64),
        (true, Some(_), Kind::Loop) => submitted_ii,
        _ => None,
    };
    let score = match achieved {
        Some(a) => {
            let quality = (lab_input.target as f64 / a.max(1) as f64).min(1.0);
            round2(points * (HARD_SHARE + (1.0 - HARD_SHARE) * quality))
        }
        None => 0.0,
    };
    InputReport {
        achieved,
        grading_error,
        hidden: false,
        input: lab_input.stem.clone(),
        list_length: lab_input.list_length,
        lower_bound: Some(lab_input.bound),
        max_score: points,
        more_violations,
        reference: Some(lab_input.target),
        score,
        valid,
        violations,
        submitted,
        submitted_ii,
    }
}

/// Every input of the lab graded for one student. Fields are declared in
/// alphabetical order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudentReport {
    pub inputs: Vec<InputReport>,
    /// The sum of the inputs' `max_score`.
    pub max_score: f64,
    /// The sum of the inputs' scores, rounded to cents.
    pub score: f64,
    pub student: String,
}

impl StudentReport {
    /// The report of `student` over `inputs`, with the totals.
    pub fn new(student: &str, inputs: Vec<InputReport>) -> StudentReport {
        StudentReport {
            max_score: inputs.iter().map(|i| i.max_score).sum(),
            score: round2(inputs.iter().map(|i| i.score).sum()),
            inputs,
            student: student.to_string(),
        }
    }

    /// True when every submitted schedule is valid.
    pub fn valid(&self) -> bool {
        self.inputs.iter().all(|i| i.valid)
    }

    /// The inputs the grader could not read, with why.
    pub fn grading_errors(&self) -> impl Iterator<Item = (&str, &str)> {
        self.inputs
            .iter()
            .filter_map(|i| Some((i.input.as_str(), i.grading_error.as_deref()?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn running() -> (LabInput, Machine) {
        let m = Machine::toy();
        let p = program::parse(crate::data::RUNNING_TXT, "running.txt", &m).unwrap();
        (LabInput::new("running", p, &m), m)
    }

    #[test]
    fn hidden_inputs_are_bounded_before_any_is_made() {
        let lab = load_lab(&Source::Embedded, "ch23-sched").unwrap();
        let two = hidden_inputs(&lab, 7, 2).unwrap();
        assert_eq!(two[1].0.stem, "hidden-2");
        let e = hidden_inputs(&lab, 7, usize::MAX).unwrap_err();
        assert!(e.contains("at most 1000 hidden inputs"), "{e}");
    }

    #[test]
    fn reference_earns_everything_and_bounds_are_right() {
        let (li, m) = running();
        // The list schedule is the optimum: the search proved 9 impossible.
        assert_eq!((li.target, li.bound, li.list_length), (10, 10, Some(10)));
        let r = grade_input(&li, &m, 10.0, Ok(&li.reference_text()));
        assert!(r.valid);
        assert_eq!(r.score, 10.0);
        assert_eq!(r.list_length, Some(10));
        assert_eq!(r.submitted.as_deref(), Some(&li.reference[..]));
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
        assert_eq!((r.reference, r.lower_bound), (Some(10), Some(10)));
    }

    #[test]
    fn a_block_is_measured_against_its_optimum() {
        let m = Machine::toy();
        // `course gen block --ops 12 --seed 2`: list schedule 13, optimum 12.
        let text = "block epilogue\na: r1 = load [z]\nb: store [r1], r1\nc: r2 = cmp r1, r1\n\
                    d: store [y], r1\ne: r3 = load [w]\nf: r4 = load [u]\ng: r5 = mul r4, 5\n\
                    h: r6 = and r2, r4\ni: r7 = load [z + r6]\nj: r8 = or r7, r3\n\
                    k: r9 = load [z]\nl: r10 = sub r9, r5\n";
        let p = program::parse(text, "epilogue.txt", &m).unwrap();
        let li = LabInput::new("epilogue", p, &m);
        assert_eq!((li.target, li.bound, li.list_length), (12, 12, Some(13)));
        // The list schedule (the reference) is valid but not the shortest.
        let r = grade_input(&li, &m, 10.0, Ok(&li.reference_text()));
        assert_eq!((r.achieved, r.reference), (Some(13), Some(12)));
        assert_eq!(r.score, round2(10.0 * (0.6 + 0.4 * 12.0 / 13.0)));
        let j = serde_json::to_value(&r).unwrap();
        assert_eq!(j["list_length"], 13);
        // A loop has no list schedule.
        let p = program::parse(
            "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n",
            "l",
            &m,
        );
        let li = LabInput::new("l", p.unwrap(), &m);
        assert_eq!(li.list_length, None);
        let r = grade_input(&li, &m, 10.0, Ok(&li.reference_text()));
        assert!(
            serde_json::to_value(&r)
                .unwrap()
                .get("list_length")
                .is_none()
        );
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
            r.violations
                .iter()
                .any(|v| v.message.contains("d at 4: mul is taken at cycle 4 by f"))
        );
        let r = grade_input(&li, &m, 10.0, Err("no submission file x.sched".into()));
        assert!(!r.valid && r.violations[0].message.contains("no submission file"));
        assert_eq!(r.submitted, None);
    }

    #[test]
    fn reports_serialize_in_alphabetical_order() {
        let (li, m) = running();
        let r = grade_input(&li, &m, 10.0, Ok("a 0\n"));
        let st = StudentReport::new("ann", vec![r]);
        let j = serde_json::to_string(&st).unwrap();
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(j, v.to_string(), "keys print sorted");
        assert_eq!(v["inputs"][0]["violations"][0]["kind"], "missing");
        assert_eq!((st.score, st.max_score, st.valid()), (0.0, 10.0, false));
    }

    #[test]
    fn a_grader_fault_is_a_grading_error_not_a_violation() {
        let (li, m) = running();
        let r = grade_submission(
            &li,
            &m,
            10.0,
            Err(Unread::Grader("permission denied".into())),
        );
        assert_eq!(r.grading_error.as_deref(), Some("permission denied"));
        assert!(r.violations.is_empty() && !r.valid && r.score == 0.0);
        let st = StudentReport::new("ann", vec![r]);
        assert_eq!(st.grading_errors().count(), 1);
        let j = serde_json::to_value(&st).unwrap();
        assert_eq!(j["inputs"][0]["grading_error"], "permission denied");
        // Absent fields stay absent from an ordinary report.
        let ok = grade_input(&li, &m, 10.0, Ok(&li.reference_text()));
        let j = serde_json::to_value(&ok).unwrap();
        assert!(j.get("grading_error").is_none() && j.get("hidden").is_none());
        assert!(j.get("more_violations").is_none());
    }
}
