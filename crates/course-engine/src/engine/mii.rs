//! Resource and recurrence bounds: usage per resource, ResMII, RecMII with
//! its critical recurrence, MII (Lesson 23.6), RThroughput (Definition 23.1.10) and
//! the bound of Theorem 23.1.12.
//!
//! RecMII is `⌈λ*⌉` where `λ* = max_Z ℓ(Z)/d(Z)` over dependence cycles.
//! We find `λ*` and a cycle attaining it with Howard's policy iteration for
//! the maximum cycle ratio, in exact integer arithmetic, one strongly
//! connected component at a time: no enumeration of circuits, of which a
//! loop can have exponentially many. [`brute_force_max_ratio`] enumerates
//! elementary circuits and exists to check the fast algorithm on small loops.
//!
//! ```
//! use course_engine::{model::machine::Machine, model::program, engine::mii};
//! let m = Machine::toy();
//! let src = "loop l\na: r1 = load [x + r2]\nb: r2 = add r1, 1\n";
//! let p = program::parse(src, "l.txt", &m).unwrap();
//! let rec = mii::critical_recurrence(&p).unwrap();
//! assert_eq!((rec.latency, rec.distance), (4, 1)); // a → b (3), b → a (1, d = 1)
//! assert_eq!(mii::analyze(&p, &m).mii, 4);
//! ```

use crate::model::ids::{OpId, ResourceId};
use crate::model::machine::Machine;
use crate::model::program::Program;
use crate::util::ratio::Ratio;

/// `U_r` for every resource (issue first), counted from the reservation
/// tables with multiplicity (Definition 23.1.2).
pub fn usage(p: &Program, m: &Machine) -> Vec<u64> {
    let mut per_class = vec![0u64; m.classes().len()];
    for op in p.ops() {
        per_class[op.class.index()] += 1;
    }
    m.resource_ids()
        .map(|r| {
            m.class_ids()
                .map(|c| per_class[c.index()] * m.class(c).usage(r))
                .sum()
        })
        .collect()
}

/// A dependence cycle with its total latency and distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recurrence {
    /// Edge indices into `Program::edges`, in cycle order.
    pub edges: Vec<u32>,
    /// ℓ: the sum of the edges' latencies.
    pub latency: u64,
    /// d: the sum of the edges' iteration distances.
    pub distance: u64,
}

impl Recurrence {
    /// `ℓ(Z)/d(Z)`.
    pub fn ratio(&self) -> Ratio {
        Ratio::new(self.latency, self.distance)
    }

    /// The operations visited, starting with the lowest-numbered one.
    pub fn ops(&self, p: &Program) -> Vec<OpId> {
        self.edges
            .iter()
            .map(|&e| p.edges()[e as usize].from)
            .collect()
    }

    /// `a → b → a`.
    pub fn path_string(&self, p: &Program) -> String {
        let mut names: Vec<&str> = self.ops(p).iter().map(|&o| p.label(o)).collect();
        if let Some(first) = names.first().copied() {
            names.push(first);
        }
        names.join(" → ")
    }

    /// Rotates so the cycle starts at its lowest operation id.
    fn normalized(mut self, p: &Program) -> Recurrence {
        if let Some(pos) = self
            .edges
            .iter()
            .enumerate()
            .min_by_key(|&(_, &e)| p.edges()[e as usize].from)
            .map(|(i, _)| i)
        {
            self.edges.rotate_left(pos);
        }
        self
    }
}

/// Everything the bounds say about a block or loop body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// `U_r` per resource, issue first.
    pub usage: Vec<u64>,
    /// ResMII: `max_r ⌈U_r / cap(r)⌉` (Lesson 23.6).
    pub res_mii: u64,
    /// A resource that attains RThroughput (a unit rather than issue on ties).
    pub res_bottleneck: ResourceId,
    /// A dependence cycle attaining RecMII, when there is one.
    pub recurrence: Option<Recurrence>,
    /// 0 when the loop has no recurrence.
    pub rec_mii: u64,
    /// MII: `max(ResMII, RecMII)` (Lesson 23.6).
    pub mii: u64,
    /// `max_r U_r / cap(r)`, the issue pseudo-resource (μ/W) included.
    pub rthroughput: Ratio,
    /// `max(RThroughput, max ℓ/d)` (Theorem 23.1.12).
    pub bound: Ratio,
}

