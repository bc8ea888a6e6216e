//! What a class gets wrong (`course grade --lab … CLASS --report`): for
//! instructors, per lab input and over the class, the distribution of
//! scores, the root causes of the mistakes with how many students made
//! each, and the operations most often misplaced. Computed once here from
//! the graded reports; `view::class_report` renders the one value as
//! text, HTML and JSON.
//!
//! A cause is named from the checker's structured violations
//! ([`Violation::kind`], [`Violation::detail`]), never from their message
//! text:
//!
//! - a dependence that is short (§2, `t_j + d·II ≥ t_i + ℓ`) by its edge:
//!   a register result read `k` cycles after its producer is "LOAD
//!   latency taken as k"; a memory edge is the memory order broken (which
//!   access came first); an anti edge is a register redefined before it
//!   is read; a carried register edge is a recurrence too early for II;
//! - a resource overflow (Definition 23.1.3, Algorithm 23.1.4) by its
//!   cell: the issue slots; a unit held past its first cycle by one of the
//!   operations in the cell ("div occupancy ignored"); rows that collide
//!   only modulo II; else two operations on one unit in one cycle;
//! - a loop whose submitted II is below ResMII or RecMII (the two bounds
//!   of Theorem 23.1.12, as Lesson 23.6 names them)
//!   is that one cause, and absorbs the resource overflows (below ResMII)
//!   or the short dependences on a recurrence (below RecMII) it forces;
//! - the other kinds as they are (missing operation, placed twice, …), a
//!   format problem without a line being no readable submission at all.
//!
//! Hidden inputs are shown as the text report shows them: the kinds of
//! mistakes only (no operation, no finer cause). Inputs a grading error
//! kept from being graded count nowhere but in `not_graded`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::lab::{InputReport, Lab, LabInput, StudentReport, round2};
use course_engine::engine::check::{Detail, Violation, ViolationKind};
use course_engine::engine::mii;
use course_engine::model::ids::{Cycle, OpId, ResourceId};
use course_engine::model::machine::{ISSUE, Machine};
use course_engine::model::program::{EdgeKind, Kind, Program};

/// How many bins a histogram of scores has.
pub const BINS: usize = 10;

/// How many operations an input lists as most often misplaced.
pub const MAX_MISPLACED: usize = 10;

/// The root cause of a mistake, finer than [`ViolationKind`] where the
/// checker's violation says why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// A student on the roster without a folder.
    NoFolder,
    /// No file, a refused or unreadable one, or a program that failed.
    NoSubmission,
    /// A line that is not `LABEL CYCLE` / `ii N`.
    Malformed,
    /// A label the input does not have.
    Unknown,
    /// An operation placed twice.
    Duplicate,
    /// An operation without a cycle.
    Missing,
    /// A loop submitted without `ii`.
    NoIi,
    /// `ii` on a block.
    IiOnBlock,
    /// The submitted II is below ResMII.
    IiBelowResMii,
    /// The submitted II is below RecMII.
    IiBelowRecMii,
    /// A register result read `taken` cycles after its producer (of
    /// `class`) issued, `latency` being needed.
    LatencyShort {
        class: String,
        taken: Cycle,
        latency: u32,
    },
    /// A register read before its producer issues.
    BeforeProducer,
    /// A loop-carried register dependence too early for the II.
    Carried,
    /// A load placed before an earlier store it may alias.
    LoadBeforeStore,
    /// A store placed before an earlier load it may alias.
    StoreBeforeLoad,
    /// Two stores that may alias placed out of order.
    StoresReordered,
    /// A memory order across iterations broken.
    MemoryCarried,
    /// A register redefined before an earlier operation reads it.
    Anti,
    /// More operations in a cycle than the issue width.
    IssueWidth,
    /// A unit held past its first cycle by an operation of `class`, and
    /// another operation booked on it then.
    Occupancy { class: String, resource: String },
    /// Two operations whose cycles differ landing on one row modulo II.
    ModuloRow { resource: String },
    /// More operations on a unit in one cycle than it has.
    Capacity { resource: String },
    /// Valid, but longer (or a larger II) than the reference.
    AboveReference,
    /// A hidden input's mistake, by kind only.
    Hidden(ViolationKind),
}

