//! Algorithm 23.1.11 for an out-of-order machine, cycle for cycle as
//! llvm-mca's default pipeline runs it (dispatch, execute, retire stages).
//!
//! Each cycle, in llvm-mca's order:
//!
//! 1. **Retire** in order every instance executed in an earlier cycle, at
//!    most `retire_width` of them (0: no limit), freeing reorder-buffer
//!    entries and load/store queue entries.
//! 2. **Issue**: instances whose operands became ready join the ready set;
//!    then, repeatedly, the best ready instance whose resources are free is
//!    issued. "Best" is llvm-mca's default: the smallest stream index minus
//!    the number of register reads already waiting on it, then the oldest.
//!    Issuing books its resources (a group picks a member round-robin, see
//!    [`super::ports`]) and frees its scheduler-queue entries. A consumer
//!    whose edge has latency 0 (after ReadAdvance, Proposition 23.1.9)
//!    becomes ready at once and may issue in the same cycle. Nothing but
//!    the units limits issue: the width `W` is a dispatch limit.
//! 3. **Dispatch** up to `W` micro-ops from the stream, in order, while the
//!    reorder buffer, the scheduler queues (`buffer_size`) and the load and
//!    store queues have room. An instance with more micro-ops than `W`
//!    dispatches alone and its extra micro-ops use the next cycles' width.
//!    A register read whose producer has not issued yet waits on it; one
//!    whose producer has issued becomes ready `max(0, L_w − a)` cycles after
//!    that issue; one whose producer has already executed is ready.
//!
//! Memory: the program's memory edges into loads are honoured with their
//! latencies (`course mca` first gives the program llvm-mca's: none under
//! its default `-noalias`, the youngest older store under `-noalias=false`;
//! [`super::llvm_memory`]), and, as in llvm-mca's load/store unit, a store
//! never issues before an older load or store has issued.
//!
//! Timing: an instance dispatched in cycle `D` issues at `I ≥ D + 1`
//! (`I = D` for a zero-latency instance that books nothing), its result is
//! visible at `X = I + lat`, it retires at `R ≥ X + 1`.
//!
//! Shortcuts ([`super::Shortcuts`]), neither of which changes a report:
//! after a cycle that dispatched nothing at full width, the run goes
//! straight to the next cycle in which anything can happen (an operand
//! becomes ready, the oldest instance can retire, a busy unit frees while
//! instances wait for it); and [`super::steady`] skips whole periods once
//! the state repeats.

use super::ports::{Booking, Ports, bookings};
use super::steady::{Periodic, Steady};
use super::{
    MAX_RING, McaError, NOT_ISSUED, Options, Report, Shortcuts, Timeline, check_counts,
    executed_before,
};
use crate::model::ids::{ClassId, Cycle, OpId};
use crate::model::machine::Machine;
use crate::model::program::{EdgeKind, Kind, Program};

/// A value an operation waits for: a register read or a memory edge.
#[derive(Clone, Copy, Debug)]
pub(super) struct Read {
    from: usize,
    distance: u64,
    latency: Cycle,
    /// A register read (counted among the producer's users) rather than a
    /// memory ordering edge.
    user: bool,
}

pub(super) struct BodyOp {
    uops: u32,
    /// Reorder-buffer entries: micro-ops, at least 1, at most the buffer.
    entries: u64,
    latency: Cycle,
    reads: Vec<Read>,
    bookings: Vec<Booking>,
    class: ClassId,
    buffers: Vec<usize>,
    load: bool,
    store: bool,
    /// Latency 0 and no resources: issued as it dispatches.
    zero: bool,
}

#[derive(Clone, Default)]
pub(super) struct Slot {
    op: u32,
    iter: u64,
    dispatch: Cycle,
    issue: Cycle,
    /// The cycle its operands allow it to issue (known part).
    ready: Cycle,
    /// Producers not yet issued.
    pending: u32,
    /// Register reads of younger dispatched instances waiting on it.
    users: u32,
    /// Register-ready, but an older memory operation has not issued.
    mem_blocked: bool,
    waiters: Vec<(u64, Cycle)>,
}

