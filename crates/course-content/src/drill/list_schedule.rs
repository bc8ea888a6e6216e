//! The list-schedule drill: the top-down list schedule of a random block
//! (the lab's scheduler, labs/ch23-sched/SPEC.md §1), placing each ready
//! operation in priority order when it Fits (Algorithm 23.1.4). The answer
//! is a submission file, `LABEL CYCLE` lines. The check names the root
//! cause first: the first cycle where the answer departs from the list
//! rule, and why (see `super::replay`); then every hard violation of a
//! wrong step, and the later differences grouped as consequences; and a
//! diff. A violation of a step the reference agrees with exists only
//! because of a wrong step (taking the wrong steps out makes it disappear:
//! `check::caused_by`), so it is listed under that step, never as a
//! mistake of its own.

use std::collections::BTreeMap;

use serde::Serialize;
use similar::TextDiff;

use super::{Drill, Mistake, ProgramProblem, by_label, departure, generated};
use crate::generate::GenParams;
use course_engine::engine::check::{self, ViolationKind};
use course_engine::engine::reference::{self, Schedule};
use course_engine::engine::rtable::GlobalTable;
use course_engine::formats::{answer, submission};
use course_engine::model::ids::{Cycle, OpId};
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::rng::GENERATOR_VERSION;

/// The problem: a random block.
pub type Problem = ProgramProblem<Solution>;

/// The reference list schedule with the heights that ordered it, and what
/// is known about the block's shortest schedule.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// h(x) per label.
    pub heights: BTreeMap<String, u64>,
    pub length: Cycle,
    /// The shortest schedule's length beside the list schedule's (the
    /// drill asks for the list schedule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimum: Option<OptimumFacts>,
    /// The issue cycle per label.
    pub schedule: BTreeMap<String, Cycle>,
    /// The same schedule by operation (for the text view).
    #[serde(skip)]
    pub reference: Schedule,
}

/// What the exact search established about a block's shortest schedule
/// ([`course_engine::engine::optimum::Optimum`]). Fields in alphabetical
/// order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptimumFacts {
    /// The length of the shortest schedule found.
    pub length: Cycle,
    /// A proven lower bound on every schedule's length.
    pub lower: Cycle,
    /// True when `length` is proven the shortest.
    pub proven: bool,
}

impl OptimumFacts {
    /// The facts of what the exact search found.
    pub fn of(o: &course_engine::engine::optimum::Optimum) -> OptimumFacts {
        OptimumFacts {
            length: o.length,
            lower: o.lower,
            proven: o.proven(),
        }
    }
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        self.schedule
            .iter()
            .map(|(label, c)| format!("{label} {c}\n"))
            .collect()
    }
}

/// The outcome of checking a list schedule.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Later placements that differ from the reference as a consequence of
    /// the first departure, in issue order.
    pub consequences: Vec<Consequence>,
    pub correct: bool,
    /// Unified diff of the answer against the reference.
    pub diff: String,
    pub drill: Drill,
    pub generator_version: u32,
    /// Problems with the file, then the root cause, then the other hard
    /// violations.
    pub mistakes: Vec<Mistake>,
    pub seed: u64,
    /// The block (for the text view).
    #[serde(skip)]
    pub program: Program,
    /// The machine (for the text view).
    #[serde(skip)]
    pub model: Machine,
    /// The student's cycles, when every operation has exactly one.
    #[serde(skip)]
    pub cycles: Option<Vec<Cycle>>,
    /// The reference schedule's length.
    #[serde(skip)]
    pub length: Cycle,
    /// The last hint on this answer: the list rule's ready set at the first
    /// cycle where the answer departs from it (none when it does not
    /// depart or cannot be read); made here, from the schedules the check
    /// already has.
    #[serde(skip)]
    pub departure_hint: Option<String>,
}

/// An operation placed elsewhere than the list rule places it, after the
/// first departure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Consequence {
    /// The student's cycle.
    pub cycle: Cycle,
    pub label: String,
    /// The reference's cycle.
    pub list_cycle: Cycle,
}

