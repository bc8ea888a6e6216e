//! Untrusted submissions: every kind of bad file gets a clear message, the
//! batch goes on, memory stays bounded, and the reports stay well-formed.

use std::path::Path;

use crate::common::{self, Course, first_message};

const RUNNING: &str = "labs/ch23-sched/inputs/running.txt";
const DOT: &str = "labs/ch23-sched/inputs/dot.txt";
const GOOD: &str = "c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n";

/// Grades `bytes` against `input`; the JSON report and the exit code.
fn grade_bytes(input: &str, bytes: &[u8]) -> (i32, serde_json::Value) {
    let d = common::tempdir();
    let f = d.path().join("sub.sched");
    std::fs::write(&f, bytes).unwrap();
    let o = Course::new(["grade", input])
        .args([&f])
        .args(["--format", "json"])
        .any_code()
        .run();
    (o.code, o.json())
}

/// `course grade --lab ch23-sched DIR --format FORMAT`.
fn grade_lab(dir: &Path, format: &str) -> common::Output {
    Course::new(["grade", "--lab", "ch23-sched"])
        .args([dir])
        .args(["--format", format])
        .any_code()
        .run()
}

#[test]
fn each_bad_submission_gets_a_clear_message() {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", b"".to_vec(), "no cycle for a, b, c"),
        (
            "binary",
            vec![0xff, 0xfe, 0x00, 0x81, b'\n'],
            "not a text file (invalid UTF-8 at byte 0)",
        ),
        (
            "2^63",
            format!("{GOOD}a 9223372036854775808\n").into_bytes(),
            "out of range",
        ),
        (
            "huge",
            GOOD.replace("j 9", "j 99999999999999999999999")
                .into_bytes(),
            "out of range",
        ),
        (
            "negative",
            GOOD.replace("c 0", "c -1").into_bytes(),
            "negative",
        ),
        (
            "duplicate",
            format!("{GOOD}c 3\n").into_bytes(),
            "c is placed twice (first on line 1)",
        ),
        (
            "unknown",
            format!("{GOOD}zz 3\n").into_bytes(),
            "'zz' is not an operation of running",
        ),
        ("nul bytes", b"c 0\0\n".to_vec(), "found '0\\u{0}'"),
        (
            "ii on a block",
            format!("{GOOD}ii 2\n").into_bytes(),
            "'ii' belongs to loop submissions",
        ),
    ];
    for (what, bytes, expect) in cases {
        let (code, j) = grade_bytes(RUNNING, &bytes);
        assert_eq!(code, 1, "{what}");
        assert_eq!(j["valid"], false, "{what}");
        let all: Vec<String> = j["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["message"].as_str().unwrap_or("").to_string())
            .collect();
        assert!(all.iter().any(|m| m.contains(expect)), "{what}: {all:?}");
    }
}

#[test]
fn crlf_bom_tabs_and_trailing_spaces_are_fine() {
    let text = format!(
        "\u{feff}{}",
        GOOD.replace('\n', "  \r\n").replace(' ', "\t")
    );
    let (code, j) = grade_bytes(RUNNING, text.as_bytes());
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["score"], 10.0);
}

