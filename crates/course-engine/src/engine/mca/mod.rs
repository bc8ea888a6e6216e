//! An llvm-mca-style cycle simulation of a machine model (Algorithm 23.1.11).
//!
//! The body of a [`Program`] runs `N` times back to back. Each cycle the
//! simulator retires executed instances in order from the reorder buffer,
//! issues dispatched instances whose operands are ready and whose whole
//! reservation table fits, and dispatches up to `W` micro-ops into a buffer
//! of `micro_op_buffer_size` micro-ops (Definition 23.1.8). A buffer size
//! of 0 is an in-order core: an instance never issues before an older one.
//!
//! Operand readiness comes from the program's edges, whose latencies
//! already are `max(0, L_w − a)` (Proposition 23.1.9); an edge with distance
//! `d` makes instance `j` wait for instance `j − d` of its producer
//! (Definition 23.1.10).
//!
//! Memory does not grow with `N`: the simulation keeps a ring of issue
//! cycles large enough to cover the reorder buffer plus the longest
//! distance, a sliding [`WindowTable`](crate::engine::rtable::WindowTable)
//! of resource bookings, and the timeline of the first few iterations
//! only.
//!
//! Timing conventions (those of llvm-mca's timeline): an instance
//! dispatched in cycle `D` issues at `I ≥ D + 1`, executes during
//! `I … I + lat − 1`, is executed (its result visible) at `X = I + lat`, and
//! retires at `R ≥ X + 1`. Total Cycles is the last `R` plus one.
//!
//! ```
//! use course_engine::{model::machine::Machine, engine::mca, model::program};
//! let m = Machine::toy();
//! let p = program::parse("block t\na: r1 = load [x]\nb: r2 = add r1, 1\n", "t", &m).unwrap();
//! let r = mca::simulate(&p, &m, &mca::Options { iterations: 1, timeline_iterations: 1 }).unwrap();
//! // load issues at 1, its result is ready at 4, the add issues then.
//! assert_eq!(r.timeline[1].issue, 4);
//! assert_eq!(r.total_cycles, 7);
//! ```

use crate::engine::mii;
use crate::model::ids::{Cycle, OpId, ResourceId};
use crate::model::machine::{ISSUE, Machine};
use crate::model::program::{Edge, EdgeKind, Program};
use crate::util::ratio::Ratio;

pub mod bottleneck;
mod inorder;
mod ooo;
pub mod pipeline;
mod ports;
mod steady;

/// The most iterations a simulation accepts: far beyond any useful run,
/// and small enough that instance indices and cycles never overflow.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;

/// The most simulated instructions (iterations × body size).
pub const MAX_INSTRUCTIONS: u64 = 10_000_000_000;

/// The most instances a timeline records (timeline iterations × body
/// size): a million lines of view, where a simulation stays flat in memory.
pub const MAX_TIMELINE: u64 = 1_000_000;

/// llvm-mca's default `-timeline-max-iterations`.
pub const DEFAULT_TIMELINE_ITERATIONS: u64 = 10;

/// The widest timeline llvm-mca prints (`-timeline-max-cycles`).
pub const TIMELINE_MAX_CYCLES: Cycle = 80;

/// What to simulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `N`: how many times the body runs.
    pub iterations: u64,
    /// How many leading iterations the timeline records.
    pub timeline_iterations: u64,
}

/// Why a simulation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum McaError {
    /// The loop body is empty.
    #[error("the body has no instructions")]
    Empty,
    /// The iteration count is outside `1..=MAX_ITERATIONS`.
    #[error("--iterations must be between 1 and {MAX_ITERATIONS}, got {0}")]
    Iterations(u64),
    /// Iterations times instructions exceed `MAX_INSTRUCTIONS`.
    #[error(
        "{0} iterations of {1} instructions exceed the limit of {MAX_INSTRUCTIONS} simulated instructions"
    )]
    TooMany(u64, u64),
    /// The timeline would record more than `MAX_TIMELINE` instances.
    #[error(
        "a timeline of {0} iterations of {1} instructions exceeds the limit of {MAX_TIMELINE} lines: lower --timeline-max-iterations"
    )]
    Timeline(u64, u64),
    /// The in-flight window the simulation needs exceeds `MAX_RING` slots.
    #[error(
        "the model and loop need {0} in-flight instance slots (buffer, latencies, distances), more than the {MAX_RING} the simulator keeps"
    )]
    TooWide(u64),
}

