//! The two processes between the grader and a student's program in the
//! namespace sandbox: `course` started again as [`HELPER_ARG`] (the
//! *keeper*), and its child, which becomes the program.
//!
//! The keeper reads its configuration, one JSON line, from its standard
//! input (never its command line, which the program could read as
//! `/proc/1/cmdline`), enters new user, mount, pid, network, IPC and UTS
//! namespaces (`unshare`), tells the grader it is ready (`R` on its
//! standard error), and waits for `G` on its standard input: by then the
//! grader has written its uid and gid maps (the sandbox user 1000 inside
//! is an unprivileged uid outside). It forks the child, which is pid 1 of
//! the new pid namespace, and waits for it or for `K` (or the end of its
//! standard input) from the grader, on which it kills it. When pid 1 of a
//! pid namespace dies, the kernel kills every other process in it and
//! reaps them before pid 1 can be reaped; so when the keeper reports
//! `S …` (how the child ended) and exits, nothing the program started is
//! alive.
//!
//! The child builds the program's root (a small tmpfs holding read-only
//! binds of the system's program folders, a few files of `/etc`, the
//! usual devices, its own `/proc`, a private `/tmp`, a private copy of the
//! student's folder at `/home/student`, the input read-only under
//! `/input`), pivots into it, sets the limits, drops what is left of its
//! capabilities, sets `no_new_privs`, installs the seccomp filter and
//! `execve`s the program with standard error on `/dev/null`. A failure on
//! the way is reported as `E stage: error`; an `execve` failure as
//! `X errno`.

use std::ffi::CString;
use std::fs;
use std::io::{BufRead, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::mount::{self, MountFlags, MountPropagationFlags, UnmountFlags};

use super::{ETXTBSY_TRIES, HelperConfig, SANDBOX_GID, SANDBOX_UID};

/// The first argument that makes `course` the keeper.
pub const HELPER_ARG: &str = "__sandbox-keeper";

/// The longest configuration line the keeper reads.
const MAX_CONFIG: u64 = 1 << 20;

/// The files and folders a run may make in its `/tmp` (and, beyond the copy
/// of the student's folder, in its home).
const TMP_INODES: usize = 4096;

/// The keeper's entry: reads its configuration (one JSON line) from
/// standard input, and never returns.
pub fn main() -> ! {
    let mut status = std::io::stderr();
    let mut stdin = std::io::stdin().lock();
    let mut config = String::new();
    if let Err(e) = (&mut stdin).take(MAX_CONFIG).read_line(&mut config) {
        fail(&mut status, "config", &e.to_string());
    }
    let cfg: HelperConfig = match serde_json::from_str(&config) {
        Ok(c) => c,
        Err(e) => fail(&mut status, "config", &e.to_string()),
    };
    let flags = rustix::thread::UnshareFlags::NEWUSER
        | rustix::thread::UnshareFlags::NEWNS
        | rustix::thread::UnshareFlags::NEWPID
        | rustix::thread::UnshareFlags::NEWNET
        | rustix::thread::UnshareFlags::NEWIPC
        | rustix::thread::UnshareFlags::NEWUTS;
    // SAFETY: no file descriptor table or other shared state is split.
    if let Err(e) = unsafe { rustix::thread::unshare_unsafe(flags) } {
        let why = match e {
            rustix::io::Errno::NOSPC => "the kernel refused a new user namespace: user.max_user_namespaces is 0 or reached (ENOSPC)".to_string(),
            rustix::io::Errno::PERM | rustix::io::Errno::ACCESS => "the kernel refused new namespaces (EPERM): unprivileged user namespaces are disabled, or a seccomp or AppArmor profile (a container's) forbids them".to_string(),
            rustix::io::Errno::INVAL => "this kernel has no user, pid or network namespaces (EINVAL)".to_string(),
            e => e.to_string(),
        };
        fail(&mut status, "namespaces", &why);
    }
    let _ = status.write_all(b"R\n");
    let mut go = [0u8; 1];
    if stdin.read_exact(&mut go).is_err() || go[0] != b'G' {
        std::process::exit(3);
    }
    // From here standard input is polled as descriptor 0 (`K`), unlocked.
    drop(stdin);
    // Everything the child needs is made before the fork.
    let prepared = match Prepared::new(&cfg) {
        Ok(p) => p,
        Err(e) => fail(&mut status, "prepare", &e),
    };
    // SAFETY: the keeper is single-threaded; the child only runs `child`.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        fail_os(&mut status, "fork");
    }
    if pid == 0 {
        child(&cfg, &prepared);
    }
    keep(pid, &mut status)
}

