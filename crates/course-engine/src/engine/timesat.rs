//! Time-indexed scheduling as Boolean satisfiability: the model both exact
//! searches decide ([`crate::engine::modulo::exact`] for one II of a loop,
//! [`crate::engine::optimum`] for one length of a block), solved by a
//! conflict-driven clause-learning solver (`batsat`).
//!
//! Each operation `i` has an issue cycle `t_i` in a window `[lo_i, hi_i]`,
//! written in the *order encoding*: one variable per `t_i ≤ v`, chained
//! `t_i ≤ v → t_i ≤ v + 1`. A dependence `t_j ≥ t_i + w` is then one
//! binary clause per cycle (`t_j ≤ v → t_i ≤ v − w`), so unit propagation
//! alone keeps every window consistent with every path through the
//! dependences. Resources are counted per cell of a reservation table
//! (Definition 23.1.3): every `(resource, offset, units)` of an operation's
//! class, at each cycle `v` of its window, puts its units into the cell
//! of row `v + offset` (modulo II for a loop), and each cell holds at most
//! the resource's capacity (a sequential counter, Sinz 2005). A model is
//! satisfiable exactly when a schedule with these windows exists; when the
//! solver answers "unsatisfiable", none does.
//!
//! The work is counted in conflicts, not seconds: the solver is
//! deterministic, so the answer under a budget is the same on every machine
//! and in the browser. The model's size is bounded too ([`MAX_SIZE`]):
//! windows, reservation tables and capacities all come from the user's
//! files, and a model larger than that is never built.

use batsat::{Callbacks, ClauseKind, Lit, SolverInterface, SolverOpts, lbool};

use crate::model::ids::ClassId;
use crate::model::machine::Machine;

/// The most literals, counter cells and clauses one model may take, about
/// 100 MB: loops of 100 operations at II 1024 and blocks of 200 stay far
/// below it; a window of a million cycles, or a class holding a resource
/// for thousands of cycles, does not.
pub const MAX_SIZE: u64 = 1 << 21;

/// Counts the solver's conflicts and stops it at the budget.
struct Budget {
    conflicts: u64,
    limit: u64,
}

impl Callbacks for Budget {
    fn on_new_clause(&mut self, _clause: &[Lit], kind: ClauseKind) {
        if kind == ClauseKind::Learnt {
            self.conflicts += 1;
        }
    }

    fn stop(&self) -> bool {
        self.conflicts >= self.limit
    }
}

/// What the solver said about a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A schedule: the issue cycle of each operation.
    Schedule(Vec<i64>),
    /// No schedule has these windows.
    Impossible,
    /// The budget ran out first, or the model would exceed [`MAX_SIZE`].
    Unknown,
}

/// One operation's cycle in the order encoding: `le[k]` is `t ≤ lo + k`
/// for `lo + k < hi` (`t ≤ hi` always holds).
struct Time {
    lo: i64,
    hi: i64,
    le: Vec<Lit>,
}

/// `t ≤ v`, as the model knows it.
enum Le {
    True,
    False,
    Lit(Lit),
}

impl Time {
    fn le(&self, v: i64) -> Le {
        if v >= self.hi {
            Le::True
        } else if v < self.lo {
            Le::False
        } else {
            Le::Lit(self.le[(v - self.lo) as usize])
        }
    }
}

/// A time-indexed model under construction (see the module header).
pub struct Model {
    solver: batsat::Solver<Budget>,
    times: Vec<Time>,
    /// Whether a clause added so far is already empty (no schedule).
    empty: bool,
    /// The size taken so far; past [`MAX_SIZE`] nothing more is built and
    /// the answer is [`Answer::Unknown`].
    size: u64,
}

impl Model {
    /// An empty model whose solving may take at most `conflicts` conflicts.
    pub fn new(conflicts: u64) -> Model {
        Model {
            solver: batsat::Solver::new(
                SolverOpts::default(),
                Budget {
                    conflicts: 0,
                    limit: conflicts,
                },
            ),
            times: Vec::new(),
            empty: false,
            size: 0,
        }
    }

