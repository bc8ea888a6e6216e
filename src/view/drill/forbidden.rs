//! The forbidden drill as text: the offsets of each class on `r`, and as
//! solution every forbidden-latency set and collision vector.

use super::verdict_lines;
use crate::content::drill::forbidden::{resource, Problem, Report};
use crate::engine::hazard::set_string;
use crate::util::text::columns;

pub fn problem(p: &Problem) -> String {
    let (m, seed) = (&p.model, p.seed);
    let r = resource(m);
    let mut text = format!(
        "Drill forbidden · seed {seed} · generator v{}\n\n",
        p.generator_version
    );
    text.push_str(
        "These classes use the capacity-1 resource r at the offsets shown (K_r(o), Definition 23.1.5):\n",
    );
    let rows: Vec<Vec<String>> = m
        .class_ids()
        .map(|c| {
            let ks: Vec<u32> = m.class(c).offsets(r).collect();
            vec![format!("  K({})", m.class(c).name), set_string(&ks)]
        })
        .collect();
    text.push_str(&columns(&rows));
    text.push_str(&format!(
        "\nGive every forbidden-latency set F(o,o') and each class's collision vector.\nAnswer with lines like 'F(A,B) = {{0,2}}', then:\n  course drill forbidden --seed {seed} --check FILE\n"
    ));
    if let Some(s) = &p.solution {
        text.push_str("\nSolution (Lemma 23.1.6: d is forbidden iff some k ∈ K(o), k' ∈ K(o') have k − k' = d):\n");
        let rows: Vec<Vec<String>> = s
            .forbidden
            .iter()
            .map(|(k, f)| vec![format!("  {k}"), "=".into(), set_string(f)])
            .collect();
        text.push_str(&columns(&rows));
        text.push_str("Collision vectors (latency 0 first; 1 = forbidden):\n");
        for (class, v) in &s.collision_vectors {
            text.push_str(&format!("  {class}: {v}\n"));
        }
    }
    text
}

pub fn report(r: &Report) -> String {
    format!(
        "Drill forbidden · seed {}\n\n{}\n",
        r.seed,
        verdict_lines(&r.verdicts, |ok| format!(
            "✓ {} = {}",
            ok.key,
            set_string(&ok.set)
        ))
    )
}
