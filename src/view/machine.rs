//! `course machine`: the text view of a [`MachineOutput`]: each class's
//! reservation table (Definition 23.1.1), forbidden-latency matrices and
//! collision vectors (the state after one issue, with its bit order) per
//! capacity-1 resource (Definition 23.1.5), and hazard automata (Algorithm
//! 23.1.7) per unit and for the whole machine. With `--reverse`, the same
//! for the mirrored tables of a bottom-up scheduler.
//!
//! The reservation tables and forbidden-latency sets are built in time
//! linear in what they print, [`check_size`](crate::api::machine::check_size)
//! refuses, naming the field, a machine whose view would print more than
//! about a million cells, and the automata are enumerated within a fixed
//! budget of transitions. So `course machine` ends in well under two
//! seconds on any machine it accepts (BENCHMARKS.md, "Machine views and
//! YAML nesting").

use crate::api::machine::{LIST_STATES, MachineOutput};
use course_content::text::columns;
use course_engine::engine::hazard::{self, Automaton};
use course_engine::model::ids::{ClassId, ResourceId};
use course_engine::model::machine::{Class, Machine};

/// Transitions enumerated for the per-unit automata together.
const UNIT_TRANSITIONS: usize = 1 << 22;

/// Transitions enumerated for the whole-machine automaton.
const WHOLE_TRANSITIONS: usize = 1 << 20;

/// The text view of [`MachineOutput`].
pub fn text(out: &MachineOutput) -> String {
    if out.reverse {
        let mut s = reverse_note(&out.model);
        s.push_str(&model_text(&out.model));
        s
    } else {
        model_text(&out.model)
    }
}

/// What `--reverse` shows, before the mirrored model.
fn reverse_note(m: &Machine) -> String {
    let spans: Vec<String> = m
        .resource_ids()
        .skip(1)
        .filter_map(|r| {
            let d = m.classes().iter().flat_map(|c| c.offsets(r)).max()?;
            Some(format!("{} {d}", m.resource(r).name))
        })
        .collect();
    format!(
        "Mirrored for a bottom-up scheduler (Lesson 23.1 §4 and §6). Each offset k on a\n\
         resource r becomes D_r − k, with D_r the largest offset any class uses on r.\n\
         A bottom-up scheduler fills cycles from the last to the first: these tables\n\
         give its hazard automaton, in which Advance steps one cycle earlier, and\n\
         F(row, column) is the set of distances d at which the column's class may not\n\
         issue d cycles before the row's.\n\
         D_r: {}\n\n",
        if spans.is_empty() {
            "no unit is used".to_string()
        } else {
            spans.join(", ")
        }
    )
}

/// Tables reaching this offset are listed as ranges rather than drawn.
const WIDE_TABLE: u32 = 64;

/// A table too wide to draw: per resource, the offsets it is used at as
/// ranges (`0–4095`), with the count where it is used more than once.
fn wide_table(m: &Machine, c: &Class) -> String {
    let mut rows = Vec::new();
    for run in c.folded.chunk_by(|a, b| a.0 == b.0) {
        let spans: Vec<String> = run
            .chunk_by(|a, b| b.1 == a.1 + 1 && b.2 == a.2)
            .map(|g| {
                let (first, last, n) = (g[0].1, g[g.len() - 1].1, g[0].2);
                let at = if first == last {
                    first.to_string()
                } else {
                    format!("{first}–{last}")
                };
                if n == 1 { at } else { format!("{at} ({n}×)") }
            })
            .collect();
        rows.push(vec![
            format!("  {}", m.resource(run[0].0).name),
            format!("at {}", spans.join(", ")),
        ]);
    }
    format!(
        "  (offsets 0–{}, too wide to draw: the offsets each resource is used at)\n{}",
        c.max_offset(),
        columns(&rows)
    )
}

/// The largest power of two at most `budget / per_state` (at least 1),
/// capped at `cap`: how many states an automaton may have when each costs
/// `per_state` transitions.
fn state_limit(budget: usize, per_state: usize, cap: usize) -> usize {
    let n = (budget / per_state.max(1)).max(1);
    (1usize << (usize::BITS - 1 - n.leading_zeros())).min(cap)
}

