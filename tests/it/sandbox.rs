//! The sandbox of `grade --run` and of the autograder against hostile
//! students (`tests/data/schedulers/`): each attack gets its zero with its
//! reason, and nothing it aimed at (another student's grade and files, the
//! gradebook, the secret, the results file) changes or leaks, and no
//! process it started is alive afterwards, and nothing it made is left
//! (files of its uid in the shared folders, System V IPC).
//!
//! Every test runs with namespaces (when the kernel allows them) and, as
//! root, with uid separation (`--sandbox uid`) with Landlock and without
//! it (`tests/data/no-landlock.py`): CI runs this module as root and again
//! as an unprivileged user. What cannot run here says SKIP on standard
//! error (and fails under CI when CI should have provided it).

use std::io::Read;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{self, Course, first_message, input};

const SCHEDULERS: &str = "tests/data/schedulers";
const SECRET: &str = "hostile-secret-7f3a9c21";
/// What a classmate's folder holds (in `mark.txt`) for `peek` to find.
const MARK: &str = "classmate-mark-5d81e0b4";
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
            .replace("@CHECKOUT@", &common::root().to_string_lossy())
            .replace("@MARK@", MARK)
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

/// One way the tests run the grader: its sandbox flags, the `course` to
/// run, and a wrapper around it (uid separation without Landlock).
#[derive(Clone)]
struct Mode {
    name: &'static str,
    flags: Vec<String>,
    exe: PathBuf,
    wrap: Option<Vec<String>>,
    /// The `--jobs` of a class: 2, or 1 where runs at the same time could
    /// reach each other (no Landlock), as the preflight demands.
    jobs: &'static str,
}

impl Mode {
    fn course<I, S>(&self, args: I) -> Course
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let c = Course::new(args).binary(&self.exe).args(&self.flags);
        match &self.wrap {
            Some(w) => c.wrapped(w),
            None => c,
        }
    }
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The sandbox modes to try here: namespaces where they work; as root,
/// uid separation with Landlock, and without it (a seccomp filter that
/// refuses Landlock and unshare, as an old kernel or a strict container
/// would, in a mount namespace where every copy of the reference the
/// preflight finds on this machine is covered: the preflight's refusal
/// of them is checked first). Each with the `course` to run.
fn modes(dir: &Path) -> Vec<Mode> {
    let mut out = Vec::new();
    let check = Course::new(["grade", "--check-sandbox", "--format", "json"])
        .any_code()
        .run()
        .json();
    if check["namespaces"].is_null() {
        out.push(Mode {
            name: "namespaces",
            flags: strs(&["--sandbox", "namespaces", "--sandbox-uid", TEST_UID_ARG]),
            exe: PathBuf::from(env!("CARGO_BIN_EXE_course")),
            wrap: None,
            jobs: "2",
        });
    } else {
        common::note(format!("SKIP namespace sandbox: {}", check["namespaces"]));
    }
    if !is_root() {
        common::note("SKIP uid separation: the tests do not run as root");
        return out;
    }
    let exe = private_course(dir);
    let uid = strs(&["--sandbox", "uid", "--sandbox-uid", TEST_UID_ARG]);
    if check["landlock"].as_u64().unwrap_or(0) > 0 {
        out.push(Mode {
            name: "uid",
            flags: uid.clone(),
            exe: exe.clone(),
            wrap: None,
            jobs: "2",
        });
    } else {
        common::missing("uid separation with Landlock: this kernel has no Landlock");
    }
    match without_landlock(dir, &exe) {
        Ok(wrap) => out.push(Mode {
            name: "uid-no-landlock",
            flags: uid,
            exe,
            wrap: Some(wrap),
            jobs: "1",
        }),
        Err(why) => common::missing(format!("uid separation without Landlock: {why}")),
    }
    out
}

