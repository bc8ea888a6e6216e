//! CLI conventions: help with examples, completions, exit codes, pipes,
//! colour, JSON names, DOT output, the generator.

use std::process::{Command, Stdio};

use crate::common::{self, Course};

#[test]
fn help_has_examples_everywhere() {
    let top = common::ok(["--help"]);
    assert!(top.contains("course drill list-schedule --seed 4 --solution"));
    for cmd in [
        "drill",
        "schedule",
        "analyze",
        "machine",
        "gen",
        "completions",
    ] {
        let h = common::ok([cmd, "--help"]);
        assert!(h.contains("Example"), "{cmd} --help has no examples:\n{h}");
    }
}

#[test]
fn completions_for_bash() {
    let out = common::ok(["completions", "bash"]);
    assert!(out.contains("course"));
    assert!(out.contains("list-schedule") || out.contains("drill"));
}

#[test]
fn check_exit_codes() {
    let check = ["drill", "rthroughput", "--seed", "3", "--check", "-"];
    Course::new(check).stdin("999").code(1).run();
    let j = Course::new(["drill", "rthroughput", "--seed", "3", "--solution"])
        .args(["--format", "json"])
        .run()
        .json();
    let ans = j["solution"]["rthroughput"].as_str().unwrap();
    Course::new(check).stdin(ans).run();
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
    let check = ["drill", "mii", "--seed", "2", "--check", "-"];
    Course::new(["--color", "always"])
        .args(check)
        .stdin("mii 1\n")
        .code(1)
        .stdout_has("\u{1b}[31m✗")
        .run();
    let o = Course::new(["--color", "never"])
        .args(check)
        .stdin("mii 1\n")
        .code(1)
        .run();
    assert!(!o.stdout.contains('\u{1b}'));
}

#[test]
fn json_uses_the_contract_names() {
    let running = "labs/ch23-sched/inputs/running.txt";
    let j = Course::new(["analyze", running, "--format", "json"])
        .run()
        .json();
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
    let s = Course::new(["schedule", running, "--format", "json"])
        .run()
        .json();
    assert_eq!(s["schedule"]["i"], 8);
    assert_eq!(s["length"], 10);
}

#[test]
fn dot_graphs() {
    let out = common::ok([
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
    let a = common::ok(["gen", "loop", "--ops", "12", "--seed", "7"]);
    assert!(a.contains("--seed 7"));
    assert!(a.lines().any(|l| l.starts_with("loop ")));
    assert_eq!(
        a.lines()
            .filter(|l| l.contains(':') && !l.starts_with('#'))
            .count(),
        12
    );
    Course::new(["analyze", "-"]).stdin(&a).run();
    assert_ne!(a, common::ok(["gen", "loop", "--ops", "12", "--seed", "8"]));
}

#[test]
fn a_drill_without_seed_prints_the_seed() {
    Course::new(["drill", "list-schedule"])
        .stderr_has("using --seed")
        .run();
}

#[test]
fn course_dir_overrides_the_built_in_drill_parameters() {
    let tmp = common::tempdir();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("drills")).unwrap();
    let yaml = include_str!("../../drills/list-schedule.yaml")
        .replace("ops: { min: 8, max: 12 }", "ops: { min: 3, max: 3 }");
    std::fs::write(dir.join("drills/list-schedule.yaml"), yaml).unwrap();
    let drill = || {
        Course::new(["--course-dir"])
            .args([dir])
            .args(["drill", "list-schedule", "--seed", "5"])
    };
    let j = drill().args(["--format", "json"]).run().json();
    assert_eq!(j["ops"].as_array().unwrap().len(), 3);
    std::fs::write(dir.join("drills/list-schedule.yaml"), "ops: { min: 3 }\n").unwrap();
    drill()
        .code(2)
        .stderr_has("drills/list-schedule.yaml")
        .run();
}

#[test]
fn drills_run_on_another_machine() {
    // A relative --machine path is read from the working folder.
    Course::new(["--machine", "wide.yaml", "drill", "list-schedule"])
        .args(["--seed", "3", "--solution"])
        .current_dir(common::root().join("tests/data"))
        .stdout_has("machine wide")
        .stdout_has("mul (2)")
        .run();
}

#[test]
fn loops_get_a_modulo_schedule() {
    let text = common::ok(["gen", "loop", "--ops", "10", "--seed", "11"]);
    let json = |cmd| {
        Course::new([cmd, "-", "--format", "json"])
            .stdin(&text)
            .run()
            .json()
    };
    let ii = json("schedule")["ii"].as_u64().unwrap();
    assert!(ii >= json("analyze")["mii"].as_u64().unwrap());
    Course::new(["schedule", "-"])
        .stdin(&text)
        .stdout_has("Modulo reservation table (rows = cycle mod II)")
        .run();
}
