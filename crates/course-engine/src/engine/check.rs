//! The hard checks of product.md §8 on a submitted schedule (read by
//! [`crate::formats::submission`]): completeness, every dependence, resource
//! feasibility with Algorithm 23.1.4, modulo II for loops. Nothing is sized
//! by a submitted value (tables are sparse), and every problem becomes a
//! [`Violation`]. An operation without a cycle hides nothing: the
//! dependences and resources of the operations that have one are checked
//! all the same.
//!
//! Messages name operations and cycles. A register dependence is a result
//! that becomes visible; a memory dependence is an order on the address
//! ("the store h to \[w\] must come first"); issue capacity is counted in
//! slots.
//!
//! Only the first [`MAX_PER_KIND`] violations of each kind
//! are kept; the rest are counted, so a submission of junk costs memory in
//! proportion to its size at most while it is checked, and a report of
//! bounded size afterwards.
//!
//! ```
//! use course_engine::{engine::check, model::machine::Machine, model::program};
//! let m = Machine::toy();
//! let p = program::parse("block b\na: r1 = load [x]\nb: r2 = add r1, 1\n", "b.txt", &m).unwrap();
//! let sub = course_engine::formats::submission::parse("a 0\nb 2\n", "b.sched");
//! let r = check::check(&p, &m, &sub);
//! assert_eq!(r.violations.len(), 1);
//! assert_eq!(r.violations[0].message, "b at 2: a's result is visible from 3 (a at 0 + latency 3)");
//! ```

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use crate::engine::rtable::{Conflict, GlobalTable};
use crate::formats::submission::Submission;
use crate::model::ids::{Cycle, OpId};
use crate::model::machine::{ISSUE, Machine};
use crate::model::program::{Edge, EdgeKind, Kind, Program};
use crate::util::order::{Gathered, inverse, stable_sorted_by_key};

/// What kind of mistake a violation is (stable names for JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ViolationKind {
    /// A line that is not `LABEL CYCLE` / `ii N`, or a number out of range.
    Format,
    /// An operation of the input with no cycle.
    Missing,
    /// An operation given more than once.
    Duplicate,
    /// A label the input does not have.
    Unknown,
    /// A loop submission without `ii`, or an `ii` on a block.
    Ii,
    /// A dependence whose latency has not elapsed.
    Latency,
    /// A resource over capacity (Algorithm 23.1.4).
    Resource,
}

impl ViolationKind {
    /// The kind's name as printed and serialized (`format`, `latency`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            ViolationKind::Format => "format",
            ViolationKind::Missing => "missing",
            ViolationKind::Duplicate => "duplicate",
            ViolationKind::Unknown => "unknown",
            ViolationKind::Ii => "ii",
            ViolationKind::Latency => "latency",
            ViolationKind::Resource => "resource",
        }
    }
}

/// One mistake, with a message that names operations and cycles.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Violation {
    /// What kind of rule was broken.
    pub kind: ViolationKind,
    /// The explanation shown to the student.
    pub message: String,
    /// The submission line it concerns, when there is one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub line: Option<u32>,
    /// The operation placed wrongly (the consumer for latency, the one that
    /// did not fit for resources).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub op: Option<OpId>,
    /// The facts behind a latency or resource violation, as data (what
    /// the message says in words); `None` for the other kinds.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub detail: Option<Detail>,
}

