//! What uid separation adds where the kernel allows no namespaces, and
//! what it must clean up because it has none.
//!
//! - **Landlock** ([`ruleset`]): a program run as a sandbox uid reads only
//!   the system's program folders ([`SYSTEM_READ`]), the folders bound
//!   with `--sandbox-bind`, its input and its own folders; writes only its
//!   own folders (and `/dev/null`); connects to and binds no TCP port; and
//!   reaches no abstract unix socket and signals no process outside its
//!   run. The ruleset is made before the fork and applied in the child
//!   with one system call ([`restrict`]).
//! - **The survey** ([`survey`]): once per grading run, a walk of every
//!   folder another user may pass through, for copies of the reference a
//!   program could read or run (a `course` program, `.sched` files in a
//!   `solutions/` folder) and for the folders a program could write to.
//!   With Landlock, only the folders of its read view are walked.
//! - **The clean-up** ([`clean_uid`]): after every run (and before the
//!   first), everything the run's uid owns in those writable folders and
//!   every System V object it created is removed, and the removal checked,
//!   as the kill of its processes is checked.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope,
};

/// The folders (and device files) a confined program may read and run.
pub const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/proc",
    "/sys/devices/system/cpu",
];

/// Devices a confined program may read, and `/dev/null`, which it may
/// also write.
const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"];

/// Folders every user may write to on most machines, cleaned after each
/// run whatever the survey found.
pub const SHARED_WRITABLE: &[&str] = &["/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue"];

/// The most entries the survey looks at before it gives up.
pub const SURVEY_ENTRIES: usize = 5_000_000;

/// The Landlock ABI of the running kernel: 0 when it has none (or a
/// seccomp profile refuses the call).
pub fn landlock_abi() -> u32 {
    const VERSION: libc::c_uint = 1; // LANDLOCK_CREATE_RULESET_VERSION
    // SAFETY: with a null attribute and the version flag, the call only
    // returns a number.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            VERSION,
        )
    };
    u32::try_from(v).unwrap_or(0)
}

/// What a Landlock ABI can enforce, in the terms of `--check-sandbox`.
pub fn landlock_covers(abi: u32) -> (bool, bool, bool) {
    // Files since 1, TCP since 4, abstract sockets and signals since 6.
    (abi >= 1, abi >= 4, abi >= 6)
}

/// One run's view of the machine under Landlock.
pub struct View<'a> {
    /// Its own folders: read, write, make, remove, run.
    pub own: &'a [&'a Path],
    /// Files it reads (its input; its program when given by full path).
    pub files: &'a [&'a Path],
    /// Folders it reads and runs besides [`SYSTEM_READ`] (`--sandbox-bind`).
    pub binds: &'a [PathBuf],
}

/// The ruleset of `view`, as the descriptor [`restrict`] applies.
pub fn ruleset(view: &View) -> Result<OwnedFd, String> {
    let abi = ABI::V6;
    let err = |e: landlock::RulesetError| format!("Landlock: {e}");
    let path = |p: &Path| PathFd::new(p).map_err(|e| format!("Landlock: {}: {e}", p.display()));
    let mut rs = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .map_err(err)?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
        .map_err(err)?
        .scope(Scope::AbstractUnixSocket | Scope::Signal)
        .map_err(err)?
        .create()
        .map_err(err)?;
    let read = AccessFs::from_read(abi);
    let system = SYSTEM_READ.iter().map(Path::new);
    for p in system.chain(view.binds.iter().map(PathBuf::as_path)) {
        if p.exists() {
            rs = rs.add_rule(PathBeneath::new(path(p)?, read)).map_err(err)?;
        }
    }
    for d in DEVICES {
        let p = Path::new(d);
        if p.exists() {
            let mut a: landlock::BitFlags<AccessFs> = AccessFs::ReadFile.into();
            if *d == "/dev/null" {
                a |= AccessFs::WriteFile;
            }
            rs = rs.add_rule(PathBeneath::new(path(p)?, a)).map_err(err)?;
        }
    }
    for p in view.files {
        let a = AccessFs::ReadFile | AccessFs::Execute;
        rs = rs.add_rule(PathBeneath::new(path(p)?, a)).map_err(err)?;
    }
    for p in view.own {
        let a = AccessFs::from_all(abi);
        rs = rs.add_rule(PathBeneath::new(path(p)?, a)).map_err(err)?;
    }
    Option::<OwnedFd>::from(rs).ok_or_else(|| "Landlock: this kernel has none".to_string())
}

