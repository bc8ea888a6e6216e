//! The grader's results ([`Grades`], [`InputGrade`]) and their views: text
//! feedback with the reservation-table diff against the reference, CSV, and
//! Gradescope's `results.json`. The JSON form is the serialized result.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Serialize, Serializer};
use similar::TextDiff;

use crate::content::lab::{InputReport, Lab, LabInput, StudentReport};
use crate::model::program::Kind;
use crate::view::report;

/// Every student graded on a lab (`course grade --lab NAME DIR`). Serializes
/// as `{"students": [...]}`.
#[derive(Clone, Debug, Serialize)]
pub struct Grades {
    pub students: Vec<StudentReport>,
    /// The lab, for the feedback views.
    #[serde(skip)]
    pub lab: Lab,
}

impl Grades {
    /// True when every submitted schedule is valid.
    pub fn valid(&self) -> bool {
        self.students.iter().all(StudentReport::valid)
    }
}

/// One submission graded on one input (`course grade INPUT SUBMISSION`).
/// Serializes as that input's report.
#[derive(Clone, Debug)]
pub struct InputGrade {
    grades: Grades,
}

impl InputGrade {
    /// The grade of `student`'s submission on the only input of `lab`.
    pub fn new(lab: Lab, student: &str, report: InputReport) -> InputGrade {
        InputGrade {
            grades: Grades {
                students: vec![StudentReport::new(student, vec![report])],
                lab,
            },
        }
    }

    /// The input's report.
    pub fn report(&self) -> &InputReport {
        &self.grades.students[0].inputs[0]
    }

    /// The same grade as a one-student, one-input [`Grades`], for the text,
    /// CSV and Gradescope views.
    pub fn grades(&self) -> &Grades {
        &self.grades
    }
}

impl Serialize for InputGrade {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.report().serialize(s)
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}\n")).collect()
}

/// Human feedback on one input: the verdict, every violation, and the
/// unified diff of the submitted reservation table against the reference's.
pub fn feedback(lab: &Lab, r: &InputReport) -> String {
    let li: Option<&LabInput> = lab.input(&r.input);
    let what = match li.map(|li| li.program.kind()) {
        Some(Kind::Loop) => "II",
        _ => "length",
    };
    let points = r.max_score;
    let score = r.score;
    let mut fb = String::new();
    match r.achieved {
        Some(a) => {
            let _ = writeln!(
                fb,
                "{}: valid · {what} {a} (reference {}, lower bound {}) · {score}/{points}",
                r.input, r.reference, r.lower_bound
            );
            if a > r.reference {
                let _ = writeln!(
                    fb,
                    "  the reference reaches {what} {}: quality credit {:.0}%",
                    r.reference,
                    100.0 * r.reference as f64 / a as f64
                );
            }
        }
        None => {
            let _ = writeln!(fb, "{}: INVALID · 0/{points}", r.input);
            for v in &r.violations {
                let _ = writeln!(fb, "  ✗ {}: {v}", v.kind.as_str());
            }
        }
    }
    if let (Some(t), Some(li)) = (&r.submitted, li) {
        let p = &li.program;
        let m = &lab.machine;
        let mine = report::reservation_table(p, m, t, r.submitted_ii.or(li.ii));
        let reference = report::reservation_table(p, m, &li.reference, li.ii);
        if mine != reference {
            let diff = TextDiff::from_lines(&mine, &reference)
                .unified_diff()
                .header("your reservation table", "reference")
                .to_string();
            fb.push_str(&indent(&diff));
        }
    }
    fb
}

/// The text report: per student a total line, then each input's feedback.
pub fn text(g: &Grades) -> String {
    let mut s = String::new();
    for st in &g.students {
        let _ = writeln!(s, "== {}: {}/{}", st.student, st.score, st.max_score);
        for i in &st.inputs {
            s.push_str(&feedback(&g.lab, i));
        }
        s.push('\n');
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"").replace(['\n', '\r'], " "))
    } else {
        s.to_string()
    }
}

