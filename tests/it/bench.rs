//! End-to-end tests of `course bench`: the command runs, reports its figures
//! in the documented JSON shape, and rejects unknown benchmark names. No
//! time is asserted.

use std::process::Command;

fn course(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_course"))
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn grading_section_as_json() {
    let out = course(&["bench", "--quick", "--only", "grading", "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
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
    let out = course(&["bench", "--quick", "--only", "hazard"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("## Hazard automaton"), "{text}");
    assert!(text.contains("16384 states"), "{text}");
    assert!(text.contains("slope of build vs states"), "{text}");
}

#[test]
fn unknown_benchmark_is_a_usage_error() {
    let out = course(&["bench", "--only", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown benchmark 'nope'") && err.contains("list-schedule"),
        "{err}"
    );
}
