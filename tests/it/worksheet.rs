//! `course worksheet`: each problem is `course drill NAME --seed N`'s
//! output, each solution what `--solution` adds to it, as text and as one
//! printable HTML page; rosters give a sheet per student (names escaped);
//! bad input is exit 2 with a located message.

use crate::common::{self, Course};

/// `s` escaped as the page escapes text.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// `course drill NAME --seed N`'s problem and what `--solution` adds.
fn drill(name: &str, seed: u64) -> (String, String) {
    let s = seed.to_string();
    let problem = common::ok(["drill", name, "--seed", &s]);
    let solved = common::ok(["drill", name, "--seed", &s, "--solution"]);
    let solution = solved
        .strip_prefix(&problem)
        .unwrap_or_else(|| panic!("{name} {seed}: the solution does not follow the problem"))
        .trim_start_matches('\n')
        .to_string();
    (problem, solution)
}

#[test]
fn an_html_worksheet_is_the_drills_problems_then_their_solutions() {
    let drills = ["mii", "list-schedule"];
    let page = common::ok([
        "worksheet",
        "--drill",
        "mii",
        "--drill",
        "list-schedule",
        "--seeds",
        "1-3",
        "--format",
        "html",
    ]);
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n"));
    assert!(page.ends_with("</html>\n"));
    assert!(page.contains("<title>Worksheet: mii, list-schedule</title>"));
    for absent in [
        "<script", "<link", "<img", "<iframe", "http://", "https://", "url(",
    ] {
        assert!(!page.contains(absent), "{absent}");
    }
    for rule in [
        ".solutions { break-before: page;",
        ".sheet + .sheet { break-before: page;",
        "break-inside: avoid;",
        "@media print {",
    ] {
        assert!(page.contains(rule), "{rule}");
    }
    let (problems, solutions) = page
        .split_once("<section class=\"solutions\">")
        .expect("a solutions part");
    assert!(problems.contains("<h2>Problems</h2>"));
    assert!(solutions.starts_with("\n<h2>Solutions</h2>"));
    assert_eq!(problems.matches("<article class=\"problem\"").count(), 6);
    assert_eq!(solutions.matches("<article class=\"problem\"").count(), 6);
    for seed in 1..=3 {
        assert!(problems.contains(&format!("<h3>seed {seed}</h3>")));
        assert!(solutions.contains(&format!("<h3>seed {seed}</h3>")));
        for name in drills {
            let (problem, solution) = drill(name, seed);
            let command = format!("course drill {name} --seed {seed}");
            let want = format!(
                "<h4><code>{command}</code></h4>\n<pre>{}</pre>",
                esc(problem.trim_end_matches('\n'))
            );
            assert!(problems.contains(&want), "{command}");
            let want = format!(
                "<h4><code>{command} --solution</code></h4>\n<pre>{}</pre>",
                esc(solution.trim_end_matches('\n'))
            );
            assert!(solutions.contains(&want), "{command} --solution");
        }
    }
}

#[test]
fn a_text_worksheet_is_a_snapshot_and_holds_the_drills_output() {
    let text = common::ok([
        "worksheet",
        "--drill",
        "mii",
        "--drill",
        "forbidden",
        "--seeds",
        "2,5",
    ]);
    let (problems, solutions) = text
        .split_once(&format!("\n{}\n", "=".repeat(80)))
        .expect("a line between the parts");
    for seed in [2, 5] {
        for name in ["mii", "forbidden"] {
            let (problem, solution) = drill(name, seed);
            assert!(problems.contains(&format!(
                "--- course drill {name} --seed {seed} ---\n\n{problem}"
            )));
            assert!(solutions.contains(&format!(
                "--- course drill {name} --seed {seed} --solution ---\n\n{solution}"
            )));
        }
    }
    common::snapshot!("mii_forbidden_seeds_2_5", text);
}

