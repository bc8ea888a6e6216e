//! The modulo drill: a modulo schedule of a random loop, an II and an issue
//! cycle per operation such that every dependence holds and the modulo
//! reservation table never overflows. The answer is a submission file with
//! an `ii N` line. An II below MII is said first, with the bound that rules
//! it out (the critical recurrence, or a resource and its usage); a valid
//! schedule above the reference II is a mistake of quality.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{
    Drill, Mistake, MistakeKind, ProgramProblem, by_label, example, generated, violations,
};
use crate::generate::GenParams;
use course_engine::engine::check;
use course_engine::engine::check::ViolationKind;
use course_engine::engine::mii;
use course_engine::engine::modulo::IiFacts;
use course_engine::engine::reference;
use course_engine::formats::submission;
use course_engine::model::ids::Cycle;
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::rng::Rng;

/// The problem: a random loop.
pub type Problem = ProgramProblem<Solution>;

/// The bounds and the reference modulo schedule.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// The bounds, with the critical recurrence (for the text view).
    #[serde(skip)]
    pub bounds: mii::Bounds,
    pub ii: u64,
    pub mii: u64,
    pub rec_mii: u64,
    pub res_mii: u64,
    /// The issue cycle per label (one iteration).
    pub schedule: BTreeMap<String, Cycle>,
    /// The same cycles by operation (for the text view).
    #[serde(skip)]
    pub cycles: Vec<Cycle>,
    /// How the II was reached and whether it is the minimum (for the text
    /// view).
    #[serde(skip)]
    pub ii_facts: Option<IiFacts>,
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        let mut s = format!("ii {}\n", self.ii);
        for (label, c) in &self.schedule {
            s.push_str(&format!("{label} {c}\n"));
        }
        s
    }
}

/// A schedule that passed the hard checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Valid {
    /// The II the student used.
    pub ii: u64,
    /// The loop's MII.
    pub mii: u64,
    /// True when the reference reaches a smaller II.
    pub above_reference: bool,
    /// True when no valid schedule has a smaller II: II = MII, or the
    /// reference's II, proven minimal.
    pub optimal: bool,
    /// The student's cycles.
    pub cycles: Vec<Cycle>,
}

/// The outcome of checking a modulo schedule.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub correct: bool,
    pub drill: Drill,
    pub mistakes: Vec<Mistake>,
    pub seed: u64,
    /// Set when the schedule passed the hard checks (for the text view).
    #[serde(skip)]
    pub valid: Option<Valid>,
    /// The loop (for the text view).
    #[serde(skip)]
    pub program: Program,
    /// The machine (for the text view).
    #[serde(skip)]
    pub model: Machine,
}

/// Its own stream: the modulo body differs from the mii drill's.
fn body(m: &Machine, params: &GenParams, seed: u64) -> Program {
    let sub_seed = Rng::derived(seed, "modulo/body").next_u64();
    generated(m, params, sub_seed, Kind::Loop)
}