/// Why a latency or resource violation holds, as the checker found it:
/// the class report (`content::class_report`) names root causes from
/// these, never from the message text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// `edge` is not honoured (`t_to + d·II < t_from + ℓ`, §2): its source
    /// is at `from_cycle`, its target at `to_cycle`.
    Dependence {
        /// The dependence.
        edge: Edge,
        /// Its source's cycle.
        from_cycle: Cycle,
        /// Its target's cycle.
        to_cycle: Cycle,
    },
    /// The operation placed at `at` does not fit (Definition 23.1.3): the
    /// overflow Algorithm 23.1.4 found, and the cycle of each holder of
    /// that cell.
    Conflict {
        /// The cycle of the operation that does not fit.
        at: Cycle,
        /// The cell that would overflow, and its owners.
        conflict: Conflict,
        /// Each owner of the cell with its cycle.
        holders: Vec<(OpId, Cycle)>,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The most violations of one kind that a [`CheckResult`] keeps.
pub const MAX_PER_KIND: usize = 20;

/// The most labels a "no cycle for …" message lists.
const MAX_MISSING_LISTED: usize = 20;

/// Violations as they are found: the first `limit` of each kind kept in
/// order, the rest counted by kind. A violation past the limit is never
/// written: its message (which may list every operation in a cell) would
/// cost as much as the submission for each one.
struct Collector {
    kept: Vec<Violation>,
    per_kind: BTreeMap<ViolationKind, usize>,
    omitted: BTreeMap<ViolationKind, u64>,
    limit: usize,
}

impl Default for Collector {
    /// Keeps [`MAX_PER_KIND`] of each kind, as [`check`] reports them.
    fn default() -> Collector {
        Collector {
            kept: Vec::new(),
            per_kind: BTreeMap::new(),
            omitted: BTreeMap::new(),
            limit: MAX_PER_KIND,
        }
    }
}

impl Collector {
    /// Keeps every violation.
    fn all() -> Collector {
        Collector {
            limit: usize::MAX,
            ..Collector::default()
        }
    }

    /// Keeps `make()` when there is room for one more of `kind`, else
    /// counts it without making it.
    fn add(&mut self, kind: ViolationKind, make: impl FnOnce() -> Violation) {
        let n = self.per_kind.entry(kind).or_insert(0);
        if *n < self.limit {
            *n += 1;
            self.kept.push(make());
        } else {
            *self.omitted.entry(kind).or_insert(0) += 1;
        }
    }

    /// The outcome: the violations kept and counted, with the placement.
    fn result(
        self,
        cycles: Option<Vec<Cycle>>,
        placed: Vec<Option<Cycle>>,
        ii: Option<u64>,
    ) -> CheckResult {
        CheckResult {
            violations: self.kept,
            omitted: self.omitted,
            cycles,
            placed,
            ii,
        }
    }

    fn push(&mut self, v: Violation) {
        self.add(v.kind, || v);
    }

    fn count(&mut self, kind: ViolationKind, more: u64) {
        if more > 0 {
            *self.omitted.entry(kind).or_insert(0) += more;
        }
    }
}

impl Extend<Violation> for Collector {
    fn extend<I: IntoIterator<Item = Violation>>(&mut self, iter: I) {
        for v in iter {
            self.push(v);
        }
    }
}

/// The outcome of the hard checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The violations found, in the order the checks ran, at most
    /// [`MAX_PER_KIND`] of each kind; empty when the schedule is valid.
    pub violations: Vec<Violation>,
    /// How many more violations of each kind were found and not kept.
    pub omitted: BTreeMap<ViolationKind, u64>,
    /// The cycle of each operation, when every operation has exactly one.
    pub cycles: Option<Vec<Cycle>>,
    /// The first cycle given for each operation, `None` when it has none.
    pub placed: Vec<Option<Cycle>>,
    /// The II used for a loop.
    pub ii: Option<u64>,
}

