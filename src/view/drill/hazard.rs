//! The hazard drill as text: the issue attempts, the unit's K sets, and as
//! solution the recognizer's event table (Lesson 23.1 §3).

use super::{header, verdict_lines};
use crate::content::drill::hazard::{Problem, Report};
use crate::engine::hazard::set_string;
use crate::util::text::columns;

pub fn problem(p: &Problem) -> String {
    let (m, unit, seed) = (&p.model, p.unit, p.seed);
    let unit_name = &m.resource(unit).name;
    let mut text = header(p.drill.name(), seed, m.name());
    text.push_str(&format!(
        "Run the hazard recognizer of Algorithm 23.1.7 on the {unit_name} unit. Starting from an\n\
         empty state at cycle 0, these issue attempts happen (Advance between cycles):\n",
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
    text.push_str(&format!(
        "For each issue give 'accept' or 'reject' and s[{unit_name}] after it, one line each\n(e.g. 'accept {{0,1,2}}'), then:\n  course drill hazard --seed {seed} --check FILE\n",
    ));
    if let Some(s) = &p.solution {
        let mut rows = vec![vec![
            "  event".to_string(),
            format!("s[{unit_name}] before"),
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
