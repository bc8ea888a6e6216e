//! `course mca`: an llvm-mca-style simulation of a block or loop body
//! (Algorithm 23.1.11) with the views asked for.

use std::collections::BTreeMap;

use crate::engine::mca::{self, McaError, Options};
use crate::formats::diagnostic::Diagnostics;
use crate::model::machine::Machine;
use crate::model::program;
use crate::view::mca::{InstructionPressure, InstructionRow, PressureOutput, TimelineRow};

pub use crate::view::mca::{McaOutput, Views};

/// What to simulate and which views to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// How many times the body runs.
    pub iterations: u64,
    /// How many leading iterations the timeline shows, when asked for.
    pub timeline_iterations: u64,
    pub views: Views,
}

/// Why a simulation did not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input does not parse.
    #[error(transparent)]
    Input(#[from] Diagnostics),
    /// The simulation was refused (empty body, too many iterations, …).
    #[error(transparent)]
    Simulation(#[from] McaError),
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Parses the lab-format `text` (named `origin` in diagnostics) and
/// simulates it on `m`.
pub fn run<'m>(
    text: &str,
    origin: &str,
    m: &'m Machine,
    req: &Request,
) -> Result<McaOutput<'m>, Error> {
    let p = program::parse(text, origin, m)?;
    let views = req.views;
    let opts = Options {
        iterations: req.iterations,
        timeline_iterations: if views.timeline {
            req.timeline_iterations
        } else {
            0
        },
    };
    let r = mca::simulate(&p, m, &opts)?;
    let texts: Vec<String> = p.ops().iter().map(|o| o.text()).collect();
    let instruction_info = views.instruction_info.then(|| {
        mca::instruction_info(&p, m)
            .iter()
            .zip(&texts)
            .map(|(i, t)| InstructionRow {
                instruction: t.clone(),
                latency: i.latency,
                may_load: i.may_load,
                may_store: i.may_store,
                rthroughput: i.rthroughput.to_f64(),
                uops: i.uops,
            })
            .collect()
    });
    let pressure = views
        .resource_pressure
        .then(|| mca::resource_pressure(&p, m));
    let resource_pressure = pressure.as_ref().map(|pr| {
        let by_name = |row: &[u64]| -> BTreeMap<String, u64> {
            pr.resources
                .iter()
                .zip(row)
                .map(|(&x, &u)| (m.resource(x).name.clone(), u))
                .collect()
        };
        PressureOutput {
            by_instruction: pr
                .per_instruction
                .iter()
                .zip(&texts)
                .map(|(row, t)| InstructionPressure {
                    instruction: t.clone(),
                    pressure: by_name(row),
                })
                .collect(),
            per_iteration: by_name(&pr.per_iteration),
        }
    });
    let timeline = views.timeline.then(|| {
        r.timeline
            .iter()
            .map(|t| TimelineRow {
                dispatch: t.dispatch,
                executed: t.executed,
                index: t.op,
                issue: t.issue,
                iteration: t.iteration,
                retire: t.retire,
            })
            .collect()
    });
    Ok(McaOutput {
        block_rthroughput: r.block_rthroughput.to_f64(),
        bound: r.bound.fraction_string(),
        dispatch_width: r.dispatch_width,
        instruction_info,
        instructions: r.instructions,
        ipc: round2(r.ipc()),
        iterations: r.iterations,
        resource_pressure,
        timeline,
        total_cycles: r.total_cycles,
        total_uops: r.total_uops,
        uops_per_cycle: round2(r.uops_per_cycle()),
        program: p,
        model: m,
        report: r,
        pressure,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_appear_only_when_asked_for() {
        let m = Machine::toy();
        let body = "block t\na: r1 = load [x]\nb: r2 = add r1, 1\n";
        let mut req = Request {
            iterations: 1,
            timeline_iterations: 10,
            views: Views::default(),
        };
        let out = run(body, "t", &m, &req).unwrap();
        assert_eq!(out.total_cycles, 7);
        let j = serde_json::to_value(&out).unwrap();
        assert!(j.get("timeline").is_none() && j.get("instruction_info").is_none());
        req.views = Views {
            instruction_info: true,
            resource_pressure: true,
            timeline: true,
        };
        let out = run(body, "t", &m, &req).unwrap();
        assert_eq!(out.timeline.as_ref().unwrap()[1].issue, 4);
        assert_eq!(
            out.resource_pressure.as_ref().unwrap().per_iteration["mem"],
            1
        );
        let t = crate::view::mca::text(&out);
        assert!(
            t.contains("Timeline view:") && t.contains("Instruction Info:"),
            "{t}"
        );
        req.iterations = 0;
        assert!(matches!(
            run(body, "t", &m, &req),
            Err(Error::Simulation(_))
        ));
        assert!(matches!(
            run("block t\n", "t", &m, &req),
            Err(Error::Input(_)) | Err(Error::Simulation(_))
        ));
    }
}
