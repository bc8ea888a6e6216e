//! Class folders on disk: the students of a student folder or a class
//! folder (one folder per student), and what each student's folder holds
//! (one `STEM.sched` per lab input), read safely as plain text for the
//! grader to grade.
//!
//! Submissions are untrusted, and so is everything in a class folder:
//!
//! - a file is opened only if it is a regular file, never through a
//!   symbolic link (`lstat` first, then `O_NOFOLLOW | O_NONBLOCK`, then
//!   `fstat` on what was opened), so a FIFO cannot block the run and a link
//!   to `/etc/passwd` or to another student's file is a zero with a reason;
//! - a symbolic link in place of a student folder is not followed;
//! - hidden entries (a leading `.`) and `__MACOSX` are never students nor
//!   submissions;
//! - names that are not UTF-8 are shown escaped
//!   ([`course_content::text::escape_name`]) and stay distinct;
//! - a file the grader cannot read (permission denied) is a grading error
//!   ([`Refusal::Grader`]), not the student's zero;
//! - feedback names files relative to the student's folder, never by the
//!   grader's absolute path.
//!
//! Class or student: `--class` and `--student` say it; otherwise a folder
//! with sub-folders and no `.sched` file at its top is a class, a folder
//! with `.sched` files at its top and no sub-folder is one student, a
//! folder with both is an error naming the `.sched` files, and a folder
//! with neither (only other files) is one student whose every file is
//! missing.

use std::ffi::{OsStr, OsString};
use std::fs::{self, FileType, OpenOptions};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use course_content::text::escape_name;

/// The most entries of one folder that are looked at.
pub const MAX_ENTRIES: usize = 10_000;
/// How deep sub-folders of a student folder are searched for misplaced
/// `.sched` files (the hints of [`missing_hint`]).
const HINT_DEPTH: usize = 3;

/// How a folder given to `course grade --lab` is taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// By the rule in the module documentation.
    #[default]
    Detect,
    /// One student's folder.
    Student,
    /// A folder of student folders.
    Class,
}

/// Why a submission was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The student's doing (no file, a link, not a regular file, not UTF-8
    /// text): a zero, with this reason.
    Student(String),
    /// The grader's side (permission denied, an I/O error): a grading
    /// error, not the student's zero.
    Grader(String),
    /// Over the size limit of the read; the file as messages name it.
    TooLarge(String),
}

/// True for names that are never students nor submissions: hidden entries
/// and the `__MACOSX` folder of a Mac zip.
pub fn ignored(name: &OsStr) -> bool {
    let b = name.as_bytes();
    b.starts_with(b".") || b == b"__MACOSX"
}

/// A name as shown in reports: escaped, never merged with another.
pub fn shown(name: &OsStr) -> String {
    escape_name(name.as_bytes())
}

/// Why a file of this type is not a submission, or `None` for a regular file.
fn not_regular(t: &FileType) -> Option<&'static str> {
    if t.is_file() {
        None
    } else if t.is_symlink() {
        Some("a symbolic link is not a submission")
    } else if t.is_dir() {
        Some("a folder is not a submission")
    } else if t.is_fifo() {
        Some("a FIFO (named pipe) is not a submission")
    } else if t.is_socket() {
        Some("a socket is not a submission")
    } else if t.is_block_device() || t.is_char_device() {
        Some("a device is not a submission")
    } else {
        Some("not a regular file")
    }
}

/// A read failure on the grader's side, or a student's missing file.
fn io_fault(shown: &str, e: &io::Error) -> Refusal {
    match e.kind() {
        io::ErrorKind::NotFound => Refusal::Student(format!("no submission file {shown}")),
        io::ErrorKind::PermissionDenied => Refusal::Grader(format!(
            "the grader could not read {shown} (permission denied)"
        )),
        _ if e.raw_os_error() == Some(libc::ELOOP) => {
            Refusal::Student(format!("{shown}: a symbolic link is not a submission"))
        }
        _ => Refusal::Grader(format!("the grader could not read {shown} ({e})")),
    }
}

