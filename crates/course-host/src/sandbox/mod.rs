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

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
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

/// The uids of one grading run, each held with a lock file so that
/// another run on the machine (which kills every process of its uids)
/// never picks them: uid `uids[k]` is slot `k`'s.
#[derive(Debug, Default)]
pub struct UidClaim {
    uids: Vec<u32>,
    _locks: Vec<std::fs::File>,
}

impl UidClaim {
    /// Slot `slot`'s uid, if the grader switches uids at all.
    pub fn uid(&self, slot: usize) -> Option<u32> {
        self.uids.get(slot).copied()
    }

    /// Every uid held, slot by slot.
    pub fn all(&self) -> &[u32] {
        &self.uids
    }
}

/// How far past `--sandbox-uid` free uids are looked for.
const UID_SPAN: u32 = 4096;

/// Claims `n` uids from `base` up for a root grader: mapped in its user
/// namespace, no account's, owning no process now, and not held by
/// another grading run (an exclusive `flock` on a file in a folder only root may write).
/// Empty when the grader is not root or no uid of the span is mapped (a
/// container's root with only itself mapped): programs then run as the
/// grader outside their namespaces.
pub fn claim_uids(base: u32, n: usize) -> Result<UidClaim, String> {
    let mut claim = UidClaim::default();
    if !is_root() {
        return Ok(claim);
    }
    let end = base.saturating_add(UID_SPAN);
    let mapped: Vec<u32> = (base..end).filter(|&u| uid_mapped(u)).collect();
    if mapped.is_empty() {
        return Ok(claim);
    }
    let dir = lock_folder()?;
    let mut owners: std::collections::HashSet<u32> =
        all_processes().iter().map(|p| p.uid).collect();
    // A uid with an account is someone's: its files are never the
    // leftovers of a run, and the clean-up would remove them.
    owners.extend(accounts());
    let mut busy = 0;
    for u in mapped {
        if claim.uids.len() == n {
            break;
        }
        let path = dir.join(format!("uid-{u}"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("--run: {}: {e}", path.display()))?;
        if rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err()
            || owners.contains(&u)
        {
            busy += 1;
            continue;
        }
        claim.uids.push(u);
        claim._locks.push(file);
    }
    if claim.uids.len() < n {
        return Err(format!(
            "--run: {n} sandbox uids are needed from {base} on, and only {} of uids {base}–{} are free ({busy} are another grading run's, own processes or are accounts): lower --jobs or choose another --sandbox-uid",
            claim.uids.len(),
            end - 1
        ));
    }
    Ok(claim)
}

/// The uids of `/etc/passwd`'s accounts.
fn accounts() -> Vec<u32> {
    std::fs::read_to_string("/etc/passwd")
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split(':').nth(2)?.parse().ok())
        .collect()
}

/// The folder of the uid lock files: `/run/course-sandbox`, made by root
/// with mode 0700 (a folder others could write would let them hold uids).
fn lock_folder() -> Result<PathBuf, String> {
    let mut last = String::new();
    for dir in [
        PathBuf::from("/run/course-sandbox"),
        std::env::temp_dir().join("course-sandbox-root"),
    ] {
        let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() && m.uid() == 0 && m.mode() & 0o022 == 0 => return Ok(dir),
            Ok(_) => last = format!("{} is not a folder only root may write", dir.display()),
            Err(e) => last = format!("{}: {e}", dir.display()),
        }
    }
    Err(format!(
        "--run: no folder for the sandbox's uid locks: {last}"
    ))
}

/// Whether `uid` has a mapping in this process's user namespace.
fn uid_mapped(uid: u32) -> bool {
    let Ok(map) = std::fs::read_to_string("/proc/self/uid_map") else {
        return false;
    };
    map.lines().any(|l| {
        let n: Vec<u64> = l
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        n.len() == 3 && (n[0]..n[0] + n[2]).contains(&u64::from(uid))
    })
}

