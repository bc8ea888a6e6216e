//! The llvm-mca commands of Lesson 23.1 §7, with `llvm-mca` replaced by
//! `course mca`, on the lesson's own assembly
//! (`labs/ch23-sched/inputs/mca/*.s`, the boxes' text verbatim): each prints
//! its box's numbers and timeline. The shell filters of the boxes (`sed -n
//! '/A/,/B/p'`, `grep -E`) are applied here, and tabs are shown at 4-column
//! stops, as the lesson shows them. Every command's whole output must also
//! be byte-equal to llvm-mca-22's: it prints every figure of the lesson's
//! §7. Without llvm-mca-22 ([`crate::common::tool`]; `.ci/run` installs it)
//! each test says one SKIP line and checks the boxes alone, except under
//! CI (`CI=true`), where it fails.

use std::path::Path;

use crate::common::{self, Course};

/// The lesson's boxes show llvm-mca's tab after each mnemonic as spaces up
/// to the next multiple of 4 columns.
fn tabs4(text: &str) -> String {
    text.lines()
        .map(|l| course::api::mca::expand_tabs(l) + "\n")
        .collect()
}

/// The same command run by llvm-mca-22 (`None` where the test's
/// [`common::tool`] call found none) must print the same bytes.
fn same_as_llvm_mca_22(llvm: Option<&Path>, args: &[&str], ours: &str) {
    let Some(bin) = llvm else {
        return;
    };
    let o = std::process::Command::new(bin)
        .args(args)
        .current_dir(common::root().join(DIR))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{} {args:?}: {}",
        bin.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        ours,
        String::from_utf8_lossy(&o.stdout),
        "course mca {args:?} differs from llvm-mca-22"
    );
}

const DIR: &str = "labs/ch23-sched/inputs/mca";

/// `course mca ARGS FILE` from the lab's mca folder.
fn mca(args: &[&str]) -> String {
    Course::new(["mca"])
        .args(args)
        .current_dir(common::root().join(DIR))
        .run()
        .stdout
}

/// `sed -n '/^START/,/END$/p'` (an empty END: `/^$/`).
fn between(text: &str, start: &str, end: &str) -> String {
    let mut out = String::new();
    let mut on = false;
    for l in text.lines() {
        if !on && l.starts_with(start) {
            on = true;
        }
        if on {
            out.push_str(l);
            out.push('\n');
            let last = if end.is_empty() {
                l.is_empty()
            } else {
                l.ends_with(end)
            };
            if last && !l.starts_with(start) {
                break;
            }
        }
    }
    out
}