/// The register reads and memory edges of each operation, with latencies
/// `max(0, L_w − a)` per read operand (Proposition 23.1.9).
fn reads_of(p: &Program, m: &Machine, j: usize) -> Vec<Read> {
    let op = &p.ops()[j];
    let consumer = m.class(op.class);
    let mut out = Vec::new();
    for e in p.in_edges(OpId::from_index(j)) {
        let from = e.from.index();
        let producer = &p.ops()[from];
        let made = m.class(producer.class);
        match e.kind {
            // Into a store: llvm-mca's order (the store waits for older
            // memory operations to issue), kept by the load/store rule.
            EdgeKind::Mem if op.writes_memory() => {}
            // Register renaming removes anti dependences, as in llvm-mca.
            EdgeKind::Anti => {}
            EdgeKind::Mem => out.push(Read {
                from,
                distance: u64::from(e.distance),
                latency: Cycle::from(e.latency),
                user: false,
            }),
            EdgeKind::Reg => {
                for (pos, in_address, u) in op.reg_reads() {
                    // Each register written has its own latency (a load
                    // pair's second, a writeback base).
                    let Some(k) = producer.dest_position(u.name.as_str()) else {
                        continue;
                    };
                    let lat = Cycle::from(made.write_latency(k));
                    let d = match (p.kind(), u.at) {
                        (Kind::Block, _) => 0,
                        (Kind::Loop, Some(k)) => k,
                        (Kind::Loop, None) => u32::from(from >= j),
                    };
                    if d != e.distance {
                        continue;
                    }
                    let a = if in_address {
                        0
                    } else {
                        Cycle::from(consumer.advance(pos, producer.class))
                    };
                    out.push(Read {
                        from,
                        distance: u64::from(d),
                        latency: (lat - a).max(0),
                        user: true,
                    });
                }
            }
        }
    }
    out
}

/// Instances waiting for a known cycle, by cycle: a ring of buckets large
/// enough that no two pending cycles share one (every wait is shorter than
/// the longest latency plus one).
pub(super) struct Calendar {
    buckets: Vec<Vec<u64>>,
    mask: usize,
    len: usize,
}

impl Calendar {
    fn new(span: usize) -> Calendar {
        let n = (span + 2).next_power_of_two();
        Calendar {
            buckets: vec![Vec::new(); n],
            mask: n - 1,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.buckets.iter_mut().for_each(Vec::clear);
        self.len = 0;
    }

    fn push(&mut self, t: Cycle, g: u64) {
        self.buckets[t as usize & self.mask].push(g);
        self.len += 1;
    }

    /// The first cycle after `now` with a waiting instance.
    fn next_after(&self, now: Cycle) -> Option<Cycle> {
        if self.len == 0 {
            return None;
        }
        (1..=self.mask as Cycle + 1)
            .map(|d| now + d)
            .find(|&t| !self.buckets[t as usize & self.mask].is_empty())
    }
}

/// The whole state of an out-of-order run. Fields are the simulator's;
/// [`super::steady`] snapshots and restores them through [`Periodic`].
pub(super) struct Sim<'a> {
    body: &'a [BodyOp],
    /// Body length, simulated instructions, dispatch width.
    pub b: u64,
    pub total: u64,
    width: u64,
    rob: u64,
    lq_cap: u64,
    sq_cap: u64,
    retire_width: u64,
    nres: usize,
    buffer_caps: Vec<u64>,
    slots: Vec<Slot>,
    mask: usize,
    /// The ready instances, by class: a class's members share their
    /// bookings, so one check of the ports clears or blocks them all.
    ready_set: ReadySet,
    calendar: Calendar,
    /// The oldest instance that may be an unissued memory operation.
    mem_ptr: u64,
    /// The oldest in-flight instance and the next one to dispatch.
    pub head: u64,
    pub tail: u64,
    tail_op: usize,
    pub tail_iter: u64,
    rob_used: u64,
    lq: u64,
    sq: u64,
    buffer_used: Vec<u64>,
    /// Micro-ops of a wide instance still to take from later cycles' width.
    carry: u64,
    pub cycle: Cycle,
    pub last_retire: Cycle,
    peak: u64,
    ports: Ports,
    pub booked: Vec<u64>,
    /// The timeline of the first iterations (their number is
    /// `timeline.kept`).
    pub(super) timeline: Timeline,
    /// The cycle a class was last found blocked.
    blocked_at: Vec<Cycle>,
    /// Instances moved over by extrapolation.
    pub extrapolated: u64,
}

