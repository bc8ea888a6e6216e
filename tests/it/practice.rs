//! Practice for the rest of Lesson 23.1 and the limits of the machine
//! views: the reverse automaton against Algorithm 23.1.4 run backwards,
//! `course machine --reverse` and `pathological:D`, the view's size limit,
//! the §3 trace replay and the automaton drill.

use course_engine::engine::hazard::{Automaton, pathological_machine};
use course_engine::engine::rtable::GlobalTable;
use course_engine::model::ids::{ClassId, ResourceId};
use course_engine::model::machine::Machine;
use course_engine::util::rng::Rng;

use crate::common::{self, Course};

/// Two units with gaps in their tables, capacities 2 and 1.
const GAPS: &str = "\
name: gaps
issue_width: 3
resources:
  - { name: fpu, capacity: 2 }
  - { name: div, capacity: 1 }
classes:
  - { name: fadd, latency: 2, opcodes: [fadd], reservation: [[fpu, 0], [fpu, 1]] }
  - { name: fdiv, latency: 7, opcodes: [fdiv], reservation: [[fpu, 0], [div, 1], [div, 3], [div, 4]] }
  - { name: fsq, latency: 5, opcodes: [fsq], reservation: [[div, 0], [div, 2]] }
";

/// A bottom-up scheduler places operations in nonincreasing cycles: the
/// forward automaton of the mirrored tables must accept exactly what
/// `Fits` of Algorithm 23.1.4 accepts on the original tables.
fn reverse_agrees(m: &Machine, seed: u64, steps: usize) -> (usize, usize) {
    let mirrored = m.mirrored();
    let all: Vec<ResourceId> = mirrored.resource_ids().collect();
    let auto = Automaton::build(&mirrored, &all).expect("automaton builds");
    let mut table = GlobalTable::new();
    let mut state = auto.start();
    let mut cycle = 0i64;
    let mut rng = Rng::derived(seed, "reverse-corpus");
    let (mut accepted, mut refused) = (0, 0);
    for step in 0..steps {
        if rng.percent(30) {
            state = auto.advance(state);
            cycle -= 1;
            continue;
        }
        let o = ClassId::from_index(rng.below(m.classes().len() as u64) as usize);
        let fits = table.fits(m, o, cycle);
        let next = auto.issue(state, o);
        assert_eq!(next.is_some(), fits, "{} seed {seed} step {step}", m.name());
        match next {
            Some(t) => {
                table.place(m, o, cycle, None);
                state = t;
                accepted += 1;
            }
            None => refused += 1,
        }
    }
    (accepted, refused)
}

#[test]
fn the_reverse_automaton_recognizes_bottom_up_placements() {
    let gaps = Machine::from_yaml(GAPS, "gaps.yaml").unwrap();
    for m in [Machine::toy(), gaps, pathological_machine(5)] {
        let (mut a, mut r) = (0, 0);
        for seed in 0..30 {
            let (x, y) = reverse_agrees(&m, seed, 300);
            a += x;
            r += y;
        }
        assert!(
            a > 500 && r > 500,
            "{}: {a} accepted, {r} refused",
            m.name()
        );
    }
}

#[test]
fn the_mirrored_forbidden_latencies_are_the_transpose() {
    use course_engine::engine::hazard::forbidden_latencies;
    let m = Machine::from_yaml(GAPS, "gaps.yaml").unwrap();
    let rev = m.mirrored();
    for r in m.resource_ids().skip(1) {
        for a in m.class_ids() {
            for b in m.class_ids() {
                assert_eq!(
                    forbidden_latencies(&rev, r, a, b),
                    forbidden_latencies(&m, r, b, a)
                );
            }
        }
    }
}

#[test]
fn machine_views() {
    for (name, args) in [
        ("machine_toy", vec!["machine"]),
        ("machine_toy_reverse", vec!["machine", "--reverse"]),
        (
            "machine_toy_reverse_json",
            vec!["machine", "--reverse", "--format", "json"],
        ),
        ("machine_pathological_3", vec!["machine", "pathological:3"]),
        (
            "machine_pathological_3_reverse",
            vec!["--machine", "pathological-3", "machine", "--reverse"],
        ),
    ] {
        let out = common::ok(&args);
        common::snapshot!(name, out);
    }
    // The multiplier's reverse automaton: a mul placed below a div (or a
    // mul) must keep three cycles clear after it, so sixteen states.
    Course::new(["machine", "--reverse"])
        .stdout_has("Resource mul (capacity 1):")
        .stdout_has("  hazard automaton: 16 reachable states")
        .run();
    let j = Course::new(["machine", "--format", "json"]).run().json();
    assert!(j.get("reverse").is_none(), "{j}");
}

