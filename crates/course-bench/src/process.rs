//! Whole-process benchmarks (issue 14): the `course` binary run as a user
//! runs it, on generated inputs of growing size, one process per run. Each
//! figure is the wall time from spawn to exit (fastest, median and slowest
//! of the runs) and the child's peak resident memory, the kernel's
//! high-water mark read with `wait4`, together with the shell commands
//! that reproduce it.
//!
//! The inputs are written to a fresh temporary folder by `course gen` (the
//! binary running the benchmark) or, for the machine views, as YAML; the
//! measured binary may be another build, so one harness gives the before
//! and the after of a change. Everything runs on the built-in toy machine.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{Options, fit, median};
use crate::report::{Measurement, Section};

/// What a workload runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// `course gen block --ops N --seed 1`.
    Block,
    /// `course gen loop --ops N --seed 1`.
    Loop,
    /// A machine whose class `big` holds its unit for N cycles.
    Occupancy,
    /// A machine file whose `classes` are nested N brackets deep.
    Depth,
}

/// One line of the table: a command on inputs of growing size.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    /// The measurement label.
    pub label: &'static str,
    pub input: Input,
    /// The arguments; `{}` stands for the input file.
    pub args: &'static [&'static str],
    /// The sizes, smallest first, and those of `--quick`.
    pub sizes: &'static [u64],
    pub quick_sizes: &'static [u64],
}

/// The workloads, in the order of the table.
pub const WORKLOADS: &[Workload] = &[
    Workload {
        label: "schedule loop",
        input: Input::Loop,
        args: &["schedule", "{}"],
        sizes: &[1_000, 3_000, 10_000, 30_000, 100_000],
        quick_sizes: &[1_000, 10_000],
    },
    Workload {
        label: "analyze json",
        input: Input::Block,
        args: &["analyze", "{}", "--format", "json"],
        sizes: &[1_000, 10_000, 100_000, 1_000_000],
        quick_sizes: &[1_000, 10_000],
    },
    Workload {
        label: "schedule json",
        input: Input::Block,
        args: &["schedule", "{}", "--format", "json"],
        sizes: &[1_000, 10_000, 100_000, 1_000_000],
        quick_sizes: &[1_000, 10_000],
    },
    Workload {
        label: "schedule text",
        input: Input::Block,
        args: &["schedule", "{}"],
        sizes: &[1_000, 10_000, 100_000, 1_000_000],
        quick_sizes: &[1_000, 10_000],
    },
    Workload {
        label: "machine occupancy",
        input: Input::Occupancy,
        args: &["machine", "{}"],
        sizes: &[4_096, 8_192, 65_536],
        quick_sizes: &[256],
    },
    Workload {
        label: "machine yaml depth",
        input: Input::Depth,
        args: &["machine", "{}"],
        sizes: &[40_000, 300_000],
        quick_sizes: &[1_000],
    },
];

/// The binaries: `gen` writes the inputs (the running `course`), `measured`
/// is timed (the same binary unless `course-bench --exe` names another).
#[derive(Clone, Copy, Debug)]
pub struct Binaries<'a> {
    pub generator: &'a Path,
    pub measured: &'a Path,
}

/// One finished (or stopped) run of a child process.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// Spawn to exit, in seconds.
    pub wall_s: f64,
    /// Peak resident set size in bytes, where the platform reports it.
    pub peak_rss_bytes: Option<u64>,
    /// The exit code; `None` when killed by a signal.
    pub code: Option<i32>,
    /// Whether the run was stopped at the time cap.
    pub stopped: bool,
}

/// The file name of an input, and its text for the inputs written here
/// (`None`: written by `course gen`).
pub fn input_file(input: Input, n: u64) -> (String, Option<String>) {
    match input {
        Input::Block => (format!("block{n}.txt"), None),
        Input::Loop => (format!("loop{n}.txt"), None),
        Input::Occupancy => (
            format!("occ{n}.yaml"),
            Some(format!(
                "name: big\nissue_width: 2\nresources:\n  - {{name: u, capacity: 1}}\nclasses:\n  - {{name: big, latency: {n}, opcodes: [big], unit: u, occupancy: {n}}}\n  - {{name: small, latency: 1, opcodes: [small], unit: u}}\n"
            )),
        ),
        Input::Depth => {
            let n = n as usize;
            let mut s = String::with_capacity(2 * n + 10);
            s.push_str("classes: ");
            s.extend(std::iter::repeat_n('[', n));
            s.extend(std::iter::repeat_n(']', n));
            s.push('\n');
            (format!("deep{n}.yaml"), Some(s))
        }
    }
}

