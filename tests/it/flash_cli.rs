//! `course flash 23` end to end: Leitner scheduling across simulated days
//! (`--today`), due cards first, the default state location, and recovery
//! from truncated or corrupted state files without losing other progress.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{self, Course, tempdir};

/// `flash 23 --tag llvm-mca --state S --today DAY` plus extra args.
fn flash(state: &Path, day: &str, extra: &[&str], stdin: &str) -> common::Output {
    let s = state.display().to_string();
    Course::new([
        "flash", "23", "--tag", "llvm-mca", "--state", &s, "--today", day,
    ])
    .args(extra)
    .stdin(stdin)
    .any_code()
    .run()
}

fn state_json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn card<'v>(v: &'v serde_json::Value, id: &str) -> &'v serde_json::Value {
    &v["cards"][id]
}

/// Replaces the temp dir and `corrupt-<time>` stamps, for snapshots.
fn scrub(s: &str, dir: &Path) -> String {
    let s = s.replace(&dir.display().to_string(), "[DIR]");
    let mut out = String::new();
    let mut rest = s.as_str();
    while let Some(i) = rest.find("corrupt-") {
        out += &rest[..i + 8];
        rest = &rest[i + 8..];
        let n = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        out += "[TIME]";
        rest = &rest[n..];
    }
    out + rest
}

/// Reply "show" then `rating` for each card.
fn replies(ratings: &[&str]) -> String {
    ratings.iter().map(|r| format!("\n{r}\n")).collect()
}

const CARDS: usize = 10;

