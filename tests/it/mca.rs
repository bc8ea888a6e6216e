//! End-to-end tests of `course mca` (Algorithm 23.1.11) through the real
//! binary: every number of the llvm-mca boxes of Lesson 23.1 §7, from the
//! shipped kernels on the built-in models, and bad input.

use crate::common::{self, Course};

const DIV: &str = "labs/ch23-sched/inputs/mca/div.txt";
const MODEL: &str = "labs/ch23-sched/inputs/mca/model.txt";
const DOT_X86: &str = "labs/ch23-sched/inputs/mca/dot-x86.txt";
const DOT_A64: &str = "labs/ch23-sched/inputs/mca/dot-a64.txt";

/// The summary lines llvm-mca prints for `input` on `machine` at 100
/// iterations: Total Cycles, IPC, Block RThroughput.
fn summary(input: &str, machine: &str) -> (String, String, String) {
    let out = Course::new(["mca", input, "--machine", machine])
        .run()
        .stdout;
    let line = |key: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("no {key} in\n{out}"))
    };
    (
        line("Total Cycles:"),
        line("IPC:"),
        line("Block RThroughput:"),
    )
}

fn check(input: &str, machine: &str, cycles: &str, ipc: Option<&str>, rthroughput: &str) {
    let (c, i, r) = summary(input, machine);
    assert_eq!(c, cycles, "{input} on {machine}: Total Cycles");
    assert_eq!(r, rthroughput, "{input} on {machine}: Block RThroughput");
    if let Some(ipc) = ipc {
        assert_eq!(i, ipc, "{input} on {machine}: IPC");
    }
}

#[test]
fn divide_box_on_skylake_and_zen4() {
    check(DIV, "skylake", "1609", None, "16.0");
    check(DIV, "znver4", "1011", None, "10.0");
}

#[test]
fn dot_product_box_on_four_processors() {
    check(DOT_X86, "skylake", "410", Some("1.22"), "1.0");
    check(DOT_X86, "znver4", "411", Some("1.22"), "1.0");
    check(DOT_A64, "neoverse-v2", "211", Some("2.84"), "1.0");
    check(DOT_A64, "apple-m1", "513", Some("1.17"), "2.0");
}

/// The timeline box of §7, character for character (llvm-mca's tabs shown
/// as the lesson shows them).
const DIVIDE_TIMELINE: &str = "\
Timeline view:
                    0123456789     
Index     0123456789          01234

[0,0]     DeeeeeeeeeeeeeeER   .   .   vdivpd    %ymm0, %ymm1, %ymm2
[0,1]     D========eeeeeeeeeeeeeeER   vdivpd    %ymm0, %ymm1, %ymm3
[0,2]     DeeeeE------------------R   vmulpd    %ymm0, %ymm1, %ymm4
[0,3]     D=eeeeE-----------------R   vmulpd    %ymm0, %ymm1, %ymm5
";

#[test]
fn divide_timeline_is_the_box() {
    let out = Course::new(["mca", DIV, "--machine", "skylake"])
        .args(["--iterations", "1", "--timeline"])
        .run()
        .stdout;
    let timeline = &out[out.find("Timeline view:").expect("a timeline")..];
    assert_eq!(timeline, DIVIDE_TIMELINE);
    common::snapshot!("mca_div_skylake_timeline", out);
}

/// The instruction-table rows of §7: latency, reciprocal throughput and
/// resources with ReleaseAtCycles, character for character.
const MODEL_ROWS: &str = "\
[1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]                                        [9]                        Instructions:
 1      3     1.00                         3     SKLPort1,SKLPort01,SKLPort15,SKLPort16,SKLPort015,SKLPort0156,SKLPortAny IMUL64rr imulq    %rsi, %rdi  
 1      14    8.00                         14    SKLFPDivider[8],SKLPort0,SKLPort01,SKLPort04,SKLPort05,SKLPort06,SKLPort015,SKLPort056,SKLPort0156,SKLPortAny VDIVPDYrr vdivpd %ymm2, %ymm1, %ymm0 
 1      5     0.50    *                    5     SKLPort23,SKLPort237,SKLPortAny            MOV64rm                    movq (%rdi), %rax    
