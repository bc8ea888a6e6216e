//! `course next` and `course watch`: the chapter's path in a working
//! folder, one exercise file a step; a right answer moves to the next
//! step, `course progress` shows where the student is, and the watch
//! re-checks a saved file within a second while costing no CPU between
//! saves.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::{self, Course};

/// CPU time (user + system) of process `pid`, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = stat.rsplit(')').next().unwrap();
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of stat: utime, stime (here after the state, 3rd).
    f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap()
}

#[test]
fn the_path_moves_on_a_right_answer_and_the_watch_rechecks_each_save() {
    let tmp = common::tempdir();
    let dir = tmp.path().join("work");
    let log = tmp.path().join("reviews.log");
    let log_s = log.to_string_lossy().into_owned();
    let next = || {
        Course::new(["next"])
            .arg_path(&dir)
            .args(["--review-log", &log_s])
            .run()
            .stdout
    };
    let out = next();
    assert!(
        out.contains("Step 1 of 7: drill forbidden (seed 1)"),
        "{out}"
    );
    let first = dir.join("1-forbidden-seed-1.txt");
    let text = std::fs::read_to_string(&first).unwrap();
    assert!(
        text.starts_with("# course drill forbidden --seed 1\n"),
        "{text}"
    );
    assert!(
        text.lines().all(|l| l.is_empty() || l.starts_with('#')),
        "{text}"
    );
    // Nothing written yet: said, nothing logged, nothing moves.
    assert!(next().contains("no answer yet"));
    // The right answer below the problem: checked, logged, step 2 written.
    let (sets, vectors) = common::forbidden_answer(1);
    std::fs::write(&first, format!("{text}{sets}{vectors}")).unwrap();
    let out = next();
    assert!(out.contains('✓') && !out.contains('✗'), "{out}");
    assert!(out.contains("Step 2 of 7: drill hazard (seed 1)"), "{out}");
    let second = dir.join("2-hazard-seed-1.txt");
    assert!(second.exists());
    Course::new(["progress", "--review-log", &log_s])
        .stdout_has("Path through the chapter: 1 of 7 steps done; next, step 2: drill hazard")
        .run();

    // The watch: started, idle, then a save re-checked within a second.
    let mut child = Command::new(env!("CARGO_BIN_EXE_course"))
        .arg("watch")
        .arg(&dir)
        .args(["--review-log", &log_s])
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait_for = |what: &str, within: Duration| -> Option<Duration> {
        let start = Instant::now();
        while start.elapsed() < within {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(l) if l.contains(what) => return Some(start.elapsed()),
                _ => {}
            }
        }
        None
    };
    assert!(
        wait_for("Watching", Duration::from_secs(20)).is_some(),
        "no watch"
    );
    let pid = child.id();
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(2));
    let idle = cpu_ticks(pid) - before;
    // Under 1 % of 2 s: fewer than 2 ticks of 10 ms.
    assert!(idle < 2, "the idle watch used {idle} ticks of CPU in 2 s");
    let body = std::fs::read_to_string(&second).unwrap();
    std::fs::write(&second, format!("{body}zzz-not-an-answer\n")).unwrap();
    let took = wait_for("✗", Duration::from_secs(5));
    let _ = child.kill();
    let _ = child.wait();
    let took = took.expect("the save was not re-checked");
    assert!(took < Duration::from_secs(1), "re-checked after {took:?}");
}
