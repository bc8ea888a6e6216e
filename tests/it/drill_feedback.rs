//! Feedback that teaches, on the drill side: collision vectors as the
//! lesson defines them, the rules and the answer syntax in every prompt, a
//! first line that names the problem, root causes before consequences, and
//! generated inputs a student can read.

use course_content::drill::{Drill, Problem};
use course_content::generate::{self, GenParams};
use course_engine::engine::rtable::GlobalTable;
use course_engine::model::ids::{Cycle, OpId};
use course_engine::model::machine::Machine;
use course_engine::model::program::Program;

use crate::common::{self, Course};

/// Every line of `text` is at most 80 characters wide.
fn assert_narrow(what: &str, text: &str) {
    for line in text.lines() {
        assert!(
            line.chars().count() <= 80,
            "{what}: a line of {} columns:\n{line}",
            line.chars().count()
        );
    }
}

/// The first `✗` line of a report.
fn first_mistake(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with('✗'))
        .unwrap_or_default()
        .to_string()
}

/// A drill's reference answer, from its JSON solution.
fn solution_json(drill: &str, seed: u64) -> serde_json::Value {
    Course::new(["drill", drill, "--seed", &seed.to_string(), "--solution"])
        .args(["--format", "json"])
        .run()
        .json()
}

fn schedule_answer(j: &serde_json::Value) -> String {
    let mut s = String::new();
    if let Some(ii) = j["solution"]["ii"].as_u64() {
        s.push_str(&format!("ii {ii}\n"));
    }
    for (k, v) in j["solution"]["schedule"].as_object().unwrap() {
        s.push_str(&format!("{k} {v}\n"));
    }
    s
}

// Point 2: a collision vector is the state of a capacity-1 resource.

const GAPPY: &str = "name: gappy\nissue_width: 1\nresources:\n  - { name: r, capacity: 1 }\nclasses:\n  - { name: g, latency: 6, opcodes: [g], reservation: [[r, 3], [r, 5]] }\n  - { name: one, latency: 1, opcodes: [one], unit: r }\n";

#[test]
fn collision_vectors_are_states_on_a_machine_with_gaps() {
    let tmp = common::tempdir();
    let file = tmp.path().join("gappy.yaml");
    std::fs::write(&file, GAPPY).unwrap();
    let out = Course::new(["machine"]).args([&file]).run().stdout;
    // K(g) = {3, 5}: offsets 3 and 5 are reserved after issuing g alone;
    // F(g, g) = {0, 2} would read 101.
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("g ") && l.contains("000101"))
        .unwrap_or_else(|| panic!("no collision vector 000101 for g:\n{out}"));
    assert!(!line.contains(" 101 ") && !line.ends_with(" 101"), "{line}");
    assert!(out.contains("offset 0 first"), "{out}");
    assert!(!out.contains("latency 0 first"), "{out}");
}

// Point 3: the forbidden drill states the syntax of collision vectors and
// checks them.

#[test]
fn the_forbidden_drill_checks_collision_vectors() {
    for seed in 1..=6 {
        let s = seed.to_string();
        let prompt = common::ok(["drill", "forbidden", "--seed", &s]);
        assert!(prompt.contains("CV(A) = "), "{prompt}");
        let j = solution_json("forbidden", seed);
        let (answer, right) = common::forbidden_answer(seed);
        let cvs = j["solution"]["collision_vectors"].as_object().unwrap();
        let check = || Course::new(["drill", "forbidden", "--seed", &s, "--check", "-"]);
        check()
            .stdin(format!("{answer}{right}"))
            .stdout_has("✓ CV(A) = ")
            .run();
        // A wrong vector is wrong, with the state it should be.
        let (c, v) = cvs.iter().next().unwrap();
        let v = v.as_str().unwrap();
        let flipped: String = v
            .chars()
            .map(|b| if b == '0' { '1' } else { '0' })
            .collect();
        let wrong = right.replacen(
            &format!("CV({c}) = {v}"),
            &format!("CV({c}) = {flipped}"),
            1,
        );
        let out = check()
            .stdin(format!("{answer}{wrong}"))
            .code(1)
            .run()
            .stdout;
        assert!(
            first_mistake(&out).contains(&format!("CV({c}): you said {flipped}")),
            "{out}"
        );
        // Malformed bits are a located format error.
        let bad = right.replacen(&format!("CV({c}) = {v}"), &format!("CV({c}) = 10x"), 1);
        let out = check().stdin(format!("{answer}{bad}")).code(1).run().stdout;
        assert!(out.contains("<stdin>:"), "{out}");
    }
}

