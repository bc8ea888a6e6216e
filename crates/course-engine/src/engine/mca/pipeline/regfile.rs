//! Register renaming, as `mca::RegisterFile` does it: the latest write of
//! every register (with its sub- and super-registers), physical registers
//! per register file, known-zero registers and move elimination.
//!
//! Register file 0 renames everything (its size is `-register-file-size`,
//! 0 for unbounded); the processor's own files follow, each renaming the
//! register classes of its cost table. A register renamed "as" a larger
//! one (`RenameAs`) is merged with it: a partial write that does not
//! clear the upper part waits for the previous write of the larger
//! register.

use super::Ctx;
use super::instr::{OpRef, Window};
use crate::model::mc::{Desc, RegisterFile as FileDesc};

/// `WriteRef`: the latest write of a register, live (in flight) or
/// committed (retired, only its write-back cycle and write resource kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WriteRef {
    /// Source index of the writer, `u64::MAX` for none.
    pub iid: u64,
    /// The writer is in flight (`Write != nullptr`).
    pub live: bool,
    /// The writer left the pipeline without retiring (LLVM 22's in-order
    /// issue can lose an instruction that way): its write stays the
    /// latest, frozen `frozen` cycles from write-back.
    pub dead: bool,
    /// See `dead`.
    pub frozen: i32,
    /// Its def number.
    pub def: u16,
    /// The cycle it was written back (`notifyExecuted`).
    pub wb: u64,
    /// Its `WriteResourceID` once committed.
    pub write_res: u32,
}

impl Default for WriteRef {
    fn default() -> Self {
        WriteRef {
            iid: u64::MAX,
            live: false,
            dead: false,
            frozen: 0,
            def: 0,
            wb: 0,
            write_res: 0,
        }
    }
}

impl WriteRef {
    fn live(w: OpRef) -> WriteRef {
        WriteRef {
            iid: w.idx,
            live: true,
            def: w.op,
            ..WriteRef::default()
        }
    }

    fn is(&self, w: OpRef) -> bool {
        self.live && self.iid == w.idx && self.def == w.op
    }

    fn op(&self) -> OpRef {
        OpRef {
            idx: self.iid,
            op: self.def,
        }
    }
}

/// `RegisterRenamingInfo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rename {
    file: u32,
    cost: u32,
    rename_as: u16,
    alias: u16,
    allow_move_elim: bool,
}

impl Default for Rename {
    fn default() -> Self {
        Rename {
            file: 0,
            cost: 1,
            rename_as: 0,
            alias: 0,
            allow_move_elim: false,
        }
    }
}

/// `RegisterMappingTracker`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tracker {
    phys: u32,
    used: u32,
    max_moves: u32,
    moves: u32,
    zero_only: bool,
}

/// A read-after-write hazard (`RegisterFile::RAWHazard`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Hazard {
    /// A write was found.
    pub valid: bool,
    /// Cycles left, negative when unknown.
    pub cycles_left: i32,
}

/// `mca::RegisterFile`.
#[derive(Clone, Debug)]
pub(super) struct RegisterFile {
    map: Vec<WriteRef>,
    info: Vec<Rename>,
    zero: Vec<bool>,
    cycle: u64,
    files: Vec<Tracker>,
    dirty: Vec<u16>,
    is_dirty: Vec<bool>,
}

impl RegisterFile {
    /// The default file of `size` registers and the processor's `files`.
    pub fn new(ctx: &Ctx, files: &[FileDesc], size: u32) -> RegisterFile {
        let n = ctx.regs.names.len().max(1);
        let mut rf = RegisterFile {
            map: vec![WriteRef::default(); n],
            info: vec![Rename::default(); n],
            zero: vec![false; n],
            cycle: 0,
            files: vec![Tracker {
                phys: size,
                ..Tracker::default()
            }],
            dirty: Vec::new(),
            is_dirty: vec![false; n],
        };
        for f in files {
            rf.add_file(ctx, f);
        }
        rf
    }

