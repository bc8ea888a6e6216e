//! The clang corpus: loops compiled by `clang-14 -O2` and `-O3` from the C
//! kernels of `tests/data/clang/src/`, run by `course mca` on the models
//! they were compiled for, against llvm-mca-14's answers recorded beside
//! them (`scripts/clang-corpus.sh`): Total Cycles, IPC and Block
//! RThroughput at 100 iterations and the timeline at 3 (Algorithm 23.1.11).
//!
//! The comparison needs no llvm-mca: the `.expect` files hold its output.
//! When `llvm-mca-14` is installed, the recordings themselves are checked
//! against it; outside CI its absence is a visible SKIP of that part only.
//! Loops listed in `tests/data/clang/README.md` under "Left out" are not
//! yet exact; they are run and counted, not required.

use std::path::{Path, PathBuf};
use std::process::Command;

use course::api::mca::{self, Request, Views, expand_tabs};
use course::content::data::builtin_machine;
use course::model::machine::Machine;
use course::view::mca::render_timeline;

use crate::common;
use crate::mca_corpus::{field, llvm_mca_14};

/// Folder (and model), llvm-mca triple and `-mcpu`.
const MODELS: &[(&str, &str, &str)] = &[
    ("skylake-llvm14", "x86_64-unknown-linux-gnu", "skylake"),
    ("apple-m1", "aarch64-unknown-linux-gnu", "apple-m1"),
    ("cortex-a57", "aarch64-unknown-linux-gnu", "cortex-a57"),
];

fn machine(model: &str) -> Machine {
    match builtin_machine(model) {
        Some(text) => Machine::from_yaml(text, model).unwrap(),
        None => {
            let path = common::root().join(format!("tests/data/mca-corpus/{model}.yaml"));
            Machine::from_yaml(&std::fs::read_to_string(&path).unwrap(), model).unwrap()
        }
    }
}

fn loops(model: &str) -> Vec<PathBuf> {
    let dir = common::root().join("tests/data/clang").join(model);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    files.sort();
    files
}

/// `MODEL/NAME` of the loops the README leaves out, with the reasons.
fn left_out() -> Vec<String> {
    let readme =
        std::fs::read_to_string(common::root().join("tests/data/clang/README.md")).unwrap();
    let Some(start) = readme.find("## Left out") else {
        return Vec::new();
    };
    readme[start..]
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

/// The timeline section of an llvm-mca text, tabs expanded as ours are.
fn timeline_of(text: &str) -> String {
    let start = text.find("Timeline view:").unwrap_or(text.len());
    let mut out = String::new();
    for l in text[start..].lines() {
        out.push_str(&expand_tabs(l));
        out.push('\n');
    }
    out.trim_end().to_string()
}

fn request(n: u64, timeline: bool) -> Request {
    Request {
        iterations: n,
        timeline_iterations: n,
        views: Views {
            timeline,
            ..Views::default()
        },
        skip_unsupported: false,
        memory: Default::default(),
    }
}

/// Why `course mca` differs from the recording on `asm`, if it does.
fn differs(asm: &Path, name: &str, m: &Machine) -> Option<String> {
    let s = std::fs::read_to_string(asm).unwrap();
    let expect = std::fs::read_to_string(asm.with_extension("expect")).unwrap();
    let ours = match mca::run(&s, name, m, &request(100, false)) {
        Ok(o) => course::view::mca::text(&o),
        Err(e) => return Some(format!("{e}")),
    };
    let mut why = Vec::new();
    for key in ["Total Cycles:", "IPC:", "Block RThroughput:"] {
        if field(&expect, key) != field(&ours, key) {
            why.push(format!(
                "{key} llvm-mca {} course {}",
                field(&expect, key),
                field(&ours, key)
            ));
        }
    }
    let o = match mca::run(&s, name, m, &request(3, true)) {
        Ok(o) => o,
        Err(e) => return Some(format!("{e}")),
    };
    let ours_tl = render_timeline(&o.texts, &o.report);
    if timeline_of(&expect) != ours_tl.trim_end() {
        why.push("the timelines differ".into());
    }
    (!why.is_empty()).then(|| why.join("; "))
}

#[test]
fn the_clang_corpus_agrees_with_llvm_mca_14() {
    let out = left_out();
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for &(model, _, _) in MODELS {
        let m = machine(model);
        let (mut n, mut equal, mut kept, mut out_equal) = (0, 0, 0, 0);
        for asm in loops(model) {
            n += 1;
            let name = format!("{model}/{}", asm.file_stem().unwrap().to_string_lossy());
            let excluded = out.contains(&name);
            let d = differs(&asm, &name, &m);
            if d.is_none() {
                equal += 1;
            }
            if excluded {
                out_equal += usize::from(d.is_none());
                if d.is_none() {
                    failures.push(format!(
                        "{name} agrees with llvm-mca-14 now: take it off the README's \"Left out\" list"
                    ));
                }
            } else {
                kept += 1;
                if let Some(why) = d {
                    failures.push(format!("{name}: {why}"));
                }
            }
        }
        summary.push(format!(
            "{model}: {equal} of {n} loops equal ({kept} in the corpus, {} left out of which {out_equal} equal)",
            n - kept
        ));
    }
    common::note(format!("mca_clang: {}", summary.join("; ")));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each left-out loop names a file of the corpus.
#[test]
fn the_left_out_loops_exist() {
    for name in left_out() {
        let path = common::root().join(format!("tests/data/clang/{name}.s"));
        assert!(
            path.exists(),
            "README lists {name}, which is not in the corpus"
        );
    }
}

/// The recordings are llvm-mca-14's answers (checked where it is installed).
#[test]
fn the_recordings_are_llvm_mca_14s() {
    let Some(bin) = llvm_mca_14() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: llvm-mca-14 must be installed to check the clang corpus recordings"
        );
        common::note(
            "SKIP mca_clang recordings: no llvm-mca of LLVM 14 (the comparison with the recorded numbers ran)",
        );
        return;
    };
    let mut failures = Vec::new();
    for &(model, triple, cpu) in MODELS {
        for asm in loops(model) {
            let expect = std::fs::read_to_string(asm.with_extension("expect")).unwrap();
            let run = |extra: &[&str]| {
                let o = Command::new(&bin)
                    .arg(format!("-mtriple={triple}"))
                    .arg(format!("-mcpu={cpu}"))
                    .args(extra)
                    .arg(&asm)
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&o.stdout).into_owned()
            };
            let sum = run(&["-iterations=100"]);
            for key in ["Total Cycles:", "IPC:", "Block RThroughput:"] {
                if field(&sum, key) != field(&expect, key) {
                    failures.push(format!(
                        "{}: {key} recorded {} now {}",
                        asm.display(),
                        field(&expect, key),
                        field(&sum, key)
                    ));
                }
            }
            let tl = run(&["-iterations=3", "-timeline", "-timeline-max-iterations=3"]);
            let tl = tl.split("Average Wait times").next().unwrap_or("");
            if timeline_of(tl) != timeline_of(&expect) {
                failures.push(format!(
                    "{}: the recorded timeline is not llvm-mca's",
                    asm.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "rerun scripts/clang-corpus.sh:\n{}",
        failures.join("\n")
    );
}
