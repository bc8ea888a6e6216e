//! The rthroughput drill as text: the loop body, and as solution the usage
//! per resource that decides Block RThroughput.

use super::{header, statement, verdict_lines};
use crate::view::report;
use course_content::drill::rthroughput::{Problem, Report};

/// The rules the answer is graded by.
const TASK: &str = "\
What Block RThroughput does llvm-mca print for this loop body?
  RThroughput = max(μ/W, max over resources r of U_r/cap(r)) (Definition
    23.1.10): μ the micro-ops of one iteration, W the issue width, U_r the
    cycles one iteration holds r. It is an exact fraction, not rounded up
    (unlike ResMII); llvm-mca prints it with one decimal.
";

/// The answer syntax ([`course_engine::formats::answer::number`]).
const SYNTAX: &str = "one number, such as 5/2 or 2.5.";

pub fn problem(p: &Problem) -> String {
    let mut text = statement(&p.line(), &p.model, &p.program, TASK, SYNTAX);
    if let Some(s) = &p.solution {
        let (m, b) = (&p.model, &s.bounds);
        let names: Vec<&str> = b
            .bottlenecks(m)
            .iter()
            .map(|&r| m.resource(r).name.as_str())
            .collect();
        text.push_str("\nSolution\n\n");
        text.push_str(&report::usage_ratio_text(m, b));
        text.push_str(&format!(
            "RThroughput = max(μ/W, max over r of U_r/cap(r)) = {} ({}){}\n\
             → Block RThroughput: {}\n",
            b.rthroughput.fraction_string(),
            names.join(", "),
            if b.rthroughput.den() > 1 {
                ", not rounded up"
            } else {
                ""
            },
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
