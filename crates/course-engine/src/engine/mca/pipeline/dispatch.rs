//! The dispatch stage's bandwidth (`mca::DispatchStage`) and the creation
//! of an instruction instance from its kernel prototype (what
//! `EntryStage` copies out of the source manager).

use super::Ctx;
use super::instr::{Inst, ReadSt, UNKNOWN, Window, WriteSt};

/// `DispatchStage`'s counters: `width` micro-ops a cycle, and an
/// instruction wider than that carried over the next cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DispatchStage {
    /// `DispatchWidth`.
    pub width: u32,
    /// `AvailableEntries` this cycle.
    pub available: u32,
    /// Micro-ops of the carried-over instruction still to dispatch.
    pub carry_over: u32,
    /// The carried-over instruction.
    pub carried: Option<u64>,
}

impl DispatchStage {
    /// A stage dispatching `width` micro-ops a cycle.
    pub fn new(width: u32) -> DispatchStage {
        DispatchStage {
            width,
            available: width,
            carry_over: 0,
            carried: None,
        }
    }

    /// `DispatchStage::cycleStart`: returns the instruction whose
    /// dispatch goes on this cycle (views see another dispatch event).
    pub fn cycle_start(&mut self) -> Option<u64> {
        if self.carry_over == 0 {
            self.available = self.width;
            return None;
        }
        self.available = self.width.saturating_sub(self.carry_over);
        let dispatched = self.width - self.available;
        self.carry_over -= dispatched;
        let c = self.carried;
        if self.carry_over == 0 {
            self.carried = None;
        }
        c
    }

    /// The bandwidth part of `DispatchStage::isAvailable`.
    pub fn has_room(&self, uops: u32, begin_group: bool) -> bool {
        if self.available == 0 {
            return false;
        }
        if uops.min(self.width) > self.available {
            return false;
        }
        !(begin_group && self.available != self.width)
    }

    /// The bandwidth part of `DispatchStage::dispatch`.
    pub fn take(&mut self, idx: u64, uops: u32, end_group: bool) {
        if uops > self.width {
            self.available = 0;
            self.carry_over = uops - self.width;
            self.carried = Some(idx);
        } else {
            self.available -= uops;
        }
        if end_group {
            self.available = 0;
        }
    }

    /// Appends the state to `out` (steady-state search).
    pub fn encode(&self, base: u64, out: &mut Vec<u64>) {
        out.push(u64::from(self.carry_over));
        out.push(self.carried.map_or(u64::MAX, |c| base.wrapping_sub(c)));
    }
}

/// A new instance of source index `idx`: its reads and writes as
/// `InstrBuilder::createInstruction` made them.
pub(super) fn new_inst(ctx: &Ctx, win: &mut Window, idx: u64) -> Inst {
    let pos = (idx % ctx.n) as usize;
    let proto = &ctx.protos[pos];
    let mut inst = win.fresh();
    inst.idx = idx;
    inst.pos = u32::try_from(pos).unwrap_or(u32::MAX);
    inst.stage = super::instr::Stage::Invalid;
    inst.cycles_left = UNKNOWN;
    inst.eliminated = false;
    inst.lsu_group = 0;
    inst.rob_slots = 0;
    inst.rob_executed = false;
    for d in &proto.instr.defs {
        let wd = proto
            .desc
            .writes
            .get(usize::from(d.write))
            .copied()
            .unwrap_or_default();
        inst.defs.push(WriteSt {
            reg: d.register,
            latency: wd.latency,
            write_res: wd.write_resource,
            cycles_left: UNKNOWN,
            clears_super: d.clears_super,
            writes_zero: d.writes_zero,
            ..WriteSt::default()
        });
    }
    for u in &proto.instr.uses {
        let rd = proto
            .desc
            .reads
            .get(usize::from(u.read))
            .copied()
            .unwrap_or_default();
        inst.uses.push(ReadSt {
            reg: u.register,
            use_index: rd.use_index,
            independent: u.independent,
            cycles_left: UNKNOWN,
            ready: true,
            ..ReadSt::default()
        });
    }
    inst
}
