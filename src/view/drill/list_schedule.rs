//! The list-schedule drill as text: the block, the heights and the
//! reservation table of the reference schedule (with how it compares with
//! the optimum), and the check report with its diff.

use super::{header, indent, program_problem, wrong};
use crate::view::report;
use course_content::drill::list_schedule::{Problem, Report};
use course_engine::engine::check::submission_text;

/// The rules the answer is graded by: the lab's list scheduler.
const TASK: &str = "\
Schedule this block with the top-down list scheduler of the lab
(labs/ch23-sched/SPEC.md §1; a worked example is in Lesson 23.1 §3).
  Dependences (SPEC.md §2): a register read depends on the operation that
    defines the register, ℓ = lat(producer). Two memory operations, at least
    one a store, may alias when they name the same symbol or either address
    has a register: they keep source order, ℓ = lat(store) from a store and
    ℓ = 0 from a load to a store.
  Heights: h(x) = max(lat(x), max over edges x→y of ℓ(x,y) + h(y)).
  Cycle by cycle from 0, try the ready operations (every predecessor placed
    and its ℓ elapsed) by decreasing height, ties by source order; place each
    one that Fits (Algorithm 23.1.4: no resource over capacity in any cycle).
";

/// The answer syntax ([`course_engine::formats::submission`]).
const SYNTAX: &str = "\
one line per operation, 'LABEL CYCLE' ('a 0'; 'a: 0' and 'a = 0'
read the same).";

pub fn problem(p: &Problem) -> String {
    let mut text = program_problem(p, TASK, SYNTAX);
    if let Some(s) = &p.solution {
        let (prog, m, r) = (&p.program, &p.model, &s.reference);
        text.push_str("\nSolution\n\nDependences:\n");
        text.push_str(&report::edges_text(prog));
        text.push_str("\nHeights h(x) = max(lat(x), max over x→y of ℓ + h(y)):\n");
        text.push_str(&report::heights_text(prog, &r.heights));
        text.push_str(&format!("\nSchedule (length {}):\n", r.length));
        text.push_str(&indent(&submission_text(prog, &r.cycles, None)));
        if let Some(o) = &s.optimum {
            let claim = report::block_claim(r.length, o.length, o.lower, prog.len());
            let claim = format!("\n{}.\n", report::capitalized(&claim));
            text.push_str(&course_content::text::wrap(&claim, 80));
            if o.length < r.length {
                // Not the answer the drill asks for: say so.
                text.push_str(&course_content::text::wrap(
                    "This drill asks for the list schedule above; the shorter one \
                     comes from an exact search, not from list scheduling \
                     (`course schedule` prints it).\n",
                    80,
                ));
            }
        }
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
    if !r.consequences.is_empty() {
        out.push_str(
            "\nLater placements that differ as a consequence (not mistakes of their own):\n",
        );
        for c in &r.consequences {
            out.push_str(&format!(
                "  {} at {} (list rule: {})\n",
                c.label, c.cycle, c.list_cycle
            ));
        }
    }
    out.push('\n');
    out.push_str(&r.diff);
    if let Some(t) = &r.cycles {
        out.push_str("\nYour reservation table:\n");
        out.push_str(&report::reservation_table(&r.program, &r.model, t, None));
    }
    out
}
