//! End-to-end tests of `course bench`: the command runs, reports its figures
//! in the documented JSON shape, and rejects unknown benchmark names. No
//! time is asserted.

use crate::common::Course;

#[test]
fn grading_section_as_json() {
    let v = Course::new(["bench", "--quick", "--only", "grading", "--format", "json"])
        .run()
        .json();
    let sections = v.as_array().expect("an array of sections");
    assert_eq!(sections.len(), 1);
    assert_eq!(sections[0]["name"], "grading");
    let m = &sections[0]["measurements"][0];
    assert_eq!(m["label"], "parse+check");
    assert_eq!(m["size"], 1000);
    assert!(m["median_s"].as_f64().is_some());
    assert!(m["note"].as_str().unwrap().contains("submissions/s"));
}

#[test]
fn hazard_section_as_text() {
    let text = Course::new(["bench", "--quick", "--only", "hazard"])
        .stdout_has("16384 states")
        .stdout_has("slope of build vs states")
        .run()
        .stdout;
    assert!(text.starts_with("## Hazard automaton"), "{text}");
}

#[test]
fn unknown_benchmark_is_a_usage_error() {
    Course::new(["bench", "--only", "nope"])
        .code(2)
        .stderr_has("unknown benchmark 'nope'")
        .stderr_has("list-schedule")
        .run();
}