// Points 4 and 10: every prompt states its rules and its answer syntax,
// within 80 columns on the toy machine.

#[test]
fn every_prompt_states_its_rules_and_syntax_within_80_columns() {
    let wants: [(&str, &[&str]); 6] = [
        (
            "list-schedule",
            &[
                "h(x) = max(lat(x)",
                "ties by source order",
                "lat(producer)",
                "from a store",
                "from a load",
                "SPEC.md §2",
                "LABEL CYCLE",
            ],
        ),
        ("mii", &["⌈U_r/cap(r)⌉", "⌈ℓ(Z)/d(Z)⌉", "r@k", "res_mii N"]),
        ("modulo", &["mod II", "t_j + d·II ≥ t_i + ℓ", "ii N"]),
        (
            "forbidden",
            &["F(A,B) = {0, 2}", "CV(A) = ", "offset 0 first"],
        ),
        ("hazard", &["Issue(o)", "Advance", "accept {0, 1, 2}"]),
        ("rthroughput", &["not rounded", "μ/W", "5/2 or 2.5"]),
    ];
    for (drill, phrases) in wants {
        for seed in 1..=8 {
            let s = seed.to_string();
            let out = common::ok(["drill", drill, "--seed", &s]);
            assert_narrow(&format!("{drill} --seed {seed}"), &out);
            for p in phrases {
                assert!(out.contains(p), "{drill} --seed {seed} lacks {p:?}:\n{out}");
            }
            for lesson in ["Lesson 23.3", "Lesson 23.6"] {
                assert!(!out.contains(lesson), "{drill}: cites {lesson}:\n{out}");
            }
        }
    }
}

#[test]
fn schedules_accept_every_key_value_spelling() {
    let j = solution_json("list-schedule", 4);
    let spellings = ["{} {}", "{}: {}", "{}={}", "{} = {}"];
    let answer: String = j["solution"]["schedule"]
        .as_object()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, (k, v))| {
            spellings[i % 4]
                .replacen("{}", k, 1)
                .replacen("{}", &v.to_string(), 1)
                + "\n"
        })
        .collect();
    Course::new(["drill", "list-schedule", "--seed", "4", "--check", "-"])
        .stdin(answer)
        .stdout_has("✓ correct")
        .run();
}

// Point 5: the first line names the problem, and --check reads it.

#[test]
fn problems_start_with_the_command_that_makes_them() {
    for drill in ["list-schedule", "mii", "modulo", "hazard", "rthroughput"] {
        let out = common::ok(["drill", drill, "--seed", "4"]);
        assert_eq!(
            out.lines().next(),
            Some(format!("# course drill {drill} --seed 4 --machine toy").as_str())
        );
    }
    let out = common::ok(["drill", "forbidden", "--seed", "4"]);
    assert_eq!(
        out.lines().next(),
        Some("# course drill forbidden --seed 4")
    );
    // Without --seed a seed is drawn, printed in that line.
    let out = Course::new(["drill", "mii"]).run().stdout;
    let first = out.lines().next().unwrap_or_default();
    assert!(first.starts_with("# course drill mii --seed "), "{first}");
}

#[test]
fn check_reads_the_seed_from_the_first_line() {
    let first = common::ok(["drill", "list-schedule", "--seed", "4"])
        .lines()
        .next()
        .unwrap()
        .to_string();
    let answer = format!(
        "{first}\n{}",
        schedule_answer(&solution_json("list-schedule", 4))
    );
    Course::new(["drill", "list-schedule", "--check", "-"])
        .stdin(&answer)
        .stdout_has("✓ correct")
        .run();
    // The same seed on the command line agrees.
    Course::new(["drill", "list-schedule", "--seed", "4", "--check", "-"])
        .stdin(&answer)
        .stdout_has("✓ correct")
        .run();
    // Neither a seed nor the line: refused, no random problem graded.
    Course::new(["drill", "list-schedule", "--check", "-"])
        .stdin(schedule_answer(&solution_json("list-schedule", 4)))
        .code(2)
        .stderr_has("--seed")
        .run();
    // A seed, a drill or a machine that contradicts the line.
    Course::new(["drill", "list-schedule", "--seed", "5", "--check", "-"])
        .stdin(&answer)
        .code(2)
        .stderr_has("seed 4")
        .run();
    Course::new(["drill", "mii", "--check", "-"])
        .stdin(&answer)
        .code(2)
        .stderr_has("list-schedule")
        .run();
    Course::new([
        "--machine",
        "dot-fma",
        "drill",
        "list-schedule",
        "--check",
        "-",
    ])
    .stdin(&answer)
    .code(2)
    .stderr_has("machine toy")
    .run();
}