/// The uid and gid a program of `slot` has outside.
fn outer_ids(sb: &Sandbox, slot: usize) -> (u32, u32) {
    match sb.uids.uid(slot) {
        Some(u) => (u, u),
        None => (
            rustix::process::geteuid().as_raw(),
            rustix::process::getegid().as_raw(),
        ),
    }
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

/// The grader's folder of one grading run's private folders: a fresh
/// name in the temporary folder (made with an exclusive `mkdir`, so a
/// name taken by anyone else is skipped, never waited on), mode 0711:
/// nobody else may list it, and a program run as a sandbox uid may only
/// pass through it to its own folder, whose random name it is told.
#[derive(Debug)]
pub struct StagingRoot {
    dir: tempfile::TempDir,
}

impl StagingRoot {
    /// Makes it.
    pub fn new() -> Result<StagingRoot, String> {
        let dir = tempfile::Builder::new()
            .prefix("course-grade-")
            .rand_bytes(16)
            .permissions(std::fs::Permissions::from_mode(0o711))
            .tempdir()
            .map_err(|e| format!("no folder for the runs could be made: {e}"))?;
        Ok(StagingRoot { dir })
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A private folder for one run, removed when dropped: `home/` (the copy
/// of the student's folder), `in/` (the input), `tmp/` (its temporary
/// folder under uid separation), `root/` (the namespace sandbox's root is
/// mounted there). Its name is random (128 bits) and made with an
/// exclusive `mkdir` inside the [`StagingRoot`], mode 0700.
struct Staging {
    dir: PathBuf,
}

impl Staging {
    fn new(root: &StagingRoot) -> Result<Staging, String> {
        let dir = tempfile::Builder::new()
            .prefix("run-")
            .rand_bytes(16)
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir_in(root.path())
            .map_err(|e| format!("no folder for the run could be made: {e}"))?;
        Ok(Staging { dir: dir.keep() })
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if std::fs::remove_dir_all(&self.dir).is_err() {
            // A program may have left folders it cannot be read back from.
            make_removable(&self.dir);
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn make_removable(dir: &Path) {
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                make_removable(&e.path());
            }
        }
    }
}

/// Copies a student's folder: sub-folders, regular files with one link
/// (a hard link could name any file of the machine), symbolic links as
/// links; at most [`MAX_COPY_BYTES`] and [`MAX_COPY_ENTRIES`].
fn copy_folder(from: &Path, to: &Path, budget: &mut (u64, usize)) -> Result<(), Unread> {
    let grader = |e: std::io::Error| Unread::Grader(format!("copying the student's folder: {e}"));
    let entries = std::fs::read_dir(from).map_err(grader)?;
    for e in entries {
        let e = e.map_err(grader)?;
        let meta = std::fs::symlink_metadata(e.path()).map_err(grader)?;
        budget.1 += 1;
        if budget.1 > MAX_COPY_ENTRIES {
            return Err(Unread::Student(format!(
                "the folder holds more than {MAX_COPY_ENTRIES} files"
            )));
        }
        let dest = to.join(e.file_name());
        let t = meta.file_type();
        if t.is_dir() {
            std::fs::create_dir(&dest).map_err(grader)?;
            copy_folder(&e.path(), &dest, budget)?;
        } else if t.is_file() && meta.nlink() == 1 {
            budget.0 += meta.len();
            if budget.0 > MAX_COPY_BYTES {
                return Err(Unread::Student(format!(
                    "the folder holds more than {} MiB",
                    MAX_COPY_BYTES >> 20
                )));
            }
            std::fs::copy(e.path(), &dest).map_err(grader)?;
            let mode = meta.mode() & 0o755;
            let _ = std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(mode | 0o600));
        } else if t.is_symlink() {
            let to = std::fs::read_link(e.path()).map_err(grader)?;
            std::os::unix::fs::symlink(to, &dest).map_err(grader)?;
        }
    }
    Ok(())
}

/// `chown -R` of `dir` to `uid`/`gid` (links themselves, not followed).
fn chown_tree(dir: &Path, uid: u32, gid: u32) -> std::io::Result<()> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(gid))?;
    if std::fs::symlink_metadata(dir)?.is_dir() {
        for e in std::fs::read_dir(dir)? {
            chown_tree(&e?.path(), uid, gid)?;
        }
    }
    Ok(())
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

/// One run's private folder, filled: the copy of the student's folder,
/// the input, and (as root) everything owned as the run's mode needs.
struct Staged {
    staging: Staging,
    home: PathBuf,
    tmp: PathBuf,
    input_name: String,
    input_file: PathBuf,
    /// Bytes and entries of the copy.
    copied: (u64, usize),
    /// The program's uid and gid outside.
    ids: (u32, u32),
}

fn stage(sb: &Sandbox, job: &Job) -> Result<Staged, Unread> {
    let staging = Staging::new(&sb.staging).map_err(Unread::Grader)?;
    let home = staging.dir.join("home");
    let input_dir = staging.dir.join("in");
    let tmp = staging.dir.join("tmp");
    for d in [&home, &input_dir, &tmp, &staging.dir.join("root")] {
        std::fs::create_dir(d).map_err(|e| Unread::Grader(format!("{}: {e}", d.display())))?;
    }
    let mut copied = (0, 0);
    copy_folder(job.folder, &home, &mut copied)?;
    let input_name = format!("{}.txt", job.stem);
    let input_file = input_dir.join(&input_name);
    std::fs::write(&input_file, job.text)
        .map_err(|e| Unread::Grader(format!("{}: {e}", input_file.display())))?;
    let (uid, gid) = outer_ids(sb, job.slot);
    if sb.uids.uid(job.slot).is_some() && sb.isolation != Isolation::Off {
        let grader = |e: std::io::Error| Unread::Grader(format!("preparing the run: {e}"));
        match sb.isolation {
            Isolation::Namespaces => chown_tree(&staging.dir, uid, gid).map_err(grader)?,
            _ => {
                // Its folders and input are its uid's alone; the run's
                // folder only lets it pass (0711, root's).
                chown_tree(&home, uid, gid).map_err(grader)?;
                for p in [&tmp, &input_file] {
                    std::os::unix::fs::lchown(p, Some(uid), Some(gid)).map_err(grader)?;
                }
                for (p, mode) in [
                    (&home, 0o700),
                    (&tmp, 0o700),
                    (&input_file, 0o400),
                    (&input_dir, 0o711),
                    (&staging.dir, 0o711),
                ] {
                    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode))
                        .map_err(grader)?;
                }
            }
        }
    }
    Ok(Staged {
        staging,
        home,
        tmp,
        input_name,
        input_file,
        copied,
        ids: (uid, gid),
    })
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

/// Kills every process of `uid` (from a child that takes that uid, so
/// nothing else can be hit) until `/proc` lists none.
pub fn kill_uid(uid: u32) -> Result<(), String> {
    for _ in 0..200 {
        reap_zombies_of(uid);
        if processes_of(uid).is_empty() && zombies_of(uid).is_empty() {
            return Ok(());
        }
        // SAFETY: the child makes only system calls and exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                let u = rustix::process::Uid::from_raw(uid);
                if rustix::thread::set_thread_res_uid(u, u, u).is_ok() {
                    libc::kill(-1, libc::SIGKILL);
                }
                libc::_exit(0);
            }
            if pid > 0 {
                let mut st = 0;
                libc::waitpid(pid, &mut st, 0);
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let left = processes_of(uid);
    if left.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} processes of uid {uid} outlived the kill",
            left.len()
        ))
    }
}