impl Sim<'_> {
    #[inline]
    fn slot(&mut self, g: u64) -> &mut Slot {
        &mut self.slots[g as usize & self.mask]
    }

    #[inline]
    pub(super) fn slot_ref(&self, g: u64) -> &Slot {
        &self.slots[g as usize & self.mask]
    }

    /// The oldest memory operation in flight that has not issued.
    fn oldest_unissued_mem(&mut self) -> Option<u64> {
        let mut p = self.mem_ptr.max(self.head);
        while p < self.tail {
            let s = &self.slots[p as usize & self.mask];
            let o = &self.body[s.op as usize];
            if (o.load || o.store) && s.issue == NOT_ISSUED {
                break;
            }
            p += 1;
        }
        self.mem_ptr = p;
        (p < self.tail).then_some(p)
    }

    /// `g` has no producer left to wait for: it joins the ready set if its
    /// operands are ready by `now`, else the calendar.
    fn wake(&mut self, g: u64, now: Cycle) {
        let ready = self.slot(g).ready;
        if ready > now {
            self.calendar.push(ready, g);
            return;
        }
        let op = self.slot(g).op as usize;
        if self.body[op].store && self.oldest_unissued_mem().is_some_and(|o| o < g) {
            self.slot(g).mem_blocked = true;
            return;
        }
        let class = self.body[op].class.index();
        self.ready_set.push(class, g);
    }

    /// One cycle: retire, issue, dispatch, then the next cycle to look at.
    pub(super) fn step(&mut self, skip: bool) {
        self.retire();
        self.issue_stage();
        let full_width = self.carry == 0;
        let dispatched = self.dispatch();
        self.peak = self.peak.max(self.tail - self.head);
        let next = self.cycle + 1;
        self.cycle = if skip && full_width && !dispatched && self.carry == 0 {
            next.max(self.next_event())
        } else {
            next
        };
    }

    /// Stage 1: retire in order what executed in an earlier cycle.
    fn retire(&mut self) {
        let mut retired = 0u64;
        while self.head < self.tail && (self.retire_width == 0 || retired < self.retire_width) {
            let s = &self.slots[self.head as usize & self.mask];
            let o = &self.body[s.op as usize];
            if !executed_before(s.issue, o.latency, self.cycle) {
                break;
            }
            self.rob_used -= o.entries;
            self.lq -= u64::from(o.load);
            self.sq -= u64::from(o.store);
            let times = (s.dispatch, s.issue);
            self.timeline
                .retired(s.iter, s.op, times, o.latency, self.cycle);
            self.last_retire = self.cycle;
            self.head += 1;
            retired += 1;
        }
    }

    /// Stage 2: wake what the calendar holds for this cycle, then issue the best
    /// ready instance whose resources are free until none is left.
    fn issue_stage(&mut self) {
        let cycle = self.cycle;
        self.ports.set_cycle(cycle);
        let slot = cycle as usize & self.calendar.mask;
        if !self.calendar.buckets[slot].is_empty() {
            let mut due = std::mem::take(&mut self.calendar.buckets[slot]);
            self.calendar.len -= due.len();
            for &g in &due {
                self.wake(g, cycle);
            }
            due.clear();
            if self.calendar.buckets[slot].is_empty() {
                self.calendar.buckets[slot] = due;
            }
        }
        while let Some((g, c, i)) = self.best_ready() {
            self.ready_set.remove(c, i);
            let op = self.slot(g).op as usize;
            let o = &self.body[op];
            let (booked, nres) = (&mut self.booked, self.nres);
            self.ports.book(&o.bookings, cycle, |r, n| {
                booked[op * nres + r.index()] += u64::from(n);
            });
            for &k in &o.buffers {
                self.buffer_used[k] -= 1;
            }
            issue(self, g, cycle);
        }
    }

    /// The oldest-first choice of llvm-mca (rank: age ahead of waiting
    /// readers) among the classes whose units are free now, as (instance,
    /// class, place in the class); a class whose units are not is skipped
    /// whole.
    fn best_ready(&mut self) -> Option<(u64, usize, usize)> {
        let cycle = self.cycle;
        let mut best: Option<(i64, u64, usize, usize)> = None;
        for &c in &self.ready_set.classes {
            if self.blocked_at[c] == cycle {
                continue;
            }
            let members = &self.ready_set.by_class[c];
            let first = &self.body[self.slots[members[0] as usize & self.mask].op as usize];
            if !self.ports.available(&first.bookings, cycle) {
                self.blocked_at[c] = cycle;
                continue;
            }
            for (i, &g) in members.iter().enumerate() {
                let s = &self.slots[g as usize & self.mask];
                let rank = g as i64 - i64::from(s.users);
                if best.is_none_or(|(br, bg, _, _)| (rank, g) < (br, bg)) {
                    best = Some((rank, g, c, i));
                }
            }
        }
        best.map(|(_, g, c, i)| (g, c, i))
    }

    /// Stage 3: dispatch up to `W` micro-ops in order while there is room.
    /// Returns whether anything was dispatched.
    fn dispatch(&mut self) -> bool {
        let width = self.width;
        let mut avail = width.saturating_sub(self.carry);
        self.carry = self.carry.saturating_sub(width);
        let tail_before = self.tail;
        while self.tail < self.total && avail > 0 {
            let o = &self.body[self.tail_op];
            let uops = u64::from(o.uops);
            if uops.min(width) > avail
                || self.rob_used + o.entries > self.rob
                || (o.load && self.lq_cap > 0 && self.lq >= self.lq_cap)
                || (o.store && self.sq_cap > 0 && self.sq >= self.sq_cap)
                || o.buffers
                    .iter()
                    .any(|&k| self.buffer_used[k] >= self.buffer_caps[k])
            {
                break;
            }
            if uops > width {
                self.carry = uops - width;
                avail = 0;
            } else {
                avail -= uops;
            }
            self.dispatch_one();
        }
        self.tail != tail_before
    }

    /// Puts the next instance of the stream into the reorder buffer.
    fn dispatch_one(&mut self) {
        let body = self.body;
        let o = &body[self.tail_op];
        let cycle = self.cycle;
        self.rob_used += o.entries;
        self.lq += u64::from(o.load);
        self.sq += u64::from(o.store);
        for &k in &o.buffers {
            self.buffer_used[k] += 1;
        }
        let g = self.tail;
        let (mut ready, mut pending) = (cycle, 0u32);
        for r in &o.reads {
            if r.distance > self.tail_iter {
                continue; // before the first iteration: a live-in value
            }
            let pg = g - self.tail_op as u64 - r.distance * self.b + r.from as u64;
            if pg < self.head {
                continue; // retired, so executed
            }
            let plat = body[r.from].latency;
            let ps = self.slot(pg);
            if ps.issue == NOT_ISSUED {
                ps.waiters.push((g, r.latency));
                ps.users += u32::from(r.user);
                pending += 1;
            } else if ps.issue + plat > cycle || !r.user {
                // Issued, not yet executed (an executed register value
                // is simply there).
                ready = ready.max(ps.issue + r.latency);
            }
        }
        let immediate = o.zero && !o.store && pending == 0 && ready <= cycle;
        let (op, iter) = (self.tail_op as u32, self.tail_iter);
        let s = self.slot(g);
        s.op = op;
        s.iter = iter;
        s.dispatch = cycle;
        s.issue = NOT_ISSUED;
        s.ready = ready.max(cycle + 1);
        s.pending = pending;
        s.users = 0;
        s.mem_blocked = false;
        self.tail += 1;
        if immediate {
            // Nothing to book, nothing to wait for: it issues (and
            // executes) as it dispatches.
            for &k in &o.buffers {
                self.buffer_used[k] -= 1;
            }
            issue(self, g, cycle);
        } else if pending == 0 {
            self.calendar.push(ready.max(cycle + 1), g);
        }
        self.tail_op += 1;
        if self.tail_op as u64 == self.b {
            self.tail_op = 0;
            self.tail_iter += 1;
        }
    }

    /// The first later cycle in which anything can change when this one
    /// dispatched nothing at full width: an operand becomes ready, the
    /// oldest instance may retire, or (with instances ready but blocked)
    /// a unit frees. Dispatch waits on reorder-buffer and queue room,
    /// which only retiring and issuing give back.
    fn next_event(&self) -> Cycle {
        let mut wake = self.calendar.next_after(self.cycle).unwrap_or(Cycle::MAX);
        if self.head < self.tail {
            let s = self.slot_ref(self.head);
            if s.issue != NOT_ISSUED {
                wake = wake.min(s.issue + self.body[s.op as usize].latency + 1);
            }
        }
        if !self.ready_set.is_empty() {
            wake = wake.min(self.ports.next_free(self.cycle));
        }
        if wake == Cycle::MAX {
            self.cycle + 1
        } else {
            wake
        }
    }
}

