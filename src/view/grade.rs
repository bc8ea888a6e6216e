//! The views of the grader's results ([`Grades`],
//! [`InputGrade`](crate::api::grade::InputGrade)): text feedback with the
//! reservation-table diff against the reference, and the CSV gradebooks. The JSON form is the serialized result; Gradescope's
//! `results.json` is built by [`crate::api::grade::gradescope`], with
//! [`feedback`] as each test's text.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use similar::TextDiff;

use crate::api::grade::Grades;
use crate::view::report;
use course_content::lab::{InputReport, Lab, LabInput};
use course_engine::model::program::Kind;
use course_host::csv;
use course_host::roster::Roster;

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}\n")).collect()
}

/// A figure that may be absent, as printed.
fn figure(x: Option<u64>) -> String {
    x.map_or_else(|| "?".to_string(), |x| x.to_string())
}

/// `target / achieved` as a percentage, `91%`.
fn credit(target: u64, achieved: u64) -> String {
    format!("{:.0}%", 100.0 * target as f64 / achieved.max(1) as f64)
}

/// The verdict of a valid block schedule of length `a`: against the
/// optimum (or the shortest schedule found and the proven bound) and the
/// list schedule, with a note when it is optimal, beats the list schedule,
/// or earns less than full quality. A hidden input shows neither the list
/// schedule nor how the schedule compares with it.
fn block_verdict(fb: &mut String, r: &InputReport, a: u64) {
    let (target, lower) = (r.reference.unwrap_or(0), r.lower_bound.unwrap_or(0));
    let proven = lower >= target;
    let optimum = report::optimum_figure(target as i64, lower as i64);
    let list = r.list_length.filter(|_| !r.hidden);
    let list_text = list.map_or_else(String::new, |l| format!("; list schedule {l}"));
    let _ = writeln!(
        fb,
        "{}: valid · length {a} ({optimum}{list_text}) · {}/{}",
        r.input, r.score, r.max_score
    );
    if a > target {
        let best = if proven {
            format!("the optimum is {target}")
        } else {
            format!("the shortest schedule known is {target}")
        };
        let _ = writeln!(fb, "  {best}: quality credit {}", credit(target, a));
    } else if proven {
        let _ = writeln!(fb, "  optimal: no schedule is shorter");
    } else if a < target {
        let _ = writeln!(
            fb,
            "  shorter than the shortest schedule the exact search found ({target})"
        );
    }
    if let Some(l) = list.filter(|&l| a < l) {
        let by = report::cycles_text((l - a) as i64);
        let _ = writeln!(fb, "  shorter than the list schedule by {by}");
    }
}

/// Human feedback on one input: the verdict, the violations (the first of
/// each kind, and how many more), and the unified diff of the submitted
/// reservation table against the reference's (a block's list schedule). A
/// valid block schedule is measured against the optimum and the list
/// schedule (`block_verdict`). A hidden input's feedback names the kinds
/// of mistakes only, and shows no table.
pub fn feedback(lab: &Lab, r: &InputReport) -> String {
    let li: Option<&LabInput> = lab.input(&r.input);
    let kind = li.map(|li| li.program.kind());
    let what = match kind {
        Some(Kind::Loop) => "II",
        _ => "length",
    };
    let points = r.max_score;
    let score = r.score;
    let mut fb = String::new();
    if let Some(why) = &r.grading_error {
        let _ = writeln!(
            fb,
            "{}: NOT GRADED · grading error: {why}; this is not your mistake, the course staff will regrade it",
            r.input
        );
        return fb;
    }
    match r.achieved {
        Some(a) if kind == Some(Kind::Block) => block_verdict(&mut fb, r, a),
        Some(a) => {
            let _ = writeln!(
                fb,
                "{}: valid · {what} {a} (reference {}, lower bound {}) · {score}/{points}",
                r.input,
                figure(r.reference),
                figure(r.lower_bound)
            );
            if let Some(reference) = r.reference.filter(|&t| a > t) {
                let _ = writeln!(
                    fb,
                    "  the reference reaches {what} {reference}: quality credit {}",
                    credit(reference, a)
                );
            }
        }
        None if r.hidden => {
            let _ = writeln!(fb, "{}: INVALID · 0/{points}", r.input);
            // The kinds only: a count would let a program report any number
            // it reads from the hidden input (its length, say) through the
            // number of its mistakes.
            let kinds: BTreeSet<&str> = r
                .violations
                .iter()
                .map(|v| v.kind.as_str())
                .chain(r.more_violations.keys().map(|k| k.as_str()))
                .collect();
            let list: Vec<&str> = kinds.into_iter().collect();
            let line = format!(
                "  ✗ a hidden input: its problems are not shown, only their kinds ({})",
                list.join(", ")
            );
            let _ = writeln!(fb, "{}", course_content::text::wrap_line(&line, "    ", 80));
        }
        None => {
            let _ = writeln!(fb, "{}: INVALID · 0/{points}", r.input);
            for v in &r.violations {
                let line = format!("  ✗ {}: {v}", v.kind.as_str());
                let _ = writeln!(fb, "{}", course_content::text::wrap_line(&line, "    ", 80));
            }
            for (k, n) in &r.more_violations {
                let _ = writeln!(
                    fb,
                    "  … and {n} more {} problem{} not shown",
                    k.as_str(),
                    if *n == 1 { "" } else { "s" }
                );
            }
        }
    }
    if r.hidden {
        return fb;
    }
    if let (Some(t), Some(li)) = (&r.submitted, li) {
        let p = &li.program;
        let m = &lab.machine;
        let mine = report::reservation_table(p, m, t, r.submitted_ii.or(li.ii));
        let reference = report::reservation_table(p, m, &li.reference, li.ii);
        if mine != reference {
            let theirs = match p.kind() {
                Kind::Block => "list schedule",
                Kind::Loop => "reference",
            };
            let diff = TextDiff::from_lines(&mine, &reference)
                .unified_diff()
                .header("your reservation table", theirs)
                .to_string();
            fb.push_str(&indent(&diff));
        }
    }
    fb
}

