//! `course mca`: the llvm-mca-style simulation of [`course_engine::engine::mca`].

use std::ffi::OsString;
use std::io::Write;

use super::{CliError, CmdResult, Ctx, print, print_json, read_file};
use course::api::mca::{self, Request, Views};
use course::view;
use course_engine::engine::mca::DEFAULT_TIMELINE_ITERATIONS;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Input: assembly (AT&T x86-64 or AArch64, as clang -S writes it; a .s file, or text that is not a lab header), run on a built-in processor model exactly as the llvm-mca of the LLVM that model comes from runs it (-mcpu=help lists them); or a lab-format block or loop body, on any machine.\n\nllvm-mca's spelling is read too: -mtriple=…, -mcpu=NAME, -iterations=N, -timeline, -timeline-max-iterations=N, -timeline-max-cycles=N, -resource-pressure[=false], -instruction-info[=false], -summary-view[=false], -dispatch=N, -register-file-size=N, -lqueue=N, -squeue=N, -bottleneck-analysis (as --bottleneck), --instruction-tables[=full], -all-views[=false], -json, -skip-unsupported-instructions, -noalias[=false].\n\nExamples:\n  course mca div.s -mtriple=x86_64-unknown-linux-gnu -mcpu=skylake -iterations=1 -timeline\n  course mca loop.s -mcpu=neoverse-v2 -timeline -timeline-max-iterations=3\n  course mca labs/ch23-sched/inputs/mca/div.txt --machine skylake --iterations 1 --timeline\n  course mca labs/ch23-sched/inputs/mca/model.txt --machine skylake --instruction-tables"
)]
pub struct McaArgs {
    /// A lab-format block or loop body, or an assembly file (`-` for
    /// standard input).
    #[arg(required_unless_present = "mcpu_help", default_value = "-")]
    pub input: String,
    /// Assembly: leave out an instruction the model has no scheduling
    /// information for, with a note on standard error, instead of refusing
    /// the file (llvm-mca's -skip-unsupported-instructions).
    #[arg(long)]
    pub skip_unsupported: bool,
    /// llvm-mca's -noalias: loads pass older stores (true, the default), or
    /// wait for the youngest older store to execute (false).
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    pub noalias: bool,
    /// llvm-mca's -mtriple: checked against the machine's family.
    #[arg(long, value_name = "TRIPLE")]
    pub mtriple: Option<String>,
    /// How many times the body runs.
    #[arg(long, default_value_t = 100)]
    pub iterations: u64,
    /// Print the timeline view.
    #[arg(long)]
    pub timeline: bool,
    /// Say which bound of Theorem 23.1.12 binds the simulated cycles per
    /// iteration (a resource or a recurrence), the instructions behind it,
    /// and what would lift it.
    #[arg(long)]
    pub bottleneck: bool,
    /// Iterations the timeline shows (llvm-mca's -timeline-max-iterations).
    #[arg(long, default_value_t = DEFAULT_TIMELINE_ITERATIONS)]
    pub timeline_max_iterations: u64,
    /// Print the resource pressure views (llvm-mca's default on built-in
    /// processor models: on).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub resource_pressure: Option<bool>,
    /// Print the instruction info view (resources with ReleaseAtCycles;
    /// llvm-mca's default on built-in processor models: on).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub instruction_info: Option<bool>,
    /// Print the summary view (default on).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub summary_view: Option<bool>,
    /// Print only what the model says about each instruction, without
    /// simulating (llvm-mca's --instruction-tables[=full]).
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_missing_value = "normal")]
    pub instruction_tables: Option<String>,
    /// The widest timeline in cycles (llvm-mca's -timeline-max-cycles; 0: no limit).
    #[arg(long, value_name = "N")]
    pub timeline_max_cycles: Option<u64>,
    /// Micro-ops dispatched per cycle instead of the model's (llvm-mca's -dispatch).
    #[arg(long, value_name = "N")]
    pub dispatch: Option<u32>,
    /// Physical registers of the default register file (llvm-mca's -register-file-size).
    #[arg(long, value_name = "N")]
    pub register_file_size: Option<u32>,
    /// Load queue entries (llvm-mca's -lqueue).
    #[arg(long, value_name = "N")]
    pub lqueue: Option<u32>,
    /// Store queue entries (llvm-mca's -squeue).
    #[arg(long, value_name = "N")]
    pub squeue: Option<u32>,
    #[arg(long, value_enum, default_value_t = McaFormat::Text)]
    pub format: McaFormat,
    /// List the built-in processor models and stop (llvm-mca's -mcpu=help).
    #[arg(long)]
    pub mcpu_help: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum McaFormat {
    Text,
    Json,
}