/// Snapshots for [`super::steady`]: the state at the top of a cycle,
/// before anything retires, relative to a cycle `c` and an instance
/// `base` (the first of an iteration, so that an instance's operation
/// follows from its offset). Left out is what only the views read (the
/// timeline, an in-flight instance's dispatch cycle, the peak), what
/// follows from the rest (the calendar holds the unissued instances with
/// no producer left whose operands are ready at `c` or later, the ready
/// set those ready earlier, unless a store is held behind older memory
/// operations), and the caches that are refilled on demand.
impl Periodic for Sim<'_> {
    fn max_distance(&self) -> u64 {
        self.body
            .iter()
            .flat_map(|o| o.reads.iter().map(|r| r.distance))
            .max()
            .unwrap_or(0)
    }

    #[inline]
    fn cycle(&self) -> Cycle {
        self.cycle
    }

    #[inline]
    fn b(&self) -> u64 {
        self.b
    }

    #[inline]
    fn total(&self) -> u64 {
        self.total
    }

    #[inline]
    fn head(&self) -> u64 {
        self.head
    }

    #[inline]
    fn tail(&self) -> u64 {
        self.tail
    }

    #[inline]
    fn tail_iter(&self) -> u64 {
        self.tail_iter
    }

    #[inline]
    fn kept(&self) -> u64 {
        self.timeline.kept
    }

    #[inline]
    fn booked(&self) -> &[u64] {
        &self.booked
    }

    #[inline]
    fn booked_mut(&mut self) -> &mut [u64] {
        &mut self.booked
    }

    fn encode(&self, c: Cycle, base: u64, out: &mut Vec<i64>) {
        let rel = |g: u64| g as i64 - base as i64;
        out.clear();
        out.extend([rel(self.tail), rel(self.head)]);
        out.extend([self.rob_used, self.lq, self.sq, self.carry].map(|x| x as i64));
        out.extend(self.buffer_used.iter().map(|&x| x as i64));
        for g in self.head..self.tail {
            let s = self.slot_ref(g);
            if s.issue != NOT_ISSUED {
                out.extend([-1, s.issue - c]);
                continue;
            }
            out.extend([
                s.waiters.len() as i64,
                s.ready - c,
                i64::from(s.pending),
                i64::from(s.users),
                i64::from(s.mem_blocked),
            ]);
            for &(w, lat) in &s.waiters {
                out.extend([rel(w), lat]);
            }
        }
        self.ports.encode(c, out);
    }

    fn restore(&mut self, data: &[i64], c: Cycle, base: u64) {
        let abs = |x: i64| (base as i64 + x) as u64;
        self.tail = abs(data[0]);
        self.head = abs(data[1]);
        (self.tail_op, self.tail_iter) = ((self.tail % self.b) as usize, self.tail / self.b);
        [self.rob_used, self.lq, self.sq, self.carry] = [2, 3, 4, 5].map(|i| data[i] as u64);
        let mut i = 6;
        for x in &mut self.buffer_used {
            *x = data[i] as u64;
            i += 1;
        }
        for s in &mut self.slots {
            s.waiters.clear();
            s.issue = NOT_ISSUED;
        }
        self.calendar.clear();
        self.ready_set.clear();
        for g in self.head..self.tail {
            i += self.restore_slot(g, &data[i..], c, base);
        }
        self.ports.restore(c, &data[i..]);
        self.mem_ptr = self.head;
        self.blocked_at.fill(-1);
        self.cycle = c;
    }

    #[inline]
    fn moved_on(&mut self, cycles: Cycle, instances: u64) {
        self.last_retire += cycles;
        self.extrapolated += instances;
    }
}

