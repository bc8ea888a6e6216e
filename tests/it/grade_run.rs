//! `course grade --run`: students' schedulers (the sample ones in
//! `tests/data/schedulers/`) run on every lab input and on hidden inputs
//! from a secret seed, each under a time limit and an output cap; every
//! failure is that student's zero with the reason, and the others are
//! graded as usual.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{self, Course, first_message, input};

const SCHEDULERS: &str = "tests/data/schedulers";
const SECRET: &str = "correct horse battery staple";

/// A class folder with one student per sample scheduler (its script copied
/// in as `sched.sh`), and the secret seed file beside it.
fn class(dir: &Path, students: &[&str]) {
    for s in students {
        student(dir, s, s);
    }
    std::fs::write(dir.join("secret"), SECRET).unwrap();
}

/// The student `name` of the class folder in `dir`, whose `sched.sh` is
/// the sample scheduler `script`.
fn student(dir: &Path, name: &str, script: &str) {
    let d = dir.join("class").join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(
        common::root().join(SCHEDULERS).join(format!("{script}.sh")),
        d.join("sched.sh"),
    )
    .unwrap();
}

/// The command each student's scheduler is run with.
fn command() -> String {
    format!("sh sched.sh {{input}} '{}'", env!("CARGO_BIN_EXE_course"))
}

#[test]
fn a_program_that_spoils_its_inputs_spoils_them_for_nobody_else() {
    // a-vandal runs first, overwrites its input and deletes the others;
    // b-correct, after it, still gets the real inputs.
    let tmp = common::tempdir();
    let d = tmp.path();
    student(d, "a-vandal", "vandal");
    student(d, "b-correct", "sequential");
    let j = Course::new(["grade", "--lab", "ch23-sched", "--run", &command()])
        .args(common::run_isolation())
        .args(["--format", "json"])
        .arg_path(d.join("class"))
        .code(1)
        .run()
        .json();
    assert_eq!(common::student(&j, "a-vandal")["score"], 0.0);
    let correct = common::student(&j, "b-correct");
    for i in correct["inputs"].as_array().unwrap() {
        assert_eq!(i["valid"], true, "{i}");
    }
}

#[test]
fn each_sample_scheduler_gets_what_it_deserves_in_bounded_time() {
    let tmp = common::tempdir();
    let d = tmp.path();
    class(d, &["sequential", "forever", "crash", "garbage", "flood"]);
    let start = Instant::now();
    let o = Course::new(["grade", "--lab", "ch23-sched", "--run", &command()])
        .args(common::run_isolation())
        .args(["--hidden", "2", "--time-limit", "0.5", "--format", "json"])
        .args(["--secret-seed-file".as_ref(), d.join("secret").as_os_str()])
        .arg_path(d.join("class"))
        .code(1)
        .run();
    // 8 lab inputs and 2 hidden ones, 0.5 s at most for each of the
    // looping student's, plus the others' quick runs.
    assert!(
        start.elapsed() < Duration::from_secs(40),
        "{:?}",
        start.elapsed()
    );
    assert!(!o.stdout.contains(SECRET) && !o.stderr.contains(SECRET));
    assert!(
        !o.stdout.contains("STDERR-MARKER"),
        "a program's stderr leaked"
    );
    let j = o.json();
    let st = |name: &str| common::student(&j, name);
    let correct = st("sequential");
    assert_eq!(correct["inputs"].as_array().unwrap().len(), 10);
    let score = correct["score"].as_f64().unwrap();
    assert!(score > 0.0, "{correct}");
    assert_eq!(input(correct, "hidden-2")["hidden"], true);
    for i in correct["inputs"].as_array().unwrap() {
        assert_eq!(i["valid"], true, "{i}");
    }
    let cases = [
        ("forever", "gave no answer within 0.5 s and was stopped"),
        ("crash", "crashed: killed by signal 11 (SIGSEGV"),
        ("flood", "printed more than 1024 KiB"),
        ("garbage", "expected 'LABEL CYCLE' or 'ii N'"),
    ];
    for (name, why) in cases {
        let s = st(name);
        assert_eq!(s["score"], 0.0, "{name}");
        let m = first_message(input(s, "running"));
        assert!(m.contains(why), "{name}: {m}");
    }
    // The same seed gives the same hidden inputs: the correct scheduler's
    // hidden scores do not move between runs.
    let again = Course::new(["grade", "--lab", "ch23-sched", "--run", &command()])
        .args(common::run_isolation())
        .args(["--hidden", "2", "--format", "csv"])
        .env("COURSE_SECRET_SEED", SECRET)
        .arg_path(d.join("class/sequential"))
        .run();
    assert!(again.stdout.starts_with(&format!(
        "student,id,email,total,max_total,running,divide,alias,wide,dot,stream,fib,chase,hidden-1,hidden-2,notes\nsequential,,,{score},100,"
    )), "{}", again.stdout);
}