pub fn run(ctx: &Ctx, args: &McaArgs) -> CmdResult {
    if args.mcpu_help {
        print(&mca_help());
        return Ok(0);
    }
    let text = read_file(&args.input)?;
    if let Some(t) = &args.mtriple {
        let arch = t.split('-').next().unwrap_or("");
        if !matches!(arch, "x86_64" | "aarch64" | "arm64") {
            return Err(CliError(format!(
                "-mtriple={t}: the models are of x86_64 and aarch64 processors"
            )));
        }
    }
    if is_assembly(&args.input, &text)
        && let Some(model) = ctx.machine_name.as_deref().and_then(mca::llvm::model)
    {
        return run_llvm(&text, args, model);
    }
    if args
        .instruction_tables
        .as_deref()
        .is_some_and(|l| l != "none")
    {
        let out = mca::tables_with(&text, &args.input, &ctx.machine, args.skip_unsupported)?;
        match args.format {
            McaFormat::Text => print(&view::mca::tables_text(&ctx.machine, &out)),
            McaFormat::Json => print_json(&out),
        }
        return Ok(0);
    }
    let req = Request {
        iterations: args.iterations,
        timeline_iterations: args.timeline_max_iterations,
        views: Views {
            bottleneck: args.bottleneck,
            instruction_info: args.instruction_info.unwrap_or(false),
            resource_pressure: args.resource_pressure.unwrap_or(false),
            timeline: args.timeline,
        },
        skip_unsupported: args.skip_unsupported,
        memory: if args.noalias {
            course_engine::engine::mca::MemoryOrder::NoAlias
        } else {
            course_engine::engine::mca::MemoryOrder::Conservative
        },
    };
    let out = mca::run(&text, &args.input, &ctx.machine, &req)?;
    for n in &out.skipped {
        let _ = writeln!(std::io::stderr(), "note: {n} (skipped)");
    }
    match args.format {
        McaFormat::Text => print(&view::mca::text(&out)),
        McaFormat::Json => print_json(&out),
    }
    Ok(0)
}

fn is_assembly(origin: &str, text: &str) -> bool {
    course_engine::model::asm::is_assembly(origin, text)
}

