//! `course next` (alias `start`) and `course watch`: the chapter's path,
//! one exercise file per step in a working folder. Arguments in; the
//! position from [`course::api::progress::position`], the problem from
//! [`course::api::drill::exercise`], the check from
//! [`course::api::drill::run`]; [`course::view::path`] out.

use std::path::{Path, PathBuf};

use course::api;
use course::api::drill::{Answer, DrillOutput, DrillRequest};
use course::view;
use course_content::path::{self as content_path, Step};

use super::progress::LogArgs;
use super::{CliError, CmdResult, Ctx, print, read_file};

/// Where the exercise files are written.
#[derive(clap::Args, Debug)]
pub struct PathArgs {
    /// The working folder (made when missing).
    #[arg(default_value = "course-work", value_parser = clap::value_parser!(PathBuf))]
    pub dir: PathBuf,
    #[command(flatten)]
    pub log: LogArgs,
}

/// What one look at the current step found.
enum Look {
    /// Waiting for an answer in this file.
    Waiting(String),
    /// Every step done.
    Done,
}

/// `course next`: checks the current step's file when it holds an answer
/// (and writes the next step's on a right one), or writes it.
pub fn next(ctx: &Ctx, a: &PathArgs) -> CmdResult {
    match look(ctx, a)? {
        Look::Waiting(_) | Look::Done => Ok(0),
    }
}

/// `course watch`: [`next`], then again on every save of the current
/// step's file, until the path is done (or interrupted).
pub fn watch(ctx: &Ctx, a: &PathArgs) -> CmdResult {
    let mut current = match look(ctx, a)? {
        Look::Done => return Ok(0),
        Look::Waiting(name) => name,
    };
    let saves = course_host::watch::Saves::on(&a.dir).map_err(CliError)?;
    print(&format!(
        "Watching {} for saves of {current} (Ctrl-C stops).\n",
        a.dir.display()
    ));
    loop {
        saves.next_save(&current).map_err(CliError)?;
        match look(ctx, a)? {
            Look::Done => return Ok(0),
            Look::Waiting(name) => current = name,
        }
    }
}

/// The step file of `step` in `dir`, written (with its problem) when it
/// is not there.
fn ensure_file(ctx: &Ctx, dir: &Path, step: &Step, total: usize) -> Result<PathBuf, CliError> {
    let file = dir.join(step.file_name());
    if !file.exists() {
        std::fs::create_dir_all(dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
        let problem = api::drill::exercise(step, &ctx.machine, &ctx.source)?;
        let text = view::path::exercise_file(step, total, &view::drill::problem_text(&problem));
        std::fs::write(&file, text).map_err(|e| CliError(format!("{}: {e}", file.display())))?;
        print(&view::path::wrote(step, total, &file.display().to_string()));
    }
    Ok(file)
}

/// Checks the current step's file, logs the check, and moves on when it
/// is right.
fn look(ctx: &Ctx, a: &PathArgs) -> Result<Look, CliError> {
    let who = a.log.who()?;
    let pos = api::progress::position(a.log.review_log.as_deref(), &who)?;
    let Some(step) = pos.next else {
        print(&view::path::done(pos.total));
        return Ok(Look::Done);
    };
    let file = ensure_file(ctx, &a.dir, &step, pos.total)?;
    let shown = file.display().to_string();
    let text = read_file(&shown)?;
    if !content_path::has_answer(&text) {
        print(&view::path::waiting(&shown));
        return Ok(Look::Waiting(step.file_name()));
    }
    let req = DrillRequest {
        drill: step.drill,
        seed: None,
        machine: &ctx.machine,
        source: &ctx.source,
        solution: false,
        check: Some(Answer {
            file: &shown,
            text: &text,
        }),
    };
    let drilled = api::drill::run_with_hints(&req, 0)?;
    let (day, time) = super::progress::now();
    let review = drilled.review(&who, day, time);
    let DrillOutput::Report(r) = drilled.output else {
        return Err(CliError("no report for an answer".into()));
    };
    print(&super::paint(ctx, &view::drill::report_text(&r)));
    if let Some(review) = review {
        a.log.record(&[review]);
    }
    if !r.correct() {
        return Ok(Look::Waiting(step.file_name()));
    }
    let pos = api::progress::position(a.log.review_log.as_deref(), &who)?;
    match pos.next {
        None => {
            print(&view::path::done(pos.total));
            Ok(Look::Done)
        }
        Some(next) => {
            ensure_file(ctx, &a.dir, &next, pos.total)?;
            Ok(Look::Waiting(next.file_name()))
        }
    }
}
