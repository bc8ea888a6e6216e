//! The course data the page offers (drills, machines, lab inputs, llvm-mca
//! kernels, embedded files), and the lab checker and llvm-mca sections:
//! `course grade INPUT SUBMISSION` and `course mca INPUT …`.

use serde::{Deserialize, Serialize};

use course::api;
use course::view;
use course_content::data::{self, Source};
use course_content::drill::DrillEntry;
use course_content::mca_models::Builtin;
use course_content::{family, lab};
use course_engine::model::machine::Machine;

use crate::progress::MAX_IMPORT_BYTES;
use crate::{Text, pretty};

/// The lab the page grades, its inputs and kernels under `labs/LAB/`.
const LAB: &str = "ch23-sched";

/// A built-in machine by name (`toy` when none is given), a family member
/// (`pathological:D`), or a machine file's text.
pub(crate) fn machine(name: Option<&str>, yaml: Option<&str>) -> Result<Machine, String> {
    if let Some(text) = yaml {
        return Machine::from_yaml(text, "machine.yaml").map_err(|e| e.to_string());
    }
    let name = match name {
        None | Some("toy") => return Ok(Machine::toy()),
        Some(n) => n,
    };
    if let Some(m) = family::machine(name) {
        return m;
    }
    let text = data::builtin_machine(name).ok_or_else(|| {
        format!(
            "{name}: not a built-in machine (built in: {}; or pathological:D)",
            data::builtin_machine_names().join(", ")
        )
    })?;
    Machine::from_yaml(text, &format!("{name}.yaml")).map_err(|e| e.to_string())
}

/// The lab's inputs, by path in the course data, in the order its
/// `lab.yaml` lists them (the order `course grade --lab` reports them in).
fn lab_inputs() -> Result<Vec<String>, String> {
    let path = format!("labs/{LAB}/lab.yaml");
    let text = Source::Embedded.read(&path)?;
    let manifest: lab::Manifest =
        course_engine::formats::yaml::from_str(&text, &path).map_err(|d| d.to_string())?;
    let inputs = manifest.inputs.iter();
    Ok(inputs
        .map(|s| format!("labs/{LAB}/inputs/{s}.txt"))
        .collect())
}

/// An llvm-mca kernel and the machine it was written for.
#[derive(Serialize)]
pub(crate) struct Kernel {
    machine: String,
    path: String,
}

/// The llvm-mca kernels of the course data: the lesson's assembly (`.s`),
/// then the same kernels in the lab format (`.txt`), each on the machine
/// its lab-format file runs it on.
fn kernels() -> Vec<Kernel> {
    let dir = format!("labs/{LAB}/inputs/mca/");
    let stems: Vec<&str> = data::EMBEDDED_EXTRA
        .iter()
        .filter_map(|(path, _)| path.strip_prefix(&dir)?.strip_suffix(".s"))
        .collect();
    let machines: Vec<String> = stems.iter().map(|s| kernel_machine(&dir, s)).collect();
    [".s", ".txt"]
        .iter()
        .flat_map(|ext| {
            let dir = &dir;
            stems.iter().zip(&machines).map(move |(stem, m)| Kernel {
                machine: m.clone(),
                path: format!("{dir}{stem}{ext}"),
            })
        })
        .collect()
}

/// The machine the kernel `stem` was written for: the one the `# Run:
/// course mca … --machine NAME` line of its lab-format file names (`toy`,
/// the default machine, when it names none).
fn kernel_machine(dir: &str, stem: &str) -> String {
    let text = data::embedded(&format!("{dir}{stem}.txt")).unwrap_or_default();
    run_machine(text).unwrap_or("toy").to_string()
}

/// The machine a kernel's `# Run: course mca … --machine NAME` line names.
fn run_machine(kernel: &str) -> Option<&str> {
    let run = kernel
        .lines()
        .find_map(|l| l.strip_prefix("# Run: course mca "))?;
    let mut words = run.split_whitespace();
    words.find(|w| *w == "--machine")?;
    words.next()
}

/// `{"cmd":"info"}`: what the page offers.
#[derive(Serialize)]
pub(crate) struct Info {
    /// `course drill list`, as data and as text.
    drills: Vec<DrillEntry>,
    drill_list_text: String,
    machines: Vec<&'static str>,
    lab_inputs: Vec<String>,
    kernels: Vec<Kernel>,
    max_import_bytes: usize,
}

/// Lists what the page offers.
pub(crate) fn info() -> Result<Info, String> {
    let drills = api::drill::list();
    Ok(Info {
        drill_list_text: view::drill::list_text(&drills),
        drills,
        machines: data::builtin_machine_names(),
        lab_inputs: lab_inputs()?,
        kernels: kernels(),
        max_import_bytes: MAX_IMPORT_BYTES,
    })
}

/// `{"cmd":"file","path":PATH}`: an embedded course file.
#[derive(Deserialize)]
pub(crate) struct FileReq {
    path: String,
}

/// Reads an embedded course file.
pub(crate) fn file(a: &FileReq) -> Result<Text, String> {
    let text = Source::Embedded.read(&a.path)?;
    Ok(Text { text })
}

