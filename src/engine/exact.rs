//! An exact modulo scheduler for small loops: branch and bound over the
//! rows `t mod II` of the operations, deciding whether a schedule exists at
//! a given II (Lesson 23.6). Iterative modulo scheduling is a heuristic; on
//! a loop of up to [`MAX_OPS`] operations this search either finds a
//! schedule at a smaller II or proves that none exists, so the reference
//! can say that its II is the minimum.
//!
//! Write `t_i = r_i + II·q_i` with the row `r_i ∈ [0, II)`. Resources
//! depend on the rows only (Algorithm 23.1.4 modulo II). For fixed rows,
//! every dependence `t_j − t_i ≥ D(i, j)` — `D` the longest path with edge
//! weights `ℓ − d·II` — becomes `q_j − q_i ≥ ⌈(D(i, j) − r_j + r_i) / II⌉`,
//! a system of difference constraints that has an integer solution exactly
//! when its constraint graph has no positive cycle. A positive cycle stays
//! inside one strongly connected component of the dependence graph: the
//! components form a DAG, and shifting a later component by whole IIs
//! satisfies every edge between components. So the rows of an operation on
//! no recurrence are constrained by resources alone, and operations of one
//! class on no recurrence are interchangeable.
//!
//! The search assigns rows one operation at a time: the operations of each
//! recurrence together, keeping the longest paths among their `q`s closed,
//! then the others class by class in non-decreasing rows (which removes
//! their permutations). The first operation sits at row 0: shifting a
//! schedule keeps it valid. It backtracks as soon as a row overflows a
//! resource, an operation still to assign has no row left that fits, or
//! the `q` constraints of a recurrence close a positive cycle. The search
//! is complete: when it ends without a schedule, none exists at that II.
//!
//! ```
//! use course::{engine::exact, model::machine::Machine, model::program};
//! let m = Machine::toy();
//! // Two multiplies on a recurrence of latency 6: II 6 works, 5 cannot.
//! let p = program::parse("loop l\na: r1 = mul r2, 3\nb: r2 = mul r1, 3\n", "l", &m).unwrap();
//! assert!(matches!(exact::search(&p, &m, 5, 10_000), exact::Outcome::Infeasible));
//! assert!(matches!(exact::search(&p, &m, 6, 10_000), exact::Outcome::Found(_)));
//! ```

use crate::engine::mii;
use crate::engine::rtable::ModuloTable;
use crate::model::ids::{Cycle, OpId};
use crate::model::machine::Machine;
use crate::model::program::Program;

/// The largest loop the reference searches exactly.
pub const MAX_OPS: usize = 16;

/// The largest II the exact search tries: its branching is over rows.
pub const MAX_II: u64 = 1024;

/// Search nodes (rows tried) allowed per II before the search gives up.
pub const STEPS: u64 = 200_000;

/// Search nodes allowed for one loop over all the IIs it tries.
pub const LOOP_STEPS: u64 = 3 * STEPS;

/// What the search found at one II.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A valid schedule at this II: an issue cycle per operation, the
    /// earliest at 0.
    Found(Vec<Cycle>),
    /// No schedule exists at this II.
    Infeasible,
    /// The step budget ran out before the search decided.
    Undecided,
}

const NONE: i64 = i64::MIN / 4;

/// `⌈a / b⌉` for `b > 0`.
fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

/// Decides whether `p` has a modulo schedule on `m` at `ii`, trying at most
/// `steps` rows. Loops of more than [`MAX_OPS`] operations or IIs above
/// [`MAX_II`] are [`Outcome::Undecided`].
pub fn search(p: &Program, m: &Machine, ii: u64, steps: u64) -> Outcome {
    let mut left = steps;
    search_counted(p, m, ii, &mut left)
}

