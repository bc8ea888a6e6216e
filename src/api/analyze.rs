//! `course analyze`: dependences, heights, usage, ResMII, RecMII, MII,
//! RThroughput and the Theorem 23.1.12 bound of an input.

use std::sync::Arc;

use serde::Serialize;

use course_content::json::{EdgesJson, LabelMap, MachineJson, OpsJson};
use course_engine::engine::list;
use course_engine::engine::mii::{self, Bounds, BoundsInfo, RecurrenceInfo, UsageInfo};
use course_engine::formats::diagnostic::Diagnostics;
use course_engine::model::machine::Machine;
use course_engine::model::program::{self, Kind, Program};

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

/// Parses the lab-format `text` (named `origin` in diagnostics) and
/// analyzes it on `m`.
pub fn run<'m>(text: &str, origin: &str, m: &'m Machine) -> Result<AnalyzeOutput<'m>, Diagnostics> {
    Ok(of_program(program::parse(text, origin, m)?, m))
}

/// The analysis of a parsed input.
pub fn of_program(p: Program, m: &Machine) -> AnalyzeOutput<'_> {
    let h = list::heights(&p, m);
    let bounds = mii::analyze(&p, m);
    let BoundsInfo {
        bound,
        critical_recurrence,
        mii,
        rec_mii,
        res_mii,
        rthroughput,
        usage,
    } = bounds.info(&p, m);
    let p = Arc::new(p);
    AnalyzeOutput {
        bound,
        critical_recurrence,
        edges: EdgesJson::new(p.clone()),
        heights: LabelMap::new(p.clone(), h),
        kind: p.kind(),
        machine: MachineJson(m),
        mii,
        name: p.name().to_string(),
        ops: OpsJson::new(p.clone(), m),
        rec_mii,
        res_mii,
        rthroughput,
        usage,
        program: p,
        model: m,
        bounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_reports_its_recurrence_and_bounds() {
        let m = Machine::toy();
        let a = run(
            "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n",
            "l.txt",
            &m,
        )
        .unwrap();
        assert_eq!((a.res_mii, a.rec_mii, a.mii), (1, 4, 4));
        let rec = a.critical_recurrence.as_ref().unwrap();
        assert_eq!(
            (rec.ops.clone(), rec.latency, rec.distance),
            (vec!["a".to_string(), "b".into()], 4, 1)
        );
        assert_eq!(a.heights.get("a"), Some(&4));
        let j = serde_json::to_string(&a).unwrap();
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(j, v.to_string(), "keys print sorted");
    }
}
