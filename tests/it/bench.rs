//! End-to-end tests of `course-bench`: the program runs, reports its figures
//! in the documented JSON shape, and rejects unknown benchmark names. No
//! time is asserted.

use crate::common::Course;

/// `course-bench` with `args`.
fn bench<const N: usize>(args: [&str; N]) -> Course {
    Course::new(args).binary(env!("CARGO_BIN_EXE_course-bench"))
}

#[test]
fn grading_section_as_json() {
    let v = bench(["--quick", "--only", "grading", "--format", "json"])
        .run()
        .json();
    let sections = v.as_array().expect("an array of sections");
    assert_eq!(sections.len(), 1);
    assert_eq!(sections[0]["name"], "grading");
    let m = &sections[0]["measurements"][0];
    assert_eq!(m["label"], "parse+check");
    assert_eq!(m["size"], 1000);
    assert!(m["median_s"].as_f64().is_some());
    assert!(m["note"].as_str().unwrap().contains("submissions/s"));
}

#[test]
fn hazard_section_as_text() {
    let text = bench(["--quick", "--only", "hazard"])
        .stdout_has("16384 states")
        .stdout_has("slope of build vs states")
        .run()
        .stdout;
    assert!(text.starts_with("## Hazard automaton"), "{text}");
}

#[test]
fn unknown_benchmark_is_a_usage_error() {
    bench(["--only", "nope"])
        .code(2)
        .stderr_has("unknown benchmark 'nope'")
        .stderr_has("list-schedule")
        .run();
}

#[test]
fn process_section_times_whole_processes() {
    let v = bench(["--quick", "--only", "process", "--format", "json"])
        .run()
        .json();
    let s = &v.as_array().expect("an array of sections")[0];
    assert_eq!(s["name"], "process");
    let ms = s["measurements"].as_array().unwrap();
    let labels: Vec<&str> = ms.iter().map(|m| m["label"].as_str().unwrap()).collect();
    for want in [
        "schedule loop",
        "analyze json",
        "schedule json",
        "schedule text",
        "machine occupancy",
        "machine yaml depth",
    ] {
        assert!(labels.contains(&want), "{labels:?}");
    }
    for m in ms {
        assert!(m["min_s"].as_f64().unwrap() <= m["max_s"].as_f64().unwrap());
        assert!(m["note"].as_str().unwrap().contains("; course "), "{m}");
        if cfg!(unix) {
            assert!(m["peak_rss_bytes"].as_u64().unwrap() > 0, "{m}");
        }
    }
    let json = &ms[labels.iter().position(|l| *l == "schedule json").unwrap()];
    assert_eq!(
        json["note"],
        "course gen block --ops 1000 --seed 1 > block1000.txt; course schedule block1000.txt --format json > /dev/null"
    );
}
