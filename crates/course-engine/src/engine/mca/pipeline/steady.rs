//! The steady-state jump: when the whole state of the simulator at the
//! start of a cycle following an iteration boundary repeats, relative to
//! the cycle and instruction numbering, the run from there is periodic;
//! the pipeline then skips whole periods and adds their totals.
//!
//! The state is encoded canonically (instruction indices relative to the
//! next one to dispatch, memory groups to the next one to open, write-back
//! ages clipped where ReadAdvance no longer sees them) and searched for a
//! repeat with Brent's algorithm, which keeps a single earlier state.
//! Only the source's end can break the period: a jump keeps more than one
//! period of instructions before it, and the run simulates the rest.
//! Nothing is searched before the instructions the timeline records have
//! retired, so the timeline and wait times are those of the full run.

use super::Ctx;
use super::instr::{Inst, Stage, Window};
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Periods to add in one jump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Jump {
    /// Whole periods skipped.
    pub periods: u64,
    /// Instructions they hold.
    pub instructions: u64,
    /// Cycles they take.
    pub cycles: u64,
    /// The pressure one period earlier (the jump adds `periods` times the
    /// difference with now).
    pub pressure: Vec<u64>,
}

/// Where a pipeline is at an iteration boundary.
#[derive(Clone, Copy, Debug)]
pub(super) struct Point<'p> {
    /// The oldest instruction in flight.
    pub oldest: u64,
    /// The next instruction to dispatch.
    pub next: u64,
    /// Instructions in the run.
    pub total: u64,
    /// The cycle.
    pub cycle: u64,
    /// The pressure so far.
    pub pressure: &'p [u64],
    /// A digest of part of the state.
    pub quick: u64,
}

/// A state seen earlier.
struct Seen {
    quick: u64,
    state: Vec<u64>,
    hash: u64,
    cycle: u64,
    next: u64,
    pressure: Vec<u64>,
}

/// Brent's cycle search over the states at iteration boundaries.
pub(super) struct Detector {
    on: bool,
    /// States are compared once every instruction before this one retired.
    from: u64,
    power: u64,
    lam: u64,
    tortoise: Option<Seen>,
    buf: Vec<u64>,
}

impl Detector {
    /// A search (off unless `on`) that starts once the first `from`
    /// instructions retired.
    pub fn new(on: bool, ctx: &Ctx, from: u64) -> Detector {
        Detector {
            on,
            from: from.max(ctx.n),
            power: 1,
            lam: 0,
            tortoise: None,
            buf: Vec::new(),
        }
    }

    /// Looks at the state `encode` writes at `at`; returns the jump to
    /// make when it repeats an earlier one. The full state is only encoded
    /// when Brent's search keeps it or when `at.quick` matches the earlier
    /// state's (different digests mean different states).
    pub fn observe(&mut self, at: &Point, encode: impl FnOnce(&mut Vec<u64>)) -> Option<Jump> {
        let Point {
            oldest,
            next,
            total,
            cycle,
            pressure,
            quick,
        } = *at;
        if !self.on || oldest < self.from || next >= total {
            return None;
        }
        let keep = self.tortoise.is_none() || self.lam + 1 == self.power;
        if !keep && self.tortoise.as_ref().is_some_and(|t| t.quick != quick) {
            self.lam += 1;
            return None;
        }
        self.buf.clear();
        encode(&mut self.buf);
        let mut h = FxHasher::default();
        self.buf.hash(&mut h);
        let hash = h.finish();
        if let Some(t) = &mut self.tortoise
            && t.quick == quick
            && t.hash == hash
            && t.state == self.buf
        {
            self.on = false;
            let q = next - t.next;
            let periods = (total - next - 1).checked_div(q).unwrap_or(0);
            if periods == 0 {
                return None;
            }
            return Some(Jump {
                periods,
                instructions: periods * q,
                cycles: periods * (cycle - t.cycle),
                pressure: std::mem::take(&mut t.pressure),
            });
        }
        self.lam += 1;
        if self.tortoise.is_none() || self.lam == self.power {
            self.tortoise = Some(Seen {
                quick,
                state: std::mem::take(&mut self.buf),
                hash,
                cycle,
                next,
                pressure: pressure.to_vec(),
            });
            self.power *= 2;
            self.lam = 0;
        }
        None
    }
}

/// A digest of the instructions in flight (relative to `base`) for
/// [`Detector::observe`]'s `quick`.
pub(super) fn digest_window(win: &Window, base: u64) -> u64 {
    let mut h = win.len() as u64;
    for i in win.iter() {
        let x = base.wrapping_sub(i.idx)
            ^ (i.stage as u64) << 20
            ^ u64::from(i.cycles_left as u32) << 32;
        h = (h ^ x).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Appends the instructions in flight to `out`, relative to source index
/// `base` and memory group `gbase`; `clip` is the largest negative
/// ReadAdvance.
pub(super) fn encode_window(win: &Window, base: u64, gbase: u64, clip: u64, out: &mut Vec<u64>) {
    out.push(win.len() as u64);
    for i in win.iter() {
        encode_inst(i, base, gbase, clip, out);
    }
}

/// One instruction. Once issued, its reads no longer matter, nor its
/// writes' users; once executed, a write's cycles matter only down to the
/// largest negative ReadAdvance a new reader may apply.
fn encode_inst(i: &Inst, base: u64, gbase: u64, clip: u64, out: &mut Vec<u64>) {
    let group = if i.lsu_group == 0 {
        0
    } else {
        gbase.wrapping_sub(i.lsu_group)
    };
    out.extend([
        base.wrapping_sub(i.idx),
        (i.stage as u64) << 32 | u64::from(i.cycles_left as u32),
        u64::from(i.eliminated) << 1 | u64::from(i.rob_executed),
        group,
    ]);
    let floor = -i32::try_from(clip).unwrap_or(i32::MAX) - 1;
    match i.stage {
        Stage::Executing => out.extend(i.defs.iter().map(|d| u64::from(d.cycles_left as u32))),
        Stage::Executed | Stage::Retired => {
            out.extend(
                i.defs
                    .iter()
                    .map(|d| u64::from(d.cycles_left.max(floor) as u32)),
            );
        }
        _ => encode_waiting(i, base, out),
    }
}

/// An instruction not issued yet: every operand.
fn encode_waiting(i: &Inst, base: u64, out: &mut Vec<u64>) {
    for d in &i.defs {
        out.extend([
            u64::from(d.cycles_left as u32) << 32 | u64::from(d.dep_cycles_left),
            u64::from(d.dependent_write)
                | u64::from(d.writes_zero) << 1
                | u64::from(d.eliminated) << 2,
        ]);
        let p = d.partial_write.map_or(u64::MAX, |p| {
            base.wrapping_sub(p.idx) << 16 | u64::from(p.op)
        });
        out.extend([p, d.users.len() as u64]);
        for (r, adv) in &d.users {
            out.push(base.wrapping_sub(r.idx) << 16 | u64::from(r.op));
            out.push(u64::from(*adv as u32));
        }
    }
    for u in &i.uses {
        out.extend([
            u64::from(u.dependent_writes) << 32 | u64::from(u.total_cycles),
            u64::from(u.cycles_left as u32) << 2 | u64::from(u.ready) << 1 | u64::from(u.zero),
        ]);
    }
}
