//! `course quiz 23` end to end: piped stdin (all right, all wrong,
//! malformed answers, early end of input), answer files, listing, the
//! instructor view, and exit codes.

use crate::common::{self, course};

/// The questions for a seed and tag, from the instructor view.
fn reveal(seed: &str, tag: Option<&str>) -> Vec<serde_json::Value> {
    let mut args = vec!["quiz", "23", "--reveal", "--format", "json", "--seed", seed];
    if let Some(t) = tag {
        args.extend(["--tag", t]);
    }
    let o = course(&args, "");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("json");
    v["questions"].as_array().expect("questions").clone()
}

fn right(q: &serde_json::Value) -> String {
    q["answer"].as_str().unwrap().to_string()
}

/// A well-formed answer that earns nothing.
fn wrong(q: &serde_json::Value) -> String {
    let answer = right(q);
    match q["kind"].as_str().unwrap() {
        "number" => "999".into(),
        "set" => "{99}".into(),
        "single" | "multiple" => {
            let n = q["choices"].as_array().unwrap().len();
            (0..n)
                .map(|i| ((b'a' + i as u8) as char).to_string())
                .find(|l| !answer.split(", ").any(|a| a == l))
                .unwrap()
        }
        _ => "no such thing".into(),
    }
}

#[test]
fn all_right_through_piped_stdin() {
    let qs = reveal("7", None);
    assert!(qs.len() >= 20);
    let input: String = qs.iter().map(|q| right(q) + "\n").collect();
    let o = course(&["quiz", "23", "--seed", "7"], &input);
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert!(o
        .stdout
        .contains(&format!("Score: {n}/{n} (100%): right {n}", n = qs.len())));
    assert_eq!(o.stdout.matches("Right.").count(), qs.len());
    assert_eq!(o.stdout.matches("Why:").count(), qs.len());

    let qs = reveal("7", Some("llvm-mca"));
    let input: String = qs.iter().map(|q| right(q) + "\n").collect();
    let o = course(&["quiz", "23", "--seed", "7", "--tag", "llvm-mca"], &input);
    assert_eq!(o.code, 0);
    common::snapshot!("interactive_all_right_llvm_mca", o.stdout);
}

#[test]
fn all_wrong_through_piped_stdin() {
    let qs = reveal("11", None);
    let input: String = qs.iter().map(|q| wrong(q) + "\n").collect();
    let o = course(&["quiz", "23", "--seed", "11"], &input);
    assert_eq!(o.code, 1);
    assert!(
        o.stdout
            .contains(&format!("Score: 0/{n} (0%): wrong {n}", n = qs.len())),
        "{}",
        o.stdout
    );
    assert_eq!(o.stdout.matches("Wrong. The answer is").count(), qs.len());

    let qs = reveal("11", Some("machine-model"));
    let input: String = qs.iter().map(|q| wrong(q) + "\n").collect();
    let o = course(
        &["quiz", "23", "--seed", "11", "--tag", "machine-model"],
        &input,
    );
    assert_eq!(o.code, 1);
    common::snapshot!("interactive_all_wrong_machine_model", o.stdout);
}

