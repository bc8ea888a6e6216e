//! `course schedule`: the reference schedule of an input
//! ([`course_engine::engine::reference::reference`]: list scheduling for a block,
//! with the shortest schedule an exact search finds beside it; iterative
//! modulo scheduling for a loop).

use std::sync::Arc;

use serde::Serialize;

use course_content::drill::list_schedule::OptimumFacts;
use course_content::json::{EdgesJson, LabelMap, MachineJson, OpsJson};
use course_engine::engine::modulo::IiFacts;
use course_engine::engine::reference;
use course_engine::formats::diagnostic::Diagnostics;
use course_engine::model::ids::Cycle;
use course_engine::model::machine::Machine;
use course_engine::model::program::{self, Kind, Program};

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
    /// For a block, the shortest schedule the exact search found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimum: Option<OptimumJson>,
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

/// A block's shortest schedule ([`course_engine::engine::optimum`]) beside its list
/// schedule: its facts, and its cycles. Fields in alphabetical order.
#[derive(Clone, Debug, Serialize)]
pub struct OptimumJson {
    /// `length`, `lower` and `proven`.
    #[serde(flatten)]
    pub facts: OptimumFacts,
    /// Label → issue cycle of the shortest schedule found (the list
    /// schedule's when none is shorter).
    pub schedule: LabelMap<Cycle>,
}

/// Parses the lab-format `text` (named `origin` in diagnostics) and
/// schedules it on `m`.
pub fn run<'m>(
    text: &str,
    origin: &str,
    m: &'m Machine,
) -> Result<ScheduleOutput<'m>, Diagnostics> {
    run_with(
        text,
        origin,
        m,
        course_engine::engine::modulo::exact::DEFAULT_BUDGET,
    )
}

/// [`run`] with `budget` solver conflicts for the exact search.
pub fn run_with<'m>(
    text: &str,
    origin: &str,
    m: &'m Machine,
    budget: u64,
) -> Result<ScheduleOutput<'m>, Diagnostics> {
    Ok(of_program_with(program::parse(text, origin, m)?, m, budget))
}

/// The reference schedule of a parsed input.
pub fn of_program(p: Program, m: &Machine) -> ScheduleOutput<'_> {
    of_program_with(p, m, course_engine::engine::modulo::exact::DEFAULT_BUDGET)
}

/// [`of_program`] with `budget` solver conflicts for the exact search.
pub fn of_program_with(p: Program, m: &Machine, budget: u64) -> ScheduleOutput<'_> {
    let s = reference::reference_with(&p, m, budget);
    let p = Arc::new(p);
    let optimum = s.optimum.map(|o| OptimumJson {
        facts: OptimumFacts::of(&o),
        schedule: LabelMap::new(p.clone(), o.cycles),
    });
    ScheduleOutput {
        edges: EdgesJson::new(p.clone()),
        ii: s.ii,
        kind: p.kind(),
        length: s.length,
        machine: MachineJson(m),
        name: p.name().to_string(),
        ops: OpsJson::new(p.clone(), m),
        optimum,
        schedule: LabelMap::new(p.clone(), s.cycles),
        program: p,
        model: m,
        ii_facts: s.ii_facts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_gets_a_list_schedule_and_a_loop_an_ii() {
        let m = Machine::toy();
        let b = run(
            "block b\na: r1 = load [x]\nb: r2 = add r1, 1\n",
            "b.txt",
            &m,
        )
        .unwrap();
        assert_eq!((b.length, b.ii), (4, None));
        assert_eq!(b.schedule.get("b"), Some(&3));
        let j = serde_json::to_value(&b).unwrap();
        assert!(j.get("ii").is_none());
        assert_eq!(j["kind"], "block");
        assert_eq!(
            j["optimum"],
            serde_json::json!({"length": 4, "lower": 4, "proven": true, "schedule": {"a": 0, "b": 3}})
        );
        let l = run(
            "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n",
            "l.txt",
            &m,
        )
        .unwrap();
        assert_eq!(l.ii, Some(4));
        assert!(serde_json::to_value(&l).unwrap().get("optimum").is_none());
        let e = run("block b\na: r1 = frob 1\n", "b.txt", &m).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("b.txt:2:9: unknown opcode 'frob'"),
            "{e}"
        );
    }
}
