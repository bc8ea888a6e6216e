//! A port of llvm-mca's default pipeline (`llvm/lib/MCA`) and of the views
//! it prints (`llvm/tools/llvm-mca/Views`), on instructions already
//! resolved against a [`Processor`] (Definition 23.1.8 at full detail).
//!
//! [`simulate`] runs `iterations` copies of a kernel through the stages of
//! `mca::Context::createDefaultPipeline` — entry, dispatch (register
//! renaming, reorder buffer), execute (scheduler, resources, load/store
//! unit), retire — cycle by cycle, in LLVM's order of events, or through
//! `InOrderIssueStage` when the processor has no micro-op buffer. Where
//! LLVM 14 and 22 differ, [`Processor::llvm`] decides. The [`views`] print
//! the [`Report`] byte for byte as llvm-mca does.
//!
//! Long runs are cheap: once the whole state of the simulator at an
//! iteration boundary repeats (relative to the cycle and instruction
//! numbering), the run jumps over whole periods and adds their totals
//! (module `steady`); every figure is the one the full simulation gives,
//! and memory does not grow with the iteration count.
//!
//! ```
//! use course_engine::engine::mca::pipeline::{self, Options};
//! use course_engine::model::mc::{Desc, Instr, ProcResource, Processor, Registers, ResourceUse};
//! let alu = ProcResource { name: "ALU".into(), units: 1, buffer_size: -1, mask: 1, ..Default::default() };
//! let p = Processor {
//!     name: "toy".into(), llvm: 22, issue_width: 2, micro_op_buffer_size: 16,
//!     resources: vec![ProcResource::default(), alu],
//!     descs: vec![Desc { uops: 1, max_latency: 1, resources: vec![ResourceUse { resource: 1, end: 1, units: 1, ..Default::default() }], used_units: 1, ..Default::default() }],
//!     ..Default::default()
//! };
//! let kernel = vec![Instr::default(), Instr::default()];
//! let r = pipeline::simulate(&p, &Registers::default(), &kernel, &Options::default()).unwrap();
//! // One ALU: one instruction a cycle, 200 of them.
//! assert_eq!(r.total_cycles, 203);
//! ```

pub mod views;

mod dispatch;
mod inorder;
mod instr;
mod lsu;
mod ooo;
mod record;
mod regfile;
mod resources;
mod scheduler;
mod steady;
mod tables;
#[cfg(test)]
mod tests;

use crate::model::mc::{Desc, Instr, Processor, Registers};
use lsu::MemOp;

pub use tables::{
    TableRow, instruction_tables, instruction_tables_with_comments, table_columns, table_rows,
};

/// llvm-mca's default `-iterations`.
pub const DEFAULT_ITERATIONS: u64 = 100;

/// llvm-mca's default `-timeline-max-iterations`.
pub const DEFAULT_TIMELINE_ITERATIONS: u64 = 10;

/// llvm-mca's default `-timeline-max-cycles`.
pub const DEFAULT_TIMELINE_MAX_CYCLES: u64 = 80;

/// The most instructions a run covers (iterations × kernel length).
pub const MAX_INSTRUCTIONS: u64 = 1 << 50;

/// The most timeline entries recorded (timeline iterations × kernel).
pub const MAX_TIMELINE: u64 = 1 << 20;

/// The most instructions in flight at once (a reorder buffer or
/// latencies no real processor has).
pub const MAX_IN_FLIGHT: usize = 1 << 20;

/// The most cycles actually simulated (extrapolated periods aside).
pub const MAX_SIMULATED_CYCLES: u64 = 1 << 30;

/// The largest latency, resource cycles or micro-op count of one
/// instruction (LLVM's models stay far below).
pub const MAX_OP_CYCLES: u32 = 1 << 16;

/// What to simulate: llvm-mca's options of the same names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Options {
    /// `-dispatch`: micro-ops dispatched per cycle (default: the
    /// processor's issue width).
    pub dispatch_width: Option<u32>,
    /// Jump over repeated periods of the steady state (on by default; the
    /// result is the same either way).
    pub extrapolate: bool,
    /// `-iterations` (0: the default, 100).
    pub iterations: u64,
    /// `-lqueue`: load queue entries (default: the processor's).
    pub load_queue_size: Option<u32>,
    /// `-noalias`: loads and stores do not alias (default true).
    pub noalias: bool,
    /// `-register-file-size`: physical registers of the default register
    /// file (default: unbounded).
    pub register_file_size: Option<u32>,
    /// `-squeue`: store queue entries (default: the processor's).
    pub store_queue_size: Option<u32>,
    /// `-timeline-max-iterations` (0: the default, 10). The steady-state
    /// search starts once these iterations retired: 1 when no timeline is
    /// printed lets long runs settle sooner.
    pub timeline_iterations: u64,
    /// `-timeline-max-cycles` (0: unlimited; default 80).
    pub timeline_max_cycles: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dispatch_width: None,
            extrapolate: true,
            iterations: DEFAULT_ITERATIONS,
            load_queue_size: None,
            noalias: true,
            register_file_size: None,
            store_queue_size: None,
            timeline_iterations: DEFAULT_TIMELINE_ITERATIONS,
            timeline_max_cycles: DEFAULT_TIMELINE_MAX_CYCLES,
        }
    }
}

