//! The in-order core of Algorithm 23.1.11, for a machine without a
//! micro-op buffer: an instance never issues before an older one, and
//! every class books its whole reservation table, `issue` included
//! (Definition 23.1.1). The run keeps a ring of instances from the oldest
//! not retired to the youngest dispatched, and a sliding [`WindowTable`]
//! of bookings; each step is one cycle (retire, issue, wake the
//! consumers, dispatch) and jumps over the cycles in which nothing can
//! change. Its options, errors, timeline and [`Report`] are the module's.

use super::{
    MAX_RING, McaError, NOT_ISSUED, Options, Report, Timeline, bounds, check_counts,
    executed_before,
};
use crate::engine::rtable::WindowTable;
use crate::model::ids::{ClassId, Cycle};
use crate::model::machine::{ISSUE, Machine};
use crate::model::program::{EdgeKind, Program};

/// Per-op data the inner loop needs, flattened once.
struct BodyOp {
    class: ClassId,
    uops: u32,
    latency: Cycle,
    /// Incoming edges as (producer op, latency, distance).
    preds: Vec<(usize, Cycle, u64)>,
}

/// The state of one instance in the reorder buffer, by ring slot.
#[derive(Clone, Default)]
struct Slot {
    /// Earliest cycle its operands allow it to issue (known part).
    ready: Cycle,
    /// Producers that have not issued yet.
    pending: u32,
    /// Its operation in the body and its iteration.
    op: u32,
    iter: u64,
    dispatch: Cycle,
    /// Issue cycle, or [`NOT_ISSUED`].
    issue: Cycle,
    /// Younger instances waiting for this one to issue, with the latency
    /// of the edge they wait on.
    waiters: Vec<(u64, Cycle)>,
}

/// An in-order core (no micro-op buffer): an instance never issues before
/// an older one, and every class books its whole reservation table,
/// `issue` included (Definition 23.1.1).
pub(super) fn simulate_in_order(
    p: &Program,
    m: &Machine,
    opts: &Options,
) -> Result<Report, McaError> {
    let total = check_counts(p, opts)?;
    let body = in_order_body(p, m);
    let mut run = InOrder::new(p, m, &body, opts, total)?;
    while run.head < total {
        run.step();
    }
    Ok(run.report(p))
}

