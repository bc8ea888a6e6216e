//! `course autograder`: `run` against a simulated `/autograder` folder for
//! each way a student's zip can be laid out, and the Gradescope bundle built
//! with a static `course`, unzipped and run as Gradescope would.

use std::path::{Path, PathBuf};

use crate::common::{self, Course};

/// A stand-in for `/autograder` with the upload in `submission/`.
fn sim(dir: &Path) -> PathBuf {
    let root = dir.join("autograder");
    std::fs::create_dir_all(root.join("submission")).unwrap();
    root
}

/// `course autograder run --root ROOT --lab LAB [extra]`, then the results.
fn run(root: &Path, lab: &str, extra: &[&str]) -> serde_json::Value {
    Course::new(["autograder", "run", "--lab", lab, "--root"])
        .arg_path(root)
        .args(extra)
        .timeout(60)
        .run();
    results(root)
}

fn results(root: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(root.join("results/results.json"))
        .expect("results.json is always written");
    serde_json::from_str(&text).expect("results.json is JSON")
}

/// The fields of Gradescope's specification, on every test.
fn well_formed(j: &serde_json::Value) {
    assert!(j["score"].is_number() && j["output"].is_string(), "{j}");
    assert_eq!(j["output_format"], "md");
    for t in j["tests"].as_array().unwrap() {
        for k in [
            "name",
            "score",
            "max_score",
            "status",
            "output",
            "visibility",
        ] {
            assert!(t.get(k).is_some(), "{k}: {t}");
        }
    }
}

#[test]
fn every_upload_layout_is_found() {
    let tmp = common::tempdir();
    type Layout = fn(&Path);
    let layouts: Vec<(&str, Layout, f64, &str)> = vec![
        ("root", |s| common::references(s), 80.0, ""),
        (
            "one folder",
            |s| common::references(&s.join("lab23")),
            80.0,
            "graded the files found in the folder lab23/",
        ),
        (
            "mac zip",
            |s| {
                common::references(&s.join("my lab"));
                common::references(&s.join("__MACOSX/my lab"));
                std::fs::write(s.join("__MACOSX/my lab/._running.sched"), [0u8, 5, 22]).unwrap();
                std::fs::write(s.join("my lab/.DS_Store"), [0u8, 0, 0, 1]).unwrap();
            },
            80.0,
            "graded the files found in the folder my lab/",
        ),
        ("empty", |_| {}, 0.0, "The submission is empty"),
        (
            "wrong names",
            |s| {
                common::references(s);
                std::fs::rename(s.join("running.sched"), s.join("Running.sched")).unwrap();
                std::fs::rename(s.join("dot.sched"), s.join("dot.txt")).unwrap();
            },
            60.0,
            "Expected one file per lab input: running.sched, divide.sched",
        ),
    ];
    for (i, (what, make, score, note)) in layouts.into_iter().enumerate() {
        let root = sim(&tmp.path().join(i.to_string()));
        make(&root.join("submission"));
        let j = run(&root, "ch23-sched", &[]);
        well_formed(&j);
        assert_eq!(j["score"], score, "{what}: {j}");
        assert_eq!(j["tests"].as_array().unwrap().len(), 8, "{what}");
        assert!(
            j["output"].as_str().unwrap().contains(note),
            "{what}: {}",
            j["output"]
        );
        if what == "wrong names" {
            let t = &j["tests"][0]["output"];
            assert!(t.as_str().unwrap().contains("found Running.sched"), "{t}");
            assert!(
                j["output"]
                    .as_str()
                    .unwrap()
                    .contains("Found: Running.sched")
            );
        }
    }
}

#[test]
fn a_grader_failure_still_writes_results_without_paths() {
    let tmp = common::tempdir();
    let root = sim(tmp.path());
    common::references(&root.join("submission"));
    let o = Course::new(["autograder", "run", "--lab", "no-such-lab", "--root"])
        .arg_path(&root)
        .run();
    assert!(o.stdout.contains("grading failed"), "{}", o.stdout);
    let j = results(&root);
    assert_eq!(j["score"], 0.0);
    let out = j["output"].as_str().unwrap();
    assert!(out.contains("This is not your mistake"), "{out}");
    assert!(!out.contains(&*root.to_string_lossy()), "{out}");
}

#[test]
fn the_autograder_runs_a_students_scheduler_from_its_folder() {
    let tmp = common::tempdir();
    let root = sim(tmp.path());
    let code = root.join("submission/my-code");
    std::fs::create_dir_all(&code).unwrap();
    std::fs::copy(
        common::root().join("tests/data/schedulers/sequential.sh"),
        code.join("sched.sh"),
    )
    .unwrap();
    let cmd = "sh sched.sh {input}";
    let j = Course::new(["autograder", "run", "--lab", "ch23-sched", "--run", cmd])
        .args(["--hidden", "2"])
        .args(common::run_isolation())
        .env("COURSE_SECRET_SEED", "s")
        .args(["--root".as_ref(), root.as_os_str()])
        .timeout(120)
        .run();
    assert!(j.stdout.contains("score "), "{}", j.stdout);
    let r = results(&root);
    assert_eq!(r["tests"].as_array().unwrap().len(), 10);
    for t in r["tests"].as_array().unwrap() {
        assert!(t["score"].as_f64().unwrap() > 0.0, "{t}");
    }
}

