//! The mii drill as text: the loop, and as solution its dependences with
//! usage, ResMII, the critical recurrence, RecMII and MII.

use super::{header, program_problem, verdict_lines};
use crate::view::report;
use course_content::drill::mii::{Problem, Report};

/// The rules the answer is graded by.
const TASK: &str = concat!(
    "\
Find ResMII, RecMII and MII of this loop body.
",
    super::loop_dependences!(),
    "  ResMII = max over resources r, issue included, of ⌈U_r/cap(r)⌉, where U_r
    counts the cycles one iteration holds r (Definition 23.1.2).
  RecMII = max over dependence cycles Z of ⌈ℓ(Z)/d(Z)⌉, where ℓ(Z) and
    d(Z) sum the latencies and distances around Z (Theorem 23.1.12).
  MII = max(ResMII, RecMII).
"
);

/// The answer syntax ([`course_engine::formats::answer::key_values`]).
const SYNTAX: &str = "\
three lines 'res_mii N', 'rec_mii N', 'mii N' ('ResMII: 4' and
'mii = 4' read the same).";

pub fn problem(p: &Problem) -> String {
    let mut text = program_problem(p, TASK, SYNTAX);
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
