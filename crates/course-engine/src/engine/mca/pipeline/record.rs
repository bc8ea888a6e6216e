//! What the views hear of a run (`HWInstructionEvent`s), kept as
//! `TimelineView` and `ResourcePressureView` keep it: the cycles of the
//! first iterations, wait times, and the resource cycles of every issue.

use super::resources::Used;
use super::{Ctx, TimelineEntry, WaitTime};

/// The records of a run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorder {
    /// Entries of the recorded iterations, by source index.
    pub timeline: Vec<TimelineEntry>,
    /// Whether each entry was dispatched yet.
    seen: Vec<bool>,
    /// `TimelineView::LastCycle`.
    pub last_cycle: u64,
    /// `-timeline-max-cycles` (`u64::MAX`: none).
    max_cycle: u64,
    /// Wait times per kernel instruction.
    pub waits: Vec<WaitTime>,
    /// Resource cycles, `[instruction * columns + column]`.
    pub pressure: Vec<u64>,
    /// Micro-ops of the first iteration's instructions that retired
    /// (`SummaryView::NumMicroOps`).
    pub uops: u64,
    /// Their resource cycles by resource index
    /// (`SummaryView::ProcResourceUsage`).
    pub usage: Vec<u64>,
    columns: usize,
    n: u64,
}

impl Recorder {
    /// Records `t` iterations of a kernel of `ctx`.
    pub fn new(ctx: &Ctx, t: u64, max_cycles: u64) -> Recorder {
        let len = (t * ctx.n) as usize;
        Recorder {
            timeline: vec![TimelineEntry::default(); len],
            seen: vec![false; len],
            last_cycle: 0,
            max_cycle: if max_cycles == 0 {
                u64::MAX
            } else {
                max_cycles
            },
            waits: vec![WaitTime::default(); ctx.n as usize],
            pressure: vec![0; ctx.n as usize * ctx.columns],
            uops: 0,
            usage: vec![0; ctx.p.resources.len()],
            columns: ctx.columns,
            n: ctx.n,
        }
    }

    /// Whether events of `idx` still matter to the timeline.
    pub fn tracks(&self, idx: u64) -> bool {
        idx < self.timeline.len() as u64
    }

    fn entry(&mut self, idx: u64, cycle: u64) -> Option<&mut TimelineEntry> {
        if !self.tracks(idx) {
            return None;
        }
        if cycle < self.max_cycle {
            self.last_cycle = self.last_cycle.max(cycle);
        }
        self.timeline.get_mut(idx as usize)
    }

    /// A dispatch event (several for an instruction dispatched over
    /// several cycles: the first counts).
    pub fn dispatched(&mut self, idx: u64, cycle: u64) {
        if self.entry(idx, cycle).is_some() && !self.seen[idx as usize] {
            self.seen[idx as usize] = true;
            self.timeline[idx as usize].dispatched = cycle;
        }
    }

    /// A ready event.
    pub fn ready(&mut self, idx: u64, cycle: u64) {
        if let Some(e) = self.entry(idx, cycle) {
            e.ready = cycle;
        }
    }

    /// An issue event with the pipes used.
    pub fn issued(&mut self, idx: u64, cycle: u64, ctx: &Ctx, used: &[Used]) {
        if let Some(e) = self.entry(idx, cycle) {
            e.issued = cycle;
        }
        let row = (idx % self.n) as usize * self.columns;
        for u in used {
            let col = ctx
                .column
                .get(usize::from(u.resource))
                .copied()
                .unwrap_or(u32::MAX);
            if col == u32::MAX {
                continue;
            }
            if let Some(c) = self.pressure.get_mut(row + (col + u.unit) as usize) {
                *c += u64::from(u.cycles);
            }
        }
    }

    /// A write-back event.
    pub fn executed(&mut self, idx: u64, cycle: u64) {
        if let Some(e) = self.entry(idx, cycle) {
            e.executed = cycle;
        }
    }

    /// A retire event: the summary counts the first iteration's
    /// instructions, the timeline adds up wait times.
    pub fn retired(&mut self, idx: u64, cycle: u64, ctx: &Ctx) {
        if idx < self.n {
            let d = ctx.proto(idx).desc;
            self.uops += u64::from(d.uops);
            for r in &d.resources {
                if let Some(u) = self.usage.get_mut(usize::from(r.resource)) {
                    *u += u64::from(r.end.saturating_sub(r.begin));
                }
            }
        }
        let max = self.max_cycle;
        let n = self.n;
        let Some(e) = self.entry(idx, cycle) else {
            return;
        };
        if cycle < max {
            e.retired = cycle;
        }
        let e = *e;
        let w = &mut self.waits[(idx % n) as usize];
        w.in_queue += e.issued.wrapping_sub(e.dispatched);
        w.ready_in_queue += e.issued.wrapping_sub(e.ready);
        if cycle > e.executed {
            w.after_write_back += cycle - 1 - e.executed;
        }
    }

    /// Adds `times` × (`now` − `then`) to the pressure (the periods a run
    /// jumps over).
    pub fn add_periods(&mut self, then: &[u64], times: u64) {
        for (c, &t) in self.pressure.iter_mut().zip(then) {
            *c += (*c - t) * times;
        }
    }

    /// The pressure by instruction.
    pub fn pressure_rows(&self) -> Vec<Vec<u64>> {
        self.pressure
            .chunks(self.columns.max(1))
            .map(<[u64]>::to_vec)
            .collect()
    }
}