/// The most in-flight instance slots a simulation may keep: the ring is
/// sized by the machine's buffer and latencies and the loop's distances,
/// which all come from user files.
pub const MAX_RING: u64 = 1 << 24;

/// The life of one recorded instance (timeline view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The iteration (0-based) the instance belongs to.
    pub iteration: u64,
    /// Index of the operation in the body.
    pub op: usize,
    /// The cycle the instance entered the reorder buffer.
    pub dispatch: Cycle,
    /// The cycle it was issued to its resources.
    pub issue: Cycle,
    /// The cycle its result is visible (`issue + lat`).
    pub executed: Cycle,
    /// The cycle it retired (in order, after it executed).
    pub retire: Cycle,
}

/// The timeline being recorded: the lives of the instances of the first
/// `kept` iterations, in retirement order.
struct Timeline {
    kept: u64,
    stamps: Vec<Stamp>,
}

impl Timeline {
    /// Room for `kept` iterations of `b` operations (the product is at most
    /// [`MAX_TIMELINE`], checked before a simulation starts).
    fn new(kept: u64, b: u64) -> Timeline {
        Timeline {
            kept,
            stamps: Vec::with_capacity((kept * b) as usize),
        }
    }

    /// Records operation `op` of `iteration`, dispatched and issued at those
    /// cycles, of latency `latency`, retired at `retire`, when the iteration
    /// is one the timeline keeps.
    #[inline]
    fn retired(
        &mut self,
        iteration: u64,
        op: u32,
        (dispatch, issue): (Cycle, Cycle),
        latency: Cycle,
        retire: Cycle,
    ) {
        if iteration < self.kept {
            self.stamps.push(Stamp {
                iteration,
                op: op as usize,
                dispatch,
                issue,
                executed: issue + latency,
                retire,
            });
        }
    }
}

/// The outcome of [`simulate`], with llvm-mca's summary fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// How many times the body was simulated (`N`).
    pub iterations: u64,
    /// Instructions simulated: `N` times the body length.
    pub instructions: u64,
    /// Cycles until the last instance retired (llvm-mca's Total Cycles).
    pub total_cycles: u64,
    /// Micro-ops simulated (llvm-mca's Total uOps).
    pub total_uops: u64,
    /// Micro-ops dispatched per cycle at most: the issue width `W` (Definition 23.1.8's IssueWidth).
    pub dispatch_width: u32,
    /// Definition 23.1.10 (μ/W and every resource).
    pub block_rthroughput: Ratio,
    /// The Theorem 23.1.12 bound `max(RThr, max ℓ/d)`.
    pub bound: Ratio,
    /// Stamps of the first `timeline_iterations` iterations, in stream order.
    pub timeline: Vec<Stamp>,
    /// The largest number of instances the reorder buffer held at once.
    pub peak_in_flight: u64,
    /// Cycles booked on each resource kind by each operation over the whole
    /// run, `[op][resource]` flattened (groups stay 0: their micro-ops are
    /// counted on the member that served them).
    pub booked: Vec<u64>,
    /// Iterations the run moved over by extrapolating a repeated state
    /// instead of simulating them (0 in a full run); every other field is
    /// the same either way.
    pub extrapolated_iterations: u64,
}

impl Report {
    /// Micro-ops per cycle (llvm-mca's uOps Per Cycle).
    pub fn uops_per_cycle(&self) -> f64 {
        self.total_uops as f64 / self.total_cycles.max(1) as f64
    }

    /// Instructions per cycle (llvm-mca's IPC).
    pub fn ipc(&self) -> f64 {
        self.instructions as f64 / self.total_cycles.max(1) as f64
    }

    /// Simulated cycles per iteration, `C(N)/N`.
    pub fn cycles_per_iteration(&self) -> f64 {
        self.total_cycles as f64 / self.iterations.max(1) as f64
    }

