//! What reaches a terminal (issue 11, point 12): no line wider than 80
//! columns when the output is not a terminal, on the toy machine's drills,
//! quiz, flashcards and tables; colour only when it is asked for, on
//! right/wrong, diff lines and over-capacity cells.

use crate::common::{self, Course};

/// The widest a line may be when stdout is not a terminal.
const WIDTH: usize = 80;

/// The lines of `out` wider than [`WIDTH`] characters.
fn wide(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.chars().count() > WIDTH)
        .map(|l| format!("{} chars: {l}", l.chars().count()))
        .collect()
}

fn assert_narrow(what: &str, out: &str) {
    let w = wide(out);
    assert!(
        w.is_empty(),
        "{what}: lines wider than {WIDTH}:\n{}",
        w.join("\n")
    );
}

#[test]
fn drills_fit_in_80_columns() {
    let list = Course::new(["drill", "list", "--format", "json"])
        .run()
        .json();
    assert_narrow("drill list", &common::ok(["drill", "list"]));
    for d in list.as_array().unwrap() {
        let name = d["name"].as_str().unwrap();
        for seed in 1..=20 {
            let s = seed.to_string();
            for extra in [None, Some("--solution")] {
                let out = Course::new(["drill", name, "--seed", &s])
                    .args(extra)
                    .run()
                    .stdout;
                assert_narrow(&format!("drill {name} --seed {seed} {extra:?}"), &out);
            }
        }
    }
}

