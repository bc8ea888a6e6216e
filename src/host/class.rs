//! Class folders on disk: reading submission files safely and grading a
//! student folder (one `STEM.sched` per lab input) or a class folder (one
//! folder per student) with [`crate::content::lab`].
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
//!   ([`crate::util::text::escape_name`]) and stay distinct;
//! - a file the grader cannot read (permission denied) is a grading error
//!   ([`Unread::Grader`]), not the student's zero;
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
use std::path::Path;

use crate::content::lab::{grade_submission, Lab, StudentReport, Unread};
use crate::util::text::escape_name;

pub use crate::content::lab::{too_large, MAX_SUBMISSION_BYTES};
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

/// Every student of a run, and notes for the grader (what was ignored).
#[derive(Clone, Debug)]
pub struct ClassRun {
    pub students: Vec<StudentReport>,
    pub notes: Vec<String>,
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
fn io_fault(shown: &str, e: &io::Error) -> Unread {
    match e.kind() {
        io::ErrorKind::NotFound => Unread::Student(format!("no submission file {shown}")),
        io::ErrorKind::PermissionDenied => Unread::Grader(format!(
            "the grader could not read {shown} (permission denied)"
        )),
        _ if e.raw_os_error() == Some(libc::ELOOP) => {
            Unread::Student(format!("{shown}: a symbolic link is not a submission"))
        }
        _ => Unread::Grader(format!("the grader could not read {shown} ({e})")),
    }
}

/// Reads a submission file: only a regular file reached without a symbolic
/// link, at most [`MAX_SUBMISSION_BYTES`], UTF-8 text. `shown` is how
/// messages name the file (relative to the student's folder).
pub fn read_submission(path: &Path, shown: &str) -> Result<String, Unread> {
    let meta = fs::symlink_metadata(path).map_err(|e| io_fault(shown, &e))?;
    if let Some(why) = not_regular(&meta.file_type()) {
        return Err(Unread::Student(format!("{shown}: {why}")));
    }
    if meta.len() > MAX_SUBMISSION_BYTES {
        return Err(too_large(shown));
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| io_fault(shown, &e))?;
    // What was opened, in case the entry changed since the lstat.
    let meta = file.metadata().map_err(|e| io_fault(shown, &e))?;
    if let Some(why) = not_regular(&meta.file_type()) {
        return Err(Unread::Student(format!("{shown}: {why}")));
    }
    // A second name for one file: it may be any file of the machine (a
    // hard link to /etc/shadow reads as a submission otherwise).
    if std::os::unix::fs::MetadataExt::nlink(&meta) > 1 {
        return Err(Unread::Student(format!(
            "{shown}: a file with more than one hard link is not a submission"
        )));
    }
    let mut buf = Vec::new();
    file.take(MAX_SUBMISSION_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| io_fault(shown, &e))?;
    if buf.len() as u64 > MAX_SUBMISSION_BYTES {
        return Err(too_large(shown));
    }
    decode(buf, shown).map_err(Unread::Student)
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
    let mut stack: Vec<(std::path::PathBuf, Vec<OsString>)> = vec![(dir.to_path_buf(), Vec::new())];
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

/// Grades one student folder (one `STEM.sched` per input; a missing file
/// is an invalid submission, with a hint when something close was found).
pub fn grade_student(lab: &Lab, student: &str, dir: &Path) -> StudentReport {
    let texts = read_student(lab, dir);
    let inputs = lab
        .inputs
        .iter()
        .zip(texts)
        .map(|(li, text)| {
            grade_submission(
                li,
                &lab.machine,
                lab.points,
                text.as_deref().map_err(Clone::clone),
            )
        })
        .collect();
    StudentReport::new(student, inputs)
}

/// The text of each lab input's submission in `dir`, or why not.
pub fn read_student(lab: &Lab, dir: &Path) -> Vec<Result<String, Unread>> {
    let (entries, more) = match list(dir) {
        Ok(l) => l,
        Err(e) => {
            let why = match e.kind() {
                io::ErrorKind::PermissionDenied => {
                    "the grader could not list the student's folder (permission denied)".to_string()
                }
                _ => format!("the grader could not list the student's folder ({e})"),
            };
            return lab
                .inputs
                .iter()
                .map(|_| Err(Unread::Grader(why.clone())))
                .collect();
        }
    };
    let top: Vec<(OsString, bool)> = entries
        .iter()
        .map(|e| (e.name.clone(), e.kind.is_file()))
        .collect();
    let mut nested: Option<Vec<Vec<OsString>>> = None;
    lab.inputs
        .iter()
        .map(|li| {
            let want = format!("{}.sched", li.stem);
            // Past the listing's bound the file is looked for by name.
            if more || entries.iter().any(|e| e.name.as_bytes() == want.as_bytes()) {
                return read_submission(&dir.join(&want), &want);
            }
            let nested = nested.get_or_insert_with(|| nested_files(dir));
            Err(Unread::Student(format!(
                "no submission file {want}{}",
                missing_hint(&li.stem, &top, nested)
            )))
        })
        .collect()
}

/// A student listed in a class folder whose entry is a symbolic link to a
/// folder: every input a zero with the reason.
fn linked_student(lab: &Lab, student: &str) -> StudentReport {
    let why =
        format!("{student} is a symbolic link: links are not followed, so nothing in it is graded");
    let inputs = lab
        .inputs
        .iter()
        .map(|li| {
            grade_submission(
                li,
                &lab.machine,
                lab.points,
                Err(Unread::Student(why.clone())),
            )
        })
        .collect();
    StudentReport::new(student, inputs)
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
                ))
            }
            (true, false) if entries.is_empty() => {
                return Err(format!(
                    "{}: an empty folder: neither a student folder (STEM.sched files) nor a class folder (one folder per student)",
                    dir.display()
                ))
            }
            (true, false) => Mode::Student,
        },
    };
    Ok((mode, notes))
}

