//! The modulo drill as text: the loop, the reference modulo schedule with
//! its modulo reservation table, and the check report.

use super::{header, indent, program_problem, wrong};
use crate::content::drill::modulo::{Problem, Report};
use crate::engine::check::submission_text;
use crate::view::report;

pub fn problem(p: &Problem) -> String {
    let mut text = program_problem(
        p,
        "Modulo-schedule this loop (Lesson 23.6): choose an initiation interval II and an\n\
         issue cycle for each operation of one iteration so that every dependence holds\n\
         (t_j + d·II ≥ t_i + ℓ) and the modulo reservation table never overflows.\n\n",
        "Answer with a line 'ii N' and one 'LABEL CYCLE' line per operation",
    );
    if let Some(s) = &p.solution {
        let claim = s
            .ii_facts
            .map(|f| report::ii_claim(s.ii, &f, p.program.len()))
            .unwrap_or_else(|| format!("II = {}", s.ii));
        text.push_str(&format!(
            "\nSolution\n\nResMII = {}, RecMII = {}, MII = {}; {claim}.\n\n",
            s.res_mii, s.rec_mii, s.mii
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
