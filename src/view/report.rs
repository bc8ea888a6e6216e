//! Text views shared by the commands: the reservation table laid out as in
//! Lesson 23.1 §3, dependence lists, heights, bounds.
//!
//! Everything here returns strings or writes to a `fmt::Write` it is given;
//! nothing prints.

use std::fmt::{self, Write as _};

use course_content::text::{Row, columns, write_columns};
use course_engine::engine::mii::Bounds;
use course_engine::engine::modulo::exact::{self, Proof};
use course_engine::engine::modulo::{IiFacts, Minimality};
use course_engine::engine::optimum;
use course_engine::model::ids::{ClassId, Cycle};
use course_engine::model::machine::{ISSUE, Machine};
use course_engine::model::program::{EdgeKind, Program};
use course_engine::util::order::{Gathered, collect_sorted, inverse, stable_sorted_by_key};

/// One reservation pair of a placed operation: the row it lands in, the
/// operation (its position in placement order), the resource and the units
/// it takes there.
#[derive(Clone, Copy, Default)]
struct Entry {
    row: Cycle,
    pos: u32,
    resource: u32,
    units: u32,
}

/// Marks a cell whose resource is used over its capacity (Definition
/// 23.1.3): `3!` under `issue (2)`, `a,d!` under `mem (1)`.
pub const OVER: char = '!';

/// Runs of more empty cycles than this are folded into one line.
const EMPTY_RUN: i64 = 3;

/// The reservation table of a placement (Algorithm 23.1.4 after every Place),
/// laid out as in the worked example: `cycle · issue (2) · alu (2) · … ·
/// placed`, `.` for a free resource, the labels of the operations holding a
/// unit otherwise (a div shows in every cycle it holds the multiplier), and
/// [`OVER`] after a cell over its capacity. For a
/// loop (`ii` given) the rows are the cycles modulo II.
pub fn reservation_table(p: &Program, m: &Machine, t: &[Cycle], ii: Option<u64>) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_reservation_table(&mut s, p, m, t, ii);
    s
}

/// [`reservation_table`] written to `w` row by row, straight from the
/// schedule: the reservation pairs of every operation, sorted by the row
/// they land in, are swept once per pass (no cell map is built).
pub fn write_reservation_table<W: fmt::Write + ?Sized>(
    w: &mut W,
    p: &Program,
    m: &Machine,
    t: &[Cycle],
    ii: Option<u64>,
) -> fmt::Result {
    let (names, cycle, class) = placement_order(p, t);
    let entries = reservation_entries(m, &cycle, &class, ii);
    drop(class);
    // The operations by the row they issue in.
    let positions: Vec<u32> = (0..cycle.len() as u32).collect();
    let placed = match ii {
        Some(_) => stable_sorted_by_key(&positions, |&k| table_row(cycle[k as usize], ii)),
        None => positions,
    };
    let last = match ii {
        Some(ii) => ii as i64 - 1,
        None => entries.last().map_or(-1, |e| e.row),
    };
    let (rows, marks) = printed_rows(&entries, last);
    let nres = m.resources().len();
    let mut sweep = Sweep {
        m,
        ii,
        names: &names,
        cycle: &cycle,
        entries: &entries,
        placed: &placed,
        rows: &rows,
        ep: 0,
        pp: 0,
        last_holder: vec![None; nres],
        units: vec![0; nres],
    };
    let mut mark = 0usize;
    write_columns(
        w,
        rows.len() + 1,
        |i, cells| sweep.fill(i, cells),
        |i, w| {
            while mark < marks.len() && marks[mark].0 <= i {
                w.write_str(&marks[mark].1)?;
                w.write_char('\n')?;
                mark += 1;
            }
            Ok(())
        },
    )
}

/// The row cycle `c` lands in: `c` modulo II for a loop, `c` for a block.
#[inline]
fn table_row(c: Cycle, ii: Option<u64>) -> Cycle {
    match ii {
        Some(ii) => c.rem_euclid(ii.max(1) as i64),
        None => c,
    }
}