impl Bounds {
    /// Every resource whose `U_r / cap(r)` attains RThroughput, in machine
    /// order (the issue pseudo-resource first).
    pub fn bottlenecks(&self, m: &Machine) -> Vec<ResourceId> {
        m.resource_ids()
            .filter(|r| {
                Ratio::new(self.usage[r.index()], u64::from(m.resource(*r).capacity))
                    == self.rthroughput
            })
            .collect()
    }
}

impl Bounds {
    /// The critical recurrence as the views print it,
    /// `c → d → e → c: ℓ = 7, d = 2, ⌈7/2⌉ = 4`, or `none (…)`.
    pub fn recurrence_text(&self, p: &Program) -> String {
        match &self.recurrence {
            Some(r) => format!(
                "{}: ℓ = {}, d = {}, ⌈{}/{}⌉ = {}",
                r.path_string(p),
                r.latency,
                r.distance,
                r.latency,
                r.distance,
                r.ratio().ceil()
            ),
            None => "none (no dependence cycle)".into(),
        }
    }

    /// The serializable form of the bounds (labels and resource names
    /// instead of ids, fractions as `5/2`).
    pub fn info(&self, p: &Program, m: &Machine) -> BoundsInfo {
        BoundsInfo {
            bound: self.bound.fraction_string(),
            critical_recurrence: self.recurrence.as_ref().map(|r| RecurrenceInfo {
                distance: r.distance,
                latency: r.latency,
                ops: r.ops(p).iter().map(|&o| p.label(o).to_string()).collect(),
            }),
            mii: self.mii,
            rec_mii: self.rec_mii,
            res_mii: self.res_mii,
            rthroughput: self.rthroughput.fraction_string(),
            usage: m
                .resource_ids()
                .map(|r| UsageInfo {
                    capacity: m.resource(r).capacity,
                    resource: m.resource(r).name.clone(),
                    usage: self.usage[r.index()],
                })
                .collect(),
        }
    }
}

/// [`Bounds`] as data: what `course analyze --format json` prints. Fields
/// are declared in alphabetical order, the order JSON objects print their
/// keys in.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BoundsInfo {
    /// The Theorem 23.1.12 bound `max(RThroughput, max ℓ/d)`, as a fraction.
    pub bound: String,
    /// A dependence cycle attaining RecMII, when there is one.
    pub critical_recurrence: Option<RecurrenceInfo>,
    /// MII: `max(ResMII, RecMII)` (Lesson 23.6).
    pub mii: u64,
    /// RecMII: `max ⌈ℓ/d⌉` over dependence cycles, 0 without one.
    pub rec_mii: u64,
    /// ResMII: `max_r ⌈U_r / cap(r)⌉`.
    pub res_mii: u64,
    /// `max_r U_r / cap(r)` (Definition 23.1.10), as a fraction.
    pub rthroughput: String,
    /// `U_r` per resource, issue first (Definition 23.1.2).
    pub usage: Vec<UsageInfo>,
}

/// A recurrence as data: its operations' labels, latency and distance.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RecurrenceInfo {
    /// d: the total iteration distance.
    pub distance: u64,
    /// ℓ: the total latency.
    pub latency: u64,
    /// The labels in cycle order, starting with the first in the source.
    pub ops: Vec<String>,
}

/// One resource's usage as data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UsageInfo {
    /// `cap(r)` (Definition 23.1.1).
    pub capacity: u32,
    /// The resource's name.
    pub resource: String,
    /// `U_r` of the body (Definition 23.1.2).
    pub usage: u64,
}

/// ResMII, RecMII, MII, RThroughput and the Theorem 23.1.12 bound.
pub fn analyze(p: &Program, m: &Machine) -> Bounds {
    let usage = usage(p, m);
    let mut rthroughput = Ratio::int(0);
    let mut res_bottleneck = ResourceId(0);
    for r in m.resource_ids() {
        let q = Ratio::new(usage[r.index()], u64::from(m.resource(r).capacity));
        // On ties prefer a real unit over the issue pseudo-resource.
        if q > rthroughput || (q == rthroughput && res_bottleneck == ResourceId(0)) {
            rthroughput = q;
            res_bottleneck = r;
        }
    }
    let res_mii = rthroughput.ceil();
    let recurrence = critical_recurrence(p);
    let rec_ratio = recurrence.as_ref().map_or(Ratio::int(0), Recurrence::ratio);
    let rec_mii = rec_ratio.ceil();
    Bounds {
        usage,
        res_mii,
        res_bottleneck,
        recurrence,
        rec_mii,
        mii: res_mii.max(rec_mii).max(1),
        rthroughput,
        bound: rthroughput.max(rec_ratio),
    }
}

