//! An exact modulo scheduler: for a loop of up to [`MAX_OPS`] operations
//! and a given II, a branch and bound that either finds a modulo schedule
//! or proves that none exists (Lesson 23.6; resources counted by Algorithm
//! 23.1.4 modulo II). [`minimal_ii`] shares a budget among II = MII,
//! MII + 1, …: the smallest II with a schedule is the minimum once every
//! II below it is proven infeasible. The work is counted in search nodes,
//! not seconds, so the answer on a given loop is the same on every machine
//! and every run.
//!
//! # Why the search can be small
//!
//! Let `D(i, j)` be the longest path from `i` to `j` with edge weights
//! `ℓ − d·II`; every schedule has `t_j − t_i ≥ D(i, j)`, and a positive
//! `D(i, i)` means II < RecMII. The strongly connected components of the
//! dependence graph form a DAG, and shifting a component by a multiple of
//! II changes no row of the modulo reservation table: edges between
//! components can always be met afterwards by shifting the later ones. So
//!
//! * inside a recurrence (a component of two or more operations) the times
//!   are tied together: once one member (the anchor) is at `t_a`, member
//!   `x` lies in the window `[t_a + D(a, x), t_a − D(x, a)]`, and each
//!   placement narrows the windows of the others by `D`. `D` is closed
//!   under paths, so any time in a window extends to the rest of the
//!   recurrence: only resources make the search backtrack;
//! * an operation on no recurrence is constrained by resources alone: only
//!   its row `t mod II` matters, and operations of one class on no
//!   recurrence are interchangeable (the search gives them non-decreasing
//!   rows);
//! * among those, an operation whose reservation is one issue slot and at
//!   most one unit of one other resource, both at offset 0 (a *simple*
//!   one), is never branched on: which rows the simple operations can take
//!   is a flow problem — source → resource → (resource, row) → row → sink,
//!   capacities the free units — whose maximum flow is all of them exactly
//!   when they fit.
//!
//! # The search
//!
//! The first operation placed sits at cycle 0 (shifting a schedule keeps it
//! valid). At each node every operation still to place gets its domain:
//! the times of its window (a started recurrence) or the rows (otherwise)
//! where its class fits. The node fails when a domain is empty, when a
//! resource's remaining demand exceeds its free cells (`Σ units > free
//! cells mod II`), when more free cells of a resource than it can spare
//! lie where no unplaced operation's domain reaches (the coverage bound),
//! or when the flow relaxation fails: every unplaced
//! operation needs its issue units in a row of its domain, and every simple
//! one also its resource's unit in the same row. It then branches on the
//! operation of a started recurrence with the smallest domain, else anchors
//! the next recurrence (heaviest first) at each row, else places the next
//! non-simple operation of the class with the smallest domain. When only
//! simple operations are left, the flow places them. The search is
//! complete: when it ends without a schedule, none exists at that II.
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
use crate::engine::rtable::ModuloTable;
use crate::model::ids::{ClassId, Cycle, OpId, ResourceId};
use crate::model::machine::{ISSUE, Machine};
use crate::model::program::Program;

/// The largest loop the reference searches exactly; above it iterative
/// modulo scheduling alone gives the reference.
pub const MAX_OPS: usize = 40;

/// The largest II the exact search tries.
pub const MAX_II: u64 = 1024;

/// Search nodes (placements tried) allowed for one loop over all the IIs
/// it tries: about two seconds of a 2020s laptop core at the rate measured
/// in BENCHMARKS.md. Counted in nodes, so results never depend on speed.
pub const DEFAULT_NODES: u64 = 600_000;

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
    /// The branch and bound tried every placement.
    Search {
        /// Nodes the search visited.
        nodes: u64,
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
    /// The node budget ran out before the search decided.
    Undecided,
}

/// Decides whether `p` has a modulo schedule on `m` at `ii`, trying at most
/// `nodes` placements. Loops of more than [`MAX_OPS`] operations or IIs
/// above [`MAX_II`] are [`Outcome::Undecided`].
pub fn search(p: &Program, m: &Machine, ii: u64, nodes: u64) -> Outcome {
    let mut left = nodes;
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
    /// Nodes used.
    pub nodes: u64,
}

/// Nodes of the first round of [`minimal_ii`] for each II.
pub const FIRST_SLICE: u64 = 2_000;