#[test]
fn mistakes_fit_in_80_columns() {
    use course_content::drill::Drill;
    use course_engine::model::machine::Machine;
    // Each drill's reports on an empty answer and on its solution with
    // every digit changed, and the grader's mistakes on every sample (its
    // reservation-table diff is a table, not bounded here).
    let m = Machine::toy();
    for d in Drill::ALL {
        for seed in 1..=20 {
            let right = d.problem(&m, None, seed, true).unwrap().answer().unwrap();
            let wrong: String = right
                .chars()
                .map(|c| match c.to_digit(10) {
                    Some(n) => char::from_digit((n + 1) % 10, 10).unwrap(),
                    None => c,
                })
                .collect();
            for answer in ["", &wrong] {
                let r = d.check(&m, None, seed, answer, "answer.txt").unwrap();
                let text = course::view::drill::report_text(&r);
                assert_narrow(&format!("drill {} --seed {seed} --check", d.name()), &text);
            }
        }
    }
    let samples = std::fs::read_dir("solutions/ch23-sched/samples").unwrap();
    for sample in samples {
        let sample = sample.unwrap().path();
        let name = sample.file_name().unwrap().to_string_lossy().into_owned();
        let input = format!(
            "labs/ch23-sched/inputs/{}.txt",
            name.split("--").next().unwrap()
        );
        let out = Course::new(["grade", &input])
            .args([&sample])
            .any_code()
            .run()
            .stdout;
        // A mistake line and its continuations (four blanks in).
        let mistakes: String = out
            .lines()
            .filter(|l| l.trim_start().starts_with('✗') || l.starts_with("    "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_narrow(&format!("grade {name}"), &mistakes);
    }
}

#[test]
fn the_quiz_fits_in_80_columns() {
    assert_narrow("quiz --list", &common::ok(["quiz", "23", "--list"]));
    for seed in ["0", "1", "2", "7", "9", "42"] {
        let reveal = common::ok(["quiz", "23", "--reveal", "--seed", seed]);
        assert_narrow(&format!("quiz --reveal --seed {seed}"), &reveal);
    }
    // A whole interactive session with wrong and unreadable replies, and a
    // graded answer file.
    let o = Course::new(["quiz", "23", "--seed", "3"])
        .stdin("abc\n".repeat(3) + &"zz\n{0}\n99\nb\n".repeat(40))
        .any_code()
        .run();
    assert_narrow("quiz, interactive", &o.stdout);
    let o = Course::new(["quiz", "23", "--answers", "-", "--seed", "3"])
        .stdin("mca-rthroughput: 99\nforbidden-latencies: {0 1\ntables-vs-automaton: b\n")
        .any_code()
        .run();
    assert_narrow("quiz --answers", &o.stdout);
}

#[test]
fn flashcards_and_tables_fit_in_80_columns() {
    let tmp = common::tempdir();
    let state = tmp.path().join("s.json");
    let o = Course::new(["flash", "23", "--all", "--today", "2026-01-01", "--state"])
        .args([&state])
        .stdin("\ngood\n".repeat(60))
        .run();
    assert_narrow("flash", &o.stdout);
    assert_narrow("machine", &common::ok(["machine"]));
    for input in [
        "running", "divide", "alias", "wide", "dot", "stream", "fib", "chase",
    ] {
        let path = format!("labs/ch23-sched/inputs/{input}.txt");
        assert_narrow(
            &format!("schedule {input}"),
            &common::ok(["schedule", &path]),
        );
        assert_narrow(&format!("analyze {input}"), &common::ok(["analyze", &path]));
    }
}

/// A run with `--color always` (the tests otherwise run with NO_COLOR set).
fn coloured(args: &[&str]) -> Course {
    Course::new(["--color", "always"]).args(args)
}

#[test]
fn colour_marks_right_and_wrong_diffs_and_over_capacity() {
    const RED: &str = "\u{1b}[31m";
    const GREEN: &str = "\u{1b}[32m";
    // The quiz: right green, wrong red; without the flag, no codes at all.
    let quiz = ["quiz", "23", "--seed", "1", "--tag", "machine-model"];
    let answer = Course::new([
        "quiz",
        "23",
        "--answers",
        "-",
        "--format",
        "json",
        "--reveal",
    ])
    .args(["--seed", "1", "--tag", "machine-model"])
    .any_code()
    .run()
    .json();
    let first = answer["questions"][0]["expected"]
        .as_str()
        .unwrap()
        .to_string();
    let o = coloured(&quiz)
        .stdin(format!("{first}\n999\n"))
        .code(1)
        .run();
    assert!(o.stdout.contains(&format!("{GREEN}Right.")), "{}", o.stdout);
    let plain = Course::new(quiz)
        .stdin(format!("{first}\n999\n"))
        .code(1)
        .run();
    assert!(!plain.stdout.contains('\u{1b}'), "{}", plain.stdout);
    let o = coloured(&["quiz", "23", "--answers", "-", "--seed", "1"])
        .stdin("find-skl-divider: 8\nskl-issue-width: 4\n")
        .code(1)
        .run();
    assert!(o.stdout.contains(&format!("{GREEN}right")), "{}", o.stdout);
    assert!(o.stdout.contains(&format!("{RED}wrong")), "{}", o.stdout);

    // Flashcards: a card that moved on green, one rated again red.
    let tmp = common::tempdir();
    let state = tmp.path().join("s.json").display().to_string();
    let flash = ["flash", "23", "--today", "2026-01-01", "--state", &state];
    let o = coloured(&flash).stdin("\ngood\n\nagain\n").run();
    assert!(
        o.stdout.contains(&format!("{GREEN}-> box 2")),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains(&format!("{RED}-> box 1")), "{}", o.stdout);

    // A graded submission's diff: removed lines red, added lines green.
    let grade = [
        "grade",
        "labs/ch23-sched/inputs/running.txt",
        "solutions/ch23-sched/samples/running--resource.sched",
    ];
    let o = coloured(&grade).code(1).run();
    assert!(o.stdout.contains(&format!("{RED}-4 ")), "{}", o.stdout);
    assert!(o.stdout.contains(&format!("{GREEN}+4 ")), "{}", o.stdout);
    let plain = Course::new(grade).code(1).run();
    assert!(!plain.stdout.contains('\u{1b}'));

    // A drill answer that puts two memory operations in one cycle: the
    // cell of the one-unit memory column is marked.
    let mut marked = false;
    for seed in 1..=20 {
        let s = seed.to_string();
        let drill = ["drill", "list-schedule", "--seed", &s];
        let j = Course::new(drill)
            .args(["--solution", "--format", "json"])
            .run()
            .json();
        let mem: Vec<String> = j["problem"]["ops"]
            .as_array()
            .or(j["ops"].as_array())
            .into_iter()
            .flatten()
            .filter(|o| matches!(o["class"].as_str(), Some("load" | "store")))
            .filter_map(|o| o["label"].as_str().map(str::to_string))
            .collect();
        let Some(sched) = j["solution"]["schedule"].as_object() else {
            continue;
        };
        if mem.len() < 2 {
            continue;
        }
        let at = sched[&mem[0]].clone();
        let answer: String = sched
            .iter()
            .map(|(k, v)| format!("{k} {}\n", if *k == mem[1] { &at } else { v }))
            .collect();
        let o = coloured(&drill)
            .args(["--check", "-"])
            .stdin(answer)
            .code(1)
            .run();
        assert!(o.stdout.contains(&format!("{RED}✗")), "{}", o.stdout);
        marked = o.stdout.contains("\u{1b}[1;41m");
        assert!(marked, "no over-capacity cell marked:\n{}", o.stdout);
        break;
    }
    assert!(marked);
}