#[test]
fn the_pathological_family_is_a_machine_name() {
    for d in [1u32, 4, 8] {
        Course::new(["machine", &format!("pathological:{d}")])
            .stdout_has(format!("machine pathological-{d}:"))
            .stdout_has(format!(
                "  hazard automaton: {} reachable states",
                1u32 << d
            ))
            .run();
    }
    // Everywhere a machine name is accepted.
    Course::new([
        "--machine",
        "pathological:4",
        "gen",
        "block",
        "--ops",
        "5",
        "--seed",
        "1",
    ])
    .stdout_has("op")
    .run();
    for bad in [
        "pathological:0",
        "pathological:65",
        "pathological",
        "pathological:x",
    ] {
        Course::new(["machine", bad])
            .code(2)
            .stderr_has(format!(
                "course: error: '{bad}': write pathological:D with 1 ≤ D ≤ 64 (Lesson 23.1 §5), e.g. pathological:6"
            ))
            .run();
    }
}

#[test]
fn a_machine_file_named_like_the_family_is_read_as_a_file() {
    let tmp = common::tempdir();
    let toy = std::fs::read_to_string("labs/ch23-sched/machines/toy.yaml").unwrap();
    for name in ["pathological.yaml", "pathological-4.yaml"] {
        std::fs::write(tmp.path().join(name), &toy).unwrap();
        Course::new(["machine", name])
            .current_dir(tmp.path())
            .stdout_has("machine toy: issue width 2")
            .run();
    }
}

/// A machine file with `n` classes on one unit, each holding it `occ` cycles.
fn shared_unit(n: usize, occ: usize) -> String {
    let mut s =
        "name: shared\nissue_width: 2\nresources:\n  - { name: u, capacity: 1 }\nclasses:\n"
            .to_string();
    for i in 0..n {
        s.push_str(&format!(
            "  - {{ name: c{i}, latency: {occ}, opcodes: [op{i}], unit: u, occupancy: {occ} }}\n"
        ));
    }
    s
}

#[test]
fn machine_views_refuse_what_they_could_not_print_quickly() {
    let dir = common::tempdir();
    let write = |name: &str, text: String| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let big = write("big.yaml", shared_unit(2, 4096));
    for format in ["text", "json"] {
        Course::new(["machine", &big, "--format", format]).run();
    }
    Course::new(["machine", &big])
        .stdout_has("  hazard automaton: the state of these resources needs 4096 bits")
        .run();
    let many = write("many.yaml", shared_unit(300, 1));
    for format in ["text", "json"] {
        Course::new(["machine", &many, "--format", format])
            .code(2)
            .stderr_has("course: error: machine shared: resources[0]: 300 classes use 'u' (capacity 1), so the forbidden-latency matrices would have 90000 sets, more than the 65536 `course machine` lists")
            .run();
    }
    // The machine itself is fine for everything else.
    Course::new([
        "--machine",
        &many,
        "gen",
        "block",
        "--ops",
        "3",
        "--seed",
        "1",
    ])
    .run();
    let long = write("long.yaml", shared_unit(20, 4096));
    Course::new(["machine", &long])
        .code(2)
        .stderr_has("course: error: machine shared: resources[0]: 20 classes use 'u' (capacity 1) at offsets up to 4095, so the forbidden-latency sets could hold 1638400 latencies, more than the 1048576 `course machine` lists")
        .run();
}

#[test]
fn the_course_yaml_files_pass_the_depth_check() {
    use course_content::data;
    use course_engine::formats::yaml::check_depth;
    let files = data::EMBEDDED_EXTRA.iter().copied().chain([
        ("toy.yaml", course_engine::model::machine::TOY_YAML),
        ("drills/mii.yaml", data::MII_YAML),
        ("drills/list-schedule.yaml", data::LIST_SCHEDULE_YAML),
    ]);
    for (path, text) in files.filter(|(p, _)| p.ends_with(".yaml")) {
        assert_eq!(check_depth(text, path), Ok(()), "{path}");
    }
}

