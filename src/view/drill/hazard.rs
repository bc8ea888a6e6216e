//! The hazard drill as text: the issue attempts, the unit's K sets, and as
//! solution the recognizer's event table (Lesson 23.1 §3).

use super::{answer_text, header, problem_header, verdict_lines};
use crate::content::drill::hazard::{Problem, Report};
use crate::engine::hazard::set_string;
use crate::util::text::columns;

/// The answer syntax ([`crate::formats::answer::set`]).
const SYNTAX: &str = "\
one line per issue attempt: 'accept' or 'reject' and the state
after it, such as 'accept {0, 1, 2}' (a set; {} when empty).";

pub fn problem(p: &Problem) -> String {
    let (m, unit) = (&p.model, p.unit);
    let u = &m.resource(unit).name;
    let line = p.line();
    let mut text = problem_header(&line);
    text.push_str(&format!(
        "Run the hazard recognizer of Algorithm 23.1.7 on the {u} unit. Its state\n\
         s = s[{u}] is the set of offsets k ≥ 0 such that {u} is already reserved\n\
         k cycles from now; it is empty at cycle 0.\n\
         \x20 Issue(o) is accepted iff s ∩ K(o) = ∅, and then s ← s ∪ K(o); a\n\
         \x20   rejected Issue(o) changes nothing.\n\
         \x20 Advance, between two cycles: s ← {{k − 1 | k ∈ s, k ≥ 1}}.\n",
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
    text.push_str(&answer_text(&line, SYNTAX));
    if let Some(s) = &p.solution {
        let mut rows = vec![vec![
            "  event".to_string(),
            format!("s[{u}] before"),
            "action".into(),
            "after".into(),
        ]];
        for r in &s.trace {
            let (event, action) = match r.accepted {
                Some(a) => (
                    format!("  cycle {}: {}", r.cycle, r.event),
                    if a { "accept" } else { "reject" },
                ),
                None => (format!("  {}", r.event), "shift"),
            };
            rows.push(vec![
                event,
                set_string(&r.before),
                action.to_string(),
                set_string(&r.after),
            ]);
        }
        text.push_str("\nSolution\n\n");
        text.push_str(&columns(&rows));
    }
    text
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
    format!(
        "{}{lines}\n",
        header(r.drill.name(), r.seed, &r.machine_name)
    )
}
