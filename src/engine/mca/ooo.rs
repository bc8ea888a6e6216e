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

use super::ports::{bookings, Booking, Ports};
use super::{check_counts, McaError, Options, Report, Stamp, MAX_RING};
use crate::model::ids::{ClassId, Cycle, OpId};
use crate::model::machine::Machine;
use crate::model::program::{EdgeKind, Kind, Program};

const NOT_ISSUED: Cycle = Cycle::MAX;

/// A value an operation waits for: a register read or a memory edge.
#[derive(Clone, Copy, Debug)]
struct Read {
    from: usize,
    distance: u64,
    latency: Cycle,
    /// A register read (counted among the producer's users) rather than a
    /// memory ordering edge.
    user: bool,
}

struct BodyOp {
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
struct Slot {
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
        let lat = Cycle::from(m.class(producer.class).latency);
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
                let Some(reg) = producer.dest.as_deref() else {
                    continue;
                };
                for (pos, in_address, u) in op.reg_reads() {
                    if u.name != reg {
                        continue;
                    }
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
struct Calendar {
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

struct Sim<'a> {
    body: &'a [BodyOp],
    slots: Vec<Slot>,
    mask: usize,
    /// The ready instances, by class: a class's members share their
    /// bookings, so one check of the ports clears or blocks them all.
    ready_set: ReadySet,
    calendar: Calendar,
    /// The oldest instance that may be an unissued memory operation.
    mem_ptr: u64,
    head: u64,
    tail: u64,
}

impl Sim<'_> {
    #[inline]
    fn slot(&mut self, g: u64) -> &mut Slot {
        &mut self.slots[g as usize & self.mask]
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
}

/// Ready instances grouped by class, with their number.
#[derive(Default)]
struct ReadySet {
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
}

/// The out-of-order run (see the module comment).
pub(super) fn simulate(p: &Program, m: &Machine, opts: &Options) -> Result<Report, McaError> {
    let total = check_counts(p, opts)?;
    let n = opts.iterations;
    let b = p.len() as u64;
    let width = m.issue_width();
    let rob = u64::from(m.reorder_buffer_size().max(1));
    let buffered: Vec<usize> = m
        .resource_ids()
        .filter(|&r| m.resource(r).buffer_size.is_some())
        .map(|r| r.index())
        .collect();
    let body: Vec<BodyOp> = p
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
                load: op.address().is_some() && op.dest.is_some(),
                store: op.writes_memory(),
            }
        })
        .collect();
    let buffer_caps: Vec<u64> = buffered
        .iter()
        .map(|&r| u64::from(m.resources()[r].buffer_size.unwrap_or(u32::MAX)))
        .collect();
    // Every in-flight instance holds a reorder-buffer entry; producers older
    // than the oldest in-flight instance have retired, hence executed.
    let need = rob.saturating_add(1);
    if need > MAX_RING {
        return Err(McaError::TooWide(need));
    }
    let ring = (need as usize).next_power_of_two();
    let rec = opts.timeline_iterations.min(n);
    let mut timeline: Vec<Stamp> = Vec::with_capacity((rec * b) as usize);
    let nres = m.resources().len();
    let mut booked = vec![0u64; p.len() * nres];
    let mut ports = Ports::new(m);
    let mut sim = Sim {
        body: &body,
        slots: vec![
            Slot {
                issue: NOT_ISSUED,
                ..Slot::default()
            };
            ring
        ],
        mask: ring - 1,
        ready_set: ReadySet::default(),
        calendar: Calendar::new(
            body.iter()
                .map(|o| o.latency.max(0) as usize)
                .max()
                .unwrap_or(0),
        ),
        mem_ptr: 0,
        head: 0,
        tail: 0,
    };
    let mut buffer_used = vec![0u64; buffered.len()];
    let (lq_cap, sq_cap) = (
        u64::from(m.load_queue_size()),
        u64::from(m.store_queue_size()),
    );
    let (mut lq, mut sq) = (0u64, 0u64);
    let retire_width = u64::from(m.retire_width());
    let mut blocked_at: Vec<Cycle> = vec![-1; m.classes().len()];
    let mut issued: Vec<u64> = Vec::new();

    let (mut head, mut tail) = (0u64, 0u64);
    let (mut tail_op, mut tail_iter) = (0usize, 0u64);
    let mut rob_used = 0u64;
    let mut carry = 0u64;
    let mut peak = 0u64;
    let mut cycle: Cycle = 0;
    let mut last_retire: Cycle = 0;