impl Options {
    /// The iteration count llvm-mca runs.
    pub fn iterations(&self) -> u64 {
        if self.iterations == 0 {
            DEFAULT_ITERATIONS
        } else {
            self.iterations
        }
    }

    /// The iterations the timeline records.
    pub fn timeline_iterations(&self) -> u64 {
        let t = if self.timeline_iterations == 0 {
            DEFAULT_TIMELINE_ITERATIONS
        } else {
            self.timeline_iterations
        };
        t.min(self.iterations())
    }
}

/// One instruction of the recorded iterations, as `TimelineView` keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TimelineEntry {
    /// The first cycle it was dispatched in.
    pub dispatched: u64,
    /// The cycle it was written back.
    pub executed: u64,
    /// The cycle it issued.
    pub issued: u64,
    /// The cycle its operands were ready.
    pub ready: u64,
    /// The cycle it retired, 0 when that is at or past
    /// `-timeline-max-cycles` (as the view records it).
    pub retired: u64,
}

/// Cycles an instruction of the body waited, summed over the recorded
/// iterations (`TimelineView::WaitTimeEntry`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WaitTime {
    /// From write-back until retire.
    pub after_write_back: u64,
    /// In a scheduler queue, dispatch to issue.
    pub in_queue: u64,
    /// In a scheduler queue while ready.
    pub ready_in_queue: u64,
}

/// The outcome of [`simulate`]: what llvm-mca's views print.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// Summary's Block RThroughput (`computeBlockRThroughput`).
    pub block_rthroughput: f64,
    /// Micro-ops dispatched per cycle at most.
    pub dispatch_width: u32,
    /// Iterations the run jumped over in the steady state (0: none); no
    /// other figure depends on it.
    pub extrapolated_iterations: u64,
    /// Iterations × kernel length.
    pub instructions: u64,
    /// Iterations simulated.
    pub iterations: u64,
    /// Resource cycles used by each instruction of the kernel over the
    /// whole run, per resource unit in the pressure view's column order
    /// (`[instruction][column]`).
    pub pressure: Vec<Vec<u64>>,
    /// The timeline of the first iterations, instruction by instruction.
    pub timeline: Vec<TimelineEntry>,
    /// The last cycle the timeline shows (`TimelineView::LastCycle`).
    pub timeline_last_cycle: u64,
    /// Total Cycles.
    pub total_cycles: u64,
    /// Total uOps.
    pub total_uops: u64,
    /// Per kernel instruction, over the timeline's iterations.
    pub wait_times: Vec<WaitTime>,
}

/// Why a simulation was refused or given up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The kernel has no instructions.
    #[error("the kernel has no instructions")]
    Empty,
    /// The processor or an instruction does not hold together.
    #[error("inconsistent model: {0}")]
    Model(String),
    /// Iterations × instructions exceed [`MAX_INSTRUCTIONS`].
    #[error("{0} iterations of {1} instructions exceed the limit of {MAX_INSTRUCTIONS}")]
    TooMany(u64, u64),
    /// The timeline would exceed [`MAX_TIMELINE`] entries.
    #[error("a timeline of {0} iterations of {1} instructions exceeds {MAX_TIMELINE} entries")]
    Timeline(u64, u64),
    /// More than [`MAX_IN_FLIGHT`] instructions would be in flight.
    #[error("more than {MAX_IN_FLIGHT} instructions in flight")]
    InFlight,
    /// No instruction moved for too long (the model can never issue one).
    #[error("the simulation is stuck at cycle {0}: an instruction can never issue")]
    Stuck(u64),
    /// The run would simulate more than [`MAX_SIMULATED_CYCLES`] cycles.
    #[error("the simulation exceeds {MAX_SIMULATED_CYCLES} cycles")]
    TooLong,
}

/// One resource use of a descriptor, by mask (`InstrDesc::Resources`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Usage {
    /// The resource's mask.
    pub mask: u64,
    /// Cycles held.
    pub size: u32,
    /// Units of a group used at once.
    pub units: u32,
    /// Reserved for its cycles.
    pub reserved: bool,
}

/// A kernel instruction with what the simulator derives from it once.
pub(crate) struct Proto<'a> {
    /// The instruction.
    pub instr: &'a Instr,
    /// Its descriptor.
    pub desc: &'a Desc,
    /// Resources by mask.
    pub uses: Vec<Usage>,
    /// LLVM 14's implicitly used units.
    pub implicit: u64,
    /// Memory flags.
    pub mem: MemOp,
    /// A load or a store.
    pub memop: bool,
}