/// Confines the calling thread with the ruleset `fd` (after
/// `no_new_privs`). Only system calls: safe between `fork` and `execve`.
pub fn restrict(fd: RawFd) -> io::Result<()> {
    // SAFETY: landlock_restrict_self takes a descriptor and flags.
    let r = unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// A descriptor's number, for [`restrict`] in a child.
pub fn raw(fd: &OwnedFd) -> RawFd {
    fd.as_raw_fd()
}

/// What the survey of the machine found.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    /// Copies of the reference a sandbox uid could read or run.
    pub exposed: Vec<PathBuf>,
    /// Folders a sandbox uid could write to (cleaned after each run).
    pub writable: Vec<PathBuf>,
    /// Set when the walk stopped at [`SURVEY_ENTRIES`].
    pub incomplete: bool,
}

/// Walks `roots` (every folder others may pass through below them, links
/// not followed, `skip` left out) for the reference and writable folders;
/// `masks` (the `course` program, the course data, the secret) are
/// exposed when others may read them and they are under a root.
pub fn survey(roots: &[PathBuf], masks: &[PathBuf], skip: &[PathBuf]) -> Survey {
    let mut s = Survey::default();
    let mut seen = 0usize;
    let mut stack: Vec<PathBuf> = roots.iter().filter(|r| reachable(r)).cloned().collect();
    while let Some(dir) = stack.pop() {
        if skip.iter().any(|k| dir.starts_with(k)) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&dir) else {
            continue;
        };
        if !meta.is_dir() || meta.mode() & 0o001 == 0 {
            continue;
        }
        if meta.mode() & 0o002 != 0 {
            s.writable.push(dir.clone());
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let solutions = dir.components().any(|c| c.as_os_str() == "solutions");
        for e in entries.flatten() {
            seen += 1;
            if seen > SURVEY_ENTRIES {
                s.incomplete = true;
                return s;
            }
            let Ok(t) = e.file_type() else { continue };
            let p = e.path();
            if t.is_dir() {
                if !matches!(p.to_str(), Some("/proc" | "/sys" | "/dev")) {
                    stack.push(p);
                }
            } else if t.is_file() {
                let name = e.file_name();
                let reference =
                    name == "course" || (solutions && p.extension().is_some_and(|x| x == "sched"));
                if reference
                    && e.metadata().is_ok_and(|m| m.mode() & 0o005 != 0)
                    && !s.exposed.contains(&dir)
                {
                    s.exposed.push(if solutions { dir.clone() } else { p });
                }
            }
        }
    }
    for m in masks {
        if roots.iter().any(|r| m.starts_with(r))
            && super::open_to_others(m)
            && !s.exposed.contains(m)
        {
            s.exposed.push(m.clone());
        }
    }
    s.exposed.sort();
    s.exposed.dedup();
    s
}

/// Whether every folder above `p` lets others pass.
fn reachable(p: &Path) -> bool {
    p.ancestors()
        .skip(1)
        .all(|a| std::fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 != 0))
}

