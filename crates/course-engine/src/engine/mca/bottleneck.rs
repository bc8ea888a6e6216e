//! Which bound of Theorem 23.1.12 a simulation sits on: a simulated loop
//! runs at no fewer than `max(RThroughput, ℓ(Z)/d(Z))` cycles per
//! iteration, RThroughput the busiest resource's `U_r / cap(r)`
//! (Definition 23.1.10; the issue pseudo-resource counts micro-ops over the
//! dispatch width) and `ℓ(Z)/d(Z)` the critical recurrence under the
//! latencies the simulation uses. This names the larger one, the
//! operations behind it, how far above it the simulation ends, and what
//! would lift it.

use crate::engine::mii::{self, Recurrence};
use crate::model::ids::{OpId, ResourceId};
use crate::model::machine::Machine;
use crate::model::program::Program;
use crate::util::ratio::Ratio;

use super::Report;

/// Within this share above a bound, the simulation is said to sit on it.
pub const CLOSE: f64 = 0.05;

/// The bound that binds.
#[derive(Clone, Debug, PartialEq)]
pub enum Binding {
    /// The busiest resource: `usage` cycles per iteration of `capacity`
    /// units.
    Resource {
        /// The resource (the issue pseudo-resource for a dispatch bound).
        resource: ResourceId,
        /// `U_r`: its cycles per iteration.
        usage: u64,
        /// Its units.
        capacity: u32,
        /// The operations that book it, with their cycles per iteration.
        users: Vec<(OpId, u64)>,
    },
    /// The critical recurrence.
    Recurrence(Recurrence),
}

/// The bottleneck of a simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Bottleneck {
    /// Simulated cycles per iteration: Total Cycles over iterations.
    pub per_iteration: f64,
    /// Cycles per iteration once the pipeline is full: the extra cycles of
    /// a second run of twice as many iterations, per extra iteration.
    pub steady: f64,
    /// RThroughput and the resource that attains it.
    pub resource_bound: Ratio,
    /// `ℓ(Z)/d(Z)` of the critical recurrence, 0 without one.
    pub recurrence_bound: Ratio,
    /// The larger of the two (the resource on a tie).
    pub binding: Binding,
    /// `steady / bound − 1`: how far above the bound the run settles.
    pub above: f64,
}

impl Bottleneck {
    /// The binding bound's value.
    pub fn bound(&self) -> Ratio {
        self.resource_bound.max(self.recurrence_bound)
    }

    /// Whether the simulation sits within [`CLOSE`] of the bound.
    pub fn sits_on_it(&self) -> bool {
        self.above <= CLOSE
    }
}

/// The bottleneck of `r`, a simulation of `p` on `m`; the steady state
/// is measured by simulating `k` and `2k` iterations (`k` at least 100).
pub fn bottleneck(p: &Program, m: &Machine, r: &Report) -> Bottleneck {
    let k = r.iterations.clamp(100, 10_000);
    let run = |n: u64| {
        super::simulate(
            p,
            m,
            &super::Options {
                iterations: n,
                timeline_iterations: 0,
            },
        )
        .map(|x| x.total_cycles)
    };
    let steady = match (run(k), run(2 * k)) {
        (Ok(a), Ok(b)) if b >= a => (b - a) as f64 / k as f64,
        _ => r.total_cycles as f64 / r.iterations.max(1) as f64,
    };
    let bounds = mii::analyze(p, m);
    let rec = super::recurrence(p, m);
    let rec_bound = rec.as_ref().map_or(Ratio::int(0), Recurrence::ratio);
    let per_iteration = r.total_cycles as f64 / r.iterations.max(1) as f64;
    let res = bounds.res_bottleneck;
    let binding = match rec {
        Some(z) if rec_bound > bounds.rthroughput => Binding::Recurrence(z),
        _ => {
            let users = p
                .ops()
                .iter()
                .enumerate()
                .filter_map(|(i, op)| {
                    let c: u64 = if res == ResourceId(0) {
                        u64::from(m.class(op.class).uops)
                    } else {
                        m.expanded_uses(op.class)
                            .iter()
                            .filter(|(x, _)| *x == res)
                            .map(|&(_, n)| u64::from(n))
                            .sum()
                    };
                    (c > 0).then_some((OpId::from_index(i), c))
                })
                .collect();
            Binding::Resource {
                resource: res,
                usage: bounds.usage[res.index()],
                capacity: m.resource(res).capacity,
                users,
            }
        }
    };
    let bound = bounds.rthroughput.max(rec_bound).to_f64();
    Bottleneck {
        per_iteration,
        steady,
        resource_bound: bounds.rthroughput,
        recurrence_bound: rec_bound,
        binding,
        above: if bound > 0.0 {
            steady / bound - 1.0
        } else {
            0.0
        },
    }
}
