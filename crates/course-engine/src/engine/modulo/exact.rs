//! An exact modulo scheduler: for a loop of up to [`MAX_OPS`] operations
//! and a given II, a search that either finds a modulo schedule or proves
//! that none exists (Lesson 23.6; resources counted by Algorithm 23.1.4
//! modulo II). [`minimal_ii`] shares a budget among II = MII, MII + 1, …:
//! the smallest II with a schedule is the minimum once every II below it
//! is proven infeasible. The work is counted in solver conflicts, not
//! seconds, so the answer on a given loop is the same on every machine and
//! every run.
//!
//! # Why the model can be small
//!
//! Let `D(i, j)` be the longest path from `i` to `j` with edge weights
//! `ℓ − d·II`; every schedule has `t_j − t_i ≥ D(i, j)`, and a positive
//! `D(i, i)` means II < RecMII. The strongly connected components of the
//! dependence graph form a DAG, and shifting a component by a multiple of
//! II changes no row of the modulo reservation table: edges between
//! components can always be met afterwards by shifting the later ones. So
//!
//! * each component has an *anchor* (its heaviest member) whose cycle can
//!   be taken in `[0, II)`; member `x` then lies in `[D(a, x), II − 1 −
//!   D(x, a)]`, and only the dependences inside the component are kept;
//! * an operation on no recurrence is its own component: only its row
//!   matters, and operations of one class on no recurrence are
//!   interchangeable, so their cycles are taken non-decreasing;
//! * rotating every row changes nothing either: the anchor of the heaviest
//!   recurrence (else the heaviest operation) sits at cycle 0.
//!
//! What is left — windows, dependences, a capacity per (resource, row mod
//! II) — is a time-indexed model ([`crate::engine::timesat`]) that a
//! clause-learning solver decides: a schedule, or a proof that none
//! exists. Counting proofs come first (II < RecMII, a resource with more
//! units than cells, a class whose own offsets collide), so the solver
//! runs only where counting cannot tell.
//!
//! ```
//! use course_engine::{engine::modulo::exact, model::machine::Machine, model::program};
//! let m = Machine::toy();
//! // Two multiplies on a recurrence of latency 6: II 6 works, 5 cannot.
//! let p = program::parse("loop l\na: r1 = mul r2, 3\nb: r2 = mul r1, 3\n", "l", &m).unwrap();
//! assert!(matches!(exact::search(&p, &m, 5, 10_000), exact::Outcome::Infeasible(_)));
//! assert!(matches!(exact::search(&p, &m, 6, 10_000), exact::Outcome::Found(_)));
//! ```

use crate::engine::mii;
use crate::engine::timesat::{Answer, Model};
use crate::model::ids::{ClassId, Cycle, OpId, ResourceId};
use crate::model::machine::Machine;
use crate::model::program::Program;

/// The largest loop the reference searches exactly; above it iterative
/// modulo scheduling alone gives the reference.
pub const MAX_OPS: usize = 100;

/// The largest II the exact search tries.
pub const MAX_II: u64 = 1024;

/// Solver conflicts allowed for one loop over all the IIs it tries: a
/// few seconds of a 2020s laptop core at 80 operations (BENCHMARKS.md),
/// where the loops measured need at most a few thousand. Counted in
/// conflicts, so results never depend on speed.
pub const DEFAULT_BUDGET: u64 = 50_000;

/// Why an II is infeasible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// A dependence cycle has `ℓ > d·II` (II < RecMII).
    Recurrence,
    /// A resource is asked for more units than its cells modulo II hold
    /// (II < ResMII).
    Cells {
        /// The resource's name.
        resource: String,
        /// Units the loop's operations take.
        needed: u64,
        /// Its capacity × II.
        cells: u64,
    },
    /// One operation alone does not fit: two offsets of its reservation on
    /// `resource` fall into one row modulo II.
    Alone {
        /// The class's name.
        class: String,
        /// The resource's name.
        resource: String,
        /// Units the class puts into that row.
        needed: u32,
        /// The resource's capacity.
        capacity: u32,
    },
    /// The solver refuted the time-indexed model.
    Search {
        /// Conflicts the solver took.
        conflicts: u64,
    },
}

/// What the search found at one II.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A valid schedule at this II: an issue cycle per operation, the
    /// earliest at 0.
    Found(Vec<Cycle>),
    /// No schedule exists at this II.
    Infeasible(Proof),
    /// The budget ran out before the search decided.
    Undecided,
}

/// Decides whether `p` has a modulo schedule on `m` at `ii`, taking at
/// most `budget` solver conflicts. Loops of more than [`MAX_OPS`]
/// operations or IIs above [`MAX_II`] are [`Outcome::Undecided`].
pub fn search(p: &Program, m: &Machine, ii: u64, budget: u64) -> Outcome {
    let mut left = budget;
    search_counted(p, m, ii, &mut left)
}