/// Placement order: issue cycle, then source order. The labels and
/// opcodes (parts 0 and 1), the cycles and the classes are gathered into
/// that order once, so the two passes over the rows read them in sequence.
fn placement_order(p: &Program, t: &[Cycle]) -> (Gathered, Vec<Cycle>, Vec<ClassId>) {
    let ids: Vec<u32> = (0..p.len() as u32).collect();
    let pos = inverse(&stable_sorted_by_key(&ids, |&x| t[x as usize]));
    drop(ids);
    let names = Gathered::new(&pos, 2, |x, j| {
        let op = &p.ops()[x];
        if j == 0 { &op.label } else { &op.opcode }
    });
    let mut cycle: Vec<Cycle> = vec![0; pos.len()];
    let mut class = vec![ClassId::new(0); pos.len()];
    for (x, &k) in pos.iter().enumerate() {
        cycle[k as usize] = t[x];
        class[k as usize] = p.ops()[x].class;
    }
    (names, cycle, class)
}

/// Every pair (r, d, n) of every operation at the row of t + d, by row,
/// in placement order within a row.
fn reservation_entries(
    m: &Machine,
    cycle: &[Cycle],
    class: &[ClassId],
    ii: Option<u64>,
) -> Vec<Entry> {
    collect_sorted(|emit| {
        for (k, (&c, &cls)) in cycle.iter().zip(class).enumerate() {
            for &(r, d, n) in &m.class(cls).folded {
                let row = table_row(c.saturating_add(i64::from(d)), ii);
                let e = Entry {
                    row,
                    pos: k as u32,
                    resource: r.index() as u32,
                    units: n,
                };
                emit(row, e);
            }
        }
    })
}

/// The rows to print, up to `last`; runs of more than [`EMPTY_RUN`] empty
/// rows fold into one line, placed before the table row it precedes
/// (header = row 0).
fn printed_rows(entries: &[Entry], last: Cycle) -> (Vec<Cycle>, Vec<(usize, String)>) {
    let mut rows: Vec<Cycle> = Vec::new();
    let mut marks: Vec<(usize, String)> = Vec::new();
    let mut next: Cycle = 0;
    let mut occupied = entries.iter().map(|e| e.row).peekable();
    loop {
        let c = match occupied.next() {
            Some(c) => {
                while occupied.peek() == Some(&c) {
                    occupied.next();
                }
                c
            }
            None if next <= last + 1 => last + 1,
            None => break,
        };
        if c > last + 1 {
            break;
        }
        let gap = c - next;
        if gap > EMPTY_RUN {
            marks.push((
                rows.len() + 1,
                format!("⋮ {gap} empty cycles ({next}–{})", c - 1),
            ));
        } else {
            rows.extend(next..c);
        }
        if c <= last {
            rows.push(c);
        }
        next = c + 1;
        if c == last + 1 {
            break;
        }
    }
    (rows, marks)
}

/// One pass of the reservation table over its rows: the reservation pairs
/// and the placed operations, each swept in row order.
struct Sweep<'a> {
    m: &'a Machine,
    ii: Option<u64>,
    /// Labels (part 0) and opcodes (part 1) by position.
    names: &'a Gathered,
    /// The issue cycle by position.
    cycle: &'a [Cycle],
    entries: &'a [Entry],
    /// Positions by the row they issue in.
    placed: &'a [u32],
    rows: &'a [Cycle],
    /// The first entry, and the first placed operation, not before the row.
    ep: usize,
    pp: usize,
    /// Per resource, in the current row: the last holder listed, the
    /// units taken.
    last_holder: Vec<Option<u32>>,
    units: Vec<u32>,
}

