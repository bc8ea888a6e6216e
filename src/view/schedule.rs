//! `course schedule`: the reference schedule of an input as a typed result
//! (its JSON form) and its text view, with the reservation table.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::engine::check;
use crate::engine::modulo::IiFacts;
use crate::model::ids::Cycle;
use crate::model::json::{EdgesJson, LabelMap, MachineJson, OpsJson};
use crate::model::machine::Machine;
use crate::model::program::{Kind, Program};
use crate::view::report;

/// The reference schedule of an input (product.md §6). Fields are declared
/// in alphabetical order, the order JSON objects print their keys in; the
/// operations, edges, machine and schedule are written straight from the
/// program and machine when serialised.
#[derive(Clone, Debug, Serialize)]
pub struct ScheduleOutput<'m> {
    pub edges: EdgesJson,
    /// The initiation interval, for a loop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ii: Option<u64>,
    pub kind: Kind,
    /// The schedule length (for a loop, the span of one iteration).
    pub length: Cycle,
    pub machine: MachineJson<&'m Machine>,
    pub name: String,
    pub ops: OpsJson<&'m Machine>,
    /// Label → issue cycle (the cycles in source order: `schedule.values()`).
    pub schedule: LabelMap<Cycle>,
    /// The input, for the text views.
    #[serde(skip)]
    pub program: Arc<Program>,
    /// The machine, for the reservation table.
    #[serde(skip)]
    pub model: &'m Machine,
    /// For a loop, what is known about the II (for the text view).
    #[serde(skip)]
    pub ii_facts: Option<IiFacts>,
}

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