impl Cause {
    /// A stable key (JSON, the HTML's `data-cause`).
    pub fn key(&self) -> String {
        match self {
            Cause::NoFolder => "no_folder".into(),
            Cause::NoSubmission => "no_submission".into(),
            Cause::Malformed => "malformed_line".into(),
            Cause::Unknown => "unknown_label".into(),
            Cause::Duplicate => "placed_twice".into(),
            Cause::Missing => "missing_operation".into(),
            Cause::NoIi => "no_ii".into(),
            Cause::IiOnBlock => "ii_on_block".into(),
            Cause::IiBelowResMii => "ii_below_res_mii".into(),
            Cause::IiBelowRecMii => "ii_below_rec_mii".into(),
            Cause::LatencyShort {
                class,
                taken,
                latency,
            } => format!("latency:{class}:{taken}:{latency}"),
            Cause::BeforeProducer => "before_producer".into(),
            Cause::Carried => "carried_dependence".into(),
            Cause::LoadBeforeStore => "memory:load_before_store".into(),
            Cause::StoreBeforeLoad => "memory:store_before_load".into(),
            Cause::StoresReordered => "memory:stores_reordered".into(),
            Cause::MemoryCarried => "memory:carried".into(),
            Cause::Anti => "anti".into(),
            Cause::IssueWidth => "issue_width".into(),
            Cause::Occupancy { class, resource } => format!("occupancy:{class}:{resource}"),
            Cause::ModuloRow { resource } => format!("modulo_row:{resource}"),
            Cause::Capacity { resource } => format!("capacity:{resource}"),
            Cause::AboveReference => "above_reference".into(),
            Cause::Hidden(k) => format!("hidden:{}", k.as_str()),
        }
    }

    /// The cause in words.
    pub fn label(&self) -> String {
        match self {
            Cause::NoFolder => "no submission folder (on the roster)".into(),
            Cause::NoSubmission => {
                "no readable submission (no file, a refused one, or a failed program)".into()
            }
            Cause::Malformed => "malformed line".into(),
            Cause::Unknown => "a label the input does not have".into(),
            Cause::Duplicate => "operation placed twice".into(),
            Cause::Missing => "missing operation".into(),
            Cause::NoIi => "loop without an ii line".into(),
            Cause::IiOnBlock => "ii given on a block".into(),
            Cause::IiBelowResMii => "II below MII (ResMII)".into(),
            Cause::IiBelowRecMii => "II below MII (RecMII)".into(),
            Cause::LatencyShort {
                class,
                taken,
                latency,
            } => format!("{class} latency taken as {taken} (ℓ = {latency})"),
            Cause::BeforeProducer => "operand read before its producer issues".into(),
            Cause::Carried => "loop-carried dependence too early for the II".into(),
            Cause::LoadBeforeStore => "memory order broken: a load before an earlier store".into(),
            Cause::StoreBeforeLoad => "memory order broken: a store before an earlier load".into(),
            Cause::StoresReordered => "memory order broken: stores reordered".into(),
            Cause::MemoryCarried => "memory order across iterations broken".into(),
            Cause::Anti => "register redefined before an earlier read".into(),
            Cause::IssueWidth => "issue width exceeded".into(),
            Cause::Occupancy { class, resource } => {
                format!("{class} occupancy ignored ({resource} held past its first cycle)")
            }
            Cause::ModuloRow { resource } => format!("{resource} rows collide modulo II"),
            Cause::Capacity { resource } => format!("{resource} over capacity in one cycle"),
            Cause::AboveReference => "valid, but above the reference's length or II".into(),
            Cause::Hidden(k) => format!("{} (a hidden input: kinds only)", k.as_str()),
        }
    }
}

/// The class report. Fields are declared in alphabetical order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassReport {
    /// Per lab input, hidden ones included, in the lab's order.
    pub inputs: Vec<InputStats>,
    /// The lab's name.
    pub lab: String,
    /// The points of the whole lab.
    pub max_total: f64,
    /// Per student (the roster's students without a folder last).
    pub students: Vec<StudentRow>,
    /// Over the class: total scores and causes on any input.
    pub total: Totals,
}

/// Over the whole class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Totals {
    /// Causes over every input: a student counts once per cause.
    pub causes: Vec<CauseCount>,
    /// The distribution of total scores.
    pub histogram: Vec<Bin>,
    /// Students with an input not graded (a grading error), left out.
    pub not_graded: u64,
    pub summary: Summary,
}

/// One input over the class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InputStats {
    pub causes: Vec<CauseCount>,
    pub hidden: bool,
    pub histogram: Vec<Bin>,
    /// The input's stem.
    pub input: String,
    /// `block` or `loop`.
    pub kind: &'static str,
    /// The points of the input.
    pub max_score: f64,
    /// The operations most often misplaced (none for a hidden input).
    pub misplaced: Vec<Misplaced>,
    /// Submissions not graded (a grading error), left out.
    pub not_graded: u64,
    pub summary: Summary,
}

/// Scores in `[from, to)` (the last bin includes `to`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    pub count: u64,
    pub from: f64,
    pub to: f64,
}

