//! Every run of a student's program goes through here: one sandbox, three
//! strengths, chosen once per grading run ([`choose`]).
//!
//! - [`Isolation::Namespaces`]: new user, pid, mount, network, IPC and UTS
//!   namespaces made by the kernel for this run alone (the keeper of
//!   `helper`). The program runs as uid 1000 inside, an unprivileged
//!   uid outside (the grader's own when it is not root; `--sandbox-uid`
//!   plus the job's slot when it is), with no capability, `no_new_privs`
//!   and a seccomp filter ([`filter`]). It sees only read-only system
//!   folders, a private copy of its own folder, its input, a private
//!   `/tmp`, its own `/proc`, and a network namespace with no interface
//!   up. When its first process ends or is killed, the pid namespace
//!   dies with everything in it.
//! - [`Isolation::Uid`]: where the kernel refuses new namespaces (Docker's
//!   default seccomp profile, Gradescope), a grader running as root runs
//!   the program as the unprivileged uid instead, with the same limits,
//!   `no_new_privs` and seccomp filter, in private folders of that uid
//!   (0700, under a 0711 folder with a random name), confined by Landlock
//!   where the kernel has it ([`confine`]: it reads the system, its input
//!   and its own folders, writes only its own); its folders are measured
//!   while it runs. After the run every process of that uid is killed and
//!   everything it owns in the folders every user may write, and its
//!   System V objects, are removed, each checked. Before anyone is graded,
//!   the preflight refuses a machine where the program could read a copy
//!   of the reference, and `--jobs` above 1 without Landlock unless asked.
//! - [`Isolation::Off`] (`--unsandboxed`): the program runs as the grader,
//!   with the limits and in a process group that is killed afterwards.
//!   Reports say so in their header.
//!
//! Limits ([`Limits`]), each a flag of `course grade`: wall time (the
//! grader's clock), CPU time, address space, processes, the size of a file
//! written, open files, the bytes read from standard output, and the size
//! of the private `/tmp` and home. Every run is a session of its own, so
//! the scheduler's autogroups share the CPU between runs, not processes.

pub mod confine;
pub mod filter;
mod helper;
mod probe;
mod staging;
mod uids;

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use rustix::process::{Resource, Rlimit};
use serde::{Deserialize, Serialize};

use course_content::lab::Unread;

pub use helper::{HELPER_ARG, main as keeper_main};
pub use probe::{Guarantee, SandboxCheck, check, open_to_others};
pub use staging::StagingRoot;
pub use uids::{UidClaim, claim_uids, kill_uid, processes_of};

use probe::{probe, uid_preflight, uid_problem};
use staging::{Staged, make_removable, stage};

/// The program's uid and gid inside the namespaces.
pub const SANDBOX_UID: u32 = 1000;
/// See [`SANDBOX_UID`].
pub const SANDBOX_GID: u32 = 1000;
/// The first outside uid a root grader gives sandboxed programs (slot `k`
/// of `--jobs` gets `base + k`), the value isolate uses.
pub const DEFAULT_UID_BASE: u32 = 60_000;
/// The folders searched for a program named without a `/`.
const PATH_DIRS: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin"];
/// The most bytes and entries of a student's folder copied for a run.
const MAX_COPY_BYTES: u64 = 64 << 20;
const MAX_COPY_ENTRIES: usize = 10_000;
/// The most files and folders a run may make in its own folders under uid
/// separation, beyond the copy of the student's folder (as the keeper's
/// `/tmp` in namespaces).
const TMP_ENTRIES: usize = 4096;
/// How many times a start that fails with `ETXTBSY` is tried (10 ms apart).
const ETXTBSY_TRIES: u32 = 50;

/// How strongly a student's program is kept apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Isolation {
    /// New namespaces, an unprivileged uid, seccomp (see the module text).
    Namespaces,
    /// A separate unprivileged uid only (the grader is root).
    Uid,
    /// No isolation: `--unsandboxed`; limits only.
    Off,
}

impl Isolation {
    /// How reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            Isolation::Namespaces => {
                "namespaces (user, pid, mount, network, IPC, UTS), an unprivileged uid, no capabilities, no_new_privs, seccomp"
            }
            Isolation::Uid => {
                "a separate unprivileged uid, no_new_privs, seccomp (no namespaces: the kernel refused them)"
            }
            Isolation::Off => {
                "NONE: --unsandboxed; the students' programs ran with the grader's rights"
            }
        }
    }
}

/// What `--run` asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wanted {
    /// The strongest available: namespaces, else (as root) a uid.
    #[default]
    Auto,
    /// Namespaces or nothing.
    Namespaces,
    /// Uid separation (needs root).
    Uid,
    /// `--unsandboxed`.
    Off,
}