    /// `addRegisterFile`.
    fn add_file(&mut self, ctx: &Ctx, f: &FileDesc) {
        let idx = u32::try_from(self.files.len()).unwrap_or(u32::MAX);
        self.files.push(Tracker {
            phys: f.phys_regs,
            max_moves: f.max_moves_per_cycle,
            zero_only: f.zero_moves_only,
            ..Tracker::default()
        });
        for (class, cost, allow) in &f.costs {
            for &reg in class {
                let Some(e) = self.info.get_mut(usize::from(reg)) else {
                    continue;
                };
                e.file = idx;
                e.cost = *cost;
                e.rename_as = reg;
                e.allow_move_elim = *allow;
                for &sub in ctx.subregs_all(reg) {
                    let Some(o) = self.info.get_mut(usize::from(sub)) else {
                        continue;
                    };
                    if o.file == 0
                        && (o.rename_as == 0 || ctx.superregs(sub).contains(&o.rename_as))
                    {
                        o.file = idx;
                        o.cost = *cost;
                        o.rename_as = reg;
                    }
                }
            }
        }
    }

    fn touch(&mut self, reg: u16) {
        let r = usize::from(reg);
        if r < self.is_dirty.len() && !self.is_dirty[r] {
            self.is_dirty[r] = true;
            let at = self.dirty.partition_point(|&d| d < reg);
            self.dirty.insert(at, reg);
        }
    }

    fn info(&self, reg: u16) -> Rename {
        self.info.get(usize::from(reg)).copied().unwrap_or_default()
    }

    fn mapping(&self, reg: u16) -> WriteRef {
        self.map.get(usize::from(reg)).copied().unwrap_or_default()
    }

    fn set_mapping(&mut self, reg: u16, w: WriteRef) {
        self.touch(reg);
        if let Some(m) = self.map.get_mut(usize::from(reg)) {
            *m = w;
        }
        if let Some(i) = self.info.get_mut(usize::from(reg)) {
            i.alias = 0;
        }
    }

    fn set_zero(&mut self, reg: u16, z: bool) {
        self.touch(reg);
        if let Some(b) = self.zero.get_mut(usize::from(reg)) {
            *b = z;
        }
    }

    fn is_zero(&self, reg: u16) -> bool {
        self.zero.get(usize::from(reg)).copied().unwrap_or(false)
    }

    /// Register files, the default one included.
    pub fn num_files(&self) -> usize {
        self.files.len()
    }

    /// `cycleStart`.
    pub fn cycle_start(&mut self) {
        for f in &mut self.files {
            f.moves = 0;
        }
    }

    /// `cycleEnd`.
    pub fn cycle_end(&mut self) {
        self.cycle += 1;
    }

    fn allocate(&mut self, reg: u16, used: &mut [u32]) {
        let e = self.info(reg);
        if e.file != 0 {
            if let Some(f) = self.files.get_mut(e.file as usize) {
                f.used = f.used.saturating_add(e.cost);
            }
            if let Some(u) = used.get_mut(e.file as usize) {
                *u = u.saturating_add(e.cost);
            }
        }
        self.files[0].used = self.files[0].used.saturating_add(e.cost);
        if let Some(u) = used.first_mut() {
            *u = u.saturating_add(e.cost);
        }
    }

    fn free(&mut self, reg: u16) {
        let e = self.info(reg);
        if e.file != 0
            && let Some(f) = self.files.get_mut(e.file as usize)
        {
            f.used = f.used.saturating_sub(e.cost);
        }
        self.files[0].used = self.files[0].used.saturating_sub(e.cost);
    }

    /// `isAvailable`: a mask of the register files too full for new
    /// writes of `regs` (0: all have room).
    pub fn is_available(&self, regs: impl Iterator<Item = u16>) -> u32 {
        let mut need = vec![0u32; self.files.len()];
        for reg in regs {
            let e = self.info(reg);
            if e.file != 0
                && let Some(n) = need.get_mut(e.file as usize)
            {
                *n = n.saturating_add(e.cost);
            }
            need[0] = need[0].saturating_add(e.cost);
        }
        let mut resp = 0;
        for (i, (f, &n)) in self.files.iter().zip(&need).enumerate() {
            if n == 0 || f.phys == 0 {
                continue;
            }
            let n = n.min(f.phys);
            if f.phys < f.used.saturating_add(n) {
                resp |= 1u32.checked_shl(i as u32).unwrap_or(0);
            }
        }
        resp
    }

