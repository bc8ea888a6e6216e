//! The sandbox of `grade --run` and of the autograder against hostile
//! students (`tests/data/schedulers/`): each attack gets its zero with its
//! reason, and nothing it aimed at (another student's grade and files, the
//! gradebook, the secret, the results file) changes or leaks, and no
//! process it started is alive afterwards.
//!
//! Every test runs with namespaces (when the kernel allows them) and, as
//! root, with uid separation alone (`--sandbox uid`): CI runs this module
//! as root and again as an unprivileged user. What cannot run here says
//! SKIP on standard error.

use std::io::Read;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{self, Course, first_message, input};

const SCHEDULERS: &str = "tests/data/schedulers";
const SECRET: &str = "hostile-secret-7f3a9c21";
/// Words that only the hostile programs' processes have in their command
/// lines.
/// The sandbox uids of these tests as root (`--sandbox-uid`): a range no
/// other test's grading run claims, so that "no process of the uid is
/// left" speaks of these runs only.
const TEST_UID: u32 = 62_000;
const TEST_UID_ARG: &str = "62000";

/// The words by which processes left by the hostile scripts are found:
/// the scripts' own, made unique to this test process, so that a test run
/// elsewhere on the machine never counts.
fn markers() -> [String; 2] {
    let pid = std::process::id();
    [
        format!("course_hostile_daemon_{pid}"),
        format!("{}", 9_000_000 + u64::from(pid)),
    ]
}

/// One test at a time: each looks for processes left by hostile programs,
/// and another test's running ones must not count.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The processes whose command line holds a marker, with that line.
fn leftovers() -> Vec<String> {
    let markers = markers();
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        let zombie = std::fs::read_to_string(e.path().join("stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        });
        if !zombie && markers.iter().any(|m| cmd.contains(m.as_str())) && !cmd.contains("cargo") {
            out.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
        }
    }
    out
}

/// The names filled into a hostile script.
struct Targets {
    results: PathBuf,
    sibling: PathBuf,
    secret_file: PathBuf,
    course: PathBuf,
    port: u16,
}

impl Targets {
    /// Targets for the schedulers that aim at none.
    fn unused(dir: &Path) -> Targets {
        Targets {
            results: dir.join("r"),
            sibling: dir.join("s"),
            secret_file: dir.join("x"),
            course: PathBuf::from("course"),
            port: 1,
        }
    }
}

/// Copies the sample `script` to `dest` with the targets filled in.
fn place(script: &str, dest: &Path, t: &Targets) {
    let text =
        std::fs::read_to_string(common::root().join(SCHEDULERS).join(format!("{script}.sh")))
            .unwrap()
            .replace("@RESULTS@", &t.results.to_string_lossy())
            .replace("@SIBLING@", &t.sibling.to_string_lossy())
            .replace("@SECRET_FILE@", &t.secret_file.to_string_lossy())
            .replace("@COURSE@", &t.course.to_string_lossy())
            .replace("@PORT@", &t.port.to_string())
            .replace("course_hostile_daemon", &markers()[0])
            .replace("987654", &markers()[1]);
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::write(dest, text).unwrap();
}

/// A copy of `course` in a folder only its owner may enter (as a bundle
/// keeps it), so that uid separation alone can keep it from students.
fn private_course(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o700)).unwrap();
    let exe = bin.join("course");
    std::fs::copy(env!("CARGO_BIN_EXE_course"), &exe).unwrap();
    exe
}

