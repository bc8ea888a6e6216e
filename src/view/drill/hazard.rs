//! The hazard drill as text: the issue attempts, the unit's K sets, and as
//! solution the recognizer's event table laid out as in Lesson 23.1 §3
//! (consecutive Advances on one row).

use super::{header, verdict_lines};
use crate::content::drill::hazard::{Problem, Report};
use crate::engine::hazard::{set_string, TraceRow};
use crate::model::ids::ResourceId;
use crate::model::machine::Machine;
use crate::util::text::columns;

/// The header of a replay: its events instead of a seed.
fn replay_header(events: &str, machine: &str) -> String {
    format!("Drill hazard · events {events} · machine {machine}\n\n")
}

pub fn problem(p: &Problem) -> String {
    let (m, unit, seed) = (&p.model, p.unit, p.seed);
    let unit_name = &m.resource(unit).name;
    let mut text = match &p.replay {
        Some(events) => replay_header(events, m.name()),
        None => header(p.drill.name(), seed, m.name()),
    };
    text.push_str(&format!(
        "Run the hazard recognizer of Algorithm 23.1.7 on the {unit_name} unit. Starting from an\n\
         empty state at cycle {}, these issue attempts happen (Advance between cycles):\n",
        p.start
    ));
    for e in &p.events {
        text.push_str(&format!("  {e}\n"));
    }
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
    text.push_str(&format!("\n{}\n", ks.join(", ")));
    let again = match &p.replay {
        Some(events) => format!("--events '{events}'"),
        None => format!("--seed {seed}"),
    };
    text.push_str(&format!(
        "For each issue give 'accept' or 'reject' and s[{unit_name}] after it, one line each\n(e.g. 'accept {{0,1,2}}'), then:\n  course drill hazard {again} --check FILE\n",
    ));
    if let Some(s) = &p.solution {
        text.push_str("\nSolution\n\n");
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
        format!("s[{}] before", m.resource(unit).name),
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