/// Reaps the zombies of `uid` that are the grader's children (orphans
/// handed to it as the subreaper).
fn reap_zombies_of(uid: u32) {
    for pid in zombies_of(uid) {
        let mut st = 0;
        // SAFETY: waiting for one pid, without blocking.
        unsafe { libc::waitpid(pid as i32, &mut st, libc::WNOHANG) };
    }
}

/// The zombies of `uid` whose parent is the grader.
fn zombies_of(uid: u32) -> Vec<u32> {
    let me = std::process::id();
    owned_by(uid, true)
        .into_iter()
        .filter(|(_, ppid)| *ppid == me)
        .map(|(p, _)| p)
        .collect()
}

/// The pids whose real uid is `uid` (zombies, already dead, excepted).
pub fn processes_of(uid: u32) -> Vec<u32> {
    owned_by(uid, false).into_iter().map(|(p, _)| p).collect()
}

/// The processes of `uid` (with their parent), the zombies or the others.
fn owned_by(uid: u32, zombies: bool) -> Vec<(u32, u32)> {
    all_processes()
        .into_iter()
        .filter(|p| p.uid == uid && p.zombie == zombies)
        .map(|p| (p.pid, p.ppid))
        .collect()
}

/// A process as `/proc/PID/status` tells it.
struct ProcessInfo {
    pid: u32,
    uid: u32,
    ppid: u32,
    zombie: bool,
}

