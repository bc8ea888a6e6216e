//! Iterative modulo scheduling (Rau) of loop bodies, the reference schedule
//! for loops (product.md §5, Lesson 23.6).
//!
//! For II = MII, MII + 1, …: operations are taken in order of decreasing
//! height `h(x) = max(lat(x), max_{x→y} ℓ − d·II + h(y))`, each placed at
//! the first cycle in `[Estart, Estart + II − 1]` where the modulo
//! reservation table ([`GlobalTable::modulo`]: Algorithm 23.1.4 with cycles
//! taken mod II) has room. When none has, the operation is forced in and the
//! operations it collides with — on a resource ([`GlobalTable::conflicts`]),
//! or through a dependence it now breaks — are evicted and rescheduled
//! later. A budget of steps per II bounds the work; when it runs out, II
//! grows.
//!
//! Every result satisfies `t_j + d·II ≥ t_i + ℓ` for every edge and is
//! feasible modulo II: [`crate::engine::check::check_cycles`] accepts it (tested).
//!
//! ```
//! use course::{model::machine::Machine, model::program, engine::modulo};
//! let m = Machine::toy();
//! let src = "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n";
//! let p = program::parse(src, "l.txt", &m).unwrap();
//! let s = modulo::modulo_schedule(&p, &m);
//! assert_eq!(s.ii, 4); // RecMII: a → b → a has ℓ = 4 over d = 1
//! assert!(course::engine::check::check_cycles(&p, &m, &s.cycles, Some(s.ii)).is_empty());
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::engine::mii;
use crate::engine::rtable::GlobalTable;
use crate::engine::sched;
use crate::model::ids::{Cycle, OpId};
use crate::model::machine::Machine;
use crate::model::program::Program;

/// Steps per operation allowed for one II (Rau's BudgetRatio).
pub const BUDGET_RATIO: usize = 6;

/// A modulo schedule: an II and an issue cycle per operation of one
/// iteration (the first operation at cycle 0 or later; the earliest at 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuloSchedule {
    /// The initiation interval II.
    pub ii: u64,
    /// The issue cycle of each operation of one iteration, by [`OpId`] index.
    pub cycles: Vec<Cycle>,
    /// The lower bound the search started from.
    pub mii: u64,
    /// IIs tried before this one succeeded.
    pub attempts: u64,
}

