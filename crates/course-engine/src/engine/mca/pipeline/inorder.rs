//! The in-order pipeline of `mca::Context::createInOrderPipeline`
//! (`InOrderIssueStage`), for processors without a micro-op buffer: an
//! instruction issues when its operands are ready, its resources free and
//! its writes cannot overtake older ones; a stalled instruction blocks the
//! ones behind it. Instructions retire as soon as they are written back.

use super::dispatch::new_inst;
use super::instr::{OpRef, Stage, UNKNOWN, Window};
use super::lsu::Lsu;
use super::ooo::{stuck_limit, units};
use super::record::Recorder;
use super::regfile::RegisterFile;
use super::resources::{ResourceManager, Used};
use super::steady::{Detector, Point, digest_window, encode_window};
use super::{Ctx, MAX_SIMULATED_CYCLES, Options, Run, SimError};

/// `StallInfo`: the instruction waiting to issue and for how long.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stall {
    idx: Option<u64>,
    cycles_left: u32,
}

/// `InOrderIssueStage` with its units.
struct InOrder<'c, 'a> {
    ctx: &'c Ctx<'a>,
    win: Window,
    rm: ResourceManager,
    prf: RegisterFile,
    lsu: Lsu,
    issued: Vec<u64>,
    num_issued: u32,
    stall: Stall,
    carried: Option<u64>,
    carry_over: u32,
    bandwidth: u32,
    last_write_back: u32,
    width: u32,
    next: u64,
    total: u64,
    cycle: u64,
    rec: Recorder,
    used: Vec<Used>,
    regs_used: Vec<u32>,
    boundary: bool,
    last_progress: u64,
    stuck: u64,
}

impl InOrder<'_, '_> {
    /// `findFirstWriteBackCycle`.
    fn first_write_back(&self, idx: u64) -> u32 {
        let p = self.ctx.proto(idx);
        let mut first = p.desc.max_latency;
        if let Some(i) = self.win.get(idx) {
            for d in &i.defs {
                let c = if d.cycles_left == UNKNOWN {
                    i64::from(d.latency)
                } else {
                    i64::from(d.cycles_left.max(0))
                };
                first = first.min(u32::try_from(c).unwrap_or(u32::MAX));
            }
        }
        first
    }

    /// `checkRegisterHazard`.
    fn register_hazard(&self, idx: u64) -> u32 {
        let p = self.ctx.proto(idx);
        let Some(i) = self.win.get(idx) else { return 0 };
        for u in &i.uses {
            let h = self
                .prf
                .raw_hazard(self.ctx, p.desc, &self.win, u.use_index, u.reg);
            if h.valid {
                return if h.cycles_left < 0 {
                    1
                } else {
                    h.cycles_left.unsigned_abs()
                };
            }
        }
        0
    }

    /// `canExecute`: false (and a stall recorded) when `idx` must wait.
    fn can_execute(&mut self, idx: u64) -> bool {
        let p = self.ctx.proto(idx);
        let c = self.register_hazard(idx);
        if c != 0 {
            self.stall = Stall {
                idx: Some(idx),
                cycles_left: c,
            };
            return false;
        }
        if self.rm.check_availability(
            &p.uses,
            p.desc.used_groups,
            p.implicit,
            p.desc.partially_overlapping_groups,
        ) != 0
        {
            self.stall = Stall {
                idx: Some(idx),
                cycles_left: 1,
            };
            return false;
        }
        let g = self.win.get(idx).map_or(0, |i| i.lsu_group);
        if p.memop && !self.lsu.is_ready(g) {
            self.stall = Stall {
                idx: Some(idx),
                cycles_left: 1,
            };
            return false;
        }
        if self.last_write_back != 0 && !p.desc.retire_ooo {
            let next = self.first_write_back(idx);
            if next < self.last_write_back {
                self.stall = Stall {
                    idx: Some(idx),
                    cycles_left: self.last_write_back - next,
                };
                return false;
            }
        }
        true
    }