/// The limits of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall time.
    pub wall: Duration,
    /// CPU time of each process.
    pub cpu: Duration,
    /// Address space of each process, bytes.
    pub memory: u64,
    /// Processes and threads of the run.
    pub processes: u64,
    /// The largest file the program may write, bytes.
    pub file_size: u64,
    /// The most bytes of standard output read.
    pub output: u64,
    /// The size of the private `/tmp` and home (namespaces), bytes.
    pub disk: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            wall: Duration::from_secs(10),
            cpu: Duration::from_secs(10),
            memory: 512 << 20,
            processes: 64,
            file_size: 16 << 20,
            output: 1 << 20,
            disk: 64 << 20,
        }
    }
}

/// The resource limits as `setrlimit` takes them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Rlimits {
    cpu_secs: u64,
    memory: u64,
    processes: u64,
    file_size: u64,
}

impl From<&Limits> for Rlimits {
    fn from(l: &Limits) -> Rlimits {
        Rlimits {
            cpu_secs: l.cpu.as_secs_f64().ceil().max(1.0) as u64,
            memory: l.memory,
            processes: l.processes,
            file_size: l.file_size,
        }
    }
}

/// The `setrlimit` calls for `l` (CPU: SIGXCPU at the limit, SIGKILL a
/// second later).
fn rlimits(l: &Rlimits) -> Vec<(Resource, Rlimit)> {
    let lim = |soft: u64, hard: u64| Rlimit {
        current: Some(soft),
        maximum: Some(hard),
    };
    vec![
        (Resource::Cpu, lim(l.cpu_secs, l.cpu_secs + 1)),
        (Resource::As, lim(l.memory, l.memory)),
        (Resource::Nproc, lim(l.processes, l.processes)),
        (Resource::Fsize, lim(l.file_size, l.file_size)),
        (Resource::Nofile, lim(256, 256)),
        (Resource::Core, lim(0, 0)),
        (Resource::Memlock, lim(0, 0)),
    ]
}

/// What the keeper is told (as JSON, its second argument).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct HelperConfig {
    program: String,
    argv: Vec<String>,
    env: Vec<(String, String)>,
    staging: PathBuf,
    input_name: Option<String>,
    stdin_input: bool,
    binds: Vec<PathBuf>,
    masks: Vec<PathBuf>,
    disk_limit: u64,
    home_size: u64,
    limits: Rlimits,
}

/// The sandbox of a grading run.
#[derive(Clone, Debug)]
pub struct Sandbox {
    pub isolation: Isolation,
    pub limits: Limits,
    /// Extra folders bound read-only at the same path (an interpreter
    /// outside `/usr`, say).
    pub binds: Vec<PathBuf>,
    /// Paths hidden inside the sandbox when a bound folder holds them (the
    /// `course` program, the course data).
    pub masks: Vec<PathBuf>,
    /// The outside uids a root grader holds for this run, one a slot
    /// ([`claim_uids`]); empty when it is not root or none is mapped.
    pub uids: Arc<UidClaim>,
    /// The `course` program that becomes the keeper.
    pub helper: PathBuf,
    /// Where the runs' private folders are made.
    pub staging: Arc<StagingRoot>,
    /// The kernel's Landlock ABI (0: none), which uid separation uses.
    pub landlock: u32,
    /// The folders a sandbox uid may write to, cleaned after every run
    /// under uid separation (found by [`confine::survey`]).
    pub shared: Arc<Vec<PathBuf>>,
    /// `--jobs` above 1 under uid separation without Landlock, where
    /// concurrent runs can reach each other: allowed only when asked.
    pub open_parallel: bool,
}

impl Sandbox {
    /// A sandbox with no isolation chosen yet, no uid claimed, and the
    /// Landlock ABI of this kernel.
    pub fn new(
        limits: Limits,
        binds: Vec<PathBuf>,
        masks: Vec<PathBuf>,
        helper: PathBuf,
    ) -> Result<Sandbox, String> {
        Ok(Sandbox {
            isolation: Isolation::Off,
            limits,
            binds,
            masks,
            uids: Default::default(),
            helper,
            staging: Arc::new(StagingRoot::new()?),
            landlock: confine::landlock_abi(),
            shared: Default::default(),
            open_parallel: false,
        })
    }

    /// How reports name its isolation, Landlock included.
    pub fn describe(&self) -> String {
        describe(self.isolation, self.landlock)
    }
}

/// How reports name `isolation` on a kernel with Landlock ABI `landlock`.
fn describe(isolation: Isolation, landlock: u32) -> String {
    match (isolation, landlock) {
        (Isolation::Uid, 0) => format!("{} (no Landlock here)", isolation.describe()),
        (Isolation::Uid, abi) => format!(
            "a separate unprivileged uid, Landlock (ABI {abi}: its own folders, the system's, its input), no_new_privs, seccomp (no namespaces: the kernel refused them)"
        ),
        _ => isolation.describe().to_string(),
    }
}