// Point 6: the root cause first, consequences grouped, memory as memory
// order, slots as slots, and no mistake hidden by a missing operation.

/// The first pair (x, y) the list rule orders by height: at x's cycle y
/// was ready too, x is higher, and x holds what y needed there.
fn height_ordered_pair(p: &Program, m: &Machine, t: &[Cycle], h: &[u64]) -> Option<(OpId, OpId)> {
    let mut cycles: Vec<Cycle> = t.to_vec();
    cycles.sort_unstable();
    cycles.dedup();
    let by_priority = |v: &mut Vec<OpId>| v.sort_by_key(|&x| (std::cmp::Reverse(h[x.index()]), x));
    for &c in &cycles {
        let mut at_c: Vec<OpId> = p.op_ids().filter(|x| t[x.index()] == c).collect();
        let mut waiting: Vec<OpId> = p
            .op_ids()
            .filter(|&y| {
                t[y.index()] > c
                    && p.in_edges(y).filter(|e| e.distance == 0).all(|e| {
                        let tf = t[e.from.index()];
                        tf < c && tf + Cycle::from(e.latency) <= c
                    })
            })
            .collect();
        by_priority(&mut at_c);
        by_priority(&mut waiting);
        for &y in &waiting {
            for &x in at_c.iter().rev() {
                if h[x.index()] <= h[y.index()] {
                    continue;
                }
                let mut table = GlobalTable::new();
                for z in p.op_ids().filter(|&z| z != x && t[z.index()] <= c) {
                    table.place(m, p.op(z).class, t[z.index()], Some(z));
                }
                if table.fits(m, p.op(y).class, c) {
                    return Some((x, y));
                }
            }
        }
    }
    None
}

#[test]
fn swapping_a_height_ordered_pair_names_both_first() {
    let m = Machine::toy();
    let mut tried = 0;
    for seed in 1..=20u64 {
        let Ok(Problem::ListSchedule(pr)) = Drill::ListSchedule.problem(&m, None, seed, true)
        else {
            panic!("a list-schedule problem");
        };
        let s = pr.solution.as_ref().unwrap();
        let (p, t, h) = (&pr.program, &s.reference.cycles, &s.reference.heights);
        // Seeds 8, 19 and 20 have no such pair: two are one chain, and in
        // the third no two ready operations compete for a resource.
        let Some((x, y)) = height_ordered_pair(p, &m, t, h) else {
            continue;
        };
        tried += 1;
        let mut swapped = t.clone();
        swapped.swap(x.index(), y.index());
        let answer: String = p
            .op_ids()
            .map(|z| format!("{} {}\n", p.label(z), swapped[z.index()]))
            .collect();
        let out = Course::new(["drill", "list-schedule", "--seed", &seed.to_string()])
            .args(["--check", "-"])
            .stdin(answer)
            .code(1)
            .run()
            .stdout;
        let first = first_mistake(&out);
        for z in [x, y] {
            let named = format!("{} (height {})", p.label(z), h[z.index()]);
            assert!(
                first.contains(&named),
                "seed {seed}: {named} not in\n{first}\n{out}"
            );
        }
        assert!(
            first.starts_with(&format!("✗ cycle {}: ", t[x.index()])),
            "{first}"
        );
    }
    assert_eq!(tried, 17, "seeds with a pair ordered by height");
}

#[test]
fn later_differences_are_grouped_as_consequences() {
    // Seed 4: delay the first operation by one cycle; what follows moves too.
    let j = solution_json("list-schedule", 4);
    let sched = j["solution"]["schedule"].as_object().unwrap();
    let answer: String = sched
        .iter()
        .map(|(k, v)| format!("{k} {}\n", v.as_i64().unwrap() + 1))
        .collect();
    let out = Course::new(["drill", "list-schedule", "--seed", "4", "--check", "-"])
        .stdin(answer)
        .code(1)
        .run()
        .stdout;
    assert!(first_mistake(&out).starts_with("✗ cycle 0: "), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with('✗')).count(),
        1,
        "{out}"
    );
    assert!(out.contains("consequence"), "{out}");
}

const STORE_LOAD: &str = "block mem\na: store [x], r9\nb: r1 = load [x]\nc: store [x], r8\ne: store [z], r7\nf: r3 = load [z]\n";

