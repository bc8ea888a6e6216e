//! `course mca` on a student's own assembly: what compilers write that an
//! earlier reader stumbled on, each a test of its own. (Exactness against
//! llvm-mca is `mca_real.rs`; the lesson's boxes are `mca_lesson.rs`.)

use crate::common::{Course, tempdir};

/// Writes `text` to a file and runs `course mca FILE ARGS…`.
fn run_on(text: &str, args: &[&str]) -> crate::common::Output {
    let dir = tempdir();
    let f = dir.path().join("k.s");
    std::fs::write(&f, text).unwrap();
    Course::new(["mca", f.to_str().unwrap()]).args(args).run()
}

#[test]
fn compiler_comment_lines_are_comments() {
    // clang writes `// %bb.4:` (AArch64) and `# %bb.4:` (x86) between the
    // instructions of a loop.
    let a = run_on(
        ".LBB0_2:\n\tldr\tq1, [x0, x8]\n// %bb.4:\n\tfadd\tv0.2d, v0.2d, v1.2d\n\tadd\tx8, x8, #16\n\tcmp\tx8, x9\n\tb.ne\t.LBB0_2\n",
        &["-mcpu=neoverse-v2"],
    );
    assert!(a.stdout.contains("Instructions:      500"), "{}", a.stdout);
    let x = run_on(
        ".LBB0_2:\n\tvaddpd\t(%rdi,%rax), %ymm0, %ymm0\n# %bb.4:                               #   in Loop: Header=BB0_2 Depth=1\n\taddq\t$32, %rax\n\tjne\t.LBB0_2\n",
        &["-mcpu=skylake"],
    );
    assert!(x.stdout.contains("Instructions:      300"), "{}", x.stdout);
}

#[test]
fn a_kernel_of_thousands_of_instructions_runs() {
    // More than 242 instructions (an earlier reader named them with lab
    // labels and the 243rd was the reserved `ii`): 3,000 here.
    let body: String = (0..3000)
        .map(|k| format!("\taddq\t${}, %r{}\n", k % 100, 8 + k % 8))
        .collect();
    let o = run_on(
        &body,
        &[
            "-mcpu=skylake",
            "-iterations=10",
            "-instruction-info=false",
            "-resource-pressure=false",
        ],
    );
    assert!(
        o.stdout.contains("Instructions:      30000"),
        "{}",
        o.stdout
    );
}

