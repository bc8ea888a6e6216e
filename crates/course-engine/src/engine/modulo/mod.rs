//! Iterative modulo scheduling (Rau) of loop bodies, the reference schedule
//! for loops (product.md §5, Lesson 23.6).
//!
//! For II = MII, MII + 1, …: operations are taken in order of decreasing
//! height `h(x) = max(lat(x), max_{x→y} ℓ − d·II + h(y))`, each placed at
//! the first cycle in `[Estart, Estart + II − 1]` where the modulo
//! reservation table (Algorithm 23.1.4 with cycles taken mod II) has room.
//! When none has, the operation is forced in and the operations it
//! collides with — on a resource ([`ModuloTable::conflicts`]), or through a
//! dependence it now breaks — are evicted and rescheduled later. A budget
//! of steps per II bounds the work; when it runs out, II grows.
//!
//! The work stays near-linear in the size of the loop:
//!
//! * heights are computed once per II over the strongly connected
//!   components, sinks first: an operation on no recurrence is one pass
//!   over its edges, and only a recurrence is relaxed until it settles;
//! * the slot search never tries the cycles of a run of full rows one by
//!   one: [`ModuloTable::first_fit`] jumps over them with an index of the
//!   full rows per resource;
//! * an eviction touches only the cells of one reservation table and the
//!   edges of the placed operation.
//!
//! Every result satisfies `t_j + d·II ≥ t_i + ℓ` for every edge and is
//! feasible modulo II: [`crate::engine::check::check_cycles`] accepts it (tested).
//!
//! ```
//! use course_engine::{model::machine::Machine, model::program, engine::modulo};
//! let m = Machine::toy();
//! let src = "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n";
//! let p = program::parse(src, "l.txt", &m).unwrap();
//! let s = modulo::modulo_schedule(&p, &m);
//! assert_eq!(s.ii, 4); // RecMII: a → b → a has ℓ = 4 over d = 1
//! assert!(course_engine::engine::check::check_cycles(&p, &m, &s.cycles, Some(s.ii)).is_empty());
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub mod exact;

use crate::engine::list;
use crate::engine::mii;
use crate::engine::rtable::{GlobalTable, ModuloTable};
use crate::model::ids::{ClassId, Cycle, OpId};
use crate::model::machine::Machine;
use crate::model::program::Program;
use exact::Proof;

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
    /// What is known about II being the smallest possible.
    pub minimality: Minimality,
    /// The II iterative modulo scheduling reached on its own (the exact
    /// search may have found a smaller one).
    pub heuristic_ii: u64,
    /// The smallest II not proven infeasible: the minimum is at least this
    /// (II itself when proven minimal, MII when nothing was searched).
    pub lower: u64,
    /// The IIs the exact search proved infeasible, each with its proof.
    pub infeasible: Vec<(u64, Proof)>,
}

impl ModuloSchedule {
    /// The facts a view needs to say how good II is.
    pub fn facts(&self) -> IiFacts {
        IiFacts {
            mii: self.mii,
            heuristic_ii: self.heuristic_ii,
            minimality: self.minimality,
            lower: self.lower,
            infeasible: self.infeasible.clone(),
        }
    }
}

/// What is known about a reference II: the lower bound, what the heuristic
/// reached, and whether II is proven minimal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IiFacts {
    /// MII (Lesson 23.6).
    pub mii: u64,
    /// The II of iterative modulo scheduling alone.
    pub heuristic_ii: u64,
    /// Whether II is known to be the minimum.
    pub minimality: Minimality,
    /// The proven lower bound on II ([`ModuloSchedule::lower`]).
    pub lower: u64,
    /// The IIs proven infeasible, with their proofs.
    pub infeasible: Vec<(u64, Proof)>,
}

impl IiFacts {
    /// Whether II is known to be the minimum.
    pub fn proven(&self) -> bool {
        matches!(self.minimality, Minimality::Mii | Minimality::Proven)
    }
}