    /// `onInstructionExecuted`: records the write-back cycle of the
    /// writes of `idx` that are still the latest of their registers.
    pub fn on_executed(&mut self, ctx: &Ctx, win: &Window, idx: u64) {
        let Some(inst) = win.get(idx) else { return };
        for (d, ws) in inst.defs.iter().enumerate() {
            if ws.eliminated {
                return;
            }
            if ws.reg == 0 {
                continue;
            }
            let w = OpRef {
                idx,
                op: u16::try_from(d).unwrap_or(u16::MAX),
            };
            let rename = self.info(ws.reg).rename_as;
            let reg = if rename != 0 { rename } else { ws.reg };
            let cycle = self.cycle;
            let mark = |rf: &mut RegisterFile, r: u16| {
                if let Some(m) = rf.map.get_mut(usize::from(r))
                    && m.is(w)
                {
                    m.wb = cycle;
                }
            };
            mark(self, reg);
            for &s in ctx.subregs(reg) {
                mark(self, s);
            }
            if ws.clears_super {
                for &s in ctx.superregs(reg) {
                    mark(self, s);
                }
            }
        }
    }

    /// `addRegisterWrite`: `w` becomes the latest write of its register;
    /// physical registers taken are added to `used` (per file).
    pub fn add_write(&mut self, ctx: &Ctx, win: &mut Window, w: OpRef, used: &mut [u32]) {
        let Some(ws) = win.write(w) else { return };
        let (reg, zero, elim, clears, lat) = (
            ws.reg,
            ws.writes_zero,
            ws.eliminated,
            ws.clears_super,
            ws.latency,
        );
        if reg == 0 {
            return;
        }
        let mut alloc = !zero && !elim;
        let rri = self.info(reg);
        let mut reg_id = reg;
        if rri.rename_as != 0 && rri.rename_as != reg {
            reg_id = rri.rename_as;
            let other = self.mapping(reg_id);
            if !clears {
                alloc = false;
                if other.live && other.iid != w.idx {
                    win.add_write_user(other.op(), w);
                } else if other.dead {
                    win.start_write(w, other.frozen.max(0).unsigned_abs());
                }
            }
        }
        let zero_id = if clears { reg_id } else { reg };
        self.set_zero(zero_id, zero);
        for &s in ctx.subregs(zero_id) {
            self.set_zero(s, zero);
        }
        if !elim {
            let other = self.mapping(reg_id);
            if other.live
                && other.iid == w.idx
                && win.write(other.op()).is_some_and(|o| o.latency > lat)
            {
                if alloc {
                    self.allocate(reg_id, used);
                }
                return;
            }
            self.set_mapping(reg_id, WriteRef::live(w));
            for &s in ctx.subregs(reg_id) {
                self.set_mapping(s, WriteRef::live(w));
            }
            if alloc {
                self.allocate(reg_id, used);
            }
        }
        if !clears {
            return;
        }
        for &s in ctx.superregs(reg_id) {
            if !elim {
                self.set_mapping(s, WriteRef::live(w));
            }
            self.set_zero(s, zero);
        }
    }

    /// `removeRegisterWrite`: the writer of `w` retires; its mappings are
    /// committed and its physical registers freed.
    pub fn remove_write(&mut self, ctx: &Ctx, win: &Window, w: OpRef) {
        let Some(ws) = win.write(w) else { return };
        if ws.eliminated || ws.reg == 0 {
            return;
        }
        let mut free = !ws.writes_zero;
        let mut reg = ws.reg;
        let rename = self.info(reg).rename_as;
        if rename != 0 && rename != reg {
            reg = rename;
            if !ws.clears_super {
                free = false;
            }
        }
        if free {
            self.free(reg);
        }
        let res = ws.write_res;
        let commit = |rf: &mut RegisterFile, r: u16| {
            if let Some(m) = rf.map.get_mut(usize::from(r))
                && m.is(w)
            {
                m.live = false;
                m.write_res = res;
            }
        };
        commit(self, reg);
        for &s in ctx.subregs(reg) {
            commit(self, s);
        }
        if ws.clears_super {
            for &s in ctx.superregs(reg) {
                commit(self, s);
            }
        }
    }

