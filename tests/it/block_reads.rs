//! Blocks that read registers before the operation defining them (product.md
//! §4): such a read takes the value live on entry, and the definition waits
//! for it. Generated blocks with their lines shuffled have many such reads;
//! their reference schedules must keep every read before its redefinition,
//! every flow latency, and pass the grader, and the simulator must end.

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::Duration;

use course_content::generate::{self, GenParams};
use course_engine::engine::{check, mca, reference};
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program, parse};
use course_engine::util::rng::Rng;

use crate::common::Course;

/// A generated block with its operation lines in a random order.
fn shuffled_block(m: &Machine, seed: u64) -> String {
    let params = GenParams::block_default();
    let ops = 4 + seed % 30;
    let text = generate::block(m, &params, seed, Some(ops));
    let mut lines: Vec<&str> = text.lines().collect();
    let first_op = lines
        .iter()
        .position(|l| l.starts_with("block "))
        .map_or(0, |i| i + 1);
    let mut rng = Rng::derived(seed, "shuffled-block");
    rng.shuffle(&mut lines[first_op..]);
    lines.join("\n") + "\n"
}

/// Every register rule checked from the operations as written, not from the
/// engine's edges: a read before the definition is not after it, a read
/// after the definition waits for its latency.
fn register_problems(p: &Program, m: &Machine, t: &[i64]) -> Vec<String> {
    let def: HashMap<&str, usize> = p
        .ops()
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.dest.as_deref().map(|d| (d, i)))
        .collect();
    let mut out = Vec::new();
    for (j, op) in p.ops().iter().enumerate() {
        for u in op.reg_uses() {
            let Some(&i) = def.get(u.name.as_str()) else {
                continue;
            };
            if i > j && t[i] < t[j] {
                out.push(format!(
                    "{} redefines {} at {} before {} reads it at {}",
                    p.ops()[i].label,
                    u.name,
                    t[i],
                    op.label,
                    t[j]
                ));
            }
            if i < j && t[j] < t[i] + i64::from(m.class(p.ops()[i].class).latency) {
                out.push(format!("{} reads {} too early", op.label, u.name));
            }
        }
    }
    out
}

#[test]
fn shuffled_blocks_schedule_validly_and_simulate_to_the_end() {
    let m = Machine::toy();
    let mut anti = 0;
    for seed in 0..300 {
        let text = shuffled_block(&m, seed);
        let p = parse(&text, "shuffled.txt", &m).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(p.kind(), Kind::Block);
        assert!(p.edges().iter().all(|e| e.from < e.to), "{text}");
        anti += p
            .edges()
            .iter()
            .filter(|e| e.kind == course_engine::model::program::EdgeKind::Anti)
            .count();
        let s = reference::reference(&p, &m);
        let problems = register_problems(&p, &m, &s.cycles);
        assert!(problems.is_empty(), "seed {seed}: {problems:?}\n{text}");
        let sub = course_engine::formats::submission::parse(
            &check::submission_text(&p, &s.cycles, None),
            "ref.sched",
        );
        let r = check::check(&p, &m, &sub);
        assert!(r.valid(), "seed {seed}: {:?}\n{text}", r.violations);
        // The simulator ends (it used to wait forever on a backward edge).
        let (tx, rx) = mpsc::channel();
        let (p2, m2) = (p.clone(), m.clone());
        std::thread::spawn(move || {
            let opts = mca::Options {
                iterations: 20,
                timeline_iterations: 1,
            };
            let _ = tx.send(mca::simulate(&p2, &m2, &opts).map(|r| r.total_cycles));
        });
        let done = rx.recv_timeout(Duration::from_secs(20));
        assert!(
            matches!(done, Ok(Ok(_))),
            "seed {seed}: mca did not end\n{text}"
        );
    }
    assert!(
        anti > 300,
        "only {anti} anti dependences in 300 shuffled blocks"
    );
}

#[test]
fn the_issue_example_keeps_a_before_b_and_mca_ends() {
    let dir = crate::common::tempdir();
    let f = dir.path().join("f.txt");
    std::fs::write(&f, "block t\na: r2 = add r1, 1\nb: r1 = li 3\n").unwrap();
    let f = f.to_str().unwrap();
    Course::new(["analyze", f])
        .stdout_has("a → b  ℓ = 0    r1 (anti: a reads r1 before b redefines it)")
        .run();
    let j = Course::new(["analyze", f, "--format", "json"]).run().json();
    assert_eq!(j["edges"][0]["kind"], "anti");
    assert_eq!(j["edges"][0]["latency"], 0);
    let j = Course::new(["schedule", f, "--format", "json"])
        .run()
        .json();
    assert!(j["schedule"]["a"].as_i64() <= j["schedule"]["b"].as_i64());
    Course::new(["mca", f, "--iterations", "1000"])
        .stdout_has("Total Cycles:")
        .run();
    std::fs::write(dir.path().join("f.sched"), "a 1\nb 0\n").unwrap();
    Course::new(["grade", f, dir.path().join("f.sched").to_str().unwrap()])
        .code(1)
        .stdout_has("b at 0: a reads r1 before b redefines it, so b may not issue before a (at 1)")
        .run();
    // A block line may read and define the same register.
    std::fs::write(dir.path().join("g.txt"), "block g\na: r2 = add r2, 1\n").unwrap();
    Course::new(["schedule", dir.path().join("g.txt").to_str().unwrap()]).run();
}