#[test]
fn memory_dependences_read_as_memory_order() {
    let tmp = common::tempdir();
    let input = tmp.path().join("mem.txt");
    std::fs::write(&input, STORE_LOAD).unwrap();
    let sub = tmp.path().join("mem.sched");
    // The store c before the load b of [x]; the load f before the store e
    // to [z].
    std::fs::write(&sub, "a 0\nc 1\nb 2\nf 3\ne 4\n").unwrap();
    let out = Course::new(["grade"])
        .args([&input, &sub])
        .code(1)
        .run()
        .stdout;
    let out = common::joined(&out);
    assert!(
        out.contains("c at 1: the load b from [x] must come first: ℓ = 0, so c can issue from 2"),
        "{out}"
    );
    assert!(
        out.contains("f at 3: the store e to [z] must come first: ℓ = 1, so f can issue from 5"),
        "{out}"
    );
    assert!(!out.contains("'s result"), "{out}");
}

#[test]
fn issue_slots_are_slots() {
    let out = Course::new(["grade", "labs/ch23-sched/inputs/dot.txt"])
        .args(["solutions/ch23-sched/samples/dot--ii-too-small.sched"])
        .code(1)
        .run()
        .stdout;
    let out = common::joined(&out);
    assert!(out.contains("its 2 slots are taken"), "{out}");
    assert!(
        !out.contains("issue is full at row 1 (cycle mod II 3): its 2 units"),
        "{out}"
    );
}

#[test]
fn a_missing_operation_hides_no_other_mistake() {
    // The running block without j, and i one cycle early.
    let sub = "c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 7\n";
    let tmp = common::tempdir();
    let file = tmp.path().join("running.sched");
    std::fs::write(&file, sub).unwrap();
    Course::new(["grade", "labs/ch23-sched/inputs/running.txt"])
        .args([&file])
        .code(1)
        .stdout_has("no cycle for j")
        .stdout_has("i at 7: g's result is visible from 8")
        .run();
}

// Point 7: modulo feedback and solution.

#[test]
fn modulo_ii_below_mii_says_so_first() {
    let mut seen = 0;
    for seed in 1..=10 {
        let j = solution_json("modulo", seed);
        let mii = j["solution"]["mii"].as_u64().unwrap();
        if mii < 2 {
            continue;
        }
        seen += 1;
        let answer = schedule_answer(&j).replacen(
            &format!("ii {}\n", j["solution"]["ii"]),
            &format!("ii {}\n", mii - 1),
            1,
        );
        let out = Course::new([
            "drill",
            "modulo",
            "--seed",
            &seed.to_string(),
            "--check",
            "-",
        ])
        .stdin(answer)
        .code(1)
        .run()
        .stdout;
        let first = first_mistake(&out);
        assert!(
            first.contains(&format!("below MII = {mii}")),
            "seed {seed}: {out}"
        );
        let rec = j["solution"]["rec_mii"].as_u64().unwrap();
        let bound = if rec == mii { "recurrence" } else { "usage" };
        assert!(first.contains(bound), "seed {seed}: {first}");
    }
    assert!(seen > 5);
}

#[test]
fn modulo_solution_shows_dependences_and_the_critical_recurrence() {
    let out = common::ok(["drill", "modulo", "--seed", "1", "--solution"]);
    assert!(out.contains("Dependences:"), "{out}");
    assert!(out.contains("Critical recurrence:"), "{out}");
}

// Point 8: RThroughput is not rounded up.

#[test]
fn rthroughput_rounded_up_is_explained() {
    let mut seen = 0;
    for seed in 1..=30 {
        let j = solution_json("rthroughput", seed);
        let r = j["solution"]["rthroughput"].as_str().unwrap();
        let Some((a, b)) = r.split_once('/') else {
            continue;
        };
        let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
        seen += 1;
        Course::new([
            "drill",
            "rthroughput",
            "--seed",
            &seed.to_string(),
            "--check",
            "-",
        ])
        .stdin(format!("{}\n", a.div_ceil(b)))
        .code(1)
        .stdout_has("RThroughput is not rounded up, unlike ResMII")
        .run();
        let sol = common::ok([
            "drill",
            "rthroughput",
            "--seed",
            &seed.to_string(),
            "--solution",
        ]);
        assert!(!sol.contains('⌈'), "{sol}");
    }
    assert!(seen > 0);
}

// Point 13: readable generated inputs.

