//! In-flight instructions and their register operands, as
//! `mca::Instruction`, `mca::WriteState` and `mca::ReadState` evolve them.
//!
//! Instructions live in a [`Window`] indexed by their source index (the
//! position in the stream of `iterations × body` instructions). A write
//! names the reads and the partial write that wait for it by source index
//! and operand number, where LLVM keeps pointers; a reader is always
//! younger than its writer, so it is in the window while the writer is.

use std::collections::VecDeque;

/// `UNKNOWN_CYCLES`: the latency of a write is not known before issue.
pub(super) const UNKNOWN: i32 = -512;

/// `Instruction::InstrStage`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Stage {
    /// Created, not dispatched.
    #[default]
    Invalid,
    /// Dispatched, some input latency unknown.
    Dispatched,
    /// Every input latency known, some not elapsed.
    Pending,
    /// Operands ready.
    Ready,
    /// Issued.
    Executing,
    /// Written back.
    Executed,
    /// Retired.
    Retired,
}

/// A reference to operand `op` (a def or a use) of instruction `idx`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct OpRef {
    /// Source index of the instruction.
    pub idx: u64,
    /// Def or use number within it.
    pub op: u16,
}

/// A register write of an in-flight instruction (`mca::WriteState`).
#[derive(Clone, Debug, Default)]
pub(super) struct WriteSt {
    /// The register written.
    pub reg: u16,
    /// The write's latency (`WriteDescriptor::Latency`).
    pub latency: u32,
    /// `WriteResourceID`, matched against ReadAdvance entries.
    pub write_res: u32,
    /// Cycles left before write-back, [`UNKNOWN`] before issue.
    pub cycles_left: i32,
    /// The write clears the upper part of its super-registers.
    pub clears_super: bool,
    /// The value written is zero.
    pub writes_zero: bool,
    /// Removed at register renaming (move elimination).
    pub eliminated: bool,
    /// An older write this partial write waits for (LLVM only tests the
    /// pointer against null).
    pub dependent_write: bool,
    /// Cycles before the older write of a partial update is written back.
    pub dep_cycles_left: u32,
    /// The younger partial write that waits for this one.
    pub partial_write: Option<OpRef>,
    /// Reads waiting for this write, with their ReadAdvance.
    pub users: Vec<(OpRef, i32)>,
}

impl WriteSt {
    /// `WriteState::isReady`.
    pub fn is_ready(&self) -> bool {
        if self.dependent_write {
            return false;
        }
        let c = self.dep_cycles_left;
        c == 0 || c < self.latency
    }

    /// `WriteState::getNumUsers`.
    pub fn num_users(&self) -> usize {
        self.users.len() + usize::from(self.partial_write.is_some())
    }

    /// `WriteState::writeStartEvent`: the older write of a partial update
    /// was issued.
    fn write_start_event(&mut self, cycles: u32) {
        self.dep_cycles_left = cycles;
        self.dependent_write = false;
    }

    /// `WriteState::cycleEvent`.
    fn cycle_event(&mut self) {
        if self.cycles_left != UNKNOWN {
            self.cycles_left -= 1;
        }
        if self.dep_cycles_left > 0 {
            self.dep_cycles_left -= 1;
        }
    }
}

/// A register read of an in-flight instruction (`mca::ReadState`).
#[derive(Clone, Debug, Default)]
pub(super) struct ReadSt {
    /// The register read.
    pub reg: u16,
    /// The descriptor's use index (ReadAdvance key).
    pub use_index: u32,
    /// A dependency-breaking read.
    pub independent: bool,
    /// Writes whose latency is still unknown.
    pub dependent_writes: u32,
    /// Cycles before the value can be read, [`UNKNOWN`] while some write
    /// is not issued.
    pub cycles_left: i32,
    /// The largest latency reported so far.
    pub total_cycles: u32,
    /// The value can be read.
    pub ready: bool,
    /// The register read is known to be zero.
    pub zero: bool,
}

impl ReadSt {
    /// `ReadState::isPending`.
    pub fn is_pending(&self) -> bool {
        !self.independent && self.cycles_left > 0
    }