/// `{"cmd":"grade",…}`: `course grade INPUT SUBMISSION` on the texts.
#[derive(Deserialize)]
pub(crate) struct GradeReq {
    /// The input's file name (its stem names the input).
    input: String,
    input_text: String,
    /// The submission's file name.
    name: String,
    submission: String,
    #[serde(default)]
    machine: Option<String>,
    #[serde(default)]
    machine_yaml: Option<String>,
}

/// A grade: the CLI's JSON and text, the verdict, and the reservation
/// tables of the submission and the reference.
#[derive(Serialize)]
pub(crate) struct Graded {
    json: String,
    tables: Option<Tables>,
    text: String,
    valid: bool,
}

/// The reservation tables of a graded input: the submission's (when every
/// operation has exactly one cycle) and the reference's.
#[derive(Serialize)]
struct Tables {
    mine: Option<String>,
    reference: String,
}

/// Grades the submission on the input, as `course grade` does.
pub(crate) fn grade(a: &GradeReq) -> Result<Graded, String> {
    let m = machine(a.machine.as_deref(), a.machine_yaml.as_deref())?;
    let g = api::grade::input_text(&a.input_text, &a.input, &a.name, &a.submission, &m)
        .map_err(|d| d.to_string())?;
    let r = g.report();
    let tables = g.grades().lab.input(&r.input).map(|li| {
        let p = &li.program;
        let mine = r
            .submitted
            .as_ref()
            .map(|t| view::report::reservation_table(p, &m, t, r.submitted_ii.or(li.ii)));
        Tables {
            mine,
            reference: view::report::reservation_table(p, &m, &li.reference, li.ii),
        }
    });
    Ok(Graded {
        json: pretty(&g),
        tables,
        text: view::grade::text(g.grades()),
        valid: r.valid,
    })
}

/// `{"cmd":"mca",…}`: `course mca INPUT [--timeline] [--resource-pressure]
/// [--instruction-info] [--bottleneck] …` on the text.
#[derive(Deserialize)]
pub(crate) struct McaReq {
    input: String,
    input_text: String,
    #[serde(default)]
    machine: Option<String>,
    #[serde(default)]
    machine_yaml: Option<String>,
    #[serde(default = "hundred")]
    iterations: u64,
    #[serde(default = "ten")]
    timeline_iterations: u64,
    #[serde(default)]
    timeline: bool,
    #[serde(default)]
    resource_pressure: bool,
    #[serde(default)]
    instruction_info: bool,
    #[serde(default)]
    bottleneck: bool,
}

fn hundred() -> u64 {
    100
}

fn ten() -> u64 {
    course_engine::engine::mca::DEFAULT_TIMELINE_ITERATIONS
}

/// Assembly on a built-in processor model.
fn mca_llvm(a: &McaReq, model: &'static Builtin) -> Result<Mca, String> {
    use course_engine::engine::mca::pipeline::{Options, views::ViewSet};
    let req = api::mca::llvm::Request {
        options: Options {
            iterations: a.iterations,
            timeline_iterations: a.timeline_iterations,
            ..Options::default()
        },
        views: ViewSet {
            timeline: a.timeline,
            resource_pressure: a.resource_pressure,
            instruction_info: a.instruction_info,
            summary: true,
        },
        bottleneck: a.bottleneck,
        ..Default::default()
    };
    let out =
        api::mca::llvm::run(&a.input_text, &a.input, model, &req).map_err(|e| e.to_string())?;
    Ok(Mca {
        json: pretty(&api::mca::llvm::json(&out)),
        text: view::mca::llvm_text(&out),
    })
}

/// The built-in processor model the request runs on: assembly with a
/// model's name for machine (`None`: the lab format, on a machine).
fn llvm_model(a: &McaReq) -> Option<&'static Builtin> {
    if !course_engine::model::asm::is_assembly(&a.input, &a.input_text) {
        return None;
    }
    a.machine.as_deref().and_then(api::mca::llvm::model)
}

/// The tables of a processor model the run needs and the page has not
/// handed over yet ([`crate::register_table`]), and the model's name
/// (`None` when it needs none: the lab format, or all there).
pub(crate) fn missing_tables(a: &McaReq) -> Option<(&'static str, Vec<&'static str>)> {
    let model = llvm_model(a)?;
    let missing = model.missing_tables();
    (!missing.is_empty()).then_some((model.name, missing))
}

/// A run of `course mca`: its JSON and its text.
#[derive(Serialize)]
pub(crate) struct Mca {
    json: String,
    text: String,
}

/// Runs the kernel, as `course mca` does: assembly on a built-in processor
/// model as that model's llvm-mca runs it, the lab format on any machine.
pub(crate) fn mca(a: &McaReq) -> Result<Mca, String> {
    if let Some(model) = llvm_model(a) {
        return mca_llvm(a, model);
    }
    let m = machine(a.machine.as_deref(), a.machine_yaml.as_deref())?;
    let req = api::mca::Request {
        iterations: a.iterations,
        timeline_iterations: a.timeline_iterations,
        views: api::mca::Views {
            bottleneck: a.bottleneck,
            instruction_info: a.instruction_info,
            resource_pressure: a.resource_pressure,
            timeline: a.timeline,
        },
        skip_unsupported: false,
        memory: Default::default(),
    };
    let out = api::mca::run(&a.input_text, &a.input, &m, &req).map_err(|e| e.to_string())?;
    Ok(Mca {
        json: pretty(&out),
        text: view::mca::text(&out),
    })
}
