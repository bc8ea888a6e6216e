//! `course drill --hint`: every hint of every drill, seeds 1–50, against
//! the drill's own solution: no hint gives the answer to the part it is
//! about, neither a line of it nor a number equal to one of its values
//! (`6/2` is 3), and each level adds to the one before.

use course_content::drill::example::mentions;
use course_content::drill::{Drill, Problem};
use course_engine::model::machine::Machine;
use course_engine::util::ratio::Ratio;

use crate::common::Course;

/// The words of a text, punctuation at their ends removed.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| ",.;:".contains(c)))
        .collect()
}

/// True when `text` has the word `a` followed by the word `b`.
fn has_pair(text: &str, a: &str, b: &str) -> bool {
    words(text).windows(2).any(|w| w[0] == a && w[1] == b)
}

/// What no hint of `p` may say, checked on every level's text.
fn assert_no_answer(d: Drill, seed: u64, p: &Problem, text: &str) {
    let at = format!("{} seed {seed}: {text}", d.name());
    match p {
        Problem::ListSchedule(p) => {
            let s = p.solution.as_ref().unwrap();
            for (label, c) in &s.schedule {
                assert!(
                    !has_pair(text, label, &c.to_string()),
                    "{label} {c} in {at}"
                );
            }
            assert!(!text.contains("length"), "{at}");
        }
        Problem::Mii(p) => {
            let s = p.solution.as_ref().unwrap();
            let values = [s.info.res_mii, s.info.rec_mii, s.info.mii].map(Ratio::int);
            assert!(!mentions(text, &values), "{values:?} in {at}");
            for key in ["res_mii", "rec_mii"] {
                assert!(!text.contains(key), "{key} in {at}");
            }
        }
        Problem::Modulo(p) => {
            let s = p.solution.as_ref().unwrap();
            assert!(!mentions(text, &[Ratio::int(s.ii)]), "II {} in {at}", s.ii);
            for (label, c) in &s.schedule {
                assert!(
                    !has_pair(text, label, &c.to_string()),
                    "{label} {c} in {at}"
                );
            }
        }
        Problem::Forbidden(p) => {
            let s = p.solution.as_ref().unwrap();
            for key in s.forbidden.keys() {
                assert!(!text.contains(key.as_str()), "{key} in {at}");
            }
            for class in s.collision_vectors.keys() {
                assert!(
                    !text.contains(&format!("CV({class})")),
                    "CV({class}) in {at}"
                );
            }
            for cv in s.collision_vectors.values().filter(|v| v.len() > 1) {
                assert!(!words(text).contains(&cv.as_str()), "CV {cv} in {at}");
            }
            // No set of the answer (of two or more offsets), as a value.
            for set in s.forbidden.values().filter(|v| v.len() > 1) {
                let v: Vec<String> = set.iter().map(u32::to_string).collect();
                let shown = format!("{{{}}}", v.join(", "));
                assert!(!text.contains(&shown), "the set {shown} in {at}");
            }
        }
        Problem::Hazard(p) => {
            let answer = p.solution.as_ref().unwrap().answer();
            for line in answer.lines() {
                assert!(!text.contains(line), "{line} in {at}");
            }
            for step in &p.events {
                assert!(!text.contains(step.as_str()), "{step} in {at}");
            }
            // No state of the answer, as a value.
            for st in &p.solution.as_ref().unwrap().steps {
                let v: Vec<String> = st.after.iter().map(u32::to_string).collect();
                let shown = format!("{{{}}}", v.join(", "));
                assert!(!text.contains(&shown), "the state {shown} in {at}");
            }
        }
        Problem::Automaton(p) => {
            let s = p.solution.as_ref().unwrap();
            for row in &s.states {
                assert!(!text.contains(&row.line()), "{} in {at}", row.line());
            }
            assert!(
                !text.contains(&format!("{} states", s.states.len())),
                "{at}"
            );
            assert!(!text.contains("states:"), "{at}");
        }
        Problem::Rthroughput(p) => {
            let r = &p.solution.as_ref().unwrap().rthroughput;
            assert!(!text.contains("RThroughput ="), "{at}");
            let v = course_engine::formats::answer::number(r).unwrap();
            assert!(!mentions(text, &[v]), "{r} in {at}");
        }
    }
}

