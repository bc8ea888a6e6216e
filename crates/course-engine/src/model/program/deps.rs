//! Dependences of a parsed program (Lesson 23.2): register flow with the
//! latencies of Proposition 23.1.9, anti dependences on values live on entry
//! to a block, memory ordering between operations that may alias, and
//! loop-carried distances.

use super::resolve::{Defs, Resolver};
use super::{Diagnostic, Edge, EdgeKind, Kind, Op};
use crate::model::ids::OpId;
use crate::model::machine::Machine;
use crate::util::name::NameMap;
use crate::util::order::stable_sort_by_key;

/// Register and memory dependences (Lesson 23.2), deduplicated per
/// `(from, to, distance)` keeping the largest latency. `defs` maps each
/// register to the operation defining it (and that operation's line); it is
/// dropped once the register edges are found, before the sort. More
/// than `max_edges` dependences are refused at the operation where the
/// count was passed, found in source order.
pub(super) fn build_edges<'t>(
    kind: Kind,
    ops: &'t [Op],
    defs: Defs<'t>,
    machine: &Machine,
    max_edges: usize,
) -> Result<Vec<Edge>, Diagnostic> {
    let mut edges: Vec<Edge> = Vec::with_capacity(ops.len() * 2);
    register_edges(kind, ops, defs, machine, &mut edges);
    let groups = memory_edges(ops, machine, max_edges, &mut edges)?;
    if kind == Kind::Loop {
        carried_memory_edges(ops, &groups, machine, max_edges, &mut edges)?;
    }
    drop(groups);
    dedup_edges(&mut edges);
    Ok(edges)
}

/// Register flow edges with the latencies of Proposition 23.1.9, and in a
/// block the anti dependences on values live on entry; `defs` is dropped
/// at the end.
fn register_edges<'t>(
    kind: Kind,
    ops: &'t [Op],
    defs: Defs<'t>,
    machine: &Machine,
    edges: &mut Vec<Edge>,
) {
    // The latency of the write of `reg` by op i (a load pair's second
    // register, a writeback base: each has its own).
    let write_lat = |i: usize, reg: &str| {
        let c = machine.class(ops[i].class);
        ops[i]
            .dest_position(reg)
            .map_or(c.latency, |k| c.write_latency(k))
    };
    let mut resolver = Resolver::new(&defs);
    for (j, op) in ops.iter().enumerate() {
        let consumer = machine.class(op.class);
        for d in op.dests() {
            // In a program that parsed, op j is the one definition of d.
            resolver.defined(d, j as u32);
        }
        // A zero idiom reads nothing (Lesson 23.1 §6): no flow and no anti
        // dependence.
        let reads = op.reg_reads().filter(|_| !consumer.zero_idiom);
        for (pos, in_address, u) in reads {
            let found = resolver.get(u.name.as_str()).map(|i| i as usize);
            let Some(i) = found else {
                continue; // live-in value
            };
            if kind == Kind::Block && i >= j {
                // A read at or before the definition reads the value live on
                // entry; a later definition must wait for it (ℓ = 0).
                if i > j {
                    edges.push(Edge {
                        from: OpId::from_index(j),
                        to: OpId::from_index(i),
                        latency: 0,
                        distance: 0,
                        kind: EdgeKind::Anti,
                    });
                }
                continue;
            }
            let distance = match (kind, u.at) {
                (Kind::Block, _) => 0,
                (Kind::Loop, Some(k)) => k,
                (Kind::Loop, None) => u32::from(i >= j),
            };
            edges.push(Edge {
                from: OpId::from_index(i),
                to: OpId::from_index(j),
                // Proposition 23.1.9: max(0, L_w − a); address registers
                // are read on time.
                latency: write_lat(i, u.name.as_str()).saturating_sub(if in_address {
                    0
                } else {
                    consumer.advance(pos, ops[i].class)
                }),
                distance,
                kind: EdgeKind::Reg,
            });
        }
    }
}

/// The latency of a memory dependence from `op`: its own latency when it
/// writes memory, 0 after a load.
#[inline]
fn memory_latency(machine: &Machine, op: &Op) -> u32 {
    if op.writes_memory() {
        machine.class(op.class).latency
    } else {
        0
    }
}

/// The refusal of more than `max_edges` dependences, at `op`.
fn too_many(op: &Op, max_edges: usize) -> Diagnostic {
    Diagnostic {
        line: op.line,
        column: 1,
        message: format!(
            "more than {max_edges} dependences: too many memory operations may alias (an address through a register aliases every other)"
        ),
    }
}