    /// Whether the model has passed [`MAX_SIZE`].
    fn too_big(&self) -> bool {
        self.size > MAX_SIZE
    }

    /// Takes `n` more of the model's size; false once [`MAX_SIZE`] is
    /// passed.
    fn charge(&mut self, n: u64) -> bool {
        self.size = self.size.saturating_add(n);
        !self.too_big()
    }

    fn lit(&mut self) -> Lit {
        Lit::new(self.solver.new_var_default(), true)
    }

    fn clause(&mut self, mut c: Vec<Lit>) {
        if !self.solver.add_clause_reuse(&mut c) {
            self.empty = true;
        }
    }

    /// Adds an operation whose cycle lies in `[lo, hi]` (an empty window
    /// makes the model unsatisfiable); returns its index.
    pub fn time(&mut self, lo: i64, hi: i64) -> usize {
        if lo > hi {
            self.empty = true;
        }
        // Order literals, value literals and their clauses.
        let width = u64::try_from(i128::from(hi) - i128::from(lo)).unwrap_or(0);
        if !self.charge(width.saturating_mul(4)) {
            self.times.push(Time {
                lo,
                hi: lo,
                le: Vec::new(),
            });
            return self.times.len() - 1;
        }
        let le: Vec<Lit> = (lo..hi).map(|_| self.lit()).collect();
        for w in le.windows(2) {
            self.clause(vec![!w[0], w[1]]);
        }
        self.times.push(Time { lo, hi, le });
        self.times.len() - 1
    }

    /// `t_j ≥ t_i + w`.
    pub fn after(&mut self, i: usize, j: usize, w: i64) {
        // Every v of j's window: t_j ≤ v → t_i ≤ v − w; above it, t_i ≤
        // hi_j − w outright.
        let (lo, hi) = (self.times[j].lo, self.times[j].hi);
        if self.too_big() || !self.charge((hi - lo).max(0) as u64 + 1) {
            return;
        }
        for v in lo..=hi {
            let mut c = Vec::with_capacity(2);
            match self.times[j].le(v) {
                Le::False => continue,
                Le::Lit(l) => c.push(!l),
                Le::True => {}
            }
            match self.times[i].le(v - w) {
                Le::True => continue,
                Le::Lit(l) => c.push(l),
                Le::False => {}
            }
            self.clause(c);
        }
    }

    /// The literal `t_i = v` for each cycle of `i`'s window, in order.
    fn values(&mut self, i: usize) -> Vec<Lit> {
        let (lo, hi) = (self.times[i].lo, self.times[i].hi);
        let mut out = Vec::with_capacity((hi - lo + 1).max(0) as usize);
        for v in lo..=hi {
            let at = match (self.times[i].le(v), self.times[i].le(v - 1)) {
                (Le::Lit(a), Le::False) => a,
                (Le::True, Le::Lit(b)) => !b,
                (Le::True, Le::False) => {
                    let x = self.lit();
                    self.clause(vec![x]);
                    x
                }
                (Le::Lit(a), Le::Lit(b)) => {
                    let x = self.lit();
                    self.clause(vec![!x, a]);
                    self.clause(vec![!x, !b]);
                    self.clause(vec![!a, b, x]);
                    x
                }
                // `t ≤ v` is false or `t ≤ v − 1` true only outside the
                // window.
                _ => continue,
            };
            out.push(at);
        }
        out
    }