/// The shell commands that make the input and run the workload once.
pub fn command_line(w: &Workload, n: u64) -> String {
    let (file, _) = input_file(w.input, n);
    let make = match w.input {
        Input::Block => format!("course gen block --ops {n} --seed 1 > {file}"),
        Input::Loop => format!("course gen loop --ops {n} --seed 1 > {file}"),
        Input::Occupancy => {
            let text = input_file(w.input, n).1.unwrap_or_default();
            format!("printf '{}' > {file}", text.replace('\n', "\\n"))
        }
        Input::Depth => format!("python3 -c \"print('classes: ' + '['*{n} + ']'*{n})\" > {file}"),
    };
    let args: Vec<&str> = w
        .args
        .iter()
        .map(|a| if *a == "{}" { file.as_str() } else { a })
        .collect();
    format!("{make}; course {} > /dev/null", args.join(" "))
}

/// Writes the input of size `n` into `dir`; its path.
fn make_input(dir: &Path, bins: Binaries<'_>, input: Input, n: u64) -> Result<PathBuf, String> {
    let (name, text) = input_file(input, n);
    let path = dir.join(name);
    if path.exists() {
        return Ok(path);
    }
    match text {
        Some(t) => {
            fs::write(&path, t).map_err(|e| format!("cannot write {}: {e}", path.display()))?
        }
        None => {
            let kind = if input == Input::Loop {
                "loop"
            } else {
                "block"
            };
            let out =
                File::create(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            let status = Command::new(bins.generator)
                .args(["gen", kind, "--ops", &n.to_string(), "--seed", "1"])
                .stdin(Stdio::null())
                .stdout(out)
                .stderr(Stdio::null())
                .status()
                .map_err(|e| format!("cannot run {}: {e}", bins.generator.display()))?;
            if !status.success() {
                return Err(format!("course gen {kind} --ops {n} failed: {status}"));
            }
        }
    }
    Ok(path)
}

/// Runs `exe args…` once with output discarded, stopped after `cap`.
#[cfg(unix)]
pub fn run_once(exe: &Path, args: &[&str], cap: Duration) -> Result<Run, String> {
    use std::sync::mpsc;
    let start = Instant::now();
    let child = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let pid = child.id() as libc::pid_t;
    // A watchdog kills the child at the cap; the child is reaped below by
    // `wait4`, which std's `Child` never learns about (dropping it neither
    // waits nor kills).
    let (done, told) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if told.recv_timeout(cap) == Err(mpsc::RecvTimeoutError::Timeout) {
            // SAFETY: a plain system call on the pid of our own child, not
            // yet reaped: the main thread reaps it only once it has exited.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            true
        } else {
            false
        }
    });
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain data, valid when zeroed.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = loop {
        // SAFETY: both pointers are to live locals of the right types.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        break r;
    };
    let wall_s = start.elapsed().as_secs_f64();
    let _ = done.send(());
    let stopped = watchdog.join().unwrap_or(false);
    drop(child);
    if reaped != pid {
        return Err(format!(
            "waiting for {}: {}",
            exe.display(),
            std::io::Error::last_os_error()
        ));
    }
    // Linux reports the high-water mark in KiB, macOS in bytes.
    let rss = usage.ru_maxrss.max(0) as u64;
    let peak_rss_bytes = Some(if cfg!(target_os = "macos") {
        rss
    } else {
        rss * 1024
    });
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Ok(Run {
        wall_s,
        peak_rss_bytes,
        code,
        stopped,
    })
}

/// Runs `exe args…` once with output discarded (no memory figure or cap
/// on this platform).
#[cfg(not(unix))]
pub fn run_once(exe: &Path, args: &[&str], _cap: Duration) -> Result<Run, String> {
    let start = Instant::now();
    let status = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    Ok(Run {
        wall_s: start.elapsed().as_secs_f64(),
        peak_rss_bytes: None,
        code: status.code(),
        stopped: false,
    })
}

/// Runs per size: one with `--quick`, else three, or five when the first
/// run took less than a second (small figures are the noisier).
fn runs(opts: Options, first: &Run) -> usize {
    match (opts.quick, first.wall_s < 1.0) {
        (true, _) => 1,
        (false, true) => 5,
        (false, false) => 3,
    }
}

