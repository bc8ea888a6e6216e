//! The dependence graph in Graphviz DOT (`--format dot` of `course schedule`
//! and `course analyze`), drawn from the serializable operations and edges.

use crate::model::program::{EdgeInfo, EdgeKind, OpInfo};

/// Solid intra-iteration register edges, dotted memory edges, dotted anti
/// edges with an open arrowhead, dashed loop-carried edges labelled `ℓ/d`.
pub fn dot(name: &str, ops: &[OpInfo], edges: &[EdgeInfo]) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut s = format!(
        "digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
        esc(name)
    );
    for o in ops {
        s.push_str(&format!(
            "  \"{}\" [label=\"{}: {}\\n{}\"];\n",
            esc(&o.label),
            esc(&o.label),
            esc(&o.text),
            esc(&o.class)
        ));
    }
    for e in edges {
        let style = match (&e.kind, e.distance) {
            (_, d) if d > 0 => format!("style=dashed, label=\"{}/{}\"", e.latency, d),
            (EdgeKind::Mem, _) => format!("style=dotted, label=\"{}\"", e.latency),
            (EdgeKind::Anti, _) => format!(
                "style=dotted, arrowhead=empty, label=\"anti {}\"",
                e.latency
            ),
            _ => format!("label=\"{}\"", e.latency),
        };
        s.push_str(&format!(
            "  \"{}\" -> \"{}\" [{style}];\n",
            esc(&e.from),
            esc(&e.to)
        ));
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::machine::Machine;
    use crate::model::program::parse;

    #[test]
    fn loop_carried_edges_are_dashed() {
        let m = Machine::toy();
        let p = parse(
            "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n",
            "l",
            &m,
        )
        .unwrap();
        let d = dot(p.name(), &p.op_infos(&m), &p.edge_infos());
        assert!(d.starts_with("digraph \"l\" {\n"));
        assert!(
            d.contains("  \"a\" [label=\"a: r1 = load [x + r2]\\nload\"];\n"),
            "{d}"
        );
        assert!(d.contains("  \"a\" -> \"b\" [label=\"3\"];\n"), "{d}");
        assert!(
            d.contains("  \"b\" -> \"a\" [style=dashed, label=\"1/1\"];\n"),
            "{d}"
        );
    }
}