/// How far an II is known to be the smallest a modulo schedule can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimality {
    /// II = MII: no modulo schedule does better (Lesson 23.6).
    Mii,
    /// The exact search ([`crate::engine::modulo::exact`]) showed every II from
    /// MII to II − 1 infeasible.
    Proven,
    /// Iterative modulo scheduling's answer, not searched further: the
    /// loop is larger than the exact search covers.
    Heuristic,
    /// Not proven minimal: the exact search ran out of its budget (or reached
    /// [`exact::MAX_II`]) at [`ModuloSchedule::lower`], every II below
    /// that being infeasible.
    Bounded,
}

/// The graph facts every II attempt shares: strongly connected components
/// (sinks first) with their members in descending source order, and
/// whether each component holds a cycle.
struct Components {
    comp: Vec<u32>,
    /// Members of component `c`: `members[start[c] .. start[c + 1]]`.
    start: Vec<u32>,
    members: Vec<u32>,
    cyclic: Vec<bool>,
}

impl Components {
    fn new(p: &Program) -> Components {
        let (comp, ncomp) = mii::sccs(p);
        let ncomp = ncomp as usize;
        let mut start = vec![0u32; ncomp + 1];
        for &c in &comp {
            start[c as usize + 1] += 1;
        }
        for c in 0..ncomp {
            start[c + 1] += start[c];
        }
        let mut next = start[..ncomp].to_vec();
        let mut members = vec![0u32; comp.len()];
        for x in (0..comp.len()).rev() {
            let c = comp[x] as usize;
            members[next[c] as usize] = x as u32;
            next[c] += 1;
        }
        let mut cyclic = vec![false; ncomp];
        for e in p.edges() {
            let (a, b) = (comp[e.from.index()], comp[e.to.index()]);
            if a == b && e.from != e.to {
                cyclic[a as usize] = true;
            }
        }
        Components {
            comp,
            start,
            members,
            cyclic,
        }
    }

