//! `course mca` on assembly with a built-in processor model (`-mcpu=skylake`):
//! llvm-mca's own run. The file is read as llvm-mca's assembler reads it
//! ([`course_engine::model::asm::read`]), each instruction is resolved with the
//! tables generated from the LLVM the model names
//! ([`course_engine::model::mc::resolve`]), each code region is simulated by the
//! port of llvm-mca's pipeline ([`course_engine::engine::mca::pipeline`]), and the
//! views print what that llvm-mca prints.

use serde::Serialize;

use course_content::mca_models::{Builtin, Loaded};
use course_engine::engine::mca::pipeline::{self, Options, Report, views};
use course_engine::formats::diagnostic::{Diagnostic, Diagnostics};
use course_engine::model::asm::{self, Dialect, Instruction};
use course_engine::model::mc::build::Builder;
use course_engine::model::mc::resolve::{Names, Refusal, resolve};
use course_engine::model::mc::{Instr, Processor};
use course_engine::util::ratio::Ratio;

use super::{BottleneckStep, BottleneckView};

/// What to run and print: llvm-mca's options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// The simulation's options (iterations, timeline length, queues, …).
    pub options: Options,
    /// Which views each region prints.
    pub views: views::ViewSet,
    /// `--instruction-tables`: the model only, no simulation (`Some(true)`:
    /// `=full`).
    pub instruction_tables: Option<bool>,
    /// `-skip-unsupported-instructions`: leave out an instruction the
    /// model has no scheduling information for, with a note.
    pub skip_unsupported: bool,
    /// `--bottleneck`: which bound of Theorem 23.1.12 binds each region.
    pub bottleneck: bool,
}

/// One code region, run.
#[derive(Clone, Debug)]
pub struct Region {
    /// Its name.
    pub name: String,
    /// Whether llvm-mca prints its header (`[k] Code Region - name`).
    pub marked: bool,
    /// Its instructions as llvm-mca prints them.
    pub texts: Vec<String>,
    /// Their source lines.
    pub lines: Vec<u32>,
    /// What `--instruction-tables=full` prints after each: a comment on
    /// its source line ([`views::source_comment`]).
    pub comments: Vec<String>,
    /// The instructions simulated.
    pub kernel: Vec<Instr>,
    /// The processor with the region's descriptors.
    pub processor: Processor,
    /// The simulation (None under `--instruction-tables`).
    pub report: Option<Report>,
    /// The binding bound (`--bottleneck`).
    pub bottleneck: Option<BottleneckView>,
    /// The instructions as read (for the bottleneck's advice).
    pub source: Vec<Instruction>,
    /// The register names of the model's architecture.
    pub reg_names: Vec<String>,
}

/// The run of a whole file.
#[derive(Clone, Debug)]
pub struct Output {
    /// The model's name.
    pub model: &'static str,
    /// Each non-empty region, in file order.
    pub regions: Vec<Region>,
    /// Instructions left out (`-skip-unsupported-instructions`), each as
    /// a located diagnostic.
    pub skipped: Vec<Diagnostic>,
    /// llvm-mca's warnings (a call, a return), printed on standard error.
    pub warnings: Vec<String>,
    /// The request (views, instruction tables).
    pub request: Request,
}

