//! The scheduler, as `mca::Scheduler` with its `DefaultSchedulerStrategy`
//! runs it: instructions wait in the WaitSet (some input latency unknown),
//! the PendingSet (latencies known, not elapsed, or a memory predecessor
//! issued but not done) and the ReadySet; the oldest ready instruction
//! with the most dependent users whose resources are free issues first,
//! and stays in the IssuedSet until it writes back.

use super::instr::{Stage, Window};
use super::lsu::{Lsu, QueueCheck};
use super::resources::{BufferCheck, ResourceManager, Used};
use super::{Ctx, Proto};

/// `mca::Scheduler`'s queues.
#[derive(Clone, Debug, Default)]
pub(super) struct Scheduler {
    wait: Vec<u64>,
    pending: Vec<u64>,
    ready: Vec<u64>,
    issued: Vec<u64>,
    /// Scratch for the promotions nobody listens to.
    scratch: Vec<u64>,
}

/// What issuing or a new cycle moved along (the events the views hear).
#[derive(Debug, Default)]
pub(super) struct Moved {
    /// Instructions that reached write-back.
    pub executed: Vec<u64>,
    /// Instructions that became ready.
    pub ready: Vec<u64>,
    /// Pipes an issued instruction took.
    pub used: Vec<Used>,
}

impl Moved {
    /// Empties every list.
    pub fn clear(&mut self) {
        self.executed.clear();
        self.ready.clear();
        self.used.clear();
    }
}

/// The units a scheduler step needs besides its queues.
pub(super) struct Units<'u> {
    /// Instructions in flight.
    pub win: &'u mut Window,
    /// Processor resources.
    pub rm: &'u mut ResourceManager,
    /// The load/store unit.
    pub lsu: &'u mut Lsu,
}

/// Moves the entries of `v` that `promote` accepts to `to` and `out`, the
/// way LLVM's promote loops reorder the rest (swap with the last kept).
fn promote(
    v: &mut Vec<u64>,
    to: &mut Vec<u64>,
    out: &mut Vec<u64>,
    mut ok: impl FnMut(u64) -> bool,
) -> bool {
    let e = v.len();
    let mut removed = 0;
    let mut i = 0;
    while i < e - removed {
        let idx = v[i];
        if !ok(idx) {
            i += 1;
            continue;
        }
        out.push(idx);
        to.push(idx);
        removed += 1;
        v.swap(i, e - removed);
    }
    v.truncate(e - removed);
    removed > 0
}

/// `Scheduler::mustIssueImmediately`.
pub(super) fn must_issue_immediately(p: &Proto) -> bool {
    p.desc.is_zero_latency() || p.desc.must_issue_immediately
}

impl Scheduler {
    /// `Scheduler::isAvailable`: whether an instruction of `p` can enter.
    pub fn is_available(p: &Proto, rm: &ResourceManager, lsu: &Lsu) -> bool {
        rm.can_be_dispatched(p.desc.used_buffers) == BufferCheck::Available
            && lsu.is_available(p.mem) == QueueCheck::Available
    }

    /// `Scheduler::dispatch`: `idx` enters its queue; true if it is ready
    /// (it then joins the ReadySet unless it must issue at once).
    pub fn dispatch(&mut self, ctx: &Ctx, u: &mut Units, idx: u64) -> bool {
        let Some(inst) = u.win.get_mut(idx) else {
            return false;
        };
        let p = &ctx.protos[inst.pos as usize];
        u.rm.reserve_buffers(p.desc.used_buffers);
        if p.memop {
            inst.lsu_group = u.lsu.dispatch(p.mem);
        }
        let g = inst.lsu_group;
        if inst.stage == Stage::Dispatched || (p.memop && u.lsu.is_waiting(g)) {
            self.wait.push(idx);
            return false;
        }
        if inst.stage == Stage::Pending || (p.memop && u.lsu.is_pending(g)) {
            self.pending.push(idx);
            return false;
        }
        if !must_issue_immediately(p) {
            self.ready.push(idx);
        }
        true
    }

    /// `DefaultSchedulerStrategy::computeRank`.
    fn rank(win: &Window, idx: u64) -> i64 {
        let users = win.get(idx).map_or(0, super::instr::Inst::num_users);
        idx as i64 - users as i64
    }

    /// `Scheduler::select`: the best-ranked ready instruction whose
    /// resources are free, taken out of the ReadySet.
    pub fn select(&mut self, ctx: &Ctx, win: &Window, rm: &ResourceManager) -> Option<u64> {
        let n = self.ready.len();
        let mut q = n;
        let mut q_rank = 0;
        for i in 0..n {
            let idx = self.ready[i];
            let r = Self::rank(win, idx);
            let better = q == n || {
                let qi = self.ready[q];
                if r == q_rank { idx < qi } else { r < q_rank }
            };
            if !better {
                continue;
            }
            let Some(inst) = win.get(idx) else { continue };
            let p = &ctx.protos[inst.pos as usize];
            let busy = rm.check_availability(
                &p.uses,
                p.desc.used_groups,
                p.implicit,
                p.desc.partially_overlapping_groups,
            );
            if busy == 0 {
                q = i;
                q_rank = r;
            }
        }
        if q == n {
            return None;
        }
        let idx = self.ready[q];
        self.ready.swap(q, n - 1);
        self.ready.pop();
        Some(idx)
    }

