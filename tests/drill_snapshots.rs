//! Snapshots of both lesson drills, problem and solution, text and JSON, for
//! seeds 1–20, plus the other drills for a few seeds. Any change to a
//! generator or a view shows up here for review.

mod common;

fn snap(name: &str, args: &[&str]) {
    let out = common::ok(args);
    insta::assert_snapshot!(name, out);
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
        assert_eq!(common::ok(&args), common::ok(&args));
    }
    assert_eq!(
        common::ok(&["gen", "loop", "--ops", "12", "--seed", "7"]),
        common::ok(&["gen", "loop", "--ops", "12", "--seed", "7"])
    );
}

#[test]
fn check_explains_and_diffs() {
    // The reference from the JSON solution, then one op moved.
    let j: serde_json::Value = serde_json::from_str(&common::ok(&[
        "drill",
        "list-schedule",
        "--seed",
        "4",
        "--solution",
        "--format",
        "json",
    ]))
    .unwrap();
    let sched = j["solution"]["schedule"].as_object().unwrap();
    let good: String = sched.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
    let o = common::course(
        &["drill", "list-schedule", "--seed", "4", "--check", "-"],
        &good,
    );
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert!(o.stdout.contains("✓ correct"));
    let bad = good.replace("i 4", "i 3");
    let o = common::course(
        &["drill", "list-schedule", "--seed", "4", "--check", "-"],
        &bad,
    );
    assert_eq!(o.code, 1);
    insta::assert_snapshot!("list_schedule_04_check_wrong", o.stdout);
    let o = common::course(
        &["drill", "mii", "--seed", "2", "--check", "-"],
        "res_mii 1\nrec_mii 2\n",
    );
    assert_eq!(o.code, 1);
    insta::assert_snapshot!("mii_02_check_wrong", o.stdout);
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
            "# no braces\nF(A,A) = 0,1\n",
            "✗ <stdin>:2:10: F(A,A): '0,1' does not start with '{'",
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
        let o = common::course(&["drill", drill, "--seed", "1", "--check", "-"], answer);
        assert_eq!(o.code, 1, "{drill}: {}", o.stdout);
        assert!(o.stdout.contains(expect), "{drill}: {}", o.stdout);
        let o = common::course(
            &[
                "drill", drill, "--seed", "1", "--check", "-", "--format", "json",
            ],
            answer,
        );
        let j: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        let want = expect.trim_start_matches("✗ ");
        let located = j["mistakes"].as_array().unwrap().iter().any(|m| {
            m["kind"] == "format" && m["message"].as_str().is_some_and(|s| s.starts_with(want))
        });
        assert!(located, "{drill}: {}", o.stdout);
    }
}
