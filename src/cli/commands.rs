//! The engine commands: drill, schedule, analyze, machine, gen. Each
//! parses its arguments, makes one [`course::api`] call and prints the
//! result with [`course::view`] (text, DOT) or as JSON.

use course::api::{self, drill::DrillOutput};
use course::view;
use course_engine::model::program::Kind;

use course_engine::formats::diagnostic::Diagnostics;

use super::{
    CliError, CmdResult, Ctx, DrillArgs, DrillChoice, Format, GenArgs, GenKind, GraphFormat,
    InputArgs, MachineArgs, Out, ScheduleArgs, print, print_json, print_with, read_file,
};

pub fn drill(ctx: &Ctx, a: &DrillArgs) -> CmdResult {
    let drill = match a.drill {
        DrillChoice::List => {
            let list = api::drill::list();
            match a.format {
                Format::Json => print_json(&list),
                Format::Text => print(&view::drill::list_text(&list)),
            }
            return Ok(0);
        }
        DrillChoice::One(d) => d,
    };
    let events = match (a.lesson, &a.events) {
        (true, _) => Some(course_content::drill::hazard::LESSON_EVENTS),
        (false, e) => e.as_deref(),
    };
    if events.is_some() && drill != course_content::drill::Drill::Hazard {
        return Err(CliError(
            "--events and --lesson replay the hazard drill: course drill hazard --lesson".into(),
        ));
    }
    let answer = match &a.check {
        Some(path) => {
            let text = read_file(path)?;
            let text = match saved_problem(ctx, drill, a.seed, &text, origin(path)) {
                Some(problem) => api::drill::without_saved_problem(&text, &problem),
                None => text,
            };
            Some((origin(path), text))
        }
        None => None,
    };
    // A problem without --seed draws one from the clock; an answer
    // without it names its problem in its first line.
    let seed = match answer {
        None => Some(a.seed.unwrap_or_else(course_host::clock::fresh_seed)),
        Some(_) => a.seed,
    };
    let req = api::drill::DrillRequest {
        drill,
        seed,
        machine: &ctx.machine,
        source: &ctx.source,
        solution: a.solution,
        check: answer
            .as_ref()
            .map(|(file, text)| api::drill::Answer { file, text }),
    };
    let level = usize::from(a.hint);
    let who = a.log.who()?;
    let drilled = match events {
        Some(events) => api::drill::replay_with_hints(&req, events, level)?,
        None => api::drill::run_with_hints(&req, level)?,
    };
    let (day, time) = super::progress::now();
    let review = drilled.review(&who, day, time);
    let hints = drilled.hints;
    match drilled.output {
        DrillOutput::Report(r) => {
            if let Some(review) = review {
                let mut lines =
                    api::drill::shown(drill, &review.item, false, hints.len(), &who, day, time);
                lines.push(review);
                a.log.record(&lines);
            }
            match (a.format, level) {
                (Format::Json, 0) => print_json(&r),
                (Format::Json, _) => print_json(&api::drill::Hinted {
                    output: &r,
                    hints: &hints,
                    hints_used: hints.len(),
                }),
                (Format::Text, _) => {
                    let mut text = view::drill::report_text(&r);
                    if level > 0 {
                        text.push_str(&view::drill::hints_text(&hints, true));
                    }
                    print(&super::paint(ctx, &text))
                }
            }
            Ok(if r.correct() { 0 } else { 1 })
        }
        DrillOutput::Problem(p) => {
            // Without --seed one was drawn above (a replay of issue attempts
            // has none): say which, so the problem can be had again.
            if a.seed.is_none() && events.is_none() {
                eprintln!("course: no --seed given; using --seed {}", p.line().seed);
            }
            record_shown(a, drill, events, p.line().seed, hints.len(), &who);
            match (a.format, level) {
                (Format::Json, 0) => print_json(&p),
                (Format::Json, _) => print_json(&api::drill::Hinted {
                    output: &p,
                    hints: &hints,
                    hints_used: hints.len(),
                }),
                (Format::Text, _) => {
                    let mut text = view::drill::problem_text(&p);
                    text.push_str(&view::drill::hints_text(&hints, false));
                    print(&text)
                }
            }
            Ok(0)
        }
    }
}

