//! Mistakes and blame: the [`MistakeKind`] names an answer's mistakes go
//! by (the schedule checker's kinds and the drills' own), a [`Mistake`] with
//! the violations it alone causes listed under it, the [`Verdict`] on each
//! part of an answer, and the helpers the drills share to name a slip in a
//! set (one offset off by one, every offset shifted) and to say which wrong
//! steps a violation would disappear without.

use std::collections::BTreeSet;

use serde::{Serialize, Serializer};

use course_engine::engine::check::{CheckResult, ViolationKind};
use course_engine::formats::submission::Submission;

use super::Drill;

/// What kind of mistake an answer has (stable names for JSON): one the
/// schedule checker names too, or one of the drills' own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MistakeKind {
    /// Not what the list rule does at the first cycle where the answer
    /// departs from it.
    Order,
    /// A wrong value.
    Wrong,
    /// A valid modulo schedule at an II above the reference.
    Quality,
    /// An II below MII: no schedule can exist (the bound says which).
    BelowMii,
    /// A bit vector written in the opposite order (offset 0 last).
    Reversed,
    /// A set with one offset one too high or too low.
    OffByOne,
    /// A set with every offset one too high or too low.
    Shifted,
    /// `accept` where the recognizer rejects, or the other way round.
    Swapped,
    /// `F(A,B)` answered with `F(B,A)`: the pair in the other order.
    PairOrder,
    /// A set of forbidden latencies without its 0.
    MissingZero,
    /// An issue whose K has several offsets reserved as if it held the unit
    /// one cycle (a div as a one-cycle operation).
    OneCycle,
    /// An Advance that did not lower the offsets.
    NotLowered,
    /// A wrong resource bound (ResMII, RThroughput): a usage miscounted.
    ResourceBound,
    /// A wrong RecMII: the critical recurrence missed or misadded.
    Recurrence,
    /// A wrong MII where ResMII and RecMII were right: not their maximum.
    Maximum,
    /// RThroughput rounded up as ResMII is.
    RoundedUp,
    /// A kind of the schedule checker, under its name (`format`, `latency`,
    /// …): a drill's answer that does not read is a `format` mistake, a
    /// part left out `missing`, whatever the drill.
    #[serde(untagged)]
    Check(ViolationKind),
}

/// A named slip between a set given and the right one: every offset one
/// off (shifted), or exactly one offset one off.
pub(crate) fn set_slip(said: &[u32], want: &[u32]) -> Option<(MistakeKind, String)> {
    if said.len() != want.len() || said == want || said.is_empty() {
        return None;
    }
    let up = said.iter().zip(want).all(|(s, w)| *s == w + 1);
    let down = said.iter().zip(want).all(|(s, w)| s + 1 == *w);
    if up || down {
        let how = if up { "up" } else { "down" };
        return Some((
            MistakeKind::Shifted,
            format!("the right set shifted {how} by one"),
        ));
    }
    // Sets, so that a student's set of a million offsets costs n log n.
    let (said_set, want_set): (BTreeSet<u32>, BTreeSet<u32>) = (
        said.iter().copied().collect(),
        want.iter().copied().collect(),
    );
    let only: Vec<u32> = said
        .iter()
        .filter(|x| !want_set.contains(x))
        .copied()
        .collect();
    let lost: Vec<u32> = want
        .iter()
        .filter(|x| !said_set.contains(x))
        .copied()
        .collect();
    match (only.as_slice(), lost.as_slice()) {
        ([s], [w]) if s.abs_diff(*w) == 1 => Some((
            MistakeKind::OffByOne,
            format!("offset {w} off by one (you wrote {s})"),
        )),
        _ => None,
    }
}

impl From<ViolationKind> for MistakeKind {
    fn from(k: ViolationKind) -> MistakeKind {
        MistakeKind::Check(k)
    }
}

/// One mistake in an answer, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mistake {
    pub kind: MistakeKind,
    pub message: String,
    /// Violations that exist only because of this mistake: each would
    /// disappear if the answer's wrong steps were taken out. They are
    /// listed under it, never as mistakes of their own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consequences: Vec<String>,
}