/// Assembly on a built-in processor model: llvm-mca's own run and output.
fn run_llvm(
    text: &str,
    args: &McaArgs,
    model: &'static course_content::mca_models::Builtin,
) -> CmdResult {
    use course::api::mca::llvm;
    use course_engine::engine::mca::pipeline::{Options, views::ViewSet};
    if let Some(t) = &args.mtriple {
        let arch = t.split('-').next().unwrap_or("");
        let x86 = matches!(model.dialect, course_engine::model::asm::Dialect::X86);
        if x86 != (arch == "x86_64") {
            return Err(CliError(format!(
                "-mtriple={t}: the {} model reads {} assembly",
                model.name,
                if x86 { "x86-64" } else { "AArch64" }
            )));
        }
    }
    let req = llvm::Request {
        options: Options {
            dispatch_width: args.dispatch,
            extrapolate: true,
            iterations: args.iterations,
            load_queue_size: args.lqueue,
            noalias: args.noalias,
            register_file_size: args.register_file_size,
            store_queue_size: args.squeue,
            timeline_iterations: args.timeline_max_iterations,
            timeline_max_cycles: args.timeline_max_cycles.unwrap_or(80),
        },
        views: ViewSet {
            summary: args.summary_view.unwrap_or(true),
            instruction_info: args.instruction_info.unwrap_or(true),
            resource_pressure: args.resource_pressure.unwrap_or(true),
            timeline: args.timeline,
        },
        instruction_tables: match args.instruction_tables.as_deref() {
            None | Some("none") => None,
            Some(level) => Some(level == "full"),
        },
        skip_unsupported: args.skip_unsupported,
        bottleneck: args.bottleneck,
    };
    let out = llvm::run(text, &args.input, model, &req)?;
    for n in &out.skipped {
        let _ = writeln!(std::io::stderr(), "note: {n} (skipped)");
    }
    for w in &out.warnings {
        let _ = writeln!(std::io::stderr(), "{w}");
    }
    match args.format {
        McaFormat::Text => print(&view::mca::llvm_text(&out)),
        McaFormat::Json if out.request.instruction_tables.is_some() => {
            print_json(&llvm::tables_json(&out))
        }
        McaFormat::Json => print_json(&llvm::json(&out)),
    }
    Ok(0)
}

/// The built-in processor models, one a line, and the course's machines.
fn mca_help() -> String {
    use course_engine::model::asm::Dialect;
    let mut s = String::from(
        "Built-in processor models (-mcpu=NAME or --machine NAME; assembly is run as that LLVM's llvm-mca runs it):\n\n",
    );
    for m in course_content::mca_models::MODELS {
        let arch = match m.dialect {
            Dialect::X86 => "x86-64",
            Dialect::AArch64 => "AArch64",
        };
        s.push_str(&format!(
            "  {:<16} {arch:<8} llvm-mca-{} -mcpu={}\n",
            m.name, m.llvm, m.cpu
        ));
    }
    s.push_str(&format!(
        "\nMachines of the course (lab format): {}\n",
        super::builtin_machines().join(", ")
    ));
    s
}

/// llvm-mca's options after `course mca`, one dash or two, rewritten to
/// `course mca`'s own (see the command's help); everything else is kept.
/// `-mcpu=NAME` chooses the built-in machine NAME; `-mcpu=help` lists them.
pub fn llvm_spelling(args: Vec<OsString>) -> Result<Vec<OsString>, CliError> {
    let Some(at) = mca_position(&args) else {
        return Ok(args);
    };
    let mut out: Vec<OsString> = args[..=at].to_vec();
    let mut it = args[at + 1..].iter();
    while let Some(a) = it.next() {
        let Some(s) = a
            .to_str()
            .filter(|s| *s != "--" && *s != "-" && s.starts_with('-'))
        else {
            out.push(a.clone());
            continue;
        };
        let body = s.trim_start_matches('-');
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        rewrite_option(a, name, value, &mut it, &mut out)?;
    }
    Ok(out)
}

/// Where the subcommand is when it is `mca`: the first word that is not a
/// global option or its value.
fn mca_position(args: &[OsString]) -> Option<usize> {
    let mut k = 1;
    while k < args.len() {
        let a = args[k].to_string_lossy();
        if matches!(a.as_ref(), "--machine" | "--course-dir" | "--color") {
            k += 2;
            continue;
        }
        if !a.starts_with('-') {
            return (a == "mca").then_some(k);
        }
        k += 1;
    }
    None
}