/// The text view of a model: the machine, each class's reservation table
/// (Definition 23.1.1), the view of each resource in use (Definition
/// 23.1.5, Algorithm 23.1.7), then the whole-machine automaton.
pub fn model_text(m: &Machine) -> String {
    let mut s = format!("{m}");
    s.push_str("\nReservation tables (X: used at that offset after issue; 2: used twice):\n");
    for c in m.classes() {
        s.push_str(&class_heading(c));
        s.push_str(&reservation_table(m, c));
    }
    // Each state of an automaton has a transition per class and Advance.
    let transitions = m.classes().len() + 1;
    s.push_str(&resource_views(m, transitions));
    s.push_str(&whole_machine_automaton(m, transitions));
    s
}

/// A class's heading line: latency, micro-ops, ReadAdvance, write
/// latencies, whether it stores, and its opcodes.
fn class_heading(c: &Class) -> String {
    let mut extra = String::new();
    if c.read_advance > 0 {
        extra.push_str(&format!(", ReadAdvance {}", c.read_advance));
    }
    if !c.write_latencies.is_empty() {
        let each: Vec<String> = c.write_latencies.iter().map(u32::to_string).collect();
        extra.push_str(&format!(
            ", its registers ready after {} cycles",
            each.join("/")
        ));
    }
    if c.stores {
        extra.push_str(", stores");
    }
    format!(
        "\n{}: latency {}, {} uop{}{extra}, opcodes {}\n",
        c.name,
        c.latency,
        c.uops,
        if c.uops == 1 { "" } else { "s" },
        c.opcodes.join(" ")
    )
}

/// RT(o) as a grid (Definition 23.1.1): a row per resource, a column per
/// offset; a table of [`WIDE_TABLE`] offsets or more as [`wide_table`].
fn reservation_table(m: &Machine, c: &Class) -> String {
    let d = c.max_offset();
    if d >= WIDE_TABLE {
        return wide_table(m, c);
    }
    let mut rows = vec![
        std::iter::once("  ".to_string())
            .chain((0..=d).map(|k| k.to_string()))
            .collect::<Vec<_>>(),
    ];
    // `folded` is sorted by resource, then offset: one row per run.
    for run in c.folded.chunk_by(|a, b| a.0 == b.0) {
        let mut row = vec![format!("  {}", m.resource(run[0].0).name)];
        row.resize(d as usize + 2, ".".to_string());
        for &(_, k, n) in run {
            row[k as usize + 1] = if n == 1 { "X".into() } else { n.to_string() };
        }
        rows.push(row);
    }
    columns(&rows)
}

/// Each resource some class uses, `issue` left out: for a capacity-1 unit
/// its forbidden latencies and collision vectors, then its hazard
/// automaton within the per-unit budget of transitions.
fn resource_views(m: &Machine, transitions: usize) -> String {
    let mut s = String::new();
    let mut legend_shown = false;
    let by_resource = hazard::users(m);
    let used = by_resource.iter().skip(1).filter(|u| !u.is_empty()).count();
    let unit_limit = state_limit(UNIT_TRANSITIONS / used.max(1), transitions, 1 << 16);
    for r in m.resource_ids().skip(1) {
        let res = m.resource(r);
        let offsets = &by_resource[r.index()];
        let users: Vec<ClassId> = offsets.iter().map(|(c, _)| *c).collect();
        if users.is_empty() {
            continue;
        }
        s.push_str(&format!(
            "\nResource {} (capacity {}):\n",
            res.name, res.capacity
        ));
        if res.capacity == 1 {
            s.push_str(&forbidden_matrix(m, offsets, &users));
            s.push_str(&collision_vectors(m, r, &users));
        }
        s.push_str(&unit_automaton(m, r, unit_limit, &mut legend_shown));
    }
    s
}

