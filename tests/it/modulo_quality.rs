//! The II of the reference modulo schedules never gets worse: the lab's
//! loops and 1,000 generated loops against the IIs recorded in
//! `tests/data/modulo-ii.txt` before the scheduler was rewritten. Every
//! schedule also passes the grader's checks.

use course_content::generate::{self, GenParams};
use course_engine::engine::{check, reference};
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program, parse};

const RECORD: &str = include_str!("../data/modulo-ii.txt");

/// The loop a record line names, and the II recorded for it.
fn recorded(m: &Machine, params: &GenParams, line: &str) -> (String, Program, u64) {
    let f: Vec<&str> = line.split_whitespace().collect();
    let ii: u64 = f[3].parse().unwrap();
    let ops: usize = f[2].parse().unwrap();
    let (name, p) = match f[0] {
        "lab" => {
            let path = format!("labs/ch23-sched/inputs/{}.txt", f[1]);
            let text = std::fs::read_to_string(crate::common::root().join(&path)).unwrap();
            (path.clone(), parse(&text, &path, m).unwrap())
        }
        _ => {
            let seed: u64 = f[1].parse().unwrap();
            let size = if seed.is_multiple_of(4) {
                None
            } else {
                Some(4 + seed % 45)
            };
            let (_, p) = generate::program(m, params, seed, size, Kind::Loop);
            (format!("generated loop, seed {seed}"), p)
        }
    };
    assert_eq!(p.len(), ops, "{name}: the generator changed");
    (name, p, ii)
}

#[test]
fn no_reference_ii_got_worse() {
    let m = Machine::toy();
    let params = GenParams::loop_default();
    let (mut better, mut same, mut total) = (Vec::new(), 0, 0);
    for line in RECORD.lines().filter(|l| !l.starts_with('#')) {
        let (name, p, before) = recorded(&m, &params, line);
        let s = reference::reference(&p, &m);
        let ii = s.ii.unwrap();
        assert!(ii <= before, "{name}: II {ii}, recorded {before}");
        assert!(
            check::check_cycles(&p, &m, &s.cycles, Some(ii)).is_empty(),
            "{name}: the reference schedule fails the checks"
        );
        total += 1;
        if ii < before {
            better.push(format!("{name}: {before} → {ii}"));
        } else {
            same += 1;
        }
    }
    assert_eq!(total, 1004);
    eprintln!(
        "{same} loops at the recorded II, {} lower: {better:?}",
        better.len()
    );
}
