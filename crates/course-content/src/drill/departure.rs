//! The list-scheduling rule replayed over a student's answer: where the
//! answer first departs from the rule, and why.
//!
//! The rule is the one of [`course_engine::engine::list`]: cycle by cycle, the
//! ready operations (every predecessor placed and its latency elapsed) are
//! tried by decreasing height, ties by source order, and each one that
//! Fits (Algorithm 23.1.4) is placed. The rule is deterministic, so while
//! the answer agrees with the reference schedule cycle by cycle it also
//! agrees with the rule applied to the answer's own history; the first
//! cycle whose set of operations differs is the first departure, and the
//! state before it is the reference's. Replaying that one cycle tells why
//! each differing operation is (or is not) there: it was not ready yet, it
//! did not fit, or an operation ahead of it in priority took what it
//! needed. Everything the answer does differently later follows from that
//! departure and is reported as its consequence, not as a mistake of its
//! own. A hard violation (a latency not elapsed, a resource over capacity,
//! an operation without a cycle) is a mistake of its own when it is about a
//! wrong step; one about a step the reference agrees with is listed under
//! the wrong step that causes it (`engine::check::caused_by`).

use std::cmp::Reverse;
use std::collections::BTreeSet;

use super::{Mistake, MistakeKind};
use course_engine::engine::check::{Violation, ViolationKind, conflict_reason};
use course_engine::engine::rtable::{Conflict, GlobalTable};
use course_engine::model::ids::{Cycle, OpId};
use course_engine::model::machine::{ISSUE, Machine};
use course_engine::model::program::Program;

/// What the first departure explains.
#[derive(Debug, Default)]
pub(super) struct Departure {
    /// The root cause, one mistake per operation that differs in that
    /// cycle.
    pub mistakes: Vec<Mistake>,
    /// Indices of the hard violations a root-cause mistake already states.
    pub covered: Vec<usize>,
    /// The operations the root cause names.
    pub named: BTreeSet<OpId>,
    /// The operation each mistake is about, parallel to `mistakes`.
    pub owners: Vec<OpId>,
    /// The cycle of the departure and the operations ready there by the
    /// list rule (`None` when the answer does not depart): the last hint.
    pub ready_at: Option<(Cycle, Vec<OpId>)>,
}

impl Departure {
    /// Records `mistake`, about operation `owner`.
    fn push(&mut self, owner: OpId, mistake: Mistake) {
        self.owners.push(owner);
        self.mistakes.push(mistake);
    }
}

/// The answer `placed` (a cycle per operation, `None` when it has none)
/// against the reference list schedule `reference` with its `heights`.
/// `violations` are the answer's hard violations.
pub(super) fn first_departure(
    p: &Program,
    m: &Machine,
    reference: &[Cycle],
    heights: &[u64],
    placed: &[Option<Cycle>],
    violations: &[Violation],
) -> Option<Departure> {
    let c = first_differing_cycle(p, reference, placed)?;
    let at = |c: Cycle, t: &dyn Fn(OpId) -> Option<Cycle>| -> Vec<OpId> {
        p.op_ids().filter(|&x| t(x) == Some(c)).collect()
    };
    let student = |x: OpId| placed[x.index()];
    let list = |x: OpId| Some(reference[x.index()]);
    let mine = at(c, &student);
    let rule = at(c, &list);
    let early: Vec<OpId> = by_priority(heights, mine.iter().filter(|x| !rule.contains(x)));
    let late: Vec<OpId> = by_priority(heights, rule.iter().filter(|x| !mine.contains(x)));
    let scene = Scene {
        p,
        m,
        reference,
        heights,
        placed,
        violations,
        c,
        turn: replay_cycle(p, m, reference, heights, c),
        late,
    };
    let mut d = Departure {
        ready_at: Some((c, scene.turn.ready.iter().copied().collect())),
        ..Departure::default()
    };
    for &y in &early {
        scene.explain_early(y, &mut d);
    }
    let unnamed: Vec<OpId> = scene
        .late
        .iter()
        .copied()
        .filter(|x| !d.named.contains(x))
        .collect();
    for x in unnamed {
        scene.explain_late(x, &mut d);
    }
    Some(d)
}