    /// `Scheduler::issueInstruction`: issues `idx`; `m` receives the pipes
    /// used and the instructions this made ready.
    pub fn issue(&mut self, ctx: &Ctx, u: &mut Units, idx: u64, m: &mut Moved) {
        let Some(inst) = u.win.get(idx) else { return };
        let p = &ctx.protos[inst.pos as usize];
        let g = inst.lsu_group;
        let dependents = inst.has_dependent_users() || (p.memop && u.lsu.has_dependent_users(g));
        u.rm.release_buffers(p.desc.used_buffers);
        u.rm.issue(&p.uses, p.desc.partially_overlapping_groups, &mut m.used);
        u.win.execute(idx, p.desc.max_latency);
        if p.memop {
            u.lsu.on_issued(g);
        }
        match u.win.get(idx).map(|i| i.stage) {
            Some(Stage::Executing) => self.issued.push(idx),
            Some(Stage::Executed) if p.memop => u.lsu.on_executed(g),
            _ => {}
        }
        if dependents {
            let mut scratch = std::mem::take(&mut self.scratch);
            scratch.clear();
            if self.promote_to_pending(ctx, u, &mut scratch) {
                self.promote_to_ready(ctx, u, &mut m.ready);
            }
            self.scratch = scratch;
        }
    }

    /// `Scheduler::promoteToPendingSet`.
    fn promote_to_pending(&mut self, ctx: &Ctx, u: &mut Units, out: &mut Vec<u64>) -> bool {
        let (win, lsu) = (&mut *u.win, &*u.lsu);
        promote(&mut self.wait, &mut self.pending, out, |idx| {
            let Some(inst) = win.get_mut(idx) else {
                return false;
            };
            if inst.stage == Stage::Dispatched {
                // Without news of an operand, it still is not ready.
                if !inst.wake || !inst.update_dispatched() {
                    inst.wake = false;
                    return false;
                }
            }
            !(ctx.protos[inst.pos as usize].memop && lsu.is_waiting(inst.lsu_group))
        })
    }

    /// `Scheduler::promoteToReadySet`.
    fn promote_to_ready(&mut self, ctx: &Ctx, u: &mut Units, out: &mut Vec<u64>) -> bool {
        let (win, lsu) = (&mut *u.win, &*u.lsu);
        promote(&mut self.pending, &mut self.ready, out, |idx| {
            let Some(inst) = win.get_mut(idx) else {
                return false;
            };
            if inst.stage != Stage::Ready && !inst.update_pending() {
                return false;
            }
            !ctx.protos[inst.pos as usize].memop || lsu.is_ready(inst.lsu_group)
        })
    }

    /// `Scheduler::updateIssuedSet`.
    fn update_issued(&mut self, ctx: &Ctx, u: &mut Units, executed: &mut Vec<u64>) {
        let mut done = std::mem::take(&mut self.scratch);
        done.clear();
        let (win, lsu) = (&*u.win, &mut *u.lsu);
        promote(&mut self.issued, &mut done, executed, |idx| {
            let Some(inst) = win.get(idx) else {
                return false;
            };
            if inst.stage != Stage::Executed {
                return false;
            }
            if ctx.protos[inst.pos as usize].memop {
                lsu.on_executed(inst.lsu_group);
            }
            true
        });
        self.scratch = done;
    }

    /// `Scheduler::cycleEvent`: a new cycle.
    pub fn cycle_event(&mut self, ctx: &Ctx, u: &mut Units, m: &mut Moved) {
        u.rm.cycle_event();
        for &idx in &self.issued {
            if let Some(i) = u.win.get_mut(idx) {
                i.cycle_event();
            }
        }
        self.update_issued(ctx, u, &mut m.executed);
        for &idx in self.pending.iter().chain(&self.wait) {
            if let Some(i) = u.win.get_mut(idx) {
                i.cycle_event();
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        self.promote_to_pending(ctx, u, &mut scratch);
        self.scratch = scratch;
        self.promote_to_ready(ctx, u, &mut m.ready);
    }

    /// Appends the queues to `out` (steady-state search), relative to
    /// source index `base`. Their order is left out: no decision depends
    /// on it (selection takes the best rank, promotion looks at each
    /// instruction alone, and what they change commutes).
    pub fn encode(&self, base: u64, out: &mut Vec<u64>) {
        for q in [&self.wait, &self.pending, &self.ready, &self.issued] {
            out.push(q.len() as u64);
            let at = out.len();
            out.extend(q.iter().map(|&i| base.wrapping_sub(i)));
            out[at..].sort_unstable();
        }
    }
}
