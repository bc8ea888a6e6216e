//! `course analyze`: the text and DOT views of an [`AnalyzeOutput`].

use std::fmt;

use crate::api::analyze::AnalyzeOutput;
use crate::view::report;

/// Dependences, heights and bounds as text.
pub fn text(a: &AnalyzeOutput) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_text(&mut s, a);
    s
}

/// [`text`] written to `w` as it is produced.
pub fn write_text<W: fmt::Write + ?Sized>(w: &mut W, a: &AnalyzeOutput) -> fmt::Result {
    let p = &a.program;
    writeln!(
        w,
        "{} {} on machine {} ({} operations)\n",
        p.kind().as_str(),
        p.name(),
        a.model.name(),
        p.len()
    )?;
    w.write_str("Dependences:\n")?;
    report::write_edges(w, p)?;
    w.write_str("\nHeights (over distance-0 edges):\n")?;
    report::write_heights(w, p, a.heights.values())?;
    w.write_char('\n')?;
    w.write_str(&report::bounds_text(p, a.model, &a.bounds))
}

/// The dependence graph in DOT.
pub fn dot(a: &AnalyzeOutput) -> String {
    crate::view::dot::dot(&a.program, a.model)
}

/// [`dot`] written to `w`.
pub fn write_dot<W: fmt::Write + ?Sized>(w: &mut W, a: &AnalyzeOutput) -> fmt::Result {
    crate::view::dot::write_dot(w, &a.program, a.model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_engine::model::machine::Machine;

    #[test]
    fn a_loop_shows_its_recurrence_bound() {
        let m = Machine::toy();
        let a = crate::api::analyze::run(
            "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n",
            "l.txt",
            &m,
        )
        .unwrap();
        let t = text(&a);
        assert!(t.contains("RecMII = 4\n"), "{t}");
    }
}