/// The loop for `seed`, with the bounds and the reference schedule when
/// `solution`.
pub fn problem(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Problem {
    let p = body(m, params, seed);
    let solution = solution.then(|| {
        let b = mii::analyze(&p, m);
        let s = reference::reference(&p, m);
        Solution {
            ii: s.ii.unwrap_or(0),
            mii: b.mii,
            rec_mii: b.rec_mii,
            res_mii: b.res_mii,
            schedule: by_label(&p, &s.cycles),
            cycles: s.cycles,
            bounds: b,
            ii_facts: s.ii_facts,
        }
    });
    ProgramProblem::new(Drill::Modulo, m, p, seed, solution)
}

/// Checks a modulo schedule: the hard checks, then its II against the
/// reference.
pub fn check(m: &Machine, params: &GenParams, seed: u64, text: &str, file: &str) -> Report {
    let p = body(m, params, seed);
    let b = mii::analyze(&p, m);
    let reference = reference::reference(&p, m);
    let reference_ii = reference.ii.unwrap_or(0);
    let proven = reference.ii_facts.as_ref().is_some_and(IiFacts::proven);
    let sub = submission::parse(text, file);
    let result = check::check(&p, m, &sub);
    let mut mistakes: Vec<Mistake> = result
        .ii
        .filter(|&ii| ii < b.mii)
        .map(|ii| Mistake::new(MistakeKind::BelowMii, below_mii(&p, m, &b, ii)))
        .into_iter()
        .collect();
    let below = mistakes.pop();
    mistakes = blamed(&p, m, &sub, &result, &reference.cycles, reference_ii, below);
    let valid = match (&result.cycles, result.valid()) {
        (Some(t), true) => {
            let ii = result.ii.unwrap_or(0);
            if ii > reference_ii {
                mistakes.push(Mistake::new(
                    MistakeKind::Quality,
                    format!(
                        "valid, but II = {ii} is above the reference II = {reference_ii} (MII = {})",
                        b.mii
                    ),
                ));
            }
            Some(Valid {
                ii,
                mii: b.mii,
                above_reference: ii > reference_ii,
                optimal: ii == b.mii || (proven && ii == reference_ii),
                cycles: t.clone(),
            })
        }
        _ => None,
    };
    Report {
        correct: mistakes.is_empty(),
        drill: Drill::Modulo,
        mistakes,
        seed,
        valid,
        program: p,
        model: m.clone(),
    }
}

/// The steps to blame in a schedule at `ii` with hard violations: of the
/// operations whose move alone makes the whole schedule valid (every other
/// step is right in that completion of the student's own answer; those
/// placed unlike the reference first), the one placed last, which breaks
/// the rule given the student's earlier steps; when no single move does,
/// every operation placed unlike the reference.
fn wrong_steps(
    p: &Program,
    m: &Machine,
    placed: &[(course_engine::model::ids::OpId, Cycle)],
    ii: u64,
    reference: &[Cycle],
) -> Vec<course_engine::model::ids::OpId> {
    let hard_free = |pl: &[(course_engine::model::ids::OpId, Cycle)]| {
        check::placed_violations(p, m, pl, Some(ii))
            .iter()
            .all(|v| !matches!(v.kind, ViolationKind::Latency | ViolationKind::Resource))
    };
    // Where one operation could go: a valid cycle lies within a latency
    // and a distance of II of a neighbour's, and only its row matters to
    // the resources, so the cycles within `reach` of the others' cover it.
    // Never a scan up to the answer's largest cycle (it may be 10¹²).
    let ii_c = ii as Cycle;
    let reach = p
        .edges()
        .iter()
        .map(|e| Cycle::from(e.latency) + Cycle::from(e.distance) * ii_c)
        .max()
        .unwrap_or(0)
        + ii_c;
    let candidates = |i: usize| -> std::collections::BTreeSet<Cycle> {
        placed
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .flat_map(|(_, &(_, t))| (t - reach).max(0)..=t.saturating_add(reach))
            .chain(0..ii_c)
            .collect()
    };
    let movable: Vec<_> = if hard_free(placed) {
        Vec::new()
    } else {
        placed
            .iter()
            .enumerate()
            .filter(|&(i, _)| {
                candidates(i).into_iter().any(|c| {
                    let mut moved = placed.to_vec();
                    moved[i].1 = c;
                    hard_free(&moved)
                })
            })
            .map(|(_, &(x, _))| x)
            .collect()
    };
    let unlike = unlike_reference(placed, reference);
    // Of the operations whose move alone would do, those placed unlike the
    // reference first (the others are where the reference has them).
    let both: Vec<_> = movable
        .iter()
        .copied()
        .filter(|x| unlike.contains(x))
        .collect();
    let chosen = match (both.is_empty(), movable.is_empty()) {
        (false, _) => both,
        (true, false) => movable,
        (true, true) => return unlike,
    };
    // Of those, the step placed last (in cycle order, then source order):
    // the one that breaks the rule given the student's earlier steps.
    let at = |x: course_engine::model::ids::OpId| {
        placed.iter().find(|&&(y, _)| y == x).map_or(0, |&(_, c)| c)
    };
    chosen
        .into_iter()
        .max_by_key(|&x| (at(x), x.index()))
        .into_iter()
        .collect()
}

/// The operations placed unlike the reference.
fn unlike_reference(
    placed: &[(course_engine::model::ids::OpId, Cycle)],
    reference: &[Cycle],
) -> Vec<course_engine::model::ids::OpId> {
    placed
        .iter()
        .filter(|&&(x, c)| c != reference[x.index()])
        .map(|&(x, _)| x)
        .collect()
}

/// The mistakes of a checked schedule after `ii_mistake` (the II below
/// MII, if any), with the list-schedule drill's consequence rule: a hard
/// violation of an operation the reference places the same way exists
/// only because of a wrong step (`check::caused_by`) and is listed under
/// it; one that disappears at the reference II with the same cycles is a
/// consequence of the II.
fn blamed(
    p: &Program,
    m: &Machine,
    sub: &submission::Submission,
    result: &check::CheckResult,
    reference: &[Cycle],
    reference_ii: u64,
    ii_mistake: Option<Mistake>,
) -> Vec<Mistake> {
    use course_engine::model::ids::OpId;
    let hard = |k: ViolationKind| matches!(k, ViolationKind::Latency | ViolationKind::Resource);
    let mut mistakes: Vec<Mistake> = ii_mistake.into_iter().collect();
    let ii_owner = mistakes.len();
    let mut soft = violations(sub, result);
    soft.retain(|mk| !matches!(mk.kind, MistakeKind::Check(k) if hard(k)));
    mistakes.extend(soft);
    let Some(ii) = result.ii else {
        return mistakes;
    };
    let placed: Vec<(OpId, Cycle)> = p
        .op_ids()
        .filter_map(|x| result.placed[x.index()].map(|c| (x, c)))
        .collect();
    // At another II than the reference's, its violations are the II's
    // consequences; the steps are judged against the reference.
    let wrong = if ii == reference_ii {
        wrong_steps(p, m, &placed, ii, reference)
    } else {
        unlike_reference(&placed, reference)
    };
    let causes = check::caused_by(p, m, &placed, Some(ii), &result.violations, &wrong);
    let at_reference: std::collections::HashSet<(ViolationKind, Option<OpId>)> =
        if ii != reference_ii {
            check::placed_violations(p, m, &placed, Some(reference_ii))
                .into_iter()
                .map(|v| (v.kind, v.op))
                .collect()
        } else {
            Default::default()
        };
    let first_own = mistakes.len();
    let mut owners: Vec<Option<OpId>> = vec![None; first_own];
    let mut later: Vec<(usize, Vec<OpId>)> = Vec::new();
    let mut of_ii: Vec<usize> = Vec::new();
    for (i, v) in result.violations.iter().enumerate() {
        if !hard(v.kind) {
            continue;
        }
        let unchanged = v.op.is_some_and(|x| !wrong.contains(&x));
        if ii != reference_ii && unchanged && !at_reference.contains(&(v.kind, v.op)) {
            of_ii.push(i);
            continue;
        }
        match &causes[i] {
            Some(by) => later.push((i, by.clone())),
            None => {
                mistakes.push(Mistake::new(v.kind, v.message.clone()));
                owners.push(v.op);
            }
        }
    }
    let mut first_own = first_own;
    if !of_ii.is_empty() {
        if ii_owner == 0 {
            first_own += 1;
            mistakes.insert(
                0,
                Mistake::new(
                    ViolationKind::Ii,
                    format!(
                        "ii {ii}: your cycles hold at II = {reference_ii} (the reference II) \
                         but not at II = {ii}"
                    ),
                ),
            );
            owners.insert(0, None);
        }
        for i in of_ii {
            let text = format!("at II = {ii}: {}", result.violations[i].message);
            mistakes[0].consequences.push(text);
        }
    }
    for (i, by) in later {
        let v = &result.violations[i];
        let Some(x) = v.op else { continue };
        let at = result.placed[x.index()].unwrap_or_default();
        let text = super::consequence_text(p, result, v, x, &by);
        // A wrong step with no violation of its own is named by the first
        // one it causes.
        if !by.iter().any(|w| owners.contains(&Some(*w)))
            && let Some(&w) = by.first()
        {
            let c = result.placed[w.index()].unwrap_or_default();
            let how = if v.kind == ViolationKind::Latency {
                "is too late for"
            } else {
                "takes what is needed by"
            };
            mistakes.push(Mistake::new(
                v.kind,
                format!("{} at {c} {how} {} at {at}", p.label(w), p.label(x)),
            ));
            owners.push(Some(w));
        }
        let own = Mistake::new(v.kind, v.message.clone());
        super::list_schedule::attach_consequence(&mut mistakes, &owners, first_own, &by, text, own);
    }
    mistakes
}

/// Why `ii` cannot work: each bound it is below, the binding one first.
fn below_mii(p: &Program, m: &Machine, b: &mii::Bounds, ii: u64) -> String {
    let rec = b.recurrence.as_ref().filter(|_| ii < b.rec_mii).map(|r| {
        format!(
            "the recurrence {} has latency ℓ = {} over distance {}, so II ≥ ⌈{}/{}⌉ = {} (RecMII)",
            r.path_string(p),
            r.latency,
            r.distance,
            r.latency,
            r.distance,
            b.rec_mii
        )
    });
    let res = (ii < b.res_mii).then(|| {
        let r = b.res_bottleneck;
        let (u, cap) = (b.usage[r.index()], m.resource(r).capacity);
        format!(
            "{} has usage U = {u} per iteration on capacity {cap}, so II ≥ ⌈{u}/{cap}⌉ = {} (ResMII)",
            m.resource(r).name,
            b.res_mii
        )
    });
    let mut why: Vec<String> = Vec::new();
    if b.rec_mii >= b.res_mii {
        why.extend(rec);
        why.extend(res);
    } else {
        why.extend(res);
        why.extend(rec);
    }
    format!(
        "II = {ii} is below MII = {}: {}; no schedule exists at this II",
        b.mii,
        why.join("; and ")
    )
}

/// How many hints the drill has.
pub const HINTS: usize = 3;

/// The first `level` hints (at most [`HINTS`]): how to find the II and
/// place the operations (Algorithm 23.1.4's table, modulo II), the order
/// of heights, then the method worked on another small loop of the same
/// machine; no figure of the student's answer.
pub fn hints(p: &Problem, level: usize) -> Vec<String> {
    let (prog, m) = (&p.program, &p.model);
    let b = mii::analyze(prog, m);
    let mut out = vec![
        "Compute MII = max(ResMII, RecMII) first: no II below it has a schedule. \
         Start at II = MII: place each operation at the first cycle from its \
         earliest start (every predecessor's latency elapsed, ℓ − d·II) whose \
         rows modulo II have room in the modulo reservation table; when an \
         operation cannot be placed, try II + 1."
            .to_string(),
    ];
    let h = modulo_heights(prog, m, b.mii);
    out.push(format!(
        "Place the operations in order of decreasing height at II = MII (the \
         longest path to the end with weights ℓ − d·II): {}.",
        height_order(prog, &h, |x| prog.label(x).to_string()).join(", ")
    ));
    let want = reference::reference(prog, m).ii.unwrap_or(0);
    let avoid = [b.mii, want].map(course_engine::util::ratio::Ratio::int);
    let worked = example::small_loop(m, p.seed, &avoid, |q, e| {
        // An example where the method of hint 1 reaches the smallest II.
        let Some((ii, cycles)) = by_heights(q, m, e.mii) else {
            return String::new();
        };
        if Some(ii) != reference::reference(q, m).ii {
            return String::new();
        }
        let order = height_order(q, &modulo_heights(q, m, ii), |x| {
            example::label(q, x).to_string()
        });
        let placed: Vec<String> = q
            .op_ids()
            .map(|x| format!("{} {}", example::label(q, x), cycles[x.index()]))
            .collect();
        format!(
            "Worked on another loop of this machine, {}. {}, so its ResMII is {}; \
             its RecMII is {} (the cycle {}); its MII is {}. At II {}, in the order \
             {}, the first cycles with room give {}, and every dependence holds.",
            example::listing(q),
            example::usage(m, e),
            e.res_mii,
            e.rec_mii,
            example::recurrence(q, e),
            e.mii,
            ii,
            order.join(", "),
            placed.join(", ")
        )
    });
    out.extend(worked);
    out.truncate(level.min(HINTS));
    out
}

/// The method of the first hint, literally: from II = `from` up, place the
/// operations in order of decreasing height, each at the first cycle from
/// its placed predecessors' earliest start whose rows modulo II have room
/// (Algorithm 23.1.4 on the modulo table); an II where an operation finds
/// no room within II cycles, or a dependence does not hold in the end, is
/// given up for the next. `None` past `from` + 8 · operations.
pub fn by_heights(prog: &Program, m: &Machine, from: u64) -> Option<(u64, Vec<Cycle>)> {
    use course_engine::engine::rtable::GlobalTable;
    let n = prog.len();
    'ii: for ii in from.max(1)..from.max(1) + 8 * n as u64 {
        let h = modulo_heights(prog, m, ii);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&x| (std::cmp::Reverse(h[x]), x));
        let mut table = GlobalTable::modulo(ii);
        let mut at: Vec<Option<Cycle>> = vec![None; n];
        let iil = ii as i64;
        for x in order {
            let id = course_engine::model::ids::OpId::from_index(x);
            let earliest = prog
                .in_edges(id)
                .filter_map(|e| {
                    at[e.from.index()]
                        .map(|c| c + i64::from(e.latency) - i64::from(e.distance) * iil)
                })
                .fold(0, i64::max);
            let class = prog.op(id).class;
            let Some(c) = (earliest..earliest + iil).find(|&c| table.fits(m, class, c)) else {
                continue 'ii;
            };
            table.place(m, class, c, Some(id));
            at[x] = Some(c);
        }
        let cycles: Vec<Cycle> = at.into_iter().map(|c| c.unwrap_or(0)).collect();
        let holds = prog.edges().iter().all(|e| {
            cycles[e.to.index()]
                >= cycles[e.from.index()] + i64::from(e.latency) - i64::from(e.distance) * iil
        });
        if holds {
            return Some((ii, cycles));
        }
    }
    None
}