    /// The resources of machine `m`: operation `i` (of class `class[i]`)
    /// at cycle `v` takes each `(resource, offset, units)` of its class in
    /// row `v + offset` (modulo `ii` when given, the rows of one iteration
    /// of a loop), and no row of a resource takes more than its capacity.
    pub fn resources(&mut self, m: &Machine, class: &[ClassId], ii: Option<i64>) {
        if self.too_big() {
            return;
        }
        let rows = match ii {
            Some(ii) => ii.max(1),
            None => {
                let top = self.times.iter().map(|t| t.hi).max().unwrap_or(0);
                top.max(0) + i64::from(m.max_offset()) + 1
            }
        };
        let nres = m.resources().len();
        // The cells, and every unit each value of each window puts in one.
        let units_of =
            |c: ClassId| -> u64 { m.class(c).folded.iter().map(|e| u64::from(e.2)).sum() };
        let placed: u64 = class
            .iter()
            .zip(&self.times)
            .map(|(&c, t)| ((t.hi - t.lo).max(0) as u64 + 1).saturating_mul(units_of(c)))
            .fold(0, u64::saturating_add);
        if !self.charge((nres as u64).saturating_mul(rows as u64)) || !self.charge(placed) {
            return;
        }
        let mut cells: Vec<Vec<Lit>> = vec![Vec::new(); nres * rows as usize];
        // Units per resource: each operation puts each of its own in one cell.
        let mut units = vec![0usize; nres];
        for (i, &c) in class.iter().enumerate() {
            let values = self.values(i);
            let lo = self.times[i].lo;
            for &(r, off, k) in &m.class(c).folded {
                units[r.index()] += k as usize;
                let k = k as usize;
                for (v, &at) in (lo..).zip(&values) {
                    let row = v + i64::from(off);
                    let row = match ii {
                        Some(ii) => row.rem_euclid(ii),
                        None => row,
                    };
                    if !(0..rows).contains(&row) {
                        continue;
                    }
                    let cell = &mut cells[r.index() * rows as usize + row as usize];
                    cell.extend(std::iter::repeat_n(at, k));
                }
            }
        }
        // The counters: a cell of `len` literals and capacity `cap` takes
        // about `len · min(cap, len)` (twice when saturated).
        let counters: u64 = m
            .resource_ids()
            .flat_map(|r| {
                let cap = u64::from(m.resource(r).capacity);
                cells[r.index() * rows as usize..][..rows as usize]
                    .iter()
                    .map(move |c| (c.len() as u64).saturating_mul(cap.min(c.len() as u64)))
            })
            .fold(0, u64::saturating_add);
        if !self.charge(counters.saturating_mul(2)) {
            return;
        }
        for r in m.resource_ids() {
            let cap = m.resource(r).capacity as usize;
            let all = &mut cells[r.index() * rows as usize..][..rows as usize];
            // A saturated resource — its units fill every cell an operation
            // can reach — has every such cell exactly full: said outright,
            // the solver no longer has to count its way to it.
            let units: usize = units[r.index()];
            let reached = all.iter().filter(|c| !c.is_empty()).count();
            let full = units == cap * reached;
            for cell in all.iter_mut() {
                let cell = std::mem::take(cell);
                self.at_most(&cell, cap);
                if full && !cell.is_empty() {
                    self.at_least(&cell, cap);
                }
            }
        }
    }

    /// `Σ lits ≤ k`, a literal counted as often as it appears: Sinz's
    /// sequential counter, `s[j]` after literal `i` meaning "at least
    /// `j + 1` of the first `i + 1` hold".
    fn at_most(&mut self, lits: &[Lit], k: usize) {
        if lits.len() <= k {
            return;
        }
        if k == 0 {
            for &l in lits {
                self.clause(vec![!l]);
            }
            return;
        }
        let mut prev: Vec<Lit> = Vec::new();
        for (i, &x) in lits.iter().enumerate() {
            if prev.len() == k {
                self.clause(vec![!x, !prev[k - 1]]);
            }
            if i + 1 == lits.len() {
                break;
            }
            let width = k.min(i + 1);
            let cur: Vec<Lit> = (0..width).map(|_| self.lit()).collect();
            self.clause(vec![!x, cur[0]]);
            for j in 0..prev.len() {
                self.clause(vec![!prev[j], cur[j]]);
                if j + 1 < width {
                    self.clause(vec![!x, !prev[j], cur[j + 1]]);
                }
            }
            prev = cur;
        }
    }