/// One run: a program, a student's folder, an input.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The command's words, `{input}` not yet replaced.
    pub words: &'a [String],
    /// The student's folder (copied; never written).
    pub folder: &'a Path,
    /// The input's file stem (`running`) and text.
    pub stem: &'a str,
    pub text: &'a str,
    /// Which of `--jobs` workers runs it (`0 …`).
    pub slot: usize,
}

/// The placeholder replaced by the input file's path.
pub const INPUT: &str = "{input}";

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// The folders a program named without a `/` is looked for in.
fn path_dirs(sb: &Sandbox) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = PATH_DIRS.iter().map(PathBuf::from).collect();
    for b in &sb.binds {
        out.push(b.join("bin"));
        out.push(b.clone());
    }
    out
}

/// The program a command starts, as the sandbox will see it: a path
/// relative to the student's folder (`./sched`, `bin/sched`), or an
/// absolute one (given, or found in the sandbox's `PATH`). A program that
/// no student can start (not on that `PATH`, an absolute path that is not
/// there) is the grader's error.
pub fn resolve(sb: &Sandbox, words: &[String]) -> Result<String, String> {
    let Some(program) = words.first() else {
        return Err("the --run command is empty".into());
    };
    if program.contains(INPUT) {
        return Err("--run: the program itself cannot be {input}".into());
    }
    if program.contains('/') {
        let p = Path::new(program);
        if p.is_absolute() && !p.exists() {
            return Err(format!("--run: {program} does not exist on this machine"));
        }
        return Ok(program.clone());
    }
    for d in path_dirs(sb) {
        let c = d.join(program);
        if c.metadata()
            .is_ok_and(|m| m.is_file() && m.mode() & 0o111 != 0)
        {
            return Ok(c.to_string_lossy().into_owned());
        }
    }
    Err(format!(
        "--run: {program} is not in the sandbox's PATH ({}); give its full path, or --sandbox-bind its folder",
        path_dirs(sb)
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(":")
    ))
}

/// The environment a program gets.
fn environment(sb: &Sandbox, home: &str, tmp: &str) -> Vec<(String, String)> {
    let path: Vec<String> = path_dirs(sb)
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    let lang = std::env::var("LANG").unwrap_or_else(|_| "C.UTF-8".into());
    vec![
        ("PATH".into(), path.join(":")),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), tmp.into()),
        ("USER".into(), "student".into()),
        ("LANG".into(), lang),
    ]
}

/// How the run ended, before it is judged.
enum End {
    Exited(Option<i32>, Option<i32>),
    TimedOut,
    TooMuch,
    /// Its folders grew past the disk limit (uid separation).
    TooBig,
}