/// Every workload of [`WORKLOADS`] as whole processes of `bins.measured`;
/// a run longer than `cap` is stopped and ends its workload.
pub fn processes(opts: Options, bins: Binaries<'_>, cap: Duration) -> Result<Section, String> {
    // A fresh folder of a random name (made with an exclusive `mkdir`),
    // removed when `scratch` is dropped, after the last run.
    let scratch = tempfile::Builder::new()
        .prefix("course-bench-")
        .tempdir()
        // The error names the folder tried.
        .map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let mut ms = Vec::new();
    // Sizes stopped at the cap, left out of the fits (only a lower bound).
    let mut stopped = Vec::new();
    let mut fits = Vec::new();
    for w in WORKLOADS {
        let sizes = if opts.quick { w.quick_sizes } else { w.sizes };
        for &n in sizes {
            let path = make_input(scratch.path(), bins, w.input, n)?;
            let file = path.to_string_lossy();
            let args: Vec<&str> = w
                .args
                .iter()
                .map(|a| if *a == "{}" { &*file } else { a })
                .collect();
            let mut done = vec![run_once(bins.measured, &args, cap)?];
            while !done[0].stopped && done.len() < runs(opts, &done[0]) {
                done.push(run_once(bins.measured, &args, cap)?);
            }
            ms.push(measurement(w, n, &done, cap));
            stopped.push(done.iter().any(|r| r.stopped));
            if stopped[stopped.len() - 1] {
                break;
            }
        }
        let finished: Vec<Measurement> = ms
            .iter()
            .zip(&stopped)
            .filter(|&(_, &s)| !s)
            .map(|(m, _)| m.clone())
            .collect();
        let first = sizes.first().copied().unwrap_or(0);
        fits.extend(fit(&finished, w.label, first, u64::MAX));
        if w.input == Input::Block || w.input == Input::Loop {
            fits.extend(fit(&finished, w.label, first.max(10_000), u64::MAX));
        }
    }
    // A fit needs two sizes.
    fits.retain(|f| f.from < f.to);
    Ok(Section {
        name: "process".into(),
        title: format!(
            "Whole processes of {} (toy machine)",
            bins.measured.display()
        ),
        measurements: ms,
        fits,
    })
}

/// The figure of one workload and size from its runs.
fn measurement(w: &Workload, n: u64, done: &[Run], cap: Duration) -> Measurement {
    let times: Vec<f64> = done.iter().map(|r| r.wall_s).collect();
    let mut note = command_line(w, n);
    let codes: Vec<String> = done
        .iter()
        .filter(|r| !r.stopped && r.code != Some(0))
        .map(|r| r.code.map_or("a signal".into(), |c| format!("exit {c}")))
        .collect();
    if let Some(c) = codes.first() {
        note.push_str(&format!(" ({c})"));
    }
    if done.iter().any(|r| r.stopped) {
        note.push_str(&format!(" (stopped after {} s)", cap.as_secs()));
    }
    Measurement {
        label: w.label.into(),
        max_s: times.iter().copied().reduce(f64::max),
        median_s: median(&times),
        min_s: times.iter().copied().reduce(f64::min),
        note,
        peak_bytes: None,
        peak_rss_bytes: done.iter().filter_map(|r| r.peak_rss_bytes).max(),
        runs: done.len(),
        size: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_name_their_inputs() {
        let w = &WORKLOADS[2];
        assert_eq!(
            command_line(w, 1000),
            "course gen block --ops 1000 --seed 1 > block1000.txt; course schedule block1000.txt --format json > /dev/null"
        );
        let (name, text) = input_file(Input::Depth, 3);
        assert_eq!(
            (name.as_str(), text.as_deref()),
            ("deep3.yaml", Some("classes: [[[]]]\n"))
        );
        assert!(command_line(&WORKLOADS[4], 8).starts_with(
            "printf 'name: big\\nissue_width: 2\\nresources:\\n  - {name: u, capacity: 1}\\n"
        ));
        let (_, text) = input_file(Input::Occupancy, 8);
        let m =
            course_engine::model::machine::Machine::from_yaml(&text.unwrap(), "occ8.yaml").unwrap();
        assert_eq!(m.classes().len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn a_child_is_timed_measured_and_stopped_at_the_cap() {
        let sh = Path::new("/bin/sh");
        let r = run_once(sh, &["-c", "exit 3"], Duration::from_secs(30)).unwrap();
        assert_eq!((r.code, r.stopped), (Some(3), false));
        assert!(r.peak_rss_bytes.unwrap() > 0);
        let r = run_once(sh, &["-c", "sleep 5"], Duration::from_millis(100)).unwrap();
        assert!(r.stopped && r.code.is_none(), "{r:?}");
        assert!(r.wall_s < 4.0, "{r:?}");
    }
}