/// Every process `/proc` lists now.
fn all_processes() -> Vec<ProcessInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|l| l.split_whitespace().next())
                .and_then(|u| u.parse::<u32>().ok())
        };
        let Some(uid) = field("Uid:") else {
            continue;
        };
        out.push(ProcessInfo {
            pid,
            uid,
            ppid: field("PPid:").unwrap_or(0),
            zombie: status
                .lines()
                .any(|l| l.starts_with("State:") && l.contains('Z')),
        });
    }
    out
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

/// True when a user other than the owner and its group could reach
/// `path` (every folder above it lets others in, and the file itself lets
/// them read or run it): what a program under [`Isolation::Uid`] could
/// read.
pub fn open_to_others(path: &Path) -> bool {
    let Ok(full) = std::fs::canonicalize(path) else {
        return false;
    };
    let Ok(meta) = std::fs::metadata(&full) else {
        return false;
    };
    let want = if meta.is_dir() { 0o001 } else { 0o005 };
    if meta.mode() & want == 0 {
        return false;
    }
    full.ancestors()
        .skip(1)
        .all(|a| std::fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 != 0))
}

/// The folders a program under uid separation may read, for the survey:
/// the whole machine without Landlock, its read view with it.
fn readable_roots(sb: &Sandbox) -> Vec<PathBuf> {
    if sb.landlock == 0 {
        return vec![PathBuf::from("/")];
    }
    confine::SYSTEM_READ
        .iter()
        .filter(|p| !p.starts_with("/proc") && !p.starts_with("/sys"))
        .map(PathBuf::from)
        .chain(sb.binds.iter().cloned())
        .collect()
}

/// Uid separation's check before anyone is graded: no copy of the
/// reference that a program could read or run, and, without Landlock,
/// no `--jobs` above 1 unless asked for. Returns the folders to clean
/// after each run.
fn uid_preflight(sb: &Sandbox) -> Result<Vec<PathBuf>, String> {
    uid_preflight_of(sb, &survey_of(sb))
}

/// The survey of what a program under uid separation in `sb` could read.
fn survey_of(sb: &Sandbox) -> confine::Survey {
    let roots = readable_roots(sb);
    confine::survey(&roots, &sb.masks, &[sb.staging.path().to_path_buf()])
}