fn block(m: &Machine, params: &GenParams, seed: u64) -> Program {
    generated(m, params, seed, Kind::Block)
}

/// The block for `seed`, with the reference schedule when `solution`.
pub fn problem(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Problem {
    let p = block(m, params, seed);
    let solution = solution.then(|| {
        let s = reference::reference(&p, m);
        Solution {
            heights: by_label(&p, &s.heights),
            length: s.length,
            optimum: s.optimum.as_ref().map(OptimumFacts::of),
            schedule: by_label(&p, &s.cycles),
            reference: s,
        }
    });
    ProgramProblem::new(Drill::ListSchedule, m, p, seed, solution)
}

/// Checks a submission: problems with the file, then the root cause (the
/// first cycle where the answer departs from the list rule, and why), the
/// other hard violations, and the later differences as consequences.
pub fn check(m: &Machine, params: &GenParams, seed: u64, text: &str, file: &str) -> Report {
    let p = block(m, params, seed);
    let reference = reference::reference(&p, m);
    let sub = submission::parse(text, file);
    let result = check::check(&p, m, &sub);
    // The file first: unreadable lines, unknown labels, duplicates.
    let mut mistakes: Vec<Mistake> = sub
        .errors
        .iter()
        .map(|d| Mistake::new(ViolationKind::Format, d.to_string()))
        .collect();
    mistakes.extend(
        result
            .violations
            .iter()
            .filter(|v| v.kind != ViolationKind::Format && !is_hard(v.kind))
            .map(|v| Mistake::new(v.kind, v.message.clone())),
    );
    let departure = departure::first_departure(
        &p,
        m,
        &reference.cycles,
        &reference.heights,
        &result.placed,
        &result.violations,
    )
    .unwrap_or_default();
    // A hard violation of a step the reference agrees with is listed under
    // the wrong step that causes it (see `check::caused_by`).
    let (placed, wrong) = wrong_steps(&p, &reference.cycles, &result.placed);
    let causes = check::caused_by(&p, m, &placed, None, &result.violations, &wrong);
    let first_own = mistakes.len();
    mistakes.extend(departure.mistakes.iter().cloned());
    let mut owners: Vec<Option<OpId>> = vec![None; first_own];
    owners.extend(departure.owners.iter().map(|&x| Some(x)));
    let mut caused: Vec<(usize, Vec<OpId>)> = Vec::new();
    for (i, v) in result.violations.iter().enumerate() {
        if !is_hard(v.kind) || departure.covered.contains(&i) {
            continue;
        }
        // One ✗ per operation: a second rule the same step breaks is
        // listed under its first.
        let same = v.op.and_then(|x| owners.iter().position(|o| *o == Some(x)));
        match (&causes[i], same) {
            (Some(by), _) => caused.push((i, by.clone())),
            (None, Some(k)) => mistakes[k]
                .consequences
                .push(format!("also: {}", v.message)),
            (None, None) => {
                mistakes.push(Mistake::new(v.kind, v.message.clone()));
                owners.push(v.op);
            }
        }
    }
    for (i, by) in caused {
        let v = &result.violations[i];
        let Some(x) = v.op else { continue };
        let text = super::consequence_text(&p, &result, v, x, &by);
        let own = Mistake::new(v.kind, v.message.clone());
        attach_consequence(&mut mistakes, &owners, first_own, &by, text, own);
    }
    let consequences = later_differences(&p, &reference.cycles, &result, &departure);
    let diff = schedule_diff(&p, &reference.cycles, result.cycles.as_deref(), text);
    let departure_hint = departure.ready_at.as_ref().map(|(c, ready)| {
        format!(
            "Your answer first departs from the list rule at cycle {c}. Ready there, \
             highest first: {}. Replay that cycle: try each in this order against the table \
             of the placements before it.",
            ready_text(&p, &reference.heights, ready)
        )
    });
    Report {
        consequences,
        correct: mistakes.is_empty(),
        diff,
        drill: Drill::ListSchedule,
        generator_version: GENERATOR_VERSION,
        mistakes,
        seed,
        program: p,
        model: m.clone(),
        cycles: result.cycles,
        length: reference.length,
        departure_hint,
    }
}

/// A hard violation: an operation without a cycle, a latency not elapsed,
/// a resource over capacity (Algorithm 23.1.4).
fn is_hard(k: ViolationKind) -> bool {
    matches!(
        k,
        ViolationKind::Missing | ViolationKind::Latency | ViolationKind::Resource
    )
}

/// The operations the answer places, with their cycles, and the wrong
/// steps among them (placed elsewhere than `reference`), in the answer's
/// issue order.
fn wrong_steps(
    p: &Program,
    reference: &[Cycle],
    placed: &[Option<Cycle>],
) -> (Vec<(OpId, Cycle)>, Vec<OpId>) {
    let ops: Vec<(OpId, Cycle)> = p
        .op_ids()
        .filter_map(|x| placed[x.index()].map(|c| (x, c)))
        .collect();
    let mut wrong: Vec<OpId> = ops
        .iter()
        .filter(|&&(x, c)| c != reference[x.index()])
        .map(|&(x, _)| x)
        .collect();
    wrong.sort_by_key(|&x| (placed[x.index()], x));
    (ops, wrong)
}

/// The later placements that differ from `reference` only as a consequence
/// of the first departure (neither named by it nor violating anything), in
/// issue order.
fn later_differences(
    p: &Program,
    reference: &[Cycle],
    result: &check::CheckResult,
    departure: &departure::Departure,
) -> Vec<Consequence> {
    let mut consequences: Vec<Consequence> = p
        .op_ids()
        .filter(|x| !departure.named.contains(x))
        .filter(|&x| !result.violations.iter().any(|v| v.op == Some(x)))
        .filter_map(|x| {
            let mine = result.placed[x.index()]?;
            let list = reference[x.index()];
            (mine != list).then(|| Consequence {
                cycle: mine,
                label: p.label(x).to_string(),
                list_cycle: list,
            })
        })
        .collect();
    consequences.sort_by_key(|c| (c.cycle, c.list_cycle));
    consequences
}

/// The unified diff of the answer (its `cycles` when it places every
/// operation once, else its lines as written in `text`) against
/// `reference`.
fn schedule_diff(p: &Program, reference: &[Cycle], cycles: Option<&[Cycle]>, text: &str) -> String {
    let reference_text = check::submission_text(p, reference, None);
    let mine_text = match cycles {
        Some(t) => check::submission_text(p, t, None),
        None => answer_lines(text),
    };
    TextDiff::from_lines(&mine_text, &reference_text)
        .unified_diff()
        .header("your schedule", "reference")
        .to_string()
}

/// Lists `consequence` (a violation caused by the wrong steps `by`) under
/// the first mistake about one of `by`, else under the root cause (the
/// first mistake from `first_own` on, which `owners` parallels); when no
/// such mistake exists the violation is not dropped but becomes `own`, a
/// mistake of its own.
pub(super) fn attach_consequence(
    mistakes: &mut Vec<Mistake>,
    owners: &[Option<OpId>],
    first_own: usize,
    by: &[OpId],
    consequence: String,
    own: Mistake,
) {
    let k = by
        .iter()
        .find_map(|w| owners.iter().position(|o| *o == Some(*w)))
        .or((mistakes.len() > first_own).then_some(first_own));
    match k.and_then(|k| mistakes.get_mut(k)) {
        Some(mk) => mk.consequences.push(consequence),
        None => mistakes.push(own),
    }
}

/// One operation placed by hand, judged as the check judges it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlacedOp {
    /// Why the placement breaks a hard check (latency, resources); empty
    /// when it is accepted.
    pub conflicts: Vec<Mistake>,
    pub cycle: Cycle,
    pub label: String,
}

