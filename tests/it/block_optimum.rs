//! A block whose list schedule is not the shortest: `course schedule`
//! shows both and the optimal schedule, which the grader accepts with full
//! marks; the list schedule itself earns less than full quality. The
//! drill's solution says how its list schedule compares with the optimum.

use std::collections::BTreeMap;

use crate::common::{Course, tempdir};

/// `course gen block --ops 12 --seed 2`: the list schedule takes 13
/// cycles, the optimum 12.
const EPILOGUE: &str = "\
block epilogue
a: r1 = load [z]
b: store [r1], r1
c: r2 = cmp r1, r1
d: store [y], r1
e: r3 = load [w]
f: r4 = load [u]
g: r5 = mul r4, 5
h: r6 = and r2, r4
i: r7 = load [z + r6]
j: r8 = or r7, r3
k: r9 = load [z]
l: r10 = sub r9, r5
";

/// A `{label: cycle}` object as submission lines.
fn submission(schedule: &serde_json::Value) -> String {
    let cycles: BTreeMap<&String, i64> = schedule
        .as_object()
        .expect("a schedule object")
        .iter()
        .map(|(l, c)| (l, c.as_i64().expect("a cycle")))
        .collect();
    cycles.iter().map(|(l, c)| format!("{l} {c}\n")).collect()
}

#[test]
fn course_schedule_shows_the_list_schedule_and_the_optimum() {
    let out = Course::new(["schedule", "-"])
        .stdin(EPILOGUE)
        .stdout_has("ties by source order), length 13;\noptimum 12, proven:\na 0\n")
        .stdout_has("\nOptimal schedule (exact search), length 12:\n")
        .stdout_has("\nIts reservation table:\ncycle  issue (2)")
        .run()
        .stdout;
    // The list schedule comes first, its table before the optimal one.
    let list = out.find("\nReservation table:\n").unwrap();
    assert!(list < out.find("\nOptimal schedule").unwrap(), "{out}");
    let j = Course::new(["schedule", "-", "--format", "json"])
        .stdin(EPILOGUE)
        .run()
        .json();
    assert_eq!(j["length"], 13);
    let o = &j["optimum"];
    assert_eq!(
        (&o["length"], &o["lower"], &o["proven"]),
        (&12.into(), &12.into(), &true.into())
    );
    // The text shows the same optimal schedule, in issue order.
    let text: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Optimal schedule"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    let mut text = text.iter().map(|l| format!("{l}\n")).collect::<Vec<_>>();
    text.sort();
    assert_eq!(text.concat(), submission(&o["schedule"]));
}

#[test]
fn the_optimal_schedule_earns_full_marks_and_the_list_schedule_less() {
    let dir = tempdir();
    let input = dir.path().join("epilogue.txt");
    std::fs::write(&input, EPILOGUE).unwrap();
    let input = input.to_str().unwrap();
    let j = Course::new(["schedule", input, "--format", "json"])
        .run()
        .json();
    let optimal = dir.path().join("optimal.sched");
    std::fs::write(&optimal, submission(&j["optimum"]["schedule"])).unwrap();
    let out = Course::new(["grade", input, optimal.to_str().unwrap()])
        .stdout_has(
            "epilogue: valid · length 12 (optimum 12, proven; list schedule 13) · 10/10\n\
             \x20 optimal: no schedule is shorter\n\
             \x20 shorter than the list schedule by 1 cycle\n",
        )
        .run()
        .stdout;
    // The table diff is against the list schedule, and says so.
    assert!(out.contains("  +++ list schedule\n"), "{out}");
    assert!(!out.contains("quality credit"), "{out}");

    let list = dir.path().join("list.sched");
    std::fs::write(&list, submission(&j["schedule"])).unwrap();
    let out = Course::new(["grade", input, list.to_str().unwrap()])
        .stdout_has(
            "epilogue: valid · length 13 (optimum 12, proven; list schedule 13) · 9.69/10\n\
             \x20 the optimum is 12: quality credit 92%\n",
        )
        .run()
        .stdout;
    assert!(
        !out.contains("optimal:") && !out.contains("shorter than"),
        "{out}"
    );
    let g = Course::new(["grade", input, list.to_str().unwrap(), "--format", "json"])
        .run()
        .json();
    assert_eq!(g["valid"], true);
    assert_eq!(g["score"], 9.69);
    assert_eq!((&g["achieved"], &g["reference"]), (&13.into(), &12.into()));
    assert_eq!(
        (&g["lower_bound"], &g["list_length"]),
        (&12.into(), &13.into())
    );
}

#[test]
fn an_unfinished_search_gives_the_range() {
    let j = Course::new(["schedule", "-", "--search-budget", "0", "--format", "json"])
        .stdin(EPILOGUE)
        .run()
        .json();
    assert_eq!(j["optimum"]["proven"], false);
    let out = Course::new(["schedule", "-", "--search-budget", "0"])
        .stdin(EPILOGUE)
        .stdout_has(
            "length 13;\noptimum between 12 and 13 (the exact search ran out of its budget):\n",
        )
        .run()
        .stdout;
    // Nothing shorter than the list schedule was found: no second schedule.
    assert!(!out.contains("Shortest schedule found"), "{out}");
    // Above the exact search's size the counting bound stands.
    let big = Course::new(["gen", "block", "--ops", "250", "--seed", "1"])
        .run()
        .stdout;
    Course::new(["schedule", "-"])
        .stdin(big)
        .stdout_has_wrapped("(the exact search covers blocks of up to 200 operations):")
        .run();
}

#[test]
fn the_drill_solution_compares_the_list_schedule_with_the_optimum() {
    // Seed 32: the list schedule takes 8 cycles, the optimum 7.
    Course::new(["drill", "list-schedule", "--seed", "32", "--solution"])
        .stdout_has("\nList schedule 8 cycles; optimum 7, proven.\n")
        .run();
    let j = Course::new([
        "drill",
        "list-schedule",
        "--seed",
        "32",
        "--solution",
        "--format",
        "json",
    ])
    .run()
    .json();
    let s = &j["solution"];
    assert_eq!(
        (&s["length"], &s["optimum"]["length"]),
        (&8.into(), &7.into())
    );
    Course::new(["drill", "list-schedule", "--seed", "1", "--solution"])
        .stdout_has("\nList schedule 7 cycles, the optimum (proven).\n")
        .run();
}