/// [`search`] taking its rows from `steps`, which keeps what is left.
pub fn search_counted(p: &Program, m: &Machine, ii: u64, steps: &mut u64) -> Outcome {
    let n = p.len();
    if n == 0 || n > MAX_OPS || ii == 0 || ii > MAX_II {
        return Outcome::Undecided;
    }
    let iil = ii as i64;
    // Longest paths with weights ℓ − d·II (Floyd–Warshall); a positive
    // cycle means II < RecMII.
    let mut d = vec![vec![NONE; n]; n];
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = 0;
    }
    for e in p.edges() {
        let w = i64::from(e.latency) - i64::from(e.distance) * iil;
        let cell = &mut d[e.from.index()][e.to.index()];
        *cell = (*cell).max(w);
    }
    for k in 0..n {
        for i in 0..n {
            if d[i][k] == NONE {
                continue;
            }
            for j in 0..n {
                if d[k][j] != NONE {
                    d[i][j] = d[i][j].max(d[i][k] + d[k][j]);
                }
            }
        }
    }
    if (0..n).any(|i| d[i][i] > 0) {
        return Outcome::Infeasible;
    }
    let table = ModuloTable::new(m, ii);
    // A class that overflows on its own never fits.
    if p.ops().iter().any(|o| !table.fits(m, o.class, 0)) {
        return Outcome::Infeasible;
    }
    let (comp, _) = mii::sccs(p);
    let mut size = vec![0u32; n];
    for &c in &comp {
        size[c as usize] += 1;
    }
    let recurrent: Vec<bool> = (0..n).map(|x| size[comp[x] as usize] > 1).collect();
    let order = order(p, m, &comp, &recurrent);
    // A free operation after one of its class starts at that one's row.
    let same_as_previous: Vec<bool> = (0..n)
        .map(|depth| {
            depth > 0 && {
                let (a, b) = (order[depth - 1], order[depth]);
                !recurrent[a] && !recurrent[b] && p.ops()[a].class == p.ops()[b].class
            }
        })
        .collect();
    let mut s = Search {
        p,
        m,
        ii: iil,
        d,
        comp,
        recurrent,
        order,
        same_as_previous,
        rows: vec![0; n],
        l: vec![vec![NONE; n]; n],
        table,
        steps_left: *steps,
    };
    let found = s.assign(0);
    *steps = s.steps_left;
    match found {
        Some(true) => Outcome::Found(s.cycles()),
        Some(false) => Outcome::Infeasible,
        None => Outcome::Undecided,
    }
}

/// Resource units of an operation's reservation table.
fn units(p: &Program, m: &Machine, x: usize) -> u64 {
    m.class(p.ops()[x].class)
        .folded
        .iter()
        .map(|&(_, _, k)| u64::from(k))
        .sum()
}

/// The order operations are assigned in. First the recurrences, the one
/// using the most resource units first; inside one, its heaviest operation
/// and then always the one with the most dependences on those already
/// ordered, so that the constraints bite early. Then the operations on no
/// recurrence, grouped by class, heavier classes first.
fn order(p: &Program, m: &Machine, comp: &[u32], recurrent: &[bool]) -> Vec<usize> {
    let n = p.len();
    let mut comps: Vec<(u64, usize, u32)> = Vec::new();
    for x in (0..n).filter(|&x| recurrent[x]) {
        match comps.iter_mut().find(|c| c.2 == comp[x]) {
            Some(c) => c.0 += units(p, m, x),
            None => comps.push((units(p, m, x), x, comp[x])),
        }
    }
    comps.sort_by_key(|&(u, first, _)| (std::cmp::Reverse(u), first));
    let mut out = Vec::with_capacity(n);
    let mut links = vec![0u32; n];
    for &(_, _, c) in &comps {
        let mut left: Vec<usize> = (0..n).filter(|&x| comp[x] == c).collect();
        while !left.is_empty() {
            let Some(pos) = (0..left.len()).max_by_key(|&i| {
                let x = left[i];
                (links[x], units(p, m, x), std::cmp::Reverse(x))
            }) else {
                break;
            };
            let x = left.swap_remove(pos);
            out.push(x);
            for e in p.out_edges(OpId::from_index(x)) {
                links[e.to.index()] += 1;
            }
            for e in p.in_edges(OpId::from_index(x)) {
                links[e.from.index()] += 1;
            }
        }
    }
    let mut free: Vec<usize> = (0..n).filter(|&x| !recurrent[x]).collect();
    free.sort_by_key(|&x| (std::cmp::Reverse(units(p, m, x)), p.ops()[x].class, x));
    out.extend(free);
    out
}

