//! The automaton drill as text: the classes' offsets on `r`, the rules of
//! Algorithm 23.1.7, and as solution the transition table of every
//! reachable state.

use super::{answer_text, header, problem_header, verdict_lines};
use course_content::drill::automaton::{Problem, Report, StateRow, resource};
use course_content::text::columns;
use course_engine::engine::hazard::set_string;

pub fn problem(p: &Problem) -> String {
    let m = &p.model;
    let r = resource(m);
    let line = p.line();
    let mut text = problem_header(&line);
    text.push_str(
        "Build the pipeline automaton of Algorithm 23.1.7 for the capacity-1\n\
         resource r, used by these classes at the offsets shown (K_r(o)):\n",
    );
    text.push_str(&super::offsets_table(m, r));
    let issues: Vec<String> = m
        .classes()
        .iter()
        .map(|c| format!("Issue({})", c.name))
        .collect();
    text.push_str(
        "A state is the set s of offsets at which r is reserved, counted from the\n\
         current cycle; the start state is ∅. Issue(o) is refused when s ∩ K(o) ≠ ∅\n\
         and otherwise leads to s ∪ K(o); Advance leads to { k − 1 | k ∈ s, k ≥ 1 }.\n\
         \n\
         List every reachable state once, in any order.\n\n",
    );
    text.push_str(&answer_text(
        &line,
        &format!(
            "one line per state: the state, then where\n\
             {} and Advance lead ('-' for a refused issue),\n\
             such as '{}'.",
            issues.join(", "),
            example(issues.len())
        ),
    ));
    if let Some(s) = &p.solution {
        text.push_str(&format!(
            "\nSolution: {} reachable states, breadth first from ∅\n\n",
            s.states.len()
        ));
        let mut rows = vec![
            std::iter::once("  state".to_string())
                .chain(issues.iter().cloned())
                .chain(["Advance".to_string()])
                .collect::<Vec<_>>(),
        ];
        for row in &s.states {
            rows.push(
                std::iter::once(format!("  {}", set_string(&row.state)))
                    .chain(
                        row.issue
                            .values()
                            .map(|t| t.as_deref().map_or("-".to_string(), set_string)),
                    )
                    .chain([set_string(&row.advance)])
                    .collect(),
            );
        }
        text.push_str(&columns(&rows));
    }
    text
}

/// An answer line showing the syntax for `n` classes.
fn example(n: usize) -> String {
    let issues = ["{0, 1, 2}", "-", "{0, 2, 3}"];
    format!("{{0, 2}}: {} {{1}}", issues[..n.min(3)].join(" "))
}

/// `{0,2}: - {0,1,2} {1}` as the report shows a right row.
fn row_text(r: &StateRow) -> String {
    let issues: Vec<String> = r
        .issue
        .values()
        .map(|t| t.as_deref().map_or("-".to_string(), set_string))
        .collect();
    format!(
        "{}: {} {}",
        set_string(&r.state),
        issues.join(" "),
        set_string(&r.advance)
    )
}

pub fn report(r: &Report) -> String {
    format!(
        "{}{}\n",
        header(r.drill.name(), r.seed, &format!("automaton-{}", r.seed)),
        verdict_lines(&r.verdicts, |ok| format!("✓ {}", row_text(ok)))
    )
}
