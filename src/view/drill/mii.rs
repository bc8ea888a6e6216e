//! The mii drill as text: the loop, and as solution its dependences with
//! usage, ResMII, the critical recurrence, RecMII and MII.

use super::{header, program_problem, verdict_lines};
use crate::content::drill::mii::{Problem, Report};
use crate::view::report;

pub fn problem(p: &Problem) -> String {
    let mut text = program_problem(
        p,
        "Find ResMII, RecMII and MII of this loop (Lesson 23.6). A use at or before its\n\
         definition reads the previous iteration (distance 1); r@k reads k iterations back.\n\n",
        "Answer with lines 'res_mii N', 'rec_mii N', 'mii N'",
    );
    if let Some(s) = &p.solution {
        text.push_str("\nSolution\n\nDependences:\n");
        text.push_str(&report::edges_text(&p.program));
        text.push('\n');
        text.push_str(&report::bounds_text(&p.program, &p.model, &s.bounds));
    }
    text
}

pub fn report(r: &Report) -> String {
    let mut out = header(r.drill.name(), r.seed, &r.machine_name);
    out.push_str(&verdict_lines(&r.verdicts, |ok| {
        format!("✓ {} = {}", ok.key, ok.value)
    }));
    out.push('\n');
    out
}
