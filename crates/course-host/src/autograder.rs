//! The Gradescope autograder on disk: where a student's files are inside
//! an uploaded submission, the results file, the bundle's zip, and the
//! check that the bundled `course` is a static x86-64 program.
//!
//! Gradescope's layout (its autograder specification): the bundle is
//! unzipped into `ROOT/source`, `run_autograder` runs with the student's
//! upload in `ROOT/submission`, and `ROOT/results/results.json` is what
//! students see. `ROOT` is `/autograder`, or `$COURSE_AUTOGRADER_ROOT`
//! (tests stand a folder in for it).

use std::ffi::OsString;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::students::{ignored, shown};

/// The variable that names a stand-in for `/autograder`.
pub const ROOT_ENV: &str = "COURSE_AUTOGRADER_ROOT";

/// `$COURSE_AUTOGRADER_ROOT`, else `/autograder`.
pub fn default_root() -> PathBuf {
    std::env::var_os(ROOT_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("/autograder"), PathBuf::from)
}

/// How deep the upload is searched for the student's files.
const DEPTH: usize = 3;
/// The most entries looked at in an upload.
const BUDGET: usize = 10_000;

/// The folder of an upload to grade: the one (not hidden, not `__MACOSX`,
/// not reached through a link, at most three levels down) holding the
/// most files named in `wanted`, the shallowest on a tie; the upload's own
/// folder when none holds any. With it, a note for the student when it is
/// not the top.
pub fn locate(upload: &Path, wanted: &[String]) -> (PathBuf, Option<String>) {
    let mut best: (usize, PathBuf, Vec<OsString>) = (0, upload.to_path_buf(), Vec::new());
    let mut queue: std::collections::VecDeque<(PathBuf, Vec<OsString>)> =
        std::collections::VecDeque::from([(upload.to_path_buf(), Vec::new())]);
    let mut budget = BUDGET;
    while let Some((dir, rel)) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<(OsString, bool)> = Vec::new();
        for e in entries.flatten().take(budget) {
            budget = budget.saturating_sub(1);
            let name = e.file_name();
            if ignored(&name) {
                continue;
            }
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            names.push((name, is_dir));
        }
        names.sort();
        let score = names
            .iter()
            .filter(|(n, d)| !d && wanted.iter().any(|w| w.as_bytes() == n.as_bytes()))
            .count();
        if score > best.0 {
            best = (score, dir.clone(), rel.clone());
        }
        if rel.len() < DEPTH {
            for (n, d) in names {
                if d {
                    let mut r = rel.clone();
                    r.push(n.clone());
                    queue.push_back((dir.join(&n), r));
                }
            }
        }
    }
    let note = (!best.2.is_empty()).then(|| {
        let rel: Vec<String> = best.2.iter().map(|p| shown(p)).collect();
        format!(
            "graded the files found in the folder {}/ of the submission",
            rel.join("/")
        )
    });
    (best.1, note)
}

/// True when the upload holds no file at all (hidden files and
/// `__MACOSX` aside).
pub fn is_empty_upload(upload: &Path) -> bool {
    let mut stack = vec![upload.to_path_buf()];
    let mut budget = BUDGET;
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            if ignored(&e.file_name()) {
                continue;
            }
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                _ => return false,
            }
        }
    }
    true
}

/// Writes `ROOT/results/results.json` (atomically,
/// [`crate::fsutil::write_atomic`], so a reader never sees half of it);
/// its path.
pub fn write_results(root: &Path, json: &str) -> Result<PathBuf, String> {
    let path = root.join("results").join("results.json");
    crate::fsutil::write_atomic(&path, json.as_bytes()).map_err(|e| e.to_string())?;
    Ok(path)
}

