//! `course progress` and `course practice` on a scripted review log with
//! the clock fixed (`COURSE_NOW`, `TZ=UTC`), and the log lines that drill
//! `--check`, quiz answers and flashcard ratings append.

use std::path::Path;

use crate::common::{self, Course, tempdir};

/// 2026-01-05 00:00:00 UTC.
const NOW: &str = "1767571200";

/// A scripted history of one student, `ada`, and one line of `bob`'s:
/// list scheduling mostly wrong (order twice, latency once), MII right
/// every time, llvm-mca one wrong quiz answer, one card rated twice, and a
/// damaged line.
const HISTORY: &str = "\
# course review log, version 1: day unix-time who source item topic right|wrong kind
2026-01-01 1767225600 ada drill list-schedule:1 list-scheduling wrong order
2026-01-01 1767225660 ada drill list-schedule:1 list-scheduling wrong latency
2026-01-02 1767312000 ada drill list-schedule:2 list-scheduling wrong order
2026-01-02 1767312060 ada drill list-schedule:3 list-scheduling right -
2026-01-01 1767225700 ada drill mii:1 mii right -
2026-01-03 1767398400 ada drill mii:2 mii right -
2026-01-03 1767398460 ada quiz mca-rthroughput llvm-mca wrong number-wrong
2026-01-03 1767398500 ada flash two-bounds machine-model right good
2026-01-04 1767484800 ada flash two-bounds machine-model wrong again
2026-01-04 1767484800 ada drill mii:3 mii right
2026-01-04 1767484900 bob drill modulo:1 modulo wrong latency
";

fn scripted(dir: &Path) -> String {
    let log = dir.join("reviews.log");
    std::fs::write(&log, HISTORY).unwrap();
    log.display().to_string()
}

fn at_now(c: Course) -> Course {
    c.env("COURSE_NOW", NOW).env("TZ", "UTC")
}

