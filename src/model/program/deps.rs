//! Dependences of a parsed program (Lesson 23.2): register flow with the
//! latencies of Proposition 23.1.9, memory ordering between operations that
//! may alias, and loop-carried distances.

use std::collections::HashMap;

use super::{Diagnostic, Edge, EdgeKind, Kind, Op};
use crate::model::ids::OpId;
use crate::model::machine::Machine;

/// Register and memory dependences (Lesson 23.2), deduplicated per
/// `(from, to, distance)` keeping the largest latency. `defs` maps each
/// register to the operation defining it (and that operation's line). More
/// than `max_edges` dependences are refused at the operation where the
/// count was passed, found in source order.
pub(super) fn build_edges(
    kind: Kind,
    ops: &[Op],
    defs: &HashMap<&str, (usize, u32)>,
    machine: &Machine,
    max_edges: usize,
) -> Result<Vec<Edge>, Diagnostic> {
    let mut edges: Vec<Edge> = Vec::with_capacity(ops.len() * 2);
    let lat = |i: usize| machine.class(ops[i].class).latency;
    for (j, op) in ops.iter().enumerate() {
        let consumer = machine.class(op.class);
        for (pos, in_address, u) in op.reg_reads() {
            let Some(&(i, _)) = defs.get(u.name.as_str()) else {
                continue; // live-in value
            };
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
                latency: lat(i).saturating_sub(if in_address {
                    0
                } else {
                    consumer.advance(pos, ops[i].class)
                }),
                distance,
                kind: EdgeKind::Reg,
            });
        }
    }

    // Memory: index by symbol so the work is proportional to the pairs found.
    // The groups of plain-symbol operations are kept in the order their
    // symbols first appear, so everything below runs in source order.
    let mut group_of: HashMap<&str, usize> = HashMap::new();
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
            let mut earlier: Vec<usize> = group_of
                .get(sym)
                .map(|&g| groups[g].clone())
                .unwrap_or_default();
            earlier.extend(with_reg.iter().copied());
            earlier.sort_unstable();
            for i in earlier {
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
    // largest latency: register edges come first, so they win ties. A
    // stable sort keeps generation order within each key.
    edges.sort_by_key(|e| (e.from, e.to, e.distance));
    edges.dedup_by(|later, kept| {
        let same = (later.from, later.to, later.distance) == (kept.from, kept.to, kept.distance);
        if same && later.latency > kept.latency {
            *kept = *later;
        }
        same
    });
    edges.shrink_to_fit();
    Ok(edges)
}