    /// The last column of the timeline grid (Algorithm 23.1.11's view):
    /// as llvm-mca's TimelineView, the latest cycle below
    /// [`TIMELINE_MAX_CYCLES`] at which any recorded instance was
    /// dispatched, issued, executed or retired. When the cap cuts the
    /// timeline short, an instance retiring past it may still have issued
    /// or executed later than every retirement before the cap, so the
    /// latest retirement alone would make the grid too narrow.
    pub fn timeline_last_cycle(&self) -> Cycle {
        self.timeline
            .iter()
            .flat_map(|t| [t.dispatch, t.issue, t.executed, t.retire])
            .filter(|&c| c < TIMELINE_MAX_CYCLES)
            .max()
            .unwrap_or(0)
    }
}

/// The issue cycle of an instance not issued yet.
const NOT_ISSUED: Cycle = Cycle::MAX;

/// Whether an instance issued at `issue` ([`NOT_ISSUED`] if it has not)
/// with latency `latency` has executed before `cycle`, so it may retire.
fn executed_before(issue: Cycle, latency: Cycle, cycle: Cycle) -> bool {
    issue != NOT_ISSUED && issue + latency < cycle
}

/// Algorithm 23.1.11 on `p` (its body, `opts.iterations` times) and `m`:
/// llvm-mca's out-of-order pipeline when the machine has a micro-op buffer,
/// in-order issue when it has none. The out-of-order run takes both
/// [`Shortcuts`]; its report is the one [`simulate_full`] gives.
pub fn simulate(p: &Program, m: &Machine, opts: &Options) -> Result<Report, McaError> {
    simulate_with(p, m, opts, Shortcuts::ALL)
}

/// [`simulate`] cycle by cycle to the end, with no shortcut: the reference
/// the shortcuts are tested against.
pub fn simulate_full(p: &Program, m: &Machine, opts: &Options) -> Result<Report, McaError> {
    simulate_with(p, m, opts, Shortcuts::NONE)
}

/// How an out-of-order run may save work without changing its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shortcuts {
    /// Jump over cycles in which nothing can change: no instance
    /// dispatched, the ready ones all wait for busy units, so the next
    /// cycle that matters is the first in which an operand becomes ready,
    /// a unit frees or the oldest instance can retire.
    pub skip: bool,
    /// Once the state repeats relative to the cycle and the iteration,
    /// skip whole periods (the `steady` module).
    pub extrapolate: bool,
}

impl Shortcuts {
    /// Both shortcuts.
    pub const ALL: Shortcuts = Shortcuts {
        skip: true,
        extrapolate: true,
    };
    /// Neither: every cycle is simulated.
    pub const NONE: Shortcuts = Shortcuts {
        skip: false,
        extrapolate: false,
    };
}

/// [`simulate`] with the shortcuts given (an in-order run takes none).
pub fn simulate_with(
    p: &Program,
    m: &Machine,
    opts: &Options,
    shortcuts: Shortcuts,
) -> Result<Report, McaError> {
    if m.micro_op_buffer_size() == 0 {
        inorder::simulate_in_order(p, m, opts)
    } else {
        ooo::simulate(p, m, opts, shortcuts)
    }
}

/// How loads are ordered against older stores, as llvm-mca's load/store
/// unit does it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoryOrder {
    /// llvm-mca's default (`-noalias=true`): a load passes every older
    /// store; only stores stay behind older loads and stores.
    #[default]
    NoAlias,
    /// `-noalias=false`: a load waits until the youngest older store has
    /// executed (every store is assumed to write what the load reads).
    Conservative,
}