/// Writes `E stage: why` and exits with 3.
fn fail(status: &mut impl Write, stage: &str, why: &str) -> ! {
    let why = why.replace('\n', " ");
    let _ = writeln!(status, "E {stage}: {why}");
    std::process::exit(3)
}

/// [`fail`] with the last system error as the reason.
fn fail_os(status: &mut impl Write, stage: &str) -> ! {
    fail(status, stage, &std::io::Error::last_os_error().to_string())
}

/// Waits for the child (pid 1 of the namespace) or the grader's `K`.
fn keep(pid: libc::pid_t, status: &mut impl Write) -> ! {
    // SAFETY: pidfd_open takes a pid and flags and returns a descriptor.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let mut killed = false;
    loop {
        if !killed {
            let mut fds = [
                libc::pollfd {
                    fd: 0,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: if pidfd >= 0 { pidfd as i32 } else { -1 },
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            let timeout = if pidfd >= 0 { -1 } else { 5 };
            // SAFETY: fds is a valid array of two pollfd.
            unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout) };
            if fds[0].revents != 0 {
                // K, or the grader gone: the run is over.
                // SAFETY: kill has no memory effects.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                killed = true;
            }
        }
        let mut st = 0;
        let flags = if killed { 0 } else { libc::WNOHANG };
        // SAFETY: waiting for our own child.
        let r = unsafe { libc::waitpid(pid, &mut st, flags) };
        if r == pid {
            let _ = status.write_all(ended(st).as_bytes());
            std::process::exit(0);
        }
        if r < 0 {
            fail_os(status, "wait");
        }
    }
}

/// The status line of a wait status: `S signal N` or `S exit N`.
fn ended(st: libc::c_int) -> String {
    if libc::WIFSIGNALED(st) {
        format!("S signal {}\n", libc::WTERMSIG(st))
    } else {
        format!("S exit {}\n", libc::WEXITSTATUS(st))
    }
}

/// What the child needs, made before the fork.
struct Prepared {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    filters: Vec<seccompiler::BpfProgram>,
}

impl Prepared {
    fn new(cfg: &HelperConfig) -> Result<Prepared, String> {
        let c = |s: &str| CString::new(s).map_err(|_| format!("a NUL byte in {s:?}"));
        Ok(Prepared {
            program: c(&cfg.program)?,
            argv: cfg.argv.iter().map(|a| c(a)).collect::<Result<_, _>>()?,
            envp: cfg
                .env
                .iter()
                .map(|(k, v)| c(&format!("{k}={v}")))
                .collect::<Result<_, _>>()?,
            filters: super::filter::build(false)?,
        })
    }
}

/// The child, pid 1 of the new pid namespace: builds the root and limits
/// itself, then forks the program (pid 1 of a namespace ignores signals it
/// has no handler for, which a program must not inherit), waits for it and
/// says how it ended. It is not dumpable, so the program (the same uid)
/// cannot read `/proc/1/exe` or its memory.
fn child(cfg: &HelperConfig, p: &Prepared) -> ! {
    let mut status = std::io::stderr();
    if let Err(e) = setup(cfg, p) {
        fail(&mut status, &e.0, &e.1);
    }
    // SAFETY: prctl with integer arguments; fork in a single-threaded process.
    let pid = unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0);
        libc::fork()
    };
    if pid < 0 {
        fail_os(&mut status, "fork");
    }
    if pid == 0 {
        program(p);
    }
    loop {
        let mut st = 0;
        // SAFETY: waiting for our own child.
        let r = unsafe { libc::waitpid(pid, &mut st, 0) };
        if r == pid {
            let _ = status.write_all(ended(st).as_bytes());
            // SAFETY: leaving without running destructors; the namespace
            // and everything left in it die with pid 1.
            unsafe { libc::_exit(0) }
        }
        if r < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            fail_os(&mut status, "wait");
        }
    }
}

