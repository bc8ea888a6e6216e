//! Running a student's scheduler on one input (`course grade --run`), with
//! no shell in between and limits on everything it can take.
//!
//! The command is split into words by [`split_command`]: words are
//! separated by spaces or tabs, and `'…'` or `"…"` keeps a stretch
//! together (the quotes removed, nothing inside them special). There is no
//! other quoting, no escaping, no variable, glob or redirection: the words
//! are the program and its arguments as given. `{input}` inside a word is
//! replaced by the absolute path of the input file; a command without
//! `{input}` gets the input's text on standard input instead.
//!
//! The program runs in the student's folder (a program path with a `/` is
//! taken relative to it), in a process group of its own, with an
//! environment of `PATH`, `HOME`, `LANG`, `LC_ALL`, `TMPDIR`, `USER` only
//! (so no secret of the grader's reaches it), standard error discarded (so
//! nothing it prints there reaches anyone's report), and standard output
//! read up to [`RunSpec::output_limit`] bytes. When it runs past
//! [`RunSpec::time_limit`] or prints past the cap, the whole process group
//! is killed; it is killed too when the program exits, so nothing it
//! started in the background lives on. Before its output is graded, any
//! echo of the input's temporary path becomes the input's file name, so
//! feedback that quotes the output never shows a path of the grader's.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::content::lab::Unread;

/// The placeholder replaced by the input file's path.
pub const INPUT: &str = "{input}";

/// What to run and within which limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSpec {
    /// The program and its arguments, [`INPUT`] not yet replaced.
    pub words: Vec<String>,
    /// Wall time allowed per input.
    pub time_limit: Duration,
    /// The most bytes of standard output read per input.
    pub output_limit: u64,
}

/// The environment variables a student's program keeps.
const KEPT_ENV: &[&str] = &["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER"];

/// Splits a command into words by the rule of the module documentation.
pub fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    use crate::util::text::{split_words, WordsError};
    let words = split_words(cmd).map_err(|e| match e {
        WordsError::Unclosed(q) => format!("the command has an unclosed {q}"),
        WordsError::LineBreak => "the command is one line".to_string(),
    })?;
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(words)
}

/// A signal's usual name.
fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => " (SIGSEGV: a bad memory access)",
        libc::SIGABRT => " (SIGABRT: aborted)",
        libc::SIGFPE => " (SIGFPE: an arithmetic error)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGPIPE => " (SIGPIPE)",
        _ => "",
    }
}

