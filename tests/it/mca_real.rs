//! The real-code corpus (`tests/data/mca-real/`): `course mca` against the
//! llvm-mca each built-in model names (llvm-mca-22 for `skylake`, `znver4`,
//! `neoverse-v2`, `apple-m1`; llvm-mca-14 for `skylake-llvm14`,
//! `cortex-a57`), on loops and straight-line blocks of compiled real code
//! that the models' tables were not generated from.
//!
//! For each model, the regions its llvm-mca accepts (`index.tsv`) run in
//! one file through both tools with `-iterations=100 -timeline
//! -timeline-max-iterations=3`; each region's whole report (summary, IPC,
//! Block RThroughput, µops, instruction info, resource pressure, the
//! timeline with its tabs and the wait times) must be byte-equal. At least
//! 99 % of the regions must be accepted and 99 % of the accepted equal; the
//! others are listed in `exceptions.tsv` with their reason, and the list
//! must stay true (no region listed that now passes, none failing that is
//! not listed).
//!
//! Needs `llvm-mca-22` and `llvm-mca-14` (Debian's llvm-22 and llvm-14;
//! `.ci/run` installs them), found by [`common::tools`]. Without them the
//! test says one SKIP line naming them, except under CI (`CI=true`,
//! [`common::under_ci`]), where it fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use course::api::mca::llvm;
use course_content::mca_models;

use crate::common::{self, LLVM_MCA_14, LLVM_MCA_22, Tool};

/// Every built-in model: name, corpus folder, triple, its llvm-mca.
const MODELS: &[(&str, &str, &str, Tool)] = &[
    ("skylake", "x86-64", "x86_64-unknown-linux-gnu", LLVM_MCA_22),
    ("znver4", "x86-64", "x86_64-unknown-linux-gnu", LLVM_MCA_22),
    (
        "skylake-llvm14",
        "x86-64",
        "x86_64-unknown-linux-gnu",
        LLVM_MCA_14,
    ),
    (
        "neoverse-v2",
        "aarch64",
        "aarch64-unknown-linux-gnu",
        LLVM_MCA_22,
    ),
    (
        "apple-m1",
        "aarch64",
        "aarch64-unknown-linux-gnu",
        LLVM_MCA_22,
    ),
    (
        "cortex-a57",
        "aarch64",
        "aarch64-unknown-linux-gnu",
        LLVM_MCA_14,
    ),
];

const FLAGS: [&str; 3] = ["-iterations=100", "-timeline", "-timeline-max-iterations=3"];

/// The regions of a corpus file, by id, each with its markers.
fn regions(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in text.split_inclusive('\n') {
        let t = line
            .trim_start()
            .trim_start_matches(['#', '/'])
            .trim_start();
        if let Some(name) = t.strip_prefix("LLVM-MCA-BEGIN") {
            cur = Some((name.trim().to_string(), line.to_string()));
            continue;
        }
        if let Some((_, body)) = cur.as_mut() {
            body.push_str(line);
            if t.starts_with("LLVM-MCA-END")
                && let Some(done) = cur.take()
            {
                out.push(done);
            }
        }
    }
    out
}

/// Which models accept each region (`index.tsv`).
fn accepted(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((
                f.first()?.to_string(),
                f.get(4)?.split(',').map(str::to_string).collect(),
            ))
        })
        .collect()
}

/// A whole-file report cut into regions (`[k] Code Region - NAME`).
fn by_region(report: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut cur: Option<(String, String)> = None;
    for line in report.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix('[')
            && let Some((_, name)) = rest.split_once("] Code Region - ")
        {
            if let Some((n, b)) = cur.take() {
                out.insert(n, b);
            }
            cur = Some((name.trim().to_string(), String::new()));
            continue;
        }
        if let Some((_, b)) = cur.as_mut() {
            b.push_str(line);
        }
    }
    if let Some((n, b)) = cur {
        out.insert(n, b);
    }
    // The blank line before the next header belongs to neither.
    for b in out.values_mut() {
        while b.ends_with("\n\n") {
            b.pop();
        }
    }
    out
}

/// One model on one set: (regions, accepted, equal, failures by id).
struct Run {
    total: usize,
    accepted: usize,
    equal: usize,
    failures: BTreeMap<String, String>,
}

