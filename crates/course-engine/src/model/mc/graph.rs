//! The bounds of Theorem 23.1.12 for a kernel of resolved instructions:
//! Block RThroughput as llvm-mca computes it (`computeBlockRThroughput`,
//! Definition 23.1.10) and the recurrence bound `max ℓ/d` over the
//! register dependences of the loop body (Proposition 23.1.9's edge
//! latencies: the write's latency less the read's ReadAdvance).

use super::{Instr, Processor, RegId, Registers};
use crate::engine::mii::{GraphEdge, Recurrence, max_cycle_ratio};
use crate::util::ratio::Ratio;

/// A register dependence of the loop body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dependence {
    /// The instruction that writes.
    pub from: usize,
    /// The instruction that reads.
    pub to: usize,
    /// ℓ: cycles from the writer's issue until the reader may issue.
    pub latency: u32,
    /// d: 0 within an iteration, 1 from the previous one.
    pub distance: u32,
    /// The register read.
    pub register: RegId,
}

/// Whether two registers share a part (the same, or one inside the other).
fn overlaps(regs: &Registers, a: RegId, b: RegId) -> bool {
    a == b
        || regs.subregs.get(a as usize).is_some_and(|s| s.contains(&b))
        || regs.subregs.get(b as usize).is_some_and(|s| s.contains(&a))
}

/// Every register dependence of `kernel` run as a loop: each read depends on
/// the nearest earlier write of an overlapping register (in the same
/// iteration, else the previous one). Reads a dependency-breaking
/// instruction ignores have none.
pub fn dependences(p: &Processor, regs: &Registers, kernel: &[Instr]) -> Vec<Dependence> {
    let n = kernel.len();
    let mut out = Vec::new();
    for (j, ins) in kernel.iter().enumerate() {
        let Some(cd) = p.descs.get(ins.desc as usize) else {
            continue;
        };
        for u in ins.uses.iter().filter(|u| !u.independent) {
            let Some(rd) = cd.reads.get(u.read as usize) else {
                continue;
            };
            // Walk back over one whole iteration.
            for back in 1..=n {
                let i = (j + n - back) % n;
                let w = kernel[i]
                    .defs
                    .iter()
                    .find(|d| overlaps(regs, d.register, u.register));
                let Some(d) = w else { continue };
                let Some(pd) = p.descs.get(kernel[i].desc as usize) else {
                    break;
                };
                let Some(wd) = pd.writes.get(d.write as usize) else {
                    break;
                };
                let advance = cd.read_advance(rd.use_index, wd.write_resource);
                let lat = if d.writes_zero {
                    0
                } else {
                    (wd.latency as i64 - advance as i64).max(0) as u32
                };
                out.push(Dependence {
                    from: i,
                    to: j,
                    latency: lat,
                    distance: u32::from(back > j),
                    register: u.register,
                });
                break;
            }
        }
    }
    out
}

/// The critical recurrence of the loop body, with its dependences, if it
/// has one.
pub fn recurrence(deps: &[Dependence], n: usize) -> Option<(Recurrence, Vec<Dependence>)> {
    let edges: Vec<GraphEdge> = deps
        .iter()
        .map(|d| GraphEdge {
            from: d.from as u32,
            to: d.to as u32,
            latency: d.latency,
            distance: d.distance,
        })
        .collect();
    let r = max_cycle_ratio(n, &edges)?;
    let mut steps: Vec<Dependence> = r.edges.iter().map(|&e| deps[e as usize]).collect();
    // Start at the earliest instruction.
    if let Some(pos) = steps
        .iter()
        .enumerate()
        .min_by_key(|(_, d)| d.from)
        .map(|(k, _)| k)
    {
        steps.rotate_left(pos);
    }
    Some((r, steps))
}

/// Block RThroughput (`computeBlockRThroughput`): the largest of the
/// micro-ops over the dispatch width and, for each resource, its cycles
/// over its units; with the resource that binds (None: the dispatch width).
pub fn block_rthroughput(p: &Processor, kernel: &[Instr], width: u32) -> (Ratio, Option<usize>) {
    let mut cycles = vec![0u64; p.resources.len()];
    let mut uops = 0u64;
    for ins in kernel {
        let Some(d) = p.descs.get(ins.desc as usize) else {
            continue;
        };
        uops += u64::from(d.uops);
        for r in &d.resources {
            if let Some(c) = cycles.get_mut(r.resource as usize) {
                *c += u64::from(r.end.saturating_sub(r.begin));
            }
        }
    }
    let mut best = (Ratio::new(uops, u64::from(width.max(1))), None);
    for (i, &c) in cycles.iter().enumerate() {
        let units = u64::from(p.resources[i].units.max(1));
        let r = Ratio::new(c, units);
        if c > 0 && r > best.0 {
            best = (r, Some(i));
        }
    }
    best
}
