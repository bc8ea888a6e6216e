//! Snapshots of both lesson drills, problem and solution, text and JSON, for
//! seeds 1–20, plus the other drills for a few seeds. Any change to a
//! generator or a view shows up here for review.

use crate::common::{self, Course};

fn snap(name: &str, args: &[&str]) {
    let out = common::ok(args);
    common::snapshot!(name, out);
}

#[test]
fn list_schedule_and_mii_seeds_1_to_20() {
    for drill in ["list-schedule", "mii"] {
        for seed in 1..=20 {
            let s = seed.to_string();
            let key = drill.replace('-', "_");
            snap(
                &format!("{key}_{seed:02}_problem"),
                &["drill", drill, "--seed", &s],
            );
            snap(
                &format!("{key}_{seed:02}_solution"),
                &["drill", drill, "--seed", &s, "--solution"],
            );
            snap(
                &format!("{key}_{seed:02}_solution_json"),
                &[
                    "drill",
                    drill,
                    "--seed",
                    &s,
                    "--solution",
                    "--format",
                    "json",
                ],
            );
        }
    }
}

#[test]
fn other_drills() {
    for drill in ["modulo", "forbidden", "hazard", "rthroughput"] {
        for seed in 1..=3 {
            let s = seed.to_string();
            snap(
                &format!("{drill}_{seed:02}_solution"),
                &["drill", drill, "--seed", &s, "--solution"],
            );
        }
    }
    snap("drill_list", &["drill", "list"]);
}

#[test]
fn same_seed_same_bytes() {
    for args in [
        [
            "drill",
            "list-schedule",
            "--seed",
            "4",
            "--solution",
            "--format",
            "text",
        ],
        [
            "drill",
            "mii",
            "--seed",
            "2",
            "--solution",
            "--format",
            "json",
        ],
        [
            "drill",
            "hazard",
            "--seed",
            "9",
            "--solution",
            "--format",
            "json",
        ],
    ] {
        assert_eq!(common::ok(args), common::ok(args));
    }
    assert_eq!(
        common::ok(["gen", "loop", "--ops", "12", "--seed", "7"]),
        common::ok(["gen", "loop", "--ops", "12", "--seed", "7"])
    );
}

#[test]
fn check_explains_and_diffs() {
    // The reference from the JSON solution, then one op moved.
    let drill = ["drill", "list-schedule", "--seed", "4"];
    let j = Course::new(drill)
        .args(["--solution", "--format", "json"])
        .run()
        .json();
    let sched = j["solution"]["schedule"].as_object().unwrap();
    let good: String = sched.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
    let check = || Course::new(drill).args(["--check", "-"]);
    check().stdin(&good).stdout_has("✓ correct").run();
    let bad = good.replace("i 4", "i 3");
    let o = check().stdin(bad).code(1).run();
    common::snapshot!("list_schedule_04_check_wrong", o.stdout);
    let o = Course::new(["drill", "mii", "--seed", "2", "--check", "-"])
        .stdin("res_mii 1\nrec_mii 2\n")
        .code(1)
        .run();
    common::snapshot!("mii_02_check_wrong", o.stdout);
}

#[test]
fn malformed_answers_get_located_format_errors() {
    for (drill, answer, expect) in [
        (
            "forbidden",
            "F(A,A) = {1, 2\n",
            "✗ <stdin>:1:10: F(A,A): '{1, 2' does not end with '}'",
        ),
        (
            "forbidden",
            "# a range\nF(A,A) = 0..1\n",
            "✗ <stdin>:2:10: F(A,A): '0..1' is a range, and ranges are not read",
        ),
        (
            "hazard",
            "accept {0; 2}\n",
            "✗ <stdin>:1:8: '0;' in '{0; 2}': separate elements with commas",
        ),
        (
            "rthroughput",
            "\u{feff}  2,5\r\n",
            "✗ <stdin>:1:3: '2,5' is not a number (write 5/2 or 2.5)",
        ),
        (
            "mii",
            "res_mii: four\n",
            "✗ <stdin>:1:10: res_mii: 'four' is not a whole number",
        ),
        (
            "list-schedule",
            "a\n",
            "✗ <stdin>:1:1: expected 'LABEL CYCLE' or 'ii N', found 'a'",
        ),
    ] {
        Course::new(["drill", drill, "--seed", "1", "--check", "-"])
            .stdin(answer)
            .code(1)
            .stdout_has(expect)
            .run();
        let j = Course::new([
            "drill", drill, "--seed", "1", "--check", "-", "--format", "json",
        ])
        .stdin(answer)
        .code(1)
        .run()
        .json();
        let want = expect.trim_start_matches("✗ ");
        let located = j["mistakes"].as_array().unwrap().iter().any(|m| {
            m["kind"] == "format" && m["message"].as_str().is_some_and(|s| s.starts_with(want))
        });
        assert!(located, "{drill}: {j}");
    }
}