struct Search<'a> {
    p: &'a Program,
    m: &'a Machine,
    ii: i64,
    /// Longest paths over the dependence graph at this II.
    d: Vec<Vec<i64>>,
    /// Strongly connected component of each operation.
    comp: Vec<u32>,
    /// Whether an operation is on a recurrence (a component of two or more).
    recurrent: Vec<bool>,
    order: Vec<usize>,
    /// Whether `order[depth]` is a free operation of the same class as
    /// `order[depth − 1]`, so its row is at least that one's.
    same_as_previous: Vec<bool>,
    rows: Vec<i64>,
    /// Longest paths among the `q` constraints of the assigned operations
    /// of each recurrence (`q_b − q_a ≥ l[a][b]`), closed after every
    /// assignment.
    l: Vec<Vec<i64>>,
    table: ModuloTable,
    steps_left: u64,
}

impl Search<'_> {
    /// `q_j − q_i ≥ c(i, j)` for rows `ri`, `rj`, or `NONE` without a path.
    fn c(&self, i: usize, j: usize, ri: i64, rj: i64) -> i64 {
        let dij = self.d[i][j];
        if dij == NONE {
            NONE
        } else {
            ceil_div(dij - rj + ri, self.ii)
        }
    }

    /// Assigns `order[depth..]`; `Some(true)` when a schedule is complete,
    /// `Some(false)` when none extends the current rows, `None` when the
    /// budget ran out.
    fn assign(&mut self, depth: usize) -> Option<bool> {
        let n = self.order.len();
        if depth == n {
            return Some(true);
        }
        let v = self.order[depth];
        let class = self.p.ops()[v].class;
        // The assigned operations of v's recurrence.
        let mates: Vec<usize> = if self.recurrent[v] {
            self.order[..depth]
                .iter()
                .copied()
                .filter(|&a| self.comp[a] == self.comp[v])
                .collect()
        } else {
            Vec::new()
        };
        // Shifting a schedule keeps it valid: the first operation at row 0.
        let last_row = if depth == 0 { 0 } else { self.ii - 1 };
        let mut r = if self.same_as_previous[depth] {
            self.rows[self.order[depth - 1]]
        } else {
            0
        };
        while r <= last_row {
            let Some(fit) = self.table.first_fit(self.m, class, r) else {
                break;
            };
            if fit > last_row {
                break;
            }
            r = fit;
            if self.steps_left == 0 {
                return None;
            }
            self.steps_left -= 1;
            if let Some(saved) = self.close(v, r, &mates) {
                self.table.place(self.m, class, r, None);
                self.rows[v] = r;
                let found = if self.rest_fits(depth + 1) {
                    self.assign(depth + 1)
                } else {
                    Some(false)
                };
                self.table.remove(self.m, class, r, OpId::from_index(v));
                match found {
                    Some(false) => {}
                    other => return other,
                }
                if let Some(saved) = saved {
                    self.l = saved;
                }
            }
            r += 1;
        }
        Some(false)
    }

    /// Every operation still to assign has a row where it fits.
    fn rest_fits(&self, depth: usize) -> bool {
        self.order[depth..].iter().all(|&u| {
            self.table
                .first_fit(self.m, self.p.ops()[u].class, 0)
                .is_some()
        })
    }

    /// Adds `v` at row `rv` to the closed `q` constraints of its recurrence
    /// (`mates`: its operations assigned so far). `None` (and no change)
    /// when that closes a positive cycle; else `Some` of the previous matrix
    /// to restore, `Some(None)` when nothing changed.
    #[allow(clippy::option_option)]
    fn close(&mut self, v: usize, rv: i64, mates: &[usize]) -> Option<Option<Vec<Vec<i64>>>> {
        if !self.recurrent[v] {
            return Some(None);
        }
        // Longest q-paths from v to each mate b and from each mate a to v.
        let from_v: Vec<i64> = mates
            .iter()
            .map(|&b| {
                mates
                    .iter()
                    .filter_map(|&a| {
                        let cva = self.c(v, a, rv, self.rows[a]);
                        let lab = if a == b { 0 } else { self.l[a][b] };
                        (cva != NONE && lab != NONE).then_some(cva + lab)
                    })
                    .fold(NONE, i64::max)
            })
            .collect();
        let to_v: Vec<i64> = mates
            .iter()
            .map(|&a| {
                mates
                    .iter()
                    .filter_map(|&b| {
                        let cbv = self.c(b, v, self.rows[b], rv);
                        let lab = if a == b { 0 } else { self.l[a][b] };
                        (cbv != NONE && lab != NONE).then_some(lab + cbv)
                    })
                    .fold(NONE, i64::max)
            })
            .collect();
        // A cycle through v: v ⇝ b ⇝ v.
        if from_v
            .iter()
            .zip(&to_v)
            .any(|(&f, &t)| f != NONE && t != NONE && f + t > 0)
        {
            return None;
        }
        let saved = self.l.clone();
        for (i, &a) in mates.iter().enumerate() {
            for (j, &b) in mates.iter().enumerate() {
                if a != b && to_v[i] != NONE && from_v[j] != NONE {
                    let via = to_v[i] + from_v[j];
                    if via > self.l[a][b] {
                        self.l[a][b] = via;
                    }
                }
            }
        }
        for (j, &b) in mates.iter().enumerate() {
            self.l[v][b] = from_v[j];
            self.l[b][v] = to_v[j];
        }
        self.l[v][v] = 0;
        Some(Some(saved))
    }

    /// The schedule of the complete assignment: the least `q`s meeting
    /// every constraint (Bellman–Ford; the recurrences are consistent and
    /// the constraints between components form no cycle), then the earliest
    /// cycle moved to 0.
    fn cycles(&self) -> Vec<Cycle> {
        let n = self.order.len();
        let mut q = vec![0i64; n];
        for _ in 0..=n {
            let mut changed = false;
            for i in 0..n {
                for j in 0..n {
                    let c = self.c(i, j, self.rows[i], self.rows[j]);
                    if i != j && c != NONE && q[j] < q[i] + c {
                        q[j] = q[i] + c;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let t: Vec<Cycle> = (0..n).map(|i| self.rows[i] + self.ii * q[i]).collect();
        let min = t.iter().copied().min().unwrap_or(0);
        t.into_iter().map(|c| c - min).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::check::check_cycles;
    use crate::model::program::parse;

    /// `text` needs II `ii`: the search proves `ii − 1` infeasible and
    /// finds a schedule at `ii` that passes the grader's checks.
    fn proves_ii(text: &str, ii: u64) -> Program {
        let m = Machine::toy();
        let p = parse(text, "t.txt", &m).unwrap();
        assert_eq!(search(&p, &m, ii - 1, 100_000), Outcome::Infeasible);
        let Outcome::Found(t) = search(&p, &m, ii, 100_000) else {
            panic!("II {ii} is feasible");
        };
        assert!(check_cycles(&p, &m, &t, Some(ii)).is_empty(), "{t:?}");
        p
    }

    #[test]
    fn finds_valid_schedules_and_proves_the_rest_infeasible() {
        // Five memory operations: ResMII 5, so II 4 cannot hold them.
        proves_ii(crate::engine::modulo::tests::MEM_LOOP, 5);
        // A div holds the multiplier four cycles: with a mul, II 5.
        let p = proves_ii(
            "loop d\na: r1 = div r2, 3\nb: r3 = mul r4, 2\nc: r4 = add r1, 1\n",
            5,
        );
        // No budget, no answer.
        assert_eq!(search(&p, &Machine::toy(), 5, 0), Outcome::Undecided);
    }
}