/// The text report: per student a total line, then each input's feedback.
pub fn text(g: &Grades) -> String {
    let mut s = String::new();
    if let Some(w) = &g.warning {
        let _ = writeln!(s, "WARNING: {w}\n");
    }
    for st in &g.students {
        let _ = writeln!(s, "== {}: {}/{}", st.student, st.score, st.max_score);
        for i in &st.inputs {
            s.push_str(&feedback(&g.lab, i));
        }
        s.push('\n');
    }
    s
}

/// A score cell: empty when the input was not graded (a grading error).
fn score_cell(i: &InputReport) -> String {
    if i.grading_error.is_some() {
        String::new()
    } else {
        i.score.to_string()
    }
}

/// The long CSV: one row per student and input.
pub fn csv_long(g: &Grades) -> String {
    let mut s = csv::record(&[
        "student",
        "input",
        "valid",
        "score",
        "max_score",
        "violations",
        "first_problem",
    ]);
    for st in &g.students {
        for i in &st.inputs {
            let first = match &i.grading_error {
                Some(why) => format!("grading error: {why}"),
                None => i
                    .violations
                    .first()
                    .map(|v| v.to_string())
                    .unwrap_or_default(),
            };
            let count = i.violations.len() as u64 + i.more_violations.values().sum::<u64>();
            s.push_str(&csv::record(&[
                st.student.clone(),
                i.input.clone(),
                i.valid.to_string(),
                score_cell(i),
                i.max_score.to_string(),
                count.to_string(),
                first,
            ]));
        }
    }
    s
}

/// The header of the wide CSV for `lab`.
fn wide_header(lab: &Lab) -> Vec<String> {
    let mut h: Vec<String> = ["student", "id", "email", "total", "max_total"]
        .map(String::from)
        .to_vec();
    h.extend(lab.inputs.iter().map(|i| i.stem.clone()));
    h.push("notes".into());
    h
}