#[test]
fn scheduling_across_days() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = dir.join("s.json");
    // Day 1: everything is new. good, easy, again, hard, then good for the rest.
    let mut r = vec!["good", "easy", "again", "hard"];
    r.extend(std::iter::repeat_n("2", CARDS - 4));
    let o = flash(&st, "2026-01-01", &[], &replies(&r));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains(&format!(
        "{CARDS} card(s) to review ({CARDS} due on 2026-01-01)"
    )));
    common::snapshot!("day1_session", scrub(&o.stdout, dir));
    // A new card counts as box 1: good moves it to box 2 (2 days), easy to
    // box 3 (4 days), hard keeps it (1 day), again keeps it due today.
    let v = state_json(&st);
    assert_eq!(card(&v, "no-instruction-latency")["box"], 2);
    assert_eq!(card(&v, "no-instruction-latency")["due"], "2026-01-03");
    assert_eq!(card(&v, "rthroughput-def")["box"], 3);
    assert_eq!(card(&v, "rthroughput-def")["due"], "2026-01-05");
    assert_eq!(card(&v, "two-bounds")["box"], 1);
    assert_eq!(card(&v, "two-bounds")["due"], "2026-01-01");
    assert_eq!(card(&v, "mca-stages")["box"], 1);
    assert_eq!(card(&v, "mca-stages")["due"], "2026-01-02");

    // Later on day 1 only the card rated `again` is due.
    let o = flash(&st, "2026-01-01", &[], &replies(&["good"]));
    assert!(
        o.stdout
            .contains("1 card(s) to review (1 due on 2026-01-01)"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("[1/1] two-bounds"));
    let o = flash(&st, "2026-01-01", &[], "");
    assert!(
        o.stdout
            .starts_with("Nothing is due on 2026-01-01; the next card is due 2026-01-02."),
        "{}",
        o.stdout
    );

    // Day 2: only mca-stages (hard: box 1, one day) is due; with --all the
    // others follow, soonest first.
    let o = flash(&st, "2026-01-02", &["--list"], "");
    common::snapshot!("day2_list", o.stdout);
    let o = flash(&st, "2026-01-02", &["--all"], "q\n");
    assert!(
        o.stdout
            .contains(&format!("{CARDS} card(s) to review (1 due on 2026-01-02)")),
        "{}",
        o.stdout
    );
    let first = o.stdout.lines().find(|l| l.starts_with("[1/")).unwrap();
    assert!(
        first.contains("mca-stages (llvm-mca) - box 1, due 2026-01-02"),
        "{first}"
    );
    // Day 3: everything but rthroughput-def (due 01-05) is due, the overdue
    // mca-stages first.
    let o = flash(&st, "2026-01-03", &[], &replies(&["easy"; CARDS - 1]));
    assert!(
        o.stdout
            .contains("[1/9] mca-stages (llvm-mca) - box 1, due 2026-01-02"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("Reviewed 9 card(s); 0 still due on 2026-01-03."),
        "{}",
        o.stdout
    );
    let v = state_json(&st);
    // Box 2, easy: two boxes up (box 4), its 8 days.
    assert_eq!(card(&v, "no-instruction-latency")["box"], 4);
    assert_eq!(card(&v, "no-instruction-latency")["due"], "2026-01-11");
    assert_eq!(card(&v, "no-instruction-latency")["reviews"], 2);
    // Box 1, easy: box 3, 4 days.
    assert_eq!(card(&v, "mca-stages")["box"], 3);
    assert_eq!(card(&v, "mca-stages")["due"], "2026-01-07");

    // Day 5: rthroughput-def alone; again restarts it in box 1.
    let o = flash(
        &st,
        "2026-01-05",
        &[],
        &format!("{}q\n", replies(&["again"])),
    );
    assert!(
        o.stdout
            .contains("[1/1] rthroughput-def (llvm-mca) - box 3, due 2026-01-05"),
        "{}",
        o.stdout
    );
    let v = state_json(&st);
    assert_eq!(card(&v, "rthroughput-def")["box"], 1);
    assert_eq!(card(&v, "rthroughput-def")["due"], "2026-01-05");
    assert_eq!(card(&v, "rthroughput-def")["lapses"], 1);
    // No temporary files are left behind by the atomic writes; the log
    // has its header and the 21 ratings.
    assert_eq!(files(dir), log_and_state());
    assert_eq!(log_records(&st).len(), 10 + 1 + 9 + 1);
    assert_eq!(v["log_lines"], 22);
}

#[test]
fn bad_ratings_are_asked_again_and_eof_stops() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = dir.join("s.json");
    let o = flash(&st, "2026-01-01", &[], "\nmaybe\n5\ngood\n\n");
    assert_eq!(o.code, 0);
    assert!(o.stdout.contains("`maybe` is not a rating."));
    assert!(o.stdout.contains("`5` is not a rating."));
    assert!(o.stdout.contains("Reviewed 1 card(s)"));
    assert_eq!(state_json(&st)["cards"].as_object().unwrap().len(), 1);
    // A bare Enter at the rating prompt is asked again with the choices.
    let o = flash(&dir.join("t.json"), "2026-01-01", &[], "\n\ngood\n");
    assert!(
        o.stdout
            .contains("Type a rating: again, hard, good or easy (or 0-3); q stops.")
    );
    assert!(!o.stdout.contains("`` is not a rating"));
    // A long reply is echoed shortened, within 80 columns.
    let o = flash(
        &dir.join("u.json"),
        "2026-01-01",
        &[],
        &format!("\n{}\ngood\n", "x".repeat(500)),
    );
    let echo = o
        .stdout
        .lines()
        .find(|l| l.contains("is not a rating"))
        .unwrap();
    assert!(echo.chars().count() <= 80, "{echo}");
}

fn saved_progress(dir: &Path) -> PathBuf {
    let st = dir.join("s.json");
    let o = flash(&st, "2026-01-01", &[], &replies(&["good", "easy", "good"]));
    assert_eq!(o.code, 0);
    st
}

