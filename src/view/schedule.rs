//! `course schedule`: the text and DOT views of a [`ScheduleOutput`], with
//! the reservation table.

use std::fmt;

use crate::api::schedule::ScheduleOutput;
use crate::engine::check;
use crate::view::report;

/// The schedule in the submission format, then its reservation table.
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
        None => writeln!(
            w,
            "List schedule (top-down, priority = height, ties by source order), length {}:",
            s.length
        )?,
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
                crate::util::text::wrap(&format!("{}:\n", report::capitalized(&claim)), 80)
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
    report::write_reservation_table(w, p, s.model, cycles, s.ii)
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
    use crate::model::machine::Machine;

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
}
