//! Steady-state extrapolation for the out-of-order run of Algorithm
//! 23.1.11. The body runs `N` times back to back, so once the pipeline has
//! filled, the simulator's state usually comes back to the same shape one
//! or a few iterations later: the same instances in flight relative to the
//! current iteration, the same busy units and operand-ready cycles relative
//! to the current cycle, the same round-robin state of every port group.
//! The run is deterministic and, away from the stream's two ends, depends
//! on nothing absolute, so from then on it is periodic: every `Δc` cycles
//! it dispatches `Δg` more instances and books the same cycles on every
//! resource again.
//!
//! At the first cycle in which the stream has reached a new iteration
//! (later: every second, fourth, … iteration, so that a run that never
//! repeats pays less and less), the state is written out relative to
//! `(cycle, first instance of that iteration)` and hashed. When a hash has
//! been seen before, `Δc` and `Δg` are the differences between the two
//! snapshots, and the candidate is checked exactly: the run goes on to
//! cycle `c + Δc`, where its state, relative to `(c + Δc, g + Δg)`, must
//! equal the later snapshot word for word. Then `k` periods are skipped at
//! once (cycles, instances and booked cycles grow by `k` times the
//! period's), leaving at least one period before the end of the stream to
//! simulate as usual, so the last iterations drain exactly as they would.
//!
//! Snapshots start once every iteration the timeline records has retired
//! (its rows are always simulated) and once no read can be of a value live
//! on entry (`r@k` reads in the first `k` iterations), the two places where
//! the run depends on absolute iteration numbers.

use std::collections::HashMap;

use crate::model::ids::Cycle;

/// Snapshots taken at one spacing before the spacing doubles.
const PER_STRIDE: u32 = 256;

/// What [`Steady`] reads and moves of the run it watches. The out-of-order
/// simulator implements it, so this file needs none of the simulator's
/// types.
pub(super) trait Periodic {
    /// The largest iteration distance of a read: from this iteration on
    /// no read is of a value live on entry.
    fn max_distance(&self) -> u64;
    /// The current cycle.
    fn cycle(&self) -> Cycle;
    /// The body length `b`.
    fn b(&self) -> u64;
    /// The instructions simulated in all.
    fn total(&self) -> u64;
    /// The oldest in-flight instance.
    fn head(&self) -> u64;
    /// The next instance to dispatch.
    fn tail(&self) -> u64;
    /// The iteration of the next instance to dispatch.
    fn tail_iter(&self) -> u64;
    /// The iterations the timeline records.
    fn kept(&self) -> u64;
    /// Booked cycles per operation and resource.
    fn booked(&self) -> &[u64];
    /// The same, to move on by whole periods.
    fn booked_mut(&mut self) -> &mut [u64];
    /// Writes the state relative to `(c, base)` into `out`.
    fn encode(&self, c: Cycle, base: u64, out: &mut Vec<i64>);
    /// Makes the state the one `data` encodes, relative to `(c, base)`.
    fn restore(&mut self, data: &[i64], c: Cycle, base: u64);
    /// Moves the last retirement `cycles` on and counts `instances` more
    /// moved over by extrapolation.
    fn moved_on(&mut self, cycles: Cycle, instances: u64);
}

/// A repeat the hashes suggest, still to be confirmed.
struct Candidate {
    /// The later snapshot: its cycle, base instance and state.
    cycle: Cycle,
    base: u64,
    state: Vec<i64>,
    /// Booked cycles per operation and resource at `cycle`.
    booked: Vec<u64>,
    /// The period: cycles and instances.
    dc: Cycle,
    dg: u64,
}

/// The repeat detector of one run.
pub(super) struct Steady {
    /// Snapshot hash → (cycle, base instance).
    seen: HashMap<u64, (Cycle, u64)>,
    /// Iterations between snapshots, and snapshots taken at it.
    stride: u64,
    taken: u32,
    /// The iteration from which the next snapshot is taken (the next
    /// multiple of `stride` past the last one).
    next_at: u64,
    /// The first iteration with no read of a live-in value.
    first_iter: u64,
    candidate: Option<Candidate>,
    scratch: Vec<i64>,
}

impl Steady {
    pub fn new(sim: &impl Periodic) -> Steady {
        Steady {
            seen: HashMap::new(),
            stride: 1,
            taken: 0,
            next_at: 0,
            first_iter: sim.max_distance(),
            candidate: None,
            scratch: Vec::new(),
        }
    }

    /// Called at the top of every simulated cycle. Returns true when the
    /// detector has finished: the run has been moved on by whole periods,
    /// or too little of it is left for that.
    pub fn at_cycle_top(&mut self, sim: &mut impl Periodic) -> bool {
        if let Some(c) = &self.candidate {
            let target = c.cycle + c.dc;
            if sim.cycle() < target {
                return false;
            }
            if sim.cycle() == target {
                sim.encode(target, c.base + c.dg, &mut self.scratch);
                if self.scratch == c.state {
                    if let Some(c) = self.candidate.take() {
                        jump(sim, &c);
                    }
                    return true;
                }
            }
            // A hash collision, or the cycle was passed over: not a period.
            self.candidate = None;
        }
        if sim.tail_iter() < self.first_iter || sim.head() < sim.kept() * sim.b() {
            return false;
        }
        if sim.total() - sim.tail() < 2 * sim.b() {
            return true;
        }
        // The next snapshot is at the next multiple of the stride: a compare
        // per cycle, no division.
        if sim.tail_iter() < self.next_at {
            return false;
        }
        self.next_at = (sim.tail_iter() / self.stride + 1) * self.stride;
        self.snapshot(sim);
        false
    }

    /// Hashes the state at an iteration's start; a hash seen before makes
    /// a candidate period.
    fn snapshot(&mut self, sim: &impl Periodic) {
        let base = sim.tail_iter() * sim.b();
        sim.encode(sim.cycle(), base, &mut self.scratch);
        let h = hash(&self.scratch);
        if let Some((c0, g0)) = self.seen.insert(h, (sim.cycle(), base)) {
            self.candidate = Some(Candidate {
                cycle: sim.cycle(),
                base,
                state: std::mem::take(&mut self.scratch),
                booked: sim.booked().to_vec(),
                dc: sim.cycle() - c0,
                dg: base - g0,
            });
        }
        self.taken += 1;
        if self.taken == PER_STRIDE {
            self.taken = 0;
            self.stride *= 2;
            self.next_at = (sim.tail_iter() / self.stride + 1) * self.stride;
        }
    }
}

/// The state at `c.cycle + c.dc` equals the one at `c.cycle` moved by one
/// period: moves the run on by as many more whole periods as leave at
/// least one before the stream ends.
fn jump(sim: &mut impl Periodic, c: &Candidate) {
    let k = ((sim.total() - sim.tail()) / c.dg).saturating_sub(1);
    if k == 0 {
        return;
    }
    for (x, &before) in sim.booked_mut().iter_mut().zip(&c.booked) {
        *x += k * (*x - before);
    }
    let dc = k as Cycle * c.dc;
    sim.moved_on(dc, k * c.dg);
    let (cycle, base) = (sim.cycle() + dc, c.base + c.dg + k * c.dg);
    sim.restore(&c.state, cycle, base);
}

/// FxHash's mixing step over the words (collisions only cost a failed
/// exact check).
fn hash(words: &[i64]) -> u64 {
    words.iter().fold(words.len() as u64, |h, &w| {
        (h.rotate_left(5) ^ w as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    })
}