/// Strongly connected components (iterative Tarjan) over all edges; returns
/// the component of each node and the number of components. Components are
/// numbered in the order Tarjan completes them, so every edge between two
/// components goes from a higher number to a lower one.
pub fn sccs(p: &Program) -> (Vec<u32>, u32) {
    let succ: Vec<Vec<u32>> = p
        .succs()
        .iter()
        .map(|s| s.iter().map(|&e| p.edges()[e as usize].to.0).collect())
        .collect();
    sccs_of(&succ)
}

/// [`sccs`] of a graph given by the successors of each node.
pub fn sccs_of(succs: &[Vec<u32>]) -> (Vec<u32>, u32) {
    let n = succs.len();
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut next_index = 0u32;
    let mut ncomp = 0u32;
    let mut call: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        call.push((root, 0));
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            let succ = &succs[v as usize];
            if *i < succ.len() {
                let w = succ[*i];
                *i += 1;
                if index[w as usize] == NONE {
                    index[w as usize] = next_index;
                    low[w as usize] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u as usize] = low[u as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp[w as usize] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    (comp, ncomp)
}

/// The most Howard iterations per component before we fall back to a
/// binary search (never seen in practice; kept so the bound is explicit).
const HOWARD_ROUNDS: usize = 100_000;

/// A dependence cycle with the largest `ℓ/d`, or `None` without cycles.
pub fn critical_recurrence(p: &Program) -> Option<Recurrence> {
    critical_recurrence_with(p, |e| e.latency)
}

/// [`critical_recurrence`] with the latency of each edge given by
/// `latency` (a simulator that treats some dependences differently, such
/// as llvm-mca's memory ordering, bounds itself with its own latencies).
pub fn critical_recurrence_with(
    p: &Program,
    latency: impl Fn(&crate::model::program::Edge) -> u32,
) -> Option<Recurrence> {
    let edges: Vec<GraphEdge> = p
        .edges()
        .iter()
        .map(|e| GraphEdge {
            from: e.from.0,
            to: e.to.0,
            latency: latency(e),
            distance: e.distance,
        })
        .collect();
    max_cycle_ratio(p.len(), &edges).map(|r| r.normalized(p))
}

/// An edge of a dependence graph: from, to, latency ℓ, iteration
/// distance d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    /// The producer.
    pub from: u32,
    /// The consumer.
    pub to: u32,
    /// ℓ.
    pub latency: u32,
    /// d.
    pub distance: u32,
}

/// The cycle with the largest `ℓ/d` of a graph of `n` nodes (Theorem
/// 23.1.12's recurrence bound), by Howard's policy iteration per strongly
/// connected component; its `edges` index `edges`. `None` without cycles.
/// Every cycle must have a positive distance.
pub fn max_cycle_ratio(n: usize, edges: &[GraphEdge]) -> Option<Recurrence> {
    let mut succs: Vec<Vec<u32>> = vec![Vec::new(); n];
    for e in edges {
        succs[e.from as usize].push(e.to);
    }
    let (comp, ncomp) = sccs_of(&succs);
    // Group the edges inside each component.
    let mut comp_edges: Vec<Vec<u32>> = vec![Vec::new(); ncomp as usize];
    for (i, e) in edges.iter().enumerate() {
        let c = comp[e.from as usize];
        if c == comp[e.to as usize] {
            comp_edges[c as usize].push(i as u32);
        }
    }
    let mut best: Option<Recurrence> = None;
    for within in comp_edges.iter().filter(|e| !e.is_empty()) {
        let found = howard(edges, within);
        if best.as_ref().is_none_or(|b| found.ratio() > b.ratio()) {
            best = Some(found);
        }
    }
    best
}

/// An edge of one component in its local numbering: `(from, to, ℓ, d,
/// the edge's index in the program)`.
type LocalEdge = (usize, usize, i128, i128, u32);

/// Howard's policy iteration for the largest `ℓ/d` (the recurrence bound of
/// Theorem 23.1.12) on one strongly connected component given by
/// its internal edges. Values are kept as integers scaled by the reduced
/// denominator of their cycle ratio, so all comparisons are exact.
fn howard(all: &[GraphEdge], edges: &[u32]) -> Recurrence {
    let (le, m) = local_edges(all, edges);
    let mut policy = initial_policy(&le, m);
    let mut lam: Vec<(i128, i128)> = vec![(0, 1); m];
    let mut val: Vec<i128> = vec![0; m];
    let mut cycle_of: Vec<usize> = vec![0; m];
    let mut cycles: Vec<Recurrence> = Vec::new();
    for _round in 0..HOWARD_ROUNDS {
        determine_values(&le, &policy, &mut lam, &mut val, &mut cycle_of, &mut cycles);
        if !improve_policy(&le, &mut policy, &lam, &val) {
            break;
        }
    }
    cycles
        .into_iter()
        .max_by(|a, b| a.ratio().cmp(&b.ratio()))
        .unwrap_or(Recurrence {
            edges: Vec::new(),
            latency: 0,
            distance: 1,
        })
}

/// The component's edges with its nodes numbered `0..m`, and `m`.
fn local_edges(all: &[GraphEdge], edges: &[u32]) -> (Vec<LocalEdge>, usize) {
    let mut nodes: Vec<u32> = edges
        .iter()
        .flat_map(|&e| [all[e as usize].from, all[e as usize].to])
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    let local = |g: u32| nodes.binary_search(&g).unwrap_or(0);
    let le: Vec<LocalEdge> = edges
        .iter()
        .map(|&e| {
            let ed = &all[e as usize];
            (
                local(ed.from),
                local(ed.to),
                i128::from(ed.latency),
                i128::from(ed.distance),
                e,
            )
        })
        .collect();
    (le, nodes.len())
}

/// The initial policy: each node's out-edge with the largest latency.
fn initial_policy(le: &[LocalEdge], m: usize) -> Vec<usize> {
    let mut policy: Vec<usize> = vec![usize::MAX; m];
    for (i, &(u, _, l, _, _)) in le.iter().enumerate() {
        if policy[u] == usize::MAX || l > le[policy[u]].2 {
            policy[u] = i;
        }
    }
    policy
}

/// Value determination: follows the policy from every node to its cycle,
/// records each new cycle in `cycles`, and gives every node the ratio
/// `lam` of the cycle it reaches and its value `val` relative to it.
fn determine_values(
    le: &[LocalEdge],
    policy: &[usize],
    lam: &mut [(i128, i128)],
    val: &mut [i128],
    cycle_of: &mut [usize],
    cycles: &mut Vec<Recurrence>,
) {
    let m = policy.len();
    cycles.clear();
    let mut color = vec![0u8; m];
    let mut path: Vec<usize> = Vec::new();
    for start in 0..m {
        if color[start] != 0 {
            continue;
        }
        path.clear();
        let mut v = start;
        while color[v] == 0 {
            color[v] = 1;
            path.push(v);
            v = le[policy[v]].1;
        }
        let mut upto = path.len();
        if color[v] == 1 {
            // A new cycle: v … back to v.
            let pos = path.iter().position(|&x| x == v).unwrap_or(0);
            let cyc = &path[pos..];
            let (mut sl, mut sd) = (0i128, 0i128);
            for &x in cyc {
                sl += le[policy[x]].2;
                sd += le[policy[x]].3;
            }
            let sd = sd.max(1); // distance-0 cycles are rejected by the parser
            let g = gcd(sl, sd).max(1);
            let (pn, qd) = (sl / g, sd / g);
            let id = cycles.len();
            cycles.push(Recurrence {
                edges: cyc.iter().map(|&x| le[policy[x]].4).collect(),
                latency: sl as u64,
                distance: sd as u64,
            });
            val[v] = 0;
            lam[v] = (pn, qd);
            cycle_of[v] = id;
            color[v] = 2;
            for &x in cyc[1..].iter().rev() {
                let (_, t, l, d, _) = le[policy[x]];
                lam[x] = (pn, qd);
                val[x] = l * qd - pn * d + val[t];
                cycle_of[x] = id;
                color[x] = 2;
            }
            upto = pos;
        }
        for &x in path[..upto].iter().rev() {
            let (_, t, l, d, _) = le[policy[x]];
            let (pn, qd) = lam[t];
            lam[x] = (pn, qd);
            val[x] = l * qd - pn * d + val[t];
            cycle_of[x] = cycle_of[t];
            color[x] = 2;
        }
    }
}

/// Policy improvement, first on ratios, then on values; false when the
/// policy is optimal and did not change.
fn improve_policy(
    le: &[LocalEdge],
    policy: &mut [usize],
    lam: &[(i128, i128)],
    val: &[i128],
) -> bool {
    let m = policy.len();
    let cmp = |a: (i128, i128), b: (i128, i128)| (a.0 * b.1).cmp(&(b.0 * a.1));
    let mut changed = false;
    let mut best_lam: Vec<Option<(usize, (i128, i128))>> = vec![None; m];
    for (i, &(u, v, _, _, _)) in le.iter().enumerate() {
        if cmp(lam[v], lam[u]).is_gt() && best_lam[u].is_none_or(|(_, b)| cmp(lam[v], b).is_gt()) {
            best_lam[u] = Some((i, lam[v]));
        }
    }
    for (u, b) in best_lam.iter().enumerate() {
        if let Some((i, _)) = b {
            policy[u] = *i;
            changed = true;
        }
    }
    if !changed {
        let mut best_val: Vec<Option<(usize, i128)>> = vec![None; m];
        for (i, &(u, v, l, d, _)) in le.iter().enumerate() {
            if cmp(lam[v], lam[u]).is_eq() {
                let (pn, qd) = lam[u];
                let cand = l * qd - pn * d + val[v];
                if cand > val[u] && best_val[u].is_none_or(|(_, b)| cand > b) {
                    best_val[u] = Some((i, cand));
                }
            }
        }
        for (u, b) in best_val.iter().enumerate() {
            if let Some((i, _)) = b {
                policy[u] = *i;
                changed = true;
            }
        }
    }
    changed
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The result of enumerating circuits, for tests and benchmarks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// `max ℓ/d` over all elementary circuits, if any.
    pub best: Option<Ratio>,
    /// How many circuits were enumerated.
    pub circuits: u64,
    /// False when `limit` circuits were reached before the end.
    pub complete: bool,
}

/// Enumerates elementary circuits (each simple cycle once, rooted at its
/// smallest node; parallel edges give distinct circuits) and returns the
/// largest `ℓ/d`. Exponential: the reference the fast algorithm is checked
/// against, and the approach LLVM's MachinePipeliner takes.
pub fn brute_force_max_ratio(p: &Program, limit: u64) -> Enumeration {
    let n = p.len();
    let mut out = Enumeration {
        best: None,
        circuits: 0,
        complete: true,
    };
    let mut on_path = vec![false; n];
    for s in 0..n {
        // DFS over nodes ≥ s, with an explicit stack of (node, next edge).
        let mut stack: Vec<(usize, usize, u64, u64)> = vec![(s, 0, 0, 0)];
        on_path[s] = true;
        while let Some(&mut (v, ref mut i, l, d)) = stack.last_mut() {
            let succ = &p.succs()[v];
            if *i >= succ.len() {
                on_path[v] = false;
                stack.pop();
                continue;
            }
            let e = &p.edges()[succ[*i] as usize];
            *i += 1;
            let w = e.to.index();
            let (l2, d2) = (l + u64::from(e.latency), d + u64::from(e.distance));
            if w == s {
                out.circuits += 1;
                let r = Ratio::new(l2, d2.max(1));
                if out.best.is_none_or(|b| r > b) {
                    out.best = Some(r);
                }
                if out.circuits >= limit {
                    out.complete = false;
                    on_path.iter_mut().for_each(|x| *x = false);
                    return out;
                }
            } else if w > s && !on_path[w] {
                on_path[w] = true;
                stack.push((w, 0, l2, d2));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::program::parse;

    fn prog(src: &str) -> Program {
        parse(src, "t.txt", &Machine::toy()).unwrap()
    }

    #[test]
    fn two_recurrences_pick_the_larger_ratio() {
        // b→b: 1/1; chain c→d→e→c: 3 + 3 + 1 over distance 2 = 7/2.
        let p = prog(
            "loop l\nb: r2 = add r2, 1\nc: r3 = load [x + r5@2]\nd: r4 = mul r3, 2\ne: r5 = add r4, 1\n",
        );
        let rec = critical_recurrence(&p).unwrap();
        assert_eq!(rec.ratio(), Ratio::new(7, 2));
        assert_eq!(rec.path_string(&p), "c → d → e → c");
        let b = analyze(&p, &Machine::toy());
        assert_eq!(b.rec_mii, 4);
        assert_eq!(brute_force_max_ratio(&p, 1000).best, Some(Ratio::new(7, 2)));
    }

    #[test]
    fn running_block_bounds() {
        let p = prog(include_str!(
            "../../../../labs/ch23-sched/inputs/running.txt"
        ));
        let m = Machine::toy();
        let b = analyze(&p, &m);
        // issue 10/2, alu 3/2, mem 5/1, mul 2/1
        assert_eq!(b.usage, vec![10, 3, 5, 2]);
        assert_eq!(b.rthroughput, Ratio::int(5));
        assert_eq!(b.res_mii, 5);
        assert!(b.recurrence.is_none());
        assert_eq!(b.mii, 5);
    }
}
