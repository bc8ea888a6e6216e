//! `course mca`: the llvm-mca-style simulation of [`course::engine::mca`].

use std::ffi::OsString;
use std::io::Write;

use super::{CliError, CmdResult, Ctx, print, print_json, read_file};
use course::api::mca::{self, Request, Views};
use course::engine::mca::DEFAULT_TIMELINE_ITERATIONS;
use course::view;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Input: a lab-format block or loop body, or assembly (AT&T x86-64 or AArch64, as clang -S writes it; a .s file, or text that is not a lab header), lowered to the lab format (--emit-lab shows how).\n\nllvm-mca's spelling is read too: -mtriple=…, -mcpu=NAME (a built-in machine; -mcpu=help lists them), -iterations=N, -timeline, -timeline-max-iterations=N, -resource-pressure[=false], -instruction-info[=false], -bottleneck-analysis (as --bottleneck), --instruction-tables[=full], -all-views, -json, -skip-unsupported-instructions, -noalias[=false].\n\nExamples:\n  course mca div.s -mtriple=x86_64-unknown-linux-gnu -mcpu=skylake -iterations=1 -timeline\n  course mca labs/ch23-sched/inputs/mca/div.txt --machine skylake --iterations 1 --timeline\n  course mca labs/ch23-sched/inputs/mca/dot-x86.txt --machine znver4 --iterations 100 --format json\n  course mca labs/ch23-sched/inputs/mca/model.txt --machine skylake --instruction-tables"
)]
pub struct McaArgs {
    /// A lab-format block or loop body, or an assembly file (`-` for
    /// standard input).
    pub input: String,
    /// Print the lab form of the input (assembly lowered) and stop.
    #[arg(long)]
    pub emit_lab: bool,
    /// Assembly: drop an instruction the model has no class for, with a
    /// note on standard error, instead of refusing the file.
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
    /// Print the resource pressure views.
    #[arg(long)]
    pub resource_pressure: bool,
    /// Print the instruction info view (resources with ReleaseAtCycles).
    #[arg(long)]
    pub instruction_info: bool,
    /// Print only what the model says about each instruction, without
    /// simulating (llvm-mca's --instruction-tables).
    #[arg(long)]
    pub instruction_tables: bool,
    #[arg(long, value_enum, default_value_t = McaFormat::Text)]
    pub format: McaFormat,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum McaFormat {
    Text,
    Json,
}

pub fn run(ctx: &Ctx, args: &McaArgs) -> CmdResult {
    let text = read_file(&args.input)?;
    if let Some(t) = &args.mtriple {
        let arch = t.split('-').next().unwrap_or("");
        if !matches!(arch, "x86_64" | "aarch64" | "arm64") {
            return Err(CliError(format!(
                "-mtriple={t}: the models are of x86_64 and aarch64 processors"
            )));
        }
    }
    if args.emit_lab {
        let src = mca::lab_source(&text, &args.input, &ctx.machine, args.skip_unsupported)?;
        notes(&src.skipped);
        print(&src.lab);
        return Ok(0);
    }
    if args.instruction_tables {
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
            instruction_info: args.instruction_info,
            resource_pressure: args.resource_pressure,
            timeline: args.timeline,
        },
        skip_unsupported: args.skip_unsupported,
        memory: if args.noalias {
            course::engine::mca::MemoryOrder::NoAlias
        } else {
            course::engine::mca::MemoryOrder::Conservative
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

/// Notes of skipped instructions, on standard error.
fn notes(skipped: &[course::formats::diagnostic::Diagnostic]) {
    for d in skipped {
        let _ = writeln!(std::io::stderr(), "note: {d} (skipped)");
    }
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
                return Err(CliError(format!(
                    "-mcpu: the built-in models are {}",
                    super::builtin_machines().join(", ")
                )));
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
        "timeline" | "resource-pressure" | "instruction-info" | "bottleneck" => {
            if flag(&value) {
                out.push(format!("--{name}").into());
            }
        }
        "instruction-tables" => {
            if value.as_deref() != Some("none") {
                out.push("--instruction-tables".into());
            }
        }
        "all-views" => {
            if flag(&value) {
                for f in [
                    "--timeline",
                    "--resource-pressure",
                    "--instruction-info",
                    "--bottleneck",
                ] {
                    out.push(f.into());
                }
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
                "div.s"
            ]
        );
        assert_eq!(
            rewrite(&["course", "mca", "--instruction-tables=full", "-json", "m.s"]),
            [
                "course",
                "mca",
                "--instruction-tables",
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