/// The folders cleaned after each run: [`SHARED_WRITABLE`] and what the
/// survey found, those that exist.
pub fn cleaned_folders(found: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = SHARED_WRITABLE
        .iter()
        .map(PathBuf::from)
        .chain(found.iter().cloned())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Removes what `uid` left behind: its entries in `folders` (`skip`, the
/// staging root, excepted) and its System V objects; then checks that
/// nothing is left, and says what is when something is.
pub fn clean_uid(uid: u32, folders: &[PathBuf], skip: &Path) -> Result<(), String> {
    for _ in 0..3 {
        for (kind, id) in ipc_of(uid) {
            remove_ipc(kind, id);
        }
        for d in folders {
            for p in entries_of(uid, d, skip) {
                remove(&p);
            }
        }
        if residue(uid, folders, skip).is_empty() {
            return Ok(());
        }
    }
    let left = residue(uid, folders, skip);
    Err(format!(
        "uid {uid} left {} that could not be removed: {}",
        left.len(),
        left.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
    ))
}

/// What `uid` owns in `folders` and in System V IPC, named.
pub fn residue(uid: u32, folders: &[PathBuf], skip: &Path) -> Vec<String> {
    let mut out: Vec<String> = ipc_of(uid)
        .into_iter()
        .map(|(k, id)| format!("System V {} {id}", k.name()))
        .collect();
    for d in folders {
        out.extend(
            entries_of(uid, d, skip)
                .into_iter()
                .map(|p| p.display().to_string()),
        );
    }
    out
}

/// The entries of `dir` that `uid` owns.
fn entries_of(uid: u32, dir: &Path, skip: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != skip)
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.uid() == uid))
        .collect()
}

fn remove(p: &Path) {
    let dir = std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    if !dir {
        let _ = std::fs::remove_file(p);
    } else if std::fs::remove_dir_all(p).is_err() {
        super::make_removable(p);
        let _ = std::fs::remove_dir_all(p);
    }
}

/// A kind of System V object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ipc {
    Shm,
    Sem,
    Msg,
}

impl Ipc {
    fn name(self) -> &'static str {
        match self {
            Ipc::Shm => "shared memory segment",
            Ipc::Sem => "semaphore set",
            Ipc::Msg => "message queue",
        }
    }
}

/// The System V objects `uid` owns or created.
pub fn ipc_of(uid: u32) -> Vec<(Ipc, i32)> {
    let mut out = Vec::new();
    for (kind, file, id_col) in [
        (Ipc::Shm, "shm", "shmid"),
        (Ipc::Sem, "sem", "semid"),
        (Ipc::Msg, "msg", "msqid"),
    ] {
        let Ok(text) = std::fs::read_to_string(format!("/proc/sysvipc/{file}")) else {
            continue;
        };
        let mut lines = text.lines();
        let Some(head) = lines.next() else { continue };
        let cols: Vec<&str> = head.split_whitespace().collect();
        let col = |name: &str| cols.iter().position(|c| *c == name);
        let (Some(i), Some(u), Some(c)) = (col(id_col), col("uid"), col("cuid")) else {
            continue;
        };
        for l in lines {
            let w: Vec<&str> = l.split_whitespace().collect();
            let num = |k: usize| w.get(k).and_then(|v| v.parse::<i64>().ok());
            if let (Some(id), Some(owner), Some(creator)) = (num(i), num(u), num(c))
                && (owner == i64::from(uid) || creator == i64::from(uid))
                && let Ok(id) = i32::try_from(id)
            {
                out.push((kind, id));
            }
        }
    }
    out
}

fn remove_ipc(kind: Ipc, id: i32) {
    // SAFETY: IPC_RMID with a null buffer only removes the object.
    unsafe {
        match kind {
            Ipc::Shm => libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()),
            Ipc::Sem => libc::semctl(id, 0, libc::IPC_RMID),
            Ipc::Msg => libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut()),
        };
    }
}