/// Logs what a problem's output showed: its solution, its hints.
fn record_shown(
    a: &DrillArgs,
    drill: course_content::drill::Drill,
    events: Option<&str>,
    seed: u64,
    hints: usize,
    who: &str,
) {
    if !a.solution && hints == 0 {
        return;
    }
    let item = match events {
        Some(e) => course_content::review_log::events_item(e),
        None => course_content::review_log::drill_item(drill, seed),
    };
    let (day, time) = super::progress::now();
    a.log.record(&api::drill::shown(
        drill, &item, a.solution, hints, who, day, time,
    ));
}

/// The problem an answer file names, as `course drill` printed it (for
/// an answer written below the saved output); `None` when the file names
/// none, or the problem cannot be made (the check then says why).
fn saved_problem(
    ctx: &Ctx,
    drill: course_content::drill::Drill,
    seed: Option<u64>,
    text: &str,
    file: &str,
) -> Option<String> {
    use course_content::drill::{Named, ProblemLine};
    let (Named::Seed(line), _) = ProblemLine::find(text, file).ok()?? else {
        return None;
    };
    if line.drill != drill || seed.is_some_and(|s| s != line.seed) {
        return None;
    }
    let req = api::drill::DrillRequest {
        drill,
        seed: Some(line.seed),
        machine: &ctx.machine,
        source: &ctx.source,
        solution: false,
        check: None,
    };
    match api::drill::run(&req).ok()? {
        DrillOutput::Problem(p) => Some(view::drill::problem_text(&p)),
        DrillOutput::Report(_) => None,
    }
}

/// How an input path is named in diagnostics.
pub fn origin(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}

/// A text or DOT writer of a command on one input.
type Writer<T> = fn(&mut Out, &T) -> std::fmt::Result;

/// Reads the input, makes the result with `make` and prints it in the
/// asked format (schedule and analyze).
fn graph_cmd<T: serde::Serialize>(
    a: &InputArgs,
    make: impl FnOnce(&str, &str) -> Result<T, Diagnostics>,
    text: Writer<T>,
    dot: Writer<T>,
) -> CmdResult {
    let input = read_file(&a.input)?;
    let out = make(&input, origin(&a.input))?;
    drop(input);
    match a.format {
        GraphFormat::Text => print_with(|w| text(w, &out)),
        GraphFormat::Json => print_json(&out),
        GraphFormat::Dot => print_with(|w| dot(w, &out)),
    }
    // The process ends next: freeing a large program piece by piece would
    // only delay the exit.
    std::mem::forget(out);
    Ok(0)
}

pub fn schedule(ctx: &Ctx, a: &ScheduleArgs) -> CmdResult {
    graph_cmd(
        &a.input,
        |text, origin| api::schedule::run_with(text, origin, &ctx.machine, a.search_budget),
        view::schedule::write_text,
        view::schedule::write_dot,
    )
}

pub fn analyze(ctx: &Ctx, a: &InputArgs) -> CmdResult {
    graph_cmd(
        a,
        |text, origin| api::analyze::run(text, origin, &ctx.machine),
        view::analyze::write_text,
        view::analyze::write_dot,
    )
}

/// `course machine [NAME|FILE]`: the machine was loaded with the others
/// (the positional name, else `--machine`, else toy).
pub fn machine_cmd(ctx: &Ctx, a: &MachineArgs) -> CmdResult {
    let out = api::machine::run(
        &ctx.machine,
        &api::machine::MachineRequest { reverse: a.reverse },
    )?;
    match a.format {
        Format::Json => print_json(&out),
        Format::Text => print(&view::machine::text(&out)),
    }
    Ok(0)
}

pub fn generate(ctx: &Ctx, a: &GenArgs) -> CmdResult {
    let kind = match a.kind {
        GenKind::Block => Kind::Block,
        GenKind::Loop => Kind::Loop,
    };
    let seed = a.seed.unwrap_or_else(course_host::clock::fresh_seed);
    let out = api::generate::run(&ctx.source, kind, a.ops, seed, &ctx.machine)?;
    print(view::generate::text(&out));
    Ok(0)
}