fn run_model(model: &str, folder: &str, triple: &str, bin: &Path, set: &str) -> Run {
    let root = common::root().join("tests/data/mca-real").join(folder);
    let text = std::fs::read_to_string(root.join(format!("{set}.s"))).unwrap();
    let index = accepted(&std::fs::read_to_string(root.join("index.tsv")).unwrap());
    let mine: Vec<(String, String)> = regions(&text)
        .into_iter()
        .filter(|(id, _)| index.get(id).is_some_and(|m| m.contains(model)))
        .map(|(id, body)| (id, body.replace("// LLVM-MCA", "# LLVM-MCA")))
        .collect();
    let builtin = mca_models::find(model).unwrap();
    let loaded = builtin.load().unwrap();
    let mut failures = BTreeMap::new();
    let req = llvm::Request {
        options: course_engine::engine::mca::pipeline::Options {
            timeline_iterations: 3,
            ..Default::default()
        },
        views: course_engine::engine::mca::pipeline::views::ViewSet {
            timeline: true,
            ..Default::default()
        },
        ..Default::default()
    };
    // Regions course refuses are reasons of their own.
    let mut kept = Vec::new();
    for (id, body) in &mine {
        match llvm::run_loaded(body, id, builtin, &loaded, &req) {
            Ok(_) => kept.push((id.clone(), body.clone())),
            Err(e) => {
                failures.insert(
                    id.clone(),
                    format!("refused: {}", e.to_string().lines().next().unwrap_or("")),
                );
            }
        }
    }
    let file: String = kept.iter().map(|(_, b)| b.as_str()).collect();
    let dir = common::tempdir();
    let path = dir.path().join("k.s");
    std::fs::write(&path, &file).unwrap();
    let theirs = llvm_mca(bin, triple, model, &path);
    let ours = llvm::run_loaded(&file, "k.s", builtin, &loaded, &req)
        .map(|o| course::view::mca::llvm_text(&o))
        .unwrap_or_default();
    let (theirs, ours) = (by_region(&theirs), by_region(&ours));
    let mut equal = 0;
    for (id, _) in &kept {
        if theirs.get(id) == ours.get(id) {
            equal += 1;
        } else {
            failures.insert(id.clone(), first_difference(ours.get(id), theirs.get(id)));
        }
    }
    Run {
        total: mine.len(),
        accepted: kept.len(),
        equal,
        failures,
    }
}

fn llvm_mca(bin: &Path, triple: &str, model: &str, path: &Path) -> String {
    let cpu = mca_models::find(model).unwrap().cpu;
    let out = Command::new(bin)
        .arg(format!("-mtriple={triple}"))
        .arg(format!("-mcpu={cpu}"))
        .args(FLAGS)
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        bin.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn first_difference(ours: Option<&String>, theirs: Option<&String>) -> String {
    let (a, b) = (
        ours.map_or("", String::as_str),
        theirs.map_or("", String::as_str),
    );
    for (k, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: course {x:?}, llvm-mca {y:?}", k + 1);
        }
    }
    format!(
        "lengths differ: course {} lines, llvm-mca {} lines",
        a.lines().count(),
        b.lines().count()
    )
}

/// The listed exceptions: `model<TAB>region<TAB>reason`.
fn exceptions() -> BTreeSet<(String, String)> {
    let path = common::root().join("tests/data/mca-real/exceptions.tsv");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?.to_string(), f.next()?.to_string()))
        })
        .collect()
}

#[test]
fn course_mca_equals_the_llvm_mca_each_model_names_on_real_code() {
    let tools = [LLVM_MCA_22, LLVM_MCA_14];
    let Some(bins) = common::tools(
        "mca_real::course_mca_equals_the_llvm_mca_each_model_names_on_real_code",
        &tools,
    ) else {
        return;
    };
    let bins: BTreeMap<&str, PathBuf> = tools.iter().map(|t| t.name).zip(bins).collect();
    let listed = exceptions();
    let mut found = BTreeSet::new();
    let mut report = Vec::new();
    let mut short = Vec::new();
    for &(model, folder, triple, tool) in MODELS {
        for set in ["loops", "blocks"] {
            let r = run_model(model, folder, triple, &bins[tool.name], set);
            let acc = r.accepted as f64 / r.total.max(1) as f64;
            let eq = r.equal as f64 / r.accepted.max(1) as f64;
            report.push(format!(
                "{model} {set}: {} regions, {} accepted ({:.1} %), {} equal ({:.1} %)",
                r.total,
                r.accepted,
                100.0 * acc,
                r.equal,
                100.0 * eq
            ));
            if r.total < 500 || acc < 0.99 || eq < 0.99 {
                short.push(report.last().cloned().unwrap_or_default());
            }
            for (id, why) in r.failures {
                if !listed.contains(&(model.to_string(), id.clone())) {
                    short.push(format!("{model} {id}: not in exceptions.tsv: {why}"));
                }
                found.insert((model.to_string(), id));
            }
        }
    }
    for (model, id) in listed.difference(&found) {
        short.push(format!(
            "{model} {id}: listed in exceptions.tsv but now passes"
        ));
    }
    common::note(format!("mca_real:\n  {}", report.join("\n  ")));
    assert!(short.is_empty(), "{}", short.join("\n"));
}