/// The first departure's cycle, with what explaining it takes.
struct Scene<'a> {
    p: &'a Program,
    m: &'a Machine,
    reference: &'a [Cycle],
    heights: &'a [u64],
    placed: &'a [Option<Cycle>],
    violations: &'a [Violation],
    /// The cycle.
    c: Cycle,
    /// The rule's replay of `c`.
    turn: Turn,
    /// The operations the rule places at `c` and the answer does not, by
    /// priority.
    late: Vec<OpId>,
}

impl Scene<'_> {
    /// The answer's violation of `kind` about `y`, if any.
    fn own(&self, y: OpId, kind: ViolationKind) -> Option<usize> {
        self.violations
            .iter()
            .position(|v| v.kind == kind && v.op == Some(y))
    }

    /// Why `y`, which the answer places at `c` and the rule does not, is
    /// not there by the rule: not ready, it does not fit, or operations
    /// ahead of it in priority take what it needs.
    fn explain_early(&self, y: OpId, d: &mut Departure) {
        let (c, label) = (self.c, self.p.label(y));
        d.named.insert(y);
        if let Some(i) = self.own(y, ViolationKind::Latency) {
            let v = &self.violations[i];
            let prefix = format!("{label} at {c}: ");
            let why = v.message.strip_prefix(&prefix).unwrap_or(&v.message);
            d.covered.push(i);
            d.push(
                y,
                Mistake::new(
                    ViolationKind::Latency,
                    format!("cycle {c}: {label} is not ready: {why}"),
                ),
            );
            return;
        }
        let message = match self.turn.outcome(y) {
            Outcome::NotReady => {
                format!("cycle {c}: {label} is not ready: {}", self.not_ready(y))
            }
            Outcome::Rejected(conf) => return self.explain_rejected(y, &conf, d),
            Outcome::Placed | Outcome::Untried => format!(
                "cycle {c}: the list rule does not place {label} here but at {}",
                self.reference[y.index()]
            ),
        };
        d.push(y, Mistake::new(MistakeKind::Order, message));
    }

    /// Why `y` is not ready at `c` by the rule though no latency is
    /// violated: a predecessor has no cycle, or shares this cycle over a
    /// latency-0 edge while the rule places it later.
    fn not_ready(&self, y: OpId) -> String {
        let pred = self
            .p
            .in_edges(y)
            .filter(|e| e.distance == 0)
            .find(|e| self.reference[e.from.index()] + Cycle::from(e.latency) > self.c)
            .map(|e| e.from);
        match pred {
            Some(x) if self.placed[x.index()].is_none() => format!(
                "it follows {}, which your answer does not place",
                self.p.label(x)
            ),
            Some(x) => format!(
                "it follows {}, which the list rule places at {}",
                self.p.label(x),
                self.reference[x.index()]
            ),
            None => "a predecessor is not placed yet".into(),
        }
    }

    /// `y` met the conflict `conf` in its turn (Algorithm 23.1.4): it does
    /// not fit at all, or the operations ahead of it took what it needs.
    fn explain_rejected(&self, y: OpId, conf: &Conflict, d: &mut Departure) {
        let ahead: Vec<OpId> = by_priority(
            self.heights,
            conf.owners.iter().filter(|o| self.late.contains(o)),
        );
        if ahead.is_empty() {
            if let Some(i) = self.own(y, ViolationKind::Resource) {
                d.covered.push(i);
            }
            let message = format!(
                "cycle {c}: {} does not fit: {}",
                self.p.label(y),
                conflict_reason(self.p, self.m, None, conf),
                c = self.c
            );
            d.push(y, Mistake::new(ViolationKind::Resource, message));
            return;
        }
        d.named.extend(ahead.iter().copied());
        let message = self.taken_ahead(y, &ahead, conf);
        d.push(y, Mistake::new(MistakeKind::Order, message));
    }

    /// `a (height 5) and y (height 3) were both ready; a comes first and
    /// takes the mul unit, so y waits until 4`.
    fn taken_ahead(&self, y: OpId, ahead: &[OpId], conf: &Conflict) -> String {
        let h = |x: OpId| self.heights[x.index()];
        let label = |x: OpId| self.p.label(x);
        let who: Vec<String> = ahead
            .iter()
            .chain(std::iter::once(&y))
            .map(|&x| format!("{} (height {})", label(x), h(x)))
            .collect();
        let firsts: Vec<&str> = ahead.iter().map(|&x| label(x)).collect();
        let tie = if ahead.iter().all(|&x| h(x) == h(y)) {
            " (same height, earlier in the block)"
        } else {
            ""
        };
        let (comes, takes) = if ahead.len() == 1 {
            ("comes", "takes")
        } else {
            ("come", "take")
        };
        format!(
            "cycle {c}: {} were {} ready; {} {comes} first{tie} and {takes} {}, so {} waits until {}",
            and_list(&who),
            if who.len() == 2 { "both" } else { "all" },
            and_list(&firsts),
            what_is_taken(self.m, conf, ahead.len()),
            label(y),
            self.reference[y.index()],
            c = self.c
        )
    }

    /// Why `x`, which the rule places at `c` and the answer does not, is
    /// there: it is ready and fits.
    fn explain_late(&self, x: OpId, d: &mut Departure) {
        d.named.insert(x);
        let yours = match self.placed[x.index()] {
            Some(t) => format!("your answer has it at {t}"),
            None => "your answer gives it no cycle".into(),
        };
        let message = format!(
            "cycle {c}: {} (height {}) is ready and fits, so the list rule places it at {c}; {yours}",
            self.p.label(x),
            self.heights[x.index()],
            c = self.c
        );
        d.push(x, Mistake::new(MistakeKind::Order, message));
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

/// What `n` operations ahead in priority took: `the mul unit`, `the last
/// issue slot`, `the last 2 alu units`.
fn what_is_taken(m: &Machine, conf: &Conflict, n: usize) -> String {
    let name = &m.resource(conf.resource).name;
    let (one, many) = if conf.resource == ISSUE {
        ("issue slot".to_string(), "issue slots".to_string())
    } else {
        (format!("{name} unit"), format!("{name} units"))
    };
    match (conf.capacity, n) {
        (1, _) => format!("the {one}"),
        (_, 1) => format!("the last {one}"),
        (cap, n) if n as u32 >= cap => format!("all {cap} {many}"),
        (_, n) => format!("the last {n} {many}"),
    }
}

/// The first cycle whose set of operations differs between `placed` and
/// `reference` (the first departure), if any.
fn first_differing_cycle(
    p: &Program,
    reference: &[Cycle],
    placed: &[Option<Cycle>],
) -> Option<Cycle> {
    let mut cycles: Vec<Cycle> = reference
        .iter()
        .copied()
        .chain(placed.iter().flatten().copied())
        .collect();
    cycles.sort_unstable();
    cycles.dedup();
    cycles.into_iter().find(|&c| {
        p.op_ids()
            .any(|x| (placed[x.index()] == Some(c)) != (reference[x.index()] == c))
    })
}

/// Operations by decreasing height, ties by source order.
pub(super) fn by_priority<'a>(heights: &[u64], ops: impl Iterator<Item = &'a OpId>) -> Vec<OpId> {
    let mut v: Vec<OpId> = ops.copied().collect();
    v.sort_by_key(|&x| (Reverse(heights[x.index()]), x));
    v
}