/// The body's operations with their classes' figures and incoming edges
/// (register renaming removes anti dependences, as in llvm-mca).
fn in_order_body(p: &Program, m: &Machine) -> Vec<BodyOp> {
    p.ops()
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let c = m.class(op.class);
            BodyOp {
                class: op.class,
                uops: c.uops,
                latency: Cycle::from(c.latency),
                preds: p
                    .in_edges(crate::model::ids::OpId(i as u32))
                    .filter(|e| e.kind != EdgeKind::Anti)
                    .map(|e| {
                        (
                            e.from.index(),
                            Cycle::from(e.latency),
                            u64::from(e.distance),
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}

/// An in-order run: the ring of instances from the oldest not retired
/// (`head`) to the youngest dispatched (`tail`), the next to issue in
/// order, and the cycle. [`InOrder::step`] is one cycle: retire, issue,
/// wake the consumers, dispatch, then the next cycle that matters.
struct InOrder<'a> {
    m: &'a Machine,
    body: &'a [BodyOp],
    /// Operations in the body, instances in the stream.
    b: u64,
    total: u64,
    width: u32,
    /// The micro-ops the reorder buffer holds.
    rob_uops: u64,
    mask: usize,
    slots: Vec<Slot>,
    timeline: Timeline,
    table: WindowTable,
    /// The instances issued this cycle.
    issued: Vec<u64>,
    head: u64,
    tail: u64,
    next_in_order: u64,
    /// The operation and iteration of `tail`.
    tail_op: usize,
    tail_iter: u64,
    in_rob_uops: u64,
    peak: u64,
    cycle: Cycle,
    last_retire: Cycle,
    iterations: u64,
}

impl<'a> InOrder<'a> {
    fn new(
        p: &Program,
        m: &'a Machine,
        body: &'a [BodyOp],
        opts: &Options,
        total: u64,
    ) -> Result<InOrder<'a>, McaError> {
        let (b, n) = (p.len() as u64, opts.iterations);
        let width = m.issue_width();
        let max_uops = body.iter().map(|o| o.uops).max().unwrap_or(1);
        // An in-order core still needs somewhere to keep issued instances
        // until they retire: enough room never to throttle a full-width
        // stream.
        let max_lat = body.iter().map(|o| o.latency).max().unwrap_or(0) as u64;
        let rob_uops: u64 =
            (u64::from(width) * (max_lat + u64::from(m.max_offset()) + 2)).max(u64::from(max_uops));
        // The ring must reach from the youngest dispatched instance back to
        // the oldest producer any in-flight instance may read.
        let max_dist = p
            .edges()
            .iter()
            .map(|e| u64::from(e.distance))
            .max()
            .unwrap_or(0);
        let need = rob_uops
            .saturating_add(b.saturating_mul(max_dist + 1))
            .saturating_add(1);
        if need > MAX_RING {
            return Err(McaError::TooWide(need));
        }
        let ring = (need as usize).next_power_of_two();
        let rec = opts.timeline_iterations.min(n);
        Ok(InOrder {
            m,
            body,
            b,
            total,
            width,
            rob_uops,
            mask: ring - 1,
            slots: vec![
                Slot {
                    issue: NOT_ISSUED,
                    ..Slot::default()
                };
                ring
            ],
            timeline: Timeline::new(rec, b),
            table: WindowTable::new(m),
            issued: Vec::new(),
            head: 0,
            tail: 0,
            next_in_order: 0,
            tail_op: 0,
            tail_iter: 0,
            in_rob_uops: 0,
            peak: 0,
            cycle: 0,
            last_retire: 0,
            iterations: n,
        })
    }

    fn step(&mut self) {
        self.table.advance_to(self.cycle);
        self.retire();
        self.issue();
        self.wake();
        let tail_before = self.tail;
        self.dispatch();
        self.peak = self.peak.max(self.tail - self.head);
        self.cycle = self.next_cycle(tail_before);
    }

    /// Retires, in order, every instance executed in an earlier cycle.
    fn retire(&mut self) {
        while self.head < self.tail {
            let s = &self.slots[self.head as usize & self.mask];
            let o = &self.body[s.op as usize];
            if !executed_before(s.issue, o.latency, self.cycle) {
                break;
            }
            self.in_rob_uops -= u64::from(o.uops);
            let times = (s.dispatch, s.issue);
            self.timeline
                .retired(s.iter, s.op, times, o.latency, self.cycle);
            self.last_retire = self.cycle;
            self.head += 1;
        }
    }

    /// Issues in order while the next instance's operands are ready and
    /// its reservation fits (execution needs no step of its own: a
    /// result's visibility follows from its issue cycle and latency).
    fn issue(&mut self) {
        self.issued.clear();
        while self.next_in_order < self.tail {
            let g = self.next_in_order;
            let s = &mut self.slots[g as usize & self.mask];
            let class = self.body[s.op as usize].class;
            if s.pending > 0 || s.ready > self.cycle || !self.table.fits(self.m, class, self.cycle)
            {
                break;
            }
            self.table.place(self.m, class, self.cycle);
            s.issue = self.cycle;
            self.issued.push(g);
            self.next_in_order += 1;
        }
    }

    /// Wakes the consumers of what just issued.
    fn wake(&mut self) {
        for &g in &self.issued {
            let mut waiters = std::mem::take(&mut self.slots[g as usize & self.mask].waiters);
            for &(w, lat) in &waiters {
                let s = &mut self.slots[w as usize & self.mask];
                s.ready = s.ready.max(self.cycle + lat);
                s.pending -= 1;
            }
            waiters.clear();
            self.slots[g as usize & self.mask].waiters = waiters;
        }
    }

    /// Dispatches up to W micro-ops (one wider instance alone), each
    /// instance waiting on its producers that have not issued.
    fn dispatch(&mut self) {
        let mut slots_used = 0u32;
        while self.tail < self.total {
            let o = &self.body[self.tail_op];
            let fits_width = slots_used == 0 || slots_used + o.uops <= self.width;
            if !fits_width || self.in_rob_uops + u64::from(o.uops) > self.rob_uops {
                break;
            }
            let g = self.tail;
            let mut ready = self.cycle + 1;
            let mut pending = 0;
            for &(from, lat, d) in &o.preds {
                if d > self.tail_iter {
                    continue; // before the first iteration: a live-in value
                }
                // Producers are older: `from` of iteration `tail_iter − d`.
                let pg = g - self.tail_op as u64 - d * self.b + from as u64;
                let ps = &mut self.slots[pg as usize & self.mask];
                if ps.issue != NOT_ISSUED {
                    ready = ready.max(ps.issue + lat);
                } else {
                    ps.waiters.push((g, lat));
                    pending += 1;
                }
            }
            let s = &mut self.slots[g as usize & self.mask];
            s.ready = ready;
            s.pending = pending;
            s.dispatch = self.cycle;
            s.issue = NOT_ISSUED;
            s.op = self.tail_op as u32;
            s.iter = self.tail_iter;
            self.in_rob_uops += u64::from(o.uops);
            slots_used += o.uops;
            self.tail += 1;
            self.tail_op += 1;
            if self.tail_op as u64 == self.b {
                self.tail_op = 0;
                self.tail_iter += 1;
            }
        }
    }

    /// The next cycle: when nothing issued or dispatched, the next one in
    /// which something can change (an operand becomes ready or the oldest
    /// instance retires), instead of stepping through idle cycles.
    fn next_cycle(&self, tail_before: u64) -> Cycle {
        let mut next = self.cycle + 1;
        if self.issued.is_empty() && self.tail == tail_before {
            let mut wake = Cycle::MAX;
            if self.next_in_order < self.tail {
                wake = wake.min(self.slots[self.next_in_order as usize & self.mask].ready);
            }
            if self.head < self.tail {
                let s = &self.slots[self.head as usize & self.mask];
                if s.issue != NOT_ISSUED {
                    wake = wake.min(s.issue + self.body[s.op as usize].latency + 1);
                }
            }
            if wake != Cycle::MAX {
                next = next.max(wake);
            }
        }
        next
    }

    /// The report of the finished run.
    fn report(self, p: &Program) -> Report {
        let (m, n, body) = (self.m, self.iterations, self.body);
        let (block_rthroughput, bound) = bounds(p, m);
        let nres = m.resources().len();
        let mut booked = vec![0u64; p.len() * nres];
        for (i, o) in body.iter().enumerate() {
            for r in m.resource_ids().filter(|&r| r != ISSUE) {
                booked[i * nres + r.index()] = n * m.class(o.class).usage(r);
            }
        }
        Report {
            iterations: n,
            instructions: self.total,
            total_cycles: (self.last_retire + 1) as u64,
            total_uops: n * body.iter().map(|o| u64::from(o.uops)).sum::<u64>(),
            dispatch_width: self.width,
            block_rthroughput,
            bound,
            timeline: self.timeline.stamps,
            peak_in_flight: self.peak,
            booked,
            extrapolated_iterations: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::mca::simulate;
    use crate::engine::mca::tests::run;
    use crate::util::ratio::Ratio;

    #[test]
    fn divides_serialise_on_the_multiplier() {
        // toy: div holds mul for 4 cycles, so N divides need 4N cycles.
        let r = run("loop t\na: r1 = div r2, r3\n", &Machine::toy(), 50);
        assert_eq!(r.block_rthroughput, Ratio::int(4));
        assert!(
            r.total_cycles >= 200 && r.total_cycles <= 210,
            "{}",
            r.total_cycles
        );
    }

    #[test]
    fn in_order_never_overtakes() {
        let m = Machine::toy();
        let r = run(
            "block t\na: r1 = load [x]\nb: r2 = add r1, 1\nc: r3 = add r0, 2\n",
            &m,
            2,
        );
        let ts: Vec<Cycle> = r.timeline.iter().map(|s| s.issue).collect();
        assert!(ts.windows(2).all(|w| w[0] <= w[1]), "{ts:?}");
    }

    #[test]
    fn models_that_would_need_huge_rings_are_refused() {
        let m = Machine::from_yaml(
            "issue_width: 4096\nresources:\n  - { name: u, capacity: 1 }\nclasses:\n  - { name: slow, latency: 65536, opcodes: [op], unit: u }\n",
            "wide.yaml",
        )
        .unwrap();
        let p = crate::model::program::parse("loop l\na: r1 = op r1, 1\n", "l.txt", &m).unwrap();
        let r = simulate(
            &p,
            &m,
            &Options {
                iterations: 10,
                timeline_iterations: 0,
            },
        );
        assert!(matches!(r, Err(McaError::TooWide(_))), "{r:?}");
    }
}