impl CheckResult {
    /// True when checks 1–4 all pass.
    pub fn valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Checks 1–4 of product.md §8 on a parsed submission.
pub fn check(p: &Program, m: &Machine, sub: &Submission) -> CheckResult {
    let mut violations = Collector::default();
    violations.extend(sub.errors.iter().map(|d| Violation {
        kind: ViolationKind::Format,
        message: d.message.clone(),
        line: Some(d.line),
        op: None,
        detail: None,
    }));
    violations.count(ViolationKind::Format, sub.more_errors);
    let cycles = first_cycles(p, sub, &mut violations);
    let complete = all_placed(p, &cycles, &mut violations);
    let ii = submitted_ii(p, sub, &mut violations);
    let placed: Vec<Option<Cycle>> = cycles.iter().map(|c| c.map(|(c, _)| c)).collect();
    let line_of = |x: OpId| cycles[x.index()].map(|(_, l)| l);
    // A loop without its II cannot be checked further.
    if p.kind() == Kind::Loop && ii.is_none() {
        return violations.result(None, placed, ii);
    }
    latency_over(p, &placed, ii, &line_of, &mut violations);
    resources_over(p, m, &placed, ii, &line_of, &mut violations);
    let complete = complete.then(|| placed.iter().map(|c| c.unwrap_or(0)).collect());
    violations.result(complete, placed, ii)
}

/// The first cycle and line given for each operation; a label the input
/// lacks and an operation given twice are violations.
fn first_cycles(
    p: &Program,
    sub: &Submission,
    violations: &mut Collector,
) -> Vec<Option<(Cycle, u32)>> {
    let labels = p.label_map();
    let mut cycles: Vec<Option<(Cycle, u32)>> = vec![None; p.len()];
    for pl in &sub.placements {
        match labels.get(pl.label.as_str()) {
            None => violations.push(Violation {
                kind: ViolationKind::Unknown,
                message: format!("'{}' is not an operation of {}", pl.label, p.name()),
                line: Some(pl.line),
                op: None,
                detail: None,
            }),
            Some(&x) => match cycles[x.index()] {
                Some((_, first)) => violations.push(Violation {
                    kind: ViolationKind::Duplicate,
                    message: format!("{} is placed twice (first on line {first})", pl.label),
                    line: Some(pl.line),
                    op: Some(x),
                    detail: None,
                }),
                None => cycles[x.index()] = Some((pl.cycle, pl.line)),
            },
        }
    }
    cycles
}

/// Whether every operation has a cycle (check 1); when not, one violation
/// lists the first of those without.
fn all_placed(p: &Program, cycles: &[Option<(Cycle, u32)>], violations: &mut Collector) -> bool {
    let missing: Vec<&str> = p
        .op_ids()
        .filter(|x| cycles[x.index()].is_none())
        .map(|x| p.label(x))
        .collect();
    if missing.is_empty() {
        return true;
    }
    let listed = missing[..missing.len().min(MAX_MISSING_LISTED)].join(", ");
    let more = match missing.len().saturating_sub(MAX_MISSING_LISTED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    violations.push(Violation {
        kind: ViolationKind::Missing,
        message: format!("no cycle for {listed}{more}"),
        line: None,
        op: None,
        detail: None,
    });
    false
}

/// The submission's II for a loop; a loop without one and a block with
/// one are violations.
fn submitted_ii(p: &Program, sub: &Submission, violations: &mut Collector) -> Option<u64> {
    let (message, line) = match (p.kind(), sub.ii) {
        (Kind::Loop, Some((ii, _))) => return Some(ii),
        (Kind::Block, None) => return None,
        (Kind::Loop, None) => (
            format!(
                "{} is a loop: the submission needs an 'ii N' line",
                p.name()
            ),
            None,
        ),
        (Kind::Block, Some((_, line))) => (
            format!("{} is a block: 'ii' belongs to loop submissions", p.name()),
            Some(line),
        ),
    };
    violations.push(Violation {
        kind: ViolationKind::Ii,
        message,
        line,
        op: None,
        detail: None,
    });
    None
}

/// Why `e` asks its target to wait until `need`, its source being at
/// `t_from`: `g's result is visible from 8 (g at 5 + latency 3)` for a
/// register, `the store h to [w] must come first: ℓ = 1, so g can issue
/// from 7 (h at 6)` for memory.
pub fn dependence_reason(p: &Program, e: &Edge, t_from: Cycle, ii: Option<u64>) -> String {
    let (a, b) = (p.label(e.from), p.label(e.to));
    let ii_v = i128::from(ii.unwrap_or(0));
    let ti = i128::from(t_from);
    let need = ti + i128::from(e.latency) - i128::from(e.distance) * ii_v;
    let back = match e.distance {
        0 => String::new(),
        1 => " of the previous iteration".into(),
        d => format!(" of {d} iterations back"),
    };
    let from = if e.distance == 0 {
        format!("{a} at {ti}")
    } else {
        format!("{a} at {ti} + {} − {}×II {ii_v}", e.latency, e.distance)
    };
    match e.kind {
        EdgeKind::Anti => format!(
            "{a} reads {} before {b} redefines it, so {b} may not issue before {a} (at {ti})",
            p.edge_register(e).unwrap_or("a register")
        ),
        EdgeKind::Mem => {
            let op = p.op(e.from);
            let addr = op.address().map(|x| x.text()).unwrap_or_default();
            let what = if op.writes_memory() {
                format!("the store {a} to {addr}")
            } else {
                format!("the load {a} from {addr}")
            };
            format!(
                "{what}{back} must come first: ℓ = {}, so {b} can issue from {need} ({from})",
                e.latency
            )
        }
        EdgeKind::Reg if e.distance == 0 => format!(
            "{a}'s result is visible from {need} ({a} at {ti} + latency {})",
            e.latency
        ),
        EdgeKind::Reg => format!(
            "it reads {a} from {} iteration{} back, visible from {need} ({a} at {ti} + latency {} − {}×II {ii_v})",
            e.distance,
            if e.distance == 1 { "" } else { "s" },
            e.latency,
            e.distance,
        ),
    }
}

/// Check 3, `t_j + d·II ≥ t_i + ℓ`, for every edge between two operations
/// that have a cycle.
fn latency_over(
    p: &Program,
    t: &[Option<Cycle>],
    ii: Option<u64>,
    line_of: &dyn Fn(OpId) -> Option<u32>,
    out: &mut Collector,
) {
    let ii_v = ii.unwrap_or(0) as i128;
    for e in p.edges() {
        if p.kind() == Kind::Block && e.distance > 0 {
            continue;
        }
        let (Some(ti), Some(tj)) = (t[e.from.index()], t[e.to.index()]) else {
            continue;
        };
        let need = ti as i128 + i128::from(e.latency) - i128::from(e.distance) * ii_v;
        if (tj as i128) < need {
            out.add(ViolationKind::Latency, || Violation {
                kind: ViolationKind::Latency,
                message: format!(
                    "{} at {tj}: {}",
                    p.label(e.to),
                    dependence_reason(p, e, ti, ii)
                ),
                line: line_of(e.to),
                op: Some(e.to),
                detail: Some(Detail::Dependence {
                    edge: *e,
                    from_cycle: ti,
                    to_cycle: tj,
                }),
            });
        }
    }
}

/// Check 4: place the operations in issue order with Algorithm 23.1.4
/// (modulo II for loops); every operation that does not fit is a violation
/// naming the resource, the cycle and the operations already there.
pub fn resource_violations(
    p: &Program,
    m: &Machine,
    t: &[Cycle],
    ii: Option<u64>,
    line_of: &dyn Fn(OpId) -> Option<u32>,
) -> Vec<Violation> {
    let placed: Vec<Option<Cycle>> = t.iter().copied().map(Some).collect();
    let mut out = Collector::all();
    resources_over(p, m, &placed, ii, line_of, &mut out);
    out.kept
}

/// Why an operation does not fit, from the conflict a table (modulo `ii`
/// when given) reported: `mul is taken at cycle 4 by f`, `issue is full at
/// cycle 5: its 2 slots are taken by d, g`.
pub fn conflict_reason(p: &Program, m: &Machine, ii: Option<u64>, conf: &Conflict) -> String {
    let res = m.resource(conf.resource);
    let owners: Vec<&str> = conf.owners.iter().map(|&o| p.label(o)).collect();
    let at = match ii {
        Some(ii) => format!("row {} (cycle mod II {ii})", conf.cycle),
        None => format!("cycle {}", conf.cycle),
    };
    let by = if owners.is_empty() {
        String::new()
    } else {
        format!(" by {}", owners.join(", "))
    };
    let units = if conf.resource == ISSUE {
        "slots"
    } else {
        "units"
    };
    if conf.capacity == 1 {
        format!("{} is taken at {at}{by}", res.name)
    } else {
        format!(
            "{} is full at {at}: its {} {units} are taken{by}",
            res.name, conf.capacity
        )
    }
}

/// Check 4 over the operations that have a cycle.
fn resources_over(
    p: &Program,
    m: &Machine,
    t: &[Option<Cycle>],
    ii: Option<u64>,
    line_of: &dyn Fn(OpId) -> Option<u32>,
    out: &mut Collector,
) {
    // Issue order; within a cycle, the order the submission lists them, so
    // the operation written last is the one that "does not fit".
    let mut order: Vec<(Cycle, OpId)> = p
        .op_ids()
        .filter_map(|x| t[x.index()].map(|c| (c, x)))
        .collect();
    order.sort_by_key(|&(c, x)| (c, line_of(x), x));
    resources_in_order(p, m, order, ii, line_of, out);
}

/// Check 4 on operations given in the order they are booked.
fn resources_in_order(
    p: &Program,
    m: &Machine,
    order: Vec<(Cycle, OpId)>,
    ii: Option<u64>,
    line_of: &dyn Fn(OpId) -> Option<u32>,
    out: &mut Collector,
) {
    let mut table = match (p.kind(), ii) {
        (Kind::Loop, Some(ii)) => GlobalTable::modulo(ii),
        _ => GlobalTable::new(),
    };
    // The cycle of each operation booked so far, for the holders of a
    // conflict.
    let mut at: Vec<Option<Cycle>> = vec![None; p.len()];
    for (c, x) in order {
        let class = p.op(x).class;
        if !table.fits(m, class, c) {
            out.add(ViolationKind::Resource, || {
                let conf = table.fits_why(m, class, c);
                Violation {
                    kind: ViolationKind::Resource,
                    message: format!(
                        "{} at {c}: {}",
                        p.label(x),
                        conf.as_ref()
                            .map(|conf| conflict_reason(p, m, table.ii(), conf))
                            .unwrap_or_default()
                    ),
                    line: line_of(x),
                    op: Some(x),
                    detail: conf.map(|conflict| Detail::Conflict {
                        at: c,
                        holders: conflict
                            .owners
                            .iter()
                            .filter_map(|&o| Some((o, at.get(o.index()).copied().flatten()?)))
                            .collect(),
                        conflict,
                    }),
                }
            });
        }
        at[x.index()] = Some(c);
        // Place it anyway so later operations see the real occupancy.
        table.place(m, class, c, Some(x));
    }
}

/// Checks 3 and 4 on a schedule in the making: `placed` holds the
/// operations placed so far (each once), in the order they were placed.
/// Only dependences between two placed operations are checked; resources
/// are booked with Algorithm 23.1.4 in issue order, and within a cycle the
/// operation placed last is the one that does not fit. The messages are
/// those of [`check`].
pub fn placed_violations(
    p: &Program,
    m: &Machine,
    placed: &[(OpId, Cycle)],
    ii: Option<u64>,
) -> Vec<Violation> {
    let mut cycle: Vec<Option<Cycle>> = vec![None; p.len()];
    for &(x, c) in placed {
        cycle[x.index()] = Some(c);
    }
    let none = |_: OpId| None;
    let mut out = Collector::all();
    latency_over(p, &cycle, ii, &none, &mut out);
    // A stable sort keeps the placement order within a cycle.
    let mut order: Vec<(Cycle, OpId)> = placed.iter().map(|&(x, c)| (c, x)).collect();
    order.sort_by_key(|&(c, _)| c);
    resources_in_order(p, m, order, ii, &none, &mut out);
    out.kept
}

/// Which violations of a placement exist only because of its wrong steps
/// (Definition 23.1.3 for resources, the latency rule of §2): `wrong` are
/// the operations the answer places differently from a reference.
///
/// The rule: a violation of an operation that is not wrong is a
/// consequence when checking the placement without the wrong operations
/// no longer finds a violation of that kind for that operation. Its cause
/// is the first wrong operation (in `wrong`'s order) whose removal alone
/// makes it disappear, else all of them. A violation of a wrong operation
/// is never a consequence. Returns, per violation of `violations`, its
/// cause when it is a consequence.
pub fn caused_by(
    p: &Program,
    m: &Machine,
    placed: &[(OpId, Cycle)],
    ii: Option<u64>,
    violations: &[Violation],
    wrong: &[OpId],
) -> Vec<Option<Vec<OpId>>> {
    // Hash sets, so that matching is linear in the violations: the wrong
    // operations, and each re-check as its (kind, operation) pairs.
    type Found = HashSet<(ViolationKind, Option<OpId>)>;
    let is_wrong: HashSet<OpId> = wrong.iter().copied().collect();
    let without = |gone: &dyn Fn(OpId) -> bool| -> Found {
        let kept: Vec<(OpId, Cycle)> = placed.iter().copied().filter(|&(x, _)| !gone(x)).collect();
        placed_violations(p, m, &kept, ii)
            .into_iter()
            .map(|w| (w.kind, w.op))
            .collect()
    };
    let has = |vs: &Found, v: &Violation| vs.contains(&(v.kind, v.op));
    let candidate = |v: &Violation| {
        matches!(v.kind, ViolationKind::Latency | ViolationKind::Resource)
            && v.op.is_some_and(|x| !is_wrong.contains(&x))
    };
    if wrong.is_empty() || !violations.iter().any(candidate) {
        return vec![None; violations.len()];
    }
    let all = without(&|x| is_wrong.contains(&x));
    // One re-check per wrong operation, only for small answers (a drill's
    // block); beyond that every consequence is blamed on all of them.
    let single: Vec<(OpId, Found)> = if wrong.len() <= 32 {
        wrong.iter().map(|&w| (w, without(&|x| x == w))).collect()
    } else {
        Vec::new()
    };
    violations
        .iter()
        .map(|v| {
            if !candidate(v) || has(&all, v) {
                return None;
            }
            Some(
                single
                    .iter()
                    .find(|(_, vs)| !has(vs, v))
                    .map_or_else(|| wrong.to_vec(), |(w, _)| vec![*w]),
            )
        })
        .collect()
}

/// Checks a schedule given as cycles (for engine-made schedules).
pub fn check_cycles(p: &Program, m: &Machine, t: &[Cycle], ii: Option<u64>) -> Vec<Violation> {
    let placed: Vec<Option<Cycle>> = t.iter().copied().map(Some).collect();
    let none = |_: OpId| None;
    let mut out = Collector::all();
    latency_over(p, &placed, ii, &none, &mut out);
    resources_over(p, m, &placed, ii, &none, &mut out);
    out.kept
}

/// A schedule as submission text (`LABEL CYCLE` in issue order, `ii` first
/// for loops): what a reference solution file holds.
pub fn submission_text(p: &Program, t: &[Cycle], ii: Option<u64>) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_submission(&mut s, p, t, ii);
    s
}

/// [`submission_text`] written to `w`, one line at a time.
pub fn write_submission<W: fmt::Write + ?Sized>(
    w: &mut W,
    p: &Program,
    t: &[Cycle],
    ii: Option<u64>,
) -> fmt::Result {
    if let Some(ii) = ii {
        writeln!(w, "ii {ii}")?;
    }
    // Issue order, ties by source order; the labels gathered into that
    // order first, so a large program is read in sequence.
    let ids: Vec<u32> = (0..p.len() as u32).collect();
    let order = stable_sorted_by_key(&ids, |&x| t[x as usize]);
    let labels = Gathered::new(&inverse(&order), 1, |x, _| &p.ops()[x].label);
    for (k, &x) in order.iter().enumerate() {
        writeln!(w, "{} {}", labels.get(k, 0), t[x as usize])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::list::list_schedule;
    use crate::model::program::parse;

    const RUNNING: &str = include_str!("../../../../labs/ch23-sched/inputs/running.txt");

    fn running() -> (Program, Machine) {
        let m = Machine::toy();
        (parse(RUNNING, "running.txt", &m).unwrap(), m)
    }

    /// Every step of the running example's list schedule moved to cycle 0
    /// in turn: each violation of an unmoved step is caused by the moved
    /// one, and the moved step's own violations are never consequences.
    #[test]
    fn violations_of_right_steps_are_caused_by_the_wrong_one() {
        let (p, m) = running();
        let s = list_schedule(&p, &m);
        let mut consequences = 0;
        for y in p.op_ids().filter(|y| s.cycles[y.index()] != 0) {
            let placed: Vec<(OpId, Cycle)> = p
                .op_ids()
                .map(|x| (x, if x == y { 0 } else { s.cycles[x.index()] }))
                .collect();
            let vs = placed_violations(&p, &m, &placed, None);
            let causes = caused_by(&p, &m, &placed, None, &vs, &[y]);
            for (v, cause) in vs.iter().zip(&causes) {
                if v.op == Some(y) {
                    assert_eq!(cause, &None, "{}", v.message);
                } else {
                    assert_eq!(cause.as_deref(), Some(&[y][..]), "{}", v.message);
                    consequences += 1;
                }
            }
            // Nothing wrong, nothing caused.
            assert!(
                caused_by(&p, &m, &placed, None, &vs, &[])
                    .iter()
                    .all(Option::is_none)
            );
        }
        assert!(consequences > 0);
    }

    fn msgs(src: &str) -> Vec<String> {
        let (p, m) = running();
        check(&p, &m, &crate::formats::submission::parse(src, "t.sched"))
            .violations
            .iter()
            .map(|v| format!("{}: {v}", v.kind.as_str()))
            .collect()
    }

    const GOOD: &str = "c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n";

    #[test]
    fn reference_passes() {
        assert!(msgs(GOOD).is_empty());
        let (p, m) = running();
        let s = list_schedule(&p, &m);
        assert!(check_cycles(&p, &m, &s.cycles, None).is_empty());
        assert_eq!(submission_text(&p, &s.cycles, None), GOOD);
    }

    #[test]
    fn the_lesson_style_reasons() {
        assert_eq!(
            msgs(&GOOD.replace("d 5", "d 4")),
            vec!["resource: line 6: d at 4: mul is taken at cycle 4 by f"]
        );
        assert_eq!(
            msgs(&GOOD.replace("i 8", "i 7")),
            vec!["latency: line 9: i at 7: g's result is visible from 8 (g at 5 + latency 3)"]
        );
    }

    #[test]
    fn memory_is_an_order_on_the_address() {
        // g reads [r2] and h stores to [w]: they may alias, g first (ℓ = 0).
        assert_eq!(
            msgs(&GOOD.replace("h 6", "h 4")),
            vec![
                "latency: line 8: h at 4: b's result is visible from 5 (b at 2 + latency 3)",
                "latency: line 8: h at 4: the load g from [r2] must come first: ℓ = 0, so h can issue from 5 (g at 5)"
            ]
        );
        let m = Machine::toy();
        let p = parse("block s\na: store [x], r9\nb: r1 = load [x]\n", "s.txt", &m).unwrap();
        let r = check(
            &p,
            &m,
            &crate::formats::submission::parse("a 0\nb 0\n", "s.sched"),
        );
        assert_eq!(
            r.violations[0].message,
            "b at 0: the store a to [x] must come first: ℓ = 1, so b can issue from 1 (a at 0)"
        );
    }

    #[test]
    fn a_missing_operation_hides_nothing() {
        let v = msgs("c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 7\n");
        assert_eq!(
            v,
            vec![
                "missing: no cycle for j",
                "latency: line 9: i at 7: g's result is visible from 8 (g at 5 + latency 3)"
            ]
        );
        let (p, m) = running();
        let r = check(
            &p,
            &m,
            &crate::formats::submission::parse("c 0\n", "t.sched"),
        );
        assert_eq!(r.cycles, None);
        assert_eq!(r.placed.iter().filter(|c| c.is_some()).count(), 1);
    }

    #[test]
    fn issue_capacity_is_counted_in_slots() {
        let v = msgs(&GOOD.replace("e 3", "e 5"));
        assert!(
            v.contains(&"resource: line 7: g at 5: issue is full at cycle 5: its 2 slots are taken by e, d".to_string()),
            "{v:?}"
        );
    }

    #[test]
    fn a_partial_schedule_is_checked_like_a_whole_one() {
        let (p, m) = running();
        let at = |l: &str, c: Cycle| (p.label_map()[l], c);
        let placed = [at("c", 0), at("a", 1), at("f", 4), at("d", 4)];
        let v = placed_violations(&p, &m, &placed, None);
        let msgs: Vec<&str> = v.iter().map(|v| v.message.as_str()).collect();
        assert_eq!(msgs, ["d at 4: mul is taken at cycle 4 by f"]);
        assert_eq!(v[0].op, Some(p.label_map()["d"]));
        let placed = [at("g", 5), at("i", 7)];
        let v = placed_violations(&p, &m, &placed, None);
        assert_eq!(
            v[0].message,
            "i at 7: g's result is visible from 8 (g at 5 + latency 3)"
        );
        assert!(placed_violations(&p, &m, &[at("i", 0)], None).is_empty());
    }

    #[test]
    fn adversarial_lines() {
        let v = msgs("\u{feff}c 0\r\na\t1  \r\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n");
        assert!(v.is_empty(), "{v:?}");
        assert!(
            msgs("")
                .iter()
                .any(|m| m.starts_with("missing: no cycle for a, b, c"))
        );
        assert!(msgs(&format!("{GOOD}a 9223372036854775808\n"))[0].contains("out of range"));
        assert!(msgs(&format!("{GOOD}a -3\n"))[0].contains("negative"));
        assert!(
            msgs(&format!("{GOOD}a 3\n"))[0].starts_with("duplicate: line 11: a is placed twice")
        );
        assert!(msgs(&format!("{GOOD}zz 3\n"))[0].starts_with("unknown: line 11: 'zz'"));
        assert!(msgs(&format!("{GOOD}ii 2\n"))[0].starts_with("ii: line 11"));
        assert!(msgs("\u{0}\u{1}garbage\n")[0].starts_with("format: line 1"));
    }

    #[test]
    fn violations_are_kept_up_to_the_cap_per_kind_and_counted_beyond() {
        let (p, m) = running();
        // 1 MiB of junk: every line a format problem, a duplicate or unknown.
        let mut junk = String::from(GOOD);
        while junk.len() < 1 << 20 {
            junk.push_str("a 1\nzz 3\n%%\n");
        }
        let sub = crate::formats::submission::parse(&junk, "junk.sched");
        let r = check(&p, &m, &sub);
        for kind in [
            ViolationKind::Format,
            ViolationKind::Duplicate,
            ViolationKind::Unknown,
        ] {
            let kept = r.violations.iter().filter(|v| v.kind == kind).count();
            assert_eq!(kept, MAX_PER_KIND, "{kind:?}");
            assert!(r.omitted[&kind] > 1000, "{kind:?}: {:?}", r.omitted);
        }
        assert!(!r.valid());
        // A long list of missing operations is cut too.
        let text: String = std::iter::once("block big\n".to_string())
            .chain((0..60).map(|i| format!("o{i}: r{i} = li {i}\n")))
            .collect();
        let big = parse(&text, "big.txt", &m).unwrap();
        let r = check(&big, &m, &Submission::default());
        assert!(
            r.violations[0].message.ends_with(" and 40 more"),
            "{}",
            r.violations[0]
        );
    }
}