/// Why a run did not happen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The file does not read or an instruction does not resolve.
    #[error(transparent)]
    Input(#[from] Diagnostics),
    /// The model's tables (a build problem, not the user's).
    #[error("{0}")]
    Tables(String),
    /// The simulation refused (too many instructions, …).
    #[error(transparent)]
    Simulation(#[from] pipeline::SimError),
}

/// Reads `text` (named `origin`) and runs it on `model`.
pub fn run(
    text: &str,
    origin: &str,
    model: &'static Builtin,
    req: &Request,
) -> Result<Output, Error> {
    let loaded = model.load().map_err(Error::Tables)?;
    run_loaded(text, origin, model, &loaded, req)
}

/// [`run`] with `model`'s tables already loaded ([`Builtin::load`]), for
/// many files on one model.
pub fn run_loaded(
    text: &str,
    origin: &str,
    model: &'static Builtin,
    loaded: &Loaded,
    req: &Request,
) -> Result<Output, Error> {
    // LLVM 14's llvm-mca finds no region marker in an AArch64 `//` comment.
    let slash_markers = !(model.llvm == 14 && model.dialect == Dialect::AArch64);
    let listing = asm::read_with(text, origin, model.dialect, slash_markers)?;
    let names = Names::new(&loaded.forms);
    let mut diags = Vec::new();
    let mut skipped = Vec::new();
    let mut warnings = Vec::new();
    let mut regions = Vec::new();
    for region in &listing.regions {
        let r = resolve_region(
            (origin, text),
            region,
            model,
            loaded,
            &names,
            req,
            (&mut diags, &mut skipped),
        );
        if let Some((texts, lines, comments, kernel, processor, w)) = r {
            warnings.extend(w);
            if kernel.is_empty() {
                continue;
            }
            regions.push(Region {
                name: region.name.clone(),
                marked: region.marked,
                texts,
                lines,
                comments,
                kernel,
                processor,
                report: None,
                bottleneck: None,
                source: region.instructions.clone(),
                reg_names: loaded.forms.registers.names.clone(),
            });
        }
    }
    if !diags.is_empty() {
        return Err(Error::Input(Diagnostics(diags)));
    }
    if regions.is_empty() {
        return Err(Error::Input(Diagnostics(vec![Diagnostic::new(
            origin,
            1,
            1,
            "no assembly instructions found",
        )])));
    }
    if req.instruction_tables.is_none() {
        for r in &mut regions {
            let regs = &loaded.forms.registers;
            let rep = pipeline::simulate(&r.processor, regs, &r.kernel, &req.options)?;
            if req.bottleneck {
                r.bottleneck = Some(bottleneck(r, &rep, regs, &req.options)?);
            }
            r.report = Some(rep);
        }
    }
    Ok(Output {
        model: model.name,
        regions,
        skipped,
        warnings,
        request: *req,
    })
}

/// The source comment after each statement, found once per line (a line
/// may hold thousands of `;`-separated statements).
#[derive(Default)]
struct LineComment {
    line: u32,
    /// Where the line's first comment opener after the last statement asked
    /// begins (None: there is none), and the comment.
    opener: Option<usize>,
    text: String,
}

impl LineComment {
    fn of(&mut self, text: &str, line: u32, offset: usize) -> String {
        let reuse = self.line == line && self.opener.is_none_or(|o| o >= offset);
        if !reuse {
            let rest = text
                .get(offset..)
                .and_then(|t| t.find('\n').map(|e| &t[..e]));
            let opener =
                rest.and_then(|r| [r.find("/*"), r.find("//")].into_iter().flatten().min());
            *self = LineComment {
                line,
                opener: opener.map(|o| offset + o),
                text: views::source_comment(rest),
            };
        }
        self.text.clone()
    }
}

/// A region's texts, lines, comments, instructions and processor, and
/// llvm-mca's warnings about its calls and returns.
type Resolved = (
    Vec<String>,
    Vec<u32>,
    Vec<String>,
    Vec<Instr>,
    Processor,
    Vec<String>,
);

/// A region's instructions resolved and built, or None when one does not
/// resolve (its diagnostic in `diags`).
fn resolve_region(
    (origin, text): (&str, &str),
    region: &asm::Region,
    model: &Builtin,
    loaded: &Loaded,
    names: &Names,
    req: &Request,
    (diags, skipped): (&mut Vec<Diagnostic>, &mut Vec<Diagnostic>),
) -> Option<Resolved> {
    let mut builder = Builder::new(&loaded.forms, &loaded.model);
    let (mut texts, mut lines, mut comments, mut kernel) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut ok = true;
    // Only the full instruction tables print the source's comments.
    let full_tables = req.instruction_tables == Some(true);
    let mut comment = LineComment::default();
    for inst in &region.instructions {
        match resolve(
            inst,
            model.dialect,
            &loaded.forms,
            names,
            model.index,
            &loaded.model,
        ) {
            Ok(r) => match builder.instr(&r) {
                Some(i) => {
                    texts.push(r.text);
                    lines.push(inst.line);
                    comments.push(if full_tables {
                        comment.of(text, inst.line, inst.offset)
                    } else {
                        String::new()
                    });
                    kernel.push(i);
                }
                None => {
                    ok = false;
                    diags.push(located(
                        origin,
                        inst,
                        "the model's tables are inconsistent for this instruction".into(),
                    ));
                }
            },
            Err(refusal) => {
                let skippable = matches!(refusal, Refusal::Unsupported { .. });
                let d = located(origin, inst, explain(&refusal, model));
                if req.skip_unsupported && skippable {
                    skipped.push(d);
                } else {
                    ok = false;
                    diags.push(d);
                }
            }
        }
    }
    let warnings = call_warnings(&builder);
    ok.then(|| {
        (
            texts,
            lines,
            comments,
            kernel,
            builder.processor(),
            warnings,
        )
    })
}

fn located(origin: &str, inst: &Instruction, message: String) -> Diagnostic {
    Diagnostic::new(origin, inst.line, inst.column, message)
}

/// A refusal in words a student can act on.
fn explain(r: &Refusal, model: &Builtin) -> String {
    match r {
        Refusal::Unknown { mnemonic, key } => format!(
            "'{mnemonic}' with these operands is not an instruction the {} model knows (form `{key}`)",
            model.name
        ),
        Refusal::NotOnModel {
            mnemonic,
            opcode,
            model: m,
        } => format!(
            "'{mnemonic}' ({opcode}) is not an instruction of {m}: llvm-mca -mcpu={} refuses it too",
            model.cpu
        ),
        Refusal::Unsupported { opcode, why } => format!(
            "{opcode}: {why} (the LLVM {} model of {} has no scheduling information for it; -skip-unsupported-instructions leaves it out)",
            model.llvm, model.cpu
        ),
    }
}

/// llvm-mca's warnings about calls and returns: once per region, when the
/// first descriptor of one is built (`InstrBuilder::createInstrDescImpl`).
fn call_warnings(b: &Builder) -> Vec<String> {
    let mut w = Vec::new();
    if b.saw_call {
        w.push("warning: found a call in the input assembly sequence.\nnote: call instructions are not correctly modeled. Assume a latency of 100cy.".into());
    }
    if b.saw_return {
        w.push("warning: found a return instruction in the input assembly sequence.\nnote: program counter updates are ignored.".into());
    }
    w
}

/// The binding bound of a region's simulation (Theorem 23.1.12): Block
/// RThroughput or the critical recurrence, the instructions behind it, and
/// advice that fits it.
fn bottleneck(
    r: &Region,
    rep: &Report,
    regs: &course_engine::model::mc::Registers,
    opts: &Options,
) -> Result<BottleneckView, Error> {
    use course_engine::model::mc::graph;
    let width = rep.dispatch_width;
    let (res, which) = graph::block_rthroughput(&r.processor, &r.kernel, width);
    let deps = graph::dependences(&r.processor, regs, &r.kernel);
    let rec = graph::recurrence(&deps, r.kernel.len());
    let rec_ratio = rec.as_ref().map_or(Ratio::int(0), |(z, _)| z.ratio());
    let bound = res.max(rec_ratio);
    let n = rep.iterations.max(1);
    // Cycles per iteration once the pipeline is full: the rate between N
    // and 2N iterations (the simulation is cheap in N).
    let mut twice = *opts;
    twice.iterations = 2 * n;
    twice.timeline_iterations = 1;
    let t2 = pipeline::simulate(&r.processor, regs, &r.kernel, &twice)?.total_cycles;
    let steady = t2.saturating_sub(rep.total_cycles) as f64 / n as f64;
    let per_iteration = rep.total_cycles as f64 / n as f64;
    let round = |x: f64, k: f64| (x * k).round() / k;
    let text = |i: usize| mca_expand(r.texts.get(i).map_or("", String::as_str));
    let (binding, resource, instructions, advice) = if let Some((z, steps)) =
        rec.as_ref().filter(|_| rec_ratio > res)
    {
        let st = steps
            .iter()
            .map(|d| BottleneckStep {
                cycles: u64::from(d.latency),
                distance: Some(u64::from(d.distance)),
                instruction: text(d.from),
            })
            .collect();
        ("recurrence", None, st, recurrence_advice(r, z, steps, res))
    } else {
        let name = which
            .and_then(|i| r.processor.resources.get(i))
            .map(|x| x.name.clone());
        let users = which.map_or_else(Vec::new, |i| resource_users(r, i, text));
        let advice = match &name {
            None => "fewer micro-ops per iteration (a folded form, fewer instructions): more iterations in flight do not lift a dispatch bound".to_string(),
            Some(x) => format!("fewer cycles on {x}: fewer of its users, or forms that hold it for fewer cycles or use another unit; unrolling and more accumulators do not lift a resource bound"),
        };
        (
            "resource",
            Some(name.unwrap_or_else(|| "the dispatch width".into())),
            users,
            advice,
        )
    };
    let b = bound.to_f64();
    Ok(BottleneckView {
        binding: binding.into(),
        bound: bound.fraction_string(),
        percent_above: round(
            if b > 0.0 {
                (steady / b - 1.0) * 100.0
            } else {
                0.0
            },
            10.0,
        ),
        per_iteration: round(per_iteration, 100.0),
        steady: round(steady, 100.0),
        resource_bound: res.fraction_string(),
        resource,
        recurrence_bound: rec_ratio.fraction_string(),
        instructions,
        advice,
    })
}

/// The instructions that hold resource `i`, with their cycles per iteration.
fn resource_users(r: &Region, i: usize, text: impl Fn(usize) -> String) -> Vec<BottleneckStep> {
    r.kernel
        .iter()
        .enumerate()
        .filter_map(|(k, ins)| {
            let d = r.processor.descs.get(ins.desc as usize)?;
            let c: u32 = d
                .resources
                .iter()
                .filter(|u| u.resource as usize == i)
                .map(|u| u.end.saturating_sub(u.begin))
                .sum();
            (c > 0).then(|| BottleneckStep {
                cycles: u64::from(c),
                distance: None,
                instruction: text(k),
            })
        })
        .collect()
}

/// What would lift a recurrence bound, by what the chain is: an address
/// or index update (an induction variable: unrolling lets one update serve
/// several elements), a load whose result feeds the next load's address (a
/// linked structure), or a value carried from one iteration to the next
/// (independent accumulators divide ℓ/d).
fn recurrence_advice(
    r: &Region,
    z: &course_engine::engine::mii::Recurrence,
    steps: &[course_engine::model::mc::graph::Dependence],
    res: Ratio,
) -> String {
    let addressing = steps
        .iter()
        .all(|d| is_address(r, d.to, d.register) || writes_back(r, d.from, d.register));
    let loads = steps.iter().any(|d| {
        r.kernel.get(d.from).is_some_and(|i| i.may_load) && is_address(r, d.to, d.register)
    });
    if loads {
        return "each iteration waits for a load whose result is the next address (a linked structure): more accumulators do not help; several independent chains interleaved, or a layout that lets addresses be computed, do".into();
    }
    if addressing {
        return format!(
            "the chain is an address or index update (an induction variable), not an accumulator: unroll so that one update serves several elements (the bound falls with the unroll factor until the resource bound {} binds), or use addresses with an immediate offset from one base",
            res.decimal1()
        );
    }
    let two = Ratio::new(z.latency, 2 * z.distance);
    if two >= res {
        format!(
            "break the chain: k independent accumulators (or chains) divide ℓ/d by k; with 2 it would be {}, until the resource bound {} binds",
            two.decimal1(),
            res.decimal1()
        )
    } else {
        format!(
            "break the chain: with 2 independent accumulators (or chains) the resource bound {} binds instead",
            res.decimal1()
        )
    }
}

/// Whether instruction `k` reads register `reg` as part of a memory address.
fn is_address(r: &Region, k: usize, reg: course_engine::model::mc::RegId) -> bool {
    let Some(inst) = r.source.get(k) else {
        return false;
    };
    let name = r.processor_reg_name(reg);
    inst.operands.iter().any(|o| match o {
        asm::operand::Operand::Mem(m) => [&m.base, &m.index]
            .into_iter()
            .flatten()
            .any(|x| same_register(&x.name, &name)),
        _ => false,
    })
}

/// Whether instruction `k` writes `reg` back as its address register (a
/// pre- or post-indexed access).
fn writes_back(r: &Region, k: usize, reg: course_engine::model::mc::RegId) -> bool {
    let Some(inst) = r.source.get(k) else {
        return false;
    };
    let post = inst
        .operands
        .iter()
        .any(|o| matches!(o, asm::operand::Operand::Mem(_)))
        && inst.operands.last().is_some_and(|o| {
            matches!(
                o,
                asm::operand::Operand::Imm(_) | asm::operand::Operand::Reg(..)
            )
        })
        && inst
            .operands
            .iter()
            .filter(|o| matches!(o, asm::operand::Operand::Mem(_)))
            .count()
            == 1;
    let name = r.processor_reg_name(reg);
    inst.operands.iter().any(|o| match o {
        asm::operand::Operand::Mem(m) => {
            (m.writeback || post)
                && m.base
                    .as_ref()
                    .is_some_and(|b| same_register(&b.name, &name))
        }
        _ => false,
    })
}

/// Two LLVM register names of one register (`X8` and `W8` are not; `FP`
/// and `X29` are the same name already).
fn same_register(a: &str, b: &str) -> bool {
    a == b
}

fn mca_expand(s: &str) -> String {
    super::expand_tabs(s)
}

impl Region {
    fn processor_reg_name(&self, reg: course_engine::model::mc::RegId) -> String {
        self.reg_names
            .get(reg as usize)
            .cloned()
            .unwrap_or_default()
    }
}

/// The summary of a region as JSON (llvm-mca's summary fields).
#[derive(Clone, Debug, Serialize)]
pub struct RegionJson {
    /// Block RThroughput.
    pub block_rthroughput: f64,
    /// The binding bound (`--bottleneck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottleneck: Option<BottleneckView>,
    /// Dispatch Width.
    pub dispatch_width: u32,
    /// Instructions.
    pub instructions: u64,
    /// IPC, rounded to cents.
    pub ipc: f64,
    /// Iterations.
    pub iterations: u64,
    /// The region's name.
    pub name: String,
    /// Total Cycles.
    pub total_cycles: u64,
    /// Total uOps.
    pub total_uops: u64,
    /// uOps Per Cycle, rounded to cents.
    pub uops_per_cycle: f64,
}

/// The JSON of a run: the first region's summary at the top (most files
/// have one region) and every region's in `regions`.
#[derive(Clone, Debug, Serialize)]
pub struct Json {
    /// Block RThroughput.
    pub block_rthroughput: f64,
    /// The binding bound (`--bottleneck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottleneck: Option<BottleneckView>,
    /// Dispatch Width.
    pub dispatch_width: u32,
    /// Instructions.
    pub instructions: u64,
    /// IPC, rounded to cents.
    pub ipc: f64,
    /// Iterations.
    pub iterations: u64,
    /// The model.
    pub model: String,
    /// The first region's name.
    pub name: String,
    /// Every region.
    pub regions: Vec<RegionJson>,
    /// Total Cycles.
    pub total_cycles: u64,
    /// Total uOps.
    pub total_uops: u64,
    /// uOps Per Cycle, rounded to cents.
    pub uops_per_cycle: f64,
}

/// The run as JSON.
pub fn json(out: &Output) -> Option<Json> {
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let regions: Vec<RegionJson> = out
        .regions
        .iter()
        .filter_map(|r| {
            let rep = r.report.as_ref()?;
            let c = rep.total_cycles.max(1) as f64;
            Some(RegionJson {
                block_rthroughput: rep.block_rthroughput,
                bottleneck: r.bottleneck.clone(),
                dispatch_width: rep.dispatch_width,
                instructions: rep.instructions,
                ipc: round(rep.instructions as f64 / c),
                iterations: rep.iterations,
                name: r.name.clone(),
                total_cycles: rep.total_cycles,
                total_uops: rep.total_uops,
                uops_per_cycle: round(rep.total_uops as f64 / c),
            })
        })
        .collect();
    let f = regions.first()?.clone();
    Some(Json {
        block_rthroughput: f.block_rthroughput,
        bottleneck: f.bottleneck,
        dispatch_width: f.dispatch_width,
        instructions: f.instructions,
        ipc: f.ipc,
        iterations: f.iterations,
        model: out.model.to_string(),
        name: f.name,
        regions,
        total_cycles: f.total_cycles,
        total_uops: f.total_uops,
        uops_per_cycle: f.uops_per_cycle,
    })
}

/// `--instruction-tables` as JSON: per region, the resource units and each
/// instruction's row.
#[derive(Clone, Debug, Serialize)]
pub struct TablesJson {
    /// The model.
    pub model: String,
    /// Every region.
    pub regions: Vec<TablesRegionJson>,
}

/// One region of [`TablesJson`].
#[derive(Clone, Debug, Serialize)]
pub struct TablesRegionJson {
    /// Its instructions.
    pub instructions: Vec<TableInstructionJson>,
    /// Its name.
    pub name: String,
    /// The resource units, in the order of each row's `pressure`.
    pub resources: Vec<String>,
}

/// One instruction of [`TablesRegionJson`] (keys in alphabetical order).
#[derive(Clone, Debug, Serialize)]
pub struct TableInstructionJson {
    /// As llvm-mca prints it.
    pub instruction: String,
    /// Latency.
    pub latency: u32,
    /// Its source line.
    pub line: u32,
    /// May load.
    pub may_load: bool,
    /// May store.
    pub may_store: bool,
    /// Cycles on each resource unit, in the order of `resources`.
    pub pressure: Vec<f64>,
    /// Reciprocal throughput.
    pub rthroughput: f64,
    /// Has unmodelled side effects.
    pub side_effects: bool,
    /// Micro-ops.
    pub uops: u32,
}

/// The instruction tables of a run as JSON.
pub fn tables_json(out: &Output) -> TablesJson {
    TablesJson {
        model: out.model.to_string(),
        regions: out
            .regions
            .iter()
            .map(|r| TablesRegionJson {
                name: r.name.clone(),
                resources: pipeline::table_columns(&r.processor),
                instructions: pipeline::table_rows(&r.processor, &r.kernel)
                    .into_iter()
                    .enumerate()
                    .map(|(k, row)| TableInstructionJson {
                        instruction: r.texts.get(k).cloned().unwrap_or_default(),
                        latency: row.latency,
                        line: r.lines.get(k).copied().unwrap_or(0),
                        may_load: row.may_load,
                        may_store: row.may_store,
                        pressure: row.pressure,
                        rthroughput: row.rthroughput,
                        side_effects: row.side_effects,
                        uops: row.uops,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Whether `name` is a built-in model with generated tables for `dialect`'s
/// architecture.
pub fn model(name: &str) -> Option<&'static Builtin> {
    course_content::mca_models::find(name)
}

/// The dialect a model reads.
pub fn dialect(m: &Builtin) -> Dialect {
    m.dialect
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(text: &str, model: &str, req: &Request) -> Output {
        let m = course_content::mca_models::find(model).unwrap();
        run(text, "k.s", m, req).unwrap()
    }

    fn iterations(n: u64) -> Request {
        let mut r = Request::default();
        r.options.iterations = n;
        r
    }

    #[test]
    fn an_accumulator_folding_a_load_gets_the_loads_head_start() {
        // The scalar array sum clang emits. The %rax form's operands were
        // read in the wrong order (its neighbours all had %rax as the base
        // too), so the accumulator waited for the load: 603 cycles.
        // llvm-mca-22: 108 on skylake, 107 on znver4.
        let sum = ".LBB0_1:\n\taddq\t(%rdi,%rcx,8), %rax\n\tincq\t%rcx\n\tcmpq\t%rcx, %rsi\n\tjne\t.LBB0_1\n";
        for (model, cycles) in [("skylake", 108), ("znver4", 107)] {
            let out = run_on(sum, model, &iterations(100));
            let rep = out.regions[0].report.as_ref().unwrap();
            assert_eq!(rep.total_cycles, cycles, "{model}");
        }
    }

    #[test]
    fn a_dependent_add_runs_one_a_cycle() {
        // llvm-mca-22 -mcpu=skylake: 103 cycles, Block RThroughput 0.3.
        let out = run_on("addq %rax, %rax\n", "skylake", &iterations(100));
        let rep = out.regions[0].report.as_ref().unwrap();
        assert_eq!((rep.total_cycles, rep.instructions), (103, 100));
        assert!(
            (rep.block_rthroughput - 0.25).abs() < 1e-9,
            "{}",
            rep.block_rthroughput
        );
        assert_eq!(out.regions[0].texts, ["addq\t%rax, %rax"]);
    }

    #[test]
    fn calls_and_returns_warn_once_a_region() {
        let req = iterations(2);
        let one = run_on("callq foo\ncallq bar\nretq\n", "skylake", &req);
        assert_eq!(one.warnings.len(), 2, "{:?}", one.warnings);
        assert!(one.warnings[0].contains("Assume a latency of 100cy."));
        assert!(one.warnings[1].contains("program counter updates are ignored"));
        let two = run_on(
            "# LLVM-MCA-BEGIN a\ncallq foo\n# LLVM-MCA-END a\n# LLVM-MCA-BEGIN b\ncallq foo\n# LLVM-MCA-END b\n",
            "skylake",
            &req,
        );
        assert_eq!(two.warnings.len(), 2, "{:?}", two.warnings);
        // The call's latency is the assumed 100 cycles (llvm-mca-22: 104).
        assert_eq!(two.regions[0].report.as_ref().unwrap().total_cycles, 104);
    }

    #[test]
    fn instruction_tables_as_data() {
        // llvm-mca-22 -mcpu=neoverse-v2 --instruction-tables -json: the
        // load has latency 4, one micro-op and RThroughput 1/3.
        let req = Request {
            instruction_tables: Some(false),
            ..Request::default()
        };
        let out = run_on("ldr x0, [x0]\nadd x1, x1, #1\n", "neoverse-v2", &req);
        assert!(out.regions[0].report.is_none());
        let j = tables_json(&out);
        let r = &j.regions[0];
        let ldr = &r.instructions[0];
        assert_eq!((ldr.instruction.as_str(), ldr.line), ("ldr\tx0, [x0]", 1));
        assert_eq!((ldr.uops, ldr.latency, ldr.rthroughput), (1, 4, 0.33));
        assert!(ldr.may_load && !ldr.may_store);
        assert_eq!(ldr.pressure.len(), r.resources.len());
        let total: f64 = ldr.pressure.iter().sum();
        assert!((total - 1.0).abs() < 0.02, "{:?}", ldr.pressure);
    }

    #[test]
    fn the_full_tables_print_a_source_comment() {
        let req = Request {
            instruction_tables: Some(true),
            ..Request::default()
        };
        let out = run_on(
            "mov x0, #8192\nadd x0, x1, x2 // hello\n",
            "neoverse-v2",
            &req,
        );
        assert_eq!(out.regions[0].comments, ["", "// hello"]);
    }

    #[test]
    fn an_unknown_form_is_located() {
        let m = course_content::mca_models::find("skylake").unwrap();
        let Err(Error::Input(d)) = run(
            "addq %rax, %rbx\n\taddq %xmm0, %rax\n",
            "k.s",
            m,
            &iterations(1),
        ) else {
            panic!("accepted");
        };
        assert_eq!((d.0[0].line, d.0[0].column), (2, 2), "{d}");
    }
}
