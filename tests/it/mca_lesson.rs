//! The llvm-mca commands of Lesson 23.1 §7, with `llvm-mca` replaced by
//! `course mca`, on the lesson's own assembly
//! (`labs/ch23-sched/inputs/mca/*.s`, the boxes' text verbatim): each prints
//! its box's numbers and timeline. The shell filters of the boxes (`sed -n
//! '/A/,/B/p'`, `grep -E`) are applied here.

use crate::common::Course;

const DIR: &str = "labs/ch23-sched/inputs/mca";

/// `course mca ARGS FILE` from the lab's mca folder.
fn mca(args: &[&str]) -> String {
    Course::new(["mca"])
        .args(args)
        .current_dir(crate::common::root().join(DIR))
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
    let x86 = "-mtriple=x86_64-unknown-linux-gnu";
    let out = mca(&[
        x86,
        "-mcpu=skylake",
        "-iterations=1",
        "-timeline",
        "-instruction-info=false",
        "-resource-pressure=false",
        "div.s",
    ]);
    assert_eq!(
        between(&out, "Timeline view", "ymm5"),
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
    assert_eq!(
        grep(&sk, &keys),
        "Total Cycles:      1609\nBlock RThroughput: 16.0\n"
    );
    let zn = mca(&[x86, "-mcpu=znver4", "-iterations=100", "div.s"]);
    assert_eq!(
        grep(&zn, &keys),
        "Total Cycles:      1011\nBlock RThroughput: 10.0\n"
    );
}

#[test]
fn the_model_box() {
    let out = mca(&[
        "-mtriple=x86_64-unknown-linux-gnu",
        "-mcpu=skylake",
        "--instruction-tables=full",
        "model.s",
    ]);
    let rows = between(&out, "[1]    [2]", "");
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
    let keys = ["Total Cycles", "IPC", "Block RThroughput"];
    let expect = [
        ("x86_64", "skylake", "dot-x86.s", "410", "1.22", "1.0"),
        ("x86_64", "znver4", "dot-x86.s", "411", "1.22", "1.0"),
        ("aarch64", "neoverse-v2", "dot-a64.s", "211", "2.84", "1.0"),
        ("aarch64", "apple-m1", "dot-a64.s", "513", "1.17", "2.0"),
    ];
    for (arch, cpu, file, cycles, ipc, rthr) in expect {
        let out = mca(&[
            &format!("-mtriple={arch}-unknown-linux-gnu"),
            &format!("-mcpu={cpu}"),
            "-iterations=100",
            file,
        ]);
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
fn assembly_problems_are_located_and_the_lab_form_is_shown() {
    let dir = crate::common::tempdir();
    let f = dir.path().join("k.s");
    std::fs::write(
        &f,
        ".Lloop:\n  vaddps %ymm0, %ymm1, %ymm2\n  addq $1, %rax\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    Course::new(["mca", path, "--machine", "skylake-llvm14"])
        .code(2)
        .stderr_has("k.s:2:3: vaddps: the model skylake-llvm14 has no class for this instruction")
        .run();
    let o = Course::new([
        "mca",
        path,
        "--machine",
        "skylake-llvm14",
        "-skip-unsupported-instructions",
    ])
    .stderr_has("(skipped)")
    .run();
    assert!(o.stdout.contains("Instructions:      100"), "{}", o.stdout);
    let lab = Course::new([
        "mca",
        path,
        "--machine",
        "skylake-llvm14",
        "--emit-lab",
        "--skip-unsupported",
    ])
    .run()
    .stdout;
    assert!(lab.starts_with("loop k\n"), "{lab}");
    assert!(
        lab.contains("a: rax = addq rax, 1   # asm: addq\t$1, %rax"),
        "{lab}"
    );
    // A register list with a lane is not modelled, and says so at its place.
    std::fs::write(&f, "add x1, x1, #1\nld1 { v0.s }[1], [x0]\n").unwrap();
    Course::new(["mca", path, "--machine", "apple-m1"])
        .code(2)
        .stderr_has("k.s:2:")
        .stderr_has("a register list ({ v0.s }[1]) is not modelled")
        .run();
    // A writeback address writes its base register too: its last
    // destination, which the next read of x0 reads.
    std::fs::write(&f, "ldr q0, [x0], #16\nldr q1, [x0]\n").unwrap();
    let lab = Course::new(["mca", path, "--machine", "apple-m1", "--emit-lab"])
        .run()
        .stdout;
    assert!(lab.contains("a: q0, x0 = ldr"), "{lab}");
    assert!(lab.contains("b: q1 = ldr.q [x0]"), "{lab}");
    Course::new(["mca", path, "-mtriple=riscv64", "--machine", "apple-m1"])
        .code(2)
        .stderr_has("-mtriple=riscv64")
        .run();
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
