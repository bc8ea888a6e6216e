//! `cargo run -p course-engine --example mca_resolve -- FORMS MODEL MODEL_INDEX FILE.s KERNEL.jsonl [LLVM]`:
//! resolves every instruction of FILE.s with the generated tables and
//! compares each with what LLVM made of it (`dump kernel`, one JSON line per
//! instruction): descriptor numbers, registers written and read, flags, and
//! the printed text. Prints one line per difference and a summary; for
//! `scripts/mca-models/` checks, not part of the library.

use course_engine::model::asm::{self, Dialect};
use course_engine::model::mc::build::Builder;
use course_engine::model::mc::resolve::{Names, resolve};
use course_engine::model::mc::tables::{Forms, Model};

#[allow(clippy::too_many_lines)] // one linear pass: read, resolve, compare, count
fn main() -> std::process::ExitCode {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 6 {
        eprintln!("usage: mca_resolve FORMS MODEL MODEL_INDEX FILE.s KERNEL.jsonl");
        return std::process::ExitCode::from(2);
    }
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let llvm: u32 = a.get(6).and_then(|v| v.parse().ok()).unwrap_or(22);
    let forms = match Forms::parse(&read(&a[1]), &a[1], llvm) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    let model = match Model::parse(&read(&a[2]), &a[2], &forms) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    let index: usize = a[3].parse().unwrap_or(0);
    let text = read(&a[4]);
    let dialect = if forms.arch == "x86" {
        Dialect::X86
    } else {
        Dialect::AArch64
    };
    let listing = match asm::read(&text, &a[4], dialect) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    let truth: std::collections::HashMap<u64, serde_json::Value> = read(&a[5])
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| Some((v["line"].as_u64()?, v)))
        .collect();
    let names = Names::new(&forms);
    let (mut ok, mut bad, mut refused) = (0, 0, 0);
    let mut builder = Builder::new(&forms, &model);
    for inst in listing.regions.iter().flat_map(|r| &r.instructions) {
        let Some(t) = truth.get(&u64::from(inst.line)) else {
            continue;
        };
        // The model's own record (a dump of one processor has one).
        let cpu = t["cpus"]
            .as_object()
            .and_then(|o| {
                if o.len() == 1 {
                    o.values().next()
                } else {
                    forms.models.get(index).and_then(|m| o.get(m))
                }
            })
            .cloned()
            .unwrap_or_default();
        match resolve(inst, dialect, &forms, &names, index, &model) {
            Err(e) => {
                refused += 1;
                println!("{}: REFUSED {}: {e}", inst.line, inst.source);
            }
            Ok(res) => {
                let mut diffs = Vec::new();
                let Some(instr) = builder.instr(&res) else {
                    println!("{}: INCONSISTENT {}", inst.line, inst.source);
                    continue;
                };
                let d = &model.processor.descs[model.outcomes[res.outcome as usize].desc as usize];
                let ti = &cpu["inst"];
                if Some(u64::from(d.uops)) != ti["uops"].as_u64() {
                    diffs.push(format!("uops {} vs {}", d.uops, ti["uops"]));
                }
                if Some(u64::from(d.max_latency)) != ti["maxlat"].as_u64() {
                    diffs.push(format!("latency {} vs {}", d.max_latency, ti["maxlat"]));
                }
                let name = |id: u16| forms.registers.names[id as usize].clone();
                let defs: Vec<String> = instr
                    .defs
                    .iter()
                    .map(|x| {
                        format!(
                            "{}{}{}",
                            name(x.register),
                            if x.clears_super { "+c" } else { "" },
                            if x.writes_zero { "+z" } else { "" }
                        )
                    })
                    .collect();
                let tdefs: Vec<String> = ti["defs"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| {
                        format!(
                            "{}{}{}",
                            x[0].as_str().unwrap_or(""),
                            if x[1] == 1 { "+c" } else { "" },
                            if x[2] == 1 { "+z" } else { "" }
                        )
                    })
                    .collect();
                if defs != tdefs {
                    diffs.push(format!("defs {defs:?} vs {tdefs:?}"));
                }
                let uses: Vec<String> = instr
                    .uses
                    .iter()
                    .map(|x| {
                        format!(
                            "{}{}",
                            name(x.register),
                            if x.independent { "+i" } else { "" }
                        )
                    })
                    .collect();
                let tuses: Vec<String> = ti["uses"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| {
                        format!(
                            "{}{}",
                            x[0].as_str().unwrap_or(""),
                            if x[3] == 1 { "+i" } else { "" }
                        )
                    })
                    .collect();
                if uses != tuses {
                    diffs.push(format!("uses {uses:?} vs {tuses:?}"));
                }
                let printed = cpu["print"].as_str().unwrap_or("").trim().to_string();
                if res.text != printed {
                    diffs.push(format!("text {:?} vs {printed:?}", res.text));
                }
                if diffs.is_empty() {
                    ok += 1;
                } else {
                    bad += 1;
                    println!("{}: {}: {}", inst.line, inst.source, diffs.join("; "));
                }
            }
        }
    }
    println!("summary: {ok} equal, {bad} different, {refused} refused");
    std::process::ExitCode::SUCCESS
}