    /// `ReadState::setDependentWrites`.
    pub fn set_dependent_writes(&mut self, n: u32) {
        self.dependent_writes = n;
        self.ready = n == 0;
    }

    /// `ReadState::writeStartEvent`: one of the writes was issued, its
    /// value is available in `cycles`.
    pub fn write_start_event(&mut self, cycles: u32) {
        self.dependent_writes = self.dependent_writes.saturating_sub(1);
        if self.total_cycles < cycles {
            self.total_cycles = cycles;
        }
        if self.dependent_writes == 0 {
            self.cycles_left = i32::try_from(self.total_cycles).unwrap_or(i32::MAX);
            self.ready = self.cycles_left == 0;
        }
    }

    /// `ReadState::cycleEvent`.
    fn cycle_event(&mut self) {
        if self.dependent_writes > 0 && self.total_cycles > 0 {
            self.total_cycles -= 1;
            return;
        }
        if self.cycles_left == UNKNOWN {
            return;
        }
        if self.cycles_left != 0 {
            self.cycles_left -= 1;
            self.ready = self.cycles_left == 0;
        }
    }
}

/// One in-flight instruction (`mca::Instruction`).
#[derive(Clone, Debug, Default)]
pub(super) struct Inst {
    /// Source index.
    pub idx: u64,
    /// Position in the body (`idx % body length`).
    pub pos: u32,
    /// Where it is in its life.
    pub stage: Stage,
    /// Cycles left before write-back once issued (`MaxLatency` at issue).
    pub cycles_left: i32,
    /// Removed at register renaming.
    pub eliminated: bool,
    /// The load/store unit's memory group (0: none).
    pub lsu_group: u64,
    /// Reorder-buffer entries it holds.
    pub rob_slots: u32,
    /// The reorder buffer saw it executed.
    pub rob_executed: bool,
    /// An operand learnt when its value comes since the instruction was
    /// last found not ready to leave the WaitSet (until then
    /// `update_dispatched` keeps failing: only such news changes it).
    pub wake: bool,
    /// Register writes.
    pub defs: Vec<WriteSt>,
    /// Register reads.
    pub uses: Vec<ReadSt>,
}

impl Inst {
    /// `Instruction::updateDispatched`.
    pub fn update_dispatched(&mut self) -> bool {
        if !self.uses.iter().all(|u| u.is_pending() || u.ready) {
            return false;
        }
        if self.defs.iter().any(|d| d.dependent_write) {
            return false;
        }
        self.stage = Stage::Pending;
        true
    }

    /// `Instruction::updatePending`.
    pub fn update_pending(&mut self) -> bool {
        if !self.uses.iter().all(|u| u.ready) {
            return false;
        }
        if !self.defs.iter().all(WriteSt::is_ready) {
            return false;
        }
        self.stage = Stage::Ready;
        true
    }

    /// `Instruction::update`.
    fn update(&mut self) {
        if self.stage == Stage::Dispatched {
            self.update_dispatched();
        }
        if self.stage == Stage::Pending {
            self.update_pending();
        }
    }

    /// `Instruction::dispatch`.
    pub fn dispatch(&mut self) {
        self.stage = Stage::Dispatched;
        self.wake = false;
        if self.update_dispatched() {
            self.update_pending();
        }
    }

    /// `Instruction::cycleEvent`.
    pub fn cycle_event(&mut self) {
        match self.stage {
            Stage::Ready => {}
            Stage::Dispatched | Stage::Pending => {
                self.uses.iter_mut().for_each(ReadSt::cycle_event);
                self.defs.iter_mut().for_each(WriteSt::cycle_event);
                self.update();
            }
            Stage::Executing => {
                self.defs.iter_mut().for_each(WriteSt::cycle_event);
                self.cycles_left -= 1;
                if self.cycles_left <= 0 {
                    self.stage = Stage::Executed;
                }
            }
            _ => {}
        }
    }

    /// `Instruction::forceExecuted`.
    pub fn force_executed(&mut self) {
        self.cycles_left = 0;
        self.stage = Stage::Executed;
    }