/// The sandbox modes to try here: namespaces where they work, and uid
/// separation as root. Each with the `course` to run.
fn modes(dir: &Path) -> Vec<(&'static str, Vec<&'static str>, PathBuf)> {
    let mut out = Vec::new();
    let check = Course::new(["grade", "--check-sandbox", "--format", "json"])
        .any_code()
        .run()
        .json();
    if check["namespaces"].is_null() {
        out.push((
            "namespaces",
            vec!["--sandbox", "namespaces", "--sandbox-uid", TEST_UID_ARG],
            PathBuf::from(env!("CARGO_BIN_EXE_course")),
        ));
    } else {
        common::note(format!("SKIP namespace sandbox: {}", check["namespaces"]));
    }
    if is_root() {
        out.push((
            "uid",
            vec!["--sandbox", "uid", "--sandbox-uid", TEST_UID_ARG],
            private_course(dir),
        ));
    } else {
        common::note("SKIP uid separation: the tests do not run as root");
    }
    out
}

/// The first sandbox mode that works here, for the tests that need one
/// and not each: `dir` is closed to others, as uid separation requires.
/// None (said) when there is none.
fn some_mode(dir: &Path) -> Option<(Vec<&'static str>, PathBuf)> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    // The default uids: these tests run beside the attack tests, whose
    // range must hold their own programs only.
    let m = modes(dir).into_iter().next().map(|(_, f, exe)| {
        let flags = f
            .into_iter()
            .take_while(|&w| w != "--sandbox-uid")
            .collect();
        (flags, exe)
    });
    if m.is_none() {
        common::note("SKIP: no sandbox mode works here");
    }
    m
}

/// A listener on the grader's loopback that counts connections.
fn listener() -> (TcpListener, u16) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.set_nonblocking(true).unwrap();
    let port = l.local_addr().unwrap().port();
    (l, port)
}

fn accepted(l: &TcpListener) -> usize {
    let mut n = 0;
    while let Ok((mut s, _)) = l.accept() {
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf);
        n += 1;
    }
    n
}

/// The hostile students of a class and the reason each one's zero must
/// give (on the input `running`).
const CLASS: &[(&str, &str)] = &[
    ("tamper", "no cycle for b, c"),
    // In namespaces its first line is pid 1's command line, `course
    // __sandbox-keeper`, and no more (checked below); with uid separation
    // alone, the grader's command line, which is no schedule line either.
    ("secret", "found '__sandbox-keeper'|expected 'LABEL CYCLE'"),
    // Its writes to /proc/*/fd/1 that land in its own output (all it
    // can reach) are quoted back as its first line, where /proc lets it.
    ("sibling", "no cycle for b, c|found 'forged-row"),
    ("reference", "failed: it exited with status 1"),
    ("alloc", "failed: it exited with status 1"),
    ("forkbomb", "failed: it exited with status"),
    ("network", "failed: it exited with status 1"),
    ("stubborn", "gave no answer within 2 s"),
];