/// The gradebook CSV: one row per student (id and e-mail from the roster),
/// the total, one column per input, and notes (grading errors, students of
/// the roster without a folder, folders not on the roster). A score cell
/// is empty for an input that could not be graded.
pub fn csv(g: &Grades, roster: Option<&Roster>) -> String {
    let mut s = csv::record(&wide_header(&g.lab));
    let max_total: f64 = g.lab.points * g.lab.inputs.len() as f64;
    for st in &g.students {
        let (id, email) = roster.and_then(|r| r.get(&st.student)).unwrap_or(("", ""));
        let mut notes: Vec<String> = st
            .grading_errors()
            .map(|(input, why)| format!("grading error on {input}: {why}"))
            .collect();
        if roster.is_some_and(|r| r.get(&st.student).is_none()) {
            notes.push("not on the roster".into());
        }
        let mut row = vec![
            st.student.clone(),
            id.to_string(),
            email.to_string(),
            // No total when a cell is a grading error: an LMS would import
            // a number that is not the student's.
            if st.inputs.iter().any(|i| i.grading_error.is_some()) {
                String::new()
            } else {
                st.score.to_string()
            },
            st.max_score.to_string(),
        ];
        row.extend(st.inputs.iter().map(score_cell));
        row.push(notes.join("; "));
        s.push_str(&csv::record(&row));
    }
    if let Some(r) = roster {
        for (folder, id, email) in &r.entries {
            if g.students.iter().any(|st| &st.student == folder) {
                continue;
            }
            let mut row = vec![
                folder.clone(),
                id.clone(),
                email.clone(),
                "0".into(),
                max_total.to_string(),
            ];
            row.extend(g.lab.inputs.iter().map(|_| "0".to_string()));
            row.push("no submission folder".into());
            s.push_str(&csv::record(&row));
        }
    }
    s
}