#[test]
fn a_truncated_state_is_moved_aside_and_its_whole_entries_kept() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = saved_progress(dir);
    let full = std::fs::read(&st).unwrap();
    // Cut inside the second card's entry: the first one can be recovered.
    let text = String::from_utf8(full.clone()).unwrap();
    let second = text.find("\"rthroughput-def\"").unwrap();
    let cut = second + 40;
    std::fs::write(&st, &full[..cut]).unwrap();
    let o = flash(&st, "2026-01-03", &[], &replies(&["good"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    common::snapshot!("truncated_warning", scrub(&o.stderr, dir));
    assert_eq!(o.stderr.lines().count(), 2, "{}", o.stderr);
    // The damaged bytes are kept, untouched, next to the fresh state.
    let aside: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.display().to_string().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(&aside[0]).unwrap(), &full[..cut]);
    let v = state_json(&st);
    // The recovered card kept its day-1 progress (box 2, due on day 3) and
    // moved up to box 3 with today's review; a fresh card would be in box 2.
    assert_eq!(card(&v, "no-instruction-latency")["box"], 3);
    assert_eq!(card(&v, "no-instruction-latency")["reviews"], 2);
    // The two cards the cut lost are rebuilt from the review log.
    assert_eq!(card(&v, "rthroughput-def")["box"], 3);
    assert_eq!(card(&v, "two-bounds")["box"], 2);
    assert_eq!(v["cards"].as_object().unwrap().len(), 3, "{v}");
    // A second run is clean: no new warning.
    let o = flash(&st, "2026-01-03", &["--list"], "");
    assert!(o.stderr.is_empty(), "{}", o.stderr);
}

#[test]
fn garbage_and_wrong_versions_are_recovered_too() {
    for (name, bytes) in [
        ("binary", b"\x00\xff\xfe garbage".to_vec()),
        ("empty", Vec::new()),
        ("array", b"[1, 2, 3]".to_vec()),
        ("version", br#"{"version": 99, "cards": {}}"#.to_vec()),
    ] {
        let dir_tmp = tempdir();
        let dir = dir_tmp.path();
        let st = dir.join("s.json");
        std::fs::write(&st, &bytes).unwrap();
        // A listing says so and leaves the file alone.
        let o = flash(&st, "2026-01-01", &["--list"], "");
        assert_eq!(o.code, 0, "{name}: {}", o.stderr);
        assert!(
            o.stderr.contains("the review state is damaged"),
            "{name}: {}",
            o.stderr
        );
        assert!(o.stderr.contains("left as it is"), "{name}: {}", o.stderr);
        assert!(
            o.stdout.contains(&format!("{CARDS} cards, {CARDS} due")),
            "{name}"
        );
        assert_eq!(std::fs::read(&st).unwrap(), bytes, "{name}");
        assert_eq!(files(dir), vec!["s.json".to_string()], "{name}");
        // A review moves it aside and writes the fresh state at once.
        let o = flash(&st, "2026-01-01", &[], "q\n");
        assert_eq!(o.code, 0, "{name}: {}", o.stderr);
        assert!(o.stderr.contains("moved it to"), "{name}: {}", o.stderr);
        assert_eq!(
            state_json(&st)["cards"].as_object().map(|c| c.len()),
            Some(0),
            "{name}"
        );
    }
}

/// A state file and its review log, as [`files`] lists them.
fn log_and_state() -> Vec<String> {
    vec!["s.json".to_string(), "s.json.log".to_string()]
}

/// The records of the review log next to `state`: (day, card, rating),
/// read by this test's own reading of the documented format (five fields,
/// one space apart; `#` comments).
fn log_records(state: &Path) -> Vec<(String, String, String)> {
    let log = format!("{}.log", state.display());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.starts_with("# course flash review log, version 1"),
        "{text}"
    );
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 5, "{l}");
            assert!(f[1].parse::<i64>().is_ok(), "{l}");
            let verdict = if f[3] == "again" { "wrong" } else { "right" };
            assert_eq!(f[4], verdict, "{l}");
            (f[0].to_string(), f[2].to_string(), f[3].to_string())
        })
        .collect()
}

