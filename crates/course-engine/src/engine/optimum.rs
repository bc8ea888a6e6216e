//! The shortest schedule of a block: an exact search beside the list
//! schedule the lesson teaches (Lesson 23.3), so that a reference can say
//! how far the list schedule is from the best possible and a grader can
//! score a schedule against the optimum.
//!
//! Every operation `i` has an earliest cycle `e_i` (the longest path to it
//! from the block's start) and a tail `q_i` (`max(lat_i, 1)`, or the
//! longest path from it to the end of the block: `ℓ + q_j` over its
//! successors). A schedule of length `T` puts `i` in `[e_i, T − q_i]`. The
//! lower bound is the larger of the critical path `max(e_i + q_i)` and, for
//! each resource, its units over its capacity; the list schedule is the
//! first upper bound. The search asks the time-indexed model
//! ([`crate::engine::timesat`]) for a schedule of length `T − 1` below the
//! best length `T` found so far, until the model is refuted (the best is
//! optimal) or `T − 1` is below the lower bound. When the budget runs out
//! first, the lengths from the lower bound up are refuted with what is left,
//! so that the bound reported is as high as the budget proves.
//!
//! ```
//! use course_engine::{engine::{list, optimum}, model::machine::Machine, model::program};
//! let m = Machine::toy();
//! let p = program::parse("block b\na: r1 = load [x]\nb: r2 = mul r1, 2\n", "b", &m).unwrap();
//! let o = optimum::optimum(&p, &m, &list::list_schedule(&p, &m).cycles, optimum::DEFAULT_BUDGET);
//! assert_eq!((o.length, o.lower), (6, 6));
//! ```

use crate::engine::list;
use crate::engine::timesat::{Answer, Model};
use crate::model::ids::{ClassId, Cycle};
use crate::model::machine::Machine;
use crate::model::program::Program;

/// The largest block searched exactly; above it the list schedule stands
/// with the counting lower bound.
pub const MAX_OPS: usize = 200;

/// Solver conflicts allowed for one block over every length it tries (the
/// same budget as a loop's, [`crate::engine::modulo::exact::DEFAULT_BUDGET`]).
pub const DEFAULT_BUDGET: u64 = crate::engine::modulo::exact::DEFAULT_BUDGET;

/// What the search established about a block's shortest schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optimum {
    /// The shortest schedule found: an issue cycle per operation, the
    /// first at 0 (the list schedule when nothing shorter was found).
    pub cycles: Vec<Cycle>,
    /// Its length `max(t_i + max(lat_i, 1))`.
    pub length: Cycle,
    /// A proven lower bound on every schedule's length: the optimum when
    /// it equals [`Optimum::length`].
    pub lower: Cycle,
    /// Conflicts the solver took.
    pub conflicts: u64,
}

impl Optimum {
    /// Whether [`Optimum::length`] is proven to be the shortest.
    pub fn proven(&self) -> bool {
        self.lower >= self.length
    }
}

/// The shortest schedule of block `p` on `m`, starting from the schedule
/// `start` (the list schedule) and taking at most `budget` conflicts.
pub fn optimum(p: &Program, m: &Machine, start: &[Cycle], budget: u64) -> Optimum {
    let n = p.len();
    let class: Vec<ClassId> = p.ops().iter().map(|o| o.class).collect();
    let (early, tail) = bounds(p, m, &class);
    let lower = lower_bound(m, &class, &early, &tail);
    let mut best = Optimum {
        cycles: start.to_vec(),
        length: list::schedule_length(p, m, start),
        lower,
        conflicts: 0,
    };
    if best.proven() || n > MAX_OPS {
        return best;
    }
    let mut left = budget;
    // Downwards from the best length until refuted or out of budget.
    let mut undecided = false;
    while best.length > best.lower {
        match decide(p, m, &class, &early, &tail, best.length - 1, &mut left) {
            Answer::Schedule(t) => {
                best.length = list::schedule_length(p, m, &t);
                best.cycles = t;
            }
            Answer::Impossible => best.lower = best.length,
            Answer::Unknown => {
                undecided = true;
                break;
            }
        }
    }
    // Upwards from the lower bound with what is left.
    while undecided && best.lower < best.length && left > 0 {
        match decide(p, m, &class, &early, &tail, best.lower, &mut left) {
            Answer::Impossible => best.lower += 1,
            Answer::Schedule(t) => {
                best.length = list::schedule_length(p, m, &t);
                best.cycles = t;
            }
            Answer::Unknown => break,
        }
    }
    best.conflicts = budget - left;
    best
}