/// Reads a submission file: only a regular file reached without a symbolic
/// link, at most `limit` bytes, UTF-8 text. `shown` is how messages name
/// the file (relative to the student's folder).
pub fn read_submission(path: &Path, shown: &str, limit: u64) -> Result<String, Refusal> {
    let too_large = || Refusal::TooLarge(shown.to_string());
    let meta = fs::symlink_metadata(path).map_err(|e| io_fault(shown, &e))?;
    if let Some(why) = not_regular(&meta.file_type()) {
        return Err(Refusal::Student(format!("{shown}: {why}")));
    }
    if meta.len() > limit {
        return Err(too_large());
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| io_fault(shown, &e))?;
    // What was opened, in case the entry changed since the lstat.
    let meta = file.metadata().map_err(|e| io_fault(shown, &e))?;
    if let Some(why) = not_regular(&meta.file_type()) {
        return Err(Refusal::Student(format!("{shown}: {why}")));
    }
    // A second name for one file: it may be any file of the machine (a
    // hard link to /etc/shadow reads as a submission otherwise).
    if std::os::unix::fs::MetadataExt::nlink(&meta) > 1 {
        return Err(Refusal::Student(format!(
            "{shown}: a file with more than one hard link is not a submission"
        )));
    }
    let mut buf = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| io_fault(shown, &e))?;
    if buf.len() as u64 > limit {
        return Err(too_large());
    }
    decode(buf, shown).map_err(Refusal::Student)
}

/// UTF-8 text, or why not (naming UTF-16, the usual near miss).
fn decode(buf: Vec<u8>, shown: &str) -> Result<String, String> {
    String::from_utf8(buf).map_err(|e| {
        let bytes = e.as_bytes();
        if looks_utf16(bytes) {
            format!("{shown} is UTF-16 text; save it as UTF-8 (plain text) and submit it again")
        } else {
            format!(
                "{shown}: not a text file (invalid UTF-8 at byte {})",
                e.utf8_error().valid_up_to()
            )
        }
    })
}

/// Whole UTF-16 (with a byte-order mark, or little-endian ASCII without
/// one) that decodes without error.
fn looks_utf16(b: &[u8]) -> bool {
    if b.len() < 2 || !b.len().is_multiple_of(2) {
        return false;
    }
    let units = |le: bool| {
        b.chunks_exact(2).map(move |p| {
            if le {
                u16::from_le_bytes([p[0], p[1]])
            } else {
                u16::from_be_bytes([p[0], p[1]])
            }
        })
    };
    let le = match (b[0], b[1]) {
        (0xff, 0xfe) => true,
        (0xfe, 0xff) => false,
        _ => {
            let ascii_le = b.chunks_exact(2).all(|p| p[1] == 0 && p[0] != 0);
            if !ascii_le {
                return false;
            }
            true
        }
    };
    char::decode_utf16(units(le)).all(|c| c.is_ok())
}

/// One entry of a folder, by `lstat`.
struct Entry {
    name: OsString,
    kind: FileType,
}

/// The entries of `dir` that are not [`ignored`], sorted by name (bytes),
/// and whether the folder holds more than the [`MAX_ENTRIES`] looked at
/// (which ones are left out is then up to the file system). Links are not
/// followed.
fn list(dir: &Path) -> io::Result<(Vec<Entry>, bool)> {
    let mut out = Vec::new();
    let mut all = fs::read_dir(dir)?;
    for e in all.by_ref().take(MAX_ENTRIES) {
        let e = e?;
        let name = e.file_name();
        if ignored(&name) {
            continue;
        }
        let kind = e.file_type()?;
        out.push(Entry { name, kind });
    }
    out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    Ok((out, all.next().is_some()))
}

fn is_sched(name: &OsStr) -> bool {
    name.as_bytes().ends_with(b".sched")
}

