//! A class run on what students really upload (issue 12, points 1–9): links
//! and FIFOs, hidden folders, a stray `.sched` at the top, names that are
//! not UTF-8, a megabyte of junk, a file the grader cannot read, near
//! misses, an operation labelled `ii`, the grader's own paths, formula
//! cells, and an over-size submission refused before any scheduling.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::common::{self, Course, student};

const RUNNING: &str = "labs/ch23-sched/inputs/running.txt";

/// `course grade --lab ch23-sched DIR --format FORMAT [extra]`, killed (and
/// failed) if it runs for 30 seconds.
fn grade(dir: &Path, format: &str, extra: &[&str]) -> common::Output {
    Course::new(["grade", "--lab", "ch23-sched", "--format", format])
        .args(extra)
        .arg_path(dir)
        .timeout(30)
        .any_code()
        .run()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// The first message about a student's first input (running.sched).
fn running_message(st: &serde_json::Value) -> String {
    common::first_message(&st["inputs"][0])
}

#[test]
fn links_and_fifos_are_never_followed_nor_opened() {
    let tmp = common::tempdir();
    let d = tmp.path();
    common::references(&d.join("alice"));
    // bob links to a file outside, carol to alice's file, dave's folder is
    // a link to alice's, erin's file is a FIFO.
    std::fs::create_dir_all(d.join("bob")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", d.join("bob/running.sched")).unwrap();
    std::fs::create_dir_all(d.join("carol")).unwrap();
    std::os::unix::fs::symlink(d.join("alice/running.sched"), d.join("carol/running.sched"))
        .unwrap();
    std::os::unix::fs::symlink(d.join("alice"), d.join("dave")).unwrap();
    std::fs::create_dir_all(d.join("erin")).unwrap();
    mkfifo(&d.join("erin/running.sched"));
    for format in ["text", "csv", "csv-long", "gradescope"] {
        let o = grade(d, format, &[]);
        assert_eq!(o.code, 1, "{format}: {}", o.stderr);
        assert!(!o.stdout.contains("root:"), "{format}: /etc/passwd leaked");
    }
    let j = grade(d, "json", &[]).json();
    assert_eq!(student(&j, "alice")["score"], 80.0);
    for st in ["bob", "carol"] {
        let s = student(&j, st);
        assert_eq!(s["inputs"][0]["score"], 0.0, "{st}");
        assert_eq!(
            running_message(s),
            "running.sched: a symbolic link is not a submission",
            "{st}"
        );
    }
    let dave = student(&j, "dave");
    assert_eq!(dave["score"], 0.0);
    assert!(
        running_message(dave).contains("dave is a symbolic link"),
        "{dave}"
    );
    let erin = student(&j, "erin");
    assert_eq!(
        running_message(erin),
        "running.sched: a FIFO (named pipe) is not a submission"
    );
}

#[test]
fn sockets_and_devices_are_not_submissions() {
    let tmp = common::tempdir();
    let d = tmp.path();
    common::references(&d.join("alice"));
    std::fs::create_dir_all(d.join("gina")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(d.join("gina/running.sched")).unwrap();
    // A character device (1, 3), as /dev/null; only root may make one.
    std::fs::create_dir_all(d.join("hal")).unwrap();
    let dev = d.join("hal/running.sched");
    let c = std::ffi::CString::new(dev.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mknod keeps no pointer.
    let made = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o644, libc::makedev(1, 3)) } == 0;
    let j = grade(d, "json", &[]).json();
    assert_eq!(student(&j, "alice")["score"], 80.0);
    assert_eq!(
        running_message(student(&j, "gina")),
        "running.sched: a socket is not a submission"
    );
    if made {
        assert_eq!(
            running_message(student(&j, "hal")),
            "running.sched: a device is not a submission"
        );
    } else {
        common::note("SKIPPED: the device case (mknod needs root)");
    }
}

#[test]
fn hidden_entries_are_not_students_and_a_stray_sched_is_an_error() {
    let tmp = common::tempdir();
    let d = tmp.path();
    common::references(&d.join("alice"));
    common::references(&d.join(".git"));
    common::references(&d.join("__MACOSX"));
    std::fs::write(d.join("alice/._running.sched"), [0u8, 5, 22, 7]).unwrap();
    let j = grade(d, "json", &[]).json();
    let names: Vec<&str> = j["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["student"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alice"]);
    std::fs::copy(d.join("alice/running.sched"), d.join("running.sched")).unwrap();
    let o = grade(d, "text", &[]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("also running.sched at its top") && o.stderr.contains("--class"),
        "{}",
        o.stderr
    );
    let o = grade(d, "text", &["--class"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.starts_with("== alice: 80/80"), "{}", o.stdout);
    assert!(
        o.stderr
            .contains("note: ignored at the top of the class folder")
    );
    // --student grades the folder as one student, whatever it holds.
    let o = grade(d, "text", &["--student"]);
    assert!(o.stdout.contains("running: valid"), "{}", o.stdout);
}

#[test]
fn names_that_are_not_utf8_stay_distinct() {
    let tmp = common::tempdir();
    let d = tmp.path();
    for name in [&b"st\xff"[..], b"st\xfe", b"=HYPERLINK(x)"] {
        common::references(&d.join(OsStr::from_bytes(name)));
    }
    let j = grade(d, "gradescope", &[]).json();
    let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["=HYPERLINK(x)", "st\\xfe", "st\\xff"]);
    let csv = grade(d, "csv", &[]).stdout;
    assert!(
        csv.contains("\nst\\xfe,") && csv.contains("\nst\\xff,"),
        "{csv}"
    );
    assert!(csv.contains("\n'=HYPERLINK(x),"), "{csv}");
    let long = grade(d, "csv-long", &[]).stdout;
    assert!(
        !long.contains("\n=") && long.contains("\n'=HYPERLINK(x),"),
        "{long}"
    );
    // A student folder whose own name is not UTF-8, given as the argument.
    let o = grade(&d.join(OsStr::from_bytes(b"st\xff")), "text", &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.starts_with("== st\\xff: 80/80"), "{}", o.stdout);
}

#[test]
fn a_megabyte_of_junk_gives_a_bounded_report() {
    let tmp = common::tempdir();
    let d = tmp.path();
    let mut junk = String::new();
    let mut i = 0u64;
    while junk.len() < (1 << 20) - 64 {
        junk.push_str(match i % 4 {
            0 => "a 1\n",
            1 => "zz 7\n",
            2 => "%%\n",
            _ => "x\n",
        });
        i += 1;
    }
    for s in 0..3 {
        std::fs::create_dir_all(d.join(format!("s{s}"))).unwrap();
        for stem in ["running", "dot"] {
            std::fs::write(d.join(format!("s{s}/{stem}.sched")), &junk).unwrap();
        }
    }
    let o = grade(d, "json", &[]);
    assert!(o.stdout.len() < 200_000, "{} bytes of JSON", o.stdout.len());
    let j = o.json();
    let r = &j["students"][0]["inputs"][0];
    let kept = r["violations"].as_array().unwrap();
    assert!(kept.len() <= 7 * 20, "{}", kept.len());
    assert!(
        r["more_violations"]["format"].as_u64().unwrap() > 10_000,
        "{r}"
    );
    let t = grade(d, "text", &[]).stdout;
    assert!(
        t.contains("more format problems not shown"),
        "{}",
        &t[..2000]
    );
    assert!(t.len() < 200_000, "{} bytes of text", t.len());
}

/// The wrapper that runs a command as `nobody`, when this test runs as
/// root and can drop to it; `None` (with a note) when it cannot.
fn as_nobody() -> Option<Vec<&'static str>> {
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        return Some(Vec::new());
    }
    let wrapper = vec![
        "setpriv",
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
    ];
    let ok = std::process::Command::new(wrapper[0])
        .args(&wrapper[1..])
        .arg(env!("CARGO_BIN_EXE_course"))
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!(
            "note: running as root without a working `setpriv` to drop to nobody: the mode-000 case is skipped (root reads every file)"
        );
        return None;
    }
    Some(wrapper)
}