/// Runs a student's program on one input under `sb`, and returns what it
/// printed or why that is not a schedule. Every process the program
/// started is gone when this returns.
pub fn run(sb: &Sandbox, job: &Job) -> Result<String, Unread> {
    let program = resolve(sb, job.words).map_err(Unread::Grader)?;
    let shown = Path::new(&program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !Path::new(&program).is_absolute() {
        // In the student's folder: missing there is the student's doing.
        match std::fs::symlink_metadata(job.folder.join(&program)) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Unread::Student(format!(
                    "could not start {shown}: there is no {program} in the submission"
                )));
            }
            Err(e) => return Err(Unread::Grader(format!("could not look for {program}: {e}"))),
        }
    }
    let st = stage(sb, job)?;
    let uses_input = job.words.iter().any(|w| w.contains(INPUT));
    let seen_input = match sb.isolation {
        Isolation::Namespaces => format!("/input/{}", st.input_name),
        _ => st.input_file.to_string_lossy().into_owned(),
    };
    let argv: Vec<String> = std::iter::once(program.clone())
        .chain(job.words[1..].iter().map(|w| w.replace(INPUT, &seen_input)))
        .collect();
    let out = match sb.isolation {
        Isolation::Namespaces => {
            let cfg = HelperConfig {
                program: program.clone(),
                argv,
                env: environment(sb, "/home/student", "/tmp"),
                staging: st.staging.dir.clone(),
                input_name: Some(st.input_name.clone()),
                stdin_input: !uses_input,
                binds: sb.binds.clone(),
                masks: sb.masks.clone(),
                disk_limit: sb.limits.disk,
                // Room for the copy (its bytes and a block a file) on top.
                home_size: sb.limits.disk + st.copied.0 + 4096 * st.copied.1 as u64,
                limits: (&sb.limits).into(),
            };
            run_keeper(sb, &cfg, st.ids, &shown)
        }
        Isolation::Uid | Isolation::Off => run_outside(sb, &st, &program, argv, uses_input, &shown),
    }?;
    let text = String::from_utf8(out).map_err(|e| {
        Unread::Student(format!(
            "{shown} printed bytes that are not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    if text.trim().is_empty() {
        return Err(Unread::Student(format!("{shown} printed nothing")));
    }
    Ok(redact(sb, job, &st, &seen_input, text))
}

/// A run without the keeper: as the sandbox uid (with Landlock where the
/// kernel has it, and the clean-up after), or unsandboxed.
fn run_outside(
    sb: &Sandbox,
    st: &Staged,
    program: &str,
    argv: Vec<String>,
    uses_input: bool,
    shown: &str,
) -> Result<Vec<u8>, Unread> {
    let sandbox_failed = |e: String| Unread::Grader(format!("the sandbox failed: {e}"));
    let home = &st.home;
    let exe = if Path::new(program).is_absolute() {
        PathBuf::from(program)
    } else {
        home.join(program)
    };
    let uid_mode = sb.isolation == Isolation::Uid;
    let landlock = if uid_mode && sb.landlock > 0 {
        let files: Vec<&Path> = [st.input_file.as_path(), exe.as_path()]
            .into_iter()
            .filter(|p| !p.starts_with(home))
            .collect();
        let view = confine::View {
            own: &[home, &st.tmp],
            files: &files,
            binds: &sb.binds,
        };
        Some(confine::ruleset(&view).map_err(sandbox_failed)?)
    } else {
        None
    };
    let home_s = home.to_string_lossy().into_owned();
    let tmp_s = if uid_mode {
        st.tmp.to_string_lossy().into_owned()
    } else {
        home_s.clone()
    };
    let direct = Direct {
        exe,
        argv,
        env: environment(sb, &home_s, &tmp_s),
        cwd: home.clone(),
        stdin: (!uses_input).then(|| st.input_file.clone()),
        ids: uid_mode.then_some(st.ids),
        landlock,
        watched: if uid_mode {
            vec![home.clone(), st.tmp.clone()]
        } else {
            Vec::new()
        },
        allowance: confine::usage(home, usize::MAX),
    };
    let r = run_direct(sb, &direct, shown);
    if uid_mode {
        // What the run's uid left anywhere it could write goes, and the
        // removal is checked, as the kill of its processes was.
        confine::clean_uid(st.ids.0, &sb.shared, sb.staging.path()).map_err(sandbox_failed)?;
    }
    r
}

/// `text` without the paths of the run (its input, its folder) and of
/// the grader (the staging root, the class folder, the masked paths) that
/// a program may have read and printed.
fn redact(sb: &Sandbox, job: &Job, st: &Staged, seen_input: &str, text: String) -> String {
    let home_s = st.home.to_string_lossy();
    let root_s = sb.staging.path().to_string_lossy();
    let mut pairs: Vec<(&str, &str)> = vec![
        (seen_input, &st.input_name),
        (&home_s, "."),
        (&root_s, "<grader>"),
    ];
    let folder = job.folder.to_string_lossy();
    let class = job
        .folder
        .parent()
        .filter(|p| p.components().count() > 2)
        .map(|p| p.to_string_lossy());
    pairs.push((&folder, "."));
    if let Some(c) = &class {
        pairs.push((c, "<class>"));
    }
    let masks: Vec<_> = sb.masks.iter().map(|m| m.to_string_lossy()).collect();
    pairs.extend(masks.iter().map(|m| (m.as_ref(), "<grader>")));
    without_paths(text, &pairs)
}

/// What a program printed, with the paths of the run it may echo (its
/// input, its folder) replaced by the input's name and `.`, so that
/// quoting the output back never shows a path of the grader's.
fn without_paths(mut text: String, pairs: &[(&str, &str)]) -> String {
    for (from, to) in pairs {
        if from.len() > 1 && text.contains(from) {
            text = text.replace(from, to);
        }
    }
    text
}

/// Reads a child's standard output on a thread, up to `limit` bytes (and
/// one chunk past it, to tell that it printed too much).
struct Output {
    buf: Arc<Mutex<Vec<u8>>>,
    done: Arc<AtomicBool>,
}

impl Output {
    fn start(child: &mut Child, limit: u64) -> Output {
        let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
        let done = Arc::new(AtomicBool::new(false));
        if let Some(mut stdout) = child.stdout.take() {
            let (buf, done) = (Arc::clone(&buf), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut chunk = vec![0u8; 64 << 10];
                loop {
                    match stdout.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let Ok(mut b) = buf.lock() else { break };
                            b.extend_from_slice(&chunk[..n]);
                            if b.len() as u64 > limit {
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
        Output { buf, done }
    }

    fn len(&self) -> u64 {
        self.buf.lock().map_or(0, |b| b.len()) as u64
    }

    /// Waits (a bounded time) for the reader to see the end of the pipe.
    fn finish(&self) {
        let until = Instant::now() + Duration::from_secs(1);
        while !self.done.load(Ordering::Acquire) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn take(&self) -> Vec<u8> {
        self.buf
            .lock()
            .map(|mut b| std::mem::take(&mut *b))
            .unwrap_or_default()
    }
}

/// The folders of a run whose size is bounded while it runs.
struct Watch<'a> {
    dirs: &'a [PathBuf],
    bytes: u64,
    entries: usize,
}

impl Watch<'_> {
    const NONE: Watch<'static> = Watch {
        dirs: &[],
        bytes: 0,
        entries: 0,
    };
}

/// Polls `exited` until it says the run ended, the time is up, the
/// output is over the limit, or (every 50 ms) the watched folders hold
/// more than their bytes or entries.
fn supervise(
    limits: &Limits,
    out: &Output,
    watch: &Watch,
    mut exited: impl FnMut() -> Result<Option<(Option<i32>, Option<i32>)>, String>,
) -> Result<End, String> {
    let deadline = Instant::now() + limits.wall;
    let mut pause = Duration::from_micros(200);
    let mut next_look = Instant::now();
    loop {
        if out.len() > limits.output {
            return Ok(End::TooMuch);
        }
        if !watch.dirs.is_empty() && Instant::now() >= next_look {
            next_look = Instant::now() + Duration::from_millis(50);
            let (mut bytes, mut n) = (0, 0);
            for w in watch.dirs {
                let (b, k) = confine::usage(w, watch.entries + 1);
                bytes += b;
                n += k;
            }
            if bytes > watch.bytes || n > watch.entries {
                return Ok(End::TooBig);
            }
        }
        if let Some((code, sig)) = exited()? {
            return Ok(End::Exited(code, sig));
        }
        if Instant::now() >= deadline {
            return Ok(End::TimedOut);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

/// The keeper's status lines, read on a thread.
fn status_lines(child: &mut Child) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    if let Some(err) = child.stderr.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().take(64) {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    rx
}

/// Writes the keeper's uid and gid maps: uid 1000 inside is `ids` outside.
fn write_maps(pid: u32, ids: (u32, u32)) -> std::io::Result<()> {
    let p = PathBuf::from(format!("/proc/{pid}"));
    std::fs::write(p.join("setgroups"), "deny")?;
    std::fs::write(p.join("uid_map"), format!("{SANDBOX_UID} {} 1\n", ids.0))?;
    std::fs::write(p.join("gid_map"), format!("{SANDBOX_GID} {} 1\n", ids.1))
}

/// Runs the keeper, which runs the program in new namespaces.
fn run_keeper(
    sb: &Sandbox,
    cfg: &HelperConfig,
    ids: (u32, u32),
    shown: &str,
) -> Result<Vec<u8>, Unread> {
    let grader = |why: String| Unread::Grader(format!("the sandbox failed: {why}"));
    let json = serde_json::to_string(cfg).map_err(|e| grader(e.to_string()))?;
    // The program can read pid 1's command line (`/proc/1/cmdline`), so it
    // says `course __sandbox-keeper` and no more: the configuration goes on
    // the keeper's standard input, and the grader's path stays out.
    let mut keeper = Command::new(&sb.helper);
    keeper
        .arg0("course")
        .arg(HELPER_ARG)
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A session of its own: the scheduler's autogroup shares the CPU
    // between sessions first, so a run that spins many processes takes
    // one session's share, not its neighbours'.
    // SAFETY: setsid is a system call; nothing is allocated.
    unsafe {
        keeper.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = keeper
        .spawn()
        .map_err(|e| grader(format!("could not start {}: {e}", sb.helper.display())))?;
    let status = status_lines(&mut child);
    let mut control = child.stdin.take();
    let abandon = |child: &mut Child| {
        let _ = child.kill();
        let _ = child.wait();
    };
    if let Some(c) = control.as_mut()
        && writeln!(c, "{json}").and_then(|_| c.flush()).is_err()
    {
        abandon(&mut child);
        return Err(grader("the keeper went away".into()));
    }
    match status.recv_timeout(Duration::from_secs(10)) {
        Ok(l) if l == "R" => {}
        Ok(l) => {
            abandon(&mut child);
            let why = l.trim_start_matches("E ");
            return Err(Unread::Grader(
                why.trim_start_matches("namespaces: ").to_string(),
            ));
        }
        Err(_) => {
            abandon(&mut child);
            return Err(grader("the keeper did not start".into()));
        }
    }
    if let Err(e) = write_maps(child.id(), ids) {
        abandon(&mut child);
        return Err(grader(format!("uid map: {e}")));
    }
    if let Some(c) = control.as_mut()
        && c.write_all(b"G").and_then(|_| c.flush()).is_err()
    {
        abandon(&mut child);
        return Err(grader("the keeper went away".into()));
    }
    let out = Output::start(&mut child, sb.limits.output);
    let mut lines = Vec::new();
    let end = supervise(&sb.limits, &out, &Watch::NONE, || {
        lines.extend(status.try_iter());
        if lines
            .iter()
            .any(|l| l.starts_with("S ") || l.starts_with("E "))
        {
            return Ok(Some((Some(0), None)));
        }
        match child.try_wait() {
            Ok(Some(_)) => Ok(Some((Some(0), None))),
            Ok(None) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    })
    .map_err(grader)?;
    // Stop the run (a no-op when it ended), then wait for the keeper: it
    // exits once pid 1 and so every process of the namespace is gone.
    drop(control.take());
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
            _ => {
                abandon(&mut child);
                return Err(grader("the keeper did not stop the run".into()));
            }
        }
    }
    lines.extend(status.iter());
    out.finish();
    let ended = judge_keeper(&lines, shown).map_err(|e| match e {
        KeeperError::Grader(s) => grader(s),
        KeeperError::Student(s) => Unread::Student(s),
    })?;
    let end = match end {
        End::Exited(..) => ended,
        other => other,
    };
    finish(end, &out, &sb.limits, shown)
}

enum KeeperError {
    Grader(String),
    Student(String),
}

/// How the keeper's lines say the program ended.
fn judge_keeper(lines: &[String], shown: &str) -> Result<End, KeeperError> {
    for l in lines {
        if let Some(rest) = l.strip_prefix("X ") {
            let errno: i32 = rest.trim().parse().unwrap_or(0);
            return Err(KeeperError::Student(exec_failure(shown, errno)));
        }
        if let Some(rest) = l.strip_prefix("E ") {
            return Err(KeeperError::Grader(rest.to_string()));
        }
        if let Some(rest) = l.strip_prefix("S ") {
            let mut w = rest.split_whitespace();
            let (kind, n) = (w.next(), w.next().and_then(|n| n.parse::<i32>().ok()));
            return Ok(match (kind, n) {
                (Some("signal"), Some(s)) => End::Exited(None, Some(s)),
                (_, n) => End::Exited(n, None),
            });
        }
    }
    Err(KeeperError::Grader("the keeper said nothing".into()))
}

/// Why `execve` of a student's program failed, for the student.
fn exec_failure(shown: &str, errno: i32) -> String {
    match errno {
        libc::ENOENT => format!(
            "could not start {shown}: its interpreter (the #! line) or a library it needs is not on the grading machine"
        ),
        libc::EACCES => format!("could not start {shown}: permission denied (is it executable?)"),
        libc::ENOEXEC => format!(
            "could not start {shown}: not a program this machine runs (a script needs a #! line)"
        ),
        _ => format!(
            "could not start {shown}: {}",
            std::io::Error::from_raw_os_error(errno)
        ),
    }
}

/// A program run without the keeper (uid separation, or unsandboxed).
struct Direct {
    exe: PathBuf,
    argv: Vec<String>,
    env: Vec<(String, String)>,
    cwd: PathBuf,
    stdin: Option<PathBuf>,
    ids: Option<(u32, u32)>,
    /// The Landlock ruleset applied before `execve` (uid separation).
    landlock: Option<std::os::fd::OwnedFd>,
    /// The run's own folders, whose size is bounded while it runs.
    watched: Vec<PathBuf>,
    /// What they held at the start (the copy of the student's folder),
    /// bytes and entries, allowed on top of the limits.
    allowance: (u64, usize),
}

fn run_direct(sb: &Sandbox, d: &Direct, shown: &str) -> Result<Vec<u8>, Unread> {
    let grader = |why: String| Unread::Grader(format!("the sandbox failed: {why}"));
    let limits = rlimits(&(&sb.limits).into());
    let filters = if sb.isolation == Isolation::Uid {
        filter::build(true).map_err(grader)?
    } else {
        Vec::new()
    };
    let stdin = match &d.stdin {
        Some(p) => Stdio::from(std::fs::File::open(p).map_err(|e| grader(e.to_string()))?),
        None => Stdio::null(),
    };
    let mut cmd = Command::new(&d.exe);
    cmd.args(&d.argv[1..])
        .current_dir(&d.cwd)
        .env_clear()
        .envs(d.env.iter().map(|(k, v)| (k, v)))
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let ids = d.ids;
    let landlock = d.landlock.as_ref().map(confine::raw);
    if ids.is_some() {
        // Orphans of the program come to the grader, which reaps them (a
        // zombie still counts against the uid's process limit).
        static SUBREAPER: std::sync::Once = std::sync::Once::new();
        // SAFETY: prctl with integer arguments.
        SUBREAPER.call_once(|| unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
        });
    }
    // SAFETY: the closure makes only system calls (no allocation, no lock):
    // everything it uses was made before the fork.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            if let Some((uid, gid)) = ids {
                if libc::setgroups(0, std::ptr::null()) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                rustix::thread::set_thread_res_gid(
                    rustix::process::Gid::from_raw(gid),
                    rustix::process::Gid::from_raw(gid),
                    rustix::process::Gid::from_raw(gid),
                )?;
                rustix::thread::set_thread_res_uid(
                    rustix::process::Uid::from_raw(uid),
                    rustix::process::Uid::from_raw(uid),
                    rustix::process::Uid::from_raw(uid),
                )?;
            }
            for (res, lim) in &limits {
                rustix::process::setrlimit(*res, *lim)?;
            }
            rustix::thread::set_no_new_privs(true)?;
            if let Some(fd) = landlock {
                confine::restrict(fd)?;
            }
            for f in &filters {
                seccompiler::apply_filter(f)
                    .map_err(|_| std::io::Error::from_raw_os_error(libc::EPERM))?;
            }
            Ok(())
        });
    }
    let mut spawned = cmd.spawn();
    for _ in 1..ETXTBSY_TRIES {
        // Busy text: a process forked on another grading thread while this
        // run's copy was being written holds a write descriptor of it until
        // it execs (every descriptor is close-on-exec); it goes away.
        match &spawned {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) => {
                std::thread::sleep(Duration::from_millis(10));
                spawned = cmd.spawn();
            }
            _ => break,
        }
    }
    let mut child = spawned.map_err(|e| match e.raw_os_error() {
        Some(errno @ (libc::ENOENT | libc::EACCES | libc::ENOEXEC)) => {
            Unread::Student(exec_failure(shown, errno))
        }
        _ => grader(format!("could not start {shown}: {e}")),
    })?;
    let pid = child.id();
    let out = Output::start(&mut child, sb.limits.output);
    let watch = Watch {
        dirs: &d.watched,
        bytes: sb.limits.disk + d.allowance.0,
        entries: TMP_ENTRIES + d.allowance.1,
    };
    let end = supervise(&sb.limits, &out, &watch, || match child.try_wait() {
        Ok(Some(s)) => Ok(Some((s.code(), s.signal()))),
        Ok(None) => Ok(None),
        Err(e) => Err(e.to_string()),
    });
    // The program's session (unsandboxed), or its uid (separation), dies.
    if let Ok(p) = i32::try_from(pid) {
        // SAFETY: kill has no memory effects; a negative pid is a group.
        unsafe { libc::kill(-p, libc::SIGKILL) };
    }
    let _ = child.wait();
    if let Some((uid, _)) = ids {
        kill_uid(uid).map_err(grader)?;
    }
    out.finish();
    finish(end.map_err(grader)?, &out, &sb.limits, shown)
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
        libc::SIGSYS => " (SIGSYS: a forbidden system call)",
        _ => "",
    }
}