/// Finds the smallest II from `from` up, below `below`, sharing `nodes`
/// among the IIs so that no II starves the others. First, until a
/// schedule is found, rounds of the search at every II not yet decided,
/// from the smallest up, each round giving each II four times the nodes
/// of the last (from [`FIRST_SLICE`]): a schedule a few nodes away at
/// II + 1 is found even when refuting II would take the whole budget.
/// Then the IIs below that schedule's, from the smallest up, each with
/// all the nodes left, until one is undecided (the minimum is then at
/// least that II) or has a schedule (it is the minimum). An II proven
/// infeasible is never searched again; a round starts its searches afresh
/// (at most a third of an II's nodes are repeated work).
pub fn minimal_ii(p: &Program, m: &Machine, from: u64, below: u64, nodes: u64) -> Minimum {
    let mut left = nodes;
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
        // Undecided without a node spent (an II or a loop the search does
        // not take) stays undecided: another round would change nothing.
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
        nodes: nodes - left,
    }
}

const NONE: i64 = i64::MIN / 4;

/// `⌈a / b⌉` for `b > 0`.
fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

/// What the search does with an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// On a recurrence: placed by time, inside its window.
    Rec,
    /// On no recurrence, not simple: placed by row, a class in
    /// non-decreasing rows.
    Free,
    /// On no recurrence and simple: placed by the flow.
    Pool,
}

/// For a simple class, the one resource besides issue (`Some(None)` when
/// the class takes an issue slot only); `None` for any other class.
fn lane_of(m: &Machine, class: ClassId) -> Option<Option<ResourceId>> {
    match m.class(class).folded.as_slice() {
        [(ISSUE, 0, 1)] => Some(None),
        [(ISSUE, 0, 1), (r, 0, 1)] => Some(Some(*r)),
        _ => None,
    }
}

/// Decides feasibility at `ii` as [`search`] does, taking its nodes from
/// `nodes`, which keeps what is left.
pub fn search_counted(p: &Program, m: &Machine, ii: u64, nodes: &mut u64) -> Outcome {
    let n = p.len();
    if n == 0 || n > MAX_OPS || ii == 0 || ii > MAX_II {
        return Outcome::Undecided;
    }
    let d = longest_paths(p, ii as i64);
    if (0..n).any(|i| d[i * n + i] > 0) {
        return Outcome::Infeasible(Proof::Recurrence);
    }
    let (demand, load) = unit_load(p, m);
    if let Some(proof) = counting_proof(p, m, ii, &demand) {
        return Outcome::Infeasible(proof);
    }
    let mut s = Search::new(p, m, ii, d, load, demand, *nodes);
    let found = s.node();
    *nodes = s.left;
    match found {
        Some(true) => Outcome::Found(s.cycles(p)),
        Some(false) => Outcome::Infeasible(Proof::Search { nodes: s.used }),
        None => Outcome::Undecided,
    }
}

