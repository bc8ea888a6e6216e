//! The modulo drill as text: the loop, the reference modulo schedule with
//! its modulo reservation table, and the check report.

use super::{header, indent, program_problem, wrong};
use crate::view::report;
use course_content::drill::modulo::{Problem, Report};
use course_engine::engine::check::submission_text;

/// The rules the answer is graded by.
const TASK: &str = concat!(
    "\
Modulo-schedule this loop body: choose an initiation interval II and an
issue cycle t for each operation of one iteration (iteration k issues it at
t + k·II). The reference II is expected: the minimum, found by an exact
search, for loops of up to 100 operations.
",
    super::loop_dependences!(),
    "  An edge i→j of latency ℓ and distance d needs t_j + d·II ≥ t_i + ℓ.
  Modulo reservation table: an operation at t holds resource r in row
    (t + k) mod II for each (r, k) of its table; no row over capacity.
  MII = max(ResMII, RecMII) (the mii drill) is a lower bound on II.
"
);

/// The answer syntax ([`course_engine::formats::submission`]).
const SYNTAX: &str = "\
a line 'ii N' and one line per operation, 'LABEL CYCLE' ('ii: 4'
and 'a = 0' read the same).";

pub fn problem(p: &Problem) -> String {
    let mut text = program_problem(p, TASK, SYNTAX);
    if let Some(s) = &p.solution {
        let claim = s
            .ii_facts
            .as_ref()
            .map(|f| report::ii_claim(s.ii, f, p.program.len()))
            .unwrap_or_else(|| format!("iterative modulo scheduling reaches II = {}", s.ii));
        text.push_str("\nSolution\n\nDependences:\n");
        text.push_str(&report::edges_text(&p.program));
        text.push('\n');
        text.push_str(&report::bounds_text(&p.program, &p.model, &s.bounds));
        text.push('\n');
        text.push_str(&course_content::text::wrap(
            &format!("{}:\n", report::capitalized(&claim)),
            80,
        ));
        text.push_str(&indent(&submission_text(&p.program, &s.cycles, Some(s.ii))));
        text.push_str("\nModulo reservation table (rows = cycle mod II):\n");
        text.push_str(&report::reservation_table(
            &p.program,
            &p.model,
            &s.cycles,
            Some(s.ii),
        ));
    }
    text
}

pub fn report(r: &Report) -> String {
    let mut out = header(r.drill.name(), r.seed, r.model.name());
    for m in &r.mistakes {
        out.push_str(&wrong(m));
        out.push('\n');
    }
    if let Some(v) = &r.valid {
        if !v.above_reference {
            out.push_str(&format!(
                "✓ valid at II = {} (MII = {}{})\n",
                v.ii,
                v.mii,
                if v.optimal { ": optimal" } else { "" }
            ));
        }
        out.push_str("\nYour modulo reservation table:\n");
        out.push_str(&report::reservation_table(
            &r.program,
            &r.model,
            &v.cycles,
            Some(v.ii),
        ));
    }
    out
}