/// The files of the sub-folders of a student folder (not links, not
/// hidden), as paths relative to it, down to [`HINT_DEPTH`] levels.
fn nested_files(dir: &Path) -> Vec<Vec<OsString>> {
    let mut out = Vec::new();
    let mut budget = MAX_ENTRIES;
    let mut stack: Vec<(PathBuf, Vec<OsString>)> = vec![(dir.to_path_buf(), Vec::new())];
    while let Some((d, rel)) = stack.pop() {
        let Ok((entries, _)) = list(&d) else {
            continue;
        };
        for e in entries {
            if budget == 0 {
                return out;
            }
            budget -= 1;
            let mut path = rel.clone();
            path.push(e.name.clone());
            if e.kind.is_dir() && path.len() <= HINT_DEPTH {
                stack.push((d.join(&e.name), path));
            } else if !rel.is_empty() && e.kind.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// What a student folder holds that looks like `STEM.sched` but is not:
/// another case, another extension, a sub-folder. The hint that follows
/// "no submission file STEM.sched", or "".
pub fn missing_hint(stem: &str, top: &[(OsString, bool)], nested: &[Vec<OsString>]) -> String {
    let want = format!("{stem}.sched");
    for (name, is_file) in top {
        let n = name.as_bytes();
        let shown_name = shown(name);
        if n.eq_ignore_ascii_case(want.as_bytes()) {
            return format!("; found {shown_name}: names are case-sensitive, rename it to {want}");
        }
        let base = n.split(|&b| b == b'.').next().unwrap_or(n);
        if *is_file && base.eq_ignore_ascii_case(stem.as_bytes()) {
            return format!(
                "; found {shown_name}: a submission is named {want} (STEM.sched), rename it"
            );
        }
    }
    for path in nested {
        let Some(last) = path.last() else { continue };
        if last.as_bytes().eq_ignore_ascii_case(want.as_bytes()) {
            let rel: Vec<String> = path.iter().map(|p| shown(p)).collect();
            let folder = rel[..rel.len() - 1].join("/");
            return format!(
                "; found {} in the sub-folder {folder}/: the .sched files go at the top of the submission, not in a folder",
                rel.join("/")
            );
        }
    }
    String::new()
}

/// The text of the submission `STEM.sched` in `dir` for each of `stems`
/// (at most `limit` bytes each), or why not: a missing file comes with a
/// hint when something close was found.
pub fn read_student(dir: &Path, stems: &[&str], limit: u64) -> Vec<Result<String, Refusal>> {
    let (entries, more) = match list(dir) {
        Ok(l) => l,
        Err(e) => {
            let why = match e.kind() {
                io::ErrorKind::PermissionDenied => {
                    "the grader could not list the student's folder (permission denied)".to_string()
                }
                _ => format!("the grader could not list the student's folder ({e})"),
            };
            return stems
                .iter()
                .map(|_| Err(Refusal::Grader(why.clone())))
                .collect();
        }
    };
    let top: Vec<(OsString, bool)> = entries
        .iter()
        .map(|e| (e.name.clone(), e.kind.is_file()))
        .collect();
    let mut nested: Option<Vec<Vec<OsString>>> = None;
    stems
        .iter()
        .map(|stem| {
            let want = format!("{stem}.sched");
            // Past the listing's bound the file is looked for by name.
            if more || entries.iter().any(|e| e.name.as_bytes() == want.as_bytes()) {
                return read_submission(&dir.join(&want), &want, limit);
            }
            let nested = nested.get_or_insert_with(|| nested_files(dir));
            Err(Refusal::Student(format!(
                "no submission file {want}{}",
                missing_hint(stem, &top, nested)
            )))
        })
        .collect()
}

/// How a folder given on the command line is to be graded, by `mode` and
/// the rule of the module documentation.
fn decide(dir: &Path, entries: &[Entry], mode: Mode) -> Result<(Mode, Vec<String>), String> {
    let scheds: Vec<String> = entries
        .iter()
        .filter(|e| is_sched(&e.name) && !e.kind.is_dir())
        .map(|e| shown(&e.name))
        .collect();
    let folders = entries
        .iter()
        .any(|e| e.kind.is_dir() || (e.kind.is_symlink() && dir.join(&e.name).is_dir()));
    let mut notes = Vec::new();
    let mode = match mode {
        Mode::Class => {
            if !scheds.is_empty() {
                notes.push(format!(
                    "ignored at the top of the class folder (not in a student folder): {}",
                    scheds.join(", ")
                ));
            }
            Mode::Class
        }
        Mode::Student => Mode::Student,
        Mode::Detect => match (scheds.is_empty(), folders) {
            (true, true) => Mode::Class,
            (false, false) => Mode::Student,
            (false, true) => {
                return Err(format!(
                    "{} holds student folders and also {} at its top: give --class to grade the folders (ignoring {}), or --student to grade it as one student",
                    dir.display(),
                    scheds.join(", "),
                    if scheds.len() == 1 { "it" } else { "them" }
                ));
            }
            (true, false) if entries.is_empty() => {
                return Err(format!(
                    "{}: an empty folder: neither a student folder (STEM.sched files) nor a class folder (one folder per student)",
                    dir.display()
                ));
            }
            (true, false) => Mode::Student,
        },
    };
    Ok((mode, notes))
}

/// A student of a folder given to `course grade --lab`.
#[derive(Clone, Debug)]
pub struct Student {
    /// The name reports show.
    pub name: String,
    /// The student's folder, or why nothing in it is looked at (a symbolic
    /// link in place of one is never followed).
    pub dir: Result<PathBuf, Refusal>,
}

impl Student {
    /// What [`read_student`] reads of this student's folder; for a link,
    /// its refusal for every stem.
    pub fn read(&self, stems: &[&str], limit: u64) -> Vec<Result<String, Refusal>> {
        match &self.dir {
            Ok(dir) => read_student(dir, stems, limit),
            Err(why) => stems.iter().map(|_| Err(why.clone())).collect(),
        }
    }
}

/// The students of `dir` (one, or one per sub-folder in name order), as
/// `mode` says or by the rule of the module documentation, and notes for
/// the grader.
pub fn find(dir: &Path, mode: Mode) -> Result<(Vec<Student>, Vec<String>), String> {
    let (entries, more) = list(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (mode, mut notes) = decide(dir, &entries, mode)?;
    let crowded = (more && mode == Mode::Class).then(|| {
        format!(
            "{} holds more than {MAX_ENTRIES} entries: only {MAX_ENTRIES} were looked at, so some students were not graded",
            dir.display()
        )
    });
    if mode == Mode::Student {
        let name = dir
            .file_name()
            .map(shown)
            .or_else(|| {
                let full = std::fs::canonicalize(dir).ok()?;
                full.file_name().map(shown)
            })
            .unwrap_or_else(|| dir.display().to_string());
        let one = Student {
            name,
            dir: Ok(dir.to_path_buf()),
        };
        return Ok((vec![one], notes));
    }
    let mut out = Vec::new();
    for e in &entries {
        let name = shown(&e.name);
        if e.kind.is_dir() {
            out.push(Student {
                name,
                dir: Ok(dir.join(&e.name)),
            });
        } else if e.kind.is_symlink() && dir.join(&e.name).is_dir() {
            let why = format!(
                "{name} is a symbolic link: links are not followed, so nothing in it is graded"
            );
            out.push(Student {
                name,
                dir: Err(Refusal::Student(why)),
            });
        }
    }
    if out.is_empty() {
        return Err(crowded.unwrap_or_else(|| {
            format!("{}: no student folders in the class folder", dir.display())
        }));
    }
    notes.extend(crowded);
    Ok((out, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The read limit of the tests (the grader's is the lab's).
    const LIMIT: u64 = 1 << 20;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("course-host-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn student(why: Result<String, Refusal>) -> String {
        match why {
            Err(Refusal::Student(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn submissions_are_read_with_limits() {
        let d = scratch("read");
        let e = student(read_submission(&d.join("none.sched"), "none.sched", LIMIT));
        assert!(e.starts_with("no submission file none.sched"), "{e}");
        std::fs::write(d.join("bin.sched"), b"a 0\n\xff").unwrap();
        let e = student(read_submission(&d.join("bin.sched"), "bin.sched", LIMIT));
        assert!(e.contains("invalid UTF-8 at byte 4"), "{e}");
        std::fs::write(d.join("ok.sched"), "a 0\n").unwrap();
        assert_eq!(
            read_submission(&d.join("ok.sched"), "ok.sched", LIMIT).unwrap(),
            "a 0\n"
        );
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain("a 0\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        std::fs::write(d.join("w.sched"), utf16).unwrap();
        let e = student(read_submission(&d.join("w.sched"), "w.sched", LIMIT));
        assert!(e.contains("UTF-16 text; save it as UTF-8"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn links_fifos_and_folders_are_not_opened() {
        let d = scratch("special");
        std::os::unix::fs::symlink("/etc/passwd", d.join("link.sched")).unwrap();
        let e = student(read_submission(&d.join("link.sched"), "link.sched", LIMIT));
        assert_eq!(e, "link.sched: a symbolic link is not a submission");
        let fifo = std::ffi::CString::new(d.join("p.sched").as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let e = student(read_submission(&d.join("p.sched"), "p.sched", LIMIT));
        assert_eq!(e, "p.sched: a FIFO (named pipe) is not a submission");
        std::fs::write(d.join("orig"), "a 0\n").unwrap();
        std::fs::hard_link(d.join("orig"), d.join("hard.sched")).unwrap();
        let e = student(read_submission(&d.join("hard.sched"), "hard.sched", LIMIT));
        assert_eq!(
            e,
            "hard.sched: a file with more than one hard link is not a submission"
        );
        std::fs::create_dir(d.join("dir.sched")).unwrap();
        let e = student(read_submission(&d.join("dir.sched"), "dir.sched", LIMIT));
        assert_eq!(e, "dir.sched: a folder is not a submission");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn grader_side_errors_are_not_the_students() {
        let e = io::Error::from(io::ErrorKind::PermissionDenied);
        assert_eq!(
            io_fault("running.sched", &e),
            Refusal::Grader("the grader could not read running.sched (permission denied)".into())
        );
        let e = io::Error::from_raw_os_error(libc::EIO);
        assert!(matches!(io_fault("x", &e), Refusal::Grader(_)));
        let e = io::Error::from_raw_os_error(libc::ELOOP);
        assert!(matches!(io_fault("x", &e), Refusal::Student(_)));
    }

    #[test]
    fn near_misses_get_a_hint() {
        let top = |names: &[&str]| -> Vec<(OsString, bool)> {
            names.iter().map(|n| (OsString::from(n), true)).collect()
        };
        let h = missing_hint("running", &top(&["Running.sched"]), &[]);
        assert!(
            h.contains("found Running.sched: names are case-sensitive"),
            "{h}"
        );
        for n in ["running.txt", "running.sched.txt", "RUNNING"] {
            let h = missing_hint("running", &top(&[n]), &[]);
            assert!(
                h.contains(&format!("found {n}: a submission is named running.sched")),
                "{h}"
            );
        }
        let nested = vec![vec![
            OsString::from("lab23"),
            OsString::from("running.sched"),
        ]];
        let h = missing_hint("running", &[], &nested);
        assert!(
            h.contains("found lab23/running.sched in the sub-folder lab23/"),
            "{h}"
        );
        assert_eq!(missing_hint("running", &top(&["dot.sched"]), &[]), "");
    }

    #[test]
    fn over_the_limit_is_refused_by_name() {
        let d = scratch("limit");
        std::fs::write(d.join("big.sched"), "a 0\nb 1\n").unwrap();
        assert_eq!(
            read_submission(&d.join("big.sched"), "big.sched", 4),
            Err(Refusal::TooLarge("big.sched".into()))
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn class_folders_list_students_in_name_order() {
        let d = scratch("class");
        for st in ["zoe", "amy", ".git", "__MACOSX"] {
            std::fs::create_dir_all(d.join(st)).unwrap();
        }
        std::fs::write(d.join("amy").join("a.sched"), "a 0\n").unwrap();
        let (list, _) = find(&d, Mode::Detect).unwrap();
        let names: Vec<&str> = list.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["amy", "zoe"]);
        let read = list[0].read(&["a", "b"], LIMIT);
        assert_eq!(read[0], Ok("a 0\n".to_string()));
        assert_eq!(student(read[1].clone()), "no submission file b.sched");
        // A folder with .sched files is one student.
        let (one, _) = find(&d.join("amy"), Mode::Detect).unwrap();
        assert_eq!(one[0].name, "amy");
        // An empty folder is nothing to grade.
        assert!(find(&d.join("zoe"), Mode::Detect).is_err());
        // A stray .sched at the class root is an error naming it…
        std::fs::write(d.join("running.sched"), "c 0\n").unwrap();
        let e = find(&d, Mode::Detect).unwrap_err();
        assert!(e.contains("also running.sched at its top"), "{e}");
        // …unless the mode is explicit.
        let (list, notes) = find(&d, Mode::Class).unwrap();
        assert_eq!(list.len(), 2);
        assert!(notes[0].contains("running.sched"), "{notes:?}");
        // A link in place of a student folder is refused, never followed.
        std::os::unix::fs::symlink(d.join("amy"), d.join("bob")).unwrap();
        let (list, _) = find(&d, Mode::Class).unwrap();
        let why = "bob is a symbolic link: links are not followed, so nothing in it is graded";
        assert_eq!(list[1].dir, Err(Refusal::Student(why.into())));
        assert_eq!(student(list[1].read(&["a"], LIMIT).remove(0)), why);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_folder_past_the_listing_bound_is_said_so_and_files_are_found_by_name() {
        let d = scratch("crowded");
        let amy = d.join("amy");
        std::fs::create_dir_all(&amy).unwrap();
        for stem in ["a", "b"] {
            std::fs::write(amy.join(format!("{stem}.sched")), "a 0\n").unwrap();
        }
        for i in 0..MAX_ENTRIES {
            std::fs::write(amy.join(format!(".junk{i}")), "").unwrap();
            std::fs::write(d.join(format!(".junk{i}")), "").unwrap();
        }
        // However the folder is ordered, every submission is read.
        let read = read_student(&amy, &["a", "b"], LIMIT);
        assert!(read.iter().all(Result::is_ok), "{read:?}");
        let notes = match find(&d, Mode::Class) {
            Ok((_, notes)) => notes,
            Err(e) => vec![e],
        };
        assert!(
            notes.iter().any(|n| n.contains("more than 10000 entries")),
            "{notes:?}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
