//! Feedback never blames a right step for the student's own earlier
//! mistake. The property, for the list-schedule drill (an answer is a
//! sequence of placements the list rule makes in order): change one step of
//! the reference answer (one operation moved to another cycle); the first
//! mistake reported names the changed step, and no unchanged step is a
//! mistake of its own: a violation of an unchanged step is listed under the
//! changed step as its consequence, because taking the changed step out
//! makes it disappear (`course::engine::check::caused_by`).

use std::collections::BTreeMap;

use course::content::drill::list_schedule;
use course::content::gen::GenParams;
use course::model::ids::Cycle;
use course::model::machine::Machine;

use crate::common::Course;

/// The words of a message (labels are words of letters and digits).
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The answer file for `schedule`, its lines in `order` of labels.
fn answer(schedule: &BTreeMap<String, Cycle>, order: &[&String]) -> String {
    order
        .iter()
        .map(|l| format!("{l} {}\n", schedule[*l]))
        .collect()
}

#[test]
fn one_changed_step_is_the_only_one_blamed() {
    let m = Machine::toy();
    let params = GenParams::block_default();
    let mut answers = 0usize;
    let mut with_consequences = 0usize;
    for seed in 1..=50u64 {
        let Some(s) = list_schedule::problem(&m, &params, seed, true).solution else {
            panic!("seed {seed}: no solution");
        };
        let labels: Vec<&String> = s.schedule.keys().collect();
        let reversed: Vec<&String> = labels.iter().rev().copied().collect();
        for changed in &labels {
            let at = s.schedule[*changed];
            for to in (at - 2..=at + 3).filter(|&c| c >= 0 && c != at) {
                let mut mine = s.schedule.clone();
                mine.insert((*changed).clone(), to);
                // Both line orders: within a cycle the check places the
                // lines in file order, so either side of a conflict may be
                // the one found over capacity.
                for order in [&labels, &reversed] {
                    let text = answer(&mine, order);
                    let r = list_schedule::check(&m, &params, seed, &text, "a.txt");
                    let what = format!("seed {seed}, {changed} {at} → {to}:\n{text}");
                    answers += 1;
                    assert!(!r.correct, "{what}");
                    let first = &r.mistakes[0].message;
                    assert!(
                        words(first).contains(&changed.as_str()),
                        "{what}the first mistake does not name {changed}: {first}"
                    );
                    for mk in &r.mistakes {
                        assert!(
                            words(&mk.message).contains(&changed.as_str()),
                            "{what}a mistake not about {changed}: {}",
                            mk.message
                        );
                        for u in labels.iter().filter(|u| *u != changed) {
                            assert!(
                                !mk.message.starts_with(&format!("{u} at ")),
                                "{what}the unchanged {u} is blamed: {}",
                                mk.message
                            );
                        }
                        with_consequences += usize::from(!mk.consequences.is_empty());
                        for c in &mk.consequences {
                            assert!(
                                words(c).contains(&changed.as_str()),
                                "{what}a consequence not of {changed}: {c}"
                            );
                        }
                    }
                }
            }
        }
    }
    // The property is not vacuous: many answers, and some of them have
    // violations of unchanged steps to list as consequences.
    crate::common::note(format!(
        "drill_blame: {answers} answers, {with_consequences} mistakes with consequences"
    ));
    assert!(answers > 1000, "{answers}");
    assert!(with_consequences > 20, "{with_consequences}");
}

/// Seed 1 with d at 0 next to a at 0 (both loads, one mem unit): the mem
/// conflict is the mistake; f at 0, the reference's own placement, fills
/// the issue width only because of d, so it is d's consequence.
const CASCADE: &str = "a 0\nd 0\nf 0\ni 1\ne 2\nb 3\nk 3\nc 4\ng 5\nh 5\nj 6\nl 6\n";

#[test]
fn the_cascade_is_listed_under_its_cause() {
    let m = Machine::toy();
    let params = GenParams::block_default();
    let r = list_schedule::check(&m, &params, 1, CASCADE, "a.txt");
    let messages: Vec<&str> = r.mistakes.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(
        messages,
        ["cycle 0: d does not fit: mem is taken at cycle 0 by a"]
    );
    assert_eq!(
        r.mistakes[0].consequences,
        [
            "f at 0 would fit if d were not at 0 (f at 0: issue is full at cycle 0: \
          its 2 slots are taken by a, d)"
        ]
    );
}

#[test]
fn the_cascade_report_marks_over_capacity_cells() {
    let out = Course::new(["drill", "list-schedule", "--seed", "1", "--check", "-"])
        .stdin(CASCADE)
        .any_code()
        .run()
        .stdout;
    assert!(!out.contains("✗ f at 0"), "{out}");
    assert!(
        out.contains("  consequence: f at 0 would fit if d were not at 0"),
        "{out}"
    );
    let row = out
        .lines()
        .skip_while(|l| !l.starts_with("Your reservation table"))
        .find(|l| l.starts_with("0 "))
        .unwrap_or_default();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[..5], ["0", "3!", "f", "a,d!", "."], "{row}");
    // In colour the same cells are painted as over capacity.
    let painted = Course::new(["drill", "list-schedule", "--seed", "1", "--check", "-"])
        .args(["--color", "always"])
        .stdin(CASCADE)
        .any_code()
        .run()
        .stdout;
    assert!(painted.contains("\x1b[1;41m3!\x1b[0m"), "{painted}");
    assert!(painted.contains("\x1b[1;41ma,d!\x1b[0m"), "{painted}");
}