/// `p` with the memory dependences llvm-mca's load/store unit keeps on a
/// machine with a micro-op buffer (the lab's may-alias pairs into loads
/// replaced by `order`'s rule; memory edges into stores kept, as the
/// simulation orders stores itself); `None` when that is `p` itself (a
/// machine without a buffer keeps the lab's rule: in-order issue).
pub fn llvm_memory(p: &Program, m: &Machine, order: MemoryOrder) -> Option<Program> {
    if m.micro_op_buffer_size() == 0 {
        return None;
    }
    let is_load = |i: usize| {
        let op = &p.ops()[i];
        op.reads_memory()
    };
    let into_load = |e: &Edge| e.kind == EdgeKind::Mem && is_load(e.to.index());
    if order == MemoryOrder::NoAlias && !p.edges().iter().any(into_load) {
        return None;
    }
    let mut edges: Vec<Edge> = p
        .edges()
        .iter()
        .filter(|e| !into_load(e))
        .copied()
        .collect();
    if order == MemoryOrder::Conservative {
        let n = p.len();
        if let Some(last) = (0..n).rev().find(|&i| p.ops()[i].writes_memory()) {
            // Each load after the youngest older store: earlier in this
            // iteration, else the last of the previous one.
            let mut youngest = None;
            for j in 0..n {
                if is_load(j) {
                    let (s, d) = youngest.map_or((last, 1), |s| (s, 0));
                    edges.push(Edge {
                        from: OpId::from_index(s),
                        to: OpId::from_index(j),
                        latency: m.class(p.ops()[s].class).latency,
                        distance: d,
                        kind: EdgeKind::Mem,
                    });
                }
                if p.ops()[j].writes_memory() {
                    youngest = Some(j);
                }
            }
        }
    }
    Some(p.with_edges(edges))
}

/// The latency the out-of-order simulation gives a dependence: register
/// edges as written (Proposition 23.1.9), memory edges into a load (a
/// store it may read) as written, memory edges into a store 0 (llvm-mca
/// only keeps stores in order behind older memory operations).
pub fn simulated_latency(p: &Program, e: &Edge) -> u32 {
    match e.kind {
        EdgeKind::Mem if p.op(e.to).writes_memory() => 0,
        _ => e.latency,
    }
}

/// The dependence cycle with the largest `ℓ/d` under the latencies the
/// simulation uses (in-order runs: the program's own).
pub fn recurrence(p: &Program, m: &Machine) -> Option<mii::Recurrence> {
    if m.micro_op_buffer_size() == 0 {
        mii::critical_recurrence(p)
    } else {
        mii::critical_recurrence_with(p, |e| simulated_latency(p, e))
    }
}

/// Block RThroughput (Definition 23.1.10) and the Theorem 23.1.12 bound the
/// simulation of `p` on `m` can never beat.
fn bounds(p: &Program, m: &Machine) -> (Ratio, Ratio) {
    let rthroughput = mii::analyze(p, m).rthroughput;
    let rec = recurrence(p, m).map_or(Ratio::int(0), |z| z.ratio());
    (rthroughput, rthroughput.max(rec))
}

/// The checks every run makes first: a body, a sane count. Returns the
/// number of simulated instructions.
fn check_counts(p: &Program, opts: &Options) -> Result<u64, McaError> {
    let b = p.len() as u64;
    if b == 0 {
        return Err(McaError::Empty);
    }
    let n = opts.iterations;
    if n == 0 || n > MAX_ITERATIONS {
        return Err(McaError::Iterations(n));
    }
    let rec = opts.timeline_iterations.min(n);
    if rec.saturating_mul(b) > MAX_TIMELINE {
        return Err(McaError::Timeline(rec, b));
    }
    n.checked_mul(b)
        .filter(|&t| t <= MAX_INSTRUCTIONS)
        .ok_or(McaError::TooMany(n, b))
}

/// One row of the instruction-info view (llvm-mca's `--instruction-tables`).
#[derive(Clone, Debug, PartialEq)]
pub struct InstrInfo {
    /// Micro-ops of the class (LLVM's NumMicroOps).
    pub uops: u32,
    /// The class latency `lat(o)` (Definition 23.1.1), the largest write latency.
    pub latency: u32,
    /// The latency through the class's largest ReadAdvance (llvm-mca's
    /// "Bypass Latency").
    pub bypass_latency: u32,
    /// llvm-mca's reciprocal throughput: the largest cycles / units over
    /// the resources booked and every group that contains them; `uops / W`
    /// for a class that books nothing.
    pub rthroughput: Ratio,
    /// The booked resources and their groups with cycles, in machine order.
    pub resources: Vec<(ResourceId, u32)>,
    /// Whether the instruction reads memory.
    pub may_load: bool,
    /// Whether the instruction writes memory.
    pub may_store: bool,
}

