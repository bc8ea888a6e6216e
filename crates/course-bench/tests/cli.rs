//! End-to-end tests of `course-bench`: the program runs, reports its figures
//! in the documented JSON shape, and rejects unknown benchmark names. No
//! time is asserted. The `process` section times the `course` binary next
//! to `course-bench`, which a workspace `cargo test` builds; run alone
//! (`cargo test -p course-bench`) that test says SKIP, and fails under CI.

use std::path::PathBuf;
use std::process::Command;

/// One run of `course-bench`: what it is expected to do, then [`Bench::run`].
struct Bench {
    args: Vec<String>,
    code: i32,
    stdout_has: Vec<&'static str>,
    stderr_has: Vec<&'static str>,
}

/// What a run printed.
struct Output {
    stdout: String,
}

impl Output {
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).expect("JSON on standard output")
    }
}

impl Bench {
    fn code(mut self, code: i32) -> Bench {
        self.code = code;
        self
    }
    fn stdout_has(mut self, s: &'static str) -> Bench {
        self.stdout_has.push(s);
        self
    }
    fn stderr_has(mut self, s: &'static str) -> Bench {
        self.stderr_has.push(s);
        self
    }
    fn run(self) -> Output {
        let out = Command::new(env!("CARGO_BIN_EXE_course-bench"))
            .args(&self.args)
            .output()
            .expect("course-bench runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let said = format!(
            "{:?}\n--- stdout:\n{stdout}\n--- stderr:\n{stderr}",
            self.args
        );
        assert_eq!(out.status.code(), Some(self.code), "{said}");
        assert!(!stderr.contains("panicked"), "{said}");
        for s in &self.stdout_has {
            assert!(stdout.contains(s), "no {s:?} in {said}");
        }
        for s in &self.stderr_has {
            assert!(stderr.contains(s), "no {s:?} in {said}");
        }
        Output { stdout }
    }
}

/// `course-bench` with `args`.
fn bench<const N: usize>(args: [&str; N]) -> Bench {
    Bench {
        args: args.iter().map(|s| s.to_string()).collect(),
        code: 0,
        stdout_has: Vec::new(),
        stderr_has: Vec::new(),
    }
}

/// The `course` binary the `process` section times: beside `course-bench`.
fn course_beside() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_BIN_EXE_course-bench"))
        .with_file_name(format!("course{}", std::env::consts::EXE_SUFFIX));
    if p.is_file() {
        return Some(p);
    }
    let under_ci = std::env::var_os("CI").is_some_and(|v| {
        let v = v.to_string_lossy().trim().to_ascii_lowercase();
        !matches!(v.as_str(), "" | "0" | "false")
    });
    let msg = format!(
        "the process section: no {} (build the workspace, or run cargo test at its root)",
        p.display()
    );
    assert!(!under_ci, "{msg}\nunder CI this fails");
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIP {msg}");
    None
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
    if course_beside().is_none() {
        return;
    }
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