#[test]
fn an_unreadable_file_is_a_grading_error_not_a_zero() {
    use std::os::unix::fs::PermissionsExt;
    let Some(wrapper) = as_nobody() else {
        return;
    };
    let tmp = common::tempdir();
    let d = tmp.path();
    common::references(&d.join("alice"));
    common::references(&d.join("bob"));
    let perm = |p: &Path, mode: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    perm(&d.join("bob/running.sched"), 0o000);
    for p in [d.to_path_buf(), d.join("alice"), d.join("bob")] {
        perm(&p, 0o755);
    }
    let run = |format: &str| {
        let mut c = Course::new(["grade", "--lab", "ch23-sched", "--format", format])
            .arg_path(d)
            .timeout(30)
            .code(2);
        if !wrapper.is_empty() {
            c = c.wrapped(&wrapper);
        }
        c.stderr_has("course: grading error: bob: running: the grader could not read running.sched (permission denied)")
            .run()
    };
    let j = run("json").json();
    assert_eq!(student(&j, "alice")["score"], 80.0, "the others are graded");
    let bob = &student(&j, "bob")["inputs"][0];
    assert!(bob["violations"].as_array().unwrap().is_empty(), "{bob}");
    assert!(
        bob["grading_error"]
            .as_str()
            .unwrap()
            .contains("permission denied")
    );
    let text = run("text").stdout;
    assert!(
        text.contains("running: NOT GRADED · grading error"),
        "{text}"
    );
    let csv = run("csv").stdout;
    assert!(
        csv.contains("\nbob,,,,80,,10,10,10,10,10,10,10,grading error on running: "),
        "{csv}"
    );
}

