//! The engine commands: drill, schedule, analyze, machine, gen.

use serde_json::json;

use course::api::{self, drill::DrillOutput};
use course::content::gen::{self, GenParams};
use course::engine::hazard;
use course::engine::mii;
use course::engine::sched;
use course::model::machine::Machine;
use course::model::program::{self, Kind, Program};
use course::view::{self, report};

use super::{
    print, print_json, read_file, CliError, CmdResult, Ctx, DrillArgs, DrillChoice, Format,
    GenArgs, GenKind, InputArgs, MachineArgs,
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
    let drill = match a.drill {
        DrillChoice::List => {
            let list = api::drill::list();
            match a.format {
                Format::Json => print_json(&list),
                _ => print(&view::drill::list_text(&list)),
            }
            return Ok(0);
        }
        DrillChoice::One(d) => d,
    };
    let seed = match a.seed {
        Some(s) => s,
        None => {
            let s = fresh_seed();
            eprintln!("course: no --seed given; using --seed {s}");
            s
        }
    };
    let answer = match &a.check {
        Some(path) => Some((
            if path == "-" {
                "<stdin>"
            } else {
                path.as_str()
            },
            read_file(path)?,
        )),
        None => None,
    };
    let out = api::drill::run(&api::drill::DrillRequest {
        drill,
        seed,
        machine: &ctx.machine,
        source: &ctx.source,
        solution: a.solution,
        check: answer
            .as_ref()
            .map(|(file, text)| api::drill::Answer { file, text }),
    })?;
    match out {
        DrillOutput::Report(r) => {
            match a.format {
                Format::Json => print_json(&r),
                _ => print(&super::paint(ctx, &view::drill::report_text(&r))),
            }
            Ok(if r.correct() { 0 } else { 1 })
        }
        DrillOutput::Problem(p) => {
            match a.format {
                Format::Json => print_json(&p),
                Format::Dot => return Err(CliError(
                    "--format dot is for dependence graphs: use `course analyze FILE --format dot`"
                        .into(),
                )),
                Format::Text => print(&view::drill::problem_text(&p)),
            }
            Ok(0)
        }
    }
}

fn load_input(ctx: &Ctx, path: &str) -> Result<Program, CliError> {
    let text = read_file(path)?;
    let origin = if path == "-" { "<stdin>" } else { path };
    Ok(program::parse(&text, origin, &ctx.machine)?)
}

pub fn schedule(ctx: &Ctx, a: &InputArgs) -> CmdResult {
    let p = load_input(ctx, &a.input)?;
    let m = &ctx.machine;
    if a.format == Format::Dot {
        print(&report::dot(&p, m));
        return Ok(0);
    }
    let (cycles, length, ii) = match p.kind {
        Kind::Block => {
            let s = sched::list_schedule(&p, m);
            (s.cycles, s.length, None)
        }
        Kind::Loop => {
            let s = course::engine::modulo::modulo_schedule(&p, m);
            let len = sched::schedule_length(&p, m, &s.cycles);
            (s.cycles, len, Some(s.ii))
        }
    };
    match a.format {
        Format::Json => {
            let mut j = report::program_json(&p, m);
            j.insert(
                "schedule".into(),
                json!(course::engine::check::schedule_map(&p, &cycles)),
            );
            j.insert("length".into(), json!(length));
            if let Some(ii) = ii {
                j.insert("ii".into(), json!(ii));
            }
            print_json(&serde_json::Value::Object(j));
        }
        _ => {
            let mut s = format!("{} {} on machine {}\n\n", p.kind.as_str(), p.name, m.name);
            match ii {
                None => s.push_str(&format!(
                    "List schedule (top-down, priority = height, ties by source order), length {length}:\n"
                )),
                Some(ii) => s.push_str(&format!(
                    "Modulo schedule (iterative modulo scheduling), II = {ii}, one iteration spans {length} cycles:\n"
                )),
            }
            s.push_str(&course::engine::check::submission_text(&p, &cycles, ii));
            s.push_str(&format!(
                "\n{}:\n",
                if ii.is_some() {
                    "Modulo reservation table (rows = cycle mod II)"
                } else {
                    "Reservation table"
                }
            ));
            s.push_str(&report::reservation_table(&p, m, &cycles, ii));
            print(&s);
        }
    }
    Ok(0)
}

pub fn analyze(ctx: &Ctx, a: &InputArgs) -> CmdResult {
    let p = load_input(ctx, &a.input)?;
    let m = &ctx.machine;
    let h = sched::heights(&p, m);
    let b = mii::analyze(&p, m);
    match a.format {
        Format::Dot => print(&report::dot(&p, m)),
        Format::Json => {
            let mut j = report::program_json(&p, m);
            j.insert("heights".into(), report::heights_json(&p, &h));
            if let serde_json::Value::Object(bj) = report::bounds_json(&p, m, &b) {
                j.extend(bj);
            }
            print_json(&serde_json::Value::Object(j));
        }
        Format::Text => {
            let mut s = format!(
                "{} {} on machine {} ({} operations)\n\n",
                p.kind.as_str(),
                p.name,
                m.name,
                p.len()
            );
            s.push_str("Dependences:\n");
            s.push_str(&report::edges_text(&p));
            s.push_str("\nHeights (over distance-0 edges):\n");
            s.push_str(&report::heights_text(&p, &h));
            s.push('\n');
            s.push_str(&report::bounds_text(&p, m, &b));
            print(&s);
        }
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
    match a.format {
        Format::Json => {
            let mut j = serde_json::to_value(m.info()).unwrap_or_default();
            j["forbidden_latencies"] = json!(m
                .resource_ids()
                .filter(|&r| r.index() != 0 && m.resource(r).capacity == 1)
                .map(|r| json!({
                    "resource": m.resource(r).name,
                    "pairs": hazard::forbidden_matrix(m, r).iter().map(|(x, y, f)| json!({
                        "from": m.class(*x).name, "to": m.class(*y).name, "latencies": f
                    })).collect::<Vec<_>>(),
                }))
                .collect::<Vec<_>>());
            print_json(&j);
        }
        Format::Dot => {
            return Err(CliError(
                "--format dot is for dependence graphs (course analyze)".into(),
            ))
        }
        Format::Text => print(&course::view::machine::text(m)),
    }
    Ok(0)
}

pub fn gen(ctx: &Ctx, a: &GenArgs) -> CmdResult {
    let (kind, path) = match a.kind {
        GenKind::Block => (Kind::Block, "drills/list-schedule.yaml"),
        GenKind::Loop => (Kind::Loop, "drills/mii.yaml"),
    };
    let params = match load_params(ctx, Some(path))? {
        Some(p) => p,
        None if kind == Kind::Block => GenParams::block_default(),
        None => GenParams::loop_default(),
    };
    if let Some(n) = a.ops {
        if n == 0 || n > gen::MAX_OPS {
            return Err(CliError(format!(
                "--ops must be between 1 and {}",
                gen::MAX_OPS
            )));
        }
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let text = match kind {
        Kind::Block => gen::block(&ctx.machine, &params, seed, a.ops),
        Kind::Loop => gen::loop_body(&ctx.machine, &params, seed, a.ops),
    };
    print(&text);
    Ok(0)
}