/// The memory operations seen so far: the groups of plain-symbol
/// operations in the order their symbols first appear, the operations
/// addressed through a register, and all of them, each in source order.
#[derive(Default)]
struct MemoryIndex<'t> {
    group_of: NameMap<&'t str, usize>,
    groups: Vec<Vec<usize>>,
    with_reg: Vec<usize>,
    all: Vec<usize>,
}

impl<'t> MemoryIndex<'t> {
    /// Adds operation `j`, of the plain symbol `sym` unless `through_reg`.
    #[inline]
    fn add(&mut self, j: usize, sym: &'t str, through_reg: bool) {
        self.all.push(j);
        if through_reg {
            self.with_reg.push(j);
        } else {
            let groups = &mut self.groups;
            let g = *self.group_of.entry(sym).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            self.groups[g].push(j);
        }
    }
}

/// Memory ordering within an iteration between operations that may alias
/// (the same plain symbol, or an address through a register), indexed by
/// symbol so the work is proportional to the pairs found; the groups of
/// plain-symbol operations, for [`carried_memory_edges`].
fn memory_edges(
    ops: &[Op],
    machine: &Machine,
    max_edges: usize,
    edges: &mut Vec<Edge>,
) -> Result<Vec<Vec<usize>>, Diagnostic> {
    let mut seen = MemoryIndex::default();
    for (j, op) in ops.iter().enumerate() {
        let Some(a) = op.address() else { continue };
        if edges.len() > max_edges {
            return Err(too_many(op, max_edges));
        }
        let w = op.writes_memory();
        let mut pair = |i: usize| {
            if w || ops[i].writes_memory() {
                edges.push(Edge {
                    from: OpId::from_index(i),
                    to: OpId::from_index(j),
                    latency: memory_latency(machine, &ops[i]),
                    distance: 0,
                    kind: EdgeKind::Mem,
                });
            }
        };
        let sym = a.symbol.as_deref().unwrap_or("");
        if !a.regs.is_empty() {
            for &i in &seen.all {
                pair(i);
            }
        } else {
            // The same symbol's group and every register address, merged
            // in source order (both lists are ascending, and disjoint).
            let group: &[usize] = seen.group_of.get(sym).map_or(&[], |&g| &seen.groups[g]);
            let with_reg = &seen.with_reg;
            let (mut x, mut y) = (0, 0);
            while x < group.len() || y < with_reg.len() {
                let i = if y == with_reg.len() || (x < group.len() && group[x] < with_reg[y]) {
                    x += 1;
                    group[x - 1]
                } else {
                    y += 1;
                    with_reg[y - 1]
                };
                pair(i);
            }
        }
        seen.add(j, sym, !a.regs.is_empty());
    }
    Ok(seen.groups)
}

/// Loop-carried memory ordering, only through the same plain symbol: a
/// later (or the same) operation of iteration k before an earlier one of
/// iteration k+1 (distance 1).
fn carried_memory_edges(
    ops: &[Op],
    groups: &[Vec<usize>],
    machine: &Machine,
    max_edges: usize,
    edges: &mut Vec<Edge>,
) -> Result<(), Diagnostic> {
    for group in groups {
        if edges.len() > max_edges {
            return Err(too_many(&ops[group[0]], max_edges));
        }
        for (x, &j) in group.iter().enumerate() {
            for &i in &group[x..] {
                if ops[i].writes_memory() || ops[j].writes_memory() {
                    edges.push(Edge {
                        from: OpId::from_index(i),
                        to: OpId::from_index(j),
                        latency: memory_latency(machine, &ops[i]),
                        distance: 1,
                        kind: EdgeKind::Mem,
                    });
                }
            }
        }
    }
    Ok(())
}

/// Deduplicates per (from, to, distance), keeping the first edge of the
/// largest latency: register (flow, then anti) edges come first, so they
/// win ties. Stable counting sorts, least significant key first, order
/// the edges by (from, to, distance) and keep generation order within
/// each key.
fn dedup_edges(edges: &mut Vec<Edge>) {
    let mut scratch = Vec::new();
    if edges.iter().any(|e| e.distance > 0) {
        stable_sort_by_key(edges, &mut scratch, |e| i64::from(e.distance));
    }
    stable_sort_by_key(edges, &mut scratch, |e| e.to.index() as i64);
    stable_sort_by_key(edges, &mut scratch, |e| e.from.index() as i64);
    drop(scratch);
    edges.dedup_by(|later, kept| {
        let same = (later.from, later.to, later.distance) == (kept.from, kept.to, kept.distance);
        // A flow edge also wins a tie against an anti edge on the same pair.
        let better = later.latency > kept.latency
            || (later.latency == kept.latency
                && later.kind == EdgeKind::Reg
                && kept.kind == EdgeKind::Anti);
        if same && better {
            *kept = *later;
        }
        same
    });
    edges.shrink_to_fit();
}
