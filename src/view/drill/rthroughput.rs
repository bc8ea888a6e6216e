//! The rthroughput drill as text: the loop body, and as solution the usage
//! per resource that decides Block RThroughput.

use super::{header, statement, verdict_lines};
use crate::content::drill::rthroughput::{Problem, Report};
use crate::view::report;

pub fn problem(p: &Problem) -> String {
    let mut text = statement(
        p.drill,
        p.seed,
        &p.model,
        &p.program,
        "What Block RThroughput does llvm-mca print for this loop body (Definition 23.1.10)?\n\n",
        "Answer with one number (5/2 or 2.5)",
    );
    if let Some(s) = &p.solution {
        let b = &s.bounds;
        text.push_str("\nSolution\n\n");
        text.push_str(&report::usage_text(&p.model, b));
        text.push_str(&format!(
            "RThroughput = max over resources of U/cap (issue: μ/W) = {} → Block RThroughput: {}\n",
            b.rthroughput.fraction_string(),
            b.rthroughput.decimal1()
        ));
    }
    text
}

pub fn report(r: &Report) -> String {
    let lines = verdict_lines(&r.verdicts, |exact| {
        format!("✓ RThroughput = {}", exact.fraction_string())
    });
    format!(
        "{}{lines}\n",
        header(r.drill.name(), r.seed, &r.machine_name)
    )
}