/// The wrapper that runs `course` where Landlock and unshare are refused,
/// with the machine's readable copies of the reference covered; first
/// checks that, uncovered, they make the preflight refuse, naming them.
fn without_landlock(dir: &Path, exe: &Path) -> Result<Vec<String>, String> {
    let filter = common::root().join("tests/data/no-landlock.py");
    let works = |c: &mut std::process::Command| c.output().is_ok_and(|o| o.status.success());
    if !works(
        std::process::Command::new("python3")
            .arg(&filter)
            .arg("true"),
    ) {
        return Err("python3 cannot install the seccomp filter here".into());
    }
    if !works(std::process::Command::new("unshare").args(["-m", "true"])) {
        return Err("unshare(1) cannot make a mount namespace here".into());
    }
    let plain = vec!["python3".to_string(), filter.to_string_lossy().into_owned()];
    let check = Course::new(["grade", "--check-sandbox", "--format", "json"])
        .binary(exe)
        .wrapped(&plain)
        .any_code()
        .run()
        .json();
    assert_eq!(check["landlock"], 0, "the filter left Landlock: {check}");
    let exposed: Vec<String> = check["exposed"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if let Some(first) = exposed.first() {
        let why = check["uid"].as_str().unwrap_or("");
        assert!(
            why.contains("could read or run the reference") && why.contains(first.as_str()),
            "{why}"
        );
    }
    // Other tests build `course` programs into the checkout's target
    // folder while this one runs (the static bundle's, the web page's):
    // it is covered as a whole, or a program made after the preflight
    // looked would be readable (the preflight checks the machine once, at
    // the start of a grading run).
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target"));
    let mut covered = vec![target.to_string_lossy().into_owned()];
    covered.extend(exposed.iter().cloned());
    let empty = dir.join("covered");
    std::fs::write(&empty, "").unwrap();
    std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o600)).unwrap();
    // A path inside one covered before is gone: its mount fails, and the
    // check below tells whether anything stayed uncovered.
    let mut script = String::new();
    for p in &covered {
        if Path::new(p).is_dir() {
            script.push_str(&format!(
                "mount -t tmpfs -o mode=0700,size=16k none '{p}' 2>/dev/null\n"
            ));
        } else {
            script.push_str(&format!(
                "mount --bind '{}' '{p}' 2>/dev/null\n",
                empty.display()
            ));
        }
    }
    script.push_str(&format!("exec python3 '{}' \"$@\"\n", filter.display()));
    let hide = dir.join("cover.sh");
    std::fs::write(&hide, script).unwrap();
    let wrap = strs(&["unshare", "-m", "--propagation", "private", "sh"])
        .into_iter()
        .chain([hide.to_string_lossy().into_owned()])
        .collect::<Vec<_>>();
    let check = Course::new(["grade", "--check-sandbox", "--format", "json"])
        .binary(exe)
        .wrapped(&wrap)
        .any_code()
        .run()
        .json();
    if !check["uid"].is_null() {
        return Err(format!(
            "uid separation is refused even with the reference covered: {}",
            check["uid"]
        ));
    }
    // Runs at the same time could meet in /tmp: --jobs 2 is refused
    // unless asked for knowingly.
    let class = dir.join("jobs-check");
    for s in ["amy", "bob"] {
        place(
            "sequential",
            &class.join(s).join("sched.sh"),
            &Targets::unused(dir),
        );
    }
    let o = Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--run",
        "sh sched.sh {input}",
    ])
    .binary(exe)
    .wrapped(&wrap)
    .args([
        "--sandbox",
        "uid",
        "--sandbox-uid",
        TEST_UID_ARG,
        "--jobs",
        "2",
    ])
    .arg_path(&class)
    .code(2)
    .stderr_has("--sandbox-open-parallel")
    .stderr_has("/tmp")
    .run();
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    Ok(wrap)
}

