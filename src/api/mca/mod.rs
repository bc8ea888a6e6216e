//! `course mca`: an llvm-mca-style simulation of a block or loop body
//! (Algorithm 23.1.11) with the views asked for; [`llvm`] is the run of
//! assembly on a built-in processor model, as llvm-mca runs it.

pub mod llvm;

use std::collections::BTreeMap;

use course_engine::engine::mca::{self, McaError, Options, Report};
use std::borrow::Cow;

use serde::Serialize;

use course_engine::formats::diagnostic::{Diagnostic, Diagnostics};
use course_engine::model::asm;
use course_engine::model::ids::Cycle;
use course_engine::model::machine::Machine;
use course_engine::model::program::{self, Program};
use course_engine::util::ratio::Ratio;

/// Which views follow the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Views {
    /// Which bound of Theorem 23.1.12 binds (`--bottleneck`).
    pub bottleneck: bool,
    pub instruction_info: bool,
    pub resource_pressure: bool,
    pub timeline: bool,
}

/// The bottleneck section as data ([`course_engine::engine::mca::bottleneck`]).
#[derive(Clone, Debug, Serialize)]
pub struct BottleneckView {
    /// `resource` or `recurrence`.
    pub binding: String,
    /// The bound's value, as a fraction.
    pub bound: String,
    /// How far above the bound the simulation ends, in percent (rounded to
    /// tenths).
    pub percent_above: f64,
    /// Simulated cycles per iteration, rounded to cents.
    pub per_iteration: f64,
    /// Cycles per iteration once the pipeline is full (rounded to cents):
    /// what the bound is compared with.
    pub steady: f64,
    /// RThroughput, as a fraction.
    pub resource_bound: String,
    /// The busiest resource, when it binds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// ℓ(Z)/d(Z) of the critical recurrence, as a fraction (0 without one).
    pub recurrence_bound: String,
    /// The instructions behind the bound: the recurrence in cycle order,
    /// or the resource's users with their cycles per iteration.
    pub instructions: Vec<BottleneckStep>,
    /// What would lift the bound.
    pub advice: String,
}

/// One instruction behind a bound.
#[derive(Clone, Debug, Serialize)]
pub struct BottleneckStep {
    /// Cycles: the edge's latency to the next (a recurrence), or the cycles
    /// booked per iteration (a resource).
    pub cycles: u64,
    /// Iterations the edge spans (a recurrence only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u64>,
    pub instruction: String,
}

/// The bottleneck of `b` as data, instructions named by `texts`.
pub fn bottleneck_view(
    p: &Program,
    m: &Machine,
    b: &course_engine::engine::mca::bottleneck::Bottleneck,
    texts: &[String],
) -> BottleneckView {
    use course_engine::engine::mca::bottleneck::Binding;
    let round = |x: f64, k: f64| (x * k).round() / k;
    let name =
        |o: course_engine::model::ids::OpId| texts.get(o.index()).cloned().unwrap_or_default();
    let (binding, resource, instructions, advice) = match &b.binding {
        Binding::Recurrence(z) => {
            let steps: Vec<BottleneckStep> = z
                .edges
                .iter()
                .map(|&e| {
                    let e = &p.edges()[e as usize];
                    BottleneckStep {
                        cycles: u64::from(e.latency),
                        distance: Some(u64::from(e.distance)),
                        instruction: expand_tabs(&name(e.from)),
                    }
                })
                .collect();
            let two = Ratio::new(z.latency, 2 * z.distance);
            let advice = if two >= b.resource_bound {
                format!(
                    "break the chain: k independent accumulators (or chains) divide ℓ/d by k; with 2 it would be {}, until the resource bound {} binds",
                    two.decimal1(),
                    b.resource_bound.decimal1()
                )
            } else {
                format!(
                    "break the chain: with 2 independent accumulators (or chains) the resource bound {} binds instead",
                    b.resource_bound.decimal1()
                )
            };
            ("recurrence", None, steps, advice)
        }
        Binding::Resource {
            resource, users, ..
        } => {
            let r = m.resource(*resource).name.clone();
            let steps = users
                .iter()
                .map(|&(o, c)| BottleneckStep {
                    cycles: c,
                    distance: None,
                    instruction: expand_tabs(&name(o)),
                })
                .collect();
            let advice = if *resource == course_engine::model::ids::ResourceId::new(0) {
                "fewer micro-ops per iteration (a folded form, fewer instructions): more iterations in flight do not lift a dispatch bound".to_string()
            } else {
                format!(
                    "fewer cycles on {r}: fewer of its users, or forms that hold it for fewer cycles or use another unit; unrolling and more accumulators do not lift a resource bound"
                )
            };
            ("resource", Some(r), steps, advice)
        }
    };
    BottleneckView {
        binding: binding.into(),
        bound: b.bound().fraction_string(),
        percent_above: round(b.above * 100.0, 10.0),
        per_iteration: round(b.per_iteration, 100.0),
        steady: round(b.steady, 100.0),
        resource_bound: b.resource_bound.fraction_string(),
        resource,
        recurrence_bound: b.recurrence_bound.fraction_string(),
        instructions,
        advice,
    }
}