#[test]
fn malformed_answers_are_said_and_asked_again_once() {
    let qs = reveal("3", Some("reservation-tables"));
    let kind = |i: usize| qs[i]["kind"].as_str().unwrap().to_string();
    let mut input = String::new();
    for (i, q) in qs.iter().enumerate() {
        match (i, kind(i).as_str()) {
            // Unreadable once, then right: full credit after the retry.
            (0, _) => input += &format!("abc\n{}\n", right(q)),
            // Unreadable twice: a format error, no credit.
            (_, "set") if i < 3 => input += "{0, x}\n{zero}\n",
            (_, "number") | (_, "set") => input += &format!("{}\n", right(q)),
            (_, "single") | (_, "multiple") => input += "zz\nqq\n",
            _ => input += &format!("{}\n", right(q)),
        }
    }
    let o = course(
        &["quiz", "23", "--seed", "3", "--tag", "reservation-tables"],
        &input,
    );
    assert_eq!(o.code, 1);
    assert!(
        o.stdout.contains("Cannot read that: `abc` is not a number"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("Format error:"));
    common::snapshot!("interactive_malformed", o.stdout);
}

#[test]
fn end_of_input_stops_gracefully() {
    let qs = reveal("5", None);
    let o = course(
        &["quiz", "23", "--seed", "5"],
        &format!("{}\n", right(&qs[0])),
    );
    assert_eq!(o.code, 1);
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    assert!(o.stdout.contains(&format!(
        "Input ended: {} question(s) left unanswered.",
        qs.len() - 1
    )));
    assert!(o.stdout.contains(&format!("Score: 1/{} ", qs.len())));
    assert!(o.stdout.contains(&format!("unanswered {}", qs.len() - 1)));
    let empty = course(&["quiz", "23", "--seed", "5"], "");
    assert_eq!(empty.code, 1);
    assert!(empty
        .stdout
        .contains(&format!("Score: 0/{n} (0%): unanswered {n}", n = qs.len())));
}

#[test]
fn the_seed_is_printed_and_repeats_the_quiz() {
    let o = course(&["quiz", "23", "--tag", "llvm-mca"], "");
    let seed = o
        .stdout
        .split("seed ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("seed printed")
        .to_string();
    let again = course(&["quiz", "23", "--tag", "llvm-mca", "--seed", &seed], "");
    assert_eq!(o.stdout, again.stdout);
}

fn answers_file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("course-quiz-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn answer_files_are_graded_per_question() {
    let dir = tempdir("answers");
    let qs = reveal("42", None);
    let all: String = std::iter::once("seed: 42\n".to_string())
        .chain(
            qs.iter()
                .map(|q| format!("{}: {}\n", q["id"].as_str().unwrap(), right(q))),
        )
        .collect();
    let f = answers_file(&dir, "all.txt", &all);
    let o = course(&["quiz", "23", "--answers", &f], "");
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert!(o
        .stdout
        .contains(&format!("Score: {n}/{n} (100%)", n = qs.len())));

    // Mixed: right, partial set, wrong, format error, find forms, missing.
    let mixed = "# my answers\nseed: 42\n\
        find-skl-divider: ReleaseAtCycles = 8\n\
        div-mul-forbidden: 0 1 2\n\
        mul-div-forbidden: {0, 1}\n\
        div-issued-at-5: eleven\n\
        skl-div-loop-rthroughput: 32/2\n\
        dot-product-bound: 4.1\n\
        operand-latency: 3\n";
    let f = answers_file(&dir, "mixed.txt", mixed);
    let o = course(
        &[
            "quiz",
            "23",
            "--answers",
            &f,
            "--tag",
            "reservation-tables",
            "--tag",
            "llvm-mca",
        ],
        "",
    );
    assert_eq!(o.code, 1);
    common::snapshot!("answers_mixed_text", o.stdout);
    let j = course(
        &[
            "quiz",
            "23",
            "--answers",
            &f,
            "--format",
            "json",
            "--tag",
            "llvm-mca",
        ],
        "",
    );
    assert_eq!(j.code, 1);
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(v["seed"], 42);
    assert_eq!(v["all_right"], false);
    common::snapshot!("answers_mixed_json", j.stdout);

    // From stdin, seed from the flag.
    let o = course(
        &[
            "quiz",
            "23",
            "--answers",
            "-",
            "--seed",
            "42",
            "--tag",
            "llvm-mca",
        ],
        "find-skl-divider: 8\n",
    );
    assert_eq!(o.code, 1);
    assert!(o.stdout.contains("right         find-skl-divider"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn answer_file_mistakes_are_errors_with_lines() {
    let dir = tempdir("bad-answers");
    let f = answers_file(
        &dir,
        "bad.txt",
        "seed: 1\nno colon here\nnot-a-question: 3\nfind-skl-divider: 8\nfind-skl-divider: 9\n",
    );
    let o = course(&["quiz", "23", "--answers", &f], "");
    assert_eq!(o.code, 2);
    let err = o.stderr.replace(&f, "bad.txt");
    common::snapshot!("answers_file_errors", err);
    let o = course(&["quiz", "23", "--answers", &f, "--seed", "2"], "");
    assert_eq!(o.code, 2);
    let f2 = answers_file(&dir, "seed.txt", "seed: 1\n");
    let o = course(&["quiz", "23", "--answers", &f2, "--seed", "2"], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("--seed 2 disagrees"));
    let o = course(&["quiz", "23", "--answers", "/nonexistent/x.txt"], "");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("no such file"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn list_reveal_and_usage_errors() {
    let o = course(&["quiz", "23", "--list"], "");
    assert_eq!(o.code, 0);
    common::snapshot!("list", o.stdout);
    let o = course(
        &[
            "quiz",
            "23",
            "--reveal",
            "--seed",
            "9",
            "--tag",
            "reservation-tables",
        ],
        "",
    );
    assert_eq!(o.code, 0);
    common::snapshot!("reveal_reservation_tables_seed_9", o.stdout);
    for (args, msg) in [
        (vec!["quiz", "24"], "no quiz for chapter 24"),
        (vec!["quiz", "23", "--tag", "nope"], "unknown tag `nope`"),
        (vec!["quiz"], "which chapter?"),
        (
            vec!["quiz", "23", "--format", "json"],
            "--format json needs",
        ),
    ] {
        let o = course(&args, "");
        assert_eq!(o.code, 2, "{args:?}");
        assert!(o.stderr.contains(msg), "{args:?}: {}", o.stderr);
    }
    let help = course(&["quiz", "--help"], "");
    assert!(help
        .stdout
        .contains("Answer file (--answers): one `id: answer` a line"));
}

#[test]
fn course_dir_reads_the_bank_from_a_folder() {
    let dir = tempdir("course-dir");
    std::fs::create_dir_all(dir.join("quizzes")).unwrap();
    std::fs::write(
        dir.join("quizzes/ch23.yaml"),
        "questions:\n  - id: only\n    kind: number\n    tags: [t]\n    prompt: One plus one?\n    answer: 2\n    explanation: Addition.\n",
    )
    .unwrap();
    let d = dir.display().to_string();
    let o = course(&["--course-dir", &d, "quiz", "23", "--seed", "1"], "2\n");
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("Score: 1/1 (100%)"));
    let _ = std::fs::remove_dir_all(&dir);
}
