//! The engine commands: drill, schedule, analyze, machine, gen. Each
//! parses its arguments, makes one [`course::api`] call and prints the
//! result with [`course::view`] (text, DOT) or as JSON.

use serde_json::json;

use course::api;
use course::content::drill;
use course::content::gen::GenParams;
use course::model::machine::Machine;
use course::model::program::Kind;
use course::view;

use super::{
    print, print_json, read_file, CliError, CmdResult, Ctx, DrillArgs, Format, GenArgs, GenKind,
    InputArgs, MachineArgs,
};

/// A seed from the OS clock and process id when none is given; printed so
/// the problem can be re-run.
fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    (t ^ (u64::from(std::process::id()) << 32)) % 1_000_000
}

fn load_params(ctx: &Ctx, path: Option<&str>) -> Result<Option<GenParams>, CliError> {
    match (&ctx.source, path) {
        (course::content::data::Source::Dir(_), Some(path)) => {
            let text = ctx.source.read(path)?;
            Ok(Some(GenParams::from_yaml(&text, path)?))
        }
        _ => Ok(None),
    }
}

pub fn drill(ctx: &Ctx, a: &DrillArgs) -> CmdResult {
    if a.drill == "list" {
        if a.format == Format::Json {
            print_json(&json!(drill::DRILLS
                .iter()
                .map(|d| json!({"name": d.name, "summary": d.summary}))
                .collect::<Vec<_>>()));
        } else {
            print(&drill::list_text());
        }
        return Ok(0);
    }
    let info = drill::DRILLS
        .iter()
        .find(|d| d.name == a.drill)
        .ok_or_else(|| {
            CliError(format!(
                "unknown drill '{}' (see `course drill list`)",
                a.drill
            ))
        })?;
    let params = load_params(ctx, info.params)?;
    let seed = match a.seed {
        Some(s) => s,
        None => {
            let s = fresh_seed();
            eprintln!("course: no --seed given; using --seed {s}");
            s
        }
    };
    if let Some(path) = &a.check {
        let answer = read_file(path)?;
        let c = drill::check_answer(&a.drill, &ctx.machine, params.as_ref(), seed, &answer)?;
        match a.format {
            Format::Json => print_json(&c.json),
            _ => print(&super::paint(ctx, &c.text)),
        }
        return Ok(if c.correct { 0 } else { 1 });
    }
    let r = drill::run(&a.drill, &ctx.machine, params.as_ref(), seed, a.solution)?;
    match a.format {
        Format::Json => print_json(&r.json),
        Format::Dot => {
            return Err(CliError(
                "--format dot is for dependence graphs: use `course analyze FILE --format dot`"
                    .into(),
            ))
        }
        Format::Text => print(&r.text),
    }
    Ok(0)
}

/// How an input path is named in diagnostics.
fn origin(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

pub fn schedule(ctx: &Ctx, a: &InputArgs) -> CmdResult {
    let text = read_file(&a.input)?;
    let out = api::schedule::run(&text, origin(&a.input), &ctx.machine)?;
    match a.format {
        Format::Text => print(&view::schedule::text(&out)),
        Format::Json => print_json(&out),
        Format::Dot => print(&view::schedule::dot(&out)),
    }
    Ok(0)
}

pub fn analyze(ctx: &Ctx, a: &InputArgs) -> CmdResult {
    let text = read_file(&a.input)?;
    let out = api::analyze::run(&text, origin(&a.input), &ctx.machine)?;
    match a.format {
        Format::Text => print(&view::analyze::text(&out)),
        Format::Json => print_json(&out),
        Format::Dot => print(&view::analyze::dot(&out)),
    }
    Ok(0)
}

pub fn machine_cmd(ctx: &Ctx, a: &MachineArgs) -> CmdResult {
    let owned: Machine;
    let m = match &a.machine {
        Some(spec) => {
            owned = super::load_machine(Some(spec))?;
            &owned
        }
        None => &ctx.machine,
    };
    if a.format == Format::Dot {
        return Err(CliError(
            "--format dot is for dependence graphs (course analyze)".into(),
        ));
    }
    let out = api::machine::run(m);
    match a.format {
        Format::Json => print_json(&out),
        _ => print(&view::machine::text(&out)),
    }
    Ok(0)
}

pub fn gen(ctx: &Ctx, a: &GenArgs) -> CmdResult {
    let kind = match a.kind {
        GenKind::Block => Kind::Block,
        GenKind::Loop => Kind::Loop,
    };
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let out = api::gen::run(&ctx.source, kind, a.ops, seed, &ctx.machine)?;
    print(view::gen::text(&out));
    Ok(0)
}