/// A simulation with llvm-mca's summary fields and the views asked for.
/// Fields are declared in alphabetical order, the order JSON objects print
/// their keys in; a view not asked for is absent.
#[derive(Clone, Debug, Serialize)]
pub struct McaOutput<'m> {
    /// Definition 23.1.10.
    pub block_rthroughput: f64,
    /// The Theorem 23.1.12 bound, as a fraction.
    pub bound: String,
    pub dispatch_width: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottleneck: Option<BottleneckView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instruction_info: Option<Vec<InstructionRow>>,
    pub instructions: u64,
    /// Instructions per cycle, rounded to cents.
    pub ipc: f64,
    pub iterations: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_pressure: Option<PressureOutput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Vec<TimelineRow>>,
    pub total_cycles: u64,
    pub total_uops: u64,
    /// Rounded to cents.
    pub uops_per_cycle: f64,
    /// The body, for the text views.
    #[serde(skip)]
    pub program: Program,
    /// What the views call each instruction (its `# asm:` text or the
    /// operation as written).
    #[serde(skip)]
    pub texts: Vec<String>,
    #[serde(skip)]
    pub model: &'m Machine,
    /// Assembly instructions left out (`--skip-unsupported`), each as
    /// `file:line:column: why`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// The simulation itself (unrounded figures, timeline stamps).
    #[serde(skip)]
    pub report: Report,
}

/// One row of the instruction-info view: llvm-mca's `--instruction-tables=full`
/// columns `[1]`–`[9]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionRow {
    /// `[7]`: the latency a consumer sees through its best ReadAdvance.
    pub bypass_latency: u32,
    pub instruction: String,
    /// `[2]`: the largest write latency.
    pub latency: u32,
    pub may_load: bool,
    pub may_store: bool,
    /// `[9]`: the class (named after the LLVM opcode in the built-in models).
    pub opcode: String,
    /// `[8]`: each resource booked and every group containing it, with
    /// ReleaseAtCycles in brackets when more than one.
    pub resources: Vec<String>,
    /// `[3]`.
    pub rthroughput: f64,
    /// `[1]`.
    pub uops: u32,
}

/// Resource pressure keyed by resource name: cycles per iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PressureOutput {
    pub by_instruction: Vec<InstructionPressure>,
    pub per_iteration: BTreeMap<String, f64>,
}

/// One instruction's pressure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionPressure {
    pub instruction: String,
    pub pressure: BTreeMap<String, f64>,
}

/// The life of one recorded instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimelineRow {
    pub dispatch: Cycle,
    pub executed: Cycle,
    /// Index of the operation in the body.
    pub index: usize,
    pub issue: Cycle,
    pub iteration: u64,
    pub retire: Cycle,
}

/// Tab stops of [`expand_tabs`].
pub const TAB_STOP: usize = 4;

/// Expands tabs to the next multiple of [`TAB_STOP`] columns, the way the
/// §7 boxes of Lesson 23.1 show llvm-mca's output (llvm-mca prints a tab
/// after each mnemonic).
pub fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut col = 0;
    for ch in line.chars() {
        if ch == '\t' {
            let n = TAB_STOP - col % TAB_STOP;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(ch);
            col += 1;
        }
    }
    out
}

/// What the model says about each instruction, without simulating
/// (llvm-mca's `--instruction-tables`).
#[derive(Clone, Debug, Serialize)]
pub struct TablesOutput {
    pub instruction_info: Vec<InstructionRow>,
    pub resource_pressure: PressureOutput,
    /// What the views call each instruction.
    #[serde(skip)]
    pub texts: Vec<String>,
}