/// What [`minimal_ii`] established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimum {
    /// The smallest II where a schedule was found, and the schedule, if
    /// one was found below the II the search was asked to stay under
    /// (the minimum when [`Minimum::lower`] is that II).
    pub found: Option<(u64, Vec<Cycle>)>,
    /// The proof for each II proven infeasible, from the first II tried up
    /// to [`Minimum::lower`] (an infeasible II above an undecided one is
    /// not listed: it proves nothing about the minimum).
    pub infeasible: Vec<(u64, Proof)>,
    /// The smallest II not proven infeasible: the minimum is at least this.
    pub lower: u64,
    /// Conflicts used.
    pub conflicts: u64,
}

/// Conflicts of the first round of [`minimal_ii`] for each II.
pub const FIRST_SLICE: u64 = 500;

/// Finds the smallest II from `from` up, below `below`, sharing `budget`
/// conflicts among the IIs so that no II starves the others. First, until
/// a schedule is found, rounds of the search at every II not yet decided,
/// from the smallest up, each round giving each II four times the
/// conflicts of the last (from [`FIRST_SLICE`]): a schedule easy to find
/// at II + 1 is found even when refuting II would take the whole budget.
/// Then the IIs below that schedule's, from the smallest up, each with
/// all the conflicts left, until one is undecided (the minimum is then at
/// least that II) or has a schedule (it is the minimum). An II proven
/// infeasible is never searched again; a round starts its searches afresh
/// (at most a third of an II's conflicts are repeated work).
pub fn minimal_ii(p: &Program, m: &Machine, from: u64, below: u64, budget: u64) -> Minimum {
    let mut left = budget;
    let mut found: Option<(u64, Vec<Cycle>)> = None;
    let mut proofs: Vec<(u64, Proof)> = Vec::new();
    let mut slice = FIRST_SLICE;
    // Rounds, until a schedule is found or nothing is left undecided.
    while found.is_none() && left > 0 {
        let mut undecided = false;
        let before = left;
        for ii in from..below {
            if proofs.iter().any(|(j, _)| *j == ii) {
                continue;
            }
            let mut budget = slice.min(left);
            let given = budget;
            let outcome = search_counted(p, m, ii, &mut budget);
            left -= given - budget;
            match outcome {
                Outcome::Found(t) => {
                    found = Some((ii, t));
                    break;
                }
                Outcome::Infeasible(proof) => proofs.push((ii, proof)),
                Outcome::Undecided => undecided = true,
            }
            if left == 0 {
                break;
            }
        }
        // Undecided without a conflict spent (an II or a loop the search
        // does not take) stays undecided: another round would change nothing.
        if !undecided || left == before {
            break;
        }
        slice = slice.saturating_mul(4);
    }
    proofs.sort_by_key(|(ii, _)| *ii);
    // The proven bound: the IIs from `from` up proven infeasible, in a row;
    // then the proof pass below the schedule found, with what is left.
    let top = found.as_ref().map_or(below, |(ii, _)| *ii);
    let mut lower = from;
    let mut infeasible = Vec::new();
    let mut proofs = proofs.into_iter().peekable();
    while lower < top {
        if let Some((_, proof)) = proofs.next_if(|(ii, _)| *ii == lower) {
            infeasible.push((lower, proof));
            lower += 1;
            continue;
        }
        if found.is_none() || left == 0 {
            break;
        }
        match search_counted(p, m, lower, &mut left) {
            Outcome::Found(t) => {
                found = Some((lower, t));
                break;
            }
            Outcome::Infeasible(proof) => {
                infeasible.push((lower, proof));
                lower += 1;
            }
            Outcome::Undecided => break,
        }
    }
    Minimum {
        found,
        infeasible,
        lower,
        conflicts: budget - left,
    }
}

const NONE: i64 = i64::MIN / 4;

/// `⌈a / b⌉` for `b > 0`.
fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