/// Heights for a given II over all edges, weights `ℓ − d·II` (longest paths;
/// II ≥ RecMII means no positive cycle, so the relaxation settles).
fn heights(p: &Program, m: &Machine, ii: u64) -> Vec<i64> {
    let n = p.len();
    let mut h: Vec<i64> = p
        .ops()
        .iter()
        .map(|o| i64::from(m.class(o.class).latency))
        .collect();
    for _round in 0..n.max(1) {
        let mut changed = false;
        for &x in p.topo().iter().rev() {
            let mut best = h[x.index()];
            for e in p.out_edges(x) {
                let w = i64::from(e.latency) - i64::from(e.distance) * ii as i64;
                best = best.max(w + h[e.to.index()]);
            }
            if best != h[x.index()] {
                h[x.index()] = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    h
}

/// One attempt at a given II; `None` when the budget runs out.
fn try_ii(p: &Program, m: &Machine, ii: u64, budget: usize) -> Option<Vec<Cycle>> {
    let n = p.len();
    let h = heights(p, m, ii);
    let mut t: Vec<Option<Cycle>> = vec![None; n];
    let mut last_tried: Vec<Option<Cycle>> = vec![None; n];
    let mut mrt = GlobalTable::modulo(ii);
    let class = |x: usize| p.ops()[x].class;
    let mut queue: BinaryHeap<(i64, Reverse<u32>)> =
        (0..n).map(|x| (h[x], Reverse(x as u32))).collect();
    let iil = ii as i64;
    let rho = m
        .classes()
        .iter()
        .map(|c| c.folded.len())
        .max()
        .unwrap_or(1) as i64;
    let rho2 = rho * rho;
    let mut placed = 0usize;
    let mut steps = 0usize;
    while let Some((_, Reverse(x))) = queue.pop() {
        let x = x as usize;
        if t[x].is_some() {
            continue;
        }
        steps += 1;
        if steps > budget {
            return None;
        }
        // Earliest start from the scheduled predecessors.
        let mut estart: Cycle = 0;
        for e in p.in_edges(OpId::from_index(x)) {
            if let Some(tp) = t[e.from.index()] {
                estart = estart.max(tp + i64::from(e.latency) - i64::from(e.distance) * iil);
            }
        }
        // Rau searches [Estart, Estart + II − 1]. Each placed operation
        // blocks at most ρ² of those start cycles, so a free one, if any,
        // is among the first `placed·ρ² + 1`: a huge II costs no more.
        let span = iil.min(placed as i64 * rho2 + 1);
        let slot = (estart..estart + span).find(|&c| mrt.fits(m, class(x), c));
        let when = match slot {
            Some(c) => c,
            None => match last_tried[x] {
                Some(prev) if prev >= estart => prev + 1,
                _ => estart,
            },
        };
        last_tried[x] = Some(when);
        if slot.is_none() {
            for o in mrt.conflicts(m, class(x), when) {
                let o = o.index();
                if let Some(to) = t[o] {
                    mrt.remove(m, class(o), to, OpId::from_index(o));
                    t[o] = None;
                    placed -= 1;
                    queue.push((h[o], Reverse(o as u32)));
                }
            }
        }
        mrt.place(m, class(x), when, Some(OpId::from_index(x)));
        t[x] = Some(when);
        placed += 1;
        // Successors whose dependence on x is now broken leave.
        for e in p.out_edges(OpId::from_index(x)) {
            let y = e.to.index();
            if y == x {
                continue;
            }
            if let Some(ty) = t[y] {
                if ty + i64::from(e.distance) * iil < when + i64::from(e.latency) {
                    mrt.remove(m, class(y), ty, OpId::from_index(y));
                    t[y] = None;
                    placed -= 1;
                    queue.push((h[y], Reverse(y as u32)));
                }
            }
        }
        // And predecessors scheduled after an eviction round may now clash.
        for e in p.in_edges(OpId::from_index(x)) {
            let q = e.from.index();
            if q == x {
                continue;
            }
            if let Some(tq) = t[q] {
                if when + i64::from(e.distance) * iil < tq + i64::from(e.latency) {
                    mrt.remove(m, class(q), tq, OpId::from_index(q));
                    t[q] = None;
                    placed -= 1;
                    queue.push((h[q], Reverse(q as u32)));
                }
            }
        }
    }
    let mut cycles: Vec<Cycle> = t.into_iter().map(|c| c.unwrap_or(0)).collect();
    let min = cycles.iter().copied().min().unwrap_or(0);
    cycles.iter_mut().for_each(|c| *c -= min);
    Some(cycles)
}

/// The reference modulo schedule of a loop body.
pub fn modulo_schedule(p: &Program, m: &Machine) -> ModuloSchedule {
    let bounds = mii::analyze(p, m);
    let mii = bounds.mii.max(1);
    // An II at which the body, list-scheduled once, never overlaps itself:
    // always feasible, so the search has an end.
    let flat = sched::list_schedule(p, m);
    let max_lat = p
        .ops()
        .iter()
        .map(|o| i64::from(m.class(o.class).latency))
        .max()
        .unwrap_or(1);
    let safe = (flat.length + max_lat + i64::from(m.max_offset()) + 1).max(mii as i64) as u64;
    let budget = BUDGET_RATIO * p.len().max(1);
    let mut ii = mii;
    let mut attempts = 0;
    while ii < safe {
        if let Some(cycles) = try_ii(p, m, ii, budget) {
            return ModuloSchedule {
                ii,
                cycles,
                mii,
                attempts,
            };
        }
        attempts += 1;
        // Grow fast once far above MII, so huge loops stay polynomial.
        ii += 1 + (ii - mii) / 8;
    }
    ModuloSchedule {
        ii: safe,
        cycles: flat.cycles,
        mii,
        attempts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::check::check_cycles;
    use crate::model::program::parse;

    #[test]
    fn resource_and_recurrence_bound_loops_reach_mii() {
        let m = Machine::toy();
        // Five memory operations: ResMII 5.
        let p = parse(
            "loop mem\na: r1 = load [x]\nb: r2 = load [y]\nc: r3 = add r1, r2\nd: store [z], r3\ne: r4 = load [w]\nf: store [v], r4\n",
            "mem.txt",
            &m,
        )
        .unwrap();
        let s = modulo_schedule(&p, &m);
        assert_eq!((s.mii, s.ii), (5, 5));
        assert!(check_cycles(&p, &m, &s.cycles, Some(s.ii)).is_empty());
        // A 3 + 3 recurrence through a mul and a load.
        let p = parse(
            "loop rec\na: r1 = mul r2, 3\nb: r2 = load [x + r1]\n",
            "rec.txt",
            &m,
        )
        .unwrap();
        let s = modulo_schedule(&p, &m);
        assert_eq!(s.ii, 6);
        assert!(check_cycles(&p, &m, &s.cycles, Some(s.ii)).is_empty());
    }

    #[test]
    fn huge_latencies_cost_no_memory_or_time() {
        let m = Machine::from_yaml(
            "issue_width: 2\nresources:\n  - { name: slow, capacity: 1 }\nclasses:\n  - { name: slow, latency: 65536, opcodes: [op], unit: slow, occupancy: 3 }\n",
            "slow.yaml",
        )
        .unwrap();
        let p = parse(
            "loop l\na: r1 = op r3, 1\nb: r2 = op r1, 1\nc: r3 = op r2, r3\n",
            "l.txt",
            &m,
        )
        .unwrap();
        let s = modulo_schedule(&p, &m);
        assert_eq!(s.ii, 3 * 65536);
        assert!(check_cycles(&p, &m, &s.cycles, Some(s.ii)).is_empty());
    }
}