#[test]
fn generated_names_are_readable_and_li_takes_an_immediate() {
    for seed in ["1", "7", "12345678901234567890"] {
        for kind in ["block", "loop"] {
            let out = common::ok(["gen", kind, "--seed", seed]);
            let header = out
                .lines()
                .find(|l| l.starts_with(kind))
                .unwrap_or_default();
            let name = header.split_whitespace().nth(1).unwrap_or_default();
            assert!(
                !name.is_empty()
                    && name.len() <= 12
                    && name.chars().filter(char::is_ascii_digit).count() <= 2,
                "{header}"
            );
        }
    }
    for drill in ["modulo", "rthroughput", "mii"] {
        let out = common::ok(["drill", drill, "--seed", "3"]);
        let header = out
            .lines()
            .find(|l| l.starts_with("loop "))
            .unwrap_or_default();
        assert!(header.len() <= 17, "{drill}: {header}");
    }
    let m = Machine::toy();
    let params = GenParams::loop_default();
    for seed in 0..600 {
        let text = generate::loop_body(&m, &params, seed, None);
        for line in text.lines().filter(|l| l.contains(" = li ")) {
            let operand = line.rsplit(' ').next().unwrap_or_default();
            assert!(operand.parse::<i64>().is_ok(), "seed {seed}: {line}");
        }
    }
}

/// The drill's own output saved to a file with the answer written below
/// it is checked as the answer alone: with no answer, the report is the
/// one of the problem line alone (every line missing, none of the
/// problem's text an error); with a wrong line, that line is blamed at its
/// own line number.
#[test]
fn the_saved_problem_with_the_answer_below_is_checked_as_the_answer() {
    let tmp = common::tempdir();
    for d in Drill::ALL {
        let name = d.name();
        let out = Course::new(["drill", name, "--seed", "2"]).run().stdout;
        let first = out.lines().next().unwrap().to_string();
        let saved = tmp.path().join(format!("{name}-saved.txt"));
        let bare = tmp.path().join(format!("{name}-bare.txt"));
        std::fs::write(&saved, &out).unwrap();
        std::fs::write(&bare, format!("{first}\n")).unwrap();
        let check = |p: &std::path::Path| {
            Course::new(["drill", name, "--check"])
                .arg_path(p)
                .any_code()
                .run()
                .stdout
                .replace(&p.display().to_string(), "FILE")
        };
        let (a, b) = (check(&saved), check(&bare));
        assert_eq!(a, b, "{name}: the saved problem was read as an answer");
        assert!(!a.contains(":2:"), "{name}: {a}");
        // A line that is no answer, below the saved problem: blamed there.
        let n = out.lines().count() + 1;
        std::fs::write(&saved, format!("{out}zzz-not-an-answer 7\n")).unwrap();
        let a = check(&saved);
        assert!(
            a.contains(&format!("FILE:{n}:")),
            "{name}: line {n} not blamed:\n{a}"
        );
    }
}

/// A wrong ResMII or RThroughput shows where the binding resource's U
/// comes from, class by class: the multiplier cycles of a div are what
/// students miss.
#[test]
fn a_wrong_usage_bound_shows_its_breakdown_by_class() {
    let tmp = common::tempdir();
    let f = tmp.path().join("r.txt");
    std::fs::write(&f, "# course drill rthroughput --seed 5 --machine toy\n1\n").unwrap();
    Course::new(["drill", "rthroughput", "--check"])
        .arg_path(&f)
        .code(1)
        .stdout_has("mul has U = 6 (2 from 2 mul, 4 from 1 div holding it 4 cycles) on capacity 1")
        .run();
    std::fs::write(
        &f,
        "# course drill mii --seed 1 --machine toy\nres_mii 1\nrec_mii 3\nmii 3\n",
    )
    .unwrap();
    Course::new(["drill", "mii", "--check"])
        .arg_path(&f)
        .code(1)
        .stdout_has("issue has U = 6 (3 from 3 alu, 1 from 1 load, 1 from 1 store, 1 from 1 mul) on capacity 2")
        .run();
}