/// Decides on its own whether block `p` has a schedule of length at most
/// `length`, taking at most `budget` conflicts (the refutation behind a
/// proven optimum can be checked by asking for `length − 1`).
pub fn search(p: &Program, m: &Machine, length: Cycle, budget: u64) -> Answer {
    let class: Vec<ClassId> = p.ops().iter().map(|o| o.class).collect();
    let (early, tail) = bounds(p, m, &class);
    let mut left = budget;
    decide(p, m, &class, &early, &tail, length, &mut left)
}

/// Each operation's earliest cycle and tail (see the module header), over
/// the distance-0 edges.
fn bounds(p: &Program, m: &Machine, class: &[ClassId]) -> (Vec<i64>, Vec<i64>) {
    let n = p.len();
    let mut early = vec![0i64; n];
    let mut tail: Vec<i64> = class
        .iter()
        .map(|&c| i64::from(m.class(c).latency.max(1)))
        .collect();
    let order = p.topo();
    for &x in order.iter() {
        for e in p.out_edges(x).filter(|e| e.distance == 0) {
            let y = e.to.index();
            early[y] = early[y].max(early[x.index()] + i64::from(e.latency));
        }
    }
    for &x in order.iter().rev() {
        for e in p.out_edges(x).filter(|e| e.distance == 0) {
            let t = i64::from(e.latency) + tail[e.to.index()];
            tail[x.index()] = tail[x.index()].max(t);
        }
    }
    (early, tail)
}

/// The counting lower bound: the critical path, and every resource's
/// units over its capacity (the last cell taken, plus what must follow
/// it, is at least that far).
fn lower_bound(m: &Machine, class: &[ClassId], early: &[i64], tail: &[i64]) -> i64 {
    let path = (0..class.len())
        .map(|x| early[x] + tail[x])
        .max()
        .unwrap_or(0);
    let mut units = vec![0u64; m.resources().len()];
    for &c in class {
        for &(r, _, k) in &m.class(c).folded {
            units[r.index()] += u64::from(k);
        }
    }
    let cells = m
        .resource_ids()
        .map(|r| {
            let cap = u64::from(m.resource(r).capacity.max(1));
            units[r.index()].div_ceil(cap) as i64
        })
        .max()
        .unwrap_or(0);
    path.max(cells)
}

/// Whether a schedule of length at most `length` exists, from the model of
/// windows `[e_i, length − q_i]`.
fn decide(
    p: &Program,
    m: &Machine,
    class: &[ClassId],
    early: &[i64],
    tail: &[i64],
    length: i64,
    left: &mut u64,
) -> Answer {
    if *left == 0 {
        return Answer::Unknown;
    }
    let mut model = Model::new(*left);
    for x in 0..p.len() {
        model.time(early[x], length - tail[x]);
    }
    for x in p.op_ids() {
        for e in p.out_edges(x).filter(|e| e.distance == 0) {
            model.after(x.index(), e.to.index(), i64::from(e.latency));
        }
    }
    model.resources(m, class, None);
    let (answer, used) = model.solve();
    *left -= used.min(*left);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::program::parse;

    /// A machine from the user's file whose class holds its unit for
    /// 60,000 cycles, and a block whose shortest length is far away: the
    /// searches answer at once, within bounded memory, and say they did
    /// not decide.
    #[test]
    fn huge_reservations_and_windows_are_not_searched() {
        let yaml = crate::model::machine::TOY_YAML
            .replace("    occupancy: 4\n", "    occupancy: 60000\n")
            .replace("    latency: 6\n", "    latency: 60000\n");
        let m = Machine::from_yaml(&yaml, "slow.yaml").expect("a valid machine");
        let body: String = (0..40)
            .map(|i| {
                format!(
                    "d{i}: r{} = div r{i}, 3\na{i}: r{} = add r{}, 1\n",
                    i + 1,
                    100 + i,
                    200 + i
                )
            })
            .collect();
        let p = parse(&format!("block slow\n{body}"), "slow.txt", &m).expect("a valid block");
        assert_eq!(search(&p, &m, 10_000_000, DEFAULT_BUDGET), Answer::Unknown);
        let list = crate::engine::list::list_schedule(&p, &m);
        let o = optimum(&p, &m, &list.cycles, DEFAULT_BUDGET);
        assert_eq!((o.length, o.conflicts), (list.length, 0));
        assert!(o.lower <= o.length);
    }
}
