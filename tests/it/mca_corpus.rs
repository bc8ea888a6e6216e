//! The differential corpus: `course mca` against LLVM 14's llvm-mca on the
//! small kernels of `crates/course-engine/tests/data/mca-corpus/`, cycle for cycle.
//!
//! This is the corpus of the lab-format simulator (Algorithm 23.1.11 on a
//! lab machine); assembly on the built-in processor models is checked
//! against the llvm-mca they name by `mca_real.rs`. Each kernel is an
//! assembly file for llvm-mca (`NAME.s`) and the same instructions in the
//! lab format (`NAME.txt`, each line naming its assembly text after `# asm:`),
//! under the folder of the model it runs on, with a lab machine of LLVM
//! 14's numbers beside them (`skylake-llvm14.yaml`, `apple-m1-llvm14.yaml`,
//! `cortex-a57.yaml`). For
//! every kernel, Total Cycles, IPC and Block RThroughput at 100 iterations
//! and the whole timeline of 3 iterations must be equal; at least one
//! timeline (`div-chain-long`) passes llvm-mca's 80-cycle cap.
//!
//! The tests need `llvm-mca-14` (Debian's `llvm-14`; `COURSE_LLVM_MCA_14`
//! may name another binary of LLVM 14), found by [`common::tool`]: without
//! it each says one SKIP line on stderr and passes, except under CI
//! (`CI=true`, [`common::under_ci`]), where it fails; `.ci/run` installs it.

use std::path::{Path, PathBuf};
use std::process::Command;

use course::api::mca::{self, Request, Views, expand_tabs};
use course::view::mca::render_timeline;
use course_engine::model::machine::Machine;

use crate::common;

/// The models of the corpus: folder, triple, `-mcpu`.
const MODELS: &[(&str, &str, &str)] = &[
    ("skylake-llvm14", "x86_64-unknown-linux-gnu", "skylake"),
    ("apple-m1", "aarch64-unknown-linux-gnu", "apple-m1"),
    ("cortex-a57", "aarch64-unknown-linux-gnu", "cortex-a57"),
];

/// The kernels of a model's folder with extension `ext`, sorted.
fn kernel_files(root: &Path, model: &str, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(model))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// The corpus's machine of a model folder: a lab machine with LLVM 14's
/// numbers, kept beside the kernels (the built-in machines of the same
/// names come from other LLVM releases).
fn machine(root: &Path, model: &str) -> Machine {
    let file = match model {
        "apple-m1" => "apple-m1-llvm14.yaml".to_string(),
        m => format!("{m}.yaml"),
    };
    let path = root.join(file);
    Machine::from_yaml(&std::fs::read_to_string(&path).unwrap(), model).unwrap()
}

fn llvm(bin: &Path, triple: &str, cpu: &str, asm: &Path, extra: &[&str]) -> String {
    let out = Command::new(bin)
        .arg(format!("-mtriple={triple}"))
        .arg(format!("-mcpu={cpu}"))
        .args(extra)
        .arg(asm)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub(crate) fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .map(str::trim)
        .unwrap_or("")
}

/// llvm-mca's timeline section, tabs expanded as ours are.
fn llvm_timeline(text: &str) -> String {
    let start = text.find("Timeline view:").unwrap_or(text.len());
    let mut out = String::new();
    let mut blank = 0;
    for l in text[start..].lines() {
        if l.is_empty() {
            blank += 1;
            if blank == 2 {
                break;
            }
        }
        out.push_str(&expand_tabs(l));
        out.push('\n');
    }
    out
}

