//! The out-of-order pipeline of `mca::Context::createDefaultPipeline`,
//! cycle by cycle as `mca::Pipeline::run` drives it: each cycle starts the
//! stages from the last (retire, execute, dispatch, entry), then moves
//! instructions from the entry stage into dispatch while it accepts them,
//! then ends the cycle.
//!
//! Retirement is `RetireStage` with the `RetireControlUnit`: in order, at
//! most `MaxRetirePerCycle` a cycle, each instruction holding
//! `min(µops, ROB)` (at least one) reorder-buffer entries.

use super::dispatch::{DispatchStage, new_inst};
use super::instr::{OpRef, Stage, Window};
use super::lsu::Lsu;
use super::record::Recorder;
use super::regfile::RegisterFile;
use super::resources::ResourceManager;
use super::scheduler::{Moved, Scheduler, Units, must_issue_immediately};
use super::steady::{Detector, Point, digest_window};
use super::{Ctx, MAX_IN_FLIGHT, MAX_SIMULATED_CYCLES, Options, Run, SimError};

/// The hardware units and stages of the default pipeline.
pub(super) struct Ooo<'c, 'a> {
    pub ctx: &'c Ctx<'a>,
    pub win: Window,
    pub rm: ResourceManager,
    pub prf: RegisterFile,
    pub lsu: Lsu,
    pub sched: Scheduler,
    pub disp: DispatchStage,
    rob_size: u32,
    pub rob_free: u32,
    max_retire: u32,
    /// The next instruction the entry stage hands to dispatch.
    pub next: u64,
    /// Instructions in the run (less those jumped over).
    pub total: u64,
    /// Cycles simulated.
    pub cycle: u64,
    pub rec: Recorder,
    moved: Moved,
    regs_used: Vec<u32>,
    /// A kernel's last instruction was dispatched this cycle.
    pub boundary: bool,
    last_progress: u64,
    stuck: u64,
}

/// The units of `ctx`'s processor with `opts`.
pub(super) fn units(ctx: &Ctx, opts: &Options) -> (ResourceManager, RegisterFile, Lsu) {
    let p = ctx.p;
    let res: Vec<(u64, u32, i32)> = p
        .resources
        .iter()
        .zip(&ctx.masks)
        .map(|(r, &m)| (m, r.units, r.buffer_size))
        .collect();
    let rm = ResourceManager::new(&res, ctx.v22);
    let prf = RegisterFile::new(ctx, &p.register_files, opts.register_file_size.unwrap_or(0));
    let queue = |opt: Option<u32>, res: u16| {
        opt.filter(|&q| q != 0).unwrap_or_else(|| {
            p.resources
                .get(usize::from(res))
                .filter(|_| res != 0)
                .map_or(0, |r| u32::try_from(r.buffer_size.max(0)).unwrap_or(0))
        })
    };
    let lsu = Lsu::new(
        queue(opts.load_queue_size, p.load_queue),
        queue(opts.store_queue_size, p.store_queue),
        opts.noalias,
    );
    (rm, prf, lsu)
}

