//! `cargo run -p course-engine --example asm_forms -- FILE.s x86|aarch64`:
//! every instruction of an assembly file as one JSON line (line, form
//! key, parts, each operand rendered as LLVM prints it), for
//! `scripts/mca-models/generate.py`, which matches them against what LLVM
//! makes of the same lines.

use std::io::Write;

use course_engine::model::asm::{self, Dialect, lines, operand::Part};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(arch)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: asm_forms FILE.s x86|aarch64");
        return std::process::ExitCode::from(2);
    };
    let dialect = if arch == "x86" {
        Dialect::X86
    } else {
        Dialect::AArch64
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("asm_forms: cannot read {path}");
        return std::process::ExitCode::from(2);
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for item in lines::scan(&text, dialect) {
        let lines::Item::Statement(s) = item else {
            continue;
        };
        let row = match asm::read(s.text, path, dialect) {
            Ok(l) => {
                let i = &l.regions[0].instructions[0];
                let parts: serde_json::Map<String, serde_json::Value> = i
                    .parts()
                    .into_iter()
                    .map(|(k, p)| {
                        let v = match p {
                            Part::Reg(r) => serde_json::json!({ "r": r }),
                            Part::Int(v) => serde_json::json!({ "i": v }),
                        };
                        (k, v)
                    })
                    .collect();
                serde_json::json!({
                    "line": s.line, "key": i.key, "mnemonic": i.mnemonic,
                    "parts": parts, "renders": i.renders(dialect), "source": s.text,
                })
            }
            Err(d) => {
                serde_json::json!({ "line": s.line, "error": d.0[0].message, "source": s.text })
            }
        };
        let _ = writeln!(out, "{row}");
    }
    std::process::ExitCode::SUCCESS
}
