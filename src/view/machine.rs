//! `course machine`: what a machine model implies. As data
//! ([`MachineOutput`], the JSON form): the model and the forbidden latencies
//! of each capacity-1 unit. As text: each class's reservation table
//! (Definition 23.1.1), forbidden-latency matrices and collision vectors (the
//! state after one issue, with its bit order) per capacity-1 resource
//! (Definition 23.1.5), and hazard automata
//! (Algorithm 23.1.7) per unit and for the whole machine.

use serde::Serialize;

use crate::engine::hazard::{self, Automaton};
use crate::model::machine::{ClassInfo, Machine, ResourceInfo};
use crate::util::text::columns;

/// States beyond this are counted but not listed.
const LIST_STATES: usize = 40;

/// A machine model with its forbidden latencies (product.md §6). Fields are
/// declared in alphabetical order, the order JSON objects print their keys
/// in.
#[derive(Clone, Debug, Serialize)]
pub struct MachineOutput<'m> {
    pub classes: Vec<ClassInfo>,
    /// Per capacity-1 unit (issue excluded), in machine order.
    pub forbidden_latencies: Vec<ForbiddenLatencies>,
    pub issue_width: u32,
    pub micro_op_buffer_size: u32,
    pub name: String,
    pub resources: Vec<ResourceInfo>,
    /// The model, for the text view.
    #[serde(skip)]
    pub model: &'m Machine,
}

/// `F(from, to)` for every pair of classes using one unit (Definition
/// 23.1.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForbiddenLatencies {
    pub pairs: Vec<ForbiddenPair>,
    pub resource: String,
}

/// One pair's forbidden latencies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForbiddenPair {
    pub from: String,
    pub latencies: Vec<u32>,
    pub to: String,
}

/// The text view of [`MachineOutput`].
pub fn text(out: &MachineOutput) -> String {
    model_text(out.model)
}

/// The text view of a model.
pub fn model_text(m: &Machine) -> String {
    let mut s = format!("{m}");
    s.push_str("\nReservation tables (X: used at that offset after issue; 2: used twice):\n");
    for c in m.classes() {
        let d = c.max_offset();
        s.push_str(&format!(
            "\n{}: latency {}, {} uop{}{}, opcodes {}\n",
            c.name,
            c.latency,
            c.uops,
            if c.uops == 1 { "" } else { "s" },
            if c.read_advance > 0 {
                format!(", ReadAdvance {}", c.read_advance)
            } else {
                String::new()
            },
            c.opcodes.join(" ")
        ));
        let mut rows = vec![std::iter::once("  ".to_string())
            .chain((0..=d).map(|k| k.to_string()))
            .collect::<Vec<_>>()];
        for r in m.resource_ids() {
            if c.usage(r) == 0 {
                continue;
            }
            let mut row = vec![format!("  {}", m.resource(r).name)];
            for k in 0..=d {
                let n = c.offsets(r).filter(|&x| x == k).count();
                row.push(match n {
                    0 => ".".into(),
                    1 => "X".into(),
                    n => n.to_string(),
                });
            }
            rows.push(row);
        }
        s.push_str(&columns(&rows));
    }
    let mut legend_shown = false;
    for r in m.resource_ids().skip(1) {
        let res = m.resource(r);
        let users: Vec<_> = m.class_ids().filter(|&c| m.class(c).usage(r) > 0).collect();
        if users.is_empty() {
            continue;
        }
        s.push_str(&format!(
            "\nResource {} (capacity {}):\n",
            res.name, res.capacity
        ));
        if res.capacity == 1 {
            s.push_str("  forbidden latencies F(row, column) (Definition 23.1.5):\n");
            let mut rows = vec![std::iter::once("    ".to_string())
                .chain(users.iter().map(|&c| m.class(c).name.clone()))
                .collect::<Vec<_>>()];
            for &a in &users {
                let mut row = vec![format!("    {}", m.class(a).name)];
                for &b in &users {
                    row.push(hazard::set_string(&hazard::forbidden_latencies(m, r, a, b)));
                }
                rows.push(row);
            }
            s.push_str(&columns(&rows));
            s.push_str(&format!(
                "  collision vectors: the state of {} after one issue (Definition 23.1.5):\n",
                res.name
            ));
            let rows: Vec<Vec<String>> = users
                .iter()
                .map(|&c| {
                    let v = hazard::collision_vector(m, r, c);
                    let order = hazard::bit_order(v.len());
                    vec![format!("    {}", m.class(c).name), v, order]
                })
                .collect();
            s.push_str(&columns(&rows));
        }
        match Automaton::build_limited(m, &[r], 1 << 16) {
            Ok(a) => {
                s.push_str(&format!(
                    "  hazard automaton: {} reachable states\n",
                    a.len()
                ));
                if a.len() <= LIST_STATES {
                    s.push_str(&automaton_table(m, &a, !legend_shown));
                    legend_shown = true;
                }
            }
            Err(e) => s.push_str(&format!("  hazard automaton: {e}\n")),
        }
    }
    let all: Vec<_> = m.resource_ids().collect();
    match Automaton::build_limited(m, &all, 1 << 20) {
        Ok(a) => s.push_str(&format!(
            "\nWhole-machine automaton (every resource, issue included): {} reachable states\n",
            a.len()
        )),
        Err(e) => s.push_str(&format!("\nWhole-machine automaton: {e}\n")),
    }
    s
}

/// An automaton's transitions, one row per state: the state after
/// Issue(class) under each class name (`-`: rejected), then after Advance.
/// Class names alone head the columns, so the toy machine's table fits in
/// 80 columns; `legend` says so in words (once is enough).
fn automaton_table(m: &Machine, a: &Automaton, legend: bool) -> String {
    let mut header = vec!["    state".to_string(), "name".to_string()];
    header.extend(m.classes().iter().map(|c| c.name.clone()));
    header.push("Advance".into());
    let mut rows = vec![header];
    for q in 0..a.len() as u32 {
        let mut row = vec![format!("    q{q}"), a.state_name(q)];
        for c in m.class_ids() {
            row.push(a.issue(q, c).map_or("-".into(), |t| format!("q{t}")));
        }
        row.push(format!("q{}", a.advance(q)));
        rows.push(row);
    }
    let legend = if legend {
        "    (a row per state; under each class, the state after issuing it, - if it\n    \
         does not fit; under Advance, the state a cycle later)\n"
    } else {
        ""
    };
    format!("{legend}{}", columns(&rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toy_view_lists_the_multiplier_automaton() {
        let t = model_text(&Machine::toy());
        assert!(t.contains("Resource mul (capacity 1):"));
        assert!(t.contains("hazard automaton: 5 reachable states"), "{t}");
        assert!(
            t.contains("    mul  1     offset 0\n    div  1111  offsets 0..3, offset 0 first\n"),
            "{t}"
        );
    }
}