/// The processor, registers and kernel of a run, checked and indexed.
pub(crate) struct Ctx<'a> {
    /// The processor.
    pub p: &'a Processor,
    /// Its registers.
    pub regs: &'a Registers,
    /// The kernel, instruction by instruction.
    pub protos: Vec<Proto<'a>>,
    /// Kernel length.
    pub n: u64,
    /// LLVM 22 (else 14).
    pub v22: bool,
    /// Per resource index: its mask.
    pub masks: Vec<u64>,
    /// Sub-registers the register file updates (artificial ones left out
    /// on LLVM 22).
    subregs: Vec<Vec<u16>>,
    /// Per resource index: its first pressure column, `u32::MAX` for a
    /// group.
    pub column: Vec<u32>,
    /// Pressure columns (resource units).
    pub columns: usize,
    /// The largest negative ReadAdvance, in cycles (0: none).
    pub clip: u64,
}

/// `computeProcResourceMasks`.
pub(crate) fn resource_masks(p: &Processor) -> Result<Vec<u64>, SimError> {
    let n = p.resources.len();
    if n > 65 {
        return Err(SimError::Model(format!(
            "{} processor resources, more than 64",
            n - 1
        )));
    }
    let mut masks = vec![0u64; n];
    let mut bit = 0;
    for (i, r) in p.resources.iter().enumerate().skip(1) {
        if r.sub_units.is_empty() {
            masks[i] = 1 << bit;
            bit += 1;
        }
    }
    for (i, r) in p.resources.iter().enumerate().skip(1) {
        if !r.sub_units.is_empty() {
            let mut m = 1u64 << bit;
            bit += 1;
            for &s in &r.sub_units {
                let sm = masks.get(usize::from(s)).copied().ok_or_else(|| {
                    SimError::Model(format!("group {} names resource {s}", r.name))
                })?;
                m |= sm;
            }
            masks[i] = m;
        }
    }
    Ok(masks)
}

/// Resources of `d` by mask.
fn usages(d: &Desc, masks: &[u64]) -> Result<Vec<Usage>, SimError> {
    d.resources
        .iter()
        .map(|u| {
            let mask = masks
                .get(usize::from(u.resource))
                .copied()
                .filter(|&m| m != 0)
                .ok_or_else(|| SimError::Model(format!("resource {} out of range", u.resource)))?;
            Ok(Usage {
                mask,
                size: u.end.saturating_sub(u.begin),
                units: u.units,
                reserved: u.reserved,
            })
        })
        .collect()
}

impl<'a> Ctx<'a> {
    /// Checks and indexes a run.
    pub fn new(
        p: &'a Processor,
        regs: &'a Registers,
        kernel: &'a [Instr],
    ) -> Result<Ctx<'a>, SimError> {
        if kernel.is_empty() {
            return Err(SimError::Empty);
        }
        let v22 = p.llvm >= 22;
        let masks = resource_masks(p)?;
        let nregs = regs.names.len();
        let mut protos = Vec::with_capacity(kernel.len());
        let mut clip = 0u64;
        for (k, instr) in kernel.iter().enumerate() {
            let desc = p.descs.get(instr.desc as usize).ok_or_else(|| {
                SimError::Model(format!(
                    "instruction {k}: descriptor {} out of range",
                    instr.desc
                ))
            })?;
            check_operands(k, instr, desc, nregs)?;
            check_sizes(k, desc)?;
            for a in &desc.advance {
                if a.cycles < 0 {
                    clip = clip.max(u64::from(a.cycles.unsigned_abs()));
                }
            }
            let uses = usages(desc, &masks)?;
            let implicit = resources::implicit_units(&uses);
            let mem = MemOp {
                load: instr.may_load,
                store: instr.may_store,
                load_barrier: instr.load_barrier,
                store_barrier: instr.store_barrier,
            };
            protos.push(Proto {
                instr,
                desc,
                uses,
                implicit,
                mem,
                memop: instr.may_load || instr.may_store,
            });
        }
        let subregs = (0..nregs)
            .map(|r| {
                let all = regs.subregs.get(r).map_or(&[][..], Vec::as_slice);
                all.iter()
                    .copied()
                    .filter(|&s| {
                        !(v22
                            && regs
                                .artificial
                                .get(usize::from(s))
                                .copied()
                                .unwrap_or(false))
                    })
                    .filter(|&s| usize::from(s) < nregs)
                    .collect()
            })
            .collect();
        let mut column = vec![u32::MAX; p.resources.len()];
        let mut columns = 0usize;
        for (i, r) in p.resources.iter().enumerate() {
            if r.sub_units.is_empty() && r.units > 0 {
                column[i] = u32::try_from(columns).unwrap_or(u32::MAX);
                columns += r.units as usize;
            }
        }
        Ok(Ctx {
            p,
            regs,
            protos,
            n: kernel.len() as u64,
            v22,
            masks,
            subregs,
            column,
            columns,
            clip,
        })
    }

    /// The sub-registers of `reg` whose mappings the register file keeps.
    pub fn subregs(&self, reg: u16) -> &[u16] {
        self.subregs
            .get(usize::from(reg))
            .map_or(&[], Vec::as_slice)
    }

    /// Every sub-register of `reg`.
    pub fn subregs_all(&self, reg: u16) -> &[u16] {
        self.regs
            .subregs
            .get(usize::from(reg))
            .map_or(&[], Vec::as_slice)
    }

    /// Every super-register of `reg`.
    pub fn superregs(&self, reg: u16) -> &[u16] {
        self.regs
            .superregs
            .get(usize::from(reg))
            .map_or(&[], Vec::as_slice)
    }

    /// The kernel instruction at source index `idx`.
    pub fn proto(&self, idx: u64) -> &Proto<'a> {
        &self.protos[(idx % self.n) as usize]
    }
}

