//! End-to-end tests of `course mca` (Alg 23.1.11) through the real binary:
//! the two llvm-mca boxes of Lesson 23.1 §7 and bad input.

use crate::common;
use std::process::Command;

fn course(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_course"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let (code, out, err) = course(&a);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
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
    let (code, out, _) = course(&["mca", DIV4, "--machine", "skylake-div"]);
    assert_eq!(code, 0);
    assert!(out.contains("Block RThroughput: 16.0\n"), "{out}");
}

#[test]
fn dot_product_box_is_bound_by_its_fma_recurrence() {
    let v = json(&["mca", DOT, "--machine", "dot-fma", "--iterations", "100"]);
    let cycles = v["total_cycles"].as_f64().unwrap();
    assert!((cycles - 410.0).abs() <= 410.0 * 0.02, "{cycles}");
    assert_eq!(v["block_rthroughput"], 1.0);
    assert_eq!(v["bound"], "4");
    let (_, out, _) = course(&["mca", DOT, "--machine", "dot-fma"]);
    assert!(out.contains("Block RThroughput: 1.0\n"), "{out}");
}

#[test]
fn divide_timeline_matches_the_box() {
    // The second divide waits eight cycles for the divider; the multiplies
    // start one cycle apart on the two pipelined ports (Lesson 23.1 §7).
    let (code, out, err) = course(&[
        "mca",
        DIV4,
        "--machine",
        "skylake-div",
        "--iterations",
        "1",
        "--timeline",
    ]);
    assert_eq!(code, 0, "{err}");
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
    let (code, out, err) = course(&[
        "mca",
        DOT,
        "--machine",
        "dot-fma",
        "--timeline",
        "--timeline-max-iterations",
        "2",
        "--resource-pressure",
        "--instruction-info",
    ]);
    assert_eq!(code, 0, "{err}");
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
    let (code, _, err) = course(&["mca", DIV4, "--machine", "skylake-div", "--iterations", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--iterations must be between 1 and"), "{err}");
    let (code, _, err) = course(&[
        "mca",
        DIV4,
        "--machine",
        "skylake-div",
        "--iterations",
        "1000000000000",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--iterations"), "{err}");
    // Opcodes the machine does not declare: the parser's diagnostics.
    let (code, _, err) = course(&["mca", DIV4]);
    assert_eq!(code, 2);
    assert!(err.contains("div4.txt:"), "{err}");
    let (code, _, err) = course(&["mca", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("no such file"), "{err}");
}