/// A static `course` for the bundle: the musl build `.ci/run` makes before
/// the tests and names in `COURSE_STATIC_BIN` (the test suite does not
/// build a second `course` itself). `None`, with one SKIP line, where it is
/// not named; under CI that is a failure ([`common::missing`]).
fn static_course() -> Option<PathBuf> {
    match std::env::var_os("COURSE_STATIC_BIN") {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            assert!(
                p.is_file(),
                "COURSE_STATIC_BIN={} is not a file",
                p.display()
            );
            Some(p)
        }
        _ => {
            common::missing(
                "the Gradescope bundle's run: COURSE_STATIC_BIN names no static course \
                 (cargo build --target x86_64-unknown-linux-musl --bin course, as .ci/run does)",
            );
            None
        }
    }
}

#[test]
fn the_bundle_is_built_in_one_command_and_runs_as_gradescope_would() {
    let tmp = common::tempdir();
    let zip = tmp.path().join("autograder.zip");
    // The test binary links the C library dynamically: refused.
    Course::new(["autograder", "gradescope", "--lab", "ch23-sched", "--out"])
        .arg_path(&zip)
        .code(2)
        .stderr_has("is dynamically linked")
        .run();
    let Some(binary) = static_course() else {
        return;
    };
    Course::new(["autograder", "gradescope", "--lab", "ch23-sched", "--out"])
        .arg_path(&zip)
        .arg("--binary")
        .arg_path(&binary)
        .stdout_has("run_autograder")
        .run();
    let bytes = std::fs::read(&zip).unwrap();
    let entries = course_host::zip::read(&bytes).expect("a zip we can read back");
    let names: Vec<(&str, u32)> = entries.iter().map(|e| (e.name.as_str(), e.mode)).collect();
    assert_eq!(
        names,
        [
            ("setup.sh", 0o755),
            ("run_autograder", 0o755),
            ("course", 0o755)
        ]
    );
    // Gradescope: the zip in ROOT/source, run_autograder copied to ROOT.
    let root = sim(tmp.path());
    std::fs::create_dir_all(root.join("source")).unwrap();
    for e in &entries {
        let p = root.join("source").join(&e.name);
        std::fs::write(&p, &e.data).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(e.mode)).unwrap();
    }
    std::fs::copy(
        root.join("source/run_autograder"),
        root.join("run_autograder"),
    )
    .unwrap();
    // A process another test forks meanwhile may hold the new files open
    // for writing until it execs (ETXTBSY): let that pass.
    std::thread::sleep(std::time::Duration::from_millis(300));
    common::references(&root.join("submission/lab"));
    let out = std::process::Command::new(root.join("run_autograder"))
        .env("COURSE_AUTOGRADER_ROOT", &root)
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("score 80/80"));
    let j = results(&root);
    well_formed(&j);
    assert_eq!(j["score"], 80.0, "{j}");
    // An upload with nothing of use: still results, a zero with the names.
    std::fs::remove_dir_all(root.join("submission")).unwrap();
    std::fs::create_dir_all(root.join("submission")).unwrap();
    std::fs::write(root.join("submission/notes.pdf"), "%PDF").unwrap();
    std::process::Command::new(root.join("run_autograder"))
        .env("COURSE_AUTOGRADER_ROOT", &root)
        .output()
        .unwrap();
    let j = results(&root);
    assert_eq!(j["score"], 0.0);
    assert!(
        j["output"].as_str().unwrap().contains("Found: notes.pdf"),
        "{j}"
    );
    // The grader itself dies (a panic exits 101, a crash by a signal): the
    // script still leaves results that say it is not the student's fault.
    for death in ["exit 101", "kill -SEGV $$"] {
        use std::os::unix::fs::PermissionsExt;
        let course = root.join("source/course");
        std::fs::write(&course, format!("#!/bin/sh\n{death}\n")).unwrap();
        std::fs::set_permissions(&course, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::remove_file(root.join("results/results.json")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        let out = std::process::Command::new(root.join("run_autograder"))
            .env("COURSE_AUTOGRADER_ROOT", &root)
            .output()
            .unwrap();
        assert!(out.status.success(), "{death}");
        let j = results(&root);
        assert_eq!(j["score"], 0.0, "{death}: {j}");
        assert!(
            j["output"]
                .as_str()
                .unwrap()
                .contains("This is not your mistake"),
            "{death}: {j}"
        );
    }
}

#[test]
fn a_bundle_is_refused_with_run_options_its_runs_would_refuse() {
    let tmp = common::tempdir();
    let zip = tmp.path().join("autograder.zip");
    let bundle = || {
        Course::new(["autograder", "gradescope", "--lab", "ch23-sched", "--out"])
            .arg_path(&zip)
            .args(["--run", "./sched {input}"])
            .code(2)
    };
    bundle()
        .args(["--time-limit", "0"])
        .stderr_has("--time-limit: between 0 and 3600 seconds")
        .run();
    bundle()
        .args(["--hidden", "5000"])
        .env("COURSE_SECRET_SEED", "s")
        .stderr_has("--hidden: at most 1000 hidden inputs")
        .run();
    assert!(!zip.exists());
}