#[test]
fn near_misses_get_a_hint() {
    let tmp = common::tempdir();
    let d = tmp.path();
    let good =
        std::fs::read_to_string(common::root().join("solutions/ch23-sched/running.sched")).unwrap();
    let cases: Vec<(&str, &str, Vec<u8>, &str)> = vec![
        (
            "case",
            "Running.sched",
            good.clone().into_bytes(),
            "found Running.sched: names are case-sensitive",
        ),
        (
            "txt",
            "running.txt",
            good.clone().into_bytes(),
            "found running.txt: a submission is named running.sched",
        ),
        (
            "double",
            "running.sched.txt",
            good.clone().into_bytes(),
            "found running.sched.txt: a submission is named running.sched",
        ),
        (
            "nested",
            "lab23/running.sched",
            good.clone().into_bytes(),
            "found lab23/running.sched in the sub-folder lab23/",
        ),
        (
            "utf16",
            "running.sched",
            [0xff, 0xfe]
                .into_iter()
                .chain(good.encode_utf16().flat_map(u16::to_le_bytes))
                .collect(),
            "running.sched is UTF-16 text; save it as UTF-8",
        ),
    ];
    for (st, file, bytes, _) in &cases {
        let p = d.join(st).join(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let j = grade(d, "json", &["--class"]).json();
    for (st, _, _, hint) in &cases {
        let m = running_message(student(&j, st));
        assert!(m.contains(hint), "{st}: {m}");
    }
}

#[test]
fn every_spelling_of_the_ii_line_is_accepted() {
    let tmp = common::tempdir();
    let reference =
        std::fs::read_to_string(common::root().join("solutions/ch23-sched/dot.sched")).unwrap();
    for spelling in ["ii: 4", "ii:4", "II 4", "II = 4", "ii=4"] {
        let f = tmp.path().join("dot.sched");
        std::fs::write(&f, reference.replace("ii 4", spelling)).unwrap();
        Course::new(["grade", "labs/ch23-sched/inputs/dot.txt"])
            .arg_path(&f)
            .stdout_has("dot: valid")
            .run();
    }
}

#[test]
fn an_operation_labelled_ii_cannot_break_its_submission() {
    use course_content::generate::{self, GenParams};
    use course_content::lab::{LabInput, grade_input};
    use course_engine::model::{machine::Machine, program::Kind};
    let m = Machine::toy();
    for kind in [Kind::Block, Kind::Loop] {
        let params = match kind {
            Kind::Block => GenParams::block_default(),
            Kind::Loop => GenParams::loop_default(),
        };
        // 250 operations: the generator once named the 243rd one `ii`.
        let (text, p) = generate::program(&m, &params, 3, Some(250), kind);
        assert!(!text.contains("\nii:"), "{kind:?}");
        let li = LabInput::new("big", p, &m);
        let r = grade_input(&li, &m, 10.0, Ok(&li.reference_text()));
        assert!(
            r.valid,
            "{kind:?}: {:?}",
            &r.violations[..r.violations.len().min(3)]
        );
    }
    // A hand-written input may not use the label either.
    Course::new(["schedule", "tests/data/bad/label-ii.txt"])
        .code(2)
        .stderr_has("the label 'ii' is reserved")
        .run();
}

#[test]
fn feedback_never_shows_the_graders_paths() {
    let tmp = common::tempdir();
    let d = tmp.path();
    std::fs::create_dir_all(d.join("amy")).unwrap();
    std::fs::write(d.join("amy/running.sched"), [0xffu8, 0, 1]).unwrap();
    std::fs::write(d.join("amy/dot.sched"), "x".repeat(2 << 20)).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", d.join("amy/wide.sched")).unwrap();
    let shown = d.to_string_lossy().into_owned();
    for format in ["text", "json", "csv", "csv-long", "gradescope"] {
        let o = grade(d, format, &[]);
        assert!(!o.stdout.contains(&shown), "{format}: {}", o.stdout);
    }
    let j = grade(d, "json", &[]).json();
    let amy = student(&j, "amy");
    assert!(
        running_message(amy).starts_with("running.sched: not a text file"),
        "{amy}"
    );
}

#[test]
fn an_oversize_submission_is_refused_before_the_reference_is_computed() {
    let tmp = common::tempdir();
    let f = tmp.path().join("big.sched");
    std::fs::write(&f, "a 1\n".repeat(600_000)).unwrap();
    let j = Course::new(["grade", RUNNING])
        .arg_path(&f)
        .args(["--format", "json"])
        .code(1)
        .run()
        .json();
    assert!(
        j["violations"][0]["message"]
            .as_str()
            .unwrap()
            .contains("larger than the 1024 KiB limit"),
        "{j}"
    );
    // No reference figures: no schedule was computed for the input.
    assert!(
        j.get("reference").is_none() && j.get("lower_bound").is_none(),
        "{j}"
    );
}

#[test]
fn the_gradebook_takes_a_roster_and_merges_a_regrade() {
    let tmp = common::tempdir();
    let d = tmp.path();
    common::references(&d.join("class/alice"));
    std::fs::create_dir_all(d.join("class/bob")).unwrap();
    std::fs::write(
        d.join("roster.csv"),
        "folder,id,email\nalice,1001,alice@uni.edu\nbob,1002,bob@uni.edu\ncarl,1003,carl@uni.edu\n",
    )
    .unwrap();
    let roster = d.join("roster.csv");
    let book = Course::new([
        "grade",
        "--lab",
        "ch23-sched",
        "--format",
        "csv",
        "--roster",
    ])
    .arg_path(&roster)
    .arg_path(d.join("class"))
    .code(1)
    .run()
    .stdout;
    let header =
        "student,id,email,total,max_total,running,divide,alias,wide,dot,stream,fib,chase,notes\n";
    assert_eq!(
        book,
        format!(
            "{header}alice,1001,alice@uni.edu,80,80,10,10,10,10,10,10,10,10,\n\
             bob,1002,bob@uni.edu,0,80,0,0,0,0,0,0,0,0,\n\
             carl,1003,carl@uni.edu,0,80,0,0,0,0,0,0,0,0,no submission folder\n"
        )
    );
    std::fs::write(d.join("book.csv"), &book).unwrap();
    // Bob hands in late; only his folder is regraded and merged back.
    common::references(&d.join("class/bob"));
    let merged = Course::new(["grade", "--lab", "ch23-sched", "--format", "csv", "--merge"])
        .arg_path(d.join("book.csv"))
        .arg_path(d.join("class/bob"))
        .run()
        .stdout;
    assert_eq!(
        merged,
        book.replace(
            "bob,1002,bob@uni.edu,0,80,0,0,0,0,0,0,0,0,",
            "bob,1002,bob@uni.edu,80,80,10,10,10,10,10,10,10,10,"
        )
    );
    Course::new(["grade", "--lab", "ch23-sched", "--merge"])
        .arg_path(d.join("book.csv"))
        .arg_path(d.join("class/bob"))
        .code(2)
        .stderr_has("--format csv")
        .run();
}
