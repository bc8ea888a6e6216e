//! Heights and the top-down cycle-driven list scheduler (Lesson 23.3), as
//! used for reference schedules of blocks (product.md §5).
//!
//! Priority is the height `h(x) = max(lat(x), max_{x→y} ℓ(x,y) + h(y))`
//! over distance-0 edges, ties broken by source order. At each cycle the
//! ready operations are tried in priority order and placed when `Fits`
//! (Algorithm 23.1.4) says yes; an operation whose last predecessor is
//! placed in the current cycle over a latency-0 edge is tried in that same
//! cycle.
//!
//! The implementation keeps one ready queue per class and a pending heap
//! keyed by the cycle an operation becomes ready, and books resources in a
//! [`WindowTable`]. A class that does not fit in a cycle cannot fit later in
//! the same cycle (the table only fills up), so each cycle costs
//! `O(|classes| · (W + |classes|))` plus `O(log n)` per placement: the whole
//! schedule is `O(n log n + n·ρ)`.
//!
//! ```
//! use course_engine::{model::machine::Machine, model::program, engine::list};
//! let m = Machine::toy();
//! let src = "block b\na: r1 = load [x]\nb: r2 = mul r1, 2\n";
//! let p = program::parse(src, "b.txt", &m).unwrap();
//! let s = list::list_schedule(&p, &m);
//! assert_eq!(s.cycles, vec![0, 3]);
//! assert_eq!(s.length, 6);
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::engine::rtable::WindowTable;
use crate::model::ids::{ClassId, Cycle};
use crate::model::machine::Machine;
use crate::model::program::Program;

/// Heights over distance-0 edges (the priority of product.md §5).
pub fn heights(p: &Program, m: &Machine) -> Vec<u64> {
    heights_of(&Succs::new(p), &classes(p), p, m)
}

fn heights_of(succ: &Succs, class: &[u32], p: &Program, m: &Machine) -> Vec<u64> {
    let mut h = vec![0u64; p.len()];
    for &x in p.topo().iter().rev() {
        let x = x.index();
        let mut best = u64::from(m.classes()[class[x] as usize].latency);
        for &(y, lat) in succ.of(x) {
            best = best.max(u64::from(lat) + h[y as usize]);
        }
        h[x] = best;
    }
    h
}

/// Distance-0 successors `(to, latency)` packed contiguously per operation:
/// at 10⁶ operations the scheduler is bound by memory traffic, and the
/// program's own edges (with their kinds) are several times larger.
struct Succs {
    start: Vec<u32>,
    list: Vec<(u32, u32)>,
}

impl Succs {
    fn new(p: &Program) -> Succs {
        let mut start = Vec::with_capacity(p.len() + 1);
        let mut list = Vec::with_capacity(p.edges().len());
        start.push(0);
        for out in p.succs().iter() {
            for &ei in out {
                let e = &p.edges()[ei as usize];
                if e.distance == 0 {
                    list.push((e.to.index() as u32, e.latency));
                }
            }
            start.push(list.len() as u32);
        }
        Succs { start, list }
    }

    #[inline]
    fn of(&self, x: usize) -> &[(u32, u32)] {
        &self.list[self.start[x] as usize..self.start[x + 1] as usize]
    }
}

fn classes(p: &Program) -> Vec<u32> {
    p.ops().iter().map(|o| o.class.index() as u32).collect()
}

/// A schedule of one block: an issue cycle per operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockSchedule {
    /// The issue cycle `t_i` of each operation, by [`OpId`](crate::model::ids::OpId) index.
    pub cycles: Vec<Cycle>,
    /// Cycles until every result is visible: `max(t_i + lat_i)`, at least
    /// the last issue cycle plus one.
    pub length: Cycle,
    /// The height of each operation, the list scheduler's priority (see [`heights`]).
    pub heights: Vec<u64>,
    /// The cycle each operation became ready (all predecessors placed and
    /// their latencies elapsed).
    pub ready: Vec<Cycle>,
}

