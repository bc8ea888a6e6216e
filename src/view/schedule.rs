//! `course schedule`: the text and DOT views of a [`ScheduleOutput`], with
//! the reservation table; for a block, what is known about its optimum, and
//! the shortest schedule found when it beats the list schedule.

use std::fmt;

use crate::api::schedule::ScheduleOutput;
use crate::view::report;
use course_engine::engine::check;

/// The schedule in the submission format, then its reservation table; for a
/// block whose list schedule is not the shortest found, that schedule and
/// its table after them.
pub fn text(s: &ScheduleOutput) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_text(&mut out, s);
    out
}

/// [`text`] written to `w` as it is produced.
pub fn write_text<W: fmt::Write + ?Sized>(w: &mut W, s: &ScheduleOutput) -> fmt::Result {
    let p = &s.program;
    let cycles = s.schedule.values();
    writeln!(
        w,
        "{} {} on machine {}\n",
        p.kind().as_str(),
        p.name(),
        s.model.name()
    )?;
    match s.ii {
        None => {
            let head = "List schedule (top-down, priority = height, ties by source order), length";
            match &s.optimum {
                // The optimum on a line of its own.
                Some(o) => {
                    let sep = report::optimum_separator(s.length, o.facts.length, o.facts.lower);
                    writeln!(w, "{head} {}{sep}", s.length)?;
                    let clause =
                        report::optimum_clause(s.length, o.facts.length, o.facts.lower, p.len());
                    write!(
                        w,
                        "{}",
                        course_content::text::wrap(&format!("{clause}:\n"), 80)
                    )?
                }
                None => writeln!(w, "{head} {}:", s.length)?,
            }
        }
        Some(ii) => {
            let claim = s
                .ii_facts
                .as_ref()
                .map(|f| report::ii_claim(ii, f, p.len()))
                .unwrap_or_else(|| format!("iterative modulo scheduling reaches II = {ii}"));
            writeln!(
                w,
                "Modulo schedule: II = {ii}, one iteration spans {} cycles.",
                s.length
            )?;
            write!(
                w,
                "{}",
                course_content::text::wrap(&format!("{}:\n", report::capitalized(&claim)), 80)
            )?
        }
    }
    check::write_submission(w, p, cycles, s.ii)?;
    writeln!(
        w,
        "\n{}:",
        if s.ii.is_some() {
            "Modulo reservation table (rows = cycle mod II)"
        } else {
            "Reservation table"
        }
    )?;
    report::write_reservation_table(w, p, s.model, cycles, s.ii)?;
    match &s.optimum {
        Some(o) if o.facts.length < s.length => {
            let what = if o.facts.proven {
                "Optimal schedule (exact search)"
            } else {
                "Shortest schedule found (exact search, not proven optimal)"
            };
            writeln!(w, "\n{what}, length {}:", o.facts.length)?;
            check::write_submission(w, p, o.schedule.values(), None)?;
            writeln!(w, "\nIts reservation table:")?;
            report::write_reservation_table(w, p, s.model, o.schedule.values(), None)
        }
        _ => Ok(()),
    }
}

/// The dependence graph in DOT.
pub fn dot(s: &ScheduleOutput) -> String {
    crate::view::dot::dot(&s.program, s.model)
}

/// [`dot`] written to `w`.
pub fn write_dot<W: fmt::Write + ?Sized>(w: &mut W, s: &ScheduleOutput) -> fmt::Result {
    crate::view::dot::write_dot(w, &s.program, s.model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_engine::model::machine::Machine;

    #[test]
    fn a_loop_shows_its_ii() {
        let m = Machine::toy();
        let l = crate::api::schedule::run(
            "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n",
            "l.txt",
            &m,
        )
        .unwrap();
        assert!(text(&l).contains("II = 4"));
    }

    #[test]
    fn a_block_shows_its_optimum_and_a_shorter_schedule() {
        let m = Machine::toy();
        let b = crate::api::schedule::run("block b\na: r1 = load [x]\n", "b.txt", &m).unwrap();
        let t = text(&b);
        assert!(t.contains("length 3,\nthe optimum (proven):\na 0\n"), "{t}");
        assert!(!t.contains("Optimal schedule"), "{t}");
        // `course gen block --ops 12 --seed 2`: the list schedule takes 13
        // cycles, the optimum 12.
        let b = crate::api::schedule::run(
            "block epilogue\na: r1 = load [z]\nb: store [r1], r1\nc: r2 = cmp r1, r1\n\
             d: store [y], r1\ne: r3 = load [w]\nf: r4 = load [u]\ng: r5 = mul r4, 5\n\
             h: r6 = and r2, r4\ni: r7 = load [z + r6]\nj: r8 = or r7, r3\n\
             k: r9 = load [z]\nl: r10 = sub r9, r5\n",
            "b.txt",
            &m,
        )
        .unwrap();
        let t = text(&b);
        assert!(
            t.contains("order), length 13;\noptimum 12, proven:\na 0\n"),
            "{t}"
        );
        assert!(
            t.contains("\nOptimal schedule (exact search), length 12:\n"),
            "{t}"
        );
        assert!(t.contains("\nIts reservation table:\n"), "{t}");
        assert!(t.lines().all(|l| l.chars().count() <= 80), "{t}");
    }
}
