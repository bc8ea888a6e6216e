//! The dependence graph in Graphviz DOT (`--format dot` of `course schedule`
//! and `course analyze`), drawn from the serializable operations and edges.

use std::fmt;

use course_engine::model::machine::Machine;
use course_engine::model::program::{EdgeKind, Program};

/// Solid intra-iteration register edges, dotted memory edges, dotted anti
/// edges with an open arrowhead, dashed loop-carried edges labelled `ℓ/d`.
pub fn dot(p: &Program, m: &Machine) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_dot(&mut s, p, m);
    s
}

/// [`dot`] written to `w`, one node or edge at a time.
pub fn write_dot<W: fmt::Write + ?Sized>(w: &mut W, p: &Program, m: &Machine) -> fmt::Result {
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    writeln!(
        w,
        "digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];",
        esc(p.name())
    )?;
    for o in p.ops() {
        writeln!(
            w,
            "  \"{}\" [label=\"{}: {}\\n{}\"];",
            esc(&o.label),
            esc(&o.label),
            esc(&o.text()),
            esc(&m.class(o.class).name)
        )?;
    }
    for e in p.edges() {
        let style = match (&e.kind, e.distance) {
            (_, d) if d > 0 => format!("style=dashed, label=\"{}/{}\"", e.latency, d),
            (EdgeKind::Mem, _) => format!("style=dotted, label=\"{}\"", e.latency),
            (EdgeKind::Anti, _) => format!(
                "style=dotted, arrowhead=empty, label=\"anti {}\"",
                e.latency
            ),
            _ => format!("label=\"{}\"", e.latency),
        };
        writeln!(
            w,
            "  \"{}\" -> \"{}\" [{style}];",
            esc(p.label(e.from)),
            esc(p.label(e.to))
        )?;
    }
    w.write_str("}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_engine::model::machine::Machine;
    use course_engine::model::program::parse;

    #[test]
    fn loop_carried_edges_are_dashed() {
        let m = Machine::toy();
        let p = parse(
            "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n",
            "l",
            &m,
        )
        .unwrap();
        let d = dot(&p, &m);
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