/// The length of a placement: `max(t_i + max(lat_i, 1))`, 0 when empty.
pub fn schedule_length(p: &Program, m: &Machine, cycles: &[Cycle]) -> Cycle {
    p.op_ids()
        .map(|x| {
            let lat = m.class(p.op(x).class).latency.max(1);
            cycles[x.index()].saturating_add(i64::from(lat))
        })
        .max()
        .unwrap_or(0)
}

/// The ready operations of one class in priority order (height rank
/// descending, then source index ascending), with a bucket per rank: pops
/// touch only the small top bucket, and pushes into the large low-priority
/// buckets are nearly free because indices arrive mostly in increasing
/// order. One big heap over all ready operations would not fit in cache on
/// blocks with hundreds of thousands of ready operations.
#[derive(Clone, Debug, Default)]
struct ReadyQueue {
    buckets: std::collections::BTreeMap<u32, BinaryHeap<Reverse<u32>>>,
}

impl ReadyQueue {
    fn push(&mut self, rank: u32, x: u32) {
        self.buckets.entry(rank).or_default().push(Reverse(x));
    }

    /// The best entry as one comparable key: rank above, complemented index
    /// below.
    fn peek(&self) -> Option<u64> {
        let (&rank, heap) = self.buckets.last_key_value()?;
        let &Reverse(x) = heap.peek()?;
        Some((u64::from(rank) << 32) | u64::from(u32::MAX - x))
    }