impl Sweep<'_> {
    /// The cells of table row `i` (0 is the header, which starts a pass).
    fn fill(&mut self, i: usize, cells: &mut Row) {
        if i == 0 {
            self.header(cells);
            return;
        }
        let c = self.rows[i - 1];
        let _ = write!(cells.cell(), "{c}");
        self.resource_cells(c, cells);
        self.placed_cell(c, cells);
    }

    /// `cycle` (or `row`), each resource with its capacity, `placed`.
    fn header(&mut self, cells: &mut Row) {
        (self.ep, self.pp) = (0, 0);
        cells.push(if self.ii.is_some() { "row" } else { "cycle" });
        for r in self.m.resources() {
            let _ = write!(cells.cell(), "{} ({})", r.name, r.capacity);
        }
        cells.push("placed");
    }

    /// A cell per resource in row `c`. The issue column counts slots; the
    /// others list their holders in placement order, each once (an
    /// operation's pairs in one row are next to each other).
    fn resource_cells(&mut self, c: Cycle, cells: &mut Row) {
        let entries = self.entries;
        while self.ep < entries.len() && entries[self.ep].row < c {
            self.ep += 1;
        }
        let ep = self.ep;
        let here_end = entries[ep..].partition_point(|e| e.row == c) + ep;
        let here = &entries[ep..here_end];
        let issue = ISSUE.index();
        let mut slots = 0u32;
        self.units.iter_mut().for_each(|u| *u = 0);
        self.last_holder.iter_mut().for_each(|h| *h = None);
        let first = cells.len();
        for _ in 0..self.units.len() {
            cells.cell();
        }
        for e in here {
            let r = e.resource as usize;
            self.units[r] += e.units;
            if r == issue {
                slots += e.units;
            } else if self.last_holder[r] != Some(e.pos) {
                let cell = cells.get(first + r);
                if self.last_holder[r].is_some() {
                    cell.push(',');
                }
                cell.push_str(self.label(e.pos));
                self.last_holder[r] = Some(e.pos);
            }
        }
        for (r, (&used, res)) in self.units.iter().zip(self.m.resources()).enumerate() {
            let cell = cells.get(first + r);
            if r == issue {
                let _ = write!(cell, "{slots}");
            } else if cell.is_empty() {
                cell.push('.');
            }
            if used > res.capacity {
                cell.push(OVER);
            }
        }
    }

    /// The `placed` cell of row `c`: the operations issued in it, with
    /// their cycle when it differs from the row (a loop), or `—`.
    fn placed_cell(&mut self, c: Cycle, cells: &mut Row) {
        let (cycle, placed, ii) = (self.cycle, self.placed, self.ii);
        while self.pp < placed.len() && table_row(cycle[placed[self.pp] as usize], ii) < c {
            self.pp += 1;
        }
        let cell = cells.cell();
        for &k in placed[self.pp..]
            .iter()
            .take_while(|&&k| table_row(cycle[k as usize], ii) == c)
        {
            if !cell.is_empty() {
                cell.push_str(", ");
            }
            let tk = cycle[k as usize];
            let (label, opcode) = (self.label(k), self.names.get(k as usize, 1));
            let _ = match ii {
                Some(_) if tk != c => write!(cell, "{label} ({opcode}, cycle {tk})"),
                _ => write!(cell, "{label} ({opcode})"),
            };
        }
        if cell.is_empty() {
            cell.push('—');
        }
    }

    /// The label of the operation at position `k`.
    #[inline]
    fn label(&self, k: u32) -> &str {
        self.names.get(k as usize, 0)
    }
}

/// `s` with its first letter in upper case (a claim that opens a sentence).
pub fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// How a reference reached its II and what is known about it being the
/// minimum: `iterative modulo scheduling reaches II = 5, the minimum: II 4
/// is infeasible (exhaustive search)`. `ops` is the size of the loop.
pub fn ii_claim(ii: u64, f: &IiFacts, ops: usize) -> String {
    let mut s = if f.heuristic_ii > ii {
        format!(
            "iterative modulo scheduling reaches II = {}, an exact search II = {ii}",
            f.heuristic_ii
        )
    } else {
        format!("iterative modulo scheduling reaches II = {ii}")
    };
    match f.minimality {
        Minimality::Mii => s.push_str(&format!(", the minimum (MII = {})", f.mii)),
        Minimality::Proven if ii == f.mii + 1 => s.push_str(&format!(
            ", the minimum: II {} is infeasible{}",
            f.mii,
            proofs_text(&f.infeasible)
        )),
        Minimality::Proven => s.push_str(&format!(
            ", the minimum: IIs {}–{} are infeasible{}",
            f.mii,
            ii.saturating_sub(1),
            proofs_text(&f.infeasible)
        )),
        Minimality::Heuristic if ops > exact::MAX_OPS => s.push_str(&format!(
            " (heuristic: MII = {}; the exact search covers loops of up to {} operations)",
            f.mii,
            exact::MAX_OPS
        )),
        Minimality::Heuristic => s.push_str(&format!(
            " (not proven minimal: MII = {}; no exact search was run)",
            f.mii
        )),
        Minimality::Bounded => {
            let range = if f.lower + 1 >= ii {
                format!("{} or {ii}", f.lower.min(ii.saturating_sub(1)))
            } else {
                format!("between {} and {ii}", f.lower)
            };
            s.push_str(&format!(
                " (not proven minimal: MII = {}, the minimum is {range}; the exact search ran out of its budget at II {})",
                f.mii, f.lower
            ))
        }
    }
    s
}