/// CSV: one row per student and input.
pub fn csv(g: &Grades) -> String {
    let mut s = String::from("student,input,valid,score,max_score,violations,first_problem\n");
    for st in &g.students {
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

/// Gradescope's `results.json` for one student. Fields are declared in
/// alphabetical order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gradescope {
    pub output: String,
    pub score: f64,
    pub tests: Vec<GradescopeTest>,
}

/// One input as a Gradescope test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradescopeTest {
    pub max_score: f64,
    pub name: String,
    /// The feedback text.
    pub output: String,
    pub score: f64,
    /// `passed` or `failed`.
    pub status: &'static str,
}

/// One student's results, or an object of them keyed by student.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum GradescopeResults {
    Student(Gradescope),
    Class(BTreeMap<String, Gradescope>),
}

fn gradescope_student(lab: &Lab, st: &StudentReport) -> Gradescope {
    Gradescope {
        output: format!(
            "{}: {}/{} ({} of {} inputs valid)",
            st.student,
            st.score,
            st.max_score,
            st.inputs.iter().filter(|i| i.valid).count(),
            st.inputs.len()
        ),
        score: st.score,
        tests: st
            .inputs
            .iter()
            .map(|i| GradescopeTest {
                max_score: i.max_score,
                name: i.input.clone(),
                output: feedback(lab, i),
                score: i.score,
                status: if i.valid { "passed" } else { "failed" },
            })
            .collect(),
    }
}

/// Gradescope's results: one student's object, or (for a class) an object
/// of them keyed by student name.
pub fn gradescope(g: &Grades) -> GradescopeResults {
    match g.students.as_slice() {
        [st] => GradescopeResults::Student(gradescope_student(&g.lab, st)),
        students => GradescopeResults::Class(
            students
                .iter()
                .map(|st| (st.student.clone(), gradescope_student(&g.lab, st)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::lab::{grade_input, LabInput};
    use crate::model::machine::Machine;
    use crate::model::program;

    fn running(submission: &str) -> InputGrade {
        let m = Machine::toy();
        let p = program::parse(crate::content::data::RUNNING_TXT, "running.txt", &m).unwrap();
        let li = LabInput::new("running", p, &m);
        let r = grade_input(&li, &m, 10.0, Ok(submission));
        InputGrade::new(Lab::single(li, &m, 10.0), "ann", r)
    }

    #[test]
    fn feedback_diffs_the_tables_only_when_they_differ() {
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n");
        let t = text(g.grades());
        assert!(
            t.starts_with(
                "== ann: 10/10\nrunning: valid · length 10 (reference 10, lower bound 9) · 10/10\n"
            ),
            "{t}"
        );
        assert!(!t.contains("---"), "{t}");
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 10\n");
        let fb = feedback(&g.grades().lab, g.report());
        assert!(fb.contains("quality credit 91%"), "{fb}");
        assert!(fb.contains("  +++ reference"), "{fb}");
    }

    #[test]
    fn invalid_feedback_lists_every_violation() {
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 4\ng 5\nh 6\ni 8\nj 9\n");
        let fb = feedback(&g.grades().lab, g.report());
        assert!(fb.starts_with("running: INVALID · 0/10\n"), "{fb}");
        assert!(
            fb.contains("✗ resource: ") && fb.contains("d at 4: mul is taken at cycle 4 by f"),
            "{fb}"
        );
        let c = csv(g.grades());
        assert!(c.starts_with("student,input,valid,score,max_score,violations,first_problem\nann,running,false,0,10,"), "{c}");
    }

    #[test]
    fn one_input_serializes_as_its_report_and_gradescope_as_one_student() {
        let g = running("a 0\n");
        let j = serde_json::to_value(&g).unwrap();
        assert_eq!(j["input"], "running");
        assert_eq!(j["valid"], false);
        let gs = serde_json::to_value(gradescope(g.grades())).unwrap();
        assert_eq!(gs["tests"][0]["status"], "failed");
        assert_eq!(gs["output"], "ann: 0/10 (0 of 1 inputs valid)");
    }

    #[test]
    fn csv_quotes() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
