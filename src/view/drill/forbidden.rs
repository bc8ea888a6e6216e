//! The forbidden drill as text: the offsets of each class on `r`, the two
//! definitions it practises, and as solution every forbidden-latency set
//! and collision vector (with its bit order).

use super::{answer_text, problem_header, verdict_lines};
use course_content::drill::forbidden::{Problem, Report, resource};
use course_content::text::columns;
use course_engine::engine::hazard::{bit_order, set_string};

/// The rules the answer is graded by.
const TASK: &str = "\
Give every forbidden-latency set F(o,o') and every collision vector CV(o).
  F(o,o') = {d ≥ 0 | some k ∈ K(o), k' ∈ K(o') have k − d = k'}: the
    distances d at which o' issued d cycles after o meets o on r (Definition
    23.1.5, Lemma 23.1.6).
  CV(o) = the state of r right after o issues while r is free: bit k is 1
    when r is reserved k cycles later, offset 0 first (Definition 23.1.5).
";

/// The answer syntax ([`course_engine::formats::answer::set`] and
/// [`course_engine::formats::answer::bits`]).
const SYNTAX: &str = "\
one line per set and per vector, such as 'F(A,B) = {0, 2}' (a set;
{} when empty) and 'CV(A) = 0101' (bits, offset 0 first).";

pub fn problem(p: &Problem) -> String {
    let m = &p.model;
    let r = resource(m);
    let line = p.line();
    let mut text = problem_header(&line);
    text.push_str("These classes use the capacity-1 resource r at the offsets K(o):\n");
    text.push_str(&super::offsets_table(m, r));
    text.push('\n');
    text.push_str(TASK);
    text.push('\n');
    text.push_str(&answer_text(&line, SYNTAX));
    if let Some(s) = &p.solution {
        text.push_str(
            "\nSolution (Lemma 23.1.6: d is forbidden iff some k ∈ K(o), k' ∈ K(o')\nhave k − k' = d):\n",
        );
        let rows: Vec<Vec<String>> = s
            .forbidden
            .iter()
            .map(|(k, f)| vec![format!("  {k}"), "=".into(), set_string(f)])
            .collect();
        text.push_str(&columns(&rows));
        text.push_str("Collision vectors (the state of r after one issue; 1 = reserved):\n");
        let rows: Vec<Vec<String>> = s
            .collision_vectors
            .iter()
            .map(|(class, v)| {
                vec![
                    format!("  CV({class})"),
                    "=".into(),
                    v.clone(),
                    // A comment, so the line reads back as an answer.
                    format!("# {}", bit_order(v.len())),
                ]
            })
            .collect();
        text.push_str(&columns(&rows));
    }
    text
}

pub fn report(r: &Report) -> String {
    format!(
        "Drill forbidden · seed {}\n\n{}\n",
        r.seed,
        verdict_lines(&r.verdicts, |ok| format!("✓ {} = {}", ok.key, ok.value))
    )
}

#[cfg(test)]
mod tests {
    use course_content::drill::forbidden::{check, problem};

    #[test]
    fn the_printed_solution_reads_back_as_a_right_answer() {
        for seed in 0..20 {
            let text = super::problem(&problem(seed, true));
            let (_, solution) = text.split_once("\nSolution").unwrap();
            let answer: String = solution
                .lines()
                .filter(|l| l.starts_with("  "))
                .map(|l| format!("{l}\n"))
                .collect();
            assert!(answer.contains("CV(A)"), "{answer}");
            let r = check(seed, &answer, "a.txt");
            assert!(r.correct, "seed {seed}:\n{answer}");
        }
    }
}