";

#[test]
fn instruction_table_rows_are_the_box() {
    let out = Course::new(["mca", MODEL, "--machine", "skylake", "--instruction-tables"])
        .run()
        .stdout;
    let start = out.find("[1]    [2]").expect("the table header");
    let rows: String = out[start..]
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(rows, MODEL_ROWS);
    common::snapshot!("mca_model_skylake_tables", out);
    let v = Course::new(["mca", MODEL, "--machine", "skylake", "--instruction-tables"])
        .args(["--format", "json"])
        .run()
        .json();
    let info = &v["instruction_info"];
    let row = |i: usize| (info[i]["latency"].clone(), info[i]["rthroughput"].clone());
    assert_eq!(row(0), (3.into(), 1.0.into()));
    assert_eq!(row(1), (14.into(), 8.0.into()));
    assert_eq!(row(2), (5.into(), 0.5.into()));
    assert_eq!(info[1]["resources"][0], "SKLFPDivider[8]");
    assert_eq!(info[2]["may_load"], true);
}

#[test]
fn llvm14_divider_gives_the_other_numbers() {
    // The note in the README: LLVM 14's Skylake books the divider 5 cycles.
    check(DIV, "skylake-llvm14", "1012", None, "10.0");
}

#[test]
fn all_views_on_the_x86_dot_product() {
    let out = Course::new(["mca", DOT_X86, "--machine", "skylake", "--timeline"])
        .args(["--timeline-max-iterations", "2"])
        .args(["--resource-pressure", "--instruction-info"])
        .run()
        .stdout;
    common::snapshot!("mca_dot_x86_views", out);
    let v = Course::new(["mca", DOT_X86, "--machine", "skylake", "--timeline"])
        .args(["--timeline-max-iterations", "3", "--format", "json"])
        .run()
        .json();
    assert_eq!(v["timeline"].as_array().unwrap().len(), 15);
    assert_eq!(v["total_uops"], 600);
    assert_eq!(v["ipc"], 1.22);
}

#[test]
fn zero_latency_consumers_issue_in_the_same_cycle() {
    // a feeds b through a ReadAdvance as long as its latency: b may issue
    // in the cycle a issues (llvm-mca promotes it at once).
    let dir = common::tempdir();
    let m = dir.path().join("m.yaml");
    std::fs::write(
        &m,
        "issue_width: 4\nmicro_op_buffer_size: 16\nresources:\n  - { name: u, capacity: 2 }\nclasses:\n  - { name: p, latency: 2, opcodes: [p], uses: [[u, 1]] }\n  - { name: c, latency: 1, opcodes: [c], uses: [[u, 1]], read_advance: [{ cycles: 2, writes: [p] }] }\n",
    )
    .unwrap();
    let input = dir.path().join("k.txt");
    std::fs::write(&input, "block k\na: r1 = p r0\nb: r2 = c r1\n").unwrap();
    let v = Course::new(["mca"])
        .args([input.as_os_str(), "--machine".as_ref(), m.as_os_str()])
        .args(["--iterations", "1", "--timeline", "--format", "json"])
        .run()
        .json();
    assert_eq!(v["timeline"][0]["issue"], v["timeline"][1]["issue"]);
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let skylake = || Course::new(["mca", DIV, "--machine", "skylake"]);
    skylake()
        .args(["--iterations", "0"])
        .code(2)
        .stderr_has("--iterations must be between 1 and")
        .run();
    skylake()
        .args(["--iterations", "1000000000000"])
        .code(2)
        .stderr_has("--iterations")
        .run();
    // Opcodes the machine does not declare: the parser's diagnostics.
    Course::new(["mca", DIV])
        .code(2)
        .stderr_has("div.txt:")
        .run();
    Course::new(["mca", "no/such/file.txt"])
        .code(2)
        .stderr_has("no such file")
        .run();
}
