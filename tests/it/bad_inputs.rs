//! Bad inputs of every kind: one clear message naming the file, line and
//! column (or the field, for machines), exit code 2, never a panic.
//!
//! Each input in `tests/data/bad/` has its expected message next to it:
//! `NAME.err` (the input's whole file name, then `.err`) holds the exact
//! standard error of every command run on it, from the repository root.
//! Exact rather than a substring, so a changed word or a second message
//! shows up; `COURSE_BLESS=1 cargo test bad_inputs` writes missing or
//! changed `.err` files for review. Lab inputs (`.txt`) are run through
//! `schedule` and `analyze`, machine files (`.yaml`) through `machine` and
//! `--machine FILE schedule`.

use std::path::Path;

use crate::common::{self, Course};

const BAD: &str = "tests/data/bad";
const RUNNING: &str = "labs/ch23-sched/inputs/running.txt";

/// The commands run on one bad input, by its extension.
fn commands(path: &str) -> Option<Vec<Vec<&str>>> {
    match Path::new(path).extension()?.to_str()? {
        "txt" => Some(vec![vec!["schedule", path], vec!["analyze", path]]),
        "yaml" => Some(vec![
            vec!["machine", path],
            vec!["--machine", path, "schedule", RUNNING],
        ]),
        _ => None,
    }
}

#[test]
fn every_bad_input_prints_its_err_file() {
    let dir = common::root().join(BAD);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/data/bad")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut problems = Vec::new();
    let mut inputs = 0;
    for name in &names {
        if let Some(input) = name.strip_suffix(".err") {
            if !names.iter().any(|n| n == input) {
                problems.push(format!("{BAD}/{name}: no input {input} beside it"));
            }
            continue;
        }
        inputs += 1;
        let path = format!("{BAD}/{name}");
        let Some(mut runs) = commands(&path) else {
            problems.push(format!("{path}: no commands for this extension"));
            continue;
        };
        // A lab input whose first line is `# --machine NAME` runs there.
        let first = std::fs::read(dir.join(name)).unwrap_or_default();
        let first = String::from_utf8_lossy(&first);
        let machine = first
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# --machine "))
            .map(|m| m.trim().to_string());
        if let Some(m) = &machine {
            for r in &mut runs {
                r.splice(0..0, ["--machine", m.as_str()]);
            }
        }
        let mut stderr: Option<String> = None;
        for args in runs {
            let o = Course::new(&args).code(2).run();
            assert!(o.stdout.is_empty(), "course {args:?} printed\n{}", o.stdout);
            match &stderr {
                None => stderr = Some(o.stderr),
                Some(first) if *first != o.stderr => problems.push(format!(
                    "course {args:?} printed another message:\n{}instead of\n{first}",
                    o.stderr
                )),
                Some(_) => {}
            }
        }
        let err = dir.join(format!("{name}.err"));
        if let Err(e) = common::expect_file(&err, stderr.as_deref().unwrap_or("")) {
            problems.push(e);
        }
    }
    assert!(inputs >= 20, "only {inputs} bad inputs in {BAD}");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn a_missing_file_is_named() {
    Course::new(["schedule", "tests/data/bad/no-such-file.txt"])
        .code(2)
        .stderr_has("no-such-file.txt: no such file")
        .run();
}

#[test]
fn usage_errors() {
    Course::new(["drill", "nope", "--seed", "1"])
        .code(2)
        .stderr_has("invalid value 'nope'")
        .run();
    Course::new(["drill", "nope"])
        .code(2)
        .stderr_has(
            "[possible values: list, list-schedule, mii, modulo, forbidden, hazard, automaton, rthroughput]",
        )
        .run();
    Course::new(["gen", "block", "--ops", "0", "--seed", "1"])
        .code(2)
        .stderr_has("--ops must be between 1")
        .run();
    Course::new(["frobnicate"]).code(2).run();
    Course::new(["schedule", "-"])
        .stdin("block b\na: r1 = frob 1\n")
        .code(2)
        .stderr_has("<stdin>:2:9: unknown opcode")
        .run();
}

#[test]
fn several_problems_in_one_file_are_all_reported() {
    Course::new(["analyze", "-"])
        .stdin("block b\na: r1 = frob 1\nb: r2 = add r1\nc r3 = li 2\n")
        .code(2)
        .stderr_has("<stdin>:2:9")
        .stderr_has("<stdin>:4:3")
        .run();
}