/// The program's output, or why it is not one.
fn finish(end: End, out: &Output, limits: &Limits, shown: &str) -> Result<Vec<u8>, Unread> {
    let secs = limits.wall.as_secs_f64();
    let student = |s: String| Err(Unread::Student(s));
    match end {
        End::TimedOut => {
            return student(format!(
                "{shown} gave no answer within {secs} s and was stopped"
            ));
        }
        End::TooMuch => {
            return student(format!(
                "{shown} printed more than {} KiB and was stopped",
                limits.output >> 10
            ));
        }
        End::TooBig => {
            return student(format!(
                "{shown} wrote more than {} MiB or {TMP_ENTRIES} files into its folders and was stopped",
                limits.disk >> 20
            ));
        }
        End::Exited(_, Some(sig)) if sig == libc::SIGXCPU => {
            return student(format!(
                "{shown} used more than {} s of CPU time and was stopped",
                Rlimits::from(limits).cpu_secs
            ));
        }
        End::Exited(_, Some(libc::SIGXFSZ)) => {
            return student(format!(
                "{shown} wrote a file larger than {} MiB and was stopped",
                limits.file_size >> 20
            ));
        }
        End::Exited(_, Some(sig)) => {
            return student(format!(
                "{shown} crashed: killed by signal {sig}{}",
                signal_name(sig)
            ));
        }
        End::Exited(Some(code), None) if code != 0 => {
            return student(format!("{shown} failed: it exited with status {code}"));
        }
        End::Exited(..) => {}
    }
    if out.len() > limits.output {
        return student(format!(
            "{shown} printed more than {} KiB",
            limits.output >> 10
        ));
    }
    Ok(out.take())
}