    /// `InOrderIssueStage::tryIssue`.
    fn try_issue(&mut self, idx: u64) {
        if !self.can_execute(idx) {
            self.bandwidth = 0;
            return;
        }
        let ctx = self.ctx;
        let p = ctx.proto(idx);
        if let Some(i) = self.win.get_mut(idx) {
            i.dispatch();
        }
        for u in 0..p.instr.uses.len() {
            let r = OpRef {
                idx,
                op: u16::try_from(u).unwrap_or(u16::MAX),
            };
            self.prf.add_read(ctx, p.desc, &mut self.win, r);
        }
        for d in 0..p.instr.defs.len() {
            let w = OpRef {
                idx,
                op: u16::try_from(d).unwrap_or(u16::MAX),
            };
            self.prf
                .add_write(ctx, &mut self.win, w, &mut self.regs_used);
        }
        self.rec.dispatched(idx, self.cycle);
        self.used.clear();
        self.rm
            .issue(&p.uses, p.desc.partially_overlapping_groups, &mut self.used);
        self.win.execute(idx, p.desc.max_latency);
        let g = self.win.get(idx).map_or(0, |i| i.lsu_group);
        if p.memop {
            self.lsu.on_issued(g);
        }
        self.rec.ready(idx, self.cycle);
        self.rec.issued(idx, self.cycle, ctx, &self.used);
        self.last_progress = self.cycle;
        let uops = p.desc.uops;
        let carry = uops > self.bandwidth;
        if carry {
            self.carry_over = uops - self.bandwidth;
            self.carried = Some(idx);
            self.bandwidth = 0;
        } else {
            self.num_issued += uops;
            self.bandwidth = if p.desc.end_group {
                0
            } else {
                self.bandwidth - uops
            };
        }
        let executed = self
            .win
            .get(idx)
            .is_some_and(|i| i.stage == Stage::Executed);
        if executed && (!carry || !ctx.v22) {
            self.executed(idx);
            return;
        }
        self.issued.push(idx);
        if !p.desc.retire_ooo {
            self.last_write_back = self
                .win
                .get(idx)
                .map_or(0, |i| i.cycles_left.max(0).unsigned_abs());
        }
    }

    /// Write-back and retirement of `idx` (`retireInstruction`).
    fn executed(&mut self, idx: u64) {
        let ctx = self.ctx;
        let p = ctx.proto(idx);
        self.prf.on_executed(ctx, &self.win, idx);
        let g = self.win.get(idx).map_or(0, |i| i.lsu_group);
        if p.memop {
            self.lsu.on_executed(g);
        }
        self.rec.executed(idx, self.cycle);
        if let Some(i) = self.win.get_mut(idx) {
            i.stage = Stage::Retired;
        }
        for d in 0..p.instr.defs.len() {
            let w = OpRef {
                idx,
                op: u16::try_from(d).unwrap_or(u16::MAX),
            };
            self.prf.remove_write(ctx, &self.win, w);
        }
        if p.memop {
            self.lsu.on_retired(p.mem);
        }
        self.rec.retired(idx, self.cycle, ctx);
        self.last_progress = self.cycle;
    }

    /// `updateIssuedInst`.
    fn update_issued(&mut self) {
        let e = self.issued.len();
        let mut removed = 0;
        let mut i = 0;
        while i < e - removed {
            let idx = self.issued[i];
            let done = match self.win.get_mut(idx) {
                Some(inst) => {
                    inst.cycle_event();
                    inst.stage == Stage::Executed
                }
                None => true,
            };
            if !done {
                i += 1;
                continue;
            }
            // LLVM 22 leaves the write-back of whatever executes while an
            // instruction is carried over to `updateCarriedOver`, which only
            // handles the carried one: the others never retire.
            if !self.ctx.v22 || self.carried.is_none() {
                self.executed(idx);
            } else if self.carried != Some(idx) {
                self.prf.bury(self.ctx, &self.win, idx);
                if let Some(i) = self.win.get_mut(idx) {
                    i.stage = Stage::Retired;
                }
            }
            removed += 1;
            self.issued.swap(i, e - removed);
        }
        self.issued.truncate(e - removed);
    }

    /// `updateCarriedOver`.
    fn update_carried_over(&mut self) {
        let Some(c) = self.carried else { return };
        if self.carry_over > self.bandwidth {
            self.carry_over -= self.bandwidth;
            self.bandwidth = 0;
            return;
        }
        if self.ctx.proto(c).desc.end_group {
            self.bandwidth = 0;
        } else {
            self.bandwidth -= self.carry_over;
        }
        if self.ctx.v22 && self.win.get(c).is_some_and(|i| i.stage == Stage::Executed) {
            self.executed(c);
        }
        self.carried = None;
        self.carry_over = 0;
    }

    /// `InOrderIssueStage::cycleStart`.
    fn cycle_start(&mut self) {
        self.num_issued = 0;
        self.bandwidth = self.width;
        self.prf.cycle_start();
        self.rm.cycle_event();
        self.update_issued();
        self.update_carried_over();
        if let Some(idx) = self.stall.idx {
            if self.stall.cycles_left == 0 {
                self.stall = Stall::default();
                self.try_issue(idx);
            }
            if self.stall.cycles_left != 0 {
                self.bandwidth = 0;
            }
        }
        self.win.pop_retired();
    }