#[test]
fn a_roster_gives_each_student_a_sheet_and_a_seed() {
    let dir = common::tempdir();
    let roster = dir.path().join("class.csv");
    std::fs::write(
        &roster,
        "name,email\n# section B\nAda Lovelace,ada@example.edu\n\n\
         \"Turing, Alan\",alan@example.edu\n<script>alert('x')</script>,evil@example.edu\n",
    )
    .unwrap();
    let out = dir.path().join("sheets.html");
    Course::new([
        "worksheet",
        "--drill",
        "rthroughput",
        "--first-seed",
        "40",
        "--format",
        "html",
    ])
    .arg("--roster")
    .arg_path(&roster)
    .arg("--output")
    .arg_path(&out)
    .stderr_has("(3 sheets, 3 problems)")
    .run();
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(!page.contains("<script"), "a name became markup");
    for (who, seed) in [
        ("Ada Lovelace", 40),
        ("Turing, Alan", 41),
        ("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;", 42),
    ] {
        let heading = format!("<h3>{who} · seed {seed}</h3>");
        assert_eq!(page.matches(&heading).count(), 2, "{heading}");
        let (problem, _) = drill("rthroughput", seed);
        assert!(page.contains(&esc(problem.trim_end())));
    }
    // The text keeps the names as written; the same sheets.
    let text = Course::new(["worksheet", "--drill", "rthroughput", "--first-seed", "40"])
        .arg("--roster")
        .arg_path(&roster)
        .run()
        .stdout;
    assert!(text.contains("\n=== <script>alert('x')</script> · seed 42 ===\n"));
    assert!(text.starts_with("Worksheet: rthroughput\n3 students · 3 problems · seeds 40-42"));
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let dir = common::tempdir();
    let write = |name: &str, text: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let refused = |args: &[&str], roster: Option<&std::path::Path>, message: &str| {
        let mut c = Course::new(["worksheet"]).args(args);
        if let Some(r) = roster {
            c = c.arg("--roster").arg_path(r);
        }
        c.code(2).stderr_has(message).run();
    };
    refused(
        &["--seeds", "1"],
        None,
        "no drill chosen: give one or more of list-schedule, mii",
    );
    refused(
        &["--drill", "mi", "--seeds", "1"],
        None,
        "a similar value exists: 'mii'",
    );
    refused(
        &["--drill", "mii"],
        None,
        "Give --seeds LIST (1-3, or 1,4,7) or --roster FILE",
    );
    refused(
        &["--drill", "mii", "--seeds", "3-1"],
        None,
        "the range 3-1 is reversed: write 1-3",
    );
    refused(
        &["--drill", "mii", "--seeds", "1-99999999999"],
        None,
        "more than 500 seeds",
    );
    refused(
        &["--drill", "mii", "--seeds", "1", "--first-seed", "2"],
        None,
        "--first-seed",
    );
    let missing = dir.path().join("nobody.txt");
    refused(
        &["--drill", "mii"],
        Some(&missing),
        "nobody.txt: no such file",
    );
    let empty = write("empty.txt", b"# nobody yet\n\n");
    refused(
        &["--drill", "mii"],
        Some(&empty),
        "empty.txt:1:1: no student",
    );
    let control = write("control.txt", b"ada\nbob\x1b[31m\n");
    refused(
        &["--drill", "mii"],
        Some(&control),
        "control.txt:2:4: a control character (U+001B)",
    );
    let long = write(
        "long.txt",
        format!("ada\n{}\n", "x".repeat(2000)).as_bytes(),
    );
    refused(
        &["--drill", "mii"],
        Some(&long),
        "long.txt:2:1001: a roster line longer than 1000",
    );
    let binary = write("binary.txt", b"ada\n\xff\xfe\n");
    refused(
        &["--drill", "mii"],
        Some(&binary),
        "binary.txt:2:1: not UTF-8 text",
    );
}

#[test]
fn the_help_has_examples() {
    let h = common::ok(["worksheet", "--help"]);
    assert!(
        h.contains("Examples:\n  course worksheet --drill mii"),
        "{h}"
    );
    assert!(common::ok(["--help"]).contains("worksheet"));
}