/// [`uid_preflight`] on a survey already made.
fn uid_preflight_of(sb: &Sandbox, found: &confine::Survey) -> Result<Vec<PathBuf>, String> {
    let roots = readable_roots(sb);
    if found.incomplete {
        return Err(format!(
            "the search for copies of the reference a student's program could read stopped after {} entries under {}; without Landlock (Linux 5.13 or later, allowed by the container) uid separation cannot be checked here",
            confine::SURVEY_ENTRIES,
            roots
                .iter()
                .map(|r| r.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !found.exposed.is_empty() {
        let shown: Vec<String> = found
            .exposed
            .iter()
            .take(5)
            .map(|p| p.display().to_string())
            .collect();
        let more = found.exposed.len().saturating_sub(5);
        return Err(format!(
            "a student's program could read or run the reference: {}{}: make it unreadable to other users (chmod o-rwx, or keep it in a folder only the grader may enter){}",
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            if sb.landlock == 0 {
                "; this kernel (or container) refuses Landlock, so everything other users may read is readable"
            } else {
                ""
            }
        ));
    }
    if sb.landlock == 0 && sb.uids.all().len() > 1 && !sb.open_parallel {
        return Err(format!(
            "--jobs {} with uid separation and no Landlock: programs running at the same time could pass data through the folders every user may write ({}); use --jobs 1, or --sandbox-open-parallel to accept it",
            sb.uids.all().len(),
            confine::cleaned_folders(&found.writable)
                .iter()
                .take(4)
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let shared = confine::cleaned_folders(&found.writable);
    // Whatever an earlier run of these uids left goes before the first.
    for &u in sb.uids.all() {
        confine::clean_uid(u, &shared, sb.staging.path())?;
    }
    Ok(shared)
}

/// One promise of the sandbox and whether each mode keeps it here.
#[derive(Clone, Debug, Serialize)]
pub struct Guarantee {
    /// The promise.
    pub what: &'static str,
    /// With namespaces: `None` when it holds, else why not.
    pub namespaces: Option<String>,
    /// With uid separation: `None` when it holds, else why not.
    pub uid: Option<String>,
}

/// What `course grade --check-sandbox` found on this machine.
#[derive(Clone, Debug, Serialize)]
pub struct SandboxCheck {
    /// The kernel's release.
    pub kernel: String,
    /// Whether the grader runs as root.
    pub root: bool,
    /// The kernel settings that allow or restrict user namespaces.
    pub settings: Vec<(String, String)>,
    /// A run of `true` in new namespaces: `None` when it worked, else why not.
    pub namespaces: Option<String>,
    /// Whether the namespace sandbox has its own `/proc`.
    pub proc_mounted: bool,
    /// A run of `true` as a separate uid: `None` when it worked.
    pub uid: Option<String>,
    /// The kernel's Landlock ABI (0: none or refused).
    pub landlock: u32,
    /// Copies of the reference a program under uid separation could read
    /// or run (what the preflight refuses).
    pub exposed: Vec<PathBuf>,
    /// Each promise, mode by mode.
    pub guarantees: Vec<Guarantee>,
    /// What `--run` would use, described; `None`: nothing (it stops).
    pub chosen: Option<String>,
}

/// Tries each isolation with a run of `true` and says what works, and
/// which promise each keeps on this machine.
pub fn check(sb: &Sandbox) -> SandboxCheck {
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
    };
    let mut settings = Vec::new();
    for p in [
        "/proc/sys/user/max_user_namespaces",
        "/proc/sys/kernel/unprivileged_userns_clone",
        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
        "/proc/sys/kernel/sched_autogroup_enabled",
    ] {
        if let Some(v) = read(p) {
            settings.push((p.trim_start_matches("/proc/sys/").replace('/', "."), v));
        }
    }
    let namespaces = probe(sb, Isolation::Namespaces, "true").err();
    let proc_mounted = namespaces.is_none()
        && probe(sb, Isolation::Namespaces, "test -r /proc/self/status").is_ok();
    let mut uid_sb = sb.clone();
    // One survey, for the preflight and for the list of what it found.
    let found = is_root().then(|| survey_of(sb));
    let uid = uid_problem(sb)
        .or_else(|| match uid_preflight_of(sb, found.as_ref()?) {
            Ok(shared) => {
                uid_sb.shared = Arc::new(shared);
                None
            }
            Err(e) => Some(e),
        })
        .or_else(|| probe(&uid_sb, Isolation::Uid, "true").err());
    let chosen = choose_from(Wanted::Auto, namespaces.is_none(), uid.is_none())
        .ok()
        .map(|i| describe(i, sb.landlock));
    let autogroup = read("/proc/sys/kernel/sched_autogroup_enabled").as_deref() == Some("1");
    let guarantees = guarantees(
        namespaces.as_deref(),
        uid.as_deref(),
        sb.landlock,
        autogroup,
    );
    SandboxCheck {
        kernel: read("/proc/sys/kernel/osrelease").unwrap_or_default(),
        root: is_root(),
        settings,
        namespaces,
        proc_mounted,
        uid,
        landlock: sb.landlock,
        exposed: found.map(|f| f.exposed).unwrap_or_default(),
        guarantees,
        chosen,
    }
}

/// The promises, mode by mode, from what works here: `ns`/`uid` why the
/// mode does not work at all (`None`: it works), `landlock` the ABI.
fn guarantees(
    ns: Option<&str>,
    uid: Option<&str>,
    landlock: u32,
    autogroup: bool,
) -> Vec<Guarantee> {
    let (files, _, scoped) = confine::landlock_covers(landlock);
    let off = |_: &str| Some("the mode is unavailable here (see above)".to_string());
    let row = |what: &'static str, n: Option<String>, u: Option<String>| Guarantee {
        what,
        namespaces: ns.map_or(n, off),
        uid: uid.map_or(u, off),
    };
    let no_landlock = "no Landlock here";
    let cpu = (!autogroup).then(|| {
        "kernel.sched_autogroup_enabled is 0: runs share the CPU by process, not by run".to_string()
    });
    vec![
        row(
            "the reference (any readable course program, solutions/, the course data, the secret) is out of reach",
            None,
            (!files).then(|| format!("{no_landlock}: only files other users may not read are safe (the preflight checks the machine)")),
        ),
        row("another student's folder and input are out of reach, even while it runs", None, None),
        row(
            "no channel between runs (shared memory, /tmp, /dev/shm, sockets, signals)",
            None,
            (!(files && scoped)).then(|| format!("{}: folders every user may write are shared by runs at the same time (--jobs above 1 needs --sandbox-open-parallel)", if files { "Landlock older than ABI 6 (no scoping of abstract sockets and signals)" } else { no_landlock })),
        ),
        row("nothing a run made is left after it (files, System V IPC), checked after each run", None, None),
        row(
            "disk and files bounded (--file-limit, 4096 files beyond the student's folder)",
            None,
            (!files).then(|| format!("{no_landlock}: outside its own folders only each file is bounded, and removed after the run")),
        ),
        // seccomp refuses network sockets in both modes; Landlock's TCP
        // rules are a second wall where the kernel has them.
        row("no network (no TCP or UDP to any host, the grader's included)", None, None),
        row("no process outlives its run (the kill is checked)", None, None),
        row("each run its own CPU share beside a spinning neighbour", cpu.clone(), cpu),
        row("the grader's paths stay out of what a program can read (/proc/1/cmdline, the environment)", None, Some("the grader's command line is readable in /proc (paths, never contents)".into())),
    ]
}

/// Why uid separation is out of reach before it is tried, if it is.
fn uid_problem(sb: &Sandbox) -> Option<String> {
    if !is_root() {
        Some("it needs the grader to run as root".into())
    } else if sb.uids.uid(0).is_none() {
        Some(
            "no uid of --sandbox-uid's range exists here (a user namespace that maps only root?)"
                .into(),
        )
    } else {
        None
    }
}

/// Runs `command` (with `sh -c` when it has a space) under `isolation`
/// on an empty folder: `Err` with why when it could not.
fn probe(sb: &Sandbox, isolation: Isolation, command: &str) -> Result<(), String> {
    let dir = tempfile::Builder::new()
        .prefix("course-probe-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .map_err(|e| e.to_string())?;
    let words: Vec<String> = if command.contains(' ') {
        vec!["sh".into(), "-c".into(), format!("{command}; echo ok")]
    } else {
        vec!["sh".into(), "-c".into(), format!("{command} && echo ok")]
    };
    let sb = Sandbox {
        isolation,
        limits: Limits {
            wall: Duration::from_secs(10),
            ..sb.limits.clone()
        },
        ..sb.clone()
    };
    let r = run(
        &sb,
        &Job {
            words: &words,
            folder: dir.path(),
            stem: "probe",
            text: "",
            slot: 0,
        },
    );
    match r {
        Ok(s) if s.trim() == "ok" => Ok(()),
        Ok(s) => Err(format!("the probe printed {:?}", s.trim())),
        Err(Unread::Grader(s) | Unread::Student(s)) => Err(s),
    }
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
    fn two_grading_runs_never_share_a_uid() {
        if !is_root() {
            let _ = writeln!(
                std::io::stderr(),
                "SKIP uid claims: the tests do not run as root"
            );
            return;
        }
        // A base of its own, so that the tests' grading runs do not count.
        let base = 61_000;
        let (Ok(a), Ok(b)) = (claim_uids(base, 3), claim_uids(base, 3)) else {
            panic!("two claims of 3 uids from {base}");
        };
        if a.uid(0).is_none() {
            let _ = writeln!(
                std::io::stderr(),
                "SKIP uid claims: no uid from {base} is mapped here"
            );
            return;
        }
        assert!(a.uids.iter().all(|u| !b.uids.contains(u)), "{a:?} {b:?}");
        assert_eq!(a.uids, [base, base + 1, base + 2]);
        drop(a);
        // Released with the claim.
        assert_eq!(claim_uids(base, 1).map(|c| c.uids), Ok(vec![base]));
        assert!(claim_uids(base, UID_SPAN as usize + 1).is_err());
    }

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
