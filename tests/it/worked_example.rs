//! Lesson 23.1 §3 as tests: the running block's schedule and table, the div
//! variant with its hazard-recognizer trace, forbidden latencies and the
//! multiplier's automaton, and the pathological family of Lesson 23.1 §5.

use crate::common;
use course::view::report::reservation_table;
use course_engine::engine::hazard::{self, Automaton, Event, set_string};
use course_engine::engine::list::list_schedule;
use course_engine::model::machine::Machine;
use course_engine::model::program::parse;

const RUNNING: &str = include_str!("../../labs/ch23-sched/inputs/running.txt");

#[test]
fn course_schedule_running_is_the_worked_example() {
    let out = common::ok(["schedule", "labs/ch23-sched/inputs/running.txt"]);
    // The heading ends with what the exact search proved: the lesson's
    // schedule is the shortest there is.
    assert!(
        out.contains("ties by source order), length 10,\nthe optimum (proven):\n"),
        "{out}"
    );
    let sched: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("List schedule"))
        .skip_while(|l| !l.ends_with(':'))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        sched,
        [
            "c 0", "a 1", "b 2", "e 3", "f 4", "d 5", "g 5", "h 6", "i 8", "j 9"
        ]
    );
    // The table's rows are the lesson's; `view::report`'s unit test holds
    // them. Here: the binary prints that view of the reference schedule.
    let m = Machine::toy();
    let p = parse(RUNNING, "running.txt", &m).unwrap();
    let table = reservation_table(&p, &m, &list_schedule(&p, &m).cycles, None);
    assert!(table.starts_with("cycle"), "{table}");
    assert!(
        out.contains(&format!("\nReservation table:\n{table}")),
        "{out}"
    );
}

#[test]
fn div_variant_delays_d_and_the_trace_matches_the_event_table() {
    let m = Machine::toy();
    let src = RUNNING.replace("f: r6 = mul r1, r5", "f: r6 = div r1, r5");
    let p = parse(&src, "running-div.txt", &m).unwrap();
    let s = list_schedule(&p, &m);
    let at = |l: &str| s.cycles[p.op_by_label(l).unwrap().index()];
    assert_eq!((at("f"), at("d")), (4, 8));

    let mul = m.resource_by_name("mul").unwrap();
    let (div_c, mul_c) = (
        m.class_by_opcode("div").unwrap(),
        m.class_by_opcode("mul").unwrap(),
    );
    let events = [
        Event::Issue(div_c),
        Event::Advance,
        Event::Issue(mul_c),
        Event::Advance,
        Event::Advance,
        Event::Issue(mul_c),
        Event::Advance,
        Event::Issue(mul_c),
    ];
    let rows: Vec<String> = hazard::trace(&m, mul, 4, &events)
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {}",
                if r.accepted.is_some() {
                    format!("cycle {}: {}", r.cycle, r.event)
                } else {
                    r.event.clone()
                },
                set_string(&r.before),
                match r.accepted {
                    Some(true) => "accept",
                    Some(false) => "reject",
                    None => "shift",
                },
                set_string(&r.after)
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "cycle 4: Issue(div) ∅ accept {0,1,2,3}",
            "Advance {0,1,2,3} shift {0,1,2}",
            "cycle 5: Issue(mul) {0,1,2} reject {0,1,2}",
            "Advance {0,1,2} shift {0,1}",
            "Advance {0,1} shift {0}",
            "cycle 7: Issue(mul) {0} reject {0}",
            "Advance {0} shift ∅",
            "cycle 8: Issue(mul) ∅ accept {0}",
        ]
    );
}

#[test]
fn forbidden_latencies_and_automata() {
    let m = Machine::toy();
    let mul = m.resource_by_name("mul").unwrap();
    let (div_c, mul_c) = (
        m.class_by_opcode("div").unwrap(),
        m.class_by_opcode("mul").unwrap(),
    );
    assert_eq!(
        hazard::forbidden_latencies(&m, mul, div_c, mul_c),
        [0, 1, 2, 3]
    );
    assert_eq!(hazard::forbidden_latencies(&m, mul, mul_c, div_c), [0]);
    assert_eq!(hazard::forbidden_latencies(&m, mul, mul_c, mul_c), [0]);
    let a = Automaton::build(&m, &[mul]).unwrap();
    let mut states: Vec<String> = (0..a.len() as u32).map(|s| a.state_name(s)).collect();
    states.sort();
    assert_eq!(states, ["{0,1,2,3}", "{0,1,2}", "{0,1}", "{0}", "∅"]);

    let p = hazard::pathological_machine(10);
    let r = p.resource_by_name("r").unwrap();
    assert_eq!(Automaton::build(&p, &[r]).unwrap().len(), 1 << 10);

    let out = common::ok(["machine"]);
    assert!(out.contains("hazard automaton: 5 reachable states"));
}