/// The event table of Lesson 23.1 §3, cell by cell (the lesson leaves the
/// "before" of the two Advances empty; its "s[mul]" is said in the caption
/// above the table, which keeps the table within 80 columns).
const LESSON_TABLE: [&str; 8] = [
    "event | before | action | after",
    "cycle 4: Issue(div) | ∅ | K = {0,1,2,3}, no overlap: accept | {0,1,2,3}",
    "Advance | {0,1,2,3} | shift | {0,1,2}",
    "cycle 5: Issue(mul) | {0,1,2} | K = {0} overlaps at 0: reject | {0,1,2}",
    "Advance, Advance | shift twice | {0}",
    "cycle 7: Issue(mul) | {0} | overlaps at 0: reject | {0}",
    "Advance | {0} | shift | ∅",
    "cycle 8: Issue(mul) | ∅ | accept | {0}",
];

#[test]
fn the_lesson_trace_replays_as_its_event_table() {
    let out = common::ok(["drill", "hazard", "--lesson", "--solution"]);
    let table: Vec<String> = out
        .split("Solution: the state s[mul] before and after each event\n\n")
        .nth(1)
        .unwrap()
        .lines()
        .map(|l| {
            l.trim()
                .split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect();
    assert_eq!(table, LESSON_TABLE, "{out}");
    common::snapshot!("hazard_lesson_solution", out);
    // The same events spelled out, in any separator, by opcode or class.
    let spelled = common::ok([
        "drill",
        "hazard",
        "--events",
        "div@4, mul@5,mul@7  mul@8",
        "--solution",
    ]);
    assert_eq!(spelled, out);

    let right = "accept {0,1,2,3}\nreject {0,1,2}\nreject {0}\naccept {0}\n";
    Course::new(["drill", "hazard", "--lesson", "--check", "-"])
        .stdin(right)
        .stdout_has("Drill hazard · events div@4 mul@5 mul@7 mul@8 · machine toy")
        .stdout_has("✓ cycle 8: Issue(mul): accept {0}")
        .run();
    Course::new(["drill", "hazard", "--lesson", "--check", "-"])
        .stdin(right.replace("reject {0}\n", "accept {0}\n"))
        .code(1)
        .stdout_has("✗ cycle 7: Issue(mul): rejected, not accepted: s = {0} holds an offset of")
        .run();
    // The replay's first line, kept in the answer, names its attempts.
    let first = out.lines().next().unwrap();
    Course::new(["drill", "hazard", "--check", "-"])
        .stdin(format!("{first}\n{right}"))
        .stdout_has("✓ cycle 8: Issue(mul): accept {0}")
        .run();
    Course::new(["drill", "hazard", "--events", "div@4", "--check", "-"])
        .stdin(format!("{first}\n{right}"))
        .code(2)
        .stderr_has(
            "<stdin>:1: this answer's first line names another problem than --events 'div@4'",
        )
        .run();
    let j = Course::new([
        "drill",
        "hazard",
        "--lesson",
        "--solution",
        "--format",
        "json",
    ])
    .run()
    .json();
    assert_eq!(j["replay"], "div@4 mul@5 mul@7 mul@8");
    assert_eq!(j["solution"].as_array().unwrap().len(), 4);
    assert_eq!(j["events"][0], "cycle 4: Issue(div)");
    // Seeded problems say nothing of a replay.
    let j = Course::new(["drill", "hazard", "--seed", "1", "--format", "json"])
        .run()
        .json();
    assert!(j.get("replay").is_none(), "{j}");
}

#[test]
fn replays_follow_the_machine_and_refuse_what_they_cannot_trace() {
    // On the pathological family the traced unit is r.
    Course::new([
        "--machine",
        "pathological:3",
        "drill",
        "hazard",
        "--events",
        "o2@0 o0@2 o1@2 o0@3",
        "--solution",
    ])
    .stdout_has("on the r unit")
    .stdout_has("cycle 2: Issue(o0)  {0}")
    // The check it suggests runs on the same machine, named as a family member.
    .stdout_has("--events 'o2@0 o0@2 o1@2 o0@3' --machine pathological-3 --check ANSWER")
    .run();
    Course::new(["--machine", "pathological:3", "drill", "list-schedule"])
        .stdout_has("course drill list-schedule --machine pathological-3 --check ANSWER")
        .run();
    for (events, why) in [
        (
            "",
            "--events: no issue attempts; write them like 'div@4 mul@5 mul@7 mul@8'",
        ),
        ("div4", "--events: 'div4' is not CLASS@CYCLE (e.g. div@4)"),
        (
            "frob@1",
            "--events: machine toy has no class or opcode 'frob'",
        ),
        (
            "div@4 mul@3",
            "--events: mul@3 comes after cycle 4: the recognizer only moves forward",
        ),
        ("div@-1", "--events: div@-1: '-1' is negative"),
        ("div@20000", "--events: div@20000: cycles go up to 10000"),
    ] {
        Course::new(["drill", "hazard", "--events", events])
            .code(2)
            .stderr_has(format!("course: error: {why}"))
            .run();
    }
    let many = vec!["mul@1"; 101].join(" ");
    Course::new(["drill", "hazard", "--events", &many])
        .code(2)
        .stderr_has("101 issue attempts, more than 100")
        .run();
    Course::new(["drill", "mii", "--lesson"])
        .code(2)
        .stderr_has("--events and --lesson replay the hazard drill")
        .run();
    Course::new(["drill", "hazard", "--lesson", "--seed", "3"])
        .code(2)
        .stderr_has("cannot be used with")
        .run();
}

#[test]
fn automaton_drill() {
    for seed in 1..=3 {
        let s = seed.to_string();
        let out = common::ok(["drill", "automaton", "--seed", &s]);
        common::snapshot!(format!("automaton_{seed:02}_problem"), out);
        let out = common::ok(["drill", "automaton", "--seed", &s, "--solution"]);
        common::snapshot!(format!("automaton_{seed:02}_solution"), out);
    }
    let json = ["--solution", "--format", "json"];
    let out = common::ok(["drill", "automaton", "--seed", "1"].iter().chain(&json));
    common::snapshot!("automaton_01_solution_json", out);
    // The solution, from the JSON, checks as correct.
    let j = Course::new(["drill", "automaton", "--seed", "2"].iter().chain(&json))
        .run()
        .json();
    let set = |v: &serde_json::Value| {
        let items: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect();
        format!("{{{}}}", items.join(", "))
    };
    let mut answer = String::new();
    for row in j["solution"].as_array().unwrap() {
        let issues: Vec<String> = row["issue"]
            .as_object()
            .unwrap()
            .values()
            .map(|t| if t.is_null() { "-".to_string() } else { set(t) })
            .collect();
        answer.push_str(&format!(
            "{}: {} {}\n",
            set(&row["state"]),
            issues.join(" "),
            set(&row["advance"])
        ));
    }
    let check = || Course::new(["drill", "automaton", "--seed", "2", "--check", "-"]);
    check().stdin(&answer).stdout_has("✓ ∅:").run();
    // A refused issue given as accepted, and the last state left out.
    let mut lines: Vec<String> = answer.lines().map(str::to_string).collect();
    let dropped = lines.pop().unwrap();
    let refused = lines.iter().position(|l| l.contains(" - ")).unwrap();
    lines[refused] = lines[refused].replacen(" - ", " {0} ", 1);
    let o = check().stdin(lines.join("\n")).code(1).run();
    let state = dropped.split(':').next().unwrap().replace(", ", ",");
    assert!(
        o.stdout.contains(&format!("✗ state {state}: missing (")),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains(": you said {0}; K("), "{}", o.stdout);
    common::snapshot!("automaton_02_check_wrong", o.stdout);
    let j = check()
        .args(["--format", "json"])
        .stdin("x\n")
        .code(1)
        .run()
        .json();
    assert_eq!(j["mistakes"][0]["kind"], "format");
    let message = j["mistakes"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("<stdin>:1:1: 'x' is neither a set"),
        "{message}"
    );
}