#[test]
fn every_attack_on_a_class_gets_its_zero_and_changes_nothing() {
    let _one = serial();
    let tmp = common::tempdir();
    let d = tmp.path();
    // The grader's own files (the secret, the gradebook, the class) in a
    // folder others cannot enter, as uid separation requires.
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700)).unwrap();
    for (mode, flags, exe) in modes(d) {
        let run = d.join(mode);
        let class = run.join("class");
        let victim = class.join("b-victim");
        let (l, port) = listener();
        let t = Targets {
            results: run.join("results.json"),
            sibling: victim.clone(),
            secret_file: run.join("secret"),
            course: exe.clone(),
            port,
        };
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(&t.results, "{\"score\": 0}\n").unwrap();
        std::fs::write(&t.secret_file, SECRET).unwrap();
        for (name, _) in CLASS {
            place(name, &class.join(name).join("sched.sh"), &t);
            place("sequential", &class.join(name).join("sequential.sh"), &t);
        }
        place("sequential", &victim.join("sched.sh"), &t);
        let victim_script = std::fs::read(victim.join("sched.sh")).unwrap();
        let start = Instant::now();
        let o = Course::new([
            "grade",
            "--lab",
            "ch23-sched",
            "--run",
            "sh sched.sh {input}",
        ])
        .binary(&exe)
        .args(&flags)
        .args([
            "--hidden",
            "1",
            "--time-limit",
            "2",
            "--cpu-limit",
            "30",
            "--format",
            "json",
        ])
        .args(["--secret-seed-file".as_ref(), t.secret_file.as_os_str()])
        .env("COURSE_SECRET_SEED", SECRET)
        .arg_path(&class)
        .code(1)
        .timeout(300)
        .run();
        eprintln!(
            "{mode}: {} students in {:?}",
            CLASS.len() + 1,
            start.elapsed()
        );
        let now = leftovers();
        assert!(now.is_empty(), "{mode}: alive after the run: {now:?}");
        assert!(
            !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
            "{mode}: the secret leaked"
        );
        // A row written into the grader's own standard output would stand on a
        // line of its own (and break the JSON); the program's own output, quoted
        // back in its feedback, is no forgery.
        assert!(
            !o.stdout.lines().any(|l| l.starts_with("forged-row")),
            "{mode}: forged rows in the report"
        );
        let j = o.json();
        for (name, why) in CLASS {
            let s = common::student(&j, name);
            assert_eq!(s["score"], 0.0, "{mode} {name}: {s}");
            let m = first_message(input(s, "running"));
            assert!(why.split('|').any(|w| m.contains(w)), "{mode} {name}: {m}");
        }
        if mode == "namespaces" {
            let m = first_message(input(common::student(&j, "secret"), "running"));
            assert!(
                m.starts_with("line 1: course: ") && m.ends_with("found '__sandbox-keeper'"),
                "{m}"
            );
        }
        let v = common::student(&j, "b-victim");
        for i in v["inputs"].as_array().unwrap() {
            assert_eq!(i["valid"], true, "{mode}: the victim lost {i}");
        }
        // What the detached daemon would have done by now, it did not.
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(
            std::fs::read_to_string(&t.results).unwrap(),
            "{\"score\": 0}\n",
            "{mode}"
        );
        assert_eq!(
            std::fs::read(victim.join("sched.sh")).unwrap(),
            victim_script,
            "{mode}"
        );
        assert!(leftovers().is_empty(), "{mode}: {:?}", leftovers());
        assert_eq!(
            accepted(&l),
            0,
            "{mode}: a program reached the grader's loopback"
        );
        if mode == "uid" {
            for uid in TEST_UID..TEST_UID + 64 {
                assert!(no_process_of(uid), "{mode}: uid {uid} has processes");
            }
        }
    }
}

fn no_process_of(uid: u32) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().all(|e| {
        let Ok(s) = std::fs::read_to_string(e.path().join("status")) else {
            return true;
        };
        let owner = s
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|l| l.split_whitespace().next()?.parse::<u32>().ok());
        let zombie = s
            .lines()
            .any(|l| l.starts_with("State:") && l.contains('Z'));
        owner != Some(uid) || zombie
    })
}

/// A stand-in for Gradescope's `/autograder` as `setup.sh` leaves it: the
/// bundle in `source/` (only root may enter), the secret in it, `results/`
/// root's, the upload in `submission/`.
fn gradescope_root(dir: &Path) -> (PathBuf, PathBuf) {
    let root = dir.to_path_buf();
    let source = root.join("source");
    for d in [
        &root,
        &source,
        &root.join("submission"),
        &root.join("results"),
    ] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o700)).unwrap();
    let exe = source.join("course");
    std::fs::copy(env!("CARGO_BIN_EXE_course"), &exe).unwrap();
    let secret = source.join("secret-seed");
    std::fs::write(&secret, SECRET).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    (exe, secret)
}