/// Why the program at `path` would not run on Gradescope's images, or
/// `None` when it is a static x86-64 ELF executable (no program
/// interpreter, so no C library version matters).
pub fn static_binary_problem(path: &Path) -> Result<Option<String>, String> {
    let shown_path = path.display();
    let mut f = std::fs::File::open(path).map_err(|e| format!("{shown_path}: {e}"))?;
    let mut h = [0u8; 64];
    if f.read_exact(&mut h).is_err() || &h[..4] != b"\x7fELF" {
        return Ok(Some(format!("{shown_path} is not a Linux program (ELF)")));
    }
    if h[4] != 2 || h[5] != 1 || u16::from_le_bytes([h[18], h[19]]) != 62 {
        return Ok(Some(format!(
            "{shown_path} is not a 64-bit x86-64 program; Gradescope runs x86-64"
        )));
    }
    let phoff = u64::from_le_bytes(h[32..40].try_into().unwrap_or_default());
    let phentsize = u64::from(u16::from_le_bytes([h[54], h[55]]));
    let phnum = u64::from(u16::from_le_bytes([h[56], h[57]]));
    // An ELF64 program header is 56 bytes (Elf64_Phdr): the table read
    // below is at most 56 × 4096 bytes, whatever the header claims.
    if phentsize != 56 || phnum > 4096 {
        return Ok(Some(format!("{shown_path}: a malformed ELF header")));
    }
    let mut ph = vec![0u8; (phentsize * phnum) as usize];
    f.seek(SeekFrom::Start(phoff))
        .and_then(|_| f.read_exact(&mut ph))
        .map_err(|e| format!("{shown_path}: {e}"))?;
    const PT_INTERP: u32 = 3;
    let dynamic = ph
        .chunks_exact(phentsize as usize)
        .any(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]) == PT_INTERP);
    Ok(dynamic.then(|| {
        format!(
            "{shown_path} is dynamically linked: it needs the C library of this machine, which Gradescope's image may not have. Build a static one (cargo build --release --target x86_64-unknown-linux-musl) and give it with --binary"
        )
    }))
}

/// Reads a file of the bundle (a program, a course file); at most 256 MiB.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = Vec::new();
    f.take(256 << 20)
        .read_to_end(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(buf)
}

/// Writes `bytes` to `path` (atomically, [`crate::fsutil::write_atomic`]).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    crate::fsutil::write_atomic(path, bytes).map_err(|e| e.to_string())
}

/// The names the upload holds at its top (for the "what was found" note).
pub fn top_names(upload: &Path) -> Vec<String> {
    let mut names: Vec<OsString> = std::fs::read_dir(upload)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name())
                .filter(|n| !ignored(n))
                .take(50)
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names.iter().map(|n| shown(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_with_the_most_wanted_files_is_chosen() {
        let d = std::env::temp_dir().join(format!("course-ag-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("__MACOSX/lab")).unwrap();
        std::fs::create_dir_all(d.join("lab/old")).unwrap();
        std::fs::write(d.join("__MACOSX/lab/._a.sched"), "x").unwrap();
        std::fs::write(d.join("__MACOSX/lab/a.sched"), "x").unwrap();
        std::fs::write(d.join("lab/a.sched"), "x").unwrap();
        std::fs::write(d.join("lab/b.sched"), "x").unwrap();
        std::fs::write(d.join("lab/old/a.sched"), "x").unwrap();
        let wanted = vec!["a.sched".to_string(), "b.sched".to_string()];
        let (dir, note) = locate(&d, &wanted);
        assert_eq!(dir, d.join("lab"));
        assert!(note.unwrap().contains("lab/"));
        assert!(!is_empty_upload(&d));
        let e = d.join("empty");
        std::fs::create_dir_all(e.join("__MACOSX")).unwrap();
        std::fs::write(e.join(".DS_Store"), "x").unwrap();
        assert!(is_empty_upload(&e));
        assert_eq!(locate(&e, &wanted), (e.clone(), None));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_script_is_not_a_static_program() {
        let d = std::env::temp_dir().join(format!("course-elf-{}", std::process::id()));
        std::fs::write(&d, "#!/bin/sh\n").unwrap();
        assert!(
            static_binary_problem(&d)
                .unwrap()
                .unwrap()
                .contains("not a Linux program")
        );
        let _ = std::fs::remove_file(&d);
    }
}