/// The forbidden-latency matrix of a capacity-1 unit (Definition 23.1.5):
/// F(row, column) for each pair of its users, from their `offsets` on it.
fn forbidden_matrix(m: &Machine, offsets: &[(ClassId, Vec<u32>)], users: &[ClassId]) -> String {
    let mut rows = vec![
        std::iter::once("    ".to_string())
            .chain(users.iter().map(|&c| m.class(c).name.clone()))
            .collect::<Vec<_>>(),
    ];
    for (a, ka) in offsets {
        let mut row = vec![format!("    {}", m.class(*a).name)];
        for (_, kb) in offsets {
            row.push(hazard::set_string(&hazard::forbidden_between(ka, kb)));
        }
        rows.push(row);
    }
    format!(
        "  forbidden latencies F(row, column) (Definition 23.1.5):\n{}",
        columns(&rows)
    )
}

/// The collision vector of each user of unit `r`, with its bit order: the
/// unit's state after one issue (Definition 23.1.5).
fn collision_vectors(m: &Machine, r: ResourceId, users: &[ClassId]) -> String {
    let rows: Vec<Vec<String>> = users
        .iter()
        .map(|&c| {
            let v = hazard::collision_vector(m, r, c);
            let order = hazard::bit_order(v.len());
            vec![format!("    {}", m.class(c).name), v, order]
        })
        .collect();
    format!(
        "  collision vectors: the state of {} after one issue (Definition 23.1.5):\n{}",
        m.resource(r).name,
        columns(&rows)
    )
}

/// The hazard automaton of unit `r` alone (Algorithm 23.1.7), at most
/// `limit` states: its size, and its table when it is small; the first
/// table printed carries the legend, and `legend_shown` records it.
fn unit_automaton(m: &Machine, r: ResourceId, limit: usize, legend_shown: &mut bool) -> String {
    match Automaton::build_limited(m, &[r], limit) {
        Ok(a) => {
            let mut s = format!("  hazard automaton: {} reachable states\n", a.len());
            if a.len() <= LIST_STATES {
                s.push_str(&automaton_table(m, &a, !*legend_shown));
                *legend_shown = true;
            }
            s
        }
        Err(e) => format!("  hazard automaton: {e}\n"),
    }
}

/// The size of the automaton over every resource, `issue` included
/// (Algorithm 23.1.7), within the whole-machine budget of transitions.
fn whole_machine_automaton(m: &Machine, transitions: usize) -> String {
    let all: Vec<_> = m.resource_ids().collect();
    match Automaton::build_limited(
        m,
        &all,
        state_limit(WHOLE_TRANSITIONS, transitions, 1 << 20),
    ) {
        Ok(a) => format!(
            "\nWhole-machine automaton (every resource, issue included): {} reachable states\n",
            a.len()
        ),
        Err(e) => format!("\nWhole-machine automaton: {e}\n"),
    }
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
    fn state_limits_are_powers_of_two_within_the_budget() {
        assert_eq!(state_limit(1 << 22, 6, 1 << 16), 1 << 16);
        assert_eq!(state_limit(1 << 20, 17, 1 << 20), 1 << 15);
        assert_eq!(state_limit(100, 1000, 1 << 16), 1);
        let wide = course_engine::engine::hazard::pathological_machine(64);
        assert!(model_text(&wide).contains("hazard automaton: the automaton would have more than"));
    }

    #[test]
    fn a_class_writing_several_registers_shows_their_latencies() {
        let m = Machine::from_yaml(
            "issue_width: 2\nresources:\n  - { name: ls, capacity: 1 }\nclasses:\n  - { name: STRpost, latency: 2, write_latencies: [1], stores: true, opcodes: [str], uses: [[ls, 1]], forms: [\"r = m, r, i\"] }\n",
            "m.yaml",
        )
        .unwrap();
        let t = model_text(&m);
        assert!(
            t.contains("STRpost: latency 2, 1 uop, its registers ready after 1 cycles, stores, opcodes str\n"),
            "{t}"
        );
    }

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
