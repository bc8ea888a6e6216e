//! The outside uids a root grader runs programs as, and their processes.
//! Each grading run claims its uids ([`claim_uids`]): mapped in its user
//! namespace, no account's, owning no process, and held with an exclusive
//! lock on a file in a folder only root may write, so that two grading
//! runs on one machine never share one (each kills every process of its
//! uids). After a run, [`kill_uid`] kills what the uid still runs, from
//! a child that takes that uid, and checks through `/proc` that nothing
//! is left.

use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::PathBuf;
use std::time::Duration;

use super::is_root;

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

#[cfg(test)]
mod tests {
    use std::io::Write;

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
}