    /// `InOrderIssueStage::isAvailable`.
    fn is_available(&self, idx: u64) -> bool {
        if self.stall.idx.is_some() || self.carried.is_some() {
            return false;
        }
        let d = self.ctx.proto(idx).desc;
        let carry = d.uops > self.width;
        if self.bandwidth < d.uops && !carry {
            return false;
        }
        !(d.begin_group && self.num_issued != 0)
    }

    /// `InOrderIssueStage::execute`.
    fn execute(&mut self, idx: u64) {
        let ctx = self.ctx;
        let mut inst = new_inst(ctx, &mut self.win, idx);
        let p = ctx.proto(idx);
        if p.memop {
            inst.lsu_group = self.lsu.dispatch(p.mem);
        }
        self.win.push(inst);
        if idx % ctx.n == ctx.n - 1 {
            self.boundary = true;
        }
        self.try_issue(idx);
    }

    fn step(&mut self) -> Result<(), SimError> {
        self.cycle_start();
        while self.next < self.total && self.is_available(self.next) {
            let idx = self.next;
            self.next += 1;
            self.execute(idx);
        }
        self.prf.cycle_end();
        if self.stall.idx.is_some() && self.stall.cycles_left != 0 {
            self.stall.cycles_left -= 1;
        }
        self.last_write_back = self.last_write_back.saturating_sub(1);
        self.cycle += 1;
        if self.cycle - self.last_progress > self.stuck {
            return Err(SimError::Stuck(self.cycle));
        }
        if self.cycle > MAX_SIMULATED_CYCLES {
            return Err(SimError::TooLong);
        }
        Ok(())
    }

    fn has_work(&self) -> bool {
        self.next < self.total
            || !self.issued.is_empty()
            || self.stall.idx.is_some()
            || self.carried.is_some()
    }

    fn encode(&self, out: &mut Vec<u64>) {
        let base = self.next;
        let rel = |i: Option<u64>| i.map_or(u64::MAX, |i| base.wrapping_sub(i));
        out.extend([
            base % self.ctx.n,
            rel(self.stall.idx),
            u64::from(self.stall.cycles_left),
            rel(self.carried),
            u64::from(self.carry_over) << 32 | u64::from(self.last_write_back),
            self.issued.len() as u64,
        ]);
        out.extend(self.issued.iter().map(|&i| base.wrapping_sub(i)));
        encode_window(&self.win, base, self.lsu.next_id(), self.ctx.clip, out);
        self.rm.encode(out);
        self.prf.encode(base, self.ctx.clip, out);
        // In-order issue never looks at the queues.
        self.lsu.encode(out, false);
    }
}

/// Runs `total` instructions of `ctx` through the in-order pipeline.
pub(super) fn run(ctx: &Ctx, opts: &Options, total: u64) -> Result<Run, SimError> {
    let (rm, prf, lsu) = units(ctx, opts);
    let files = prf.num_files();
    let mut s = InOrder {
        ctx,
        win: Window::default(),
        rm,
        prf,
        lsu,
        issued: Vec::new(),
        num_issued: 0,
        stall: Stall::default(),
        carried: None,
        carry_over: 0,
        bandwidth: 0,
        last_write_back: 0,
        width: ctx.p.issue_width.max(1),
        next: 0,
        total,
        cycle: 0,
        rec: Recorder::new(ctx, opts.timeline_iterations(), opts.timeline_max_cycles),
        used: Vec::new(),
        regs_used: vec![0; files],
        boundary: false,
        last_progress: 0,
        stuck: stuck_limit(ctx),
    };
    let mut det = Detector::new(opts.extrapolate, ctx, s.rec.timeline.len() as u64);
    let (mut skipped, mut offset) = (0, 0);
    loop {
        if s.boundary {
            s.boundary = false;
            let win = &s.win;
            s.lsu.forget(|g| {
                win.iter()
                    .any(|i| i.stage != Stage::Retired && i.lsu_group == g)
            });
            let at = Point {
                oldest: s
                    .win
                    .iter()
                    .find(|i| i.stage != Stage::Retired)
                    .map_or(s.next, |i| i.idx),
                next: s.next,
                total: s.total,
                cycle: s.cycle,
                pressure: &s.rec.pressure,
                quick: digest_window(&s.win, s.next) ^ (s.next % ctx.n) << 40,
            };
            if let Some(j) = det.observe(&at, |out| s.encode(out)) {
                s.rec.add_periods(&j.pressure, j.periods);
                s.total -= j.instructions;
                skipped += j.instructions;
                offset += j.cycles;
            }
        }
        s.step()?;
        if !s.has_work() {
            break;
        }
    }
    Ok(Run {
        cycles: s.cycle + offset,
        skipped,
        rec: s.rec,
    })
}