/// Chooses the isolation for a grading run (tried for real before anyone
/// is graded) and sets `sb` up for it; an error says what is missing and
/// how to allow it.
pub fn choose(sb: &mut Sandbox, wanted: Wanted) -> Result<(), String> {
    if wanted == Wanted::Off {
        sb.isolation = Isolation::Off;
        return Ok(());
    }
    let ns = match wanted {
        Wanted::Uid => Err("not asked for".to_string()),
        _ => probe(sb, Isolation::Namespaces, "true"),
    };
    let uid = match (wanted, &ns) {
        (Wanted::Namespaces, _) | (Wanted::Auto, Ok(())) => Err("not needed".to_string()),
        _ => match uid_problem(sb).map_or_else(|| uid_preflight(sb), Err) {
            Err(why) => Err(why),
            Ok(shared) => {
                sb.shared = Arc::new(shared);
                probe(sb, Isolation::Uid, "true")
            }
        },
    };
    match choose_from(wanted, ns.is_ok(), uid.is_ok()) {
        Ok(i) => {
            sb.isolation = i;
            Ok(())
        }
        Err(()) => {
            let mut why = String::from("--run: no sandbox is available for the students' programs");
            if let Err(e) = &ns
                && wanted != Wanted::Uid
            {
                why.push_str(&format!("\n  namespaces: {e}"));
            }
            if let Err(e) = &uid
                && wanted != Wanted::Namespaces
            {
                why.push_str(&format!("\n  uid separation: {e}"));
            }
            why.push_str(
                "\n  To allow it: let unprivileged users make user namespaces (sysctl user.max_user_namespaces=15000;\n  kernel.unprivileged_userns_clone=1 on Debian; kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu),\n  or grade as root. `course grade --check-sandbox` says what this machine allows.\n  --unsandboxed runs the programs with the grader's rights (limits only).",
            );
            Err(why)
        }
    }
}