/// The names in a folder, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn one_bad_entry_does_not_lose_the_other_cards() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = saved_progress(dir);
    let mut v = state_json(&st);
    v["cards"]["two-bounds"]["box"] = serde_json::json!("nine");
    v["cards"]["retired-card"] = serde_json::json!({"box": 4, "due": "2025-12-01", "reviews": 7, "lapses": 0, "last": "2025-11-23"});
    let text = serde_json::to_string_pretty(&v).unwrap();
    std::fs::write(&st, &text).unwrap();
    let o = flash(&st, "2026-01-02", &["--list"], "");
    assert_eq!(o.code, 0);
    assert!(
        o.stderr.contains("ignoring a bad entry: card `two-bounds`"),
        "{}",
        o.stderr
    );
    // A listing changes nothing on disk.
    assert_eq!(std::fs::read_to_string(&st).unwrap(), text);
    assert_eq!(files(dir), log_and_state());
    assert!(
        o.stdout
            .contains("no-instruction-latency   box 2  due 2026-01-03"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("rthroughput-def          box 3  due 2026-01-05"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("two-bounds               box -  due new"));
    // A review keeps the entry of a card that left the deck, and a copy of
    // the original file.
    let o = flash(&st, "2026-01-02", &[], &replies(&["good"]));
    assert_eq!(o.code, 0);
    assert!(
        o.stderr
            .contains("kept the other 3 card(s); the original file is saved as"),
        "{}",
        o.stderr
    );
    // Nothing saved is due on day 2: the first new card, two-bounds (its
    // bad entry dropped), is the one rated.
    let v = state_json(&st);
    assert_eq!(card(&v, "retired-card")["reviews"], 7);
    assert_eq!(card(&v, "no-instruction-latency")["box"], 2);
    assert_eq!(card(&v, "rthroughput-def")["box"], 3);
    assert_eq!(card(&v, "two-bounds")["box"], 2);
    assert_eq!(card(&v, "two-bounds")["reviews"], 1);
}

#[test]
fn default_state_lives_in_the_data_folder() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let p = dir.join("course/flash-23.json");
    Course::new(["flash", "23", "--tag", "llvm-mca", "--today", "2026-01-01"])
        .stdin(replies(&["good"]))
        .env("XDG_DATA_HOME", dir)
        .stdout_has(format!("State: {}", p.display()))
        .run();
    assert!(p.exists());
    let home_tmp = tempdir();
    let home = home_tmp.path();
    Course::new(["flash", "23", "--tag", "llvm-mca", "--today", "2026-01-01"])
        .stdin(replies(&["good"]))
        .env("XDG_DATA_HOME", "")
        .env("HOME", home)
        .run();
    assert!(home.join(".local/share/course/flash-23.json").exists());
}

#[test]
fn usage_errors() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = dir.join("s.json");
    for (extra, msg) in [
        (
            vec!["--today", "2026-02-30"],
            "--today 2026-02-30: expected a date",
        ),
        (vec!["--tag", "nope"], "unknown tag `nope`"),
    ] {
        Course::new(["flash", "23", "--state"])
            .args([&st])
            .args(extra)
            .code(2)
            .stderr_has(msg)
            .run();
    }
    Course::new(["flash", "22"])
        .code(2)
        .stderr_has("no flashcards for chapter 22")
        .run();
}