/// Figures of a set of scores.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// How many scores.
    pub count: u64,
    pub max: f64,
    pub mean: f64,
    pub median: f64,
    pub min: f64,
    /// How many were valid schedules (every input valid, for totals).
    pub valid: u64,
}

/// How many students made a mistake of one cause.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CauseCount {
    /// [`Cause::key`].
    pub cause: String,
    /// The violations of this cause (among those the grader keeps: at
    /// most 20 of a kind per submission), and one per submission for the
    /// causes that are not violations.
    pub count: u64,
    /// The inputs it was made on.
    pub inputs: Vec<String>,
    /// [`Cause::label`].
    pub label: String,
    /// The students graded (the share's denominator).
    pub of: u64,
    /// `students / of` in percent, to one decimal.
    pub percent: f64,
    /// The students who made it at least once.
    pub students: u64,
}

/// An operation with violations in many students' schedules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Misplaced {
    /// Its label.
    pub op: String,
    pub of: u64,
    pub percent: f64,
    /// Students with a latency, resource or duplicate violation on it.
    pub students: u64,
}

/// One student's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudentRow {
    /// The roster's id, when a roster was given and lists the student.
    pub id: String,
    /// The causes of the student's mistakes, by input.
    pub mistakes: Vec<StudentMistake>,
    /// The student as the reports name them (the folder, escaped).
    pub name: String,
    /// `not on the roster`, `no submission folder`, or empty.
    pub note: String,
    /// Per input, `None` when not graded.
    pub scores: Vec<Option<f64>>,
    /// `None` when an input was not graded.
    pub total: Option<f64>,
}

/// One cause in one input of a student's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudentMistake {
    pub cause: String,
    pub input: String,
    pub label: String,
}

/// What the causes of an input need, computed once per input.
struct InputFacts {
    res_mii: u64,
    rec_mii: u64,
    /// The strongly connected component of each operation.
    comp: Vec<u32>,
    /// Whether a component holds a circuit (more than one operation, or a
    /// self-loop).
    cyclic: Vec<bool>,
}

impl InputFacts {
    fn new(li: &LabInput, m: &Machine) -> InputFacts {
        let p = &li.program;
        let (res_mii, rec_mii) = if p.kind() == Kind::Loop {
            let b = mii::analyze(p, m);
            (b.res_mii, b.rec_mii)
        } else {
            (0, 0)
        };
        let (comp, n) = mii::sccs(p);
        let mut size = vec![0u32; n as usize];
        for &c in &comp {
            size[c as usize] += 1;
        }
        let mut cyclic: Vec<bool> = size.iter().map(|&s| s > 1).collect();
        for e in p.edges() {
            if e.from == e.to {
                cyclic[comp[e.from.index()] as usize] = true;
            }
        }
        InputFacts {
            res_mii,
            rec_mii,
            comp,
            cyclic,
        }
    }

    fn on_recurrence(&self, a: OpId, b: OpId) -> bool {
        let c = self.comp[a.index()];
        c == self.comp[b.index()] && self.cyclic[c as usize]
    }
}

/// The smallest offset at which an operation of `class`, issued at `t`,
/// holds `r` in the cell `cell` (a cycle, or a row modulo `ii`).
fn offset_in_cell(
    m: &Machine,
    class: course_engine::model::ids::ClassId,
    r: ResourceId,
    t: Cycle,
    cell: Cycle,
    ii: Option<u64>,
) -> Option<u32> {
    m.class(class)
        .folded
        .iter()
        .filter(|&&(res, _, _)| res == r)
        .map(|&(_, k, _)| k)
        .filter(|&k| {
            let c = t + Cycle::from(k);
            match ii {
                Some(ii) if ii > 0 => c.rem_euclid(ii as Cycle) == cell.rem_euclid(ii as Cycle),
                _ => c == cell,
            }
        })
        .min()
}

