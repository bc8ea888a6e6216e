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

/// Issue 11, point 11: `--format dot` is a value only where a graph is
/// drawn; clap refuses it elsewhere (exit 2, the values it takes).
#[test]
fn dot_is_offered_only_where_there_is_a_graph() {
    let running = "labs/ch23-sched/inputs/running.txt";
    for cmd in ["schedule", "analyze"] {
        Course::new([cmd, running, "--format", "dot"])
            .stdout_has("digraph")
            .run();
    }
    for args in [
        vec!["drill", "mii", "--seed", "2", "--format", "dot"],
        vec!["drill", "list", "--format", "dot"],
        vec!["machine", "--format", "dot"],
    ] {
        Course::new(args)
            .code(2)
            .stderr_has("invalid value 'dot' for '--format <FORMAT>'")
            .stderr_has("[possible values: text, json]")
            .run();
    }
    let values = |cmd: &str| {
        let help = common::ok([cmd, "--help"]);
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let at = flat.find("--format <FORMAT>").expect("--format");
        flat[at..]
            .split("[possible values: ")
            .nth(1)
            .and_then(|v| v.split(']').next())
            .unwrap_or_default()
            .to_string()
    };
    for cmd in ["drill", "machine"] {
        assert_eq!(values(cmd), "text, json", "{cmd}");
    }
    for cmd in ["schedule", "analyze"] {
        let help = common::ok([cmd, "--help"]);
        assert!(help.contains("- dot:  Graphviz dependence graph"), "{help}");
    }
}

/// Issue 11, point 11: `--machine` works on every command, `course machine`
/// included; an unknown name lists the built-in machines, and so does
/// `--help`.
#[test]
fn machine_is_global_and_names_are_listed() {
    let by_flag = common::ok(["machine", "--machine", "skylake-div"]);
    let by_name = common::ok(["machine", "skylake-div"]);
    assert!(by_flag.starts_with("machine skylake-div"), "{by_flag}");
    assert_eq!(by_flag, by_name);
    assert_eq!(common::ok(["--machine", "skylake-div", "machine"]), by_name);
    Course::new(["machine", "toy", "--machine", "skylake-div"])
        .code(2)
        .stderr_has("two machines")
        .run();
    let mut listed = None;
    for args in [
        vec!["machine", "nosuch"],
        vec!["machine", "--machine", "nosuch"],
        vec!["--machine", "nosuch", "drill", "mii", "--seed", "1"],
        vec!["quiz", "23", "--list", "--machine", "nosuch"],
    ] {
        let o = Course::new(args)
            .code(2)
            .stderr_has("unknown machine `nosuch`: neither a built-in machine (toy, ")
            .stderr_has(") nor a file")
            .run();
        let names = o
            .stderr
            .split("built-in machine (")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .unwrap()
            .to_string();
        assert_eq!(listed.get_or_insert(names.clone()), &names);
    }
    // Every name listed is a machine, and `--help` lists them all.
    let listed = listed.unwrap();
    let names: Vec<&str> = listed.split(", ").collect();
    assert!(
        names.len() >= 3 && names.contains(&"skylake-div"),
        "{listed}"
    );
    for name in &names {
        Course::new(["machine", name, "--format", "json"]).run();
    }
    for cmd in [
        vec!["--help"],
        vec!["machine", "--help"],
        vec!["mca", "--help"],
    ] {
        let help = common::ok(cmd);
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&listed), "{help}");
    }
    // A missing file is still reported as a file.
    Course::new(["machine", "missing.yaml"])
        .code(2)
        .stderr_has("missing.yaml: no such file")
        .run();
}

/// Issue 11, point 11: the README's drill table names every drill.
#[test]
fn the_readme_names_every_drill() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| `course drill list` |"))
        .expect("a `course drill list` row");
    let list = Course::new(["drill", "list", "--format", "json"])
        .run()
        .json();
    let drills = list.as_array().expect("a list");
    assert!(drills.len() >= 6);
    for d in drills {
        let name = d["name"].as_str().expect("a name");
        assert!(row.contains(&format!("`{name}`")), "{name} missing: {row}");
    }
}

/// Issue 11, point 14: `./course` says on stderr that it builds (and that
/// the first build takes a few minutes) when there is no binary yet, and
/// says nothing when the binary is up to date. A stand-in `cargo` plays the
/// build.
#[cfg(unix)]
#[test]
fn the_course_script_says_it_is_building() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = common::tempdir();
    let dir = tmp.path();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("cargo");
    std::fs::write(
        &fake,
        "#!/bin/sh\nmkdir -p \"$CARGO_TARGET_DIR/release\"\n\
         printf '#!/bin/sh\\necho ran \"$@\"\\n' > \"$CARGO_TARGET_DIR/release/course\"\n\
         chmod +x \"$CARGO_TARGET_DIR/release/course\"\necho '   Compiling course' >&2\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let target = dir.join("target");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = || {
        std::process::Command::new(common::root().join("course"))
            .args(["drill", "list"])
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap()
    };
    let first = run();
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{err}");
    assert!(err.contains("course: building the course binary"), "{err}");
    assert!(err.contains("the first build takes a few minutes"), "{err}");
    assert!(
        err.contains("Compiling"),
        "cargo's progress is shown: {err}"
    );
    assert_eq!(String::from_utf8_lossy(&first.stdout), "ran drill list\n");
    let again = run();
    assert!(
        again.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&again.stdout), "ran drill list\n");
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("the first build takes a few minutes"));
}
