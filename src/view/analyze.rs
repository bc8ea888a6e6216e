//! `course analyze`: dependences, heights and bounds of an input as a typed
//! result (its JSON form) and its text view.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::mii::{Bounds, RecurrenceInfo, UsageInfo};
use crate::model::machine::{Machine, MachineInfo};
use crate::model::program::{EdgeInfo, Kind, OpInfo, Program};
use crate::view::report;

/// The analysis of an input: the input itself (product.md §6), heights over
/// distance-0 edges, and the bounds of Lesson 23.6 and Theorem 23.1.12.
/// Fields are declared in alphabetical order, the order JSON objects print
/// their keys in.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeOutput<'m> {
    /// The Theorem 23.1.12 bound, as a fraction.
    pub bound: String,
    pub critical_recurrence: Option<RecurrenceInfo>,
    pub edges: Vec<EdgeInfo>,
    /// Label → height.
    pub heights: BTreeMap<String, u64>,
    pub kind: Kind,
    pub machine: MachineInfo,
    pub mii: u64,
    pub name: String,
    pub ops: Vec<OpInfo>,
    pub rec_mii: u64,
    pub res_mii: u64,
    /// Definition 23.1.10, as a fraction.
    pub rthroughput: String,
    pub usage: Vec<UsageInfo>,
    /// The input, for the text view.
    #[serde(skip)]
    pub program: Program,
    #[serde(skip)]
    pub model: &'m Machine,
    /// The bounds with ids and exact fractions, for the text view.
    #[serde(skip)]
    pub bounds: Bounds,
}

/// Dependences, heights and bounds as text.
pub fn text(a: &AnalyzeOutput) -> String {
    let p = &a.program;
    let mut s = format!(
        "{} {} on machine {} ({} operations)\n\n",
        p.kind().as_str(),
        p.name(),
        a.model.name(),
        p.len()
    );
    s.push_str("Dependences:\n");
    s.push_str(&report::edges_text(p));
    s.push_str("\nHeights (over distance-0 edges):\n");
    let h: Vec<u64> = p
        .op_ids()
        .map(|x| a.heights.get(p.label(x)).copied().unwrap_or(0))
        .collect();
    s.push_str(&report::heights_text(p, &h));
    s.push('\n');
    s.push_str(&report::bounds_text(p, a.model, &a.bounds));
    s
}

/// The dependence graph in DOT.
pub fn dot(a: &AnalyzeOutput) -> String {
    crate::view::dot::dot(&a.name, &a.ops, &a.edges)
}