/// Grades a student folder or a class folder (one sub-folder per student,
/// in name order), as `mode` says or by the rule of the module
/// documentation.
pub fn grade_dir(lab: &Lab, dir: &Path, mode: Mode) -> Result<ClassRun, String> {
    visit(lab, dir, mode, &mut |lab, name, d| {
        grade_student(lab, name, d)
    })
}

/// A student of a folder given to `course grade --lab`.
#[derive(Clone, Debug)]
pub struct Student {
    /// The name reports show.
    pub name: String,
    /// The student's folder, or `None` for a symbolic link in place of
    /// one (never followed: every input is a zero with the reason).
    pub dir: Option<std::path::PathBuf>,
}

/// The students of `dir` (one, or one per sub-folder in name order), as
/// `mode` says or by the rule of the module documentation, and notes for
/// the grader.
pub fn students(dir: &Path, mode: Mode) -> Result<(Vec<Student>, Vec<String>), String> {
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
            dir: Some(dir.to_path_buf()),
        };
        return Ok((vec![one], notes));
    }
    let mut out = Vec::new();
    for e in &entries {
        let name = shown(&e.name);
        if e.kind.is_dir() {
            out.push(Student {
                name,
                dir: Some(dir.join(&e.name)),
            });
        } else if e.kind.is_symlink() && dir.join(&e.name).is_dir() {
            out.push(Student { name, dir: None });
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

/// Walks `dir` as [`grade_dir`] does, grading each student folder with
/// `grade` (the files in it, or a program run in it).
pub fn visit(
    lab: &Lab,
    dir: &Path,
    mode: Mode,
    grade: &mut dyn FnMut(&Lab, &str, &Path) -> StudentReport,
) -> Result<ClassRun, String> {
    let (list, notes) = students(dir, mode)?;
    let students = list
        .iter()
        .map(|s| match &s.dir {
            Some(d) => grade(lab, &s.name, d),
            None => linked_student(lab, &s.name),
        })
        .collect();
    Ok(ClassRun { students, notes })
}

/// A student whose entry is a symbolic link: every input a zero.
pub fn linked(lab: &Lab, student: &str) -> StudentReport {
    linked_student(lab, student)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::data::Source;
    use crate::content::lab::load_lab;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("course-host-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn student(why: Result<String, Unread>) -> String {
        match why {
            Err(Unread::Student(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn submissions_are_read_with_limits() {
        let d = scratch("read");
        let e = student(read_submission(&d.join("none.sched"), "none.sched"));
        assert!(e.starts_with("no submission file none.sched"), "{e}");
        std::fs::write(d.join("bin.sched"), b"a 0\n\xff").unwrap();
        let e = student(read_submission(&d.join("bin.sched"), "bin.sched"));
        assert!(e.contains("invalid UTF-8 at byte 4"), "{e}");
        std::fs::write(d.join("ok.sched"), "a 0\n").unwrap();
        assert_eq!(
            read_submission(&d.join("ok.sched"), "ok.sched").unwrap(),
            "a 0\n"
        );
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain("a 0\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        std::fs::write(d.join("w.sched"), utf16).unwrap();
        let e = student(read_submission(&d.join("w.sched"), "w.sched"));
        assert!(e.contains("UTF-16 text; save it as UTF-8"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn links_fifos_and_folders_are_not_opened() {
        let d = scratch("special");
        std::os::unix::fs::symlink("/etc/passwd", d.join("link.sched")).unwrap();
        let e = student(read_submission(&d.join("link.sched"), "link.sched"));
        assert_eq!(e, "link.sched: a symbolic link is not a submission");
        let fifo = std::ffi::CString::new(d.join("p.sched").as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let e = student(read_submission(&d.join("p.sched"), "p.sched"));
        assert_eq!(e, "p.sched: a FIFO (named pipe) is not a submission");
        std::fs::write(d.join("orig"), "a 0\n").unwrap();
        std::fs::hard_link(d.join("orig"), d.join("hard.sched")).unwrap();
        let e = student(read_submission(&d.join("hard.sched"), "hard.sched"));
        assert_eq!(
            e,
            "hard.sched: a file with more than one hard link is not a submission"
        );
        std::fs::create_dir(d.join("dir.sched")).unwrap();
        let e = student(read_submission(&d.join("dir.sched"), "dir.sched"));
        assert_eq!(e, "dir.sched: a folder is not a submission");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn grader_side_errors_are_not_the_students() {
        let e = io::Error::from(io::ErrorKind::PermissionDenied);
        assert_eq!(
            io_fault("running.sched", &e),
            Unread::Grader("the grader could not read running.sched (permission denied)".into())
        );
        let e = io::Error::from_raw_os_error(libc::EIO);
        assert!(matches!(io_fault("x", &e), Unread::Grader(_)));
        let e = io::Error::from_raw_os_error(libc::ELOOP);
        assert!(matches!(io_fault("x", &e), Unread::Student(_)));
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
    fn class_folders_are_graded_per_student_in_name_order() {
        let lab = load_lab(&Source::Embedded, "ch23-sched").unwrap();
        let d = scratch("class");
        for st in ["zoe", "amy", ".git", "__MACOSX"] {
            std::fs::create_dir_all(d.join(st)).unwrap();
        }
        let li = &lab.inputs[0];
        std::fs::write(
            d.join("amy").join(format!("{}.sched", li.stem)),
            li.reference_text(),
        )
        .unwrap();
        let r = grade_dir(&lab, &d, Mode::Detect).unwrap().students;
        let names: Vec<&str> = r.iter().map(|s| s.student.as_str()).collect();
        assert_eq!(names, ["amy", "zoe"]);
        assert!(r[0].inputs[0].valid && !r[0].inputs[1].valid);
        assert_eq!(r[0].score, lab.points);
        // A folder with .sched files is one student.
        let one = grade_dir(&lab, &d.join("amy"), Mode::Detect).unwrap();
        assert_eq!(one.students[0].student, "amy");
        // An empty folder is nothing to grade.
        assert!(grade_dir(&lab, &d.join("zoe"), Mode::Detect).is_err());
        // A stray .sched at the class root is an error naming it…
        std::fs::write(d.join("running.sched"), "c 0\n").unwrap();
        let e = grade_dir(&lab, &d, Mode::Detect).unwrap_err();
        assert!(e.contains("also running.sched at its top"), "{e}");
        // …unless the mode is explicit.
        let run = grade_dir(&lab, &d, Mode::Class).unwrap();
        assert_eq!(run.students.len(), 2);
        assert!(run.notes[0].contains("running.sched"), "{:?}", run.notes);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_folder_past_the_listing_bound_is_said_so_and_files_are_found_by_name() {
        let lab = load_lab(&Source::Embedded, "ch23-sched").unwrap();
        let d = scratch("crowded");
        let amy = d.join("amy");
        std::fs::create_dir_all(&amy).unwrap();
        for li in &lab.inputs {
            std::fs::write(amy.join(format!("{}.sched", li.stem)), li.reference_text()).unwrap();
        }
        for i in 0..MAX_ENTRIES {
            std::fs::write(amy.join(format!(".junk{i}")), "").unwrap();
            std::fs::write(d.join(format!(".junk{i}")), "").unwrap();
        }
        // However the folder is ordered, every submission is read.
        let one = grade_dir(&lab, &amy, Mode::Student).unwrap();
        assert_eq!(one.students[0].score, lab.points * lab.inputs.len() as f64);
        let run = grade_dir(&lab, &d, Mode::Class);
        let notes = match run {
            Ok(r) => r.notes,
            Err(e) => vec![e],
        };
        assert!(
            notes.iter().any(|n| n.contains("more than 10000 entries")),
            "{notes:?}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