    /// `InstructionBase::hasDependentUsers`.
    pub fn has_dependent_users(&self) -> bool {
        self.defs.iter().any(|d| d.num_users() > 0)
    }

    /// `InstructionBase::getNumUsers`.
    pub fn num_users(&self) -> usize {
        self.defs.iter().map(WriteSt::num_users).sum()
    }
}

/// The in-flight instructions by source index: `base` is the oldest one
/// kept, slots after it are consecutive (a slot may be retired when
/// instructions retire out of order, as in-order issue does).
#[derive(Debug, Default)]
pub(super) struct Window {
    base: u64,
    slots: VecDeque<Inst>,
    pool: Vec<Inst>,
}

impl Window {
    /// The instruction with source index `idx`, if in flight.
    pub fn get(&self, idx: u64) -> Option<&Inst> {
        let off = usize::try_from(idx.checked_sub(self.base)?).ok()?;
        self.slots.get(off)
    }

    /// See [`Window::get`].
    pub fn get_mut(&mut self, idx: u64) -> Option<&mut Inst> {
        let off = usize::try_from(idx.checked_sub(self.base)?).ok()?;
        self.slots.get_mut(off)
    }

    /// Instructions in flight (retired slots included).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// The oldest instruction kept.
    pub fn front(&self) -> Option<&Inst> {
        self.slots.front()
    }

    /// Iterates from the oldest.
    pub fn iter(&self) -> impl Iterator<Item = &Inst> {
        self.slots.iter()
    }

    /// A recycled instruction for source index `idx` (its vectors keep
    /// their capacity); the caller fills it and passes it to [`Window::push`].
    pub fn fresh(&mut self) -> Inst {
        let mut i = self.pool.pop().unwrap_or_default();
        i.defs.clear();
        i.uses.clear();
        i
    }

    /// Appends `inst`, the youngest.
    pub fn push(&mut self, inst: Inst) {
        if self.slots.is_empty() {
            self.base = inst.idx;
        }
        self.slots.push_back(inst);
    }

    /// Drops retired instructions from the front.
    pub fn pop_retired(&mut self) {
        while self
            .slots
            .front()
            .is_some_and(|i| i.stage == Stage::Retired)
        {
            if let Some(mut i) = self.slots.pop_front() {
                for d in &mut i.defs {
                    d.users.clear();
                }
                self.pool.push(i);
            }
            self.base += 1;
        }
    }

    /// The write `w`.
    pub fn write(&self, w: OpRef) -> Option<&WriteSt> {
        self.get(w.idx)?.defs.get(usize::from(w.op))
    }

    /// See [`Window::write`].
    pub fn write_mut(&mut self, w: OpRef) -> Option<&mut WriteSt> {
        self.get_mut(w.idx)?.defs.get_mut(usize::from(w.op))
    }

    /// The read `r`.
    pub fn read_mut(&mut self, r: OpRef) -> Option<&mut ReadSt> {
        self.get_mut(r.idx)?.uses.get_mut(usize::from(r.op))
    }

    /// Tells read `r` that a value it waits for comes in `cycles`.
    pub fn start_read(&mut self, r: OpRef, cycles: u32) {
        if let Some(i) = self.get_mut(r.idx)
            && let Some(rs) = i.uses.get_mut(usize::from(r.op))
        {
            rs.write_start_event(cycles);
            i.wake = true;
        }
    }

    /// Tells partial write `w` that the write it merges into comes in
    /// `cycles`.
    pub fn start_write(&mut self, w: OpRef, cycles: u32) {
        if let Some(i) = self.get_mut(w.idx)
            && let Some(ws) = i.defs.get_mut(usize::from(w.op))
        {
            ws.write_start_event(cycles);
            i.wake = true;
        }
    }

    /// `WriteState::addUser(IID, ReadState*, ReadAdvance)`.
    pub fn add_read_user(&mut self, w: OpRef, r: OpRef, advance: i32) {
        let Some(ws) = self.write_mut(w) else { return };
        if ws.cycles_left == UNKNOWN {
            ws.users.push((r, advance));
            return;
        }
        let cycles = ws.cycles_left.saturating_sub(advance).max(0).unsigned_abs();
        self.start_read(r, cycles);
    }