fn choose_from(wanted: Wanted, ns: bool, uid: bool) -> Result<Isolation, ()> {
    match wanted {
        Wanted::Off => Ok(Isolation::Off),
        Wanted::Namespaces if ns => Ok(Isolation::Namespaces),
        Wanted::Uid if uid => Ok(Isolation::Uid),
        Wanted::Auto if ns => Ok(Isolation::Namespaces),
        Wanted::Auto if uid => Ok(Isolation::Uid),
        _ => Err(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_prefers_namespaces_and_never_falls_back_silently() {
        assert_eq!(
            choose_from(Wanted::Auto, true, true),
            Ok(Isolation::Namespaces)
        );
        assert_eq!(choose_from(Wanted::Auto, false, true), Ok(Isolation::Uid));
        assert_eq!(choose_from(Wanted::Auto, false, false), Err(()));
        assert_eq!(choose_from(Wanted::Namespaces, false, true), Err(()));
        assert_eq!(choose_from(Wanted::Uid, true, false), Err(()));
        assert_eq!(choose_from(Wanted::Off, false, false), Ok(Isolation::Off));
    }

    #[test]
    fn the_filter_builds_for_this_processor() {
        let f = filter::build(true).unwrap();
        assert_eq!(f.len(), 2);
        assert!(f.iter().all(|p| !p.is_empty()));
    }

    #[test]
    fn echoed_run_paths_come_back_as_the_inputs_name() {
        let out = without_paths(
            "/input/running.txt at /tmp/x/home/a\n".into(),
            &[("/input/running.txt", "running.txt"), ("/tmp/x/home", ".")],
        );
        assert_eq!(out, "running.txt at ./a\n");
    }

    #[test]
    fn keeper_lines_tell_how_the_program_ended() {
        let l = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(matches!(
            judge_keeper(&l(&["R", "S exit 3"]), "p"),
            Ok(End::Exited(Some(3), None))
        ));
        assert!(matches!(
            judge_keeper(&l(&["R", "S signal 9"]), "p"),
            Ok(End::Exited(None, Some(9)))
        ));
        match judge_keeper(&l(&["R", "X 13", "S exit 127"]), "p") {
            Err(KeeperError::Student(s)) => assert!(s.contains("permission denied"), "{s}"),
            _ => panic!(),
        }
        assert!(matches!(
            judge_keeper(&l(&["E pivot_root: EINVAL"]), "p"),
            Err(KeeperError::Grader(_))
        ));
    }
}