/// What the rule did with one operation in the replayed cycle.
#[derive(Clone, Debug)]
enum Outcome {
    /// Never ready in that cycle.
    NotReady,
    /// Placed.
    Placed,
    /// Its turn came and Fits said no.
    Rejected(Conflict),
    /// Ready, but the cycle ended before its turn (cannot happen: every
    /// ready operation gets a turn).
    Untried,
}

/// One cycle of the rule: the order operations were tried in, each one's
/// outcome, and every operation that was ready.
struct Turn {
    tried: Vec<(OpId, Outcome)>,
    ready: BTreeSet<OpId>,
}

impl Turn {
    fn outcome(&self, x: OpId) -> Outcome {
        match self.tried.iter().find(|(o, _)| *o == x) {
            Some((_, out)) => out.clone(),
            None if self.ready.contains(&x) => Outcome::Untried,
            None => Outcome::NotReady,
        }
    }
}

/// Replays cycle `c` of the list rule, the reference's placements before it
/// standing for the answer's (they agree up to `c`).
fn replay_cycle(p: &Program, m: &Machine, reference: &[Cycle], heights: &[u64], c: Cycle) -> Turn {
    let class = |x: OpId| p.op(x).class;
    let mut table = GlobalTable::new();
    for x in p.op_ids().filter(|x| reference[x.index()] < c) {
        table.place(m, class(x), reference[x.index()], Some(x));
    }
    let mut now: BTreeSet<OpId> = BTreeSet::new();
    let is_ready = |y: OpId, now: &BTreeSet<OpId>| {
        reference[y.index()] >= c
            && !now.contains(&y)
            && p.in_edges(y).filter(|e| e.distance == 0).all(|e| {
                let t = reference[e.from.index()];
                let before_c = t < c && t + Cycle::from(e.latency) <= c;
                let in_c = now.contains(&e.from) && e.latency == 0;
                before_c || in_c
            })
    };
    let mut ready: BTreeSet<OpId> = p.op_ids().filter(|&y| is_ready(y, &now)).collect();
    let mut tried: Vec<(OpId, Outcome)> = Vec::new();
    let mut rejected: BTreeSet<OpId> = BTreeSet::new();
    loop {
        let next = by_priority(
            heights,
            ready
                .iter()
                .filter(|x| !now.contains(x) && !rejected.contains(x)),
        )
        .first()
        .copied();
        let Some(x) = next else { break };
        match table.fits_why(m, class(x), c) {
            Some(conf) => {
                rejected.insert(x);
                tried.push((x, Outcome::Rejected(conf)));
            }
            None => {
                table.place(m, class(x), c, Some(x));
                now.insert(x);
                tried.push((x, Outcome::Placed));
                for e in p.out_edges(x).filter(|e| e.distance == 0 && e.latency == 0) {
                    if is_ready(e.to, &now) {
                        ready.insert(e.to);
                    }
                }
            }
        }
    }
    Turn { tried, ready }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{self, GenParams};
    use course_engine::engine::check;
    use course_engine::formats::submission;
    use course_engine::model::program::Kind;

    /// The replayed cycle places exactly what the engine's list scheduler
    /// places there, on every cycle of many blocks (toy and a wider machine).
    #[test]
    fn replay_agrees_with_the_scheduler() {
        let wide = Machine::from_yaml(
            include_str!("../../../../tests/data/wide.yaml"),
            "wide.yaml",
        )
        .unwrap();
        for m in [Machine::toy(), wide] {
            for seed in 0..150 {
                let (_, p) =
                    generate::program(&m, &GenParams::block_default(), seed, None, Kind::Block);
                let s = course_engine::engine::list::list_schedule(&p, &m);
                let mut cycles = s.cycles.clone();
                cycles.sort_unstable();
                cycles.dedup();
                for c in cycles {
                    let turn = replay_cycle(&p, &m, &s.cycles, &s.heights, c);
                    let placed: Vec<OpId> = turn
                        .tried
                        .iter()
                        .filter(|(_, o)| matches!(o, Outcome::Placed))
                        .map(|&(x, _)| x)
                        .collect();
                    let mut want: Vec<OpId> =
                        p.op_ids().filter(|x| s.cycles[x.index()] == c).collect();
                    let mut got = placed.clone();
                    got.sort();
                    want.sort();
                    assert_eq!(got, want, "{} seed {seed} cycle {c}", m.name());
                }
            }
        }
    }

    /// Any answer (shuffled, shifted, truncated) gets a departure that names
    /// operations, and never a panic.
    #[test]
    fn every_wrong_answer_has_a_first_departure() {
        let m = Machine::toy();
        for seed in 0..100u64 {
            let (_, p) =
                generate::program(&m, &GenParams::block_default(), seed, None, Kind::Block);
            let s = course_engine::engine::list::list_schedule(&p, &m);
            let mut rng = course_engine::util::rng::Rng::new(seed);
            let mut text = String::new();
            for x in p.op_ids() {
                if rng.percent(10) {
                    continue;
                }
                let t = s.cycles[x.index()] + rng.range(0, 2) as Cycle;
                let t = (t - rng.range(0, 1) as Cycle).max(0);
                text.push_str(&format!("{} {t}\n", p.label(x)));
            }
            let r = check::check(&p, &m, &submission::parse(&text, "a"));
            let d = first_departure(&p, &m, &s.cycles, &s.heights, &r.placed, &r.violations);
            let same = p
                .op_ids()
                .all(|x| r.placed[x.index()] == Some(s.cycles[x.index()]));
            match d {
                None => assert!(same, "seed {seed}:\n{text}"),
                Some(d) => {
                    assert!(!same);
                    assert!(!d.mistakes.is_empty() && !d.named.is_empty(), "seed {seed}");
                    for m in &d.mistakes {
                        assert!(m.message.starts_with("cycle "), "{}", m.message);
                        assert!(!m.message.contains("does not place"), "{}", m.message);
                    }
                }
            }
        }
    }
}