/// One resource in one cycle of a table in the making.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableCell {
    /// The operations holding a unit here, in placement order.
    pub holders: Vec<String>,
    /// Units in use (may exceed the capacity when a placement conflicts).
    pub used: u32,
}

/// One cycle of a table in the making, with a cell per resource in the
/// machine's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableRow {
    pub cells: Vec<TableCell>,
    pub cycle: Cycle,
}

/// A schedule in the making: each placement judged on its own, the
/// reservation table of everything placed so far, and what was ignored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placements {
    /// Placements that name no operation of the block, or repeat one.
    pub ignored: Vec<Mistake>,
    /// The placements, in the order they were made.
    pub placed: Vec<PlacedOp>,
    /// The occupied cycles only, in order (cycles may be far apart).
    pub rows: Vec<TableRow>,
}

/// Judges a schedule in the making for `seed`: `placed` lists `(label,
/// cycle)` in the order the student placed them. Each placement gets the
/// messages the full check gives for it (every latency between placed
/// operations, resources with Algorithm 23.1.4); nothing is said about the
/// operations not yet placed or about the list scheduler's order.
pub fn placements(
    m: &Machine,
    params: &GenParams,
    seed: u64,
    placed: &[(String, Cycle)],
) -> Placements {
    let p = block(m, params, seed);
    let labels = p.label_map();
    let mut ignored = Vec::new();
    let mut ops: Vec<(OpId, Cycle)> = Vec::new();
    for (label, c) in placed {
        match labels.get(label.as_str()) {
            None => ignored.push(Mistake::new(
                ViolationKind::Unknown,
                format!("'{label}' is not an operation of {}", p.name()),
            )),
            Some(_) if *c < 0 => ignored.push(Mistake::new(
                ViolationKind::Format,
                format!("{label} at {c}: cycles start at 0"),
            )),
            Some(&x) if ops.iter().any(|&(y, _)| y == x) => ignored.push(Mistake::new(
                ViolationKind::Duplicate,
                format!("{label} is placed twice"),
            )),
            Some(&x) => ops.push((x, *c)),
        }
    }
    let violations = check::placed_violations(&p, m, &ops, None);
    let placed = ops
        .iter()
        .map(|&(x, c)| PlacedOp {
            conflicts: violations
                .iter()
                .filter(|v| v.op == Some(x))
                .map(|v| Mistake::new(v.kind, v.message.clone()))
                .collect(),
            cycle: c,
            label: p.label(x).to_string(),
        })
        .collect();
    let mut table = GlobalTable::new();
    let mut order = ops.clone();
    order.sort_by_key(|&(_, c)| c);
    for &(x, c) in &order {
        table.place(m, p.op(x).class, c, Some(x));
    }
    let rows = table
        .occupied_rows()
        .into_iter()
        .map(|c| TableRow {
            cells: m
                .resource_ids()
                .map(|r| {
                    let cell = table.cell(r, c);
                    TableCell {
                        holders: cell
                            .map(|cell| cell.holders().map(|o| p.label(o).to_string()).collect())
                            .unwrap_or_default(),
                        used: cell.map_or(0, |cell| cell.used),
                    }
                })
                .collect(),
            cycle: c,
        })
        .collect();
    Placements {
        ignored,
        placed,
        rows,
    }
}