/// The first sandbox mode that works here, for the tests that need one
/// and not each: `dir` is closed to others, as uid separation requires.
/// None (said) when there is none.
fn some_mode(dir: &Path) -> Option<(Vec<String>, PathBuf)> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    // The default uids: these tests run beside the attack tests, whose
    // range must hold their own programs only.
    let m = modes(dir).into_iter().next().map(|m| {
        let flags = m
            .flags
            .iter()
            .take_while(|w| *w != "--sandbox-uid")
            .cloned()
            .collect();
        (flags, m.exe)
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

/// The hostile students of a class: folder, program (a script of
/// `tests/data/schedulers/`), and the reasons one of which each one's zero
/// must give (on the input `running`). The folders sort in the order they
/// run, so that with `--jobs 2` neighbours run side by side.
const CLASS: &[(&str, &str, &str)] = &[
    ("alloc", "alloc", "failed: it exited with status 1"),
    // Finding 3: the sender and the receiver run at the same time.
    (
        "chan-a-send",
        "chan-send",
        "failed: it exited with status 1",
    ),
    (
        "chan-b-recv",
        "chan-recv",
        "failed: it exited with status 1",
    ),
    // Finding 1: any readable `course`, checkout or solutions/.
    ("checkout", "checkout", "failed: it exited with status 1"),
    // Finding 10: the command lines it reads come back without paths.
    ("cmdline", "cmdline", "line 1"),
    // Finding 11: a line per input line; counts are not shown.
    ("count", "count", "zz"),
    // Finding 4.
    (
        "fill",
        "fill",
        "failed: it exited with status|wrote more than",
    ),
    ("forkbomb", "forkbomb", "failed: it exited with status"),
    // Finding 8.
    (
        "inodes",
        "inodes",
        "failed: it exited with status|wrote more than|gave no answer within 2 s",
    ),
    ("network", "network", "failed: it exited with status 1"),
    // Finding 2: reads a classmate's folder while it runs (`peek-b`'s).
    ("peek-a", "peek", "failed: it exited with status 1"),
    ("reference", "reference", "failed: it exited with status 1"),
    // In namespaces its first line is pid 1's command line, `course
    // __sandbox-keeper`, and no more (checked below); with uid separation
    // alone, the grader's command line, which is no schedule line either.
    (
        "secret",
        "secret",
        "found '__sandbox-keeper'|expected 'LABEL CYCLE'|line 1",
    ),
    // Its writes to /proc/*/fd/1 that land in its own output (all it
    // can reach) are quoted back as its first line, where /proc lets it.
    ("sibling", "sibling", "no cycle for b, c|found 'forged-row"),
    // Finding 5: makes the staging names it guesses.
    ("squat", "squat", "failed: it exited with status 1"),
    ("stubborn", "stubborn", "gave no answer within 2 s"),
    ("tamper", "tamper", "no cycle for b, c"),
];

/// The honest students beside them, each graded valid on every input:
/// the victim of `tamper` and `sibling`, a slow one `peek-a` runs beside
/// (its folder holds the mark), and one whose folder holds 40 MiB of data
/// (finding 9: more than the run's disk limit, less than the copy limit).
const HONEST: &[(&str, &str)] = &[
    ("b-victim", "sequential"),
    ("big", "big"),
    ("peek-b", "slow"),
];

/// What the uids of the tests' runs own in the shared writable folders
/// and in System V IPC.
fn residue_of_test_uids() -> Vec<String> {
    let mut out = Vec::new();
    for d in ["/tmp", "/var/tmp", "/dev/shm", "/run/lock"] {
        let Ok(entries) = std::fs::read_dir(d) else {
            continue;
        };
        for e in entries.flatten() {
            if let Ok(m) = std::fs::symlink_metadata(e.path())
                && (TEST_UID..TEST_UID + 64).contains(&std::os::unix::fs::MetadataExt::uid(&m))
            {
                out.push(e.path().display().to_string());
            }
        }
    }
    for f in ["shm", "sem", "msg"] {
        let Ok(text) = std::fs::read_to_string(format!("/proc/sysvipc/{f}")) else {
            continue;
        };
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let col = head.iter().position(|c| *c == "uid");
        for l in lines {
            let w: Vec<&str> = l.split_whitespace().collect();
            if let Some(u) = col
                .and_then(|c| w.get(c))
                .and_then(|u| u.parse::<u32>().ok())
                && (TEST_UID..TEST_UID + 64).contains(&u)
            {
                out.push(format!("System V {f}: {l}"));
            }
        }
    }
    out
}

#[test]
fn every_attack_on_a_class_gets_its_zero_and_changes_nothing() {
    let _one = serial();
    let tmp = common::tempdir();
    let d = tmp.path();
    // The grader's own files (the secret, the gradebook, the class) in a
    // folder others cannot enter, as uid separation requires.
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700)).unwrap();
    for mode in modes(d) {
        let name = mode.name;
        let run = d.join(name);
        let class = run.join("class");
        let victim = class.join("b-victim");
        let (l, port) = listener();
        let t = Targets {
            results: run.join("results.json"),
            sibling: victim.clone(),
            secret_file: run.join("secret"),
            course: mode.exe.clone(),
            port,
        };
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(&t.results, "{\"score\": 0}\n").unwrap();
        std::fs::write(&t.secret_file, SECRET).unwrap();
        for (folder, script, _) in CLASS {
            place(script, &class.join(folder).join("sched.sh"), &t);
            place("sequential", &class.join(folder).join("sequential.sh"), &t);
        }
        for (folder, script) in HONEST {
            let f = class.join(folder);
            place(script, &f.join("sched.sh"), &t);
            place("sequential", &f.join("sequential.sh"), &t);
            std::fs::write(f.join("mark.txt"), MARK).unwrap();
        }
        std::fs::write(class.join("big/data.bin"), vec![7u8; 40 << 20]).unwrap();
        let victim_script = std::fs::read(victim.join("sched.sh")).unwrap();
        let small = small_course(&run);
        let start = Instant::now();
        let o = mode
            .course([
                "grade",
                "--lab",
                "ch23-sched",
                "--run",
                "sh sched.sh {input}",
            ])
            .args(["--course-dir".as_ref(), small.as_os_str()])
            .args([
                "--hidden",
                "1",
                "--time-limit",
                "2",
                "--cpu-limit",
                "30",
                "--jobs",
                mode.jobs,
                "--format",
                "json",
            ])
            .args(["--secret-seed-file".as_ref(), t.secret_file.as_os_str()])
            .env("COURSE_SECRET_SEED", SECRET)
            .arg_path(&class)
            // 1: some students have mistakes; 2 would be a grading error.
            .code(1)
            .timeout(600)
            .run();
        eprintln!(
            "{name}: {} students in {:?}",
            CLASS.len() + HONEST.len(),
            start.elapsed()
        );
        let now = leftovers();
        assert!(now.is_empty(), "{name}: alive after the run: {now:?}");
        assert!(
            !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
            "{name}: the secret leaked"
        );
        // A row written into the grader's own standard output would stand on a
        // line of its own (and break the JSON); the program's own output, quoted
        // back in its feedback, is no forgery.
        assert!(
            !o.stdout.lines().any(|l| l.starts_with("forged-row")),
            "{name}: forged rows in the report"
        );
        let j = o.json();
        for (folder, _, why) in CLASS {
            let s = common::student(&j, folder);
            assert_eq!(s["score"], 0.0, "{name} {folder}: {s}");
            let m = first_message(input(s, "running"));
            assert!(
                why.split('|').any(|w| m.contains(w)),
                "{name} {folder}: {m}"
            );
        }
        if name == "namespaces" {
            let m = first_message(input(common::student(&j, "secret"), "running"));
            assert!(
                m.starts_with("line 1: course: ") && m.ends_with("found '__sandbox-keeper'"),
                "{m}"
            );
        }
        for (folder, _) in HONEST {
            let v = common::student(&j, folder);
            for i in v["inputs"].as_array().unwrap() {
                assert_eq!(i["valid"], true, "{name}: {folder} lost {i}");
            }
        }
        // Finding 10: what `cmdline` quotes names none of the grader's paths.
        let quoted = common::student(&j, "cmdline").to_string();
        for p in [&mode.exe, &class, &t.secret_file] {
            let p = p.to_string_lossy();
            assert!(!quoted.contains(p.as_ref()), "{name}: {p} in {quoted}");
        }
        assert!(
            !quoted.contains("course-grade-"),
            "{name}: the staging folder in {quoted}"
        );
        // Finding 11: hidden inputs name kinds, never how many.
        let hidden = common::student(&j, "count")["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["hidden"] == true)
            .map(|i| i.to_string())
            .collect::<Vec<_>>();
        assert!(!hidden.is_empty(), "{name}: no hidden input");
        for h in &hidden {
            assert!(!h.contains('×'), "{name}: a count in {h}");
        }
        // What the detached daemon would have done by now, it did not.
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(
            std::fs::read_to_string(&t.results).unwrap(),
            "{\"score\": 0}\n",
            "{name}"
        );
        assert_eq!(
            std::fs::read(victim.join("sched.sh")).unwrap(),
            victim_script,
            "{name}"
        );
        assert!(leftovers().is_empty(), "{name}: {:?}", leftovers());
        assert_eq!(
            accepted(&l),
            0,
            "{name}: a program reached the grader's loopback"
        );
        if is_root() {
            for uid in TEST_UID..TEST_UID + 64 {
                assert!(no_process_of(uid), "{name}: uid {uid} has processes");
            }
            let left = residue_of_test_uids();
            assert!(left.is_empty(), "{name}: left behind: {left:?}");
        }
    }
}

/// A course folder (`--course-dir`) whose lab `ch23-sched` has two of the
/// shipped inputs, `running` and `divide`: with `--hidden 1`, three runs a
/// student. What the attacks test is isolation, which does not depend on
/// how many inputs there are, and the full lab would run each program that
/// spins to its time limit nine times.
fn small_course(dir: &Path) -> PathBuf {
    let course = dir.join("course");
    let lab = course.join("labs/ch23-sched");
    std::fs::create_dir_all(lab.join("inputs")).unwrap();
    std::fs::create_dir_all(lab.join("machines")).unwrap();
    std::fs::write(
        lab.join("lab.yaml"),
        "name: ch23-sched\nmachine: toy\npoints_per_input: 10\ninputs: [running, divide]\n",
    )
    .unwrap();
    let shipped = common::root().join("labs/ch23-sched");
    for f in [
        "inputs/running.txt",
        "inputs/divide.txt",
        "machines/toy.yaml",
    ] {
        std::fs::copy(shipped.join(f), lab.join(f)).unwrap();
    }
    course
}

/// The runs of a student on [`small_course`]'s lab.
const SMALL_RUNS: usize = 3;

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
    let attacks = [
        "tamper",
        "secret",
        "reference",
        "checkout",
        "alloc",
        "forkbomb",
        "network",
        "fill",
        "cmdline",
        "squat",
        "count",
    ];
    let private = d.join("private");
    std::fs::create_dir_all(&private).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    // What each run left to check once its detached helpers, if any, had
    // time to act: one wait for all the runs of a mode, not one a run.
    struct Ran {
        what: String,
        results: PathBuf,
        listener: std::net::TcpListener,
        stdout: String,
        stderr: String,
        paths: [PathBuf; 2],
    }
    for mode in modes(&private) {
        let name = mode.name;
        let mut ran = Vec::new();
        for attack in attacks {
            let root = d.join(format!("{name}-{attack}"));
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
            let bundle = Mode {
                exe: exe.clone(),
                ..mode.clone()
            };
            let small = small_course(&private.join(format!("{name}-{attack}")));
            let o = bundle
                .course(["autograder", "run", "--lab", "ch23-sched"])
                .args(["--course-dir".as_ref(), small.as_os_str()])
                .args([
                    "--run",
                    "sh sched.sh {input}",
                    "--hidden",
                    "1",
                    "--time-limit",
                    "3",
                ])
                .args(["--secret-seed-file".as_ref(), secret.as_os_str()])
                .args(["--root".as_ref(), root.as_os_str()])
                .timeout(120)
                .run();
            // Nothing of the run may outlive it: checked before the next
            // run, whose clean-up could hide what this one left.
            assert!(leftovers().is_empty(), "{name} {attack}: {:?}", leftovers());
            if is_root() {
                assert!(no_process_of(TEST_UID), "{name} {attack}");
                let left = residue_of_test_uids();
                assert!(left.is_empty(), "{name} {attack}: left behind: {left:?}");
            }
            ran.push(Ran {
                what: format!("{name} {attack}"),
                results: t.results,
                listener: l,
                stdout: o.stdout,
                stderr: o.stderr,
                paths: [exe, secret],
            });
        }
        std::thread::sleep(Duration::from_millis(1300));
        for r in &ran {
            let what = &r.what;
            let text = std::fs::read_to_string(&r.results).unwrap();
            assert!(
                !text.contains(SECRET) && !r.stdout.contains(SECRET),
                "{what}: the secret leaked"
            );
            for p in &r.paths {
                let p = p.to_string_lossy();
                assert!(!text.contains(p.as_ref()), "{what}: {p} in {text}");
            }
            let j: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(j["score"], 0.0, "{what}: {j}");
            let tests = j["tests"].as_array().unwrap();
            assert_eq!(
                tests.len(),
                SMALL_RUNS,
                "{what}: {j}\n--- stdout:\n{}\n--- stderr:\n{}",
                r.stdout,
                r.stderr
            );
            for t in tests {
                assert_eq!(t["score"], 0.0, "{what}: {t}");
            }
            assert_eq!(accepted(&r.listener), 0, "{what}");
        }
        assert!(leftovers().is_empty(), "{name}: {:?}", leftovers());
        if is_root() {
            assert!(no_process_of(TEST_UID), "{name}");
        }
    }
}