#[test]
fn every_attack_on_the_autograder_gets_its_zero_and_leaves_the_score_alone() {
    let _one = serial();
    let tmp = common::tempdir();
    let d = tmp.path();
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut modes = Vec::new();
    if Course::new(["grade", "--check-sandbox", "--format", "json"])
        .any_code()
        .run()
        .json()["namespaces"]
        .is_null()
    {
        modes.push(("namespaces", "namespaces"));
    } else {
        common::note("SKIP the autograder with namespaces: the kernel refuses them here");
    }
    if is_root() {
        modes.push(("uid", "uid"));
    } else {
        common::note("SKIP the autograder with uid separation: not root");
    }
    let attacks = [
        "tamper",
        "secret",
        "reference",
        "alloc",
        "forkbomb",
        "network",
    ];
    for (mode, flag) in modes {
        for attack in attacks {
            let root = d.join(format!("{mode}-{attack}"));
            let (exe, secret) = gradescope_root(&root);
            let (l, port) = listener();
            let t = Targets {
                results: root.join("results/results.json"),
                sibling: root.join("source"),
                secret_file: secret.clone(),
                course: exe.clone(),
                port,
            };
            let sub = root.join("submission");
            place(attack, &sub.join("sched.sh"), &t);
            place("sequential", &sub.join("sequential.sh"), &t);
            let o = Course::new(["autograder", "run", "--lab", "ch23-sched"])
                .binary(&exe)
                .args([
                    "--run",
                    "sh sched.sh {input}",
                    "--hidden",
                    "1",
                    "--time-limit",
                    "3",
                ])
                .args(["--sandbox", flag, "--sandbox-uid", TEST_UID_ARG])
                .args(["--secret-seed-file".as_ref(), secret.as_os_str()])
                .args(["--root".as_ref(), root.as_os_str()])
                .timeout(120)
                .run();
            assert!(leftovers().is_empty(), "{mode} {attack}: {:?}", leftovers());
            std::thread::sleep(Duration::from_millis(1300));
            let text = std::fs::read_to_string(&t.results).unwrap();
            assert!(
                !text.contains(SECRET) && !o.stdout.contains(SECRET),
                "{mode} {attack}: the secret leaked"
            );
            let r: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(r["score"], 0.0, "{mode} {attack}: {r}");
            let tests = r["tests"].as_array().unwrap();
            assert_eq!(tests.len(), 9, "{mode} {attack}: {r}");
            for t in tests {
                assert_eq!(t["score"], 0.0, "{mode} {attack}: {t}");
            }
            assert!(leftovers().is_empty(), "{mode} {attack}: {:?}", leftovers());
            assert_eq!(accepted(&l), 0, "{mode} {attack}");
            if mode == "uid" {
                assert!(no_process_of(TEST_UID), "{mode} {attack}");
            }
        }
    }
}

#[test]
fn a_machine_with_no_sandbox_stops_before_grading_anyone() {
    if !std::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "true"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        common::note("SKIP the refusal path: unshare(1) cannot make a user namespace here");
        return;
    }
    let tmp = common::tempdir();
    let class = tmp.path().join("class");
    let t = Targets::unused(tmp.path());
    place("sequential", &class.join("amy/sched.sh"), &t);
    // A user namespace that maps only root, where no further namespace may
    // be made: as in a container that forbids both.
    let wrap = [
        "unshare",
        "--user",
        "--map-root-user",
        "sh",
        "-c",
        "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" \"$@\"",
    ];
    let o = Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "sh sched.sh {input}",
    ])
    .wrapped(wrap)
    .arg_path(&class)
    .code(2)
    .stderr_has("no sandbox is available")
    .stderr_has("max_user_namespaces")
    .stderr_has("--unsandboxed")
    .run();
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    let check = Course::new(["grade", "--check-sandbox"])
        .wrapped(wrap)
        .code(2)
        .run();
    assert!(
        check
            .stdout
            .contains("--run will stop before grading anyone"),
        "{}",
        check.stdout
    );
    // --unsandboxed runs them, and the report says so first.
    let o = Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "sh sched.sh {input}",
    ])
    .wrapped(wrap)
    .arg("--unsandboxed")
    .arg_path(&class)
    .code(0)
    .run();
    assert!(o.stdout.starts_with("WARNING: unsandboxed"), "{}", o.stdout);
}