#[test]
fn a_killed_session_keeps_every_rated_card() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = dir.join("s.json");
    let s = st.display().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_course"))
        .env("XDG_DATA_HOME", scratch_data())
        .args([
            "flash",
            "23",
            "--tag",
            "llvm-mca",
            "--state",
            &s,
            "--today",
            "2026-01-01",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run course");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(b"\ngood\n\neasy\n\n").unwrap();
    input.flush().unwrap();
    // Wait (by polling, not by timing) until both ratings are on disk, then
    // kill the process while it waits for the third card's rating.
    let mut tries = 0;
    loop {
        let done = std::fs::read_to_string(&st)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|v| v["cards"].as_object().is_some_and(|c| c.len() == 2));
        if done {
            break;
        }
        tries += 1;
        assert!(tries < 6000, "the state never reached two cards");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    let _ = child.wait();
    drop(input);
    let v = state_json(&st);
    assert_eq!(card(&v, "no-instruction-latency")["box"], 2);
    assert_eq!(card(&v, "rthroughput-def")["box"], 3);
    let o = flash(&st, "2026-01-01", &["--list"], "");
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    assert!(
        o.stdout
            .contains(&format!("{CARDS} cards, {} due", CARDS - 2))
    );
}

/// Issue 11, point 15: a card rated `again` comes back later in the same
/// session, and is scheduled by its last rating.
#[test]
fn a_card_rated_again_comes_back_in_the_same_session() {
    let dir_tmp = tempdir();
    let st = dir_tmp.path().join("s.json");
    let mut ratings = vec!["again"];
    ratings.extend(std::iter::repeat_n("good", CARDS));
    let o = flash(&st, "2026-01-01", &[], &replies(&ratings));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let headers: Vec<&str> = o.stdout.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(headers.len(), CARDS + 1, "{}", o.stdout);
    assert!(
        headers[0].starts_with("[1/10] no-instruction-latency"),
        "{}",
        headers[0]
    );
    assert!(
        headers[CARDS].starts_with(&format!("[{n}/{n}] no-instruction-latency", n = CARDS + 1)),
        "{}",
        headers[CARDS]
    );
    assert!(
        headers[CARDS].ends_with("box 1, due 2026-01-01"),
        "{}",
        headers[CARDS]
    );
    assert!(o.stdout.contains("(again in this session)"));
    assert!(o.stdout.contains(&format!(
        "Reviewed {} card(s); 0 still due on 2026-01-01.",
        CARDS + 1
    )));
    // again (box 1, today), then good: box 2, due in two days.
    let v = state_json(&st);
    assert_eq!(card(&v, "no-instruction-latency")["box"], 2);
    assert_eq!(card(&v, "no-instruction-latency")["due"], "2026-01-03");
    assert_eq!(card(&v, "no-instruction-latency")["reviews"], 2);
}

/// Issue 11, point 15: without --today, "today" is the local date. Two
/// zones 26 hours apart (POSIX TZ strings, no zone files needed) never see
/// the same date, and each sees its own.
#[cfg(unix)]
#[test]
fn today_is_the_local_date() {
    let today_in = |tz: &str| {
        let o = Course::new(["flash", "23", "--list", "--state", "/nonexistent/s.json"])
            .env("TZ", tz)
            .run();
        let line = o.stdout.lines().last().unwrap_or_default().to_string();
        line.split(" due on ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .unwrap_or_default()
            .to_string()
    };
    let utc_date = |offset_hours: i64| {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64
            + offset_hours * 3600;
        // Howard Hinnant's civil_from_days.
        let z = secs.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        format!("{y:04}-{m:02}-{d:02}")
    };
    // West of Greenwich by 12 hours, east by 14 (POSIX signs are reversed).
    let (before_w, west, after_w) = (utc_date(-12), today_in("WEST+12"), utc_date(-12));
    let (before_e, east, after_e) = (utc_date(14), today_in("EAST-14"), utc_date(14));
    assert!(west == before_w || west == after_w, "{west} vs {before_w}");
    assert!(east == before_e || east == after_e, "{east} vs {before_e}");
    assert_ne!(west, east);
}

/// Issue 11, point 16: two `course flash` processes on one state file keep
/// each other's reviews. Both open the state before either rates a card;
/// then one reviews its cards to the end, then the other.
#[test]
fn two_processes_on_one_state_keep_each_others_reviews() {
    use std::io::Read;
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = dir.join("s.json");
    let s = st.display().to_string();
    let data_tmp = tempdir();
    let data = data_tmp.path();
    let spawn = |tag: &str| {
        Command::new(env!("CARGO_BIN_EXE_course"))
            .env("XDG_DATA_HOME", data)
            .args([
                "flash",
                "23",
                "--tag",
                tag,
                "--state",
                &s,
                "--today",
                "2026-01-01",
            ])
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run course")
    };
    // Reads until the first card is shown: the process has loaded the state.
    let wait_for_first_card = |child: &mut std::process::Child| {
        let out = child.stdout.as_mut().expect("stdout");
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        while !String::from_utf8_lossy(&seen).contains("(Enter shows the answer)") {
            assert_eq!(out.read(&mut byte).unwrap(), 1, "ended early");
            seen.push(byte[0]);
        }
    };
    let mut a = spawn("llvm-mca");
    let mut b = spawn("machine-model");
    wait_for_first_card(&mut a);
    wait_for_first_card(&mut b);
    let finish = |mut child: std::process::Child, n: usize| {
        let mut input = child.stdin.take().expect("stdin");
        input
            .write_all(replies(&vec!["good"; n]).as_bytes())
            .unwrap();
        drop(input);
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let a_out = finish(a, 40);
    let b_out = finish(b, 40);
    let reviewed = |out: &str| -> usize {
        out.split("Reviewed ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let (na, nb) = (reviewed(&a_out), reviewed(&b_out));
    assert!(na >= 5 && nb >= 5, "{na} {nb}");
    let v = state_json(&st);
    let cards = v["cards"].as_object().unwrap();
    // Cards in both tags were rated by both; the others by one process.
    let both = cards
        .values()
        .filter(|c| c["reviews"].as_u64() == Some(2))
        .count();
    assert_eq!(cards.len() + both, na + nb, "{v}");
    // good once: box 2, in two days; good twice: box 3, in four.
    for (id, c) in cards {
        let due = if c["reviews"] == 2 {
            "2026-01-05"
        } else {
            "2026-01-03"
        };
        assert_eq!(c["due"], due, "{id}");
    }
    // Nothing but the log is left next to the state.
    assert_eq!(files(dir), log_and_state());
    // The review log has every rating of both, each once.
    let log = std::fs::read_to_string(data.join("course/reviews.log")).unwrap();
    let flash = log.lines().filter(|l| l.contains(" flash ")).count();
    assert_eq!(flash, na + nb, "{log}");
}

/// The data folder of runs that do not look at their review log.
fn scratch_data() -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("scratch-data")
}

/// Issue 11, point 16: a rating shown as done is already on disk when it
/// is shown, and temporary files of a killed save do not stay behind.
#[test]
fn a_review_is_saved_before_it_is_shown_and_no_temporaries_stay() {
    use std::io::Read;
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = dir.join("s.json");
    // What a save killed before its rename leaves (an earlier version named
    // them after its process id).
    std::fs::write(dir.join(".s.json.tmp-4242"), "{").unwrap();
    std::fs::write(dir.join(".s.json.tmp"), "{").unwrap();
    let s = st.display().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_course"))
        .env("XDG_DATA_HOME", scratch_data())
        .args([
            "flash",
            "23",
            "--tag",
            "llvm-mca",
            "--state",
            &s,
            "--today",
            "2026-01-01",
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run course");
    let mut input = child.stdin.take().expect("stdin");
    let mut out = child.stdout.take().expect("stdout");
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    for (k, rating) in ["good", "easy", "hard"].iter().enumerate() {
        input.write_all(format!("\n{rating}\n").as_bytes()).unwrap();
        input.flush().unwrap();
        // Read up to the k-th "-> box" line…
        while String::from_utf8_lossy(&seen).matches("-> box").count() <= k
            || !seen.ends_with(b"\n")
        {
            assert_eq!(out.read(&mut byte).unwrap(), 1, "ended early");
            seen.push(byte[0]);
        }
        // …and by then the state holds k + 1 cards.
        let v = state_json(&st);
        assert_eq!(v["cards"].as_object().unwrap().len(), k + 1, "{v}");
    }
    drop(input);
    let _ = child.wait();
    assert_eq!(files(dir), log_and_state());
}

#[test]
fn the_collision_vector_card_gives_the_states_the_engine_computes() {
    // Definition 23.1.5: the vector is the state after one issue (K_r(o) as
    // bits), which differs from F(o,o) as bits when K is not contiguous.
    use course_engine::engine::hazard::{bits, forbidden_between};
    use course_engine::model::machine::Machine;
    let deck = std::fs::read_to_string(common::root().join("quizzes/ch23-flash.yaml")).unwrap();
    let card = deck
        .split("  - id: ")
        .find(|c| c.starts_with("collision-vector\n"))
        .expect("the collision-vector card");
    let m = Machine::toy();
    let (div, mul) = (
        m.class_by_name("div").unwrap(),
        m.resource_by_name("mul").unwrap(),
    );
    let k: Vec<u32> = m.class(div).offsets(mul).collect();
    assert!(
        card.contains(&format!("{} for the toy div", bits(&k))),
        "{card}"
    );
    assert!(
        card.contains(&format!("{} for K = {{3,5}}", bits(&[3, 5]))),
        "{card}"
    );
    // Its F(o,o) for K = {3, 5} is {0, 2}: not the vector.
    let f = forbidden_between(&[3, 5], &[3, 5]);
    assert_eq!(f, vec![0, 2]);
    assert!(card.contains("not F(o,o) = {0,2}"), "{card}");
}

/// The ratings process `p` of the concurrent test gives, `n` of them:
/// mostly `again` (the card comes back, so the session never runs out),
/// with at most 9 others (of the 10 cards, one always stays in play).
fn concurrent_ratings(p: usize, n: usize) -> Vec<&'static str> {
    let others = ["good", "hard", "easy"];
    let mut k = 0;
    (0..n)
        .map(|i| {
            if (i + 3 * p) % 13 == 7 && k < 9 {
                k += 1;
                others[(k + p) % 3]
            } else {
                "again"
            }
        })
        .collect()
}

/// Several `course flash` processes rate the same cards at the same time:
/// every rating taken is recorded (a log line each, counted in the cards'
/// `reviews`), and the final state is the replay of all of them, in the
/// log's order, through the library's `schedule`.
#[test]
fn concurrent_sessions_on_the_same_cards_lose_no_review() {
    use course_content::flash::{CardState, Date, Rating, schedule};
    use std::collections::BTreeMap;
    use std::io::Read;
    const PROCS: usize = 3;
    const N: usize = 120;
    let dir_tmp = tempdir();
    let st = dir_tmp.path().join("s.json");
    let s = st.display().to_string();
    let mut children: Vec<std::process::Child> = (0..PROCS)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_course"))
                .env("XDG_DATA_HOME", scratch_data())
                .args([
                    "flash",
                    "23",
                    "--tag",
                    "llvm-mca",
                    "--state",
                    &s,
                    "--today",
                    "2026-01-01",
                ])
                .env("NO_COLOR", "1")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("run course")
        })
        .collect();
    // Every process has loaded the state (and shows its first card) before
    // any rates one: all of them start from the same copy.
    let mut heads = Vec::new();
    for child in &mut children {
        let out = child.stdout.as_mut().expect("stdout");
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        while !String::from_utf8_lossy(&seen).contains("(Enter shows the answer)") {
            assert_eq!(out.read(&mut byte).unwrap(), 1, "ended early");
            seen.push(byte[0]);
        }
        heads.push(String::from_utf8_lossy(&seen).into_owned());
    }
    // Then all rate at once, each from its own thread.
    let runs: Vec<_> = children
        .into_iter()
        .enumerate()
        .map(|(p, mut child)| {
            let ratings = concurrent_ratings(p, N);
            std::thread::spawn(move || {
                let mut input = child.stdin.take().expect("stdin");
                input.write_all(replies(&ratings).as_bytes()).unwrap();
                drop(input);
                let out = child.wait_with_output().unwrap();
                (ratings, out)
            })
        })
        .collect();
    // (card, rating) -> how many times a process was shown the card and
    // rated it so.
    let mut given: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (run, head) in runs.into_iter().zip(heads) {
        let (ratings, out) = run.join().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.is_empty(), "{stderr}");
        let stdout = head + &String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&format!("Reviewed {N} card(s)")),
            "{stdout}"
        );
        let mut shown = None;
        let mut k = 0;
        for line in stdout.lines() {
            if let Some(rest) = line.strip_prefix('[') {
                shown = rest.split(' ').nth(1).map(String::from);
            } else if line.starts_with("-> box") {
                let card = shown.take().expect("a card before its rating");
                *given.entry((card, ratings[k].to_string())).or_default() += 1;
                k += 1;
            }
        }
        assert_eq!(k, N, "every rating is answered with the card's new box");
    }
    // Every rating given is in the log, once.
    let records = log_records(&st);
    assert_eq!(records.len(), PROCS * N);
    let mut logged: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (day, card, rating) in &records {
        assert_eq!(day, "2026-01-01");
        *logged.entry((card.clone(), rating.clone())).or_default() += 1;
    }
    assert_eq!(logged, given);
    // The state counts every review and is the log's replay.
    let v = state_json(&st);
    let cards = v["cards"].as_object().unwrap();
    let reviews: u64 = cards.values().map(|c| c["reviews"].as_u64().unwrap()).sum();
    assert_eq!(reviews as usize, PROCS * N);
    assert_eq!(v["log_lines"], PROCS * N + 1);
    let mut replayed: BTreeMap<String, CardState> = BTreeMap::new();
    for (day, card, rating) in &records {
        let next = schedule(
            replayed.get(card),
            Rating::parse(rating).unwrap(),
            Date::parse(day).unwrap(),
        );
        replayed.insert(card.clone(), next);
    }
    let saved: BTreeMap<String, CardState> = cards
        .iter()
        .map(|(id, c)| (id.clone(), serde_json::from_value(c.clone()).unwrap()))
        .collect();
    assert_eq!(saved, replayed);
}

