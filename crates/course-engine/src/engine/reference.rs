//! The reference schedule of an input: top-down list scheduling for a
//! block, with the shortest schedule an exact search finds beside it
//! ([`crate::engine::optimum`]); iterative modulo scheduling for a loop,
//! then an exact search for the minimum II (product.md §5). This is the
//! one place that choice is made; `course schedule`, the lab grader and the
//! drills all ask here.
//!
//! ```
//! use course_engine::{engine::reference, model::machine::Machine, model::program};
//! let m = Machine::toy();
//! let p = program::parse("loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n", "l.txt", &m).unwrap();
//! let s = reference::reference(&p, &m);
//! assert_eq!(s.ii, Some(4));
//! ```

use crate::engine::list;
use crate::engine::modulo::{self, IiFacts};
use crate::engine::optimum::{self, Optimum};
use crate::model::ids::Cycle;
use crate::model::machine::Machine;
use crate::model::program::{Kind, Program};

/// A reference schedule: an issue cycle per operation, its length, and the
/// II for a loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The issue cycle of each operation, in source order.
    pub cycles: Vec<Cycle>,
    /// `max(t_i + max(lat_i, 1))`: for a loop, the span of one iteration.
    pub length: Cycle,
    /// The initiation interval, for a loop.
    pub ii: Option<u64>,
    /// Heights over distance-0 edges, for a block (the list scheduler's
    /// priority); empty for a loop.
    pub heights: Vec<u64>,
    /// For a block, the cycle each operation became ready; empty for a loop.
    pub ready: Vec<Cycle>,
    /// For a loop, MII, the heuristic's II and whether II is proven minimal.
    pub ii_facts: Option<IiFacts>,
    /// For a block, the shortest schedule the exact search found (the list
    /// schedule itself when none is shorter) and its proven lower bound.
    pub optimum: Option<Optimum>,
}

/// The reference schedule of `p` on `m`, a loop's exact search with its
/// default budget ([`crate::engine::modulo::exact::DEFAULT_BUDGET`]).
pub fn reference(p: &Program, m: &Machine) -> Schedule {
    reference_with(p, m, crate::engine::modulo::exact::DEFAULT_BUDGET)
}

/// [`reference()`] with `budget` solver conflicts for the exact search
/// (`course schedule --search-budget`).
pub fn reference_with(p: &Program, m: &Machine, budget: u64) -> Schedule {
    match p.kind() {
        Kind::Block => {
            let s = list::list_schedule(p, m);
            let best = optimum::optimum(p, m, &s.cycles, budget);
            Schedule {
                cycles: s.cycles,
                length: s.length,
                ii: None,
                heights: s.heights,
                ready: s.ready,
                ii_facts: None,
                optimum: Some(best),
            }
        }
        Kind::Loop => {
            let s = modulo::modulo_schedule_with(p, m, budget);
            let length = list::schedule_length(p, m, &s.cycles);
            Schedule {
                ii_facts: Some(s.facts()),
                cycles: s.cycles,
                length,
                ii: Some(s.ii),
                heights: Vec::new(),
                ready: Vec::new(),
                optimum: None,
            }
        }
    }
}