/// `1 cycle`, `36 cycles`.
pub fn cycles_text(n: Cycle) -> String {
    if n == 1 {
        "1 cycle".to_string()
    } else {
        format!("{n} cycles")
    }
}

/// The optimum as a figure: `optimum 36, proven`, or `optimum between 35
/// and 36` when the search did not close the gap.
pub fn optimum_figure(best: Cycle, lower: Cycle) -> String {
    if lower >= best {
        format!("optimum {best}, proven")
    } else {
        format!("optimum between {lower} and {best}")
    }
}

/// What the exact search established about the shortest schedule of a
/// block of `ops` operations beside its list schedule of length `list`
/// (`best` the shortest found, `lower` its proven lower bound), as a
/// clause: `the optimum (proven)` when the list schedule is optimal, else
/// [`optimum_figure`], with why the search did not decide when it did not.
pub fn optimum_clause(list: Cycle, best: Cycle, lower: Cycle, ops: usize) -> String {
    if lower >= best && best >= list {
        return "the optimum (proven)".to_string();
    }
    if lower >= best {
        return optimum_figure(best, lower);
    }
    let why = if ops > optimum::MAX_OPS {
        format!(
            "the exact search covers blocks of up to {} operations",
            optimum::MAX_OPS
        )
    } else {
        "the exact search ran out of its budget".to_string()
    };
    format!("{} ({why})", optimum_figure(best, lower))
}

/// The list schedule's length and [`optimum_clause`] as one claim:
/// `list schedule 39 cycles; optimum 36, proven`, `list schedule 32
/// cycles, the optimum (proven)`.
pub fn block_claim(list: Cycle, best: Cycle, lower: Cycle, ops: usize) -> String {
    format!(
        "list schedule {}{} {}",
        cycles_text(list),
        optimum_separator(list, best, lower),
        optimum_clause(list, best, lower, ops)
    )
}

/// What separates the list schedule's length from [`optimum_clause`]: a
/// comma before `the optimum (proven)`, else a semicolon.
pub fn optimum_separator(list: Cycle, best: Cycle, lower: Cycle) -> char {
    if lower >= best && best >= list {
        ','
    } else {
        ';'
    }
}

/// Why IIs are infeasible, as a clause: ` (exhaustive search)` when the
/// search decided each, else each II's reason.
fn proofs_text(proofs: &[(u64, Proof)]) -> String {
    if proofs.is_empty() {
        return String::new();
    }
    if proofs
        .iter()
        .all(|(_, p)| matches!(p, Proof::Search { .. }))
    {
        return " (exhaustive search)".to_string();
    }
    if let [(_, p)] = proofs {
        return format!(": {}", proof_text(p, proofs[0].0));
    }
    let each: Vec<String> = proofs
        .iter()
        .map(|(ii, p)| format!("II {ii}: {}", proof_text(p, *ii)))
        .collect();
    format!(" ({})", each.join("; "))
}

/// One II's reason for being infeasible, in words.
pub fn proof_text(p: &Proof, ii: u64) -> String {
    match p {
        Proof::Recurrence => format!("a dependence cycle has latency above its distance × {ii}"),
        Proof::Cells {
            resource,
            needed,
            cells,
        } => format!("{resource} needs {needed} cells mod {ii} but has {cells}"),
        Proof::Alone {
            class,
            resource,
            needed,
            capacity,
        } => format!(
            "one {class} alone needs {needed} units of {resource} in one row mod {ii}, which has {capacity}"
        ),
        Proof::Search { .. } => "exhaustive search".to_string(),
    }
}

/// `a → d (3)` lines; loop-carried edges show their distance.
pub fn edges_text(p: &Program) -> String {
    let mut s = String::new();
    let _ = write_edges(&mut s, p);
    s
}