#[test]
fn course_mca_agrees_with_llvm_mca_14() {
    let Some(bin) = common::tool(
        "mca_corpus::course_mca_agrees_with_llvm_mca_14",
        common::LLVM_MCA_14,
    ) else {
        return;
    };
    let root = common::root().join("crates/course-engine/tests/data/mca-corpus");
    let mut kernels = 0;
    let mut truncated = 0;
    let mut failures = Vec::new();
    for &(model, triple, cpu) in MODELS {
        let m = machine(&root, model);
        let files = kernel_files(&root, model, "txt");
        for txt in files {
            kernels += 1;
            let asm = txt.with_extension("s");
            let text = std::fs::read_to_string(&txt).unwrap();
            let name = format!("{model}/{}", txt.file_stem().unwrap().to_string_lossy());
            // The summary at 100 iterations.
            let theirs = llvm(&bin, triple, cpu, &asm, &["-iterations=100"]);
            let req = |n, timeline| Request {
                iterations: n,
                timeline_iterations: n,
                views: Views {
                    timeline,
                    ..Views::default()
                },
                skip_unsupported: false,
                memory: Default::default(),
            };
            let ours = mca::run(&text, &name, &m, &req(100, false)).unwrap();
            let ours_text = course::view::mca::text(&ours);
            for key in ["Total Cycles:", "IPC:", "Block RThroughput:"] {
                if field(&theirs, key) != field(&ours_text, key) {
                    failures.push(format!(
                        "{name}: {key} llvm-mca {} course {}",
                        field(&theirs, key),
                        field(&ours_text, key)
                    ));
                }
            }
            // The timeline of 3 iterations.
            let theirs = llvm(
                &bin,
                triple,
                cpu,
                &asm,
                &["-iterations=3", "-timeline", "-timeline-max-iterations=3"],
            );
            let ours = mca::run(&text, &name, &m, &req(3, true)).unwrap();
            let ours_tl = render_timeline(&ours.texts, &ours.report);
            let theirs_tl = llvm_timeline(&theirs);
            if ours_tl.contains("Truncated display due to cycle limit") {
                truncated += 1;
            }
            if theirs_tl.trim_end() != ours_tl.trim_end() {
                failures.push(format!(
                    "{name}: timelines differ\n--- llvm-mca\n{theirs_tl}--- course\n{ours_tl}"
                ));
            }
        }
    }
    assert!(kernels >= 30, "only {kernels} kernels");
    // At least one timeline runs past -timeline-max-cycles (80), where the
    // grid's width follows llvm-mca's last-event rule.
    assert!(truncated >= 1, "no kernel's timeline passes 80 cycles");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    common::note(format!(
        "mca_corpus: {kernels} kernels agree with {} (summary at 100 iterations, timelines at 3)",
        bin.display()
    ));
}

/// llvm-mca's `-noalias=false` (every load waits for the youngest older
/// store) against `course mca --noalias false`, on every corpus kernel:
/// Total Cycles and IPC at 100 iterations.
#[test]
fn the_conservative_memory_order_agrees_with_llvm_mca_14() {
    let Some(bin) = common::tool(
        "mca_corpus::the_conservative_memory_order_agrees_with_llvm_mca_14",
        common::LLVM_MCA_14,
    ) else {
        return;
    };
    let root = common::root().join("crates/course-engine/tests/data/mca-corpus");
    let mut failures = Vec::new();
    let mut kernels = 0;
    for &(model, triple, cpu) in MODELS {
        let m = machine(&root, model);
        let files = kernel_files(&root, model, "s");
        for asm in files {
            kernels += 1;
            let name = format!("{model}/{}", asm.file_name().unwrap().to_string_lossy());
            let theirs = llvm(
                &bin,
                triple,
                cpu,
                &asm,
                &["-iterations=100", "-noalias=false"],
            );
            let req = Request {
                iterations: 100,
                timeline_iterations: 0,
                views: Views::default(),
                skip_unsupported: false,
                memory: course_engine::engine::mca::MemoryOrder::Conservative,
            };
            let lab = asm.with_extension("txt");
            let s = std::fs::read_to_string(&lab).unwrap();
            let lab_name = format!("{model}/{}", lab.file_name().unwrap().to_string_lossy());
            let ours = course::view::mca::text(&mca::run(&s, &lab_name, &m, &req).unwrap());
            for key in ["Total Cycles:", "IPC:"] {
                if field(&theirs, key) != field(&ours, key) {
                    failures.push(format!(
                        "{name}: {key} llvm-mca {} course {}",
                        field(&theirs, key),
                        field(&ours, key)
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {kernels}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