/// The bytes (allocated) and entries under `dir`, counted up to
/// `max_entries` entries (a flood is over the limit either way).
pub fn usage(dir: &Path, max_entries: usize) -> (u64, usize) {
    let mut bytes = 0u64;
    let mut n = 0usize;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            n += 1;
            if n > max_entries {
                return (bytes, n);
            }
            let Ok(m) = e.metadata() else { continue };
            bytes += m.blocks() * 512;
            if m.is_dir() {
                stack.push(e.path());
            }
        }
    }
    (bytes, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_survey_finds_a_reference_others_can_read_and_not_one_they_cannot() {
        let t = tempfile::tempdir().unwrap();
        let set = |p: &Path, m: u32| {
            std::fs::set_permissions(p, std::os::unix::fs::PermissionsExt::from_mode(m)).unwrap()
        };
        set(t.path(), 0o755);
        let open = t.path().join("open");
        let shut = t.path().join("shut");
        let sol = open.join("solutions/lab");
        for d in [&open, &shut, &open.join("solutions"), &sol] {
            std::fs::create_dir(d).unwrap();
            set(d, 0o755);
        }
        set(&shut, 0o700);
        std::fs::write(open.join("course"), "x").unwrap();
        set(&open.join("course"), 0o711);
        std::fs::write(shut.join("course"), "x").unwrap();
        std::fs::write(sol.join("a.sched"), "a 0").unwrap();
        let w = open.join("drop");
        std::fs::create_dir(&w).unwrap();
        set(&w, 0o1777);
        let s = survey(&[t.path().to_path_buf()], &[], &[]);
        if !reachable(t.path()) {
            return; // a temporary folder others cannot reach: nothing to see
        }
        assert_eq!(s.exposed, vec![open.join("course"), sol.clone()]);
        assert_eq!(s.writable, vec![w]);
        assert!(!s.incomplete);
        let s = survey(&[t.path().to_path_buf()], &[], std::slice::from_ref(&open));
        assert!(s.exposed.is_empty(), "{:?}", s.exposed);
    }

    #[test]
    fn a_uids_files_and_shared_memory_are_removed_and_the_removal_checked() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("SKIP the clean-up of a uid: the tests do not run as root");
            return;
        }
        let uid = 61_900;
        let t = tempfile::tempdir().unwrap();
        let shared = t.path().join("shared");
        let keep = t.path().join("shared/root-owned");
        std::fs::create_dir_all(&keep).unwrap();
        let left = shared.join("left");
        std::fs::create_dir(&left).unwrap();
        std::fs::write(left.join("deep"), "x").unwrap();
        std::fs::write(shared.join("file"), "x").unwrap();
        for p in [&left, &left.join("deep"), &shared.join("file")] {
            std::os::unix::fs::lchown(p, Some(uid), Some(uid)).unwrap();
        }
        // SAFETY: a private segment, its owner set with IPC_SET.
        let id = unsafe { libc::shmget(libc::IPC_PRIVATE, 4096, 0o600) };
        assert!(id >= 0);
        let mut ds: libc::shmid_ds = unsafe { std::mem::zeroed() };
        unsafe { libc::shmctl(id, libc::IPC_STAT, &mut ds) };
        ds.shm_perm.uid = uid;
        unsafe { libc::shmctl(id, libc::IPC_SET, &mut ds) };
        let folders = vec![shared.clone()];
        let before = residue(uid, &folders, Path::new("/nonexistent"));
        assert_eq!(before.len(), 3, "{before:?}");
        clean_uid(uid, &folders, Path::new("/nonexistent")).unwrap();
        assert!(residue(uid, &folders, Path::new("/nonexistent")).is_empty());
        assert!(keep.exists(), "what the uid does not own stays");
    }

    #[test]
    fn landlock_coverage_grows_with_the_abi() {
        assert_eq!(landlock_covers(0), (false, false, false));
        assert_eq!(landlock_covers(3), (true, false, false));
        assert_eq!(landlock_covers(6), (true, true, true));
    }

    #[test]
    fn usage_counts_bytes_and_stops_counting_a_flood() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("a"), vec![1u8; 10_000]).unwrap();
        for i in 0..20 {
            std::fs::write(t.path().join(format!("f{i}")), "").unwrap();
        }
        let (bytes, n) = usage(t.path(), 1000);
        assert!(bytes >= 8192, "{bytes}");
        assert_eq!(n, 21);
        assert_eq!(usage(t.path(), 5).1, 6);
    }
}