#[test]
fn hidden_inputs_need_the_secret_and_feedback_hides_their_details() {
    let tmp = common::tempdir();
    let d = tmp.path();
    class(d, &["garbage"]);
    let hidden = |n: &str| {
        Course::new(["grade", "--lab", "ch23-sched", "--run", &command()])
            .args(common::run_isolation())
            .args(["--hidden", n])
    };
    hidden("1")
        .arg_path(d.join("class"))
        .env_remove("COURSE_SECRET_SEED")
        .code(2)
        .stderr_has("hidden inputs need the secret seed")
        .run();
    // A count past the bound is refused before anything is generated.
    hidden("18446744073709551615")
        .arg_path(d.join("class"))
        .env("COURSE_SECRET_SEED", SECRET)
        .code(2)
        .stderr_has("--hidden: at most 1000 hidden inputs")
        .run();
    let o = hidden("1")
        .env("COURSE_SECRET_SEED", SECRET)
        .args(["--format", "gradescope"])
        .arg_path(d.join("class/garbage"))
        .code(1)
        .run();
    let j = o.json();
    let hidden = j["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "hidden-1")
        .unwrap()
        .clone();
    let out = hidden["output"].as_str().unwrap();
    assert!(
        out.contains("a hidden input: its problems are not shown, only their kinds (format"),
        "{out}"
    );
    assert!(!out.contains('×'), "{out}");
    assert!(!out.contains("Scheduling"), "{out}");
    // JSON and the long CSV name kinds only, unless --reveal-hidden.
    let json = |reveal: bool| {
        let mut c = Course::new(["grade", "--lab", "ch23-sched", "--run", &command()])
            .args(common::run_isolation())
            .args(["--hidden", "1", "--format", "json"])
            .env("COURSE_SECRET_SEED", SECRET);
        if reveal {
            c = c.arg("--reveal-hidden");
        }
        c.arg_path(d.join("class/garbage")).code(1).run().json()
    };
    let j = json(false);
    let h = input(common::student(&j, "garbage"), "hidden-1");
    for v in h["violations"].as_array().unwrap() {
        assert!(
            v["message"]
                .as_str()
                .unwrap()
                .starts_with("a hidden input:"),
            "{v}"
        );
        assert!(v.get("line").is_none(), "{v}");
    }
    let j = json(true);
    let h = input(common::student(&j, "garbage"), "hidden-1");
    assert!(
        h["violations"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 1:"),
        "{h}"
    );
}

#[test]
fn a_hidden_input_does_not_carry_its_seed() {
    let tmp = common::tempdir();
    let d = tmp.path().join("echo");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("sched.sh"),
        "grep -c '^# generated' \"$1\" || true\n",
    )
    .unwrap();
    let j = Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "sh sched.sh {input}",
    ])
    .args(common::run_isolation())
    .args(["--hidden", "2", "--format", "json", "--reveal-hidden"])
    .env("COURSE_SECRET_SEED", SECRET)
    .arg_path(&d)
    .code(1)
    .run()
    .json();
    let st = &j["students"][0];
    for name in ["hidden-1", "hidden-2"] {
        let m = first_message(input(st, name));
        assert!(m.contains("found '0'"), "{name}: {m}");
    }
}