/// Becomes the program: standard error to /dev/null, every other
/// descriptor closed, `execve`.
fn program(p: &Prepared) -> ! {
    // The report line for a failed execve goes through a copy of the
    // status descriptor that execve closes.
    // SAFETY: plain descriptor calls on descriptors this process owns.
    let report = unsafe { libc::fcntl(2, libc::F_DUPFD_CLOEXEC, 10) };
    let null = CString::new("/dev/null").unwrap_or_default();
    // SAFETY: opening /dev/null and moving it to fd 2.
    unsafe {
        let fd = libc::open(null.as_ptr(), libc::O_WRONLY);
        if fd >= 0 {
            libc::dup2(fd, 2);
            libc::close(fd);
        }
        // Every other descriptor is closed at execve.
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            4u32, /* CLOEXEC */
        );
    }
    let mut argv: Vec<*const libc::c_char> = p.argv.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    let mut envp: Vec<*const libc::c_char> = p.envp.iter().map(|a| a.as_ptr()).collect();
    envp.push(std::ptr::null());
    let mut errno = 0;
    for _ in 0..ETXTBSY_TRIES {
        // SAFETY: NUL-terminated arrays of NUL-terminated strings that
        // outlive the call.
        unsafe { libc::execve(p.program.as_ptr(), argv.as_ptr(), envp.as_ptr()) };
        errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        if errno != libc::ETXTBSY {
            break;
        }
        // A process the grader forked on another thread while it wrote this
        // copy may hold a write descriptor of it until that process execs.
        let pause = libc::timespec {
            tv_sec: 0,
            tv_nsec: 10_000_000,
        };
        // SAFETY: a plain sleep.
        unsafe { libc::nanosleep(&pause, std::ptr::null_mut()) };
    }
    if report >= 0 {
        let line = format!("X {errno}\n");
        // SAFETY: writing a local buffer to our own descriptor.
        unsafe { libc::write(report, line.as_ptr().cast(), line.len()) };
    }
    // SAFETY: leaving the child without running the keeper's destructors.
    unsafe { libc::_exit(127) }
}

/// A stage's name and what went wrong in it.
struct Failed(String, String);

fn at(stage: &str) -> impl Fn(std::io::Error) -> Failed + '_ {
    move |e| Failed(stage.to_string(), e.to_string())
}

/// The system folders bound read-only (those that exist), and the files
/// of `/etc` that programs need to start (the dynamic loader's cache, the
/// alternatives links, the time zone).
const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];
const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
];
/// The devices a program may open.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

fn setup(cfg: &HelperConfig, p: &Prepared) -> Result<(), Failed> {
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    rustix::thread::set_thread_res_gid(gid(SANDBOX_GID), gid(SANDBOX_GID), gid(SANDBOX_GID))
        .map_err(|e| at("gid")(e.into()))?;
    rustix::thread::set_thread_res_uid(uid(SANDBOX_UID), uid(SANDBOX_UID), uid(SANDBOX_UID))
        .map_err(|e| at("uid")(e.into()))?;
    mount::mount_change(
        "/",
        MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
    )
    .map_err(|e| at("private mounts")(e.into()))?;
    let root = cfg.staging.join("root");
    tmpfs(&root, "size=4m,nr_inodes=1024,mode=0755").map_err(at("root"))?;
    for d in SYSTEM_DIRS {
        bind_system(Path::new(d), &root).map_err(at(d))?;
    }
    for d in &cfg.binds {
        bind_system(d, &root).map_err(at(&d.to_string_lossy()))?;
    }
    etc(&root).map_err(at("/etc"))?;
    dev(&root).map_err(at("/dev"))?;
    let proc_dir = root.join("proc");
    fs::create_dir(&proc_dir).map_err(at("/proc"))?;
    // A container may forbid a new /proc; the program then has none.
    let _ = mount::mount(
        "proc",
        &proc_dir,
        "proc",
        MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
        None,
    );
    let size = format!("size={}k", cfg.disk_limit.div_ceil(1024).max(16));
    let tmp = root.join("tmp");
    fs::create_dir(&tmp).map_err(at("/tmp"))?;
    // Inodes are bounded too: an empty file costs no block but kernel
    // memory outside the run's memory limit.
    tmpfs(&tmp, &format!("{size},nr_inodes={TMP_INODES},mode=1777")).map_err(at("/tmp"))?;
    let home = root.join("home/student");
    fs::create_dir_all(&home).map_err(at("/home"))?;
    // The home holds the copy of the student's folder (at most
    // MAX_COPY_ENTRIES entries) and what the program makes.
    let home_inodes = super::MAX_COPY_ENTRIES + TMP_INODES;
    let home_size = format!("size={}k", cfg.home_size.div_ceil(1024).max(16));
    tmpfs(
        &home,
        &format!("{home_size},nr_inodes={home_inodes},mode=0755"),
    )
    .map_err(at("/home"))?;
    copy_tree(&cfg.staging.join("home"), &home).map_err(at("copy of the folder"))?;
    let input = root.join("input");
    fs::create_dir(&input).map_err(at("/input"))?;
    if let Some(name) = &cfg.input_name {
        let target = input.join(name);
        fs::write(&target, b"").map_err(at("/input"))?;
        bind_read_only(&cfg.staging.join("in").join(name), &target).map_err(at("/input"))?;
    }
    for m in &cfg.masks {
        mask(&root, m);
    }
    pivot(&root).map_err(at("pivot_root"))?;
    // SAFETY: sethostname with a valid buffer.
    let _ = rustix::system::sethostname(b"sandbox");
    limits(cfg).map_err(at("limits"))?;
    drop_capabilities();
    rustix::thread::set_no_new_privs(true).map_err(|e| at("no_new_privs")(e.into()))?;
    rustix::process::chdir("/home/student").map_err(|e| at("chdir")(e.into()))?;
    stdin(cfg).map_err(at("stdin"))?;
    super::filter::install(&p.filters).map_err(|e| Failed("seccomp".into(), e))?;
    Ok(())
}