    while head < total {
        // 1. Retire.
        let mut retired = 0u64;
        while head < tail && (retire_width == 0 || retired < retire_width) {
            let s = &sim.slots[head as usize & sim.mask];
            let o = &body[s.op as usize];
            if s.issue == NOT_ISSUED || s.issue + o.latency >= cycle {
                break;
            }
            rob_used -= o.entries;
            lq -= u64::from(o.load);
            sq -= u64::from(o.store);
            if s.iter < rec {
                timeline.push(Stamp {
                    iteration: s.iter,
                    op: s.op as usize,
                    dispatch: s.dispatch,
                    issue: s.issue,
                    executed: s.issue + o.latency,
                    retire: cycle,
                });
            }
            last_retire = cycle;
            head += 1;
            retired += 1;
        }

        // 2. Issue.
        sim.head = head;
        ports.set_cycle(cycle);
        let slot = cycle as usize & sim.calendar.mask;
        if !sim.calendar.buckets[slot].is_empty() {
            let mut due = std::mem::take(&mut sim.calendar.buckets[slot]);
            sim.calendar.len -= due.len();
            for &g in &due {
                sim.wake(g, cycle);
            }
            due.clear();
            if sim.calendar.buckets[slot].is_empty() {
                sim.calendar.buckets[slot] = due;
            }
        }
        issued.clear();
        loop {
            // The oldest-first choice of llvm-mca (rank: age ahead of
            // waiting readers) among the classes whose units are free now;
            // a class whose units are not is skipped whole.
            let mut best: Option<(i64, u64, usize, usize)> = None;
            for &c in &sim.ready_set.classes {
                if blocked_at[c] == cycle {
                    continue;
                }
                let members = &sim.ready_set.by_class[c];
                let first = &body[sim.slots[members[0] as usize & sim.mask].op as usize];
                if !ports.available(&first.bookings, cycle) {
                    blocked_at[c] = cycle;
                    continue;
                }
                for (i, &g) in members.iter().enumerate() {
                    let s = &sim.slots[g as usize & sim.mask];
                    let rank = g as i64 - i64::from(s.users);
                    if best.is_none_or(|(br, bg, _, _)| (rank, g) < (br, bg)) {
                        best = Some((rank, g, c, i));
                    }
                }
            }
            let Some((_, g, c, i)) = best else { break };
            sim.ready_set.remove(c, i);
            let op = sim.slot(g).op as usize;
            let o = &body[op];
            ports.book(&o.bookings, cycle, |r, c| {
                booked[op * nres + r.index()] += u64::from(c);
            });
            for &k in &o.buffers {
                buffer_used[k] -= 1;
            }
            issue(&mut sim, g, cycle);
            issued.push(g);
        }

        // 3. Dispatch.
        let mut avail = u64::from(width).saturating_sub(carry);
        carry = carry.saturating_sub(u64::from(width));
        let tail_before = tail;
        while tail < total && avail > 0 {
            let o = &body[tail_op];
            let uops = u64::from(o.uops);
            if uops.min(u64::from(width)) > avail
                || rob_used + o.entries > rob
                || (o.load && lq_cap > 0 && lq >= lq_cap)
                || (o.store && sq_cap > 0 && sq >= sq_cap)
                || o.buffers.iter().any(|&k| buffer_used[k] >= buffer_caps[k])
            {
                break;
            }
            if uops > u64::from(width) {
                carry = uops - u64::from(width);
                avail = 0;
            } else {
                avail -= uops;
            }
            rob_used += o.entries;
            lq += u64::from(o.load);
            sq += u64::from(o.store);
            for &k in &o.buffers {
                buffer_used[k] += 1;
            }
            let g = tail;
            let mut ready = cycle;
            let mut pending = 0u32;
            for r in &o.reads {
                if r.distance > tail_iter {
                    continue; // before the first iteration: a live-in value
                }
                let pg = g - tail_op as u64 - r.distance * b + r.from as u64;
                if pg < head {
                    continue; // retired, so executed
                }
                let plat = body[r.from].latency;
                let ps = sim.slot(pg);
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
            let s = sim.slot(g);
            s.op = tail_op as u32;
            s.iter = tail_iter;
            s.dispatch = cycle;
            s.issue = NOT_ISSUED;
            s.ready = ready.max(cycle + 1);
            s.pending = pending;
            s.users = 0;
            s.mem_blocked = false;
            if immediate {
                // Nothing to book, nothing to wait for: it issues (and
                // executes) as it dispatches.
                for &k in &o.buffers {
                    buffer_used[k] -= 1;
                }
                issue(&mut sim, g, cycle);
                issued.push(g);
            } else if pending == 0 {
                sim.calendar.push(ready.max(cycle + 1), g);
            }
            tail += 1;
            sim.tail = tail;
            tail_op += 1;
            if tail_op as u64 == b {
                tail_op = 0;
                tail_iter += 1;
            }
        }
        peak = peak.max(tail - head);

        // Nothing happened and nothing is ready: jump to the next cycle
        // where an operand becomes ready or the oldest instance can retire.
        let mut next = cycle + 1;
        if issued.is_empty()
            && tail == tail_before
            && retired == 0
            && carry == 0
            && sim.ready_set.is_empty()
        {
            let mut wake = Cycle::MAX;
            if let Some(t) = sim.calendar.next_after(cycle) {
                wake = wake.min(t);
            }
            if head < tail {
                let s = &sim.slots[head as usize & sim.mask];
                if s.issue != NOT_ISSUED {
                    wake = wake.min(s.issue + body[s.op as usize].latency + 1);
                }
            }
            if wake != Cycle::MAX {
                next = next.max(wake);
            }
        }
        cycle = next;
    }
    let (block_rthroughput, bound) = super::bounds(p, m);
    Ok(Report {
        iterations: n,
        instructions: total,
        total_cycles: (last_retire + 1) as u64,
        total_uops: n * body.iter().map(|o| u64::from(o.uops)).sum::<u64>(),
        dispatch_width: width,
        block_rthroughput,
        bound,
        timeline,
        peak_in_flight: peak,
        booked,
    })
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
    if sim.body[op].load || sim.body[op].store {
        if let Some(first) = sim.oldest_unissued_mem() {
            let s = sim.slot(first);
            if s.mem_blocked && s.pending == 0 && s.ready <= now {
                s.mem_blocked = false;
                let class = sim.body[s.op as usize].class.index();
                sim.ready_set.push(class, first);
            }
        }
    }
}