/// Decides feasibility at `ii` as [`search`] does, taking its conflicts
/// from `budget`, which keeps what is left.
pub fn search_counted(p: &Program, m: &Machine, ii: u64, budget: &mut u64) -> Outcome {
    let n = p.len();
    if n == 0 || n > MAX_OPS || ii == 0 || ii > MAX_II {
        return Outcome::Undecided;
    }
    let iil = ii as i64;
    let d = longest_paths(p, iil);
    if (0..n).any(|i| d[i * n + i] > 0) {
        return Outcome::Infeasible(Proof::Recurrence);
    }
    let (demand, load) = unit_load(p, m);
    if let Some(proof) = counting_proof(p, m, ii, &demand) {
        return Outcome::Infeasible(proof);
    }
    if *budget == 0 {
        return Outcome::Undecided;
    }
    let (comp, members) = components(p);
    let (recs, anchor) = recurrence_order(&members, &load);
    let weight = |x: usize| load[x].iter().map(|&(_, u)| u).sum::<u64>();
    let first = match recs.first() {
        Some(&c) => anchor[c],
        None => (0..n)
            .max_by_key(|&x| (weight(x), std::cmp::Reverse(x)))
            .unwrap_or(0),
    };
    let class: Vec<ClassId> = p.ops().iter().map(|o| o.class).collect();
    let mut model = Model::new(*budget);
    for x in 0..n {
        let a = anchor[comp[x]];
        let (lo, hi) = if x == first {
            (0, 0)
        } else if x == a {
            (0, iil - 1)
        } else {
            (d[a * n + x], iil - 1 - d[x * n + a])
        };
        model.time(lo, hi);
    }
    for e in p.edges() {
        let (i, j) = (e.from.index(), e.to.index());
        if i != j && comp[i] == comp[j] {
            model.after(i, j, i64::from(e.latency) - i64::from(e.distance) * iil);
        }
    }
    // Interchangeable operations: one class, each its own component.
    let mut last: Vec<Option<usize>> = vec![None; m.classes().len()];
    for x in (0..n).filter(|&x| members[comp[x]].len() == 1 && x != first) {
        if let Some(y) = last[class[x].index()].replace(x) {
            model.after(y, x, 0);
        }
    }
    model.resources(m, &class, Some(iil));
    let (answer, used) = model.solve();
    *budget -= used.min(*budget);
    match answer {
        Answer::Schedule(t) => Outcome::Found(shift(p, &comp, &members, t, iil)),
        Answer::Impossible => Outcome::Infeasible(Proof::Search { conflicts: used }),
        Answer::Unknown => Outcome::Undecided,
    }
}

/// `D(i, j)`, row-major: the longest paths with weights `ℓ − d·II`
/// (Floyd–Warshall); a positive `D(i, i)` means II < RecMII (Lesson 23.6).
pub(super) fn longest_paths(p: &Program, iil: i64) -> Vec<i64> {
    let n = p.len();
    let mut d = vec![NONE; n * n];
    for i in 0..n {
        d[i * n + i] = 0;
    }
    for e in p.edges() {
        let w = i64::from(e.latency) - i64::from(e.distance) * iil;
        let cell = &mut d[e.from.index() * n + e.to.index()];
        *cell = (*cell).max(w);
    }
    for k in 0..n {
        for i in 0..n {
            let dik = d[i * n + k];
            if dik == NONE {
                continue;
            }
            for j in 0..n {
                let dkj = d[k * n + j];
                if dkj != NONE && dik + dkj > d[i * n + j] {
                    d[i * n + j] = dik + dkj;
                }
            }
        }
    }
    d
}

/// Each operation's units per resource (Definition 23.1.2, equal resources
/// merged), and their sum per resource over the loop.
pub(super) fn unit_load(p: &Program, m: &Machine) -> (Vec<u64>, Vec<Vec<(usize, u64)>>) {
    let mut demand = vec![0u64; m.resources().len()];
    let mut load: Vec<Vec<(usize, u64)>> = Vec::with_capacity(p.len());
    for o in p.ops() {
        let mut units: Vec<(usize, u64)> = Vec::new();
        for &(r, _, k) in &m.class(o.class).folded {
            match units.last_mut() {
                Some(last) if last.0 == r.index() => last.1 += u64::from(k),
                _ => units.push((r.index(), u64::from(k))),
            }
        }
        for &(r, u) in &units {
            demand[r] += u;
        }
        load.push(units);
    }
    (demand, load)
}

/// A proof by counting: a resource whose units exceed its cells modulo II
/// (II < ResMII), else a class whose own offsets collide modulo II.
pub(super) fn counting_proof(p: &Program, m: &Machine, ii: u64, demand: &[u64]) -> Option<Proof> {
    for r in m.resource_ids() {
        let cells = u64::from(m.resource(r).capacity) * ii;
        if demand[r.index()] > cells {
            return Some(Proof::Cells {
                resource: m.resource(r).name.clone(),
                needed: demand[r.index()],
                cells,
            });
        }
    }
    p.ops().iter().find_map(|o| alone(m, o.class, ii))
}

/// Each operation's component (as an index), and the members of each.
pub(super) fn components(p: &Program) -> (Vec<usize>, Vec<Vec<usize>>) {
    let (comp, ncomp) = mii::sccs(p);
    let comp: Vec<usize> = comp.into_iter().map(|c| c as usize).collect();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); ncomp as usize];
    for (x, &c) in comp.iter().enumerate() {
        members[c].push(x);
    }
    (comp, members)
}