#[test]
fn progress_on_a_scripted_history() {
    let dir = tempdir();
    let log = scripted(dir.path());
    let o = at_now(Course::new([
        "progress",
        "--review-log",
        &log,
        "--who",
        "ada",
    ]))
    .stderr_has("reviews.log:11:1: expected 8 fields")
    .run();
    common::snapshot!("ada_text", o.stdout);
    let j = at_now(Course::new([
        "progress",
        "--review-log",
        &log,
        "--who",
        "ada",
        "--format",
        "json",
    ]))
    .run()
    .json();
    assert_eq!(j["today"], "2026-01-05");
    assert_eq!(j["total"]["attempts"], 9);
    assert_eq!(j["total"]["right"], 4);
    let topic = |name: &str| {
        j["topics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["topic"] == name)
            .unwrap()
            .clone()
    };
    let ls = topic("list-scheduling");
    assert_eq!(
        (
            ls["tally"]["attempts"].as_u64(),
            ls["tally"]["right"].as_u64()
        ),
        (Some(4), Some(1))
    );
    assert_eq!(ls["mistakes"][0]["kind"], "order");
    assert_eq!(ls["mistakes"][0]["count"], 2);
    assert_eq!(ls["mistakes"][1]["kind"], "latency");
    // Day 1 only wrong, day 2 a wrong and a right answer: the box kept.
    assert_eq!(ls["box"], 1);
    assert_eq!(ls["due"], "2026-01-03");
    let mii = topic("mii");
    assert_eq!(
        (mii["tally"]["attempts"].as_u64(), mii["box"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(mii["due"], "2026-01-07");
    let mm = topic("machine-model");
    assert_eq!(mm["mistakes"][0]["kind"], "again");
    // bob's line counts only without --who.
    assert_eq!(topic("modulo")["tally"]["attempts"], 0);
    let all = at_now(Course::new([
        "progress",
        "--review-log",
        &log,
        "--format",
        "json",
    ]))
    .run()
    .json();
    assert_eq!(all["total"]["attempts"], 10);
}

#[test]
fn practice_on_a_scripted_history() {
    let dir = tempdir();
    let log = scripted(dir.path());
    let run = || {
        at_now(Course::new([
            "practice",
            "--review-log",
            &log,
            "--who",
            "ada",
        ]))
        .run()
        .stdout
    };
    let first = run();
    // Deterministic: the same log and clock, the same pick.
    assert_eq!(first, run());
    common::snapshot!("ada_practice", first.clone());
    // llvm-mca (0 of 1) and machine model (1 of 2, just got wrong) are
    // due; llvm-mca is right least often.
    assert!(
        first.contains("course quiz 23 --tag llvm-mca --seed 2"),
        "{first}"
    );
    // Once llvm-mca and machine model are right, list scheduling (1 of 4)
    // is the weakest due, at a seed not tried yet.
    let mut more = HISTORY.to_string();
    more.push_str("2026-01-05 1767571200 ada quiz mca-rthroughput llvm-mca right -\n");
    more.push_str("2026-01-05 1767571200 ada flash two-bounds machine-model right good\n");
    std::fs::write(&log, more).unwrap();
    let j = at_now(Course::new([
        "practice",
        "--review-log",
        &log,
        "--who",
        "ada",
        "--format",
        "json",
    ]))
    .run()
    .json();
    assert_eq!(j["pick"]["command"], "course drill list-schedule --seed 4");
    assert_eq!(j["pick"]["topic"], "list-scheduling");
    assert_eq!(j["due"], true);
    // The command it prints runs.
    Course::new(["drill", "list-schedule", "--seed", "4"])
        .stdout_has("# course drill list-schedule --seed 4")
        .run();
}

/// Every reviewing command appends its line: a drill check (its first
/// mistake's kind, or right), a quiz answer and a flashcard rating.
#[test]
fn checks_answers_and_ratings_are_logged() {
    let dir = tempdir();
    let log = dir.path().join("sub/reviews.log");
    let logs = log.display().to_string();
    let answer = dir.path().join("a.txt");
    std::fs::write(
        &answer,
        "# course drill rthroughput --seed 3 --machine toy\n999\n",
    )
    .unwrap();
    at_now(Course::new(["drill", "rthroughput", "--check"]))
        .arg_path(&answer)
        .args(["--review-log", &logs, "--who", "ada"])
        .code(1)
        .run();
    let sol = Course::new([
        "drill",
        "rthroughput",
        "--seed",
        "3",
        "--format",
        "json",
        "--solution",
    ])
    .run()
    .json();
    let right = sol["solution"]["rthroughput"].as_str().unwrap().to_string();
    std::fs::write(&answer, format!("{right}\n")).unwrap();
    at_now(Course::new([
        "drill",
        "rthroughput",
        "--seed",
        "3",
        "--check",
    ]))
    .arg_path(&answer)
    .args(["--review-log", &logs, "--who", "ada"])
    .run();
    at_now(Course::new([
        "quiz",
        "23",
        "--tag",
        "llvm-mca",
        "--seed",
        "1",
        "--review-log",
        &logs,
        "--who",
        "ada",
        "--state",
    ]))
    .arg_path(dir.path().join("q.json"))
    .stdin("999\n")
    .any_code()
    .run();
    at_now(Course::new([
        "flash",
        "23",
        "--tag",
        "llvm-mca",
        "--review-log",
        &logs,
        "--who",
        "ada",
        "--state",
    ]))
    .arg_path(dir.path().join("f.json"))
    .stdin("\nagain\nq\n")
    .run();
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].starts_with("# course review log, version 1"));
    assert_eq!(
        lines[1],
        "2026-01-05 1767571200 ada drill rthroughput:3 rthroughput wrong resource_bound"
    );
    assert_eq!(
        lines[2],
        "2026-01-05 1767571200 ada drill rthroughput:3 rthroughput right -"
    );
    let quiz: Vec<&str> = lines[3].split(' ').collect();
    assert_eq!(quiz[..4], ["2026-01-05", "1767571200", "ada", "quiz"]);
    assert_eq!(quiz[5..7], ["llvm-mca", "wrong"]);
    assert!(quiz[7].ends_with("-wrong"), "{}", lines[3]);
    let flash: Vec<&str> = lines[4].split(' ').collect();
    assert_eq!(flash[3], "flash");
    assert_eq!(flash[6..], ["wrong", "again"]);
    // A name a line cannot hold is refused before anything is asked.
    at_now(Course::new([
        "drill",
        "rthroughput",
        "--seed",
        "3",
        "--check",
    ]))
    .arg_path(&answer)
    .args(["--review-log", &logs, "--who", "a b"])
    .code(2)
    .stderr_has("--who a b: a name of letters")
    .run();
    assert_eq!(std::fs::read_to_string(&log).unwrap(), text);
}

/// Two quiz sessions answering at once into one log: every answer is
/// there, each line whole.
#[test]
fn two_processes_appending_keep_every_line() {
    use std::process::{Command, Stdio};
    let dir = tempdir();
    let log = dir.path().join("reviews.log");
    // Readable replies for every kind of question: a number, then a letter.
    let spawn = |who: &str, log: &Path| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_course"))
            .args(["quiz", "23", "--seed", "5", "--who", who, "--review-log"])
            .arg(log)
            .arg("--state")
            .arg(dir.path().join(format!("{who}.json")))
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run course");
        let mut input = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = input.write_all("1\na\n".repeat(200).as_bytes());
        });
        child
    };
    let finish = |c: std::process::Child| {
        let out = c.wait_with_output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    };
    // One session alone: how many answers it logs.
    let solo = dir.path().join("solo.log");
    finish(spawn("solo", &solo));
    let answers = std::fs::read_to_string(&solo).unwrap().lines().count() - 1;
    assert!(answers >= 10, "{answers}");
    let (a, b) = (spawn("ann", &log), spawn("ben", &log));
    finish(a);
    finish(b);
    let text = std::fs::read_to_string(&log).unwrap();
    let count = |who: &str| {
        text.lines()
            .filter(|l| l.contains(&format!(" {who} quiz ")))
            .count()
    };
    assert_eq!((count("ann"), count("ben")), (answers, answers), "{text}");
    assert_eq!(text.lines().count(), 2 * answers + 1, "{text}");
    let questions = answers;
    let j = Course::new(["progress", "--format", "json", "--review-log"])
        .arg_path(&log)
        .run()
        .json();
    assert_eq!(j["total"]["attempts"].as_u64(), Some(2 * questions as u64));
}

/// A clock variable with a typo stops the command instead of silently
/// using the real clock.
#[test]
fn a_malformed_clock_is_refused() {
    let dir = tempdir();
    let log = scripted(dir.path());
    Course::new(["progress", "--review-log", &log])
        .env("COURSE_NOW", "2026-01-05")
        .code(2)
        .stderr_has("COURSE_NOW=\"2026-01-05\" is not a time: give Unix seconds")
        .run();
}