impl Sim<'_> {
    /// Restores instance `g` from the front of `data`; returns the words
    /// read.
    fn restore_slot(&mut self, g: u64, data: &[i64], c: Cycle, base: u64) -> usize {
        let b = self.b;
        let s = self.slot(g);
        (s.op, s.iter, s.dispatch) = ((g % b) as u32, g / b, c);
        if data[0] == -1 {
            s.issue = c + data[1];
            return 2;
        }
        let n = data[0] as usize;
        s.ready = c + data[1];
        s.pending = data[2] as u32;
        s.users = data[3] as u32;
        s.mem_blocked = data[4] != 0;
        s.waiters.extend(
            data[5..5 + 2 * n]
                .chunks_exact(2)
                .map(|w| ((base as i64 + w[0]) as u64, w[1])),
        );
        if s.pending == 0 && !s.mem_blocked {
            let (ready, op) = (s.ready, s.op as usize);
            if ready >= c {
                self.calendar.push(ready, g);
            } else {
                let class = self.body[op].class.index();
                self.ready_set.push(class, g);
            }
        }
        5 + 2 * n
    }
}

/// Ready instances grouped by class, with their number.
#[derive(Default)]
pub(super) struct ReadySet {
    by_class: Vec<Vec<u64>>,
    /// Classes with a member, in no order.
    classes: Vec<usize>,
    len: usize,
}