    /// The instruction `idx` leaves the pipeline without retiring: its
    /// writes that are still the latest of their registers stay so,
    /// frozen, after it is gone from the window.
    pub fn bury(&mut self, ctx: &Ctx, win: &Window, idx: u64) {
        let Some(inst) = win.get(idx) else { return };
        for (d, ws) in inst.defs.iter().enumerate() {
            let w = OpRef {
                idx,
                op: u16::try_from(d).unwrap_or(u16::MAX),
            };
            let mut regs = vec![ws.reg];
            let rename = self.info(ws.reg).rename_as;
            if rename != 0 {
                regs.push(rename);
            }
            for r in regs.clone() {
                regs.extend_from_slice(ctx.subregs(r));
                regs.extend_from_slice(ctx.superregs(r));
            }
            for r in regs {
                if let Some(m) = self.map.get_mut(usize::from(r))
                    && m.is(w)
                {
                    m.live = false;
                    m.dead = true;
                    m.frozen = ws.cycles_left;
                    m.write_res = ws.write_res;
                }
            }
        }
    }

    /// `canEliminateMove`.
    fn can_eliminate(&self, wreg: u16, clears: bool, rreg: u16, file: u32) -> bool {
        let from = self.info(rreg);
        let to = self.info(wreg);
        if from.file != file || to.file != file {
            return false;
        }
        if !self.info(to.rename_as).allow_move_elim {
            return false;
        }
        if to.rename_as != 0 && to.rename_as != wreg && !clears {
            return false;
        }
        let t = self.files.get(file as usize).copied().unwrap_or_default();
        !t.zero_only || self.is_zero(rreg)
    }

    /// `tryEliminateMoveOrSwap`: eliminates the register move (or swap)
    /// `idx` at renaming if the register file allows it.
    pub fn try_eliminate(&mut self, ctx: &Ctx, win: &mut Window, idx: u64) -> bool {
        let Some(inst) = win.get(idx) else {
            return false;
        };
        let e = inst.defs.len();
        if e != inst.uses.len() || e == 0 || e > 2 {
            return false;
        }
        let file = self.info(inst.defs[0].reg).file;
        let t = self.files.get(file as usize).copied().unwrap_or_default();
        if t.max_moves != 0 && t.moves + e as u32 > t.max_moves {
            return false;
        }
        for i in 0..e {
            let (rs, ws) = (&inst.uses[i], &inst.defs[e - i - 1]);
            if !self.can_eliminate(ws.reg, ws.clears_super, rs.reg, file) {
                return false;
            }
        }
        for i in 0..e {
            let Some(inst) = win.get_mut(idx) else {
                return false;
            };
            let (rreg, wreg) = (inst.uses[i].reg, inst.defs[e - i - 1].reg);
            let (from, to) = (self.info(rreg), self.info(wreg));
            let mut aliased = if from.rename_as != 0 {
                from.rename_as
            } else {
                rreg
            };
            let alias_reg = if to.rename_as != 0 {
                to.rename_as
            } else {
                wreg
            };
            let a = self.info(aliased).alias;
            if a != 0 {
                aliased = a;
            }
            for r in std::iter::once(alias_reg).chain(ctx.subregs(alias_reg).iter().copied()) {
                self.touch(r);
                if let Some(x) = self.info.get_mut(usize::from(r)) {
                    x.alias = aliased;
                }
            }
            if self.is_zero(rreg) {
                inst.defs[e - i - 1].writes_zero = true;
                inst.uses[i].zero = true;
            }
            let ws = &mut inst.defs[e - i - 1];
            ws.eliminated = true;
            ws.cycles_left = 0;
            if let Some(f) = self.files.get_mut(file as usize) {
                f.moves += 1;
            }
        }
        true
    }

    /// `collectWrites`: the in-flight writes a read of `reg` depends on,
    /// and the committed ones whose negative ReadAdvance is not over.
    fn collect(
        &self,
        desc: &Desc,
        use_index: u32,
        reg: u16,
        ctx: &Ctx,
    ) -> (Vec<WriteRef>, Vec<WriteRef>) {
        let mut reg = reg;
        let a = self.info(reg).alias;
        if a != 0 {
            reg = a;
        }
        let mut live = Vec::new();
        let mut committed = Vec::new();
        for r in std::iter::once(reg).chain(ctx.subregs(reg).iter().copied()) {
            let wr = self.mapping(r);
            if wr.live || wr.dead {
                live.push(wr);
            } else if wr.iid != u64::MAX {
                let adv = desc.read_advance(use_index, wr.write_res);
                if adv < 0 && self.cycle - wr.wb < u64::from(adv.unsigned_abs()) {
                    committed.push(wr);
                }
            }
        }
        if live.len() > 1 {
            live.sort_by_key(|w| (w.iid, w.def));
            live.dedup_by_key(|w| (w.iid, w.def));
        }
        (live, committed)
    }

