//! Dependences of a parsed program (Lesson 23.2): register flow with the
//! latencies of Proposition 23.1.9, anti dependences on values live on entry
//! to a block, memory ordering between operations that may alias, and
//! loop-carried distances.

use super::parser::{Defs, Resolver};
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
    let lat = |i: usize| machine.class(ops[i].class).latency;
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

    drop(resolver);
    drop(defs);

    // Memory: index by symbol so the work is proportional to the pairs found.
    // The groups of plain-symbol operations are kept in the order their
    // symbols first appear, so everything below runs in source order.
    let mut group_of: NameMap<&str, usize> = NameMap::default();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut with_reg: Vec<usize> = Vec::new();
    let mut all_mem: Vec<usize> = Vec::new();
    let mem_lat = |i: usize| if ops[i].writes_memory() { lat(i) } else { 0 };
    let too_many = |op: &Op| {
        Diagnostic {
        line: op.line,
        column: 1,
        message: format!(
            "more than {max_edges} dependences: too many memory operations may alias (an address through a register aliases every other)"
        ),
    }
    };
    for (j, op) in ops.iter().enumerate() {
        let Some(a) = op.address() else { continue };
        if edges.len() > max_edges {
            return Err(too_many(op));
        }
        let w = op.writes_memory();
        let pair = |i: usize, edges: &mut Vec<Edge>| {
            if w || ops[i].writes_memory() {
                edges.push(Edge {
                    from: OpId::from_index(i),
                    to: OpId::from_index(j),
                    latency: mem_lat(i),
                    distance: 0,
                    kind: EdgeKind::Mem,
                });
            }
        };
        let sym = a.symbol.as_deref().unwrap_or("");
        if !a.regs.is_empty() {
            for &i in &all_mem {
                pair(i, &mut edges);
            }
        } else {
            // The same symbol's group and every register address, merged
            // in source order (both lists are ascending, and disjoint).
            let group: &[usize] = group_of.get(sym).map_or(&[], |&g| &groups[g]);
            let (mut a, mut b) = (0, 0);
            while a < group.len() || b < with_reg.len() {
                let i = if b == with_reg.len() || (a < group.len() && group[a] < with_reg[b]) {
                    a += 1;
                    group[a - 1]
                } else {
                    b += 1;
                    with_reg[b - 1]
                };
                pair(i, &mut edges);
            }
        }
        all_mem.push(j);
        if a.regs.is_empty() {
            let g = *group_of.entry(sym).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(j);
        } else {
            with_reg.push(j);
        }
    }
    if kind == Kind::Loop {
        // Across iterations only through the same plain symbol: a later (or
        // the same) operation of iteration k before an earlier one of k+1.
        for group in &groups {
            if edges.len() > max_edges {
                return Err(too_many(&ops[group[0]]));
            }
            for (x, &j) in group.iter().enumerate() {
                for &i in &group[x..] {
                    if ops[i].writes_memory() || ops[j].writes_memory() {
                        edges.push(Edge {
                            from: OpId::from_index(i),
                            to: OpId::from_index(j),
                            latency: mem_lat(i),
                            distance: 1,
                            kind: EdgeKind::Mem,
                        });
                    }
                }
            }
        }
    }

    // Deduplicate per (from, to, distance), keeping the first edge of the
    // largest latency: register (flow, then anti) edges come first, so they
    // win ties. Stable counting sorts, least significant key first, order
    // the edges by (from, to, distance) and keep generation order within
    // each key.
    let mut scratch = Vec::new();
    if edges.iter().any(|e| e.distance > 0) {
        stable_sort_by_key(&mut edges, &mut scratch, |e| i64::from(e.distance));
    }
    stable_sort_by_key(&mut edges, &mut scratch, |e| e.to.index() as i64);
    stable_sort_by_key(&mut edges, &mut scratch, |e| e.from.index() as i64);
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
    Ok(edges)
}
