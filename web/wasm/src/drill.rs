//! The drills: `course drill NAME …`, one placement step of the
//! list-schedule table, and the exact-search reference `course-bench`
//! times.

use serde::{Deserialize, Serialize};

use course::api;
use course::api::drill::{Answer, DrillOutput, DrillRequest};
use course::view;
use course_content::data::Source;
use course_content::drill::list_schedule::Placements;
use course_content::drill::{Drill, Problem, Report};
use course_engine::model::machine::Machine;

use crate::{Stamp, lab, pretty};

/// `{"cmd":"drill","drill":NAME,"seed":N,…}`: `course drill NAME --seed N
/// [--solution] [--check FILE] [--hint …]`.
#[derive(Deserialize)]
pub(crate) struct DrillReq {
    drill: String,
    seed: u64,
    #[serde(default)]
    solution: bool,
    #[serde(default)]
    check: Option<CheckReq>,
    #[serde(default)]
    machine: Option<String>,
    /// Leave out the text (the comparison with the CLI needs only JSON).
    #[serde(default)]
    json_only: bool,
    /// Hints asked for (`course drill … --hint` N times); 0 for none.
    #[serde(default)]
    hints: usize,
    /// Who checks and when, for the review log.
    #[serde(default)]
    stamp: Option<Stamp>,
}

/// An answer to check: its file name and text.
#[derive(Deserialize)]
struct CheckReq {
    file: String,
    text: String,
}

/// What a drill run shows: the hints asked for, the problem, or the
/// report on a checked answer. `json` is the CLI's `--format json`, `text`
/// its text (`null` when only JSON was asked for).
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum DrillReply {
    Hints {
        hints: Vec<String>,
        /// The `hints-N` marker line, when the request has a stamp.
        review_line: Option<String>,
        text: String,
    },
    Problem {
        /// The solution as an answer file, when the problem has it.
        answer: Option<String>,
        json: String,
        /// The `solution-viewed` marker line, when the request asks for
        /// the solution and has a stamp.
        review_line: Option<String>,
        text: Option<String>,
    },
    Report {
        correct: bool,
        json: String,
        /// The review-log line, when the request has a stamp.
        review_line: Option<String>,
        text: Option<String>,
    },
}

/// The drill of that name.
fn drill_named(name: &str) -> Result<Drill, String> {
    Drill::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .ok_or_else(|| format!("no drill `{name}`"))
}

/// Runs the drill: its hints, its problem, or the report on the answer.
pub(crate) fn drill(a: &DrillReq) -> Result<DrillReply, String> {
    let m = lab::machine(a.machine.as_deref(), None)?;
    let req = DrillRequest {
        drill: drill_named(&a.drill)?,
        seed: Some(a.seed),
        machine: &m,
        source: &Source::Embedded,
        solution: a.solution,
        check: a.check.as_ref().map(|c| Answer {
            file: &c.file,
            text: &c.text,
        }),
    };
    let drilled = api::drill::run_with_hints(&req, a.hints).map_err(|e| e.to_string())?;
    let hints = drilled.hints.clone();
    if a.hints > 0 {
        let text = view::drill::hints_text(&hints, false);
        let review_line = shown(a, req.drill, false, hints.len())?;
        return Ok(DrillReply::Hints {
            hints,
            review_line,
            text,
        });
    }
    match &drilled.output {
        DrillOutput::Problem(p) => {
            let review_line = shown(a, req.drill, a.solution, 0)?;
            Ok(problem_reply(a, p, review_line))
        }
        DrillOutput::Report(r) => report_reply(a, &drilled, r),
    }
}

/// The marker lines of what a stamped request showed (its solution, its
/// hints), as `course drill … --solution` / `--hint` log them.
fn shown(
    a: &DrillReq,
    drill: Drill,
    solution: bool,
    hints: usize,
) -> Result<Option<String>, String> {
    let Some(st) = &a.stamp else {
        return Ok(None);
    };
    let item = course_content::review_log::drill_item(drill, a.seed);
    st.lines(|who, day, time| api::drill::shown(drill, &item, solution, hints, who, day, time))
}

/// The text of a view, unless only JSON was asked for.
fn text_unless_json_only(a: &DrillReq, text: impl FnOnce() -> String) -> Option<String> {
    (!a.json_only).then(text)
}

/// A problem (with its solution when asked for).
fn problem_reply(a: &DrillReq, p: &Problem, review_line: Option<String>) -> DrillReply {
    DrillReply::Problem {
        answer: p.answer(),
        json: pretty(p),
        review_line,
        text: text_unless_json_only(a, || view::drill::problem_text(p)),
    }
}

/// The report on a checked answer, with its review-log line when stamped.
fn report_reply(
    a: &DrillReq,
    drilled: &api::drill::Drilled,
    r: &Report,
) -> Result<DrillReply, String> {
    let review_line = match &a.stamp {
        Some(st) => st.line(|who, day, time| drilled.review(who, day, time))?,
        None => None,
    };
    Ok(DrillReply::Report {
        correct: r.correct(),
        json: pretty(r),
        review_line,
        text: text_unless_json_only(a, || view::drill::report_text(r)),
    })
}

/// `{"cmd":"place","seed":N,"placed":[[LABEL,CYCLE],…]}`: the
/// list-schedule block of seed N with those placements, each judged.
#[derive(Deserialize)]
pub(crate) struct PlaceReq {
    seed: u64,
    placed: Vec<(String, i64)>,
    #[serde(default)]
    machine: Option<String>,
}

/// Judges each placement of the list-schedule table.
pub(crate) fn place(a: &PlaceReq) -> Result<Placements, String> {
    let m = lab::machine(a.machine.as_deref(), None)?;
    api::drill::place(a.seed, &m, &Source::Embedded, &a.placed).map_err(|e| e.to_string())
}

/// `{"cmd":"bench_exact","ops":N,"seed":S,"kind":"loop"|"block"}`: the
/// reference of `course gen KIND --ops N --seed S` on the toy machine, for
/// `course-bench --only exact` (which times the call from node).
#[derive(Deserialize)]
pub(crate) struct BenchExact {
    ops: u64,
    seed: u64,
    #[serde(default)]
    kind: Option<String>,
}

/// Whether the exact search proved its figure optimal, and how far the
/// heuristic is above it (`above_mii`: a loop's II above MII, a block's
/// list schedule above the optimum).
#[derive(Serialize)]
pub(crate) struct Exact {
    above_mii: u64,
    proven: bool,
}

/// Runs the exact search on the loop or block `course gen` makes.
pub(crate) fn bench_exact(a: &BenchExact) -> Result<Exact, String> {
    if a.ops == 0 || a.ops > 1000 {
        return Err("ops: between 1 and 1000".into());
    }
    let kind = match a.kind.as_deref() {
        None | Some("loop") => course_bench::ExactKind::Loop,
        Some("block") => course_bench::ExactKind::Block,
        Some(other) => return Err(format!("kind: 'loop' or 'block', not '{other}'")),
    };
    let (proven, above_mii) = course_bench::exact_one(&Machine::toy(), kind, a.ops, a.seed);
    Ok(Exact { above_mii, proven })
}