/// The root cause of one latency or resource violation from its detail.
fn detail_cause(p: &Program, m: &Machine, ii: Option<u64>, d: &Detail, x: OpId) -> Cause {
    match d {
        Detail::Dependence {
            edge,
            from_cycle,
            to_cycle,
        } => match edge.kind {
            EdgeKind::Anti => Cause::Anti,
            EdgeKind::Mem if edge.distance > 0 => Cause::MemoryCarried,
            EdgeKind::Mem => match (
                p.op(edge.from).writes_memory(),
                p.op(edge.to).writes_memory(),
            ) {
                (true, true) => Cause::StoresReordered,
                (true, false) => Cause::LoadBeforeStore,
                _ => Cause::StoreBeforeLoad,
            },
            EdgeKind::Reg if edge.distance > 0 => Cause::Carried,
            EdgeKind::Reg if to_cycle < from_cycle => Cause::BeforeProducer,
            EdgeKind::Reg => Cause::LatencyShort {
                class: m.class(p.op(edge.from).class).name.clone(),
                taken: to_cycle - from_cycle,
                latency: edge.latency,
            },
        },
        Detail::Conflict {
            at,
            conflict,
            holders,
        } => {
            let r = conflict.resource;
            if r == ISSUE {
                return Cause::IssueWidth;
            }
            let resource = m.resource(r).name.clone();
            let ii = if p.kind() == Kind::Loop { ii } else { None };
            let cell = conflict.cycle;
            // The operation that does not fit, then the cell's holders: the
            // first that holds the unit past its issue cycle there.
            let later = std::iter::once((x, *at))
                .chain(holders.iter().copied())
                .map(|(o, t)| (p.op(o).class, t))
                .find(|&(class, t)| offset_in_cell(m, class, r, t, cell, ii).is_some_and(|k| k > 0))
                .map(|(class, _)| class);
            match later {
                Some(class) => Cause::Occupancy {
                    class: m.class(class).name.clone(),
                    resource,
                },
                None if holders.iter().any(|&(_, t)| t != *at) => Cause::ModuloRow { resource },
                None => Cause::Capacity { resource },
            }
        }
    }
}

/// The causes of one graded submission, each with its count, and the
/// operations it misplaced.
fn submission_causes(
    li: &LabInput,
    facts: &InputFacts,
    m: &Machine,
    r: &InputReport,
) -> (BTreeMap<Cause, u64>, BTreeSet<OpId>) {
    let mut causes: BTreeMap<Cause, u64> = BTreeMap::new();
    let mut ops = BTreeSet::new();
    if r.hidden {
        for v in &r.violations {
            *causes.entry(Cause::Hidden(v.kind)).or_default() += 1;
        }
        for (&k, &n) in &r.more_violations {
            *causes.entry(Cause::Hidden(k)).or_default() += n;
        }
        if r.valid && above_reference(r) {
            causes.insert(Cause::AboveReference, 1);
        }
        return (causes, ops);
    }
    let p = &li.program;
    let ii = r.submitted_ii;
    let below_res = p.kind() == Kind::Loop && ii.is_some_and(|ii| ii < facts.res_mii);
    let below_rec = p.kind() == Kind::Loop && ii.is_some_and(|ii| ii < facts.rec_mii);
    if below_res {
        causes.insert(Cause::IiBelowResMii, 1);
    }
    if below_rec {
        causes.insert(Cause::IiBelowRecMii, 1);
    }
    for v in &r.violations {
        if matches!(
            v.kind,
            ViolationKind::Latency | ViolationKind::Resource | ViolationKind::Duplicate
        ) {
            ops.extend(v.op);
        }
        let Some(cause) = violation_cause(p, m, facts, ii, below_res, below_rec, v) else {
            continue;
        };
        *causes.entry(cause).or_default() += 1;
    }
    if r.valid && above_reference(r) {
        causes.insert(Cause::AboveReference, 1);
    }
    (causes, ops)
}

fn above_reference(r: &InputReport) -> bool {
    matches!((r.achieved, r.reference), (Some(a), Some(t)) if a > t)
}

/// The cause of one violation of a visible input; `None` when a cause
/// already counted (II below MII) absorbs it.
fn violation_cause(
    p: &Program,
    m: &Machine,
    facts: &InputFacts,
    ii: Option<u64>,
    below_res: bool,
    below_rec: bool,
    v: &Violation,
) -> Option<Cause> {
    Some(match v.kind {
        ViolationKind::Format if v.line.is_some() => Cause::Malformed,
        ViolationKind::Format => Cause::NoSubmission,
        ViolationKind::Missing => Cause::Missing,
        ViolationKind::Duplicate => Cause::Duplicate,
        ViolationKind::Unknown => Cause::Unknown,
        ViolationKind::Ii if p.kind() == Kind::Loop => Cause::NoIi,
        ViolationKind::Ii => Cause::IiOnBlock,
        ViolationKind::Resource if below_res => return None,
        ViolationKind::Latency | ViolationKind::Resource => {
            let (Some(d), Some(x)) = (&v.detail, v.op) else {
                return Some(if v.kind == ViolationKind::Latency {
                    Cause::Hidden(ViolationKind::Latency)
                } else {
                    Cause::Hidden(ViolationKind::Resource)
                });
            };
            if let Detail::Dependence { edge, .. } = d
                && below_rec
                && facts.on_recurrence(edge.from, edge.to)
            {
                return None;
            }
            detail_cause(p, m, ii, d, x)
        }
    })
}