/// `grep -E 'A|B|…'`.
fn grep(text: &str, keys: &[&str]) -> String {
    text.lines()
        .filter(|l| keys.iter().any(|k| l.contains(k)))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn the_divide_box() {
    let llvm = common::tool("mca_lesson::the_divide_box", common::LLVM_MCA_22);
    let x86 = "-mtriple=x86_64-unknown-linux-gnu";
    let args = [
        x86,
        "-mcpu=skylake",
        "-iterations=1",
        "-timeline",
        "-instruction-info=false",
        "-resource-pressure=false",
        "div.s",
    ];
    let out = mca(&args);
    same_as_llvm_mca_22(llvm.as_deref(), &args, &out);
    assert_eq!(
        tabs4(&between(&out, "Timeline view", "ymm5")),
        "\
Timeline view:
                    0123456789     
Index     0123456789          01234

[0,0]     DeeeeeeeeeeeeeeER   .   .   vdivpd    %ymm0, %ymm1, %ymm2
[0,1]     D========eeeeeeeeeeeeeeER   vdivpd    %ymm0, %ymm1, %ymm3
[0,2]     DeeeeE------------------R   vmulpd    %ymm0, %ymm1, %ymm4
[0,3]     D=eeeeE-----------------R   vmulpd    %ymm0, %ymm1, %ymm5
"
    );
    let keys = ["Total Cycles", "Block RThroughput"];
    let sk = mca(&[x86, "-mcpu=skylake", "-iterations=100", "div.s"]);
    same_as_llvm_mca_22(
        llvm.as_deref(),
        &[x86, "-mcpu=skylake", "-iterations=100", "div.s"],
        &sk,
    );
    assert_eq!(
        grep(&sk, &keys),
        "Total Cycles:      1609\nBlock RThroughput: 16.0\n"
    );
    let zn = mca(&[x86, "-mcpu=znver4", "-iterations=100", "div.s"]);
    same_as_llvm_mca_22(
        llvm.as_deref(),
        &[x86, "-mcpu=znver4", "-iterations=100", "div.s"],
        &zn,
    );
    assert_eq!(
        grep(&zn, &keys),
        "Total Cycles:      1011\nBlock RThroughput: 10.0\n"
    );
}

#[test]
fn the_model_box() {
    let llvm = common::tool("mca_lesson::the_model_box", common::LLVM_MCA_22);
    let args = [
        "-mtriple=x86_64-unknown-linux-gnu",
        "-mcpu=skylake",
        "--instruction-tables=full",
        "model.s",
    ];
    let out = mca(&args);
    same_as_llvm_mca_22(llvm.as_deref(), &args, &out);
    let rows = tabs4(&between(&out, "[1]    [2]", ""));
    let lines: Vec<&str> = rows.lines().collect();
    assert!(lines.len() >= 4, "{out}");
    // Latency, reciprocal throughput, the load flag and the resources with
    // their ReleaseAtCycles, as the box gives them.
    let cols = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let imul = cols(lines[1]);
    assert_eq!(&imul[..3], ["1", "3", "1.00"], "{}", lines[1]);
    assert!(
        lines[1]
            .contains("SKLPort1,SKLPort01,SKLPort15,SKLPort16,SKLPort015,SKLPort0156,SKLPortAny")
    );
    assert!(lines[1].contains("imulq    %rsi, %rdi"), "{}", lines[1]);
    let div = cols(lines[2]);
    assert_eq!(&div[..3], ["1", "14", "8.00"], "{}", lines[2]);
    assert!(
        lines[2].contains("SKLFPDivider[8],SKLPort0,"),
        "{}",
        lines[2]
    );
    let load = cols(lines[3]);
    assert_eq!(&load[..4], ["1", "5", "0.50", "*"], "{}", lines[3]);
    assert!(
        lines[3].contains("SKLPort23,SKLPort237,SKLPortAny"),
        "{}",
        lines[3]
    );
}

#[test]
fn the_dot_product_box_on_four_models() {
    let llvm = common::tool(
        "mca_lesson::the_dot_product_box_on_four_models",
        common::LLVM_MCA_22,
    );
    let keys = ["Total Cycles", "IPC", "Block RThroughput"];
    let expect = [
        ("x86_64", "skylake", "dot-x86.s", "410", "1.22", "1.0"),
        ("x86_64", "znver4", "dot-x86.s", "411", "1.22", "1.0"),
        ("aarch64", "neoverse-v2", "dot-a64.s", "211", "2.84", "1.0"),
        ("aarch64", "apple-m1", "dot-a64.s", "513", "1.17", "2.0"),
    ];
    for (arch, cpu, file, cycles, ipc, rthr) in expect {
        let (triple, mcpu) = (
            format!("-mtriple={arch}-unknown-linux-gnu"),
            format!("-mcpu={cpu}"),
        );
        let args = [triple.as_str(), mcpu.as_str(), "-iterations=100", file];
        let out = mca(&args);
        same_as_llvm_mca_22(llvm.as_deref(), &args, &out);
        assert_eq!(
            grep(&out, &keys),
            format!(
                "Total Cycles:      {cycles}\nIPC:               {ipc}\nBlock RThroughput: {rthr}\n"
            ),
            "{cpu}"
        );
    }
}

#[test]
fn assembly_problems_are_located_and_unsupported_instructions_can_be_skipped() {
    let dir = common::tempdir();
    let f = dir.path().join("k.s");
    let path = f.to_str().unwrap();
    // An operand no form of the instruction takes: its line and column.
    std::fs::write(
        &f,
        ".Lloop:\n  vaddps %ymm0, %rax, %ymm2\n  addq $1, %rax\n",
    )
    .unwrap();
    Course::new(["mca", path, "-mcpu=skylake"])
        .code(2)
        .stderr_has(
            "k.s:2:3: 'vaddps' with these operands is not an instruction the skylake model knows",
        )
        .run();
    // An instruction of another processor: AVX-512 on Skylake (client),
    // which LLVM's skylake model has no scheduling information for.
    std::fs::write(&f, "vaddps %zmm0, %zmm1, %zmm2\naddq $1, %rax\n").unwrap();
    Course::new(["mca", path, "-mcpu=skylake"])
        .code(2)
        .stderr_has("k.s:1:1: VADDPSZrr: found an unsupported instruction")
        .run();
    let o = Course::new(["mca", path, "-mcpu=znver4", "-iterations=100"]).run();
    assert!(o.stdout.contains("Instructions:      200"), "{}", o.stdout);
    // A region marker and a comment line between the instructions.
    std::fs::write(
        &f,
        "# LLVM-MCA-BEGIN body\n// x\n# %bb.4:\n\taddq\t$1, %rax\n# LLVM-MCA-END\n",
    )
    .unwrap();
    let o = Course::new(["mca", path, "-mcpu=skylake"]).run();
    assert!(
        o.stdout.starts_with("\n[0] Code Region - body\n"),
        "{}",
        o.stdout
    );
    // Assembly on a lab machine says where assembly runs.
    std::fs::write(&f, "addq $1, %rax\n").unwrap();
    Course::new(["mca", path, "--machine", "toy"])
        .code(2)
        .stderr_has("assembly runs on a built-in processor model")
        .run();
    Course::new(["mca", path, "-mtriple=aarch64", "-mcpu=skylake"])
        .code(2)
        .stderr_has("-mtriple=aarch64")
        .run();
    // -mcpu=help lists the models and succeeds.
    let o = Course::new(["mca", "-mcpu=help"]).run();
    assert!(
        o.stdout.contains("cortex-a57") && o.stdout.contains("llvm-mca-22 -mcpu=znver4"),
        "{}",
        o.stdout
    );
}

#[test]
fn the_bottleneck_of_the_boxes_is_the_lessons() {
    let out = mca(&["-mcpu=skylake", "--bottleneck", "--format", "json", "div.s"]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let b = &j["bottleneck"];
    assert_eq!(b["binding"], "resource", "{b}");
    assert_eq!(b["resource"], "SKLFPDivider", "{b}");
    assert_eq!(b["bound"], "16", "{b}");
    assert_eq!(b["instructions"].as_array().unwrap().len(), 2, "{b}");
    // The advice for a recurrence through an address update is pinned by
    // mca_asm::bottleneck_advice_fits_the_recurrence_it_names.
    let out = mca(&["-mcpu=skylake", "-bottleneck-analysis", "dot-x86.s"]);
    assert!(
        out.contains("Binding: the recurrence at 4; the simulation is 0.0 % above it."),
        "{out}"
    );
    assert!(
        out.contains("vfmadd231pd (%rsi,%rax), %ymm1, %ymm0  (ℓ = 4, d = 1)"),
        "{out}"
    );
    assert!(out.contains("with 2 it would be 2.0"), "{out}");
}