fn uid(n: u32) -> rustix::process::Uid {
    rustix::process::Uid::from_raw(n)
}

fn gid(n: u32) -> rustix::process::Gid {
    rustix::process::Gid::from_raw(n)
}

fn tmpfs(at: &Path, options: &str) -> std::io::Result<()> {
    let data = CString::new(options).map_err(std::io::Error::other)?;
    mount::mount(
        "tmpfs",
        at,
        "tmpfs",
        MountFlags::NOSUID | MountFlags::NODEV,
        Some(data.as_c_str()),
    )
    .map_err(Into::into)
}

/// The flags of the mount holding `path` that a remount must keep (a
/// mount made in a parent namespace locks them).
fn locked_flags(path: &Path) -> MountFlags {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return MountFlags::empty();
    };
    // SAFETY: statvfs fills the struct it is given.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a valid path and a valid struct.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return MountFlags::empty();
    }
    let f = st.f_flag;
    let mut out = MountFlags::empty();
    for (st_flag, flag) in [
        (libc::ST_NOSUID, MountFlags::NOSUID),
        (libc::ST_NODEV, MountFlags::NODEV),
        (libc::ST_NOEXEC, MountFlags::NOEXEC),
        (libc::ST_NOATIME, MountFlags::NOATIME),
        (libc::ST_NODIRATIME, MountFlags::NODIRATIME),
        (4096, MountFlags::RELATIME), // ST_RELATIME (not in musl's libc)
    ] {
        if f & st_flag != 0 {
            out |= flag;
        }
    }
    out
}

fn bind_read_only(source: &Path, target: &Path) -> std::io::Result<()> {
    mount::mount_bind_recursive(source, target)?;
    let flags = locked_flags(source) | MountFlags::RDONLY | MountFlags::NOSUID | MountFlags::BIND;
    mount::mount_remount(target, flags, "").map_err(Into::into)
}

/// `dir` under `root` at the same path: a bind, read-only, or the same
/// symbolic link (`/bin → usr/bin`); nothing when it does not exist.
fn bind_system(dir: &Path, root: &Path) -> std::io::Result<()> {
    let Ok(meta) = fs::symlink_metadata(dir) else {
        return Ok(());
    };
    let rel = dir.strip_prefix("/").unwrap_or(dir);
    let target = root.join(rel);
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent)?;
    }
    if meta.file_type().is_symlink() {
        let to = fs::read_link(dir)?;
        if fs::symlink_metadata(&target).is_err() {
            std::os::unix::fs::symlink(to, &target)?;
        }
        return Ok(());
    }
    if meta.is_dir() {
        fs::create_dir_all(&target)?;
    } else {
        fs::write(&target, b"")?;
    }
    bind_read_only(dir, &target)
}