/// Percent to one decimal.
fn percent(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        (1000.0 * n as f64 / of as f64).round() / 10.0
    }
}

/// A histogram of `scores` over `[0, max]` in [`BINS`] bins.
fn histogram(scores: &[f64], max: f64) -> Vec<Bin> {
    let w = if max > 0.0 { max / BINS as f64 } else { 1.0 };
    let mut bins: Vec<Bin> = (0..BINS)
        .map(|i| Bin {
            count: 0,
            from: round2(w * i as f64),
            to: round2(w * (i + 1) as f64),
        })
        .collect();
    for &s in scores {
        let i = ((s / w).floor().max(0.0) as usize).min(BINS - 1);
        bins[i].count += 1;
    }
    bins
}

fn summary(scores: &[f64], valid: u64) -> Summary {
    let mut s = scores.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => s[n / 2],
        _ => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    };
    Summary {
        count: n as u64,
        max: s.last().copied().unwrap_or(0.0),
        mean: if n == 0 {
            0.0
        } else {
            round2(s.iter().sum::<f64>() / n as f64)
        },
        median: round2(median),
        min: s.first().copied().unwrap_or(0.0),
        valid,
    }
}

/// Per cause: the students who made it, its count, the inputs it was
/// made on (by index).
type Tally = BTreeMap<Cause, (u64, u64, BTreeSet<usize>)>;

/// Cause counts as reported: by students, then count, then key.
fn cause_counts(tally: Tally, of: u64, input_names: &[String]) -> Vec<CauseCount> {
    let mut v: Vec<CauseCount> = tally
        .into_iter()
        .map(|(c, (students, count, inputs))| CauseCount {
            cause: c.key(),
            count,
            inputs: inputs.into_iter().map(|i| input_names[i].clone()).collect(),
            label: c.label(),
            of,
            percent: percent(students, of),
            students,
        })
        .collect();
    v.sort_by(|a, b| {
        b.students
            .cmp(&a.students)
            .then(b.count.cmp(&a.count))
            .then(a.cause.cmp(&b.cause))
    });
    v
}

/// The class report of `students` graded on `lab`. `roster`, when given,
/// lists `(folder, id)` in its order: its students without a folder are
/// zeros (as in the gradebook), and a folder not on it is noted.
pub fn class_report(
    lab: &Lab,
    students: &[StudentReport],
    roster: Option<&[(String, String)]>,
) -> ClassReport {
    let missing: Vec<&(String, String)> = roster
        .map(|r| {
            r.iter()
                .filter(|(f, _)| !students.iter().any(|s| &s.student == f))
                .collect()
        })
        .unwrap_or_default();
    let mut counts = ClassCounts::new(lab);
    let mut rows: Vec<StudentRow> = students
        .iter()
        .map(|st| counts.add_student(st, roster))
        .collect();
    rows.extend(
        missing
            .into_iter()
            .map(|(folder, id)| counts.add_absent(folder, id)),
    );
    let inputs = counts.input_stats();
    let max_total = lab.points * lab.inputs.len() as f64;
    ClassReport {
        inputs,
        lab: lab.name.clone(),
        max_total,
        students: rows,
        total: counts.totals(max_total),
    }
}

/// Adds one student who made `cause` `n` times, on `inputs`.
fn tally(t: &mut Tally, cause: Cause, n: u64, inputs: impl IntoIterator<Item = usize>) {
    let e = t.entry(cause).or_default();
    e.0 += 1;
    e.1 += n;
    e.2.extend(inputs);
}

/// What a class report counts, filled one student at a time: per input,
/// then over the class.
struct ClassCounts<'l> {
    lab: &'l Lab,
    facts: Vec<InputFacts>,
    /// The inputs' stems.
    names: Vec<String>,
    /// Per input: the scores graded, the valid ones, those not graded,
    /// whether it is hidden, its causes, its misplaced operations.
    scores: Vec<Vec<f64>>,
    valid: Vec<u64>,
    not_graded: Vec<u64>,
    hidden: Vec<bool>,
    causes: Vec<Tally>,
    ops: Vec<BTreeMap<OpId, u64>>,
    /// Over the class: the causes, the totals of the students graded on
    /// every input, how many of those are valid, how many students are not.
    class: Tally,
    totals: Vec<f64>,
    all_valid: u64,
    class_not_graded: u64,
}