/// The instruction-info view of every operation.
pub fn instruction_info(p: &Program, m: &Machine) -> Vec<InstrInfo> {
    p.ops()
        .iter()
        .map(|op| {
            let c = m.class(op.class);
            let resources = m.expanded_uses(op.class);
            let rthroughput = resources
                .iter()
                .map(|&(r, n)| Ratio::new(u64::from(n), u64::from(m.resource(r).capacity)))
                .max()
                .unwrap_or_else(|| Ratio::new(u64::from(c.uops), u64::from(m.issue_width())));
            let advance = c
                .reads
                .iter()
                .map(|e| e.cycles)
                .chain(std::iter::once(c.read_advance))
                .max()
                .unwrap_or(0);
            InstrInfo {
                uops: c.uops,
                latency: c.latency,
                bypass_latency: c.latency.saturating_sub(advance),
                rthroughput,
                resources,
                may_load: op.reads_memory(),
                may_store: op.writes_memory(),
            }
        })
        .collect()
}

/// Resource pressure: cycles per iteration on every resource kind (groups
/// and `issue` left out), in total and per instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Pressure {
    /// The kinds shown, in machine order.
    pub resources: Vec<ResourceId>,
    /// Cycles per iteration per kind.
    pub per_iteration: Vec<f64>,
    /// `[instruction][kind]`.
    pub per_instruction: Vec<Vec<f64>>,
}

fn pressure_kinds(m: &Machine) -> Vec<ResourceId> {
    m.resource_ids()
        .filter(|&r| r != ISSUE && !m.resource(r).is_group())
        .collect()
}

fn totals(per_instruction: &[Vec<f64>], n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| per_instruction.iter().map(|row| row[i]).sum())
        .collect()
}

/// The pressure a simulation measured: cycles each kind was booked, per
/// iteration (a group's micro-op counts on the member that served it).
pub fn simulated_pressure(p: &Program, m: &Machine, r: &Report) -> Pressure {
    let resources = pressure_kinds(m);
    let nres = m.resources().len();
    let n = r.iterations.max(1) as f64;
    let per_instruction: Vec<Vec<f64>> = (0..p.len())
        .map(|i| {
            resources
                .iter()
                .map(|&k| r.booked[i * nres + k.index()] as f64 / n)
                .collect()
        })
        .collect();
    Pressure {
        per_iteration: totals(&per_instruction, resources.len()),
        resources,
        per_instruction,
    }
}

