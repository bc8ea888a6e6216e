//! `course schedule`: the reference schedule of an input as a typed result
//! (its JSON form) and its text view, with the reservation table.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::check;
use crate::model::ids::Cycle;
use crate::model::machine::{Machine, MachineInfo};
use crate::model::program::{EdgeInfo, Kind, OpInfo, Program};
use crate::view::report;

/// The reference schedule of an input (product.md §6). Fields are declared
/// in alphabetical order, the order JSON objects print their keys in.
#[derive(Clone, Debug, Serialize)]
pub struct ScheduleOutput<'m> {
    pub edges: Vec<EdgeInfo>,
    /// The initiation interval, for a loop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ii: Option<u64>,
    pub kind: Kind,
    /// The schedule length (for a loop, the span of one iteration).
    pub length: Cycle,
    pub machine: MachineInfo,
    pub name: String,
    pub ops: Vec<OpInfo>,
    /// Label → issue cycle.
    pub schedule: BTreeMap<String, Cycle>,
    /// The input, for the text views.
    #[serde(skip)]
    pub program: Program,
    /// The machine, for the reservation table.
    #[serde(skip)]
    pub model: &'m Machine,
    /// The issue cycles in source order.
    #[serde(skip)]
    pub cycles: Vec<Cycle>,
}

/// The schedule in the submission format, then its reservation table.
pub fn text(s: &ScheduleOutput) -> String {
    let p = &s.program;
    let mut out = format!(
        "{} {} on machine {}\n\n",
        p.kind().as_str(),
        p.name(),
        s.model.name()
    );
    match s.ii {
        None => out.push_str(&format!(
            "List schedule (top-down, priority = height, ties by source order), length {}:\n",
            s.length
        )),
        Some(ii) => out.push_str(&format!(
            "Iterative modulo schedule: II = {ii}, one iteration spans {} cycles:\n",
            s.length
        )),
    }
    out.push_str(&check::submission_text(p, &s.cycles, s.ii));
    out.push_str(&format!(
        "\n{}:\n",
        if s.ii.is_some() {
            "Modulo reservation table (rows = cycle mod II)"
        } else {
            "Reservation table"
        }
    ));
    out.push_str(&report::reservation_table(p, s.model, &s.cycles, s.ii));
    out
}

/// The dependence graph in DOT.
pub fn dot(s: &ScheduleOutput) -> String {
    crate::view::dot::dot(&s.name, &s.ops, &s.edges)
}