#[test]
fn the_views_print_llvm_mcas_tab() {
    let o = run_on(
        "vdivpd %ymm0, %ymm1, %ymm2\n",
        &["-mcpu=skylake", "-iterations=1", "-timeline"],
    );
    assert!(
        o.stdout
            .contains("DeeeeeeeeeeeeeeER   vdivpd\t%ymm0, %ymm1, %ymm2\n"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains(" 1      14    8.00                        vdivpd\t%ymm0, %ymm1, %ymm2\n"),
        "{}",
        o.stdout
    );
}

#[test]
fn a_billion_iterations_of_a_thousand_instructions_run() {
    // The steady state makes the run cheap; the count is not refused.
    let body: String = (0..1000)
        .map(|k| match k % 4 {
            0 => format!("\tvmulpd\t%ymm{}, %ymm1, %ymm{}\n", k % 16, (k + 1) % 16),
            1 => "\taddq\t$8, %rax\n".to_string(),
            2 => "\tmovq\t(%rdi,%rax), %rcx\n".to_string(),
            _ => "\timulq\t%rcx, %rdx\n".to_string(),
        })
        .collect();
    let o = run_on(
        &body,
        &[
            "-mcpu=skylake",
            "-iterations=1000000000",
            "-instruction-info=false",
            "-resource-pressure=false",
        ],
    );
    assert!(
        o.stdout
            .contains("Iterations:        1000000000\nInstructions:      1000000000000\n"),
        "{}",
        o.stdout
    );
}

#[test]
fn mcpu_help_lists_the_models() {
    let o = Course::new(["mca", "-mtriple=x86_64-unknown-linux-gnu", "-mcpu=help"]).run();
    for m in [
        "skylake",
        "znver4",
        "skylake-llvm14",
        "neoverse-v2",
        "apple-m1",
        "cortex-a57",
    ] {
        assert!(o.stdout.contains(&format!("  {m} ")), "{m}: {}", o.stdout);
    }
}

#[test]
fn regions_are_reported_as_llvm_mca_reports_them() {
    let o = run_on(
        "addq %rax, %rbx\n# LLVM-MCA-BEGIN first\nimulq %rax, %rbx\n# LLVM-MCA-END first\n# LLVM-MCA-BEGIN\nsubq %rax, %rbx\n# LLVM-MCA-END\n",
        &[
            "-mcpu=skylake",
            "-iterations=1",
            "-instruction-info=false",
            "-resource-pressure=false",
        ],
    );
    assert!(
        o.stdout
            .starts_with("\n[0] Code Region - first\n\nIterations:"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("\n[1] Code Region\n\nIterations:"),
        "{}",
        o.stdout
    );
}

#[test]
fn a_megabyte_of_assembly_reads_in_linear_time() {
    // Reading was quadratic in the file's length (1 MB: 17 s). A megabyte
    // of clang output, one region, printed as instruction tables (no
    // simulation): a hang guard only, the figure is in BENCHMARKS.md.
    let unit = "# %bb.0:\n1:                                      # =>This Inner Loop Header: Depth=1\n\tvmovsd\t(%rdi,%rax,8), %xmm1            # xmm1 = mem[0],zero\n\tvfmadd231sd\t(%rsi,%rax,8), %xmm1, %xmm0 # xmm0 = (xmm1 * mem) + xmm0\n\taddq\t$1, %rax\n\tcmpq\t%rax, %rdx\n\tjne\t1b\n";
    let text = unit.repeat((1 << 20) / unit.len() + 1);
    let o = {
        let dir = tempdir();
        let f = dir.path().join("big.s");
        std::fs::write(&f, &text).unwrap();
        Course::new([
            "mca",
            f.to_str().unwrap(),
            "-mcpu=skylake",
            "--instruction-tables",
        ])
        .timeout(120)
        .run()
    };
    let n = text.matches("\n\t").count();
    assert_eq!(
        o.stdout
            .matches("vfmadd231sd\t(%rsi,%rax,8), %xmm1, %xmm0")
            .count(),
        2 * n / 5,
        "{}",
        &o.stdout[..2000.min(o.stdout.len())]
    );
}

#[test]
fn a_label_defined_twice_is_refused_as_the_assembler_refuses_it() {
    let dir = tempdir();
    let f = dir.path().join("k.s");
    std::fs::write(
        &f,
        "a:\n\taddq\t%rax, %rbx\n1:\n\ta:\taddq\t%rax, %rbx\n1:\tjne\t1b\n",
    )
    .unwrap();
    Course::new(["mca", f.to_str().unwrap(), "-mcpu=skylake"])
        .code(2)
        .stderr_has("k.s:4:2: symbol 'a' is already defined")
        .run();
}

#[test]
fn bottleneck_advice_fits_the_recurrence_it_names() {
    // A chain through a store's post-incremented address register is an
    // induction variable, not an accumulator.
    let addr = run_on(
        ".LBB0_1:\n\tstr\td0, [x0], #8\n\tb\t.LBB0_1\n",
        &["-mcpu=apple-m1", "--bottleneck"],
    );
    assert!(
        addr.stdout.contains("Binding: the recurrence at 1;"),
        "{}",
        addr.stdout
    );
    assert!(
        addr.stdout.contains("not an accumulator"),
        "{}",
        addr.stdout
    );
    assert!(
        !addr.stdout.contains("independent accumulators"),
        "{}",
        addr.stdout
    );
    // A floating-point sum is one.
    let sum = run_on(
        ".LBB0_1:\n\tldr\td1, [x1], #8\n\tfadd\td0, d0, d1\n\tsubs\tx8, x8, #1\n\tb.ne\t.LBB0_1\n",
        &["-mcpu=neoverse-v2", "--bottleneck"],
    );
    assert!(
        sum.stdout.contains("fadd    d0, d0, d1  (ℓ = 2, d = 1)"),
        "{}",
        sum.stdout
    );
    assert!(
        sum.stdout.contains("independent accumulators"),
        "{}",
        sum.stdout
    );
}

/// `course mca` on `text` with `args`: a refusal with exit 2 whose message
/// holds `why`, within 20 s (never a panic, a stack overflow or a hang).
fn refused(text: &str, args: &[&str], why: &str) {
    let dir = tempdir();
    let f = dir.path().join("k.s");
    std::fs::write(&f, text).unwrap();
    Course::new(["mca", f.to_str().unwrap()])
        .args(args)
        .code(2)
        .timeout(20)
        .stderr_has(why)
        .run();
}

#[test]
fn hostile_operands_are_refused_not_crashed_on() {
    let a64 = ["-mtriple=aarch64", "-mcpu=neoverse-v2"];
    // A multi-byte character where a register's class letter stands.
    refused("ldr x0, [é]\n", &a64, "k.s:1:");
    // (A branch to `été` is a branch to a symbol of that name.)
    assert!(
        run_on("b été\n", &a64)
            .stdout
            .contains("Instructions:      100")
    );
    refused("ld1 {é0.16b}, [x0]\n", &a64, "is not a vector register");
    refused("ld1 {}, [x0]\n", &a64, "k.s:1:");
    // A no-break space after x86's `*`: the column counts characters.
    refused("jmp *\u{a0}(é)x\n", &["-mcpu=skylake"], "k.s:1:");
    // Nesting that recursed once per level.
    let parens = format!(
        "addq ${}1{}, %rax\n",
        "(".repeat(200_000),
        ")".repeat(200_000)
    );
    refused(&parens, &["-mcpu=skylake"], "k.s:1:");
    let stars = format!("jmp {}%rax\n", "*".repeat(10_000));
    refused(&stars, &["-mcpu=skylake"], "unexpected '*'");
    let nested = format!(
        "ldr x0, {}x0{}\n",
        "[x0, ".repeat(20_000),
        "]".repeat(20_000)
    );
    refused(&nested, &a64, "in an address");
}

#[test]
fn long_lines_read_in_linear_time() {
    // Columns and comments were counted from the start of the line for
    // every statement: 80,000 statements on one line took minutes; 20,000 here.
    let line = "nop;".repeat(20_000) + "\n";
    let o = run_on(&line, &["-mcpu=skylake", "-iterations=1"]);
    assert!(
        o.stdout.contains("Instructions:      20000\n"),
        "{}",
        &o.stdout[..300.min(o.stdout.len())]
    );
    let bad = "movq %zz, %rax;".repeat(40_000) + "\n";
    refused(&bad, &["-mcpu=skylake"], "k.s:1:21: unknown register '%zz'");
    let hashes = format!("add z0.{}, z1.s, z2.s\n", "#".repeat(100_000));
    refused(
        &hashes,
        &["-mtriple=aarch64", "-mcpu=neoverse-v2"],
        "k.s:1:",
    );
    // Regions looked up by name (they were scanned one by one per marker).
    let regions: String = (0..5_000)
        .map(|k| format!("# LLVM-MCA-BEGIN r{k}\nnop\n# LLVM-MCA-END r{k}\n"))
        .collect();
    let o = run_on(&regions, &["-mcpu=skylake", "-iterations=1"]);
    assert!(
        o.stdout.contains("Code Region - r4999"),
        "{}",
        &o.stdout[..300.min(o.stdout.len())]
    );
}

#[test]
fn a_backslash_before_a_line_end_in_a_string_keeps_the_line_count() {
    refused(
        ".ascii \"a\\\nmovq %zz, %rax\n",
        &["-mcpu=skylake"],
        "k.s:2:",
    );
}