/// The text of `--check-sandbox`.
#[cfg(target_os = "linux")]
pub fn sandbox_text(c: &course_host::sandbox::SandboxCheck) -> String {
    let mut s = String::new();
    let ok = |r: &Option<String>| match r {
        None => "works".to_string(),
        Some(why) => format!("unavailable: {why}"),
    };
    let _ = writeln!(
        s,
        "kernel {}, grading as {}",
        c.kernel,
        if c.root {
            "root"
        } else {
            "an unprivileged user"
        }
    );
    for (k, v) in &c.settings {
        let _ = writeln!(s, "  {k} = {v}");
    }
    let _ = writeln!(
        s,
        "namespaces (user, pid, mount, network, IPC, UTS): {}",
        ok(&c.namespaces)
    );
    if c.namespaces.is_none() {
        let _ = writeln!(
            s,
            "  its own /proc: {}",
            if c.proc_mounted {
                "yes"
            } else {
                "no (the container forbids it; programs run without /proc)"
            }
        );
    }
    let _ = writeln!(s, "uid separation: {}", ok(&c.uid));
    let _ = writeln!(
        s,
        "  Landlock: {}",
        if c.landlock == 0 {
            "none (an older kernel, or a container that refuses it)".to_string()
        } else {
            format!("ABI {}", c.landlock)
        }
    );
    let _ = writeln!(s, "promises, mode by mode (namespaces | uid separation):");
    let mark = |r: &Option<String>| match r {
        None => "yes".to_string(),
        Some(why) => format!("NO ({why})"),
    };
    for g in &c.guarantees {
        let _ = writeln!(s, "  - {}", g.what);
        let _ = writeln!(s, "      namespaces: {}", mark(&g.namespaces));
        let _ = writeln!(s, "      uid:        {}", mark(&g.uid));
    }
    match &c.chosen {
        Some(d) => {
            let _ = writeln!(s, "--run will use: {d}");
        }
        None => {
            let _ = writeln!(
                s,
                "--run will stop before grading anyone: no sandbox works here (see above);\n--unsandboxed runs the programs with the grader's rights"
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::grade::{InputGrade, gradescope};
    use course_content::lab::{LabInput, grade_input};
    use course_engine::model::machine::Machine;
    use course_engine::model::program;

    fn running(submission: &str) -> InputGrade {
        let m = Machine::toy();
        let p = program::parse(course_content::data::RUNNING_TXT, "running.txt", &m).unwrap();
        let li = LabInput::new("running", p, &m);
        let r = grade_input(&li, &m, 10.0, Ok(submission));
        InputGrade::new(Lab::single(li, &m, 10.0), "ann", r)
    }

    #[test]
    fn feedback_diffs_the_tables_only_when_they_differ() {
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n");
        let t = text(g.grades());
        assert_eq!(
            t,
            "== ann: 10/10\n\
             running: valid · length 10 (optimum 10, proven; list schedule 10) · 10/10\n\
             \x20 optimal: no schedule is shorter\n\n"
        );
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 10\n");
        let fb = feedback(&g.grades().lab, g.report());
        assert!(
            fb.contains("  the optimum is 10: quality credit 91%\n"),
            "{fb}"
        );
        assert!(fb.contains("  +++ list schedule"), "{fb}");
        assert!(!fb.contains("optimal:"), "{fb}");
    }

    /// A report of a valid block schedule of length `a` against `target`,
    /// `lower` and a list schedule of length `list`.
    fn block_report(a: u64, target: u64, lower: u64, list: u64) -> (Lab, InputReport) {
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n");
        let mut r = g.report().clone();
        r.submitted = None;
        (r.achieved, r.reference, r.lower_bound) = (Some(a), Some(target), Some(lower));
        r.list_length = Some(list);
        (g.grades().lab.clone(), r)
    }

    #[test]
    fn a_block_is_measured_against_the_optimum_and_the_list_schedule() {
        let (lab, r) = block_report(36, 36, 36, 39);
        assert_eq!(
            feedback(&lab, &r),
            "running: valid · length 36 (optimum 36, proven; list schedule 39) · 10/10\n\
             \x20 optimal: no schedule is shorter\n\
             \x20 shorter than the list schedule by 3 cycles\n"
        );
        // Not proven: the shortest found is the target, a range is shown.
        let (lab, r) = block_report(37, 36, 35, 39);
        let fb = feedback(&lab, &r);
        assert!(
            fb.starts_with(
                "running: valid · length 37 (optimum between 35 and 36; list schedule 39)"
            ),
            "{fb}"
        );
        assert!(
            fb.contains("  the shortest schedule known is 36: quality credit 97%\n"),
            "{fb}"
        );
        assert!(
            fb.contains("shorter than the list schedule by 2 cycles"),
            "{fb}"
        );
        let (lab, r) = block_report(35, 36, 35, 39);
        let fb = feedback(&lab, &r);
        assert!(
            fb.contains("  shorter than the shortest schedule the exact search found (36)\n"),
            "{fb}"
        );
        assert!(!fb.contains("optimal:"), "{fb}");
    }

    #[test]
    fn a_hidden_block_shows_no_list_schedule() {
        let (lab, mut r) = block_report(36, 36, 36, 39);
        r.hidden = true;
        assert_eq!(
            feedback(&lab, &r),
            "running: valid · length 36 (optimum 36, proven) · 10/10\n\
             \x20 optimal: no schedule is shorter\n"
        );
        course_content::lab::redact_hidden(&mut r);
        assert_eq!(r.list_length, None);
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
        let c = csv_long(g.grades());
        assert!(c.starts_with("student,input,valid,score,max_score,violations,first_problem\nann,running,false,0,10,"), "{c}");
        let c = csv(g.grades(), None);
        assert_eq!(
            c,
            "student,id,email,total,max_total,running,notes\nann,,,0,10,0,\n"
        );
    }

    #[test]
    fn a_hidden_input_names_its_kinds_within_80_columns() {
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 4\ng 5\nh 6\nzz 3\nq x\nj 0\n");
        let mut r = g.report().clone();
        r.hidden = true;
        let fb = feedback(&g.grades().lab, &r);
        let flat = fb.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "a hidden input: its problems are not shown, only their kinds (format, latency"
            ),
            "{fb}"
        );
        // No count: a program could spell a number from the hidden input
        // through how many mistakes it makes.
        assert!(!fb.contains('×'), "{fb}");
        assert!(fb.lines().all(|l| l.chars().count() <= 80), "{fb}");
    }

    #[test]
    fn one_input_serializes_as_its_report_and_gradescope_as_one_student() {
        let g = running("a 0\n");
        let j = serde_json::to_value(&g).unwrap();
        assert_eq!(j["input"], "running");
        assert_eq!(j["valid"], false);
        let gs = serde_json::to_value(gradescope(g.grades(), feedback)).unwrap();
        assert_eq!(gs["tests"][0]["status"], "failed");
        assert_eq!(
            gs["output"],
            "```text\nann: 0/10 (0 of 1 inputs valid)\n```\n"
        );
        assert_eq!(gs["tests"][0]["visibility"], "visible");
        assert_eq!(gs["output_format"], "md");
    }

    #[test]
    fn the_gradebook_has_a_row_per_student_with_the_roster_columns() {
        // Merging a regraded CSV into this one: course_host::roster's tests.
        let g = running("c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n");
        let roster = Roster::parse(
            "Folder,Email,ID\nann,ann@u.edu,17\nbob,bob@u.edu,18\n",
            "roster.csv",
        )
        .unwrap();
        assert_eq!(
            csv(g.grades(), Some(&roster)),
            "student,id,email,total,max_total,running,notes\n\
             ann,17,ann@u.edu,10,10,10,\n\
             bob,18,bob@u.edu,0,10,0,no submission folder\n"
        );
    }
}