/// How many idle cycles mean that nothing will ever move again.
pub(super) fn stuck_limit(ctx: &Ctx) -> u64 {
    let worst = ctx
        .protos
        .iter()
        .map(|q| {
            u64::from(q.desc.max_latency) + q.uses.iter().map(|u| u64::from(u.size)).sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    (1 << 16) + 4 * worst
}

impl<'c, 'a> Ooo<'c, 'a> {
    fn new(ctx: &'c Ctx<'a>, opts: &Options, total: u64, width: u32) -> Result<Self, SimError> {
        let p = ctx.p;
        let rob = if p.reorder_buffer_size != 0 {
            p.reorder_buffer_size
        } else {
            p.micro_op_buffer_size
        };
        if rob as usize > MAX_IN_FLIGHT {
            return Err(SimError::InFlight);
        }
        let (rm, prf, lsu) = units(ctx, opts);
        let files = prf.num_files();
        Ok(Ooo {
            ctx,
            win: Window::default(),
            rm,
            prf,
            lsu,
            sched: Scheduler::default(),
            disp: DispatchStage::new(width),
            rob_size: rob.max(1),
            rob_free: rob.max(1),
            max_retire: p.max_retire_per_cycle,
            next: 0,
            total,
            cycle: 0,
            rec: Recorder::new(ctx, opts.timeline_iterations(), opts.timeline_max_cycles),
            moved: Moved::default(),
            regs_used: vec![0; files],
            boundary: false,
            last_progress: 0,
            stuck: stuck_limit(ctx),
        })
    }

    fn units(&mut self) -> Units<'_> {
        Units {
            win: &mut self.win,
            rm: &mut self.rm,
            lsu: &mut self.lsu,
        }
    }

    /// `normalizeQuantity`: reorder-buffer entries of `uops` micro-ops.
    fn rob_slots(&self, uops: u32) -> u32 {
        uops.min(self.rob_size).max(1)
    }

    /// One cycle of `Pipeline::run`.
    fn step(&mut self) -> Result<(), SimError> {
        self.prf.cycle_start();
        self.retire();
        self.execute_cycle_start();
        if let Some(c) = self.disp.cycle_start() {
            self.rec.dispatched(c, self.cycle);
        }
        while self.next < self.total && self.can_dispatch(self.next) {
            let idx = self.next;
            self.dispatch(idx);
            self.next += 1;
        }
        self.prf.cycle_end();
        self.cycle += 1;
        if self.cycle - self.last_progress > self.stuck {
            return Err(SimError::Stuck(self.cycle));
        }
        if self.cycle > MAX_SIMULATED_CYCLES {
            return Err(SimError::TooLong);
        }
        Ok(())
    }

    /// `RetireStage::cycleStart`.
    fn retire(&mut self) {
        let mut n = 0;
        while let Some(front) = self.win.front() {
            if self.max_retire != 0 && n == self.max_retire {
                break;
            }
            if !front.rob_executed {
                break;
            }
            let idx = front.idx;
            let p = self.ctx.proto(idx);
            if p.memop {
                self.lsu.on_retired(p.mem);
            }
            let ndefs = front.defs.len();
            for d in 0..ndefs {
                let w = OpRef {
                    idx,
                    op: u16::try_from(d).unwrap_or(u16::MAX),
                };
                self.prf.remove_write(self.ctx, &self.win, w);
            }
            self.rec.retired(idx, self.cycle, self.ctx);
            if let Some(i) = self.win.get_mut(idx) {
                i.stage = Stage::Retired;
                self.rob_free += i.rob_slots;
            }
            self.win.pop_retired();
            self.last_progress = self.cycle;
            n += 1;
        }
    }

    /// `RetireStage::execute`: the reorder buffer and register file learn
    /// that `idx` wrote back.
    fn written_back(&mut self, idx: u64) {
        self.rec.executed(idx, self.cycle);
        self.prf.on_executed(self.ctx, &self.win, idx);
        if let Some(i) = self.win.get_mut(idx) {
            i.rob_executed = true;
        }
        self.last_progress = self.cycle;
    }

    /// `ExecuteStage::cycleStart`.
    fn execute_cycle_start(&mut self) {
        let mut m = std::mem::take(&mut self.moved);
        m.clear();
        let ctx = self.ctx;
        let mut sched = std::mem::take(&mut self.sched);
        sched.cycle_event(ctx, &mut self.units(), &mut m);
        self.sched = sched;
        for &idx in &m.executed {
            self.written_back(idx);
        }
        for &idx in &m.ready {
            self.rec.ready(idx, self.cycle);
        }
        self.moved = m;
        while let Some(idx) = self.sched.select(ctx, &self.win, &self.rm) {
            self.issue(idx);
        }
    }

    /// `ExecuteStage::issueInstruction`.
    fn issue(&mut self, idx: u64) {
        let mut m = std::mem::take(&mut self.moved);
        m.clear();
        let ctx = self.ctx;
        let mut sched = std::mem::take(&mut self.sched);
        sched.issue(ctx, &mut self.units(), idx, &mut m);
        self.sched = sched;
        self.rec.issued(idx, self.cycle, ctx, &m.used);
        self.last_progress = self.cycle;
        if self
            .win
            .get(idx)
            .is_some_and(|i| i.stage == Stage::Executed)
        {
            self.written_back(idx);
        }
        for &r in &m.ready {
            self.rec.ready(r, self.cycle);
        }
        self.moved = m;
    }

    /// `DispatchStage::isAvailable` for the next instruction.
    fn can_dispatch(&self, idx: u64) -> bool {
        let p = self.ctx.proto(idx);
        let d = p.desc;
        if !self.disp.has_room(d.uops, d.begin_group) {
            return false;
        }
        if self.rob_free < self.rob_slots(d.uops) {
            return false;
        }
        if self
            .prf
            .is_available(p.instr.defs.iter().map(|x| x.register))
            != 0
        {
            return false;
        }
        Scheduler::is_available(p, &self.rm, &self.lsu)
    }

    /// `DispatchStage::dispatch` and `ExecuteStage::execute`.
    fn dispatch(&mut self, idx: u64) {
        let ctx = self.ctx;
        let p = ctx.proto(idx);
        let inst = new_inst(ctx, &mut self.win, idx);
        self.win.push(inst);
        self.disp.take(idx, p.desc.uops, p.desc.end_group);
        if p.instr.optimizable_move
            && self.prf.try_eliminate(ctx, &mut self.win, idx)
            && let Some(i) = self.win.get_mut(idx)
        {
            i.eliminated = true;
        }
        let eliminated = self.win.get(idx).is_some_and(|i| i.eliminated);
        let nuses = p.instr.uses.len();
        if !eliminated {
            for u in 0..nuses {
                let r = OpRef {
                    idx,
                    op: u16::try_from(u).unwrap_or(u16::MAX),
                };
                self.prf.add_read(ctx, p.desc, &mut self.win, r);
            }
        }
        self.regs_used.iter_mut().for_each(|u| *u = 0);
        for d in 0..p.instr.defs.len() {
            let w = OpRef {
                idx,
                op: u16::try_from(d).unwrap_or(u16::MAX),
            };
            self.prf
                .add_write(ctx, &mut self.win, w, &mut self.regs_used);
        }
        let slots = self.rob_slots(p.desc.uops);
        self.rob_free -= slots;
        if let Some(i) = self.win.get_mut(idx) {
            i.rob_slots = slots;
            i.dispatch();
        }
        self.rec.dispatched(idx, self.cycle);
        self.last_progress = self.cycle;
        if idx % ctx.n == ctx.n - 1 {
            self.boundary = true;
        }
        self.enter_scheduler(idx);
    }

    /// `ExecuteStage::execute`.
    fn enter_scheduler(&mut self, idx: u64) {
        let ctx = self.ctx;
        if self.win.get(idx).is_some_and(|i| i.eliminated) {
            self.rec.ready(idx, self.cycle);
            self.rec.issued(idx, self.cycle, ctx, &[]);
            if let Some(i) = self.win.get_mut(idx) {
                i.force_executed();
            }
            self.written_back(idx);
            return;
        }
        let mut sched = std::mem::take(&mut self.sched);
        let ready = sched.dispatch(ctx, &mut self.units(), idx);
        self.sched = sched;
        if !ready {
            return;
        }
        self.rec.ready(idx, self.cycle);
        if must_issue_immediately(ctx.proto(idx)) {
            self.issue(idx);
        }
    }

    /// Appends the whole state to `out` (steady-state search), relative
    /// to the next instruction and the current cycle.
    pub fn encode(&self, out: &mut Vec<u64>) {
        let base = self.next;
        out.push(base % self.ctx.n);
        out.push(u64::from(self.rob_free));
        super::steady::encode_window(&self.win, base, self.lsu.next_id(), self.ctx.clip, out);
        self.rm.encode(out);
        self.prf.encode(base, self.ctx.clip, out);
        self.lsu.encode(out, true);
        self.sched.encode(base, out);
        self.disp.encode(base, out);
    }
}

/// Runs `total` instructions of `ctx` through the default pipeline.
pub(super) fn run(ctx: &Ctx, opts: &Options, total: u64, width: u32) -> Result<Run, SimError> {
    let mut s = Ooo::new(ctx, opts, total, width)?;
    let mut det = Detector::new(opts.extrapolate, ctx, s.rec.timeline.len() as u64);
    let mut skipped = 0;
    let mut offset = 0;
    loop {
        if s.boundary {
            s.boundary = false;
            let at = Point {
                oldest: s.win.front().map_or(s.next, |i| i.idx),
                next: s.next,
                total: s.total,
                cycle: s.cycle,
                pressure: &s.rec.pressure,
                quick: digest_window(&s.win, s.next)
                    ^ u64::from(s.rob_free)
                    ^ (s.next % ctx.n) << 40,
            };
            if let Some(jump) = det.observe(&at, |out| s.encode(out)) {
                s.rec.add_periods(&jump.pressure, jump.periods);
                s.total -= jump.instructions;
                skipped += jump.instructions;
                offset += jump.cycles;
            }
        }
        s.step()?;
        if s.next >= s.total && s.win.len() == 0 {
            break;
        }
    }
    Ok(Run {
        cycles: s.cycle + offset,
        skipped,
        rec: s.rec,
    })
}