fn etc(root: &Path) -> std::io::Result<()> {
    let etc = root.join("etc");
    fs::create_dir_all(&etc)?;
    for f in ETC {
        bind_system(Path::new(f), root)?;
    }
    fs::write(
        etc.join("passwd"),
        format!(
            "root:x:0:0:root:/root:/bin/sh\nstudent:x:{SANDBOX_UID}:{SANDBOX_GID}:student:/home/student:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n"
        ),
    )?;
    fs::write(
        etc.join("group"),
        format!("root:x:0:\nstudent:x:{SANDBOX_GID}:\nnogroup:x:65534:\n"),
    )?;
    fs::write(etc.join("hostname"), "sandbox\n")?;
    fs::write(etc.join("hosts"), "127.0.0.1 localhost sandbox\n")
}

fn dev(root: &Path) -> std::io::Result<()> {
    let dev = root.join("dev");
    fs::create_dir_all(&dev)?;
    for d in DEVICES {
        let target = dev.join(d);
        fs::write(&target, b"")?;
        mount::mount_bind(Path::new("/dev").join(d), &target)?;
    }
    for (name, to) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        std::os::unix::fs::symlink(to, dev.join(name))?;
    }
    Ok(())
}

/// Hides `path` in the new root when it is there (the `course` program
/// itself, the course data): an empty file or folder mounted over it.
fn mask(root: &Path, path: &Path) {
    let rel = path.strip_prefix("/").unwrap_or(path);
    let target = root.join(rel);
    match fs::metadata(&target) {
        Ok(m) if m.is_dir() => {
            let _ = tmpfs(&target, "size=4k,nr_inodes=16,mode=0555");
        }
        Ok(_) => {
            let _ = mount::mount_bind("/dev/null", &target);
        }
        Err(_) => {}
    }
}

/// Copies the staged student folder into the sandbox's home: folders,
/// regular files (with their mode) and symbolic links, nothing else.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for e in fs::read_dir(from)? {
        let e = e?;
        let t = e.file_type()?;
        let dest = to.join(e.file_name());
        if t.is_dir() {
            fs::create_dir(&dest)?;
            copy_tree(&e.path(), &dest)?;
        } else if t.is_file() {
            fs::copy(e.path(), &dest)?;
            let mode = e.metadata()?.permissions().mode() & 0o777;
            fs::set_permissions(&dest, fs::Permissions::from_mode(mode | 0o600))?;
        } else if t.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(e.path())?, &dest)?;
        }
    }
    Ok(())
}

fn pivot(root: &Path) -> std::io::Result<()> {
    rustix::process::chdir(root)?;
    rustix::process::pivot_root(".", ".")?;
    mount::unmount(".", UnmountFlags::DETACH)?;
    rustix::process::chdir("/")?;
    let flags = MountFlags::RDONLY | MountFlags::NOSUID | MountFlags::NODEV | MountFlags::BIND;
    mount::mount_remount("/", flags, "").map_err(Into::into)
}

fn limits(cfg: &HelperConfig) -> std::io::Result<()> {
    for (res, n) in super::rlimits(&cfg.limits) {
        rustix::process::setrlimit(res, n)?;
    }
    Ok(())
}

/// Empties the bounding and ambient capability sets (after execve a
/// program that is not uid 0 inside has no capability anyway).
fn drop_capabilities() {
    let _ = rustix::thread::clear_ambient_capability_set();
    for cap in 0..64 {
        // SAFETY: prctl with integer arguments; unknown numbers fail.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } != 0 {
            break;
        }
    }
}

/// The program's standard input: the input file when the command does not
/// name it, else /dev/null.
fn stdin(cfg: &HelperConfig) -> std::io::Result<()> {
    let path: PathBuf = match (&cfg.stdin_input, &cfg.input_name) {
        (true, Some(name)) => Path::new("/input").join(name),
        _ => PathBuf::from("/dev/null"),
    };
    let f = fs::File::open(path)?;
    let fd = OwnedFd::from(f);
    // SAFETY: moving our own descriptor onto 0.
    unsafe { libc::dup2(fd.as_raw_fd(), 0) };
    Ok(())
}