/// The most answer lines the diff shows: the diff's time grows with the
/// product of the two sides' lengths, and an answer file may be large.
const MAX_DIFF_LINES: usize = 1000;

/// The answer's meaningful lines, blanks collapsed: what the diff shows
/// when the answer does not place every operation once. Beyond
/// [`MAX_DIFF_LINES`] one line says how many more there are.
fn answer_lines(text: &str) -> String {
    let mut out = String::new();
    let mut more = 0usize;
    for (i, l) in answer::lines(text).enumerate() {
        if i >= MAX_DIFF_LINES {
            more += 1;
            continue;
        }
        out.push_str(&l.text.split_whitespace().collect::<Vec<_>>().join(" "));
        out.push('\n');
    }
    if more > 0 {
        out.push_str(&format!("… {more} more line(s) not shown\n"));
    }
    out
}

/// How many hints the drill has.
pub const HINTS: usize = 3;

/// The first `level` hints (at most [`HINTS`]) on the method of
/// Algorithm 23.1.4, each one step further; none gives a cycle.
pub fn hints(p: &Problem, level: usize) -> Vec<String> {
    let prog = &p.program;
    let s = reference::reference(prog, &p.model);
    let mut out = vec![
        "Top-down list scheduling (Lesson 23.3, as in the worked example of Lesson 23.1 §3; each placement tested with Fits of Algorithm 23.1.4): the priority of an operation \
         is its height h(x), the longest latency path from x to the end of the block. \
         In each cycle, starting at 0, the ready operations (every predecessor placed \
         and its latency elapsed) are tried from the highest height down; one is \
         placed when its reservation table Fits the table built so far at this cycle, \
         otherwise it waits for a later cycle."
            .to_string(),
    ];
    let label = |x: OpId| prog.label(x).to_string();
    let h = |x: OpId| s.heights[x.index()];
    let heights: Vec<String> = prog
        .op_ids()
        .map(|x| format!("h({}) = {}", label(x), h(x)))
        .collect();
    out.push(format!("The heights: {}.", heights.join(", ")));
    let m = &p.model;
    let worked = super::example::small_block(m, p.seed, |q, _| {
        let r = reference::reference(q, m);
        let name = |x: OpId| super::example::label(q, x);
        let heights: Vec<String> = q
            .op_ids()
            .map(|x| format!("{} {}", name(x), r.heights[x.index()]))
            .collect();
        let mut order: Vec<OpId> = q.op_ids().collect();
        order.sort_by_key(|&x| (r.cycles[x.index()], x.index()));
        let placed: Vec<String> = order
            .iter()
            .map(|&x| format!("{} {}", name(x), r.cycles[x.index()]))
            .collect();
        format!(
            "Worked on another block of this machine, {}. Heights: {}. Cycle by cycle, \
             the ready operations by height, each placed when it fits, give {}.",
            super::example::listing(q),
            heights.join(", "),
            placed.join(", ")
        )
    });
    out.extend(worked);
    out.truncate(level.min(HINTS));
    out
}