/// Pushes onto `out` the `course mca` spelling of option `a`, named `name`
/// with its `=value` if written; an option that needs a value and has none
/// takes the next argument of `rest`. An option llvm-mca does not have is
/// kept as it is.
fn rewrite_option<'a>(
    a: &OsString,
    name: &str,
    value: Option<String>,
    rest: &mut impl Iterator<Item = &'a OsString>,
    out: &mut Vec<OsString>,
) -> Result<(), CliError> {
    let mut take_value = |what: &str| -> Result<String, CliError> {
        match &value {
            Some(v) => Ok(v.clone()),
            None => rest
                .next()
                .and_then(|v| v.to_str().map(str::to_string))
                .ok_or_else(|| CliError(format!("-{what} needs a value"))),
        }
    };
    let flag = |on: &Option<String>| on.as_deref().is_none_or(|v| v != "false" && v != "0");
    match name {
        "mcpu" => {
            let cpu = take_value("mcpu")?;
            if cpu == "help" {
                // A list, as llvm-mca's -mcpu=help lists its processors.
                out.push("--mcpu-help".into());
                return Ok(());
            }
            // The built-in models are named as llvm-mca names the processors.
            out.push("--machine".into());
            out.push(cpu.into());
        }
        "mtriple" => {
            out.push("--mtriple".into());
            out.push(take_value("mtriple")?.into());
        }
        "noalias" => {
            out.push("--noalias".into());
            out.push(value.clone().unwrap_or_else(|| "true".into()).into());
        }
        "iterations" | "timeline-max-iterations" => {
            let v = take_value(name)?;
            out.push(format!("--{name}").into());
            out.push(v.into());
        }
        "bottleneck-analysis" => {
            if flag(&value) {
                out.push("--bottleneck".into());
            }
        }
        "timeline" | "bottleneck" => {
            if flag(&value) {
                out.push(format!("--{name}").into());
            }
        }
        "resource-pressure" | "instruction-info" | "summary-view" => {
            out.push(format!("--{name}={}", flag(&value)).into());
        }
        "instruction-tables" => {
            out.push(
                format!(
                    "--instruction-tables={}",
                    value.as_deref().unwrap_or("normal")
                )
                .into(),
            );
        }
        "timeline-max-cycles" | "dispatch" | "register-file-size" | "lqueue" | "squeue" => {
            let v = take_value(name)?;
            out.push(format!("--{name}").into());
            out.push(v.into());
        }
        // Every view on or off (llvm-mca's statistics views are not
        // printed; --bottleneck is the course's own analysis).
        "all-views" => {
            let on = flag(&value);
            for f in [
                "--resource-pressure",
                "--instruction-info",
                "--summary-view",
            ] {
                out.push(format!("{f}={on}").into());
            }
            if on {
                out.push("--timeline".into());
            }
        }
        "json" => {
            if flag(&value) {
                out.push("--format".into());
                out.push("json".into());
            }
        }
        "skip-unsupported-instructions" => {
            if value.as_deref() != Some("none") {
                out.push("--skip-unsupported".into());
            }
        }
        _ => out.push(a.clone()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(args: &[&str]) -> Vec<String> {
        llvm_spelling(args.iter().map(OsString::from).collect())
            .unwrap()
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn the_lessons_llvm_mca_command_reads_as_course_mca() {
        assert_eq!(
            rewrite(&[
                "course",
                "mca",
                "-mtriple=x86_64-unknown-linux-gnu",
                "-mcpu=skylake",
                "-iterations=1",
                "-timeline",
                "-instruction-info=false",
                "-resource-pressure=false",
                "div.s"
            ]),
            [
                "course",
                "mca",
                "--mtriple",
                "x86_64-unknown-linux-gnu",
                "--machine",
                "skylake",
                "--iterations",
                "1",
                "--timeline",
                "--instruction-info=false",
                "--resource-pressure=false",
                "div.s"
            ]
        );
        assert_eq!(
            rewrite(&["course", "mca", "--instruction-tables=full", "-json", "m.s"]),
            [
                "course",
                "mca",
                "--instruction-tables=full",
                "--format",
                "json",
                "m.s"
            ]
        );
        // Other commands are left alone.
        assert_eq!(
            rewrite(&["course", "schedule", "-timeline"]),
            ["course", "schedule", "-timeline"]
        );
    }
}
