//! End-to-end tests of `course mca` (Algorithm 23.1.11) through the real binary:
//! the two llvm-mca boxes of Lesson 23.1 §7 and bad input.

use crate::common::{self, Course};

fn json(args: &[&str]) -> serde_json::Value {
    Course::new(args).args(["--format", "json"]).run().json()
}

const DIV4: &str = "labs/ch23-sched/inputs/mca/div4.txt";
const DOT: &str = "labs/ch23-sched/inputs/mca/dot.txt";

#[test]
fn skylake_divide_box_takes_16_cycles_per_iteration() {
    let v = json(&[
        "mca",
        DIV4,
        "--machine",
        "skylake-div",
        "--iterations",
        "100",
    ]);
    let cycles = v["total_cycles"].as_f64().unwrap();
    assert!((cycles - 1609.0).abs() <= 1609.0 * 0.01, "{cycles}");
    assert_eq!(v["block_rthroughput"], 16.0);
    assert_eq!(v["iterations"], 100);
    assert_eq!(v["instructions"], 400);
    assert_eq!(v["total_uops"], 400);
    assert_eq!(v["dispatch_width"], 6);
    Course::new(["mca", DIV4, "--machine", "skylake-div"])
        .stdout_has("Block RThroughput: 16.0\n")
        .run();
}

#[test]
fn dot_product_box_is_bound_by_its_fma_recurrence() {
    let v = json(&["mca", DOT, "--machine", "dot-fma", "--iterations", "100"]);
    let cycles = v["total_cycles"].as_f64().unwrap();
    assert!((cycles - 410.0).abs() <= 410.0 * 0.02, "{cycles}");
    assert_eq!(v["block_rthroughput"], 1.0);
    assert_eq!(v["bound"], "4");
    Course::new(["mca", DOT, "--machine", "dot-fma"])
        .stdout_has("Block RThroughput: 1.0\n")
        .run();
}

#[test]
fn divide_timeline_matches_the_box() {
    // The second divide waits eight cycles for the divider; the multiplies
    // start one cycle apart on the two pipelined ports (Lesson 23.1 §7).
    let out = Course::new(["mca", DIV4, "--machine", "skylake-div"])
        .args(["--iterations", "1", "--timeline"])
        .run()
        .stdout;
    for row in [
        "[0,0]     DeeeeeeeeeeeeeeER",
        "[0,1]     D========eeeeeeeeeeeeeeER",
        "[0,2]     DeeeeE------------------R",
        "[0,3]     D=eeeeE-----------------R",
    ] {
        assert!(out.contains(row), "missing {row}\n{out}");
    }
    common::snapshot!("mca_div4_views", out);
}

#[test]
fn all_views_on_the_dot_product() {
    let out = Course::new(["mca", DOT, "--machine", "dot-fma", "--timeline"])
        .args(["--timeline-max-iterations", "2"])
        .args(["--resource-pressure", "--instruction-info"])
        .run()
        .stdout;
    common::snapshot!("mca_dot_views", out);
    let v = json(&[
        "mca",
        DOT,
        "--machine",
        "dot-fma",
        "--timeline",
        "--timeline-max-iterations",
        "3",
    ]);
    assert_eq!(v["timeline"].as_array().unwrap().len(), 18);
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let skylake = || Course::new(["mca", DIV4, "--machine", "skylake-div"]);
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
    Course::new(["mca", DIV4])
        .code(2)
        .stderr_has("div4.txt:")
        .run();
    Course::new(["mca", "no/such/file.txt"])
        .code(2)
        .stderr_has("no such file")
        .run();
}