#[test]
fn relative_paths_work_and_a_program_nobody_can_start_is_said_once() {
    let tmp = common::tempdir();
    let d = tmp.path();
    let Some((flags, exe)) = some_mode(d) else {
        return;
    };
    let t = Targets::unused(d);
    for s in ["amy", "bob"] {
        place(
            "sequential",
            &d.join("submissions").join(s).join("sched"),
            &t,
        );
        let p = d.join("submissions").join(s).join("sched");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::create_dir_all(d.join("submissions/cy")).unwrap();
    let j = Course::new(["grade", "--lab", "ch23-sched", "--run", "./sched {input}"])
        .binary(&exe)
        .args(&flags)
        .args(["submissions", "--format", "json"])
        .current_dir(d)
        .code(1)
        .run()
        .json();
    for s in ["amy", "bob"] {
        for i in common::student(&j, s)["inputs"].as_array().unwrap() {
            assert_eq!(i["valid"], true, "{s}: {i}");
        }
    }
    let cy = first_message(input(common::student(&j, "cy"), "running"));
    assert!(cy.contains("there is no ./sched in the submission"), "{cy}");
    // The same from inside a student's folder.
    Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "./sched {input}",
        ".",
    ])
    .binary(&exe)
    .args(&flags)
    .current_dir(d.join("submissions/amy"))
    .code(0)
    .run();
    // A program that is nowhere: the grader's error, said once, nobody graded.
    let o = Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "no-such-interpreter-x sched",
    ])
    .binary(&exe)
    .args(&flags)
    .arg("submissions")
    .current_dir(d)
    .code(2)
    .stderr_has("no-such-interpreter-x is not in the sandbox's PATH")
    .run();
    assert!(o.stdout.is_empty());
    assert_eq!(
        o.stderr.matches("no-such-interpreter-x").count(),
        1,
        "{}",
        o.stderr
    );
}

#[test]
fn parallel_runs_report_in_the_serial_order() {
    let tmp = common::tempdir();
    let d = tmp.path();
    let Some((flags, exe)) = some_mode(d) else {
        return;
    };
    let t = Targets::unused(d);
    for (i, s) in ["e", "d", "c", "b", "a", "f"].iter().enumerate() {
        let script = if i % 2 == 0 { "sequential" } else { "garbage" };
        place(script, &d.join("class").join(s).join("sched.sh"), &t);
    }
    let run = |jobs: &str| {
        Course::new([
            "grade",
            "--lab",
            "ch23-sched",
            "--run",
            "sh sched.sh {input}",
        ])
        .binary(&exe)
        .args(&flags)
        .args(["--jobs", jobs, "--format", "csv-long"])
        .arg_path(d.join("class"))
        .code(1)
        .run()
        .stdout
    };
    let serial = run("1");
    assert_eq!(serial, run("4"));
    assert!(serial.lines().nth(1).unwrap().starts_with("a,"), "{serial}");
}

#[test]
fn limits_are_checked_and_zero_output_is_refused() {
    let tmp = common::tempdir();
    Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "true",
        "--output-limit",
        "0",
    ])
    .arg_path(tmp.path())
    .code(2)
    .stderr_has("--output-limit: between 1 and")
    .run();
    Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "true",
        "--process-limit",
        "0",
    ])
    .arg_path(tmp.path())
    .code(2)
    .stderr_has("--process-limit")
    .run();
    Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "true",
        "--hidden",
        "1",
    ])
    .env("COURSE_SECRET_SEED", "  ")
    .arg_path(tmp.path())
    .code(2)
    .stderr_has("the secret seed is empty")
    .run();
    let help = Course::new(["grade", "--help"]).run().stdout;
    for flag in [
        "--memory-limit",
        "--process-limit",
        "--cpu-limit",
        "--file-limit",
        "--jobs",
        "--unsandboxed",
        "--check-sandbox",
    ] {
        assert!(help.contains(flag), "{flag} is not in --help");
    }
    assert!(
        help.contains("[default: 512]") && help.contains("[default: 64]"),
        "{help}"
    );
}