impl Mistake {
    pub fn new(kind: impl Into<MistakeKind>, message: impl Into<String>) -> Mistake {
        Mistake {
            kind: kind.into(),
            message: message.into(),
            consequences: Vec::new(),
        }
    }
}

/// One part of an answer, judged: right (with what the text view shows for
/// it), or a mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<R> {
    Right(R),
    Wrong(Mistake),
}

/// The messages of the wrong verdicts, in order (for tests).
#[cfg(test)]
pub(crate) fn mistake_messages<R>(verdicts: &[Verdict<R>]) -> Vec<String> {
    verdicts
        .iter()
        .filter_map(|v| v.mistake().map(|x| x.message.clone()))
        .collect()
}

impl<R> Verdict<R> {
    /// The mistake, when it is one.
    pub fn mistake(&self) -> Option<&Mistake> {
        match self {
            Verdict::Right(_) => None,
            Verdict::Wrong(m) => Some(m),
        }
    }
}

/// The outcome of checking an answer that is a list of judged parts and
/// nothing more (the forbidden and automaton drills).
#[derive(Clone, Debug, Serialize)]
pub struct Verdicts<R> {
    pub correct: bool,
    pub drill: Drill,
    /// Each part's verdict, in the drill's order (serialised as the list
    /// of mistakes).
    #[serde(rename = "mistakes", serialize_with = "mistakes_only")]
    pub verdicts: Vec<Verdict<R>>,
    pub seed: u64,
}

impl<R> Verdicts<R> {
    /// The verdicts of `drill` for `seed`; correct when none is a mistake.
    pub fn new(drill: Drill, seed: u64, verdicts: Vec<Verdict<R>>) -> Verdicts<R> {
        Verdicts {
            correct: all_right(&verdicts),
            drill,
            verdicts,
            seed,
        }
    }
}

/// Serialises the verdicts of an answer as the list of its mistakes.
pub(super) fn mistakes_only<R, S: Serializer>(
    verdicts: &[Verdict<R>],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(verdicts.iter().filter_map(Verdict::mistake))
}

/// True when no verdict is a mistake.
pub(super) fn all_right<R>(verdicts: &[Verdict<R>]) -> bool {
    verdicts.iter().all(|v| v.mistake().is_none())
}

/// `{0, 2}`, or `{}` for the empty set.
pub(super) fn set_text(s: &[u32]) -> String {
    let v: Vec<String> = s.iter().map(u32::to_string).collect();
    format!("{{{}}}", v.join(", "))
}

/// The mistakes of a checked submission in order: problems with the file
/// itself (located at line and column), then the hard checks.
pub(super) fn violations(sub: &Submission, result: &CheckResult) -> Vec<Mistake> {
    let located = sub
        .errors
        .iter()
        .map(|d| Mistake::new(ViolationKind::Format, d.to_string()));
    let checks = result
        .violations
        .iter()
        .filter(|v| v.kind != ViolationKind::Format)
        .map(|v| Mistake::new(v.kind, v.message.clone()));
    located.chain(checks).collect()
}

/// The line that lists violation `v` (of operation `x`) under the wrong
/// steps `by` that cause it: `f at 0 would fit if d were not at 0 (…)`.
pub(crate) fn consequence_text(
    p: &course_engine::model::program::Program,
    result: &course_engine::engine::check::CheckResult,
    v: &course_engine::engine::check::Violation,
    x: course_engine::model::ids::OpId,
    by: &[course_engine::model::ids::OpId],
) -> String {
    let at = result.placed[x.index()].unwrap_or_default();
    let whom: Vec<String> = by
        .iter()
        .map(|&w| {
            let c = result.placed[w.index()].unwrap_or_default();
            format!("{} were not at {c}", p.label(w))
        })
        .collect();
    let would = if v.kind == ViolationKind::Latency {
        "be ready"
    } else {
        "fit"
    };
    format!(
        "{} at {at} would {would} if {} ({})",
        p.label(x),
        whom.join(" and "),
        v.message
    )
}
