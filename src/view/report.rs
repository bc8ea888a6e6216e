//! Text and JSON views shared by the commands: the reservation table laid
//! out as in Lesson 23.1 §3, dependence lists, heights, bounds.
//!
//! Everything here returns strings or JSON values; nothing prints.

use crate::engine::mii::Bounds;
use crate::engine::rtable::GlobalTable;
use crate::model::ids::{Cycle, OpId};
use crate::model::machine::{Machine, ISSUE};
use crate::model::program::Program;
use crate::util::text::columns;

/// Runs of more empty cycles than this are folded into one line.
const EMPTY_RUN: i64 = 3;

/// The reservation table of a placement (Algorithm 23.1.4 after every Place),
/// laid out as in the worked example: `cycle · issue (2) · alu (2) · … ·
/// placed`, `.` for a free resource, the labels of the operations holding a
/// unit otherwise (a div shows in every cycle it holds the multiplier). For a
/// loop (`ii` given) the rows are the cycles modulo II.
pub fn reservation_table(p: &Program, m: &Machine, t: &[Cycle], ii: Option<u64>) -> String {
    let mut table = match ii {
        Some(ii) => GlobalTable::modulo(ii),
        None => GlobalTable::new(),
    };
    let mut order: Vec<OpId> = p.op_ids().collect();
    order.sort_by_key(|&x| (t[x.index()], x));
    let mut placed_at: std::collections::BTreeMap<Cycle, Vec<OpId>> = Default::default();
    for &x in &order {
        table.place(m, p.op(x).class, t[x.index()], Some(x));
        placed_at
            .entry(table.row(t[x.index()]))
            .or_default()
            .push(x);
    }
    let last = match ii {
        Some(ii) => ii as i64 - 1,
        None => table.last_cycle().unwrap_or(-1),
    };
    let mut header = vec![if ii.is_some() {
        "row".to_string()
    } else {
        "cycle".to_string()
    }];
    header.extend(
        m.resources()
            .iter()
            .map(|r| format!("{} ({})", r.name, r.capacity)),
    );
    header.push("placed".into());
    let mut rows = vec![header];
    let row_for = |c: Cycle| -> Vec<String> {
        let mut row = vec![c.to_string()];
        for r in m.resource_ids() {
            let cell = table.cell(r, c);
            row.push(if r == ISSUE {
                cell.map_or(0, |c| c.used).to_string()
            } else {
                match cell {
                    Some(cell) if cell.used > 0 => {
                        let names: Vec<&str> = cell.holders().map(|o| p.label(o)).collect();
                        names.join(",")
                    }
                    _ => ".".into(),
                }
            });
        }
        let placed: Vec<String> = placed_at
            .get(&c)
            .map(|v| {
                v.iter()
                    .map(|&x| {
                        let op = p.op(x);
                        match ii {
                            Some(_) if t[x.index()] != c => {
                                format!("{} ({}, cycle {})", op.label, op.opcode, t[x.index()])
                            }
                            _ => format!("{} ({})", op.label, op.opcode),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        row.push(if placed.is_empty() {
            "—".into()
        } else {
            placed.join(", ")
        });
        row
    };
    // Walk only the occupied cycles: a submitted cycle may be huge.
    let occupied = table.occupied_rows();
    let mut folded_lines: Vec<(usize, String)> = Vec::new();
    let mut next: Cycle = 0;
    for c in occupied.into_iter().chain(std::iter::once(last + 1)) {
        if c > last + 1 {
            break;
        }
        let gap = c - next;
        if gap > EMPTY_RUN {
            folded_lines.push((
                rows.len(),
                format!("⋮ {gap} empty cycles ({next}–{})", c - 1),
            ));
        } else {
            for e in next..c {
                rows.push(row_for(e));
            }
        }
        if c <= last {
            rows.push(row_for(c));
        }
        next = c + 1;
    }
    let text = columns(&rows);
    if folded_lines.is_empty() {
        return text;
    }
    // Insert the folded markers between the aligned lines.
    let mut out = String::new();
    let mut marks = folded_lines.into_iter().peekable();
    for (i, line) in text.lines().enumerate() {
        while let Some((at, _)) = marks.peek() {
            if *at != i {
                break;
            }
            if let Some((_, s)) = marks.next() {
                out.push_str(&s);
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    for (_, s) in marks {
        out.push_str(&s);
        out.push('\n');
    }
    out
}

/// `a → d (3)` lines; loop-carried edges show their distance.
pub fn edges_text(p: &Program) -> String {
    let mut rows = Vec::new();
    for e in p.edges() {
        let why = p.edge_register(e).unwrap_or("memory").to_string();
        rows.push(vec![
            format!("  {} → {}", p.label(e.from), p.label(e.to)),
            format!("ℓ = {}", e.latency),
            if e.distance > 0 {
                format!("d = {}", e.distance)
            } else {
                String::new()
            },
            why,
        ]);
    }
    if rows.is_empty() {
        return "(no dependences)\n".into();
    }
    columns(&rows)
}

/// `label height` rows.
pub fn heights_text(p: &Program, h: &[u64]) -> String {
    let rows: Vec<Vec<String>> = p
        .op_ids()
        .map(|x| {
            vec![
                format!("  {}", p.label(x)),
                h[x.index()].to_string(),
                p.op(x).text(),
            ]
        })
        .collect();
    columns(&rows)
}

/// Usage per resource with `⌈U_r / cap(r)⌉`, as in a by-hand ResMII count.
pub fn usage_text(m: &Machine, b: &Bounds) -> String {
    usage_columns(m, b, true)
}

/// Usage per resource with the exact `U_r / cap(r)` only, as RThroughput
/// takes it (Definition 23.1.10: nothing is rounded up).
pub fn usage_ratio_text(m: &Machine, b: &Bounds) -> String {
    usage_columns(m, b, false)
}

fn usage_columns(m: &Machine, b: &Bounds, ceiling: bool) -> String {
    let mut header = vec![
        "  resource".to_string(),
        "cap".into(),
        "usage U".into(),
        "U/cap".into(),
    ];
    if ceiling {
        header.push("⌈U/cap⌉".into());
    }
    let mut rows = vec![header];
    for r in m.resource_ids() {
        let u = b.usage[r.index()];
        let cap = u64::from(m.resource(r).capacity);
        let mut row = vec![
            format!("  {}", m.resource(r).name),
            cap.to_string(),
            u.to_string(),
            crate::util::ratio::Ratio::new(u, cap).fraction_string(),
        ];
        if ceiling {
            row.push(u.div_ceil(cap).to_string());
        }
        rows.push(row);
    }
    columns(&rows)
}

/// The recurrence line: `c → d → e → c: ℓ = 7, d = 2, ⌈7/2⌉ = 4`.
pub fn recurrence_text(p: &Program, b: &Bounds) -> String {
    match &b.recurrence {
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

/// The bounds as text: ResMII, RecMII, MII, RThroughput, Theorem 23.1.12.
pub fn bounds_text(p: &Program, m: &Machine, b: &Bounds) -> String {
    let mut s = String::new();
    s.push_str("Usage per resource (from the reservation tables):\n");
    s.push_str(&usage_text(m, b));
    let names: Vec<&str> = b
        .bottlenecks(m)
        .iter()
        .map(|&r| m.resource(r).name.as_str())
        .collect();
    s.push_str(&format!("ResMII = {} ({})\n", b.res_mii, names.join(", ")));
    s.push_str(&format!("Critical recurrence: {}\n", recurrence_text(p, b)));
    s.push_str(&format!("RecMII = {}\n", b.rec_mii));
    s.push_str(&format!(
        "MII = max({}, {}) = {}\n",
        b.res_mii, b.rec_mii, b.mii
    ));
    s.push_str(&format!(
        "Block RThroughput: {} (= {})\n",
        b.rthroughput.decimal1(),
        b.rthroughput.fraction_string()
    ));
    s.push_str(&format!(
        "Theorem 23.1.12 bound: {} cycles per iteration\n",
        b.bound.fraction_string()
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sched::list_schedule;
    use crate::model::program::parse;

    #[test]
    fn running_table_matches_the_lesson_rows() {
        let m = Machine::toy();
        let p = parse(crate::content::data::RUNNING_TXT, "running.txt", &m).unwrap();
        let s = list_schedule(&p, &m);
        let t = reservation_table(&p, &m, &s.cycles, None);
        let rows: Vec<Vec<&str>> = t.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(
            rows[0],
            vec!["cycle", "issue", "(2)", "alu", "(2)", "mem", "(1)", "mul", "(1)", "placed"]
        );
        let expect = [
            "0 1 . c . c (load)",
            "1 1 . a . a (load)",
            "2 1 . b . b (load)",
            "3 1 e . . e (add)",
            "4 1 . . f f (mul)",
            "5 2 . g d d (mul), g (load)",
            "6 1 . h . h (store)",
            "7 0 . . . —",
            "8 1 i . . i (sub)",
            "9 1 j . . j (add)",
        ];
        for (i, e) in expect.iter().enumerate() {
            assert_eq!(rows[i + 1].join(" "), *e);
        }
        assert_eq!(rows.len(), 11);
    }

    #[test]
    fn long_empty_runs_fold() {
        let m = Machine::toy();
        let p = parse("block b\na: r1 = li 1\nb: r2 = li 2\n", "b.txt", &m).unwrap();
        let t = reservation_table(&p, &m, &[0, 1000], None);
        assert!(t.contains("⋮ 999 empty cycles (1–999)"), "{t}");
        assert!(t.lines().count() < 6);
        let t = reservation_table(&p, &m, &[0, 1_000_000_000_000], None);
        assert!(t.contains("⋮ 999999999999 empty cycles"), "{t}");
        let t = reservation_table(&p, &m, &[0, 5], Some(1 << 40));
        assert_eq!(t.lines().count(), 5, "{t}");
    }
}
