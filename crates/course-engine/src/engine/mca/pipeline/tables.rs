//! `--instruction-tables`: the instruction-info view and the resource
//! pressure the scheduling model implies, without simulating
//! (`mca::InstructionTables`): a resource's cycles are spread evenly over
//! its units, a group's over the units of its members.

use super::views::{Frac, info_view, pressure_view};
use crate::model::mc::{Instr, Processor};

/// The pressure columns of each resource (`u32::MAX`: a group).
fn columns(p: &Processor) -> (Vec<u32>, usize) {
    let mut column = vec![u32::MAX; p.resources.len()];
    let mut n = 0usize;
    for (i, r) in p.resources.iter().enumerate() {
        if !r.is_group() && r.units > 0 {
            column[i] = u32::try_from(n).unwrap_or(u32::MAX);
            n += r.units as usize;
        }
    }
    (column, n)
}

/// `InstructionTables::execute` for every instruction of `kernel`:
/// `[instruction][column]` and the total per column.
fn usage(p: &Processor, kernel: &[Instr]) -> (Vec<Vec<Frac>>, Vec<Frac>) {
    let (column, ncols) = columns(p);
    let mut rows = vec![vec![Frac::default(); ncols]; kernel.len()];
    let mut total = vec![Frac::default(); ncols];
    for (k, instr) in kernel.iter().enumerate() {
        let Some(d) = p.descs.get(instr.desc as usize) else {
            continue;
        };
        let mut used: Vec<(u16, u32, Frac)> = Vec::new();
        for u in &d.resources {
            let cycles = u64::from(u.end.saturating_sub(u.begin));
            let Some(r) = p.resources.get(usize::from(u.resource)) else {
                continue;
            };
            if cycles == 0 {
                continue;
            }
            if !r.is_group() {
                for j in 0..r.units {
                    used.push((
                        u.resource,
                        j,
                        Frac {
                            num: cycles,
                            den: u64::from(r.units),
                        },
                    ));
                }
                continue;
            }
            for &s in &r.sub_units {
                let su = p.resources.get(usize::from(s)).map_or(0, |x| x.units);
                for j in 0..su {
                    let den = u64::from(r.units) * u64::from(su);
                    used.push((s, j, Frac { num: cycles, den }));
                }
            }
        }
        for (res, unit, f) in used {
            let c = column.get(usize::from(res)).copied().unwrap_or(u32::MAX);
            if c == u32::MAX {
                continue;
            }
            let c = (c + unit) as usize;
            if let (Some(cell), Some(t)) = (rows[k].get_mut(c), total.get_mut(c)) {
                cell.add(f);
                t.add(f);
            }
        }
    }
    (rows, total)
}

/// What llvm-mca prints with `--instruction-tables` (`full`: LLVM 22's
/// `--instruction-tables=full`, with bypass latency, resources and opcode
/// names; no source comments).
pub fn instruction_tables(p: &Processor, kernel: &[Instr], texts: &[String], full: bool) -> String {
    let none = vec![String::new(); kernel.len()];
    instruction_tables_with_comments(p, kernel, texts, full.then_some(&none[..]))
}

/// [`instruction_tables`] with, for `--instruction-tables=full`, the
/// comment printed after each instruction ([`super::views::source_comment`]
/// of its source line); `None`: the plain tables.
pub fn instruction_tables_with_comments(
    p: &Processor,
    kernel: &[Instr],
    texts: &[String],
    full: Option<&[String]>,
) -> String {
    let mut s = info_view(p, kernel, texts, full.filter(|_| p.llvm >= 22));
    let (rows, total) = usage(p, kernel);
    s.push_str(&pressure_view(p, texts, &rows, &total, 1.0));
    s
}

/// One instruction of `--instruction-tables` as data (the JSON output):
/// the instruction-info columns and its resource pressure.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableRow {
    /// Micro-ops.
    pub uops: u32,
    /// Latency.
    pub latency: u32,
    /// Reciprocal throughput.
    pub rthroughput: f64,
    /// May load.
    pub may_load: bool,
    /// May store.
    pub may_store: bool,
    /// Has unmodelled side effects.
    pub side_effects: bool,
    /// Cycles on each resource unit, in the order of [`table_columns`].
    pub pressure: Vec<f64>,
}

/// The resource units of the pressure columns, as llvm-mca lists them
/// (`name` of a one-unit resource, `name.k` of unit k of a larger one).
pub fn table_columns(p: &Processor) -> Vec<String> {
    let mut out = Vec::new();
    for r in p.resources.iter().skip(1) {
        if r.is_group() || r.units == 0 {
            continue;
        }
        for j in 0..r.units {
            out.push(if r.units > 1 {
                format!("{}.{j}", r.name)
            } else {
                r.name.clone()
            });
        }
    }
    out
}

/// Each instruction's row of `--instruction-tables`.
pub fn table_rows(p: &Processor, kernel: &[Instr]) -> Vec<TableRow> {
    let (rows, _) = usage(p, kernel);
    kernel
        .iter()
        .zip(rows)
        .map(|(instr, row)| {
            let info = super::views::info_row(p, instr);
            TableRow {
                uops: info.uops,
                latency: info.latency,
                rthroughput: (info.rthroughput * 100.0).round() / 100.0,
                may_load: info.load,
                may_store: info.store,
                side_effects: info.side,
                pressure: row
                    .iter()
                    .map(|f| (f.value() * 100.0).round() / 100.0)
                    .collect(),
            }
        })
        .collect()
}