/// [`edges_text`] written to `w`, one edge at a time.
pub fn write_edges<W: fmt::Write + ?Sized>(w: &mut W, p: &Program) -> fmt::Result {
    if p.edges().is_empty() {
        return w.write_str("(no dependences)\n");
    }
    let fill = |i: usize, row: &mut Row| {
        let e = &p.edges()[i];
        let (from, to) = (p.label(e.from), p.label(e.to));
        let _ = write!(row.cell(), "  {from} → {to}");
        let _ = write!(row.cell(), "ℓ = {}", e.latency);
        let d = row.cell();
        if e.distance > 0 {
            let _ = write!(d, "d = {}", e.distance);
        }
        let why = row.cell();
        let _ = match (e.kind, p.edge_register(e)) {
            (EdgeKind::Anti, Some(r)) => {
                write!(why, "{r} (anti: {from} reads {r} before {to} redefines it)")
            }
            (_, Some(r)) => why.write_str(r),
            (_, None) => why.write_str("memory"),
        };
    };
    write_columns(w, p.edges().len(), fill, |_, _| Ok(()))
}

/// `label height` rows.
pub fn heights_text(p: &Program, h: &[u64]) -> String {
    let mut s = String::new();
    let _ = write_heights(&mut s, p, h);
    s
}

/// [`heights_text`] written to `w`, one operation at a time.
pub fn write_heights<W: fmt::Write + ?Sized>(w: &mut W, p: &Program, h: &[u64]) -> fmt::Result {
    let fill = |i: usize, row: &mut Row| {
        let op = &p.ops()[i];
        let _ = write!(row.cell(), "  {}", op.label);
        let _ = write!(row.cell(), "{}", h[i]);
        let _ = write!(row.cell(), "{}", op.display());
    };
    write_columns(w, p.len(), fill, |_, _| Ok(()))
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
            course_engine::util::ratio::Ratio::new(u, cap).fraction_string(),
        ];
        if ceiling {
            row.push(u.div_ceil(cap).to_string());
        }
        rows.push(row);
    }
    columns(&rows)
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
    s.push_str(&format!("Critical recurrence: {}\n", b.recurrence_text(p)));
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
    use course_engine::engine::list::list_schedule;
    use course_engine::model::program::parse;

    fn facts(minimality: Minimality, lower: u64) -> IiFacts {
        IiFacts {
            mii: 3,
            heuristic_ii: 5,
            minimality,
            lower,
            infeasible: Vec::new(),
        }
    }

    #[test]
    fn ii_claims_say_whether_a_search_ran() {
        let h = ii_claim(5, &facts(Minimality::Heuristic, 3), 8);
        assert!(h.contains("no exact search was run"), "{h}");
        assert!(!h.contains("ran out of its budget"), "{h}");
        let b = ii_claim(5, &facts(Minimality::Bounded, 4), 8);
        assert!(b.contains("the minimum is 4 or 5"), "{b}");
        assert!(b.contains("ran out of its budget at II 4"), "{b}");
        // A degenerate II never underflows.
        let z = ii_claim(0, &facts(Minimality::Bounded, 0), 1);
        assert!(z.contains("0 or 0"), "{z}");
    }

    #[test]
    fn block_claims_say_what_the_search_proved() {
        assert_eq!(
            block_claim(32, 32, 32, 10),
            "list schedule 32 cycles, the optimum (proven)"
        );
        assert_eq!(
            block_claim(39, 36, 36, 10),
            "list schedule 39 cycles; optimum 36, proven"
        );
        assert_eq!(
            block_claim(39, 36, 35, 10),
            "list schedule 39 cycles; optimum between 35 and 36 (the exact search ran out of its budget)"
        );
        let big = block_claim(1, 1, 0, optimum::MAX_OPS + 1);
        assert!(big.starts_with("list schedule 1 cycle; optimum between 0 and 1 (the exact search covers blocks of up to"), "{big}");
    }

    #[test]
    fn no_proofs_make_no_clause() {
        assert_eq!(proofs_text(&[]), "");
    }

    #[test]
    fn running_table_matches_the_lesson_rows() {
        let m = Machine::toy();
        let p = parse(course_content::data::RUNNING_TXT, "running.txt", &m).unwrap();
        let s = list_schedule(&p, &m);
        let t = reservation_table(&p, &m, &s.cycles, None);
        let rows: Vec<Vec<&str>> = t.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(
            rows[0],
            vec![
                "cycle", "issue", "(2)", "alu", "(2)", "mem", "(1)", "mul", "(1)", "placed"
            ]
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