/// Kills every process of the group `pgid` (ignoring a group already gone).
fn kill_group(pgid: u32) {
    if let Ok(pgid) = i32::try_from(pgid) {
        if pgid > 0 {
            // SAFETY: kill has no memory effects; a negative pid names the group.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

/// How the run ended.
enum End {
    Exited(ExitStatus),
    TimedOut,
    TooMuch,
}

/// Runs the student's program in `cwd` on the input file `input` (whose
/// text is `input_text`) and returns what it printed, or why that is not
/// a schedule: it could not start, ran out of time, crashed, exited with a
/// failure, printed too much, nothing, or bytes that are not text.
pub fn run_scheduler(
    spec: &RunSpec,
    cwd: &Path,
    input: &Path,
    input_text: &str,
) -> Result<String, Unread> {
    let Some((program, args)) = spec.words.split_first() else {
        return Err(Unread::Grader("the --run command is empty".into()));
    };
    let input_path = input.to_string_lossy();
    let uses_input = spec.words.iter().any(|w| w.contains(INPUT));
    let fill = |w: &String| w.replace(INPUT, &input_path);
    let program = fill(program);
    let program: PathBuf = if program.contains('/') && !Path::new(&program).is_absolute() {
        cwd.join(&program)
    } else {
        PathBuf::from(&program)
    };
    let mut cmd = Command::new(&program);
    cmd.args(args.iter().map(fill))
        .current_dir(cwd)
        .env_clear()
        .envs(
            KEPT_ENV
                .iter()
                .filter_map(|k| Some((k, std::env::var_os(k)?))),
        )
        .stdin(if uses_input {
            Stdio::null()
        } else {
            Stdio::piped()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    let shown = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut child = cmd.spawn().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            Unread::Student(format!("could not start {shown}: no such program"))
        }
        std::io::ErrorKind::PermissionDenied => Unread::Student(format!(
            "could not start {shown}: permission denied (is it executable?)"
        )),
        _ => Unread::Grader(format!("could not start {shown}: {e}")),
    })?;
    let pgid = child.id();
    if let Some(mut stdin) = child.stdin.take() {
        let text = input_text.to_string();
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let out = Arc::new(Mutex::new(Vec::<u8>::new()));
    let done = Arc::new(AtomicBool::new(false));
    if let Some(mut stdout) = child.stdout.take() {
        let (out, done, limit) = (Arc::clone(&out), Arc::clone(&done), spec.output_limit);
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 << 10];
            loop {
                match stdout.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let Ok(mut buf) = out.lock() else { break };
                        buf.extend_from_slice(&chunk[..n]);
                        if buf.len() as u64 > limit {
                            break;
                        }
                    }
                }
            }
            done.store(true, Ordering::Release);
        });
    } else {
        done.store(true, Ordering::Release);
    }
    let too_much = || out.lock().map_or(0, |b| b.len()) as u64 > spec.output_limit;
    let deadline = Instant::now() + spec.time_limit;
    let mut pause = Duration::from_millis(1);
    let end = loop {
        if too_much() {
            break End::TooMuch;
        }
        match child.try_wait() {
            Ok(Some(status)) => break End::Exited(status),
            Ok(None) => {}
            Err(e) => {
                kill_group(pgid);
                let _ = child.wait();
                return Err(Unread::Grader(format!("waiting for {shown}: {e}")));
            }
        }
        if Instant::now() >= deadline {
            break End::TimedOut;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    kill_group(pgid);
    let _ = child.wait();
    // The output pipe closes once the group is gone; a straggler that left
    // the group may hold it open, so the wait for the reader is bounded.
    let drained = Instant::now() + Duration::from_secs(1);
    while !done.load(Ordering::Acquire) && Instant::now() < drained {
        std::thread::sleep(Duration::from_millis(2));
    }
    let secs = spec.time_limit.as_secs_f64();
    let status = match end {
        End::TimedOut => {
            return Err(Unread::Student(format!(
                "{shown} gave no answer within {secs} s and was stopped"
            )))
        }
        End::TooMuch => {
            return Err(Unread::Student(format!(
                "{shown} printed more than {} KiB and was stopped",
                spec.output_limit >> 10
            )))
        }
        End::Exited(status) => status,
    };
    if too_much() {
        return Err(Unread::Student(format!(
            "{shown} printed more than {} KiB",
            spec.output_limit >> 10
        )));
    }
    if let Some(sig) = status.signal() {
        return Err(Unread::Student(format!(
            "{shown} crashed: killed by signal {sig}{}",
            signal_name(sig)
        )));
    }
    if let Some(code) = status.code().filter(|&c| c != 0) {
        return Err(Unread::Student(format!(
            "{shown} failed: it exited with status {code}"
        )));
    }
    let buf = std::mem::take(
        &mut *out
            .lock()
            .map_err(|_| Unread::Grader("output lost".into()))?,
    );
    let text = String::from_utf8(buf).map_err(|e| {
        Unread::Student(format!(
            "{shown} printed bytes that are not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    if text.trim().is_empty() {
        return Err(Unread::Student(format!("{shown} printed nothing")));
    }
    Ok(without_grader_paths(text, input))
}

/// What a program printed, with the grader's temporary paths it may echo
/// (the input file, its folder) replaced by the input's name and `.`, so
/// that quoting the output back never shows a path of the grader's.
fn without_grader_paths(text: String, input: &Path) -> String {
    let mut text = text;
    let name = input.file_name().map(|n| n.to_string_lossy().into_owned());
    let full = input.to_string_lossy();
    if let Some(name) = &name {
        if !full.is_empty() && text.contains(&*full) {
            text = text.replace(&*full, name);
        }
    }
    if let Some(dir) = input.parent().map(|d| d.to_string_lossy().into_owned()) {
        if dir.len() > 1 && text.contains(&dir) {
            text = text.replace(&dir, ".");
        }
    }
    text
}

/// A temporary folder for the inputs a student's program reads, readable
/// by it and removed when dropped.
pub struct Workspace {
    dir: PathBuf,
}

impl Workspace {
    /// Makes a fresh folder under the system's temporary folder.
    pub fn new() -> Result<Workspace, String> {
        use std::os::unix::fs::PermissionsExt;
        let base = std::env::temp_dir();
        for n in 0..1000u32 {
            let dir = base.join(format!("course-run-{}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
                    return Ok(Workspace { dir });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("{}: {e}", dir.display())),
            }
        }
        Err("no temporary folder could be made".into())
    }

    /// Writes `STEM.txt` with `text` (the folder made again if a program
    /// removed it); its path.
    pub fn write(&self, stem: &str, text: &str) -> Result<PathBuf, String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let p = self.dir.join(format!("{stem}.txt"));
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(p)
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_into_words_without_a_shell() {
        assert_eq!(
            split_command("python3  'my sched.py' {input} --x \"a b\"").unwrap(),
            ["python3", "my sched.py", "{input}", "--x", "a b"]
        );
        assert_eq!(split_command("a$HOME;b *").unwrap(), ["a$HOME;b", "*"]);
        assert_eq!(split_command("x ''").unwrap(), ["x", ""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("x 'y").unwrap_err().contains("unclosed"));
    }

    fn spec(cmd: &str, secs: f64) -> RunSpec {
        RunSpec {
            words: split_command(cmd).unwrap(),
            time_limit: Duration::from_secs_f64(secs),
            output_limit: 1 << 10,
        }
    }

    fn run(cmd: &str, secs: f64) -> Result<String, Unread> {
        let tmp = std::env::temp_dir();
        run_scheduler(
            &spec(cmd, secs),
            &tmp,
            Path::new("/dev/null"),
            "a: r1 = li 1\n",
        )
    }

    fn why(r: Result<String, Unread>) -> String {
        match r {
            Err(Unread::Student(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn outcomes_are_told_apart() {
        assert_eq!(run("echo a 0", 5.0).unwrap(), "a 0\n");
        // No {input}: the text arrives on standard input.
        assert_eq!(run("cat", 5.0).unwrap(), "a: r1 = li 1\n");
        let t = Instant::now();
        let e = why(run("sleep 30", 0.3));
        assert!(e.contains("no answer within 0.3 s"), "{e}");
        assert!(t.elapsed() < Duration::from_secs(5));
        assert!(why(run("yes", 5.0)).contains("printed more than 1 KiB"));
        assert!(why(run("false", 5.0)).contains("exited with status 1"));
        assert!(why(run("true", 5.0)).contains("printed nothing"));
        assert!(why(run("./no-such-program-here", 5.0)).contains("no such program"));
        assert!(why(run("sh -c 'kill -SEGV $$'", 5.0)).contains("signal 11 (SIGSEGV"));
        // The grader's secrets stay out of the environment.
        std::env::set_var("COURSE_SECRET_SEED", "s3cret");
        assert!(!run("env", 5.0).unwrap_or_default().contains("s3cret"));
    }

    #[test]
    fn echoed_grader_paths_come_back_as_the_inputs_name() {
        let ws = Workspace::new().unwrap();
        let input = ws.write("running", "a: r1 = li 1\n").unwrap();
        let dir = input.parent().unwrap().to_string_lossy().into_owned();
        let out = run_scheduler(
            &spec("echo {input} in {input}", 5.0),
            &std::env::temp_dir(),
            &input,
            "",
        )
        .unwrap();
        assert_eq!(out, "running.txt in running.txt\n");
        let out = without_grader_paths(format!("{dir}/other {dir}\n"), &input);
        assert_eq!(out, "./other .\n");
    }
}