impl<'l> ClassCounts<'l> {
    /// Nothing counted yet; the facts of each input computed once.
    fn new(lab: &'l Lab) -> ClassCounts<'l> {
        let n = lab.inputs.len();
        ClassCounts {
            lab,
            facts: lab
                .inputs
                .iter()
                .map(|li| InputFacts::new(li, &lab.machine))
                .collect(),
            names: lab.inputs.iter().map(|li| li.stem.clone()).collect(),
            scores: vec![Vec::new(); n],
            valid: vec![0; n],
            not_graded: vec![0; n],
            hidden: vec![false; n],
            causes: vec![BTreeMap::new(); n],
            ops: vec![BTreeMap::new(); n],
            class: BTreeMap::new(),
            totals: Vec::new(),
            all_valid: 0,
            class_not_graded: 0,
        }
    }

    /// Counts a student's submissions; the student's row, with the
    /// roster's id or a note that the folder is not on it.
    fn add_student(
        &mut self,
        st: &StudentReport,
        roster: Option<&[(String, String)]>,
    ) -> StudentRow {
        let (mistakes, scores) = self.add_inputs(st);
        let graded = scores.iter().all(Option::is_some);
        if graded {
            self.totals.push(st.score);
            self.all_valid += u64::from(st.valid());
        } else {
            self.class_not_graded += 1;
        }
        let id = roster
            .and_then(|r| r.iter().find(|(f, _)| f == &st.student))
            .map(|(_, id)| id.clone());
        StudentRow {
            note: if roster.is_some() && id.is_none() {
                "not on the roster".into()
            } else {
                String::new()
            },
            id: id.unwrap_or_default(),
            mistakes,
            name: st.student.clone(),
            scores,
            total: graded.then_some(st.score),
        }
    }

    /// Counts a student's graded inputs per input and over the class (one
    /// student per cause); the student's mistakes and per-input scores.
    fn add_inputs(&mut self, st: &StudentReport) -> (Vec<StudentMistake>, Vec<Option<f64>>) {
        let lab = self.lab;
        let n_inputs = lab.inputs.len();
        let mut mistakes = Vec::new();
        let mut mine: BTreeMap<Cause, (u64, BTreeSet<usize>)> = BTreeMap::new();
        let mut scores = Vec::with_capacity(n_inputs);
        for (i, r) in st.inputs.iter().enumerate().take(n_inputs) {
            self.hidden[i] |= r.hidden;
            if r.grading_error.is_some() {
                self.not_graded[i] += 1;
                scores.push(None);
                continue;
            }
            scores.push(Some(r.score));
            self.scores[i].push(r.score);
            self.valid[i] += u64::from(r.valid);
            let (causes, ops) = submission_causes(&lab.inputs[i], &self.facts[i], &lab.machine, r);
            for (c, n) in causes {
                tally(&mut self.causes[i], c.clone(), n, [i]);
                mistakes.push(StudentMistake {
                    cause: c.key(),
                    input: self.names[i].clone(),
                    label: c.label(),
                });
                let e = mine.entry(c).or_default();
                e.0 += n;
                e.1.insert(i);
            }
            for x in ops {
                *self.ops[i].entry(x).or_default() += 1;
            }
        }
        for (c, (n, inputs)) in mine {
            tally(&mut self.class, c, n, inputs);
        }
        (mistakes, scores)
    }

    /// Counts a roster's student without a folder: a zero on every input;
    /// the student's row.
    fn add_absent(&mut self, folder: &str, id: &str) -> StudentRow {
        let n_inputs = self.lab.inputs.len();
        for i in 0..n_inputs {
            self.scores[i].push(0.0);
            tally(&mut self.causes[i], Cause::NoFolder, 1, [i]);
        }
        tally(
            &mut self.class,
            Cause::NoFolder,
            n_inputs as u64,
            0..n_inputs,
        );
        self.totals.push(0.0);
        StudentRow {
            id: id.to_string(),
            mistakes: vec![StudentMistake {
                cause: Cause::NoFolder.key(),
                input: String::new(),
                label: Cause::NoFolder.label(),
            }],
            name: folder.to_string(),
            note: "no submission folder".into(),
            scores: vec![Some(0.0); n_inputs],
            total: Some(0.0),
        }
    }

    /// The figures of each input, its causes taken from the counts.
    fn input_stats(&mut self) -> Vec<InputStats> {
        let lab = self.lab;
        lab.inputs
            .iter()
            .enumerate()
            .map(|(i, li)| {
                let of = self.scores[i].len() as u64;
                InputStats {
                    causes: cause_counts(std::mem::take(&mut self.causes[i]), of, &self.names),
                    hidden: self.hidden[i],
                    histogram: histogram(&self.scores[i], lab.points),
                    input: li.stem.clone(),
                    kind: match li.program.kind() {
                        Kind::Block => "block",
                        Kind::Loop => "loop",
                    },
                    max_score: lab.points,
                    misplaced: self.misplaced(i, of),
                    not_graded: self.not_graded[i],
                    summary: summary(&self.scores[i], self.valid[i]),
                }
            })
            .collect()
    }

    /// The operations of input `i` most often misplaced, out of `of`
    /// students (none for a hidden input).
    fn misplaced(&self, i: usize, of: u64) -> Vec<Misplaced> {
        if self.hidden[i] {
            return Vec::new();
        }
        let program = &self.lab.inputs[i].program;
        let mut misplaced: Vec<Misplaced> = self.ops[i]
            .iter()
            .map(|(&x, &n)| Misplaced {
                op: program.label(x).to_string(),
                of,
                percent: percent(n, of),
                students: n,
            })
            .collect();
        // Most students first; the source order on ties (stable).
        misplaced.sort_by_key(|m| std::cmp::Reverse(m.students));
        misplaced.truncate(MAX_MISPLACED);
        misplaced
    }

    /// The figures over the class, totals out of `max_total`.
    fn totals(self, max_total: f64) -> Totals {
        let of = self.totals.len() as u64;
        Totals {
            causes: cause_counts(self.class, of, &self.names),
            histogram: histogram(&self.totals, max_total),
            not_graded: self.class_not_graded,
            summary: summary(&self.totals, self.all_valid),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Source;
    use crate::lab::{Unread, grade_input, load_lab};

    fn lab() -> Lab {
        load_lab(&Source::Embedded, "ch23-sched").unwrap()
    }

    /// Every input of the lab graded on `edit(stem, reference text)`.
    fn student(lab: &Lab, name: &str, edit: &dyn Fn(&str, String) -> String) -> StudentReport {
        let inputs = lab
            .inputs
            .iter()
            .map(|li| {
                let text = edit(&li.stem, li.reference_text());
                grade_input(li, &lab.machine, lab.points, Ok(&text))
            })
            .collect();
        StudentReport::new(name, inputs)
    }

    fn keys(r: &InputStats) -> Vec<(&str, u64)> {
        r.causes
            .iter()
            .map(|c| (c.cause.as_str(), c.students))
            .collect()
    }

    fn input<'a>(r: &'a ClassReport, stem: &str) -> &'a InputStats {
        r.inputs.iter().find(|i| i.input == stem).unwrap()
    }

    #[test]
    fn causes_are_named_from_the_violations() {
        let lab = lab();
        let right = student(&lab, "right", &|_, t| t);
        // divide: e at 6 overlaps c's divide (4..7) on the multiplier.
        // running: i one cycle early reads the load g after 2 of 3 cycles.
        // alias (block): see below. dot: II 1, below ResMII.
        let wrong = student(&lab, "wrong", &|stem, t| match stem {
            "divide" => t.replace("e 8", "e 6"),
            "running" => t.replace("i 8", "i 7"),
            "dot" => t.replace("ii 4", "ii 1"),
            _ => t,
        });
        let r = class_report(&lab, &[right, wrong], None);
        let divide = input(&r, "divide");
        assert_eq!(divide.summary.count, 2);
        assert_eq!(divide.summary.valid, 1);
        let k = keys(divide);
        assert!(k.contains(&("occupancy:div:mul", 1)), "{k:?}");
        assert_eq!(divide.causes[0].percent, 50.0);
        assert!(divide.causes[0].label.starts_with("div occupancy ignored"));
        assert_eq!(divide.misplaced[0].op, "e");
        let k = keys(input(&r, "running"));
        assert_eq!(k, [("latency:load:2:3", 1)], "{k:?}");
        let k = keys(input(&r, "dot"));
        // II 1 < ResMII 2 and < RecMII 4: both named, the overflows and the
        // recurrence's short dependences absorbed.
        assert!(k.contains(&("ii_below_res_mii", 1)), "{k:?}");
        assert!(k.contains(&("ii_below_rec_mii", 1)), "{k:?}");
        assert!(
            !k.iter().any(|(c, _)| c.starts_with("capacity")
                || c.starts_with("modulo_row")
                || c.starts_with("occupancy")),
            "{k:?}"
        );
        // Over the class: the wrong student made four kinds, once each.
        assert_eq!(r.total.summary.count, 2);
        assert_eq!(r.total.summary.valid, 1);
        assert!(r.total.causes.iter().all(|c| c.students == 1 && c.of == 2));
        assert_eq!(r.students[1].mistakes.len(), r.total.causes.len());
        assert_eq!(r.total.histogram.iter().map(|b| b.count).sum::<u64>(), 2);
        assert_eq!(
            r.total.histogram[BINS - 1].count,
            1,
            "the full score is in the last bin"
        );
    }

    #[test]
    fn load_latency_memory_order_and_capacity() {
        let lab = lab();
        let m = &lab.machine;
        let p = course_engine::model::program::parse(
            "block t\na: r1 = load [x]\nb: r2 = add r1, 1\nc: store [y], r2\nd: r3 = load [y]\ne: r4 = load [w]\n",
            "t.txt",
            m,
        )
        .unwrap();
        let li = LabInput::new("t", p, m);
        let one = Lab::single(li.clone(), m, 10.0);
        let grade = |text: &str| StudentReport::new("s", vec![grade_input(&li, m, 10.0, Ok(text))]);
        // b one cycle after the load: latency taken as 1; d (a load of [y])
        // with the store c: memory order; e next to a on the one mem unit.
        let causes = |r: &ClassReport| -> Vec<String> {
            r.inputs[0].causes.iter().map(|c| c.cause.clone()).collect()
        };
        let st = grade("a 0\ne 0\nb 1\nd 2\nc 2\n");
        let r = class_report(&one, &[st], None);
        let k = causes(&r);
        for want in [
            "latency:load:1:3",
            "capacity:mem",
            "memory:load_before_store",
        ] {
            assert!(k.iter().any(|c| c == want), "{want}: {k:?}");
        }
        let label = &r.inputs[0]
            .causes
            .iter()
            .find(|c| c.cause == "latency:load:1:3")
            .unwrap()
            .label;
        assert_eq!(label, "load latency taken as 1 (ℓ = 3)");
        // Missing, placed twice, unknown, a malformed line, no file.
        let k = causes(&class_report(&one, &[grade("a 0\na 1\nzz 3\n%%\n")], None));
        for want in [
            "missing_operation",
            "placed_twice",
            "unknown_label",
            "malformed_line",
        ] {
            assert!(k.iter().any(|c| c == want), "{want}: {k:?}");
        }
        let st = StudentReport::new("s", vec![grade_input(&li, m, 10.0, Err("no file".into()))]);
        let r = class_report(&one, &[st], None);
        assert_eq!(r.inputs[0].causes[0].cause, "no_submission");
    }

    #[test]
    fn hidden_inputs_give_kinds_and_roster_absentees_are_zeros() {
        let lab = lab();
        let mut wrong = student(&lab, "wrong", &|stem, t| match stem {
            "divide" => t.replace("e 8", "e 6"),
            _ => t,
        });
        for r in &mut wrong.inputs {
            r.hidden = r.input == "divide";
        }
        // A grading error on running: left out of running and of the totals.
        wrong.inputs[0] = crate::lab::grade_submission(
            &lab.inputs[0],
            &lab.machine,
            lab.points,
            Err(Unread::Grader("permission denied".into())),
        );
        let roster = vec![
            ("wrong".to_string(), "17".to_string()),
            ("away".to_string(), "18".to_string()),
        ];
        let r = class_report(&lab, &[wrong], Some(&roster));
        let divide = input(&r, "divide");
        assert!(divide.hidden);
        assert!(divide.misplaced.is_empty());
        let k = keys(divide);
        assert!(k.contains(&("hidden:resource", 1)), "{k:?}");
        assert!(k.contains(&("no_folder", 1)), "{k:?}");
        assert_eq!(input(&r, "running").not_graded, 1);
        assert_eq!(input(&r, "running").summary.count, 1);
        assert_eq!(r.total.not_graded, 1);
        assert_eq!(r.total.summary.count, 1, "only the absentee's zero");
        assert_eq!(r.students[0].id, "17");
        assert_eq!(r.students[0].total, None);
        assert_eq!(r.students[1].name, "away");
        assert_eq!(r.students[1].note, "no submission folder");
        let j = serde_json::to_string(&r).unwrap();
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(j, v.to_string(), "keys print sorted");
    }

    #[test]
    fn histograms_bin_every_score() {
        let h = histogram(&[0.0, 0.99, 1.0, 6.5, 10.0], 10.0);
        let c: Vec<u64> = h.iter().map(|b| b.count).collect();
        assert_eq!(c, [2, 1, 0, 0, 0, 0, 1, 0, 0, 1]);
        assert_eq!((h[9].from, h[9].to), (9.0, 10.0));
        let s = summary(&[1.0, 3.0, 2.0, 10.0], 1);
        assert_eq!((s.median, s.mean, s.min, s.max), (2.5, 4.0, 1.0, 10.0));
        assert_eq!(percent(41, 100), 41.0);
        assert_eq!(percent(1, 3), 33.3);
    }
}