/// What to simulate and which views to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// How many times the body runs.
    pub iterations: u64,
    /// How many leading iterations the timeline shows, when asked for.
    pub timeline_iterations: u64,
    pub views: Views,
    /// Assembly input: drop instructions the model has no class for (with
    /// a note) instead of refusing the file.
    pub skip_unsupported: bool,
    /// How loads pass older stores (llvm-mca's `-noalias`).
    pub memory: mca::MemoryOrder,
}

/// Why a simulation did not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input does not parse.
    #[error(transparent)]
    Input(#[from] Diagnostics),
    /// The simulation was refused (empty body, too many iterations, …).
    #[error(transparent)]
    Simulation(#[from] McaError),
    /// Assembly on a machine that is not a built-in processor model.
    #[error(
        "assembly runs on a built-in processor model (-mcpu=NAME; `course mca -mcpu=help` lists them), not on the lab machine `{0}`; the lab format runs on any machine"
    )]
    Assembly(String),
}

/// The marker of an instruction's display text in a trailing comment:
/// `a: ymm2 = vdivpd ymm0, ymm1   # asm: vdivpd\t%ymm0, %ymm1, %ymm2`.
pub const ASM_MARKER: &str = "asm:";

/// What the views call each operation: the text of its line's trailing
/// `# asm: …` comment when it has one (the instruction as llvm-mca prints
/// it), else the operation as written in the lab format.
pub fn instruction_texts(text: &str, p: &program::Program) -> Vec<String> {
    let lines: Vec<&str> = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .collect();
    p.ops()
        .iter()
        .map(|o| {
            lines
                .get(o.line as usize - 1)
                .and_then(|l| l.split_once('#'))
                .and_then(|(_, c)| c.trim_start().strip_prefix(ASM_MARKER))
                .map(|a| a.trim_matches(|c: char| c == ' ' || c == '\r').to_string())
                .filter(|a| !a.is_empty())
                .unwrap_or_else(|| o.text())
        })
        .collect()
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The instruction-info rows of `p` on `m`, named by `texts`.
fn info_rows(p: &program::Program, m: &Machine, texts: &[String]) -> Vec<InstructionRow> {
    mca::instruction_info(p, m)
        .iter()
        .zip(texts)
        .zip(p.ops())
        .map(|((i, t), op)| InstructionRow {
            bypass_latency: i.bypass_latency,
            instruction: t.clone(),
            latency: i.latency,
            may_load: i.may_load,
            may_store: i.may_store,
            opcode: m.class(op.class).name.clone(),
            resources: i
                .resources
                .iter()
                .map(|&(r, n)| {
                    if n > 1 {
                        format!("{}[{n}]", m.resource(r).name)
                    } else {
                        m.resource(r).name.clone()
                    }
                })
                .collect(),
            rthroughput: i.rthroughput.to_f64(),
            uops: i.uops,
        })
        .collect()
}

/// A pressure table keyed by resource name.
fn pressure_output(m: &Machine, pr: &mca::Pressure, texts: &[String]) -> PressureOutput {
    let by_name = |row: &[f64]| -> BTreeMap<String, f64> {
        pr.resources
            .iter()
            .zip(row)
            .filter(|&(_, &u)| u != 0.0)
            .map(|(&x, &u)| (m.resource(x).name.clone(), round2(u)))
            .collect()
    };
    PressureOutput {
        by_instruction: pr
            .per_instruction
            .iter()
            .zip(texts)
            .map(|(row, t)| InstructionPressure {
                instruction: t.clone(),
                pressure: by_name(row),
            })
            .collect(),
        per_iteration: by_name(&pr.per_iteration),
    }
}

/// An input read for `course mca` in the lab format: its text and the
/// program parsed from it.
pub struct Source<'t> {
    pub lab: Cow<'t, str>,
    pub program: program::Program,
    pub skipped: Vec<Diagnostic>,
}

/// Reads the lab-format `text` (named `origin`) as [`Source`]. Assembly
/// runs on a built-in processor model ([`llvm::run`]), not here.
pub fn lab_source<'t>(
    text: &'t str,
    origin: &str,
    m: &Machine,
    _skip_unsupported: bool,
) -> Result<Source<'t>, Error> {
    if asm::is_assembly(origin, text) {
        return Err(Error::Assembly(m.name().to_string()));
    }
    let program = program::parse(text, origin, m)?;
    Ok(Source {
        lab: Cow::Borrowed(text),
        program,
        skipped: Vec::new(),
    })
}

/// Parses `text` and reports the model's view of each instruction.
pub fn tables(text: &str, origin: &str, m: &Machine) -> Result<TablesOutput, Error> {
    tables_with(text, origin, m, false)
}

