//! CLI conventions: help with examples, completions, exit codes, pipes,
//! colour, JSON names, DOT output, the generator.

use crate::common;
use std::process::{Command, Stdio};

#[test]
fn help_has_examples_everywhere() {
    let top = common::ok(&["--help"]);
    assert!(top.contains("course drill list-schedule --seed 4 --solution"));
    for cmd in [
        "drill",
        "schedule",
        "analyze",
        "machine",
        "gen",
        "completions",
    ] {
        let h = common::ok(&[cmd, "--help"]);
        assert!(h.contains("Example"), "{cmd} --help has no examples:\n{h}");
    }
}

#[test]
fn completions_for_bash() {
    let out = common::ok(&["completions", "bash"]);
    assert!(out.contains("course"));
    assert!(out.contains("list-schedule") || out.contains("drill"));
}

#[test]
fn check_exit_codes() {
    let o = common::course(
        &["drill", "rthroughput", "--seed", "3", "--check", "-"],
        "999",
    );
    assert_eq!(o.code, 1);
    let sol = common::ok(&[
        "drill",
        "rthroughput",
        "--seed",
        "3",
        "--solution",
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&sol).unwrap();
    let ans = j["solution"]["rthroughput"].as_str().unwrap().to_string();
    assert_eq!(
        common::course(
            &["drill", "rthroughput", "--seed", "3", "--check", "-"],
            &ans
        )
        .code,
        0
    );
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_course"))
        .args(["gen", "block", "--ops", "200000", "--seed", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn colour_follows_the_flag() {
    let o = common::course(
        &[
            "--color", "always", "drill", "mii", "--seed", "2", "--check", "-",
        ],
        "mii 1\n",
    );
    assert!(o.stdout.contains("\u{1b}[31m✗"));
    let o = common::course(
        &[
            "--color", "never", "drill", "mii", "--seed", "2", "--check", "-",
        ],
        "mii 1\n",
    );
    assert!(!o.stdout.contains('\u{1b}'));
}

#[test]
fn json_uses_the_contract_names() {
    let j: serde_json::Value = serde_json::from_str(&common::ok(&[
        "analyze",
        "labs/ch23-sched/inputs/running.txt",
        "--format",
        "json",
    ]))
    .unwrap();
    for key in [
        "machine",
        "ops",
        "edges",
        "res_mii",
        "rec_mii",
        "mii",
        "rthroughput",
    ] {
        assert!(j.get(key).is_some(), "missing {key}");
    }
    assert_eq!(j["machine"]["issue_width"], 2);
    assert_eq!(j["ops"][7]["text"], "store [w], r2");
    assert_eq!(j["edges"][0]["from"], "a");
    assert_eq!(j["rthroughput"], "5");
    let s: serde_json::Value = serde_json::from_str(&common::ok(&[
        "schedule",
        "labs/ch23-sched/inputs/running.txt",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(s["schedule"]["i"], 8);
    assert_eq!(s["length"], 10);
}

#[test]
fn dot_graphs() {
    let out = common::ok(&[
        "analyze",
        "labs/ch23-sched/inputs/running.txt",
        "--format",
        "dot",
    ]);
    assert!(out.starts_with("digraph \"running\" {"));
    assert!(out.contains("\"g\" -> \"h\" [style=dotted, label=\"0\"];"));
}

#[test]
fn gen_output_parses_and_is_seeded() {
    let a = common::ok(&["gen", "loop", "--ops", "12", "--seed", "7"]);
    assert!(a.contains("loop l7"));
    assert_eq!(
        a.lines()
            .filter(|l| l.contains(':') && !l.starts_with('#'))
            .count(),
        12
    );
    let o = common::course(&["analyze", "-"], &a);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_ne!(
        a,
        common::ok(&["gen", "loop", "--ops", "12", "--seed", "8"])
    );
}

#[test]
fn a_drill_without_seed_prints_the_seed() {
    let o = common::course(&["drill", "list-schedule"], "");
    assert_eq!(o.code, 0);
    assert!(o.stderr.contains("using --seed"));
}

#[test]
fn course_dir_overrides_the_built_in_drill_parameters() {
    let dir = std::env::temp_dir().join(format!("course-dir-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("drills")).unwrap();
    let yaml = include_str!("../../drills/list-schedule.yaml")
        .replace("ops: { min: 8, max: 12 }", "ops: { min: 3, max: 3 }");
    std::fs::write(dir.join("drills/list-schedule.yaml"), yaml).unwrap();
    let d = dir.to_string_lossy().to_string();
    let out = common::ok(&[
        "--course-dir",
        &d,
        "drill",
        "list-schedule",
        "--seed",
        "5",
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["ops"].as_array().unwrap().len(), 3);
    std::fs::write(dir.join("drills/list-schedule.yaml"), "ops: { min: 3 }\n").unwrap();
    let o = common::course(
        &["--course-dir", &d, "drill", "list-schedule", "--seed", "5"],
        "",
    );
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("drills/list-schedule.yaml"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn drills_run_on_another_machine() {
    let out = common::ok(&[
        "--machine",
        "tests/data/wide.yaml",
        "drill",
        "list-schedule",
        "--seed",
        "3",
        "--solution",
    ]);
    assert!(out.contains("machine wide"));
    assert!(out.contains("mul (2)"));
}

#[test]
fn loops_get_a_modulo_schedule() {
    let text = common::ok(&["gen", "loop", "--ops", "10", "--seed", "11"]);
    let o = common::course(&["schedule", "-", "--format", "json"], &text);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let j: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let ii = j["ii"].as_u64().unwrap();
    let a: serde_json::Value =
        serde_json::from_str(&common::course(&["analyze", "-", "--format", "json"], &text).stdout)
            .unwrap();
    assert!(ii >= a["mii"].as_u64().unwrap());
    let o = common::course(&["schedule", "-"], &text);
    assert!(o
        .stdout
        .contains("Modulo reservation table (rows = cycle mod II)"));
}