    /// `WriteState::addUser(IID, WriteState*)`: `user` is a younger partial
    /// write of the same register.
    pub fn add_write_user(&mut self, w: OpRef, user: OpRef) {
        let Some(ws) = self.write_mut(w) else { return };
        if ws.cycles_left == UNKNOWN {
            ws.partial_write = Some(user);
            if let Some(us) = self.write_mut(user) {
                us.dependent_write = true;
            }
            return;
        }
        let cycles = ws.cycles_left.max(0).unsigned_abs();
        self.start_write(user, cycles);
    }

    /// `Instruction::execute`: issues `idx`, whose largest latency is
    /// `max_latency`, and tells every waiting read and partial write when
    /// its value comes.
    pub fn execute(&mut self, idx: u64, max_latency: u32) {
        let Some(inst) = self.get_mut(idx) else {
            return;
        };
        inst.stage = Stage::Executing;
        inst.cycles_left = i32::try_from(max_latency).unwrap_or(i32::MAX);
        let ndefs = inst.defs.len();
        for d in 0..ndefs {
            let Some(inst) = self.get_mut(idx) else {
                return;
            };
            let ws = &mut inst.defs[d];
            ws.cycles_left = i32::try_from(ws.latency).unwrap_or(i32::MAX);
            let left = ws.cycles_left;
            let users = std::mem::take(&mut ws.users);
            let partial = ws.partial_write;
            for &(r, adv) in &users {
                self.start_read(r, left.saturating_sub(adv).max(0).unsigned_abs());
            }
            if let Some(p) = partial {
                self.start_write(p, left.max(0).unsigned_abs());
            }
            if let Some(inst) = self.get_mut(idx) {
                inst.defs[d].users = users;
            }
        }
        if let Some(inst) = self.get_mut(idx)
            && inst.cycles_left == 0
        {
            inst.stage = Stage::Executed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(idx: u64, defs: usize, uses: usize) -> Inst {
        let mut i = Inst {
            idx,
            ..Inst::default()
        };
        for _ in 0..defs {
            i.defs.push(WriteSt {
                latency: 3,
                cycles_left: UNKNOWN,
                ..WriteSt::default()
            });
        }
        for _ in 0..uses {
            i.uses.push(ReadSt {
                cycles_left: UNKNOWN,
                ready: true,
                ..ReadSt::default()
            });
        }
        i
    }

    #[test]
    fn a_read_waits_for_its_write_minus_read_advance() {
        let mut w = Window::default();
        w.push(inst(0, 1, 0));
        w.push(inst(1, 0, 1));
        let r = OpRef { idx: 1, op: 0 };
        if let Some(rs) = w.read_mut(r) {
            rs.set_dependent_writes(1);
        }
        w.add_read_user(OpRef { idx: 0, op: 0 }, r, 1);
        if let Some(i) = w.get_mut(1) {
            i.dispatch();
            assert_eq!(i.stage, Stage::Dispatched);
        }
        w.execute(0, 3);
        let i = w.get_mut(1).expect("in flight");
        assert_eq!(i.uses[0].cycles_left, 2);
        i.cycle_event();
        assert_eq!(i.stage, Stage::Pending);
        i.cycle_event();
        assert_eq!(i.stage, Stage::Ready);
    }

    #[test]
    fn a_partial_write_waits_for_the_older_one() {
        let mut w = Window::default();
        w.push(inst(0, 1, 0));
        w.push(inst(1, 1, 0));
        let user = OpRef { idx: 1, op: 0 };
        w.add_write_user(OpRef { idx: 0, op: 0 }, user);
        let young = w.get_mut(1).expect("in flight");
        young.dispatch();
        assert_eq!(young.stage, Stage::Dispatched);
        w.execute(0, 3);
        let young = w.get_mut(1).expect("in flight");
        assert!(!young.defs[0].dependent_write);
        assert_eq!(young.defs[0].dep_cycles_left, 3);
        // latency 3: ready once fewer than 3 cycles are left.
        young.cycle_event();
        assert_eq!(young.stage, Stage::Ready);
    }
}