/// The pressure the model implies without simulating (llvm-mca's
/// `--instruction-tables`): a kind booked directly takes all its cycles, a
/// group spreads them over its members in proportion to their units.
pub fn resource_pressure(p: &Program, m: &Machine) -> Pressure {
    let resources = pressure_kinds(m);
    let per_instruction: Vec<Vec<f64>> = p
        .ops()
        .iter()
        .map(|op| {
            let mut row = vec![0.0; resources.len()];
            for (r, n) in m.class(op.class).uses() {
                let res = m.resource(r);
                let spread: Vec<(ResourceId, f64)> = if res.is_group() {
                    res.members
                        .iter()
                        .map(|&k| {
                            (
                                k,
                                f64::from(n) * f64::from(m.resource(k).capacity)
                                    / f64::from(res.capacity),
                            )
                        })
                        .collect()
                } else {
                    vec![(r, f64::from(n))]
                };
                for (k, v) in spread {
                    if let Some(i) = resources.iter().position(|&x| x == k) {
                        row[i] += v;
                    }
                }
            }
            row
        })
        .collect();
    Pressure {
        per_iteration: totals(&per_instruction, resources.len()),
        resources,
        per_instruction,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::program::parse;

    /// Simulates `src` for `n` iterations on `m` (the in-order tests too).
    pub(super) fn run(src: &str, m: &Machine, n: u64) -> Report {
        let p = parse(src, "t", m).unwrap();
        simulate(
            &p,
            m,
            &Options {
                iterations: n,
                timeline_iterations: 2,
            },
        )
        .unwrap()
    }

    #[test]
    fn refuses_absurd_counts() {
        let m = Machine::toy();
        let p = parse("block t\na: r1 = add r0, 1\n", "t", &m).unwrap();
        let o = |n| Options {
            iterations: n,
            timeline_iterations: 0,
        };
        assert_eq!(simulate(&p, &m, &o(0)), Err(McaError::Iterations(0)));
        assert!(simulate(&p, &m, &o(MAX_ITERATIONS + 1)).is_err());
        // A timeline is refused before anything is sized by it, on both
        // simulators; the largest one allowed is recorded.
        let wide = Options {
            iterations: MAX_ITERATIONS,
            timeline_iterations: u64::MAX,
        };
        assert_eq!(
            simulate(&p, &m, &wide),
            Err(McaError::Timeline(MAX_ITERATIONS, 1))
        );
        let ooo = Machine::from_yaml(
            "issue_width: 2\nmicro_op_buffer_size: 8\nresources:\n  - { name: alu, capacity: 2 }\nclasses:\n  - { name: alu, latency: 1, opcodes: [add], unit: alu }\n",
            "ooo.yaml",
        )
        .unwrap();
        let q = parse("block t\na: r1 = add r0, 1\n", "t", &ooo).unwrap();
        assert_eq!(
            simulate(&q, &ooo, &wide),
            Err(McaError::Timeline(MAX_ITERATIONS, 1))
        );
        let most = Options {
            iterations: MAX_TIMELINE,
            timeline_iterations: MAX_TIMELINE,
        };
        assert_eq!(
            simulate(&p, &m, &most).unwrap().timeline.len() as u64,
            MAX_TIMELINE
        );
    }

    #[test]
    fn carried_chain_runs_at_its_latency() {
        let m = Machine::toy().with_micro_op_buffer_size(64);
        // r1 = mul r1 (lat 3, distance 1): 3 cycles per iteration.
        let r = run("loop t\na: r1 = mul r1, r1\nb: r2 = add r2, 1\n", &m, 100);
        assert!(
            r.total_cycles >= 300 && r.total_cycles <= 306,
            "{}",
            r.total_cycles
        );
        // Instance 1 of a issues exactly 3 cycles after instance 0.
        let a: Vec<&Stamp> = r.timeline.iter().filter(|s| s.op == 0).collect();
        assert_eq!(a[1].issue - a[0].issue, 3);
    }

    #[test]
    fn state_is_flat_in_n() {
        let m = Machine::toy().with_micro_op_buffer_size(64);
        let src = "loop t\na: r1 = load [x]\nb: r2 = mul r1, r2\nc: store [y], r2\n";
        let small = run(src, &m, 1_000);
        let big = run(src, &m, 100_000);
        assert_eq!(small.peak_in_flight, big.peak_in_flight);
        assert!(big.peak_in_flight <= 64);
        // Only the requested iterations are recorded.
        assert_eq!(big.timeline.len(), 2 * 3);
    }

    #[test]
    fn the_timeline_grid_ends_at_the_last_event_below_the_cap() {
        // A chain of 14-cycle divides, two an iteration, the first of each
        // also feeding a 4-cycle multiply: the fifth divide retires at 72;
        // the multiply after the sixth issues at 71 and is executed at 75,
        // but retires only after the sixth divide, past the cap.
        let m = Machine::from_yaml(
            "issue_width: 4\nmicro_op_buffer_size: 64\nresources:\n  - { name: d, capacity: 1 }\n  - { name: f, capacity: 1 }\nclasses:\n  - { name: div, latency: 14, opcodes: [div], unit: d }\n  - { name: mul, latency: 4, opcodes: [mul], unit: f }\n",
            "chain.yaml",
        )
        .unwrap();
        let p = parse(
            "loop t\na: r1 = div r3, 1\nb: r3 = div r1, 1\nc: r2 = mul r1, 1\n",
            "t",
            &m,
        )
        .unwrap();
        let r = simulate(
            &p,
            &m,
            &Options {
                iterations: 3,
                timeline_iterations: 3,
            },
        )
        .unwrap();
        let below = |c: &Cycle| *c < TIMELINE_MAX_CYCLES;
        let last_retire = r.timeline.iter().map(|t| t.retire).filter(below).max();
        let last_executed = r.timeline.iter().map(|t| t.executed).filter(below).max();
        assert_eq!((last_retire, last_executed), (Some(72), Some(75)));
        assert_eq!(r.timeline_last_cycle(), 75);
    }
}