/// Finding 7: a program that spins 16 processes takes one run's share of
/// the CPU, not its neighbour's: an honest program that needs 1 s of CPU,
/// graded beside it with `--jobs 2`, answers within its 3 s every time.
#[test]
fn an_honest_neighbour_of_a_spinning_program_is_graded_valid() {
    let _one = serial();
    let tmp = common::tempdir();
    let d = tmp.path();
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700)).unwrap();
    let t = Targets::unused(d);
    for mode in modes(d) {
        let class = d.join(mode.name).join("class");
        for (folder, script) in [("a-spin", "spin"), ("b-honest", "cpu-honest")] {
            place(script, &class.join(folder).join("sched.sh"), &t);
            place("sequential", &class.join(folder).join("sequential.sh"), &t);
        }
        let j = mode
            .course([
                "grade",
                "--lab",
                "ch23-sched",
                "--run",
                "sh sched.sh {input}",
            ])
            .args([
                "--course-dir".as_ref(),
                small_course(&d.join(mode.name)).as_os_str(),
            ])
            .args(["--time-limit", "3", "--jobs", "2", "--format", "json"])
            .args(if mode.jobs == "1" {
                &["--sandbox-open-parallel"][..]
            } else {
                &[]
            })
            .arg_path(&class)
            .code(1)
            .timeout(300)
            .run()
            .json();
        let honest = common::student(&j, "b-honest");
        for i in honest["inputs"].as_array().unwrap() {
            assert_eq!(
                i["valid"], true,
                "{}: the honest neighbour lost {i}",
                mode.name
            );
        }
        let m = first_message(input(common::student(&j, "a-spin"), "running"));
        assert!(
            m.contains("failed: it exited with status 1"),
            "{}: {m}",
            mode.name
        );
        assert!(leftovers().is_empty());
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

#[test]
fn the_sandbox_check_reports_each_promise_mode_by_mode() {
    let j = Course::new(["grade", "--check-sandbox", "--format", "json"])
        .any_code()
        .run()
        .json();
    let rows = j["guarantees"].as_array().unwrap();
    assert!(rows.len() >= 9, "{j}");
    for r in rows {
        assert!(r["what"].as_str().is_some_and(|w| !w.is_empty()), "{r}");
        for mode in ["namespaces", "uid"] {
            // null: it holds; else why not.
            assert!(r[mode].is_null() || r[mode].is_string(), "{r}");
        }
    }
    assert!(j["landlock"].is_u64(), "{j}");
    if j["namespaces"].is_null() {
        let open: Vec<_> = rows
            .iter()
            .filter(|r| {
                !r["namespaces"].is_null() && !r["what"].as_str().unwrap_or("").contains("CPU")
            })
            .collect();
        assert!(open.is_empty(), "namespaces keep every promise: {open:?}");
    }
    if !j["uid"].is_null() {
        // A mode that does not work keeps no promise.
        assert!(rows.iter().all(|r| !r["uid"].is_null()), "{j}");
    }
    let text = Course::new(["grade", "--check-sandbox"])
        .any_code()
        .run()
        .stdout;
    assert!(text.contains("promises, mode by mode"), "{text}");
    assert!(text.contains("Landlock: "), "{text}");
}
