//! `course analyze`: dependences, heights and bounds of an input as a typed
//! result (its JSON form) and its text view.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::engine::mii::{Bounds, RecurrenceInfo, UsageInfo};
use crate::model::json::{EdgesJson, LabelMap, MachineJson, OpsJson};
use crate::model::machine::Machine;
use crate::model::program::{Kind, Program};
use crate::view::report;

/// The analysis of an input: the input itself (product.md §6), heights over
/// distance-0 edges, and the bounds of Lesson 23.6 and Theorem 23.1.12.
/// Fields are declared in alphabetical order, the order JSON objects print
/// their keys in; the operations, edges, machine and heights are written
/// straight from the program and machine when serialised.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeOutput<'m> {
    /// The Theorem 23.1.12 bound, as a fraction.
    pub bound: String,
    pub critical_recurrence: Option<RecurrenceInfo>,
    pub edges: EdgesJson,
    /// Label → height (in source order: `heights.values()`).
    pub heights: LabelMap<u64>,
    pub kind: Kind,
    pub machine: MachineJson<&'m Machine>,
    pub mii: u64,
    pub name: String,
    pub ops: OpsJson<&'m Machine>,
    pub rec_mii: u64,
    pub res_mii: u64,
    /// Definition 23.1.10, as a fraction.
    pub rthroughput: String,
    pub usage: Vec<UsageInfo>,
    /// The input, for the text view.
    #[serde(skip)]
    pub program: Arc<Program>,
    #[serde(skip)]
    pub model: &'m Machine,
    /// The bounds with ids and exact fractions, for the text view.
    #[serde(skip)]
    pub bounds: Bounds,
}

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
