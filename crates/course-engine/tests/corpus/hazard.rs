//! A shared case corpus for hazard queries: on random `Issue`/`Advance`
//! sequences the automaton's O(1) transitions, the recognizer of Algorithm 23.1.7
//! and `Fits`/`Place` of Algorithm 23.1.4 on a global table give the same answer
//! for every query, on several machines.

use course_engine::engine::hazard::{Automaton, Recognizer, pathological_machine};
use course_engine::engine::rtable::GlobalTable;
use course_engine::model::ids::{ClassId, ResourceId};
use course_engine::model::machine::Machine;
use course_engine::util::rng::Rng;

/// Two pipelined units of capacity 2 and 1, a class that holds the second
/// unit for three non-adjacent cycles, and a two-micro-op class.
const MIXED: &str = "\
name: mixed
issue_width: 3
resources:
  - { name: fpu, capacity: 2 }
  - { name: div, capacity: 1 }
classes:
  - name: fadd
    latency: 2
    opcodes: [fadd]
    reservation: [[fpu, 0], [fpu, 1]]
  - name: fdiv
    latency: 7
    opcodes: [fdiv]
    reservation: [[fpu, 0], [div, 1], [div, 3], [div, 4]]
  - name: pair
    latency: 1
    opcodes: [pair]
    uops: 2
    reservation: [[fpu, 2]]
";

/// Runs `steps` random events from `seed` and checks every query; returns
/// how many issues were refused (so the corpus is known to exercise both).
fn agree(m: &Machine, seed: u64, steps: usize) -> (usize, usize) {
    let resources: Vec<ResourceId> = m.resource_ids().collect();
    let auto = Automaton::build(m, &resources).expect("automaton builds");
    let mut rec = Recognizer::new(m, &resources);
    let mut table = GlobalTable::new();
    let mut state = auto.start();
    let mut cycle = 0i64;
    let mut rng = Rng::derived(seed, "hazard-corpus");
    let (mut accepted, mut refused) = (0, 0);
    let nclass = m.classes().len() as u64;
    for step in 0..steps {
        if rng.percent(30) {
            state = auto.advance(state);
            rec.advance();
            cycle += 1;
            continue;
        }
        let o = ClassId::from_index(rng.below(nclass) as usize);
        let fits = table.fits(m, o, cycle);
        let by_auto = auto.issue(state, o);
        let by_rec = rec.issue(o);
        assert_eq!(
            by_auto.is_some(),
            fits,
            "{} seed {seed} step {step}: automaton vs Algorithm 23.1.4",
            m.name()
        );
        assert_eq!(
            by_rec,
            fits,
            "{} seed {seed} step {step}: recognizer vs Algorithm 23.1.4",
            m.name()
        );
        if let Some(t) = by_auto {
            table.place(m, o, cycle, None);
            state = t;
            accepted += 1;
            assert_eq!(
                auto.state(state),
                rec.states().to_vec(),
                "{} seed {seed} step {step}",
                m.name()
            );
        } else {
            refused += 1;
        }
    }
    (accepted, refused)
}

fn check_machine(m: &Machine) {
    let (mut a, mut r) = (0, 0);
    for seed in 0..40 {
        let (x, y) = agree(m, seed, 400);
        a += x;
        r += y;
    }
    assert!(
        a > 1000 && r > 1000,
        "{}: {a} accepted, {r} refused",
        m.name()
    );
}

#[test]
fn toy_machine() {
    check_machine(&Machine::toy());
}

#[test]
fn pathological_family() {
    for d in [3, 6] {
        check_machine(&pathological_machine(d));
    }
}

#[test]
fn mixed_machine_with_gaps_capacities_and_uops() {
    let m = Machine::from_yaml(MIXED, "mixed.yaml").expect("valid machine");
    check_machine(&m);
}