/// The operations by decreasing height (ties in source order), named.
fn height_order(
    prog: &Program,
    h: &[i64],
    name: impl Fn(course_engine::model::ids::OpId) -> String,
) -> Vec<String> {
    let mut order: Vec<usize> = (0..prog.len()).collect();
    order.sort_by_key(|&x| (std::cmp::Reverse(h[x]), x));
    order
        .into_iter()
        .map(|x| name(course_engine::model::ids::OpId::from_index(x)))
        .collect()
}

/// Heights at `ii`: `h(x) = max(lat(x), max_{x→y} ℓ − d·ii + h(y))`, the
/// longest paths (finite for ii ≥ RecMII).
fn modulo_heights(prog: &Program, m: &Machine, ii: u64) -> Vec<i64> {
    let mut h: Vec<i64> = prog
        .ops()
        .iter()
        .map(|o| i64::from(m.class(o.class).latency))
        .collect();
    let ii = ii as i64;
    for _ in 0..=prog.len() {
        let mut changed = false;
        for x in prog.op_ids() {
            for e in prog.out_edges(x).filter(|e| e.to != x) {
                let v = i64::from(e.latency) - i64::from(e.distance) * ii + h[e.to.index()];
                if v > h[x.index()] {
                    h[x.index()] = v;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solutions_check_as_correct() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        for seed in 0..40 {
            let s = problem(&m, &params, seed, true).solution.unwrap();
            let r = check(&m, &params, seed, &s.answer(), "a.txt");
            assert!(r.correct, "seed {seed}: {:?}", r.mistakes);
            assert_eq!(r.valid.map(|v| v.ii), Some(s.ii));
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        let s = problem(&m, &params, 3, true).solution.unwrap();
        // Spread far apart: valid, but at a larger II than needed.
        let slow: String = std::iter::once(format!("ii {}\n", s.ii + 3))
            .chain(s.schedule.iter().map(|(l, c)| format!("{l} {c}\n")))
            .collect();
        let r = check(&m, &params, 3, &slow, "a.txt");
        assert!(!r.correct);
        assert_eq!(r.mistakes[0].kind, MistakeKind::Quality);
        let r = check(
            &m,
            &params,
            3,
            &s.answer().replacen("ii", "# ii", 1),
            "a.txt",
        );
        assert_eq!(r.mistakes[0].kind, MistakeKind::Check(ViolationKind::Ii));
        assert!(r.valid.is_none());
    }

    #[test]
    fn an_ii_below_mii_says_so_first() {
        let m = Machine::toy();
        let params = GenParams::loop_default();
        for seed in 0..40 {
            let s = problem(&m, &params, seed, true).solution.unwrap();
            if s.mii < 2 {
                continue;
            }
            let low = s
                .answer()
                .replacen(&format!("ii {}", s.ii), &format!("ii {}", s.mii - 1), 1);
            let r = check(&m, &params, seed, &low, "a.txt");
            assert_eq!(r.mistakes[0].kind, MistakeKind::BelowMii);
            let msg = &r.mistakes[0].message;
            assert!(msg.starts_with(&format!("II = {} is below MII = {}: ", s.mii - 1, s.mii)));
            let binding = if s.rec_mii >= s.res_mii {
                "(RecMII)"
            } else {
                "(ResMII)"
            };
            assert!(msg.contains(binding), "{msg}");
        }
    }

    #[test]
    fn format_problems_are_located() {
        let m = Machine::toy();
        let r = check(&m, &GenParams::loop_default(), 3, "ii two\n", "a.txt");
        assert_eq!(
            r.mistakes[0].message,
            "a.txt:1:1: expected a whole number for the II, found 'two'"
        );
    }
}