impl ReadySet {
    fn push(&mut self, class: usize, g: u64) {
        if class >= self.by_class.len() {
            self.by_class.resize_with(class + 1, Vec::new);
        }
        if self.by_class[class].is_empty() {
            self.classes.push(class);
        }
        self.by_class[class].push(g);
        self.len += 1;
    }

    fn remove(&mut self, class: usize, i: usize) {
        self.by_class[class].swap_remove(i);
        self.len -= 1;
        if self.by_class[class].is_empty() {
            self.classes.retain(|&c| c != class);
        }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn clear(&mut self) {
        self.by_class.iter_mut().for_each(Vec::clear);
        self.classes.clear();
        self.len = 0;
    }
}

/// The operations of the body as the simulator sees them, and the
/// capacities of the scheduler queues (resources with a buffer size).
fn body_ops(p: &Program, m: &Machine, rob: u64) -> (Vec<BodyOp>, Vec<u64>) {
    let buffered: Vec<usize> = m
        .resource_ids()
        .filter(|&r| m.resource(r).buffer_size.is_some())
        .map(|r| r.index())
        .collect();
    let body = p
        .ops()
        .iter()
        .enumerate()
        .map(|(j, op)| {
            let c = m.class(op.class);
            let list = bookings(m, op.class);
            let buffers = m
                .expanded_uses(op.class)
                .iter()
                .filter_map(|(r, _)| buffered.iter().position(|&x| x == r.index()))
                .collect();
            BodyOp {
                uops: c.uops,
                entries: u64::from(c.uops).clamp(1, rob),
                latency: Cycle::from(c.latency),
                reads: reads_of(p, m, j),
                zero: c.latency == 0 && list.is_empty(),
                bookings: list,
                class: op.class,
                buffers,
                load: op.reads_memory(),
                store: op.writes_memory(),
            }
        })
        .collect();
    let caps = buffered
        .iter()
        .map(|&r| u64::from(m.resources()[r].buffer_size.unwrap_or(u32::MAX)))
        .collect();
    (body, caps)
}

/// The out-of-order run (see the module comment), with the shortcuts
/// asked for.
pub(super) fn simulate(
    p: &Program,
    m: &Machine,
    opts: &Options,
    shortcuts: Shortcuts,
) -> Result<Report, McaError> {
    let total = check_counts(p, opts)?;
    let rob = u64::from(m.reorder_buffer_size().max(1));
    // Every in-flight instance holds a reorder-buffer entry; producers older
    // than the oldest in-flight instance have retired, hence executed.
    let need = rob.saturating_add(1);
    if need > MAX_RING {
        return Err(McaError::TooWide(need));
    }
    let (body, buffer_caps) = body_ops(p, m, rob);
    let mut sim = new_sim(p, m, opts, &body, buffer_caps, total, need);
    let mut steady = shortcuts.extrapolate.then(|| Steady::new(&sim));
    while sim.head < total {
        if let Some(st) = steady.as_mut()
            && st.at_cycle_top(&mut sim)
        {
            steady = None;
        }
        sim.step(shortcuts.skip);
    }
    let (block_rthroughput, bound) = super::bounds(p, m);
    Ok(Report {
        iterations: opts.iterations,
        instructions: total,
        total_cycles: (sim.last_retire + 1) as u64,
        total_uops: opts.iterations * body.iter().map(|o| u64::from(o.uops)).sum::<u64>(),
        dispatch_width: m.issue_width(),
        block_rthroughput,
        bound,
        timeline: sim.timeline.stamps,
        peak_in_flight: sim.peak,
        booked: sim.booked,
        extrapolated_iterations: sim.extrapolated / sim.b,
    })
}

/// A run at cycle 0 with nothing dispatched.
fn new_sim<'a>(
    p: &Program,
    m: &Machine,
    opts: &Options,
    body: &'a [BodyOp],
    buffer_caps: Vec<u64>,
    total: u64,
    need: u64,
) -> Sim<'a> {
    let ring = (need as usize).next_power_of_two();
    let b = p.len() as u64;
    let rec = opts.timeline_iterations.min(opts.iterations);
    let span = body.iter().map(|o| o.latency.max(0) as usize).max();
    Sim {
        body,
        b,
        total,
        width: u64::from(m.issue_width()),
        rob: need - 1,
        lq_cap: u64::from(m.load_queue_size()),
        sq_cap: u64::from(m.store_queue_size()),
        retire_width: u64::from(m.retire_width()),
        nres: m.resources().len(),
        buffer_used: vec![0; buffer_caps.len()],
        buffer_caps,
        slots: vec![
            Slot {
                issue: NOT_ISSUED,
                ..Slot::default()
            };
            ring
        ],
        mask: ring - 1,
        ready_set: ReadySet::default(),
        calendar: Calendar::new(span.unwrap_or(0)),
        mem_ptr: 0,
        head: 0,
        tail: 0,
        tail_op: 0,
        tail_iter: 0,
        rob_used: 0,
        lq: 0,
        sq: 0,
        carry: 0,
        cycle: 0,
        last_retire: 0,
        peak: 0,
        ports: Ports::new(m),
        booked: vec![0; p.len() * m.resources().len()],
        timeline: Timeline::new(rec, b),
        blocked_at: vec![-1; m.classes().len()],
        extrapolated: 0,
    }
}

/// Issues `g` at `now`: its consumers learn when its result is visible, and
/// a store waiting only for older memory operations may follow at once.
fn issue(sim: &mut Sim<'_>, g: u64, now: Cycle) {
    sim.slot(g).issue = now;
    let mut waiters = std::mem::take(&mut sim.slot(g).waiters);
    for &(w, lat) in &waiters {
        let s = sim.slot(w);
        s.ready = s.ready.max(now + lat);
        s.pending -= 1;
        if s.pending == 0 {
            sim.wake(w, now);
        }
    }
    waiters.clear();
    sim.slot(g).waiters = waiters;
    let op = sim.slot(g).op as usize;
    if (sim.body[op].load || sim.body[op].store)
        && let Some(first) = sim.oldest_unissued_mem()
    {
        let s = sim.slot(first);
        if s.mem_blocked && s.pending == 0 && s.ready <= now {
            s.mem_blocked = false;
            let class = sim.body[s.op as usize].class.index();
            sim.ready_set.push(class, first);
        }
    }
}