    /// `addRegisterRead`: read `r` (of an instruction with descriptor
    /// `desc`) starts waiting for the writes of its register.
    pub fn add_read(&self, ctx: &Ctx, desc: &Desc, win: &mut Window, r: OpRef) {
        let Some(rs) = win.read_mut(r) else { return };
        if rs.independent {
            return;
        }
        let (reg, use_index) = (rs.reg, rs.use_index);
        if self.is_zero(reg) {
            rs.zero = true;
        }
        let (live, committed) = self.collect(desc, use_index, reg, ctx);
        rs.set_dependent_writes(u32::try_from(live.len() + committed.len()).unwrap_or(u32::MAX));
        for wr in live {
            if wr.dead {
                let adv = desc.read_advance(use_index, wr.write_res);
                win.start_read(r, wr.frozen.saturating_sub(adv).max(0).unsigned_abs());
                continue;
            }
            let res = win.write(wr.op()).map_or(0, |w| w.write_res);
            let adv = desc.read_advance(use_index, res);
            win.add_read_user(wr.op(), r, adv);
        }
        for wr in committed {
            let adv = u64::from(desc.read_advance(use_index, wr.write_res).unsigned_abs());
            let elapsed = self.cycle - wr.wb;
            if let Some(rs) = win.read_mut(r) {
                rs.write_start_event(u32::try_from(adv - elapsed).unwrap_or(0));
            }
        }
    }

    /// `checkRAWHazards` (in-order issue): how long a read of `reg` still
    /// waits for the writes it depends on.
    pub fn raw_hazard(
        &self,
        ctx: &Ctx,
        desc: &Desc,
        win: &Window,
        use_index: u32,
        reg: u16,
    ) -> Hazard {
        let mut h = Hazard::default();
        let (live, committed) = self.collect(desc, use_index, reg, ctx);
        for wr in live {
            let (left, res) = match win.write(wr.op()) {
                Some(ws) if wr.live => (ws.cycles_left, ws.write_res),
                _ if wr.dead => (wr.frozen, wr.write_res),
                _ => continue,
            };
            let adv = desc.read_advance(use_index, res);
            if left == super::instr::UNKNOWN {
                if !h.valid {
                    h = Hazard {
                        valid: true,
                        cycles_left: super::instr::UNKNOWN,
                    };
                }
                continue;
            }
            let left = left - adv;
            if left > 0 && h.cycles_left < left {
                h = Hazard {
                    valid: true,
                    cycles_left: left,
                };
            }
        }
        for wr in committed {
            let adv = i64::from(desc.read_advance(use_index, wr.write_res));
            let left = -adv - (self.cycle - wr.wb) as i64;
            let left = i32::try_from(left).unwrap_or(i32::MAX);
            if h.cycles_left < left {
                h = Hazard {
                    valid: true,
                    cycles_left: left,
                };
            }
        }
        h
    }

    /// Appends the state to `out` for the steady-state search: writers
    /// relative to source index `base`, write-back ages clipped at `clip`
    /// (the largest negative ReadAdvance: older ones no longer matter).
    pub fn encode(&self, base: u64, clip: u64, out: &mut Vec<u64>) {
        for f in &self.files {
            out.push(u64::from(f.used));
        }
        out.push(self.dirty.len() as u64);
        for &r in &self.dirty {
            let m = self.mapping(r);
            let i = self.info(r);
            let age = if clip == 0 {
                0
            } else {
                (self.cycle - m.wb.min(self.cycle)).min(clip)
            };
            let who = if m.iid == u64::MAX {
                u64::MAX
            } else if m.live {
                base.wrapping_sub(m.iid) << 16 | u64::from(m.def)
            } else if m.dead {
                u64::MAX - 2 - u64::from(m.frozen as u32)
            } else {
                u64::MAX - 1
            };
            out.extend([
                u64::from(r) << 32 | u64::from(i.alias) << 1 | u64::from(self.is_zero(r)),
                who,
                age << 32 | u64::from(if m.live { 0 } else { m.write_res }),
            ]);
        }
    }
}