#[test]
fn loops_need_a_sensible_ii() {
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("solutions/ch23-sched/dot.sched"),
    )
    .unwrap();
    let no_ii: String = reference
        .lines()
        .filter(|l| !l.starts_with("ii"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (_, j) = grade_bytes(DOT, no_ii.as_bytes());
    assert!(first_message(&j).contains("needs an 'ii N' line"), "{j}");
    let (_, j) = grade_bytes(DOT, reference.replace("ii 4", "ii 0").as_bytes());
    assert!(first_message(&j).contains("ii 0"), "{j}");
    let (_, j) = grade_bytes(
        DOT,
        reference
            .replace("ii 4", "ii 9223372036854775807")
            .as_bytes(),
    );
    assert!(first_message(&j).contains("out of range"), "{j}");
    // A huge but representable II is graded (sparse tables), not allocated.
    let (code, j) = grade_bytes(
        DOT,
        reference.replace("ii 4", "ii 1000000000000").as_bytes(),
    );
    assert_eq!(code, 0, "{j}");
    assert!(j["score"].as_f64().unwrap() < 7.0);
}

#[test]
fn fifty_megabytes_are_refused_without_reading_them_all() {
    let d = common::tempdir();
    let f = d.path().join("big.sched");
    let line = "a 1\n".repeat(1 << 20);
    let mut data = String::with_capacity(50 << 20);
    while data.len() < 50 << 20 {
        data.push_str(&line);
    }
    std::fs::write(&f, &data).unwrap();
    let j = Course::new(["grade", RUNNING])
        .args([&f])
        .args(["--format", "json"])
        .code(1)
        .run()
        .json();
    assert!(
        first_message(&j).contains("larger than the 1024 KiB limit"),
        "{j}"
    );
}

#[test]
fn a_class_folder_with_bad_files_is_graded_whole() {
    let tmp = common::tempdir();
    let d = tmp.path();
    // alice: every reference; bob: garbage, a missing file, a bad cycle; carol: empty folder.
    let sol = Path::new(env!("CARGO_MANIFEST_DIR")).join("solutions/ch23-sched");
    std::fs::create_dir_all(d.join("alice")).unwrap();
    std::fs::create_dir_all(d.join("bob")).unwrap();
    std::fs::create_dir_all(d.join("carol")).unwrap();
    for e in std::fs::read_dir(&sol).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "sched") {
            std::fs::copy(e.path(), d.join("alice").join(e.file_name())).unwrap();
        }
    }
    std::fs::write(d.join("bob/running.sched"), [0xffu8, 0, 1, 2]).unwrap();
    std::fs::write(d.join("bob/dot.sched"), "ii 4\na -5\n").unwrap();
    let o = grade_lab(d, "gradescope");
    assert_eq!(o.code, 1);
    let j = o.json();
    assert_eq!(j["alice"]["score"], 80.0);
    assert_eq!(j["bob"]["score"], 0.0);
    for st in ["alice", "bob", "carol"] {
        let tests = j[st]["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 8);
        for t in tests {
            for k in ["name", "score", "max_score", "status", "output"] {
                assert!(t.get(k).is_some(), "{st}: {k}");
            }
        }
    }
    assert!(
        j["bob"]["tests"][0]["output"]
            .as_str()
            .unwrap()
            .contains("not a text file")
    );
    let csv = grade_lab(d, "csv-long").stdout;
    assert_eq!(csv.lines().count(), 1 + 3 * 8);
    let book = grade_lab(d, "csv").stdout;
    assert_eq!(book.lines().count(), 1 + 3, "{book}");
    assert!(
        book.contains("\nalice,,,80,80,10,10,10,10,10,10,10,10,\n"),
        "{book}"
    );
    let lab = |folder: &Path| Course::new(["grade", "--lab", "ch23-sched"]).args([folder]);
    // One student folder alone.
    let o = lab(&d.join("alice")).run();
    assert!(o.stdout.starts_with("== alice: 80/80"), "{}", o.stdout);
    // Nothing gradable: exit 2.
    lab(&d.join("carol")).code(2).run();
    Course::new(["grade", "--lab", "no-such-lab"])
        .args([d])
        .code(2)
        .run();
}

#[test]
fn two_hundred_students_grade_in_one_command() {
    let tmp = common::tempdir();
    let d = tmp.path();
    let sol = Path::new(env!("CARGO_MANIFEST_DIR")).join("solutions/ch23-sched");
    let refs: Vec<(String, String)> = std::fs::read_dir(&sol)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "sched"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    let mut rng = course_engine::util::rng::Rng::new(200);
    for s in 0..200 {
        let sd = d.join(format!("student{s:03}"));
        std::fs::create_dir_all(&sd).unwrap();
        for (name, text) in &refs {
            let body = match rng.below(4) {
                0 => text.clone(),
                // Shift one line's cycle by one.
                1 => text.replacen(" 1\n", " 2\n", 1),
                2 => text
                    .lines()
                    .skip(1 + rng.below(3) as usize)
                    .map(|l| format!("{l}\n"))
                    .collect(),
                _ => "garbage \u{1}\n".to_string(),
            };
            std::fs::write(sd.join(name), body).unwrap();
        }
    }
    let o = grade_lab(d, "gradescope");
    assert!(o.code == 0 || o.code == 1, "{}", o.stderr);
    let j = o.json();
    assert_eq!(j.as_object().unwrap().len(), 200);
    for (_, r) in j.as_object().unwrap() {
        assert!(r["score"].is_number() && r["output"].is_string());
        assert_eq!(r["tests"].as_array().unwrap().len(), 8);
    }
    let csv = grade_lab(d, "csv-long").stdout;
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 1 + 200 * 8);
    assert_eq!(grade_lab(d, "csv").stdout.lines().count(), 1 + 200);
    assert!(rows[1..].iter().all(|r| r.starts_with("student")));
}