/// `D(i, j)`, row-major: the longest paths with weights `ℓ − d·II`
/// (Floyd–Warshall); a positive `D(i, i)` means II < RecMII (Lesson 23.6).
fn longest_paths(p: &Program, iil: i64) -> Vec<i64> {
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
fn unit_load(p: &Program, m: &Machine) -> (Vec<u64>, Vec<Vec<(usize, u64)>>) {
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
fn counting_proof(p: &Program, m: &Machine, ii: u64, demand: &[u64]) -> Option<Proof> {
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
fn components(p: &Program) -> (Vec<usize>, Vec<Vec<usize>>) {
    let (comp, ncomp) = mii::sccs(p);
    let comp: Vec<usize> = comp.into_iter().map(|c| c as usize).collect();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); ncomp as usize];
    for (x, &c) in comp.iter().enumerate() {
        members[c].push(x);
    }
    (comp, members)
}

/// What the search does with each operation: on a recurrence, simple, or
/// neither.
fn roles(m: &Machine, comp: &[usize], members: &[Vec<usize>], class: &[ClassId]) -> Vec<Role> {
    (0..class.len())
        .map(|x| {
            if members[comp[x]].len() > 1 {
                Role::Rec
            } else if lane_of(m, class[x]).is_some() {
                Role::Pool
            } else {
                Role::Free
            }
        })
        .collect()
}

/// The recurrences, heaviest first, and the anchor of each component: its
/// heaviest member, the first one among equals.
fn recurrence_order(
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

/// The free operations grouped by class, in source order inside a group,
/// and each operation's group (`usize::MAX` outside them).
fn free_groups(role: &[Role], class: &[ClassId]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of = vec![usize::MAX; class.len()];
    for x in (0..class.len()).filter(|&x| role[x] == Role::Free) {
        match groups.iter().position(|g| class[g[0]] == class[x]) {
            Some(g) => {
                groups[g].push(x);
                group_of[x] = g;
            }
            None => {
                group_of[x] = groups.len();
                groups.push(vec![x]);
            }
        }
    }
    (groups, group_of)
}

/// The flow's lanes (the resources a simple class uses besides issue), and
/// each operation's lane when its class is simple.
fn flow_lanes(m: &Machine, class: &[ClassId]) -> (Vec<ResourceId>, Vec<Option<Option<usize>>>) {
    let mut lanes: Vec<ResourceId> = Vec::new();
    let mut lane: Vec<Option<Option<usize>>> = Vec::with_capacity(class.len());
    for &c in class {
        lane.push(lane_of(m, c).map(|l| {
            l.map(|r| match lanes.iter().position(|&x| x == r) {
                Some(i) => i,
                None => {
                    lanes.push(r);
                    lanes.len() - 1
                }
            })
        }));
    }
    (lanes, lane)
}

/// Each operation's issue units at offset 0.
fn issue_units(m: &Machine, class: &[ClassId]) -> Vec<u32> {
    class
        .iter()
        .map(|&c| {
            m.class(c)
                .folded
                .iter()
                .filter(|&&(r, k, _)| r == ISSUE && k == 0)
                .map(|&(_, _, u)| u)
                .sum()
        })
        .collect()
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

struct Search<'a> {
    m: &'a Machine,
    n: usize,
    ii: i64,
    /// Longest paths `D(i, j)` at this II, row-major.
    d: Vec<i64>,
    comp: Vec<usize>,
    members: Vec<Vec<usize>>,
    role: Vec<Role>,
    class: Vec<ClassId>,
    /// Per operation: its lane when its class is simple.
    lane: Vec<Option<Option<usize>>>,
    lanes: Vec<ResourceId>,
    /// Issue units at offset 0 per operation.
    issue: Vec<u32>,
    /// Units per resource per operation.
    load: Vec<Vec<(usize, u64)>>,
    /// Recurrent components in the order they are anchored.
    recs: Vec<usize>,
    anchor: Vec<usize>,
    /// Free operations by class, and each one's group.
    groups: Vec<Vec<usize>>,
    group_of: Vec<usize>,
    // The state.
    t: Vec<i64>,
    placed: Vec<bool>,
    /// The window of each member of a started recurrence.
    lo: Vec<i64>,
    hi: Vec<i64>,
    started: Vec<bool>,
    /// How many of each group are placed, and the row of the last one.
    group_next: Vec<usize>,
    group_row: Vec<i64>,
    nplaced: usize,
    table: ModuloTable,
    /// Free cells and unplaced demand per resource.
    free: Vec<u64>,
    demand: Vec<u64>,
    left: u64,
    used: u64,
    flow: Flow,
    /// Scratch of [`Search::coverage_fits`]: the (resource, row) cells some
    /// unplaced operation can still reach, and the classes of the pool seen.
    reach: Vec<bool>,
    seen: Vec<bool>,
}

impl<'a> Search<'a> {
    /// The search's structure at `ii` (components, roles, groups, lanes)
    /// and its empty state: nothing placed, every cell free.
    fn new(
        p: &Program,
        m: &'a Machine,
        ii: u64,
        d: Vec<i64>,
        load: Vec<Vec<(usize, u64)>>,
        demand: Vec<u64>,
        left: u64,
    ) -> Search<'a> {
        let n = p.len();
        let (comp, members) = components(p);
        let ncomp = members.len();
        let class: Vec<ClassId> = p.ops().iter().map(|o| o.class).collect();
        let role = roles(m, &comp, &members, &class);
        let (recs, anchor) = recurrence_order(&members, &load);
        let (groups, group_of) = free_groups(&role, &class);
        let (lanes, lane) = flow_lanes(m, &class);
        let issue = issue_units(m, &class);
        let mut free = vec![0u64; m.resources().len()];
        for r in m.resource_ids() {
            free[r.index()] = u64::from(m.resource(r).capacity) * ii;
        }
        let ngroups = groups.len();
        Search {
            m,
            n,
            ii: ii as i64,
            d,
            comp,
            members,
            role,
            class,
            lane,
            lanes,
            issue,
            load,
            recs,
            anchor,
            groups,
            group_of,
            t: vec![0; n],
            placed: vec![false; n],
            lo: vec![0; n],
            hi: vec![0; n],
            started: vec![false; ncomp],
            group_next: vec![0; ngroups],
            group_row: vec![0; ngroups],
            nplaced: 0,
            table: ModuloTable::new(m, ii),
            free,
            demand,
            left,
            used: 0,
            flow: Flow::default(),
            reach: Vec::new(),
            seen: Vec::new(),
        }
    }

    fn row(&self, t: i64) -> i64 {
        t.rem_euclid(self.ii)
    }

    fn fits(&self, x: usize, t: i64) -> bool {
        self.table.fits(self.m, self.class[x], t)
    }

    /// The times `x` may still take: its window's times where it fits (a
    /// started recurrence), else the rows where it fits (from the row of the
    /// last of its group, for a free one).
    fn domain(&self, x: usize, out: &mut Vec<i64>) {
        out.clear();
        if self.role[x] == Role::Rec && self.started[self.comp[x]] {
            for t in self.lo[x]..=self.hi[x] {
                if self.fits(x, t) {
                    out.push(t);
                }
            }
            return;
        }
        let start = match self.role[x] {
            Role::Free => self.group_row[self.group_of[x]],
            _ => 0,
        };
        for r in start..self.ii {
            if self.fits(x, r) {
                out.push(r);
            }
        }
    }

    /// One node: `Some(true)` when a schedule is complete (left in `t`),
    /// `Some(false)` when none extends the placements, `None` when the
    /// budget ran out.
    fn node(&mut self) -> Option<bool> {
        // Every resource's demand within its free cells.
        if self.demand.iter().zip(&self.free).any(|(d, f)| d > f) {
            return Some(false);
        }
        // Domains of the unplaced operations that are branched on.
        let mut doms: Vec<(usize, Vec<i64>)> = Vec::new();
        for x in 0..self.n {
            if self.placed[x] || self.role[x] == Role::Pool {
                continue;
            }
            let mut v = Vec::new();
            self.domain(x, &mut v);
            if v.is_empty() {
                return Some(false);
            }
            doms.push((x, v));
        }
        let leaf = doms.is_empty();
        if !leaf && !self.coverage_fits(&doms) {
            return Some(false);
        }
        if !self.flow_fits(&doms, leaf) {
            return Some(false);
        }
        if leaf {
            return Some(true);
        }
        let (x, mut values) = self.pick(doms);
        // The first placement is at cycle 0: a shifted schedule is valid.
        if self.nplaced == 0 {
            values.retain(|&t| t == 0);
        }
        for t in values {
            if self.left == 0 {
                return None;
            }
            self.left -= 1;
            self.used += 1;
            let saved = self.place(x, t);
            let found = self.node();
            if found == Some(true) {
                return found;
            }
            self.unplace(x, t, saved);
            found?;
        }
        Some(false)
    }

    /// The operation to branch on (see the module header), from the
    /// domains of a node that is not a leaf.
    fn pick(&self, doms: Vec<(usize, Vec<i64>)>) -> (usize, Vec<i64>) {
        let key = |x: usize, len: usize| {
            (
                len,
                std::cmp::Reverse(self.load[x].iter().map(|&(_, u)| u).sum::<u64>()),
                x,
            )
        };
        // A member of a started recurrence with the smallest domain.
        let best = doms
            .iter()
            .enumerate()
            .filter(|(_, (x, _))| self.role[*x] == Role::Rec && self.started[self.comp[*x]])
            .min_by_key(|(_, (x, v))| key(*x, v.len()))
            .map(|(i, _)| i);
        if let Some(i) = best {
            return take(doms, i);
        }
        // The next recurrence, at its anchor.
        if let Some(&c) = self.recs.iter().find(|&&c| !self.started[c]) {
            let a = self.anchor[c];
            if let Some(i) = doms.iter().position(|(x, _)| *x == a) {
                return take(doms, i);
            }
        }
        // The next free operation of the group with the smallest domain.
        let best = doms
            .iter()
            .enumerate()
            .filter(|(_, (x, _))| {
                let g = self.group_of[*x];
                self.groups[g][self.group_next[g]] == *x
            })
            .min_by_key(|(_, (x, v))| key(*x, v.len()))
            .map(|(i, _)| i);
        // Not reached: a group's next member is always unplaced.
        take(doms, best.unwrap_or(0))
    }

    /// Places `x` at `t`; returns what [`Search::unplace`] restores.
    fn place(&mut self, x: usize, t: i64) -> Saved {
        let mut saved = Saved {
            windows: Vec::new(),
            started: false,
            group_row: 0,
        };
        self.table.place(self.m, self.class[x], t, None);
        for &(r, u) in &self.load[x] {
            self.free[r] -= u;
            self.demand[r] -= u;
        }
        self.t[x] = t;
        self.placed[x] = true;
        self.nplaced += 1;
        match self.role[x] {
            Role::Rec => {
                let c = self.comp[x];
                let n = self.n;
                saved.started = !self.started[c];
                for &y in &self.members[c] {
                    if self.placed[y] {
                        continue;
                    }
                    let lo = t + self.d[x * n + y];
                    let hi = t - self.d[y * n + x];
                    if saved.started {
                        saved.windows.push((y, 0, 0));
                        self.lo[y] = lo;
                        self.hi[y] = hi;
                    } else {
                        saved.windows.push((y, self.lo[y], self.hi[y]));
                        self.lo[y] = self.lo[y].max(lo);
                        self.hi[y] = self.hi[y].min(hi);
                    }
                }
                self.started[c] = true;
            }
            Role::Free => {
                let g = self.group_of[x];
                saved.group_row = self.group_row[g];
                self.group_row[g] = self.row(t);
                self.group_next[g] += 1;
            }
            Role::Pool => {}
        }
        saved
    }

    fn unplace(&mut self, x: usize, t: i64, saved: Saved) {
        self.table
            .remove(self.m, self.class[x], t, OpId::from_index(x));
        for &(r, u) in &self.load[x] {
            self.free[r] += u;
            self.demand[r] += u;
        }
        self.placed[x] = false;
        self.nplaced -= 1;
        match self.role[x] {
            Role::Rec => {
                for (y, lo, hi) in saved.windows {
                    self.lo[y] = lo;
                    self.hi[y] = hi;
                }
                if saved.started {
                    self.started[self.comp[x]] = false;
                }
            }
            Role::Free => {
                let g = self.group_of[x];
                self.group_row[g] = saved.group_row;
                self.group_next[g] -= 1;
            }
            Role::Pool => {}
        }
    }

    /// The coverage bound: a free unit of a resource in a row that no
    /// unplaced operation can reach from its domain stays free in every
    /// completion, so when a resource has more such units than its slack
    /// (free cells − unplaced demand) the node has no completion. Strong
    /// when a resource is saturated (demand = cells, as at II = ResMII):
    /// then every free cell must be reachable.
    fn coverage_fits(&mut self, doms: &[(usize, Vec<i64>)]) -> bool {
        let ii = self.ii as usize;
        let nres = self.free.len();
        self.reach.clear();
        self.reach.resize(nres * ii, false);
        let mark = |reach: &mut Vec<bool>, class: ClassId, t: i64, m: &Machine| {
            for &(r, off, _) in &m.class(class).folded {
                let row = (t + i64::from(off)).rem_euclid(ii as i64) as usize;
                reach[r.index() * ii + row] = true;
            }
        };
        for (x, values) in doms {
            for &t in values {
                mark(&mut self.reach, self.class[*x], t, self.m);
            }
        }
        // The pool's operations reach every row where their class fits.
        self.seen.clear();
        self.seen.resize(self.m.classes().len(), false);
        for x in 0..self.n {
            if self.placed[x] || self.role[x] != Role::Pool {
                continue;
            }
            let c = self.class[x];
            if std::mem::replace(&mut self.seen[c.index()], true) {
                continue;
            }
            for row in 0..self.ii {
                if self.fits(x, row) {
                    mark(&mut self.reach, c, row, self.m);
                }
            }
        }
        for r in self.m.resource_ids() {
            let i = r.index();
            let slack = self.free[i] - self.demand[i];
            if slack >= self.free[i] {
                continue;
            }
            let cap = u64::from(self.m.resource(r).capacity);
            let mut lost = 0;
            for row in 0..ii {
                if !self.reach[i * ii + row] {
                    lost += cap - u64::from(self.table.used(r, row as i64));
                    if lost > slack {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The flow relaxation (see the module header): whether the issue slots
    /// and lanes left can take every unplaced operation, the simple pool
    /// anywhere and the others in the rows of their domains. At a leaf
    /// (`assign`), the pool's rows are taken from the flow into `t`.
    fn flow_fits(&mut self, doms: &[(usize, Vec<i64>)], assign: bool) -> bool {
        let ii = self.ii as usize;
        let nl = self.lanes.len();
        let rows = 2;
        let lane_node = |l: usize, w: usize| 2 + ii + l * ii + w;
        let mut f = std::mem::take(&mut self.flow);
        f.reset(2 + ii + nl * ii);
        let cap = |r: ResourceId, w: usize| {
            self.m
                .resource(r)
                .capacity
                .saturating_sub(self.table.used(r, w as i64))
        };
        for w in 0..ii {
            let c = cap(ISSUE, w);
            if c > 0 {
                f.edge(rows + w, 1, c);
            }
            for (l, &r) in self.lanes.iter().enumerate() {
                let c = cap(r, w);
                if c > 0 {
                    f.edge(lane_node(l, w), rows + w, c);
                }
            }
        }
        let mut need = 0u32;
        // The pool, one node per lane (and one for issue only).
        let mut pool: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
        for x in 0..self.n {
            if self.role[x] != Role::Pool || self.placed[x] {
                continue;
            }
            let l = self.lane[x].flatten();
            match pool.iter_mut().find(|p| p.0 == l) {
                Some(p) => p.1.push(x),
                None => pool.push((l, vec![x])),
            }
        }
        let mut pool_edges: Vec<(usize, usize, usize)> = Vec::new();
        for (i, (l, ops)) in pool.iter().enumerate() {
            let k = ops.len() as u32;
            let node = f.node();
            f.edge(0, node, k);
            need += k;
            for w in 0..ii {
                let to = match l {
                    Some(l) => lane_node(*l, w),
                    None => rows + w,
                };
                pool_edges.push((i, w, f.edge(node, to, k)));
            }
        }
        // The others, each in the rows of its domain.
        let mut seen = vec![false; ii];
        for (x, dom) in doms {
            let u = self.issue[*x];
            if u == 0 {
                continue;
            }
            let node = f.node();
            f.edge(0, node, u);
            need += u;
            seen.iter_mut().for_each(|s| *s = false);
            for &t in dom {
                let w = self.row(t) as usize;
                if seen[w] {
                    continue;
                }
                seen[w] = true;
                match self.lane[*x] {
                    Some(Some(l)) => f.edge(node, lane_node(l, w), u),
                    _ => f.edge(node, rows + w, u),
                };
            }
        }
        let ok = f.max_flow(0, 1) == need;
        if ok && assign {
            for (i, w, e) in pool_edges {
                for _ in 0..f.flow_on(e) {
                    if let Some(x) = pool[i].1.pop() {
                        self.t[x] = w as i64;
                    }
                }
            }
        }
        self.flow = f;
        ok
    }

    /// The schedule of a complete placement: each component shifted by
    /// whole IIs, in topological order, so that the edges between
    /// components hold; then the earliest cycle moved to 0.
    fn cycles(&self, p: &Program) -> Vec<Cycle> {
        let mut t = self.t.clone();
        let ii = self.ii;
        // Tarjan numbers components so that edges go from higher to lower.
        for c in (0..self.members.len()).rev() {
            let mut k = NONE;
            for &j in &self.members[c] {
                for e in p.in_edges(OpId::from_index(j)) {
                    let i = e.from.index();
                    if self.comp[i] == c {
                        continue;
                    }
                    let need = t[i] + i64::from(e.latency) - i64::from(e.distance) * ii - t[j];
                    k = k.max(ceil_div(need, ii));
                }
            }
            if k != NONE {
                for &j in &self.members[c] {
                    t[j] += k * ii;
                }
            }
        }
        let min = t.iter().copied().min().unwrap_or(0);
        t.into_iter().map(|c| c - min).collect()
    }
}

/// What placing an operation changed.
struct Saved {
    /// The windows it narrowed, before: `(operation, lo, hi)`.
    windows: Vec<(usize, i64, i64)>,
    /// Whether it anchored its recurrence.
    started: bool,
    /// The row of the last of its group before it.
    group_row: i64,
}

fn take(mut doms: Vec<(usize, Vec<i64>)>, i: usize) -> (usize, Vec<i64>) {
    doms.swap_remove(i)
}

/// A small maximum-flow network (Dinic), its buffers reused between calls.
#[derive(Default)]
struct Flow {
    head: Vec<u32>,
    next: Vec<u32>,
    to: Vec<u32>,
    cap: Vec<u32>,
    orig: Vec<u32>,
    level: Vec<i32>,
    it: Vec<u32>,
    queue: Vec<u32>,
}

const NIL: u32 = u32::MAX;

impl Flow {
    fn reset(&mut self, nodes: usize) {
        self.head.clear();
        self.head.resize(nodes, NIL);
        self.next.clear();
        self.to.clear();
        self.cap.clear();
        self.orig.clear();
    }

    fn node(&mut self) -> usize {
        self.head.push(NIL);
        self.head.len() - 1
    }

    /// Adds `a → b` with capacity `c`; returns the edge's index.
    fn edge(&mut self, a: usize, b: usize, c: u32) -> usize {
        let e = self.to.len();
        for (from, to, cap) in [(a, b, c), (b, a, 0)] {
            self.to.push(to as u32);
            self.cap.push(cap);
            self.orig.push(cap);
            self.next.push(self.head[from]);
            self.head[from] = (self.to.len() - 1) as u32;
        }
        e
    }

    fn flow_on(&self, e: usize) -> u32 {
        self.orig[e] - self.cap[e]
    }

    fn max_flow(&mut self, s: usize, t: usize) -> u32 {
        let n = self.head.len();
        let mut total = 0u32;
        loop {
            self.level.clear();
            self.level.resize(n, -1);
            self.queue.clear();
            self.level[s] = 0;
            self.queue.push(s as u32);
            let mut qi = 0;
            while qi < self.queue.len() {
                let v = self.queue[qi] as usize;
                qi += 1;
                let mut e = self.head[v];
                while e != NIL {
                    let w = self.to[e as usize] as usize;
                    if self.cap[e as usize] > 0 && self.level[w] < 0 {
                        self.level[w] = self.level[v] + 1;
                        self.queue.push(w as u32);
                    }
                    e = self.next[e as usize];
                }
            }
            if self.level[t] < 0 {
                return total;
            }
            self.it.clear();
            self.it.extend_from_slice(&self.head);
            loop {
                let f = self.push(s, t, u32::MAX);
                if f == 0 {
                    break;
                }
                total += f;
            }
        }
    }

    fn push(&mut self, v: usize, t: usize, limit: u32) -> u32 {
        if v == t {
            return limit;
        }
        while self.it[v] != NIL {
            let e = self.it[v] as usize;
            let w = self.to[e] as usize;
            if self.cap[e] > 0 && self.level[w] == self.level[v] + 1 {
                let f = self.push(w, t, limit.min(self.cap[e]));
                if f > 0 {
                    self.cap[e] -= f;
                    self.cap[e ^ 1] += f;
                    return f;
                }
            }
            self.it[v] = self.next[e];
        }
        0
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
        let got = minimal_ii(&p, &m, 0, 1, DEFAULT_NODES);
        assert_eq!((got.found, got.lower, got.nodes), (None, 0, 0));
        let body: String = (0..=MAX_OPS)
            .map(|i| format!("o{i}: r{i} = li 1\n"))
            .collect();
        let big = parse(&format!("loop big\n{body}"), "t.txt", &m).unwrap();
        let got = minimal_ii(&big, &m, 1, 40, DEFAULT_NODES);
        assert_eq!((got.found, got.lower, got.nodes), (None, 1, 0));
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