/// `a (height 5), b (height 3)`, highest first, ties in source order.
fn ready_text(prog: &Program, heights: &[u64], ready: &[OpId]) -> String {
    let v = departure::by_priority(heights, ready.iter());
    let words: Vec<String> = v
        .iter()
        .map(|&x| format!("{} (height {})", prog.label(x), heights[x.index()]))
        .collect();
    if words.is_empty() {
        "none".into()
    } else {
        words.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drill::MistakeKind;

    #[test]
    fn solutions_check_as_correct() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        for seed in 0..40 {
            let s = problem(&m, &params, seed, true).solution.unwrap();
            let r = check(&m, &params, seed, &s.answer(), "a.txt");
            assert!(r.correct, "seed {seed}: {:?}", r.mistakes);
            assert_eq!(r.diff, "");
            let o = s.optimum.as_ref().unwrap();
            assert!(o.lower <= o.length && o.length <= s.length, "seed {seed}");
        }
    }

    #[test]
    fn the_solution_says_when_a_shorter_schedule_exists() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        // Seed 32: the list schedule takes 8 cycles, the optimum 7.
        let s = problem(&m, &params, 32, true).solution.unwrap();
        let want = OptimumFacts {
            length: 7,
            lower: 7,
            proven: true,
        };
        assert_eq!((s.length, s.optimum.as_ref()), (8, Some(&want)));
        let j = serde_json::to_value(&s).unwrap();
        assert_eq!(j["optimum"]["length"], 7);
        assert_eq!(j["length"], 8);
    }

    #[test]
    fn wrong_answers_explain() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        let r = check(&m, &params, 4, "", "a.txt");
        assert!(!r.correct);
        assert!(
            r.mistakes
                .iter()
                .any(|x| x.message.contains("no cycle for"))
        );
        // One operation late: feasible, but not the list scheduler's choice.
        let s = problem(&m, &params, 4, true).solution.unwrap();
        let (last, c) = s.schedule.iter().max_by_key(|(_, c)| **c).unwrap();
        let late = s
            .answer()
            .replace(&format!("{last} {c}\n"), &format!("{last} {}\n", c + 5));
        let r = check(&m, &params, 4, &late, "a.txt");
        assert_eq!(r.mistakes.len(), 1);
        assert_eq!(r.mistakes[0].kind, MistakeKind::Order);
        assert!(r.diff.contains(&format!("+{last} {c}")), "{}", r.diff);
    }

    /// A violation caused by a wrong step when the replay found no
    /// departure to list it under is a mistake of its own, never dropped.
    #[test]
    fn a_consequence_without_a_cause_to_list_it_under_is_kept() {
        let (x, y) = (OpId::from_index(0), OpId::from_index(1));
        let own = || Mistake::new(ViolationKind::Resource, "f at 0: issue is full");
        let mut mistakes = Vec::new();
        attach_consequence(&mut mistakes, &[], 0, &[x], "c".into(), own());
        assert_eq!(mistakes, [own()]);
        // A file mistake before it does not take it either.
        let format = Mistake::new(ViolationKind::Format, "a.txt:1:1: x");
        let mut mistakes = vec![format.clone()];
        attach_consequence(&mut mistakes, &[None], 1, &[x], "c".into(), own());
        assert_eq!(mistakes, [format.clone(), own()]);
        // With a root cause it is listed under it, or under its own cause.
        let root = Mistake::new(MistakeKind::Order, "cycle 0: d");
        let mut mistakes = vec![format, root.clone(), root.clone()];
        let owners = [None, Some(y), Some(x)];
        attach_consequence(&mut mistakes, &owners, 1, &[x], "c".into(), own());
        assert_eq!(mistakes.len(), 3);
        assert_eq!(mistakes[2].consequences, ["c"]);
        attach_consequence(&mut mistakes, &owners, 1, &[], "d".into(), own());
        assert_eq!(mistakes[1].consequences, ["d"]);
    }

    #[test]
    fn placements_are_judged_one_by_one() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        let s = problem(&m, &params, 4, true).solution.unwrap();
        let mut placed: Vec<(String, Cycle)> =
            s.schedule.iter().map(|(l, &c)| (l.clone(), c)).collect();
        placed.sort_by_key(|(_, c)| *c);
        let all = placements(&m, &params, 4, &placed);
        assert!(all.placed.iter().all(|x| x.conflicts.is_empty()));
        assert!(all.ignored.is_empty());
        assert_eq!(all.rows.first().map(|r| r.cycle), Some(0));
        assert!(all.rows.iter().all(|r| r.cycle < s.length));
        // The last one moved to cycle 0: its inputs are not ready.
        let (label, _) = placed.last().unwrap().clone();
        let last = placed.len() - 1;
        placed[last].1 = 0;
        placed.push(("zz".into(), 1));
        placed.push((label.clone(), 2));
        let r = placements(&m, &params, 4, &placed);
        assert!(!r.placed[last].conflicts.is_empty(), "{r:?}");
        assert_eq!(r.ignored.len(), 2);
        assert!(
            r.placed[last].conflicts[0]
                .message
                .starts_with(&format!("{label} at 0: "))
        );
    }

    #[test]
    fn format_problems_are_located() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        let r = check(&m, &params, 4, "# mine\n  a x\n", "a.txt");
        assert_eq!(
            r.mistakes[0].kind,
            MistakeKind::Check(ViolationKind::Format)
        );
        assert_eq!(
            r.mistakes[0].message,
            "a.txt:2:3: a: expected a whole number for the cycle, found 'x'"
        );
        assert_eq!(r.diff.lines().nth(3), Some("-a x"), "{}", r.diff);
    }

    #[test]
    fn a_long_answer_shows_a_bounded_diff() {
        let m = Machine::toy();
        let params = GenParams::block_default();
        let text: String = (0..MAX_DIFF_LINES + 5)
            .map(|i| format!("zz{i} 3\n"))
            .collect();
        let r = check(&m, &params, 4, &text, "a.txt");
        assert!(!r.correct);
        assert!(r.diff.contains(&format!("-zz{} 3\n", MAX_DIFF_LINES - 1)));
        assert!(!r.diff.contains(&format!("-zz{} 3\n", MAX_DIFF_LINES)));
        assert!(
            r.diff.contains("-… 5 more line(s) not shown\n"),
            "{}",
            r.diff
        );
    }
}