#[test]
fn no_hint_gives_its_answer_and_each_adds_a_step() {
    let m = Machine::toy();
    for d in Drill::ALL {
        let n = d.hint_count();
        assert!(n >= 2, "{}", d.name());
        for seed in 1..=50u64 {
            let p = d.problem(&m, None, seed, true).unwrap();
            assert!(p.hints(0).is_empty());
            let mut before: Vec<String> = Vec::new();
            for level in 1..=n {
                let hints = p.hints(level);
                assert_eq!(hints.len(), level, "{} seed {seed}", d.name());
                assert_eq!(hints[..level - 1], before[..], "{} seed {seed}", d.name());
                let new = &hints[level - 1];
                assert!(
                    new.len() > 40 && !before.contains(new),
                    "{} seed {seed}: hint {level} adds nothing: {new}",
                    d.name()
                );
                assert_no_answer(d, seed, &p, &hints.join("\n"));
                before = hints;
            }
            assert_eq!(p.hints(n + 3), before, "levels past the last repeat it");
        }
    }
}

#[test]
fn the_answer_checks_catch_a_leak() {
    // The checks above can fail: the solution's own answer text trips them.
    let m = Machine::toy();
    for d in Drill::ALL {
        let p = d.problem(&m, None, 3, true).unwrap();
        let answer = p.answer().unwrap();
        let leak = match &p {
            Problem::Mii(s) => {
                let s = s.solution.as_ref().unwrap();
                format!("ResMII = {}", s.info.res_mii)
            }
            Problem::Modulo(s) => {
                let s = s.solution.as_ref().unwrap();
                format!("{answer} II = {}", s.ii)
            }
            Problem::Forbidden(s) => s.solution.as_ref().unwrap().answer(),
            Problem::Rthroughput(_) => format!("RThroughput = {answer}"),
            _ => answer,
        };
        let caught = std::panic::catch_unwind(|| assert_no_answer(d, 3, &p, &leak));
        assert!(
            caught.is_err(),
            "{}: the answer passes the leak check",
            d.name()
        );
    }
}

#[test]
fn hints_print_after_the_problem_and_check_counts_them() {
    let plain = Course::new(["drill", "mii", "--seed", "2"]).run();
    let hinted = Course::new(["drill", "mii", "--seed", "2", "--hint", "--hint"])
        .stdout_has("Hint 1: ")
        .stdout_has("Hint 2: ")
        .run();
    let (plain, hinted) = (plain.stdout, hinted.stdout);
    assert!(
        hinted.starts_with(&plain),
        "the problem comes first, unchanged"
    );
    assert!(!plain.contains("Hint 1"));
    let dir = crate::common::tempdir();
    let file = dir.path().join("a.txt");
    std::fs::write(
        &file,
        "# course drill mii --seed 2 --machine toy\nres_mii 1\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    Course::new(["drill", "mii", "--check", f, "--hint"])
        .code(1)
        .stdout_has("Hint 1: ")
        .stdout_has("hints used: 1")
        .run();
    let out = Course::new([
        "drill", "mii", "--check", f, "--hint", "--hint", "--format", "json",
    ])
    .code(1)
    .run();
    let v = out.json();
    assert_eq!(v["hints_used"], 2);
    assert_eq!(v["hints"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["seed"], 2, "the report's own fields stay");
    let out = Course::new(["drill", "mii", "--check", f, "--format", "json"])
        .code(1)
        .run();
    let v = out.json();
    assert!(v.get("hints_used").is_none(), "no hints, no count");
}

#[test]
fn list_schedule_check_hints_where_the_answer_departs() {
    let m = Machine::toy();
    let p = Drill::ListSchedule.problem(&m, None, 3, true).unwrap();
    let Problem::ListSchedule(lp) = &p else {
        panic!()
    };
    let s = lp.solution.as_ref().unwrap();
    // Delay the last operation by three cycles.
    let (last, c) = s.schedule.iter().max_by_key(|(_, c)| **c).unwrap();
    let mut text = format!("{}\n", p.line());
    for (label, cycle) in &s.schedule {
        let cycle = if label == last { c + 3 } else { *cycle };
        text.push_str(&format!("{label} {cycle}\n"));
    }
    let dir = crate::common::tempdir();
    let file = dir.path().join("a.txt");
    std::fs::write(&file, &text).unwrap();
    Course::new(["drill", "list-schedule", "--check", file.to_str().unwrap()])
        .args(["--hint", "--hint", "--hint"])
        .code(1)
        .stdout_has_wrapped(format!("first departs from the list rule at cycle {c}"))
        .stdout_has("hints used: 3")
        .run();
}