    fn pop(&mut self) {
        if let Some(mut top) = self.buckets.last_entry() {
            top.get_mut().pop();
            if top.get().is_empty() {
                top.remove();
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

/// What the scheduler tracks per operation, kept together so that releasing
/// a successor touches one cache line rather than one per array.
#[derive(Clone, Copy)]
struct Node {
    /// The earliest cycle allowed by the predecessors placed so far.
    earliest: Cycle,
    /// Predecessors not yet placed.
    waiting: u32,
    /// Height rank (ranks preserve the order of heights).
    rank: u32,
    class: u32,
}

/// An operation whose predecessors are all placed, waiting for its
/// `earliest` cycle. Only the cycle orders the pending heap: the ready
/// queues order what it releases, so ties need no further key.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Pending {
    at: Cycle,
    x: u32,
    rank: u32,
    class: u32,
}

/// The reference list schedule of a block (loop-carried edges are ignored).
pub fn list_schedule(p: &Program, m: &Machine) -> BlockSchedule {
    let n = p.len();
    let succ = Succs::new(p);
    let class = classes(p);
    let heights = heights_of(&succ, &class, p, m);
    let mut node = initial_nodes(&succ, class, &heights);
    let mut cycles: Vec<Cycle> = vec![-1; n];
    let nclass = m.classes().len();
    let index_of = |k: u64| (u32::MAX - (k & u64::from(u32::MAX)) as u32) as usize;
    let mut ready: Vec<ReadyQueue> = vec![ReadyQueue::default(); nclass];
    let mut pending: BinaryHeap<Reverse<Pending>> = BinaryHeap::new();
    for (x, v) in node.iter().enumerate() {
        if v.waiting == 0 {
            ready[v.class as usize].push(v.rank, x as u32);
        }
    }
    let mut table = WindowTable::new(m);
    let mut failed = vec![false; nclass];
    let mut placed = 0usize;
    let mut cycle: Cycle = 0;
    while placed < n {
        while let Some(&Reverse(e)) = pending.peek() {
            if e.at > cycle {
                break;
            }
            pending.pop();
            ready[e.class as usize].push(e.rank, e.x);
        }
        if ready.iter().all(ReadyQueue::is_empty) {
            match pending.peek() {
                Some(&Reverse(e)) => {
                    cycle = e.at;
                    continue;
                }
                None => break, // unreachable for a valid program
            }
        }
        table.advance_to(cycle);
        failed.iter_mut().for_each(|f| *f = false);
        loop {
            let mut best: Option<(usize, u64)> = None;
            for (c, heap) in ready.iter().enumerate() {
                if failed[c] {
                    continue;
                }
                if let Some(top) = heap.peek()
                    && best.is_none_or(|(_, b)| top > b)
                {
                    best = Some((c, top));
                }
            }
            let Some((c, k)) = best else { break };
            let x = index_of(k);
            let cl = ClassId(c as u16);
            if !table.fits(m, cl, cycle) {
                failed[c] = true;
                continue;
            }
            ready[c].pop();
            table.place(m, cl, cycle);
            cycles[x] = cycle;
            placed += 1;
            release(succ.of(x), cycle, &mut node, &mut ready, &mut pending);
        }
        cycle += 1;
    }
    let length = schedule_length(p, m, &cycles);
    BlockSchedule {
        cycles,
        length,
        heights,
        ready: node.iter().map(|v| v.earliest).collect(),
    }
}

/// Each operation's node before the first cycle: its height rank (ready
/// queues take the greatest height first, then the lowest source index)
/// and the number of predecessors it waits for.
fn initial_nodes(succ: &Succs, class: Vec<u32>, heights: &[u64]) -> Vec<Node> {
    let mut distinct = heights.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut node: Vec<Node> = (0..heights.len())
        .map(|x| Node {
            earliest: 0,
            waiting: 0,
            rank: distinct.partition_point(|&h| h < heights[x]) as u32,
            class: class[x],
        })
        .collect();
    drop(class);
    for &(y, _) in &succ.list {
        node[y as usize].waiting += 1;
    }
    node
}

/// Releases the successors `succs` of an operation placed at `cycle`: one
/// whose predecessors are all placed is ready now, or pending until its
/// earliest cycle.
#[inline]
fn release(
    succs: &[(u32, u32)],
    cycle: Cycle,
    node: &mut [Node],
    ready: &mut [ReadyQueue],
    pending: &mut BinaryHeap<Reverse<Pending>>,
) {
    for &(y, lat) in succs {
        let v = &mut node[y as usize];
        v.earliest = v.earliest.max(cycle + i64::from(lat));
        v.waiting -= 1;
        if v.waiting == 0 {
            if v.earliest <= cycle {
                ready[v.class as usize].push(v.rank, y);
            } else {
                pending.push(Reverse(Pending {
                    at: v.earliest,
                    x: y,
                    rank: v.rank,
                    class: v.class,
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::program::parse;

    const RUNNING: &str = include_str!("../../../../labs/ch23-sched/inputs/running.txt");

    #[test]
    fn running_block_is_the_worked_example() {
        let m = Machine::toy();
        let p = parse(RUNNING, "running.txt", &m).unwrap();
        let s = list_schedule(&p, &m);
        let got: Vec<(&str, Cycle)> = p
            .op_ids()
            .map(|x| (p.label(x), s.cycles[x.index()]))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a", 1),
                ("b", 2),
                ("c", 0),
                ("d", 5),
                ("e", 3),
                ("f", 4),
                ("g", 5),
                ("h", 6),
                ("i", 8),
                ("j", 9)
            ]
        );
        assert_eq!(s.heights, vec![8, 8, 9, 4, 6, 5, 5, 1, 2, 1]);
        assert_eq!(s.length, 10);
    }

    #[test]
    fn div_instead_of_mul_delays_d_to_8() {
        let m = Machine::toy();
        let src = RUNNING.replace("f: r6 = mul r1, r5", "f: r6 = div r1, r5");
        let p = parse(&src, "running-div.txt", &m).unwrap();
        let s = list_schedule(&p, &m);
        let f = p.op_by_label("f").unwrap();
        let d = p.op_by_label("d").unwrap();
        assert_eq!(s.cycles[f.index()], 4);
        assert_eq!(s.cycles[d.index()], 8);
    }
}