/// A state file from before the review log keeps its cards: the log
/// starts with the next rating, and the state counts it in.
#[test]
fn an_old_state_without_a_log_keeps_its_cards() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = dir.join("s.json");
    let old = r#"{
  "version": 1,
  "deck": "ch23",
  "cards": {
    "no-instruction-latency": {"box": 4, "due": "2026-01-01", "reviews": 6, "lapses": 1, "last": "2025-12-24"},
    "retired-card": {"box": 5, "due": "2026-02-01", "reviews": 9, "lapses": 0, "last": "2026-01-01"}
  }
}
"#;
    std::fs::write(&st, old).unwrap();
    let o = flash(&st, "2026-01-01", &["--list"], "");
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    assert!(
        o.stdout
            .contains("* no-instruction-latency   box 4  due 2026-01-01"),
        "{}",
        o.stdout
    );
    assert_eq!(files(dir), vec!["s.json".to_string()]);
    let o = flash(&st, "2026-01-01", &[], &replies(&["good"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    let v = state_json(&st);
    // Box 4, good: box 5, 16 days; the counts carry on.
    assert_eq!(card(&v, "no-instruction-latency")["box"], 5);
    assert_eq!(card(&v, "no-instruction-latency")["due"], "2026-01-17");
    assert_eq!(card(&v, "no-instruction-latency")["reviews"], 7);
    assert_eq!(card(&v, "retired-card")["reviews"], 9);
    assert_eq!(v["log_lines"], 2);
    assert_eq!(
        log_records(&st),
        vec![(
            "2026-01-01".to_string(),
            "no-instruction-latency".to_string(),
            "good".to_string()
        )]
    );
}

/// A bad or cut-short log line is reported as file:line:column and
/// skipped, once; the good lines around it count; a rating whose state
/// write never happened (only its log line is there) is replayed.
#[test]
fn bad_log_lines_are_reported_and_skipped() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = saved_progress(dir);
    let log = dir.join("s.json.log");
    let mut text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    // Lines 5-8: garbage, a good record the state never saw, a wrong
    // rating, and a last line cut short.
    text += "\u{0}\u{1}garbage\n";
    text += "2026-01-02 1767312000 mca-stages easy right\n";
    text += "2026-01-02 1767312000 mca-stages sure right\n";
    text += "2026-01-02 17673";
    std::fs::write(&log, &text).unwrap();
    let o = flash(&st, "2026-01-02", &["--list"], "");
    assert_eq!(o.code, 0);
    let log_name = log.display().to_string();
    let warned: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(warned.len(), 3, "{}", o.stderr);
    assert!(warned[0].starts_with(&format!(
        "course: warning: {log_name}:5:1: expected 5 fields"
    )));
    assert!(warned[1].starts_with(&format!(
        "course: warning: {log_name}:7:34: `sure` is not a rating"
    )));
    assert!(warned[2].starts_with(&format!(
        "course: warning: {log_name}:8:1: expected 5 fields"
    )));
    assert!(warned[2].contains("cut short"), "{}", warned[2]);
    // The good record counts: mca-stages, new, easy: box 3.
    assert!(
        o.stdout
            .contains("  mca-stages               box 3  due 2026-01-06"),
        "{}",
        o.stdout
    );
    // A review reports them once more, counts them in, and ends the
    // cut-short line before appending its own.
    let o = flash(&st, "2026-01-02", &[], &replies(&["hard"]));
    assert_eq!(o.code, 0);
    assert_eq!(o.stderr.lines().count(), 3, "{}", o.stderr);
    let v = state_json(&st);
    assert_eq!(v["log_lines"], 9);
    assert_eq!(card(&v, "mca-stages")["box"], 3);
    let text = std::fs::read_to_string(&log).unwrap();
    let last: Vec<&str> = text.lines().rev().take(2).collect();
    assert_eq!(last[1], "2026-01-02 17673");
    assert!(last[0].starts_with("2026-01-02 "), "{}", last[0]);
    // From then on the bad lines are behind the state: no more warnings.
    let o = flash(&st, "2026-01-02", &["--list"], "");
    assert!(o.stderr.is_empty(), "{}", o.stderr);
}

/// A state file lost altogether is rebuilt from the review log.
#[test]
fn a_lost_state_is_rebuilt_from_the_log() {
    let dir_tmp = tempdir();
    let dir = dir_tmp.path();
    let st = saved_progress(dir);
    let before = state_json(&st);
    std::fs::remove_file(&st).unwrap();
    let o = flash(&st, "2026-01-02", &["--list"], "");
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    assert!(
        o.stdout
            .contains("rthroughput-def          box 3  due 2026-01-05")
    );
    let o = flash(&st, "2026-01-02", &[], "q\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(state_json(&st), before);
}