/// [`tables`], dropping unsupported assembly instructions when asked.
pub fn tables_with(
    text: &str,
    origin: &str,
    m: &Machine,
    skip_unsupported: bool,
) -> Result<TablesOutput, Error> {
    let src = lab_source(text, origin, m, skip_unsupported)?;
    let p = src.program;
    let texts = instruction_texts(&src.lab, &p);
    Ok(TablesOutput {
        instruction_info: info_rows(&p, m, &texts),
        resource_pressure: pressure_output(m, &mca::resource_pressure(&p, m), &texts),
        texts,
    })
}

/// Parses the lab-format `text` (named `origin` in diagnostics) and
/// simulates it on `m`.
pub fn run<'m>(
    text: &str,
    origin: &str,
    m: &'m Machine,
    req: &Request,
) -> Result<McaOutput<'m>, Error> {
    let Source {
        lab,
        program,
        skipped,
    } = lab_source(text, origin, m, req.skip_unsupported)?;
    let text = lab.as_ref();
    let p = mca::llvm_memory(&program, m, req.memory).unwrap_or(program);
    let views = req.views;
    let opts = Options {
        iterations: req.iterations,
        timeline_iterations: if views.timeline {
            req.timeline_iterations
        } else {
            0
        },
    };
    let r = mca::simulate(&p, m, &opts)?;
    let texts = instruction_texts(text, &p);
    let instruction_info = views.instruction_info.then(|| info_rows(&p, m, &texts));
    let resource_pressure = views
        .resource_pressure
        .then(|| pressure_output(m, &mca::simulated_pressure(&p, m, &r), &texts));
    let timeline = views.timeline.then(|| {
        r.timeline
            .iter()
            .map(|t| TimelineRow {
                dispatch: t.dispatch,
                executed: t.executed,
                index: t.op,
                issue: t.issue,
                iteration: t.iteration,
                retire: t.retire,
            })
            .collect()
    });
    let bottleneck = views.bottleneck.then(|| {
        let b = mca::bottleneck::bottleneck(&p, m, &r);
        bottleneck_view(&p, m, &b, &texts)
    });
    Ok(McaOutput {
        bottleneck,
        block_rthroughput: r.block_rthroughput.to_f64(),
        bound: r.bound.fraction_string(),
        dispatch_width: r.dispatch_width,
        instruction_info,
        instructions: r.instructions,
        ipc: round2(r.ipc()),
        iterations: r.iterations,
        resource_pressure,
        timeline,
        total_cycles: r.total_cycles,
        total_uops: r.total_uops,
        uops_per_cycle: round2(r.uops_per_cycle()),
        program: p,
        texts,
        model: m,
        report: r,
        skipped: skipped.iter().map(|d| d.to_string()).collect(),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A load and its use, for the tests of the views.
    pub(crate) const BODY: &str = "block t\na: r1 = load [x]\nb: r2 = add r1, 1\n";

    /// One iteration with no view asked for.
    pub(crate) fn request() -> Request {
        Request {
            iterations: 1,
            timeline_iterations: 10,
            views: Views::default(),
            skip_unsupported: false,
            memory: mca::MemoryOrder::NoAlias,
        }
    }

    /// Every view but the bottleneck analysis.
    pub(crate) const ALL_BUT_BOTTLENECK: Views = Views {
        bottleneck: false,
        instruction_info: true,
        resource_pressure: true,
        timeline: true,
    };

    #[test]
    fn views_appear_only_when_asked_for() {
        let m = Machine::toy();
        let body = BODY;
        let mut req = request();
        let out = run(body, "t", &m, &req).unwrap();
        assert_eq!(out.total_cycles, 7);
        let j = serde_json::to_value(&out).unwrap();
        assert!(j.get("timeline").is_none() && j.get("instruction_info").is_none());
        req.views = ALL_BUT_BOTTLENECK;
        let out = run(body, "t", &m, &req).unwrap();
        assert_eq!(out.timeline.as_ref().unwrap()[1].issue, 4);
        assert_eq!(
            out.resource_pressure.as_ref().unwrap().per_iteration["mem"],
            1.0
        );
        req.iterations = 0;
        assert!(matches!(
            run(body, "t", &m, &req),
            Err(Error::Simulation(_))
        ));
        assert!(matches!(
            run("block t\n", "t", &m, &req),
            Err(Error::Input(_)) | Err(Error::Simulation(_))
        ));
    }
}
