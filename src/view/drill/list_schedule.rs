//! The list-schedule drill as text: the block, the heights and the
//! reservation table of the reference schedule, and the check report with
//! its diff.

use super::{header, indent, program_problem, wrong};
use crate::content::drill::list_schedule::{Problem, Report};
use crate::engine::check::submission_text;
use crate::view::report;

pub fn problem(p: &Problem) -> String {
    let mut text = program_problem(
        p,
        "Schedule this block top-down, cycle by cycle (Lesson 23.3): at each cycle try the\n\
         ready operations in priority order (height, ties by source order) and place each\n\
         one that Fits (Algorithm 23.1.4).\n\n",
        "Answer with one 'LABEL CYCLE' line per operation",
    );
    if let Some(s) = &p.solution {
        let (prog, m, r) = (&p.program, &p.model, &s.reference);
        text.push_str("\nSolution\n\nDependences:\n");
        text.push_str(&report::edges_text(prog));
        text.push_str("\nHeights h(x) = max(lat(x), max over x→y of ℓ + h(y)):\n");
        text.push_str(&report::heights_text(prog, &r.heights));
        text.push_str(&format!("\nSchedule (length {}):\n", r.length));
        text.push_str(&indent(&submission_text(prog, &r.cycles, None)));
        text.push_str("\nReservation table:\n");
        text.push_str(&report::reservation_table(prog, m, &r.cycles, None));
    }
    text
}

pub fn report(r: &Report) -> String {
    let mut out = header(r.drill.name(), r.seed, r.model.name());
    if r.correct {
        out.push_str(&format!(
            "✓ correct: every operation at its list-scheduling cycle (length {}).\n",
            r.length
        ));
        return out;
    }
    out.push_str(&format!("{} mistake(s):\n", r.mistakes.len()));
    for m in &r.mistakes {
        out.push_str(&wrong(m));
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&r.diff);
    if let Some(t) = &r.cycles {
        out.push_str("\nYour reservation table:\n");
        out.push_str(&report::reservation_table(&r.program, &r.model, t, None));
    }
    out
}
