//! The sample submissions in `solutions/ch23-sched/samples/` (named
//! `INPUT--CASE.sched`), graded with snapshots of the feedback, and the
//! verdict each one must get.
//!
//! The verdict is the sample's last line, a comment the grader skips:
//! `# expect: valid`, or `# expect: KIND, …` with the kinds of its
//! violations in the order the report first gives them. At the end, it
//! moves no line that the feedback names. `COURSE_BLESS=1 cargo test
//! grade_samples` writes missing or changed verdicts for review.

use crate::common::{self, Course};

const SAMPLES: &str = "solutions/ch23-sched/samples";
const MARK: &str = "# expect: ";

/// The sample without its verdict line, and the verdict.
fn split_verdict(text: &str) -> (&str, Option<&str>) {
    let body = text.trim_end_matches('\n');
    match body.rsplit_once('\n') {
        Some((rest, last)) if last.starts_with(MARK) => {
            (&text[..rest.len() + 1], Some(&last[MARK.len()..]))
        }
        _ => (text, None),
    }
}

/// `valid`, or the distinct violation kinds of a JSON report.
fn verdict(report: &serde_json::Value) -> String {
    if report["valid"] == true {
        return "valid".into();
    }
    let mut kinds: Vec<&str> = Vec::new();
    for v in report["violations"].as_array().expect("violations") {
        let k = v["kind"].as_str().expect("a kind");
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    kinds.join(", ")
}

#[test]
fn every_sample_is_graded_as_expected() {
    let dir = common::root().join(SAMPLES);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the samples folder")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 14, "{names:?}");
    let mut problems = Vec::new();
    for file in &names {
        let name = file
            .strip_suffix(".sched")
            .unwrap_or_else(|| panic!("{SAMPLES}/{file} is not a .sched sample"));
        let input = name.split("--").next().unwrap();
        let in_path = format!("labs/ch23-sched/inputs/{input}.txt");
        let sub = format!("{SAMPLES}/{file}");
        let report = Course::new(["grade", &in_path, &sub, "--format", "json"])
            .any_code()
            .run();
        let j = report.json();
        let got = verdict(&j);
        if got == "valid" {
            assert_eq!(report.code, 0, "{name}: {}", report.stdout);
        } else {
            assert_eq!((report.code, &j["score"]), (1, &0.0.into()), "{name}");
        }
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let (body, want) = split_verdict(&text);
        if want != Some(got.as_str()) {
            if common::bless() {
                std::fs::write(dir.join(file), format!("{body}{MARK}{got}\n")).unwrap();
            } else {
                problems.push(format!(
                    "{sub}: expected {:?}, graded {got:?} (COURSE_BLESS=1 rewrites the last line)",
                    want.unwrap_or("no '# expect:' line")
                ));
            }
        }
        let feedback = Course::new(["grade", &in_path, &sub])
            .any_code()
            .run()
            .stdout;
        common::snapshot!(name.replace("--", "__").replace('-', "_"), feedback);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_verdict_is_the_last_line_only() {
    assert_eq!(
        split_verdict("a 1\n# expect: valid\n"),
        ("a 1\n", Some("valid"))
    );
    assert_eq!(
        split_verdict("# expect: valid\na 1\n"),
        ("# expect: valid\na 1\n", None)
    );
}