    /// `Σ lits ≥ k`, a literal counted as often as it appears: `c[j]` after
    /// literal `i` implies "at least `j + 1` of the first `i + 1` hold",
    /// and the last `c[k − 1]` is asserted.
    fn at_least(&mut self, lits: &[Lit], k: usize) {
        if k == 0 {
            return;
        }
        if lits.len() < k {
            self.empty = true;
            return;
        }
        let mut prev: Vec<Lit> = Vec::new();
        for (i, &x) in lits.iter().enumerate() {
            let width = k.min(i + 1);
            let cur: Vec<Lit> = (0..width).map(|_| self.lit()).collect();
            for j in 0..width {
                // c[j] → prev[j] ∨ x, and for j > 0, c[j] → prev[j − 1].
                let mut c = vec![!cur[j], x];
                if let Some(&p) = prev.get(j) {
                    c.push(p);
                }
                self.clause(c);
                if j > 0 {
                    let mut c = vec![!cur[j], prev[j - 1]];
                    if let Some(&p) = prev.get(j) {
                        c.push(p);
                    }
                    self.clause(c);
                }
            }
            prev = cur;
        }
        self.clause(vec![prev[k - 1]]);
    }

    /// Solves the model; returns the answer and the conflicts it took.
    pub fn solve(mut self) -> (Answer, u64) {
        if self.too_big() {
            return (Answer::Unknown, 0);
        }
        if self.empty {
            return (Answer::Impossible, 0);
        }
        let result = self.solver.solve_limited(&[]);
        let used = self.solver.cb().conflicts;
        let answer = if result == lbool::TRUE {
            let t = self
                .times
                .iter()
                .map(|t| {
                    (t.lo..t.hi)
                        .find(|&v| matches!(t.le(v), Le::Lit(l) if self.solver.value_lit(l) == lbool::TRUE))
                        .unwrap_or(t.hi)
                })
                .collect();
            Answer::Schedule(t)
        } else if result == lbool::FALSE {
            Answer::Impossible
        } else {
            Answer::Unknown
        };
        (answer, used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For every `n` ≤ 5, `k` ≤ 3 and assignment of `n` literals, a model
    /// with `encode(lits, k)` and the assignment fixed is satisfiable
    /// exactly when `admits(ones, k)`.
    fn counter_admits(encode: fn(&mut Model, &[Lit], usize), admits: fn(usize, usize) -> bool) {
        for n in 1..=5usize {
            for k in 0..=3usize {
                for bits in 0..(1u32 << n) {
                    let mut model = Model::new(1000);
                    let xs: Vec<Lit> = (0..n).map(|_| model.lit()).collect();
                    encode(&mut model, &xs, k);
                    for (i, &x) in xs.iter().enumerate() {
                        let on = bits >> i & 1 == 1;
                        model.clause(vec![if on { x } else { !x }]);
                    }
                    let sat = !matches!(model.solve().0, Answer::Impossible);
                    let ones = bits.count_ones() as usize;
                    assert_eq!(sat, admits(ones, k), "n {n} k {k} bits {bits:b}");
                }
            }
        }
    }

    #[test]
    fn the_counters_admit_exactly_their_counts() {
        counter_admits(Model::at_most, |ones, k| ones <= k);
        counter_admits(Model::at_least, |ones, k| ones >= k);
    }

    #[test]
    fn a_model_past_its_size_is_never_built() {
        // Two operations with windows of ten million cycles: `Unknown` at
        // once, without a literal of the windows allocated.
        let mut model = Model::new(1000);
        let a = model.time(0, 10_000_000);
        let b = model.time(0, 10_000_000);
        model.after(a, b, 1);
        assert!(model.too_big() && model.solver.num_vars() == 0);
        model.resources(&Machine::toy(), &[ClassId::from_index(0); 2], None);
        assert_eq!(model.solve(), (Answer::Unknown, 0));
    }

    #[test]
    fn dependences_narrow_windows_and_empty_ones_fail() {
        let mut model = Model::new(1000);
        let a = model.time(0, 5);
        let b = model.time(0, 5);
        model.after(a, b, 3);
        model.after(b, a, -3);
        let (Answer::Schedule(t), _) = model.solve() else {
            panic!("feasible");
        };
        assert_eq!(t[1] - t[0], 3);
        let mut model = Model::new(1000);
        let a = model.time(0, 5);
        let b = model.time(0, 5);
        model.after(a, b, 6);
        assert_eq!(model.solve().0, Answer::Impossible);
    }
}