    fn members(&self, c: usize) -> &[u32] {
        &self.members[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

/// Heights for a given II over all edges, weights `ℓ − d·II`: longest
/// paths, finite because II ≥ RecMII leaves no positive cycle. Components
/// are taken sinks first, so an edge leaving a component reads a final
/// height; an acyclic component is one node and one pass over its edges,
/// and only a recurrence is relaxed until it settles (a self-loop never
/// raises a height, its weight is at most 0).
fn heights(p: &Program, m: &Machine, ii: u64, g: &Components) -> Vec<i64> {
    let iil = ii as i64;
    let w = |e: &crate::model::program::Edge| i64::from(e.latency) - i64::from(e.distance) * iil;
    let mut h: Vec<i64> = p
        .ops()
        .iter()
        .map(|o| i64::from(m.class(o.class).latency))
        .collect();
    let relax = |h: &[i64], x: usize| -> i64 {
        p.out_edges(OpId::from_index(x))
            .filter(|e| e.to.index() != x)
            .fold(h[x], |best, e| best.max(w(e) + h[e.to.index()]))
    };
    let mut queue: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
    let mut queued = vec![false; p.len()];
    for c in 0..g.cyclic.len() {
        let members = g.members(c);
        for &x in members {
            h[x as usize] = relax(&h, x as usize);
        }
        if !g.cyclic[c] {
            continue;
        }
        // A recurrence: relax the members whose successors inside the
        // component rose, until nothing changes.
        for &x in members {
            queue.push_back(x);
            queued[x as usize] = true;
        }
        while let Some(x) = queue.pop_front() {
            let x = x as usize;
            queued[x] = false;
            let best = relax(&h, x);
            if best == h[x] {
                continue;
            }
            h[x] = best;
            for e in p.in_edges(OpId::from_index(x)) {
                let q = e.from.index();
                if g.comp[q] == c as u32 && !queued[q] {
                    queued[q] = true;
                    queue.push_back(q as u32);
                }
            }
        }
    }
    h
}

/// The modulo reservation table of one attempt: dense rows with an index of
/// the full ones ([`ModuloTable`]), or, when II is so large that rows would
/// cost more than the loop, the sparse [`GlobalTable::modulo`].
enum Mrt {
    Dense(ModuloTable),
    Sparse(GlobalTable),
}

impl Mrt {
    fn new(p: &Program, m: &Machine, ii: u64) -> Mrt {
        let cells = ii.saturating_mul(m.resources().len() as u64);
        if cells <= ModuloTable::DENSE_CELLS.max(16 * p.len() as u64) {
            Mrt::Dense(ModuloTable::new(m, ii))
        } else {
            Mrt::Sparse(GlobalTable::modulo(ii))
        }
    }

    /// The first cycle of `estart … estart + II − 1` where the class fits.
    /// The sparse table tries the first `span` cycles only: each placed
    /// operation blocks at most ρ² start cycles, so a free one, if any, is
    /// among the first `placed·ρ² + 1` and a huge II costs no more.
    fn first_fit(&self, m: &Machine, class: ClassId, estart: Cycle, span: i64) -> Option<Cycle> {
        match self {
            Mrt::Dense(t) => t.first_fit(m, class, estart),
            Mrt::Sparse(t) => (estart..estart + span).find(|&c| t.fits(m, class, c)),
        }
    }

    fn place(&mut self, m: &Machine, class: ClassId, c: Cycle, op: OpId) {
        match self {
            Mrt::Dense(t) => t.place(m, class, c, Some(op)),
            Mrt::Sparse(t) => t.place(m, class, c, Some(op)),
        }
    }

    fn remove(&mut self, m: &Machine, class: ClassId, c: Cycle, op: OpId) {
        match self {
            Mrt::Dense(t) => t.remove(m, class, c, op),
            Mrt::Sparse(t) => t.remove(m, class, c, op),
        }
    }

    fn conflicts(&self, m: &Machine, class: ClassId, c: Cycle) -> Vec<OpId> {
        match self {
            Mrt::Dense(t) => t.conflicts(m, class, c),
            Mrt::Sparse(t) => t.conflicts(m, class, c),
        }
    }
}

/// One attempt at a given II; `None` when the budget runs out.
fn try_ii(p: &Program, m: &Machine, ii: u64, budget: usize, g: &Components) -> Option<Vec<Cycle>> {
    let n = p.len();
    let h = heights(p, m, ii, g);
    let mut t: Vec<Option<Cycle>> = vec![None; n];
    let mut last_tried: Vec<Option<Cycle>> = vec![None; n];
    let mut mrt = Mrt::new(p, m, ii);
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
        // Rau searches [Estart, Estart + II − 1].
        let span = iil.min(placed as i64 * rho2 + 1);
        let slot = mrt.first_fit(m, class(x), estart, span);
        let when = match slot {
            Some(c) => c,
            None => match last_tried[x] {
                Some(prev) if prev >= estart => prev + 1,
                _ => estart,
            },
        };
        last_tried[x] = Some(when);
        // What must leave: the operations holding the resources (when
        // forced in), then the successors and predecessors whose dependence
        // on x the placement breaks.
        let mut out: Vec<usize> = Vec::new();
        if slot.is_none() {
            out.extend(mrt.conflicts(m, class(x), when).iter().map(|o| o.index()));
        }
        for o in out.drain(..) {
            if let Some(to) = t[o] {
                mrt.remove(m, class(o), to, OpId::from_index(o));
                t[o] = None;
                placed -= 1;
                queue.push((h[o], Reverse(o as u32)));
            }
        }
        mrt.place(m, class(x), when, OpId::from_index(x));
        t[x] = Some(when);
        placed += 1;
        for e in p.out_edges(OpId::from_index(x)) {
            let y = e.to.index();
            if y == x {
                continue;
            }
            if let Some(ty) = t[y]
                && ty + i64::from(e.distance) * iil < when + i64::from(e.latency)
            {
                mrt.remove(m, class(y), ty, OpId::from_index(y));
                t[y] = None;
                placed -= 1;
                queue.push((h[y], Reverse(y as u32)));
            }
        }
        // And predecessors scheduled after an eviction round may now clash.
        for e in p.in_edges(OpId::from_index(x)) {
            let q = e.from.index();
            if q == x {
                continue;
            }
            if let Some(tq) = t[q]
                && when + i64::from(e.distance) * iil < tq + i64::from(e.latency)
            {
                mrt.remove(m, class(q), tq, OpId::from_index(q));
                t[q] = None;
                placed -= 1;
                queue.push((h[q], Reverse(q as u32)));
            }
        }
    }
    let mut cycles: Vec<Cycle> = t.into_iter().map(|c| c.unwrap_or(0)).collect();
    let min = cycles.iter().copied().min().unwrap_or(0);
    cycles.iter_mut().for_each(|c| *c -= min);
    Some(cycles)
}

/// The reference modulo schedule of a loop body with the default node
/// budget: [`modulo_schedule_with`] and [`exact::DEFAULT_BUDGET`].
pub fn modulo_schedule(p: &Program, m: &Machine) -> ModuloSchedule {
    modulo_schedule_with(p, m, exact::DEFAULT_BUDGET)
}

/// The reference modulo schedule of a loop body: iterative modulo
/// scheduling ([`iterative`]), then, on a loop of at most
/// [`exact::MAX_OPS`] operations whose II is above MII, the exact search
/// at every smaller II from MII up, sharing `budget` solver conflicts. The II
/// never exceeds the heuristic's, and [`ModuloSchedule::minimality`] says
/// whether it is proven minimal ([`ModuloSchedule::lower`] the bound
/// proven when it is not).
pub fn modulo_schedule_with(p: &Program, m: &Machine, budget: u64) -> ModuloSchedule {
    let heuristic = iterative(p, m);
    if heuristic.minimality == Minimality::Mii || p.len() > exact::MAX_OPS {
        return heuristic;
    }
    // The search decides nothing above its largest II: stop there, and the
    // IIs left untried keep the heuristic's II unproven.
    let top = heuristic.ii.min(exact::MAX_II + 1);
    let found = exact::minimal_ii(p, m, heuristic.mii, top, budget);
    let (ii, cycles) = found
        .found
        .unwrap_or_else(|| (heuristic.ii, heuristic.cycles.clone()));
    let minimality = if ii == heuristic.mii {
        Minimality::Mii
    } else if found.lower == ii {
        Minimality::Proven
    } else {
        Minimality::Bounded
    };
    ModuloSchedule {
        ii,
        cycles,
        minimality,
        lower: found.lower.min(ii),
        infeasible: found.infeasible,
        ..heuristic
    }
}

/// Iterative modulo scheduling alone (Rau), from II = MII up.
pub fn iterative(p: &Program, m: &Machine) -> ModuloSchedule {
    let bounds = mii::analyze(p, m);
    let mii = bounds.mii.max(1);
    // An II at which the body, list-scheduled once, never overlaps itself:
    // always feasible, so the search has an end.
    let flat = list::list_schedule(p, m);
    let max_lat = p
        .ops()
        .iter()
        .map(|o| i64::from(m.class(o.class).latency))
        .max()
        .unwrap_or(1);
    let safe = (flat.length + max_lat + i64::from(m.max_offset()) + 1).max(mii as i64) as u64;
    let budget = BUDGET_RATIO * p.len().max(1);
    let components = Components::new(p);
    let mut ii = mii;
    let mut attempts = 0;
    let minimality = |ii: u64| {
        if ii == mii {
            Minimality::Mii
        } else {
            Minimality::Heuristic
        }
    };
    while ii < safe {
        if let Some(cycles) = try_ii(p, m, ii, budget, &components) {
            return ModuloSchedule {
                ii,
                cycles,
                mii,
                attempts,
                minimality: minimality(ii),
                heuristic_ii: ii,
                lower: mii,
                infeasible: Vec::new(),
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
        minimality: minimality(safe),
        heuristic_ii: safe,
        lower: mii,
        infeasible: Vec::new(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::check::check_cycles;
    use crate::model::program::parse;

    /// Five memory operations and an add: ResMII 5 on the toy machine.
    pub(crate) const MEM_LOOP: &str = "loop mem\na: r1 = load [x]\nb: r2 = load [y]\nc: r3 = add r1, r2\nd: store [z], r3\ne: r4 = load [w]\nf: store [v], r4\n";

    #[test]
    fn resource_and_recurrence_bound_loops_reach_mii() {
        let m = Machine::toy();
        // Five memory operations: ResMII 5.
        let p = parse(MEM_LOOP, "mem.txt", &m).unwrap();
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