fn check_sizes(k: usize, d: &Desc) -> Result<(), SimError> {
    let worst = d
        .resources
        .iter()
        .map(|r| r.end)
        .chain(d.writes.iter().map(|w| w.latency))
        .chain([d.max_latency, d.uops])
        .max()
        .unwrap_or(0);
    if worst > MAX_OP_CYCLES {
        return Err(SimError::Model(format!(
            "instruction {k}: {worst} cycles or micro-ops, more than {MAX_OP_CYCLES}"
        )));
    }
    Ok(())
}

fn check_operands(k: usize, instr: &Instr, desc: &Desc, nregs: usize) -> Result<(), SimError> {
    let bad = |what: &str| Err(SimError::Model(format!("instruction {k}: {what}")));
    for d in &instr.defs {
        if usize::from(d.register) >= nregs.max(1) && d.register != 0 {
            return bad("a written register is out of range");
        }
        if usize::from(d.write) >= desc.writes.len() {
            return bad("a write names no descriptor write");
        }
    }
    for u in &instr.uses {
        if usize::from(u.register) >= nregs.max(1) && u.register != 0 {
            return bad("a read register is out of range");
        }
        if usize::from(u.read) >= desc.reads.len() {
            return bad("a read names no descriptor read");
        }
    }
    Ok(())
}

/// Simulates `opts.iterations()` iterations of `kernel` on `p` as llvm-mca's
/// default pipeline does.
pub fn simulate(
    p: &Processor,
    regs: &Registers,
    kernel: &[Instr],
    opts: &Options,
) -> Result<Report, SimError> {
    let ctx = Ctx::new(p, regs, kernel)?;
    let iterations = opts.iterations();
    let total = iterations
        .checked_mul(ctx.n)
        .filter(|&t| t <= MAX_INSTRUCTIONS)
        .ok_or(SimError::TooMany(iterations, ctx.n))?;
    let t = opts.timeline_iterations();
    if t.saturating_mul(ctx.n) > MAX_TIMELINE {
        return Err(SimError::Timeline(t, ctx.n));
    }
    let width = opts
        .dispatch_width
        .filter(|&w| w != 0)
        .unwrap_or(p.issue_width)
        .max(1);
    let run = if p.micro_op_buffer_size == 0 {
        inorder::run(&ctx, opts, total)?
    } else {
        ooo::run(&ctx, opts, total, width)?
    };
    Ok(Report {
        block_rthroughput: block_rthroughput(&ctx, width, &run.rec),
        dispatch_width: width,
        extrapolated_iterations: run.skipped / ctx.n,
        instructions: total,
        iterations,
        pressure: run.rec.pressure_rows(),
        timeline: run.rec.timeline,
        timeline_last_cycle: run.rec.last_cycle,
        total_cycles: run.cycles,
        total_uops: run.rec.uops * iterations,
        wait_times: run.rec.waits,
    })
}

/// `computeBlockRThroughput` over the first iteration's instructions that
/// retired, as `SummaryView` counts them.
fn block_rthroughput(ctx: &Ctx, width: u32, rec: &record::Recorder) -> f64 {
    let mut max = rec.uops as f64 / f64::from(width);
    for (i, &c) in rec.usage.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let units = ctx.p.resources[i].units;
        max = max.max(c as f64 / f64::from(units));
    }
    max
}

/// What a pipeline run hands back to [`simulate`].
pub(crate) struct Run {
    /// Total Cycles.
    pub cycles: u64,
    /// Instructions jumped over.
    pub skipped: u64,
    /// The views' records.
    pub rec: record::Recorder,
}
