//! The folders a run works in. A grading run makes one staging root
//! ([`StagingRoot`]: 0711, a random name in the temporary folder), and
//! each run a private folder in it (0700, a random name, removed when the
//! run ends) holding a copy of the student's folder (bounded in bytes and
//! entries; hard links left out, symbolic links kept as links), the
//! input, a temporary folder, and the mount point of the namespace
//! sandbox's root. As root, what is in it is given to the run's uid as
//! its mode needs.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use course_content::lab::Unread;

use super::{Isolation, Job, MAX_COPY_BYTES, MAX_COPY_ENTRIES, Sandbox};

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
pub(super) struct Staging {
    pub(super) dir: PathBuf,
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

pub(super) fn make_removable(dir: &Path) {
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

/// One run's private folder, filled: the copy of the student's folder,
/// the input, and (as root) everything owned as the run's mode needs.
pub(super) struct Staged {
    pub(super) staging: Staging,
    pub(super) home: PathBuf,
    pub(super) tmp: PathBuf,
    pub(super) input_name: String,
    pub(super) input_file: PathBuf,
    /// Bytes and entries of the copy.
    pub(super) copied: (u64, usize),
    /// The program's uid and gid outside.
    pub(super) ids: (u32, u32),
}

pub(super) fn stage(sb: &Sandbox, job: &Job) -> Result<Staged, Unread> {
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