/// The recurrences, heaviest first, and the anchor of each component: its
/// heaviest member, the first one among equals.
pub(super) fn recurrence_order(
    members: &[Vec<usize>],
    load: &[Vec<(usize, u64)>],
) -> (Vec<usize>, Vec<usize>) {
    let weight = |x: usize| load[x].iter().map(|&(_, u)| u).sum::<u64>();
    let mut recs: Vec<(u64, usize)> = (0..members.len())
        .filter(|&c| members[c].len() > 1)
        .map(|c| (members[c].iter().map(|&x| weight(x)).sum::<u64>(), c))
        .collect();
    recs.sort_by_key(|&(w, c)| (std::cmp::Reverse(w), members[c][0]));
    let anchor: Vec<usize> = members
        .iter()
        .map(|ms| {
            ms.iter()
                .copied()
                .max_by_key(|&x| (weight(x), std::cmp::Reverse(x)))
                .unwrap_or(0)
        })
        .collect();
    (recs.into_iter().map(|(_, c)| c).collect(), anchor)
}

/// [`Proof::Alone`] when two offsets of `class`'s reservation on one
/// resource share a row modulo `ii` beyond its capacity.
fn alone(m: &Machine, class: ClassId, ii: u64) -> Option<Proof> {
    let c = m.class(class);
    let mut rows: Vec<(ResourceId, u64, u32)> = Vec::new();
    for &(r, k, u) in &c.folded {
        let row = u64::from(k) % ii;
        match rows.iter_mut().find(|x| x.0 == r && x.1 == row) {
            Some(x) => x.2 += u,
            None => rows.push((r, row, u)),
        }
    }
    rows.into_iter()
        .find(|&(r, _, u)| u > m.resource(r).capacity)
        .map(|(r, _, u)| Proof::Alone {
            class: c.name.clone(),
            resource: m.resource(r).name.clone(),
            needed: u,
            capacity: m.resource(r).capacity,
        })
}

/// The schedule of a solution: each component shifted by whole IIs, in
/// topological order, so that the edges between components hold; then the
/// earliest cycle moved to 0.
fn shift(
    p: &Program,
    comp: &[usize],
    members: &[Vec<usize>],
    mut t: Vec<i64>,
    ii: i64,
) -> Vec<Cycle> {
    // Tarjan numbers components so that edges go from higher to lower.
    for c in (0..members.len()).rev() {
        let mut k = NONE;
        for &j in &members[c] {
            for e in p.in_edges(OpId::from_index(j)) {
                let i = e.from.index();
                if comp[i] == c {
                    continue;
                }
                let need = t[i] + i64::from(e.latency) - i64::from(e.distance) * ii - t[j];
                k = k.max(ceil_div(need, ii));
            }
        }
        if k != NONE {
            for &j in &members[c] {
                t[j] += k * ii;
            }
        }
    }
    let min = t.iter().copied().min().unwrap_or(0);
    t.into_iter().map(|c| c - min).collect()
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
        assert!(matches!(
            search(&p, &m, ii - 1, 100_000),
            Outcome::Infeasible(_)
        ));
        let Outcome::Found(t) = search(&p, &m, ii, 100_000) else {
            panic!("II {ii} is feasible");
        };
        assert!(check_cycles(&p, &m, &t, Some(ii)).is_empty(), "{t:?}");
        p
    }

    #[test]
    fn minimal_ii_returns_when_the_search_cannot_start() {
        // II 0 and a loop above MAX_OPS are undecided without a node
        // spent: the rounds stop instead of doubling the slice forever.
        let m = Machine::toy();
        let p = parse("loop l\na: r1 = add r1, 1\n", "t.txt", &m).unwrap();
        let got = minimal_ii(&p, &m, 0, 1, DEFAULT_BUDGET);
        assert_eq!((got.found, got.lower, got.conflicts), (None, 0, 0));
        let body: String = (0..=MAX_OPS)
            .map(|i| format!("o{i}: r{i} = li 1\n"))
            .collect();
        let big = parse(&format!("loop big\n{body}"), "t.txt", &m).unwrap();
        let got = minimal_ii(&big, &m, 1, 40, DEFAULT_BUDGET);
        assert_eq!((got.found, got.lower, got.conflicts), (None, 1, 0));
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

    #[test]
    fn a_div_alone_does_not_fit_at_ii_3() {
        let m = Machine::toy();
        let p = parse("loop d\na: r1 = div r1, 3\n", "t.txt", &m).unwrap();
        // RecMII 6 first; at II 3 the div's offsets 0 and 3 share a row.
        assert_eq!(
            search(&p, &m, 3, 10),
            Outcome::Infeasible(Proof::Recurrence)
        );
        let p = parse("loop d\na: r1 = div r2, 3\n", "t.txt", &m).unwrap();
        assert_eq!(
            search(&p, &m, 3, 10),
            Outcome::Infeasible(Proof::Cells {
                resource: "mul".into(),
                needed: 4,
                cells: 3
            })
        );
    }
}
