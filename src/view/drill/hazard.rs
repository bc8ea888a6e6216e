//! The hazard drill as text: the issue attempts, the unit's K sets, and as
//! solution the recognizer's event table laid out as in Lesson 23.1 §3
//! (consecutive Advances on one row).

use super::{answer_text, header, machine_arg, problem_header, verdict_lines};
use course_content::drill::hazard::{Problem, Report};
use course_content::text::columns;
use course_engine::engine::hazard::{TraceRow, set_string};
use course_engine::model::ids::ResourceId;
use course_engine::model::machine::Machine;

/// The answer syntax ([`course_engine::formats::answer::set`]).
const SYNTAX: &str = "\
one line per issue attempt: 'accept' or 'reject' and the state
after it, such as 'accept {0, 1, 2}' (a set; {} when empty).";

/// The header of a replay: its events instead of a seed.
fn replay_header(events: &str, machine: &str) -> String {
    format!("Drill hazard · events {events} · machine {machine}\n\n")
}

pub fn problem(p: &Problem) -> String {
    let (m, unit) = (&p.model, p.unit);
    let u = &m.resource(unit).name;
    let line = p.line();
    let mut text = match &p.replay {
        Some(events) => format!(
            "# course drill hazard --events '{events}' --machine {}\n{}",
            m.name(),
            replay_header(events, m.name())
        ),
        None => problem_header(&line),
    };
    text.push_str(&format!(
        "Run the hazard recognizer of Algorithm 23.1.7 on the {u} unit. Its state\n\
         s = s[{u}] is the set of offsets k ≥ 0 such that {u} is already reserved\n\
         k cycles from now; it is empty at cycle {}.\n\
         \x20 Issue(o) is accepted iff s ∩ K(o) = ∅, and then s ← s ∪ K(o); a\n\
         \x20   rejected Issue(o) changes nothing.\n\
         \x20 Advance, between two cycles: s ← {{k − 1 | k ∈ s, k ≥ 1}}.\n",
        p.start
    ));
    let ks: Vec<String> = m
        .class_ids()
        .filter(|&c| m.class(c).usage(unit) > 0)
        .map(|c| {
            format!(
                "K({}) = {}",
                m.class(c).name,
                set_string(&m.class(c).offsets(unit).collect::<Vec<_>>())
            )
        })
        .collect();
    text.push_str(&format!("{}\n\nThe issue attempts:\n", ks.join(", ")));
    for e in &p.events {
        text.push_str(&format!("  {e}\n"));
    }
    text.push('\n');
    match &p.replay {
        Some(events) => text.push_str(&format!(
            "Answer with {SYNTAX}\nCheck it with:\n  course drill hazard --events '{events}'{} --check ANSWER\n",
            machine_arg(Some(m.name()))
        )),
        None => text.push_str(&answer_text(&line, SYNTAX)),
    }
    if let Some(s) = &p.solution {
        text.push_str(&format!(
            "\nSolution: the state s[{u}] before and after each event\n\n"
        ));
        text.push_str(&event_table(m, unit, &s.trace));
    }
    text
}

/// The trace as the event table of Lesson 23.1 §3: one row per issue
/// attempt and one per run of Advances, worded as the lesson words them:
/// the first attempt of a class names its `K`, later ones only the
/// overlap, and a run of several Advances leaves "before" to the row
/// above.
fn event_table(m: &Machine, unit: ResourceId, trace: &[TraceRow]) -> String {
    let mut named = Vec::new();
    let mut rows = vec![vec![
        "  event".to_string(),
        "before".into(),
        "action".into(),
        "after".into(),
    ]];
    for run in trace.chunk_by(|a, b| a.accepted.is_none() && b.accepted.is_none()) {
        let (first, last) = (&run[0], &run[run.len() - 1]);
        let Some(accepted) = first.accepted else {
            let (event, action) = match run.len() {
                1 => ("Advance".to_string(), "shift".to_string()),
                2 => ("Advance, Advance".to_string(), "shift twice".to_string()),
                n => (format!("Advance ×{n}"), format!("shift {n} times")),
            };
            rows.push(vec![
                format!("  {event}"),
                if run.len() == 1 {
                    set_string(&first.before)
                } else {
                    String::new()
                },
                action,
                set_string(&last.after),
            ]);
            continue;
        };
        let k: Vec<u32> = first
            .class
            .map(|o| {
                let mut k: Vec<u32> = m.class(o).offsets(unit).collect();
                k.dedup();
                k
            })
            .unwrap_or_default();
        let overlap: Vec<u32> = k
            .iter()
            .copied()
            .filter(|x| first.before.contains(x))
            .collect();
        let first_time = !named.contains(&first.class);
        named.push(first.class);
        let at: Vec<String> = overlap.iter().map(u32::to_string).collect();
        let action = match (first_time, accepted, overlap.is_empty()) {
            (true, true, true) => format!("K = {}, no overlap: accept", set_string(&k)),
            (true, false, false) => {
                format!(
                    "K = {} overlaps at {}: reject",
                    set_string(&k),
                    at.join(",")
                )
            }
            (false, false, false) => format!("overlaps at {}: reject", at.join(",")),
            (false, true, true) => "accept".to_string(),
            // A unit of capacity above 1 takes overlapping reservations up to its capacity.
            (_, true, false) => format!("K = {} within capacity: accept", set_string(&k)),
            (_, false, true) => format!("K = {} over capacity: reject", set_string(&k)),
        };
        rows.push(vec![
            format!("  cycle {}: {}", first.cycle, first.event),
            set_string(&first.before),
            action,
            set_string(&first.after),
        ]);
    }
    columns(&rows)
}

pub fn report(r: &Report) -> String {
    let lines = verdict_lines(&r.verdicts, |ok| {
        format!(
            "✓ cycle {}: {}: {} {}",
            ok.cycle,
            ok.event,
            if ok.accepted { "accept" } else { "reject" },
            set_string(&ok.after)
        )
    });
    let head = match &r.replay {
        Some(events) => replay_header(events, &r.machine_name),
        None => header(r.drill.name(), r.seed, &r.machine_name),
    };
    format!("{head}{lines}\n")
}