/// Forbidden latencies: F(A,B) answered with F(B,A)'s set is named as the
/// pair in the other order, and a set without its 0 as the missing 0
/// (seed 1: F(A,B) = {0, 3}, F(B,A) = {0}).
#[test]
fn forbidden_names_the_swapped_pair_and_the_missing_zero() {
    let tmp = common::tempdir();
    let f = tmp.path().join("f.txt");
    let answer = |ab: &str, bb: &str| {
        format!(
            "# course drill forbidden --seed 1\nF(A,A) = {{0}}\nF(A,B) = {ab}\nF(B,A) = {{0}}\n\
             F(B,B) = {bb}\nCV(A) = 00001\nCV(B) = 01001\n"
        )
    };
    std::fs::write(&f, answer("{0}", "{0, 3}")).unwrap();
    let o = Course::new(["drill", "forbidden", "--check"])
        .arg_path(&f)
        .code(1)
        .stdout_has("F(A,B): the pair in the other order: you gave F(B,A) = {0}")
        .run();
    assert_eq!(o.stdout.matches('✗').count(), 1, "{}", o.stdout);
    std::fs::write(&f, answer("{0, 3}", "{3}")).unwrap();
    Course::new(["drill", "forbidden", "--check"])
        .arg_path(&f)
        .code(1)
        .stdout_has("F(B,B): d = 0 is missing")
        .run();
    let j = Course::new(["drill", "forbidden", "--check"])
        .arg_path(&f)
        .args(["--format", "json"])
        .code(1)
        .run()
        .json();
    assert_eq!(j["mistakes"][0]["kind"], "missing_zero", "{j}");
}

/// The hazard drill names a div reserved as a one-cycle operation, with
/// its K (seed 1: the div at cycle 0 leaves {0,1,2,3}, not {0}).
#[test]
fn hazard_names_a_div_taken_for_a_one_cycle_operation() {
    let tmp = common::tempdir();
    let f = tmp.path().join("h.txt");
    std::fs::write(
        &f,
        "# course drill hazard --seed 1 --machine toy\naccept {0}\naccept {0}\naccept {0}\n\
         reject {0}\naccept {0}\naccept {0}\naccept {0}\nreject {0}\n",
    )
    .unwrap();
    let o = Course::new(["drill", "hazard", "--check"])
        .arg_path(&f)
        .code(1)
        .stdout_has(
            "cycle 0: Issue(div): div reserved as a one-cycle operation: K(div) = {0,1,2,3}",
        )
        .run();
    assert_eq!(o.stdout.matches('✗').count(), 1, "{}", o.stdout);
}

/// Every prompt states every rule its checker applies on its machine:
/// on each built-in machine, each drill that runs a program there says how
/// zero idioms, folded loads and port groups are counted when the machine
/// has them, and says nothing of them when it does not.
#[test]
fn every_prompt_states_the_rules_of_its_machine() {
    for name in course_content::data::builtin_machine_names() {
        let text = course_content::data::builtin_machine(name).unwrap();
        let m = Machine::from_yaml(text, name).unwrap();
        let has = (
            m.classes().iter().any(|c| c.zero_idiom),
            m.classes().iter().any(|c| c.memory),
            m.resource_ids().any(|r| m.resource(r).is_group()),
        );
        for d in [
            Drill::ListSchedule,
            Drill::Mii,
            Drill::Modulo,
            Drill::Rthroughput,
        ] {
            let Ok(p) = d.problem(&m, None, 2, false) else {
                continue;
            };
            let text = course::view::drill::problem_text(&p);
            let at = format!("{} on {name}", d.name());
            assert_eq!(text.contains("Zero idioms:"), has.0, "{at}");
            assert_eq!(text.contains("Folded loads:"), has.1, "{at}");
            assert_eq!(text.contains("Port groups:"), has.2, "{at}");
            // The rules themselves within 80 columns (a machine's own table
            // may be wider).
            assert_narrow(&at, &course::view::drill::machine_rules(&m));
        }
    }
}

/// A modulo answer with one operation at a huge cycle is judged at once:
/// the search for the step to blame looks near the other operations, never
/// at every cycle up to the answer's largest (it hung past 30 s at 10⁸).
#[test]
fn a_modulo_answer_with_a_huge_cycle_is_judged_at_once() {
    let sol = crate::common::drill_solution("modulo", 1);
    let s = &sol["solution"];
    let mut answer = format!("# course drill modulo --seed 1\nii {}\n", s["ii"]);
    for (label, c) in s["schedule"].as_object().unwrap() {
        let c = if label == "i" {
            "1000000000000".to_string()
        } else {
            c.to_string()
        };
        answer.push_str(&format!("{label} {c}\n"));
    }
    let o = Course::new(["drill", "modulo", "--check", "-"])
        .stdin(answer)
        .timeout(20)
        .code(1)
        .run();
    assert!(o.stdout.contains("✗ i at 1000000000000"), "{}", o.stdout);
}
