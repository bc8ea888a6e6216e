//! Replacing a file whole: every file the host rewrites in place (the
//! flashcard state, the quiz's last result, the autograder's results and
//! bundle) goes through [`write_atomic`], so a killed process or a full
//! disk leaves the old file or the new one, never half of one.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why [`write_atomic`] failed: the folder it could not make, else the
/// file it was writing, and the error.
#[derive(Debug, thiserror::Error)]
#[error("{}: {error}", .path.display())]
pub struct WriteError {
    pub path: PathBuf,
    pub error: io::Error,
}

/// How many random letters and digits end a temporary's name.
const RANDOM_CHARS: usize = 6;

/// The folder a file lives in (`.` for a bare name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The start of the names of `path`'s temporaries: `.<file>.tmp-`.
fn temporary_prefix(path: &Path) -> OsString {
    let mut prefix = OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".tmp-");
    prefix
}

/// Whether `name` (in `path`'s folder) is one of the temporaries
/// [`write_atomic`] makes for `path`: `.<file>.tmp-` and six random letters
/// or digits. One of them outlives its write only when the process is
/// killed in the middle.
pub fn is_temporary(path: &Path, name: &OsStr) -> bool {
    let prefix = temporary_prefix(path);
    name.as_encoded_bytes()
        .strip_prefix(prefix.as_encoded_bytes())
        .is_some_and(|rest| {
            rest.len() == RANDOM_CHARS && rest.iter().all(u8::is_ascii_alphanumeric)
        })
}

/// Replaces the file `path` with `bytes` atomically, making its folder if
/// needed: the bytes go to a new temporary file of a random name in the
/// same folder (`.<file>.tmp-XXXXXX`, made with an exclusive create, with
/// the permissions a new file gets, the umask applied), flushed to disk,
/// renamed over `path`, and the folder is flushed so that the rename
/// persists too (where the platform can open a folder). On an error the
/// temporary is removed and `path` is untouched; the error names the
/// folder that could not be made, else `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let dir = folder(path);
    std::fs::create_dir_all(&dir).map_err(|error| WriteError {
        path: dir.clone(),
        error,
    })?;
    let write = || -> io::Result<()> {
        let mut tmp = tempfile::Builder::new()
            .prefix(&temporary_prefix(path))
            .rand_bytes(RANDOM_CHARS)
            .make_in(&dir, |p| {
                File::options().write(true).create_new(true).open(p)
            })?;
        tmp.as_file_mut().write_all(bytes)?;
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)?;
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|error| WriteError {
        path: path.to_path_buf(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_stays() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("sub/s.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<OsString> = std::fs::read_dir(t.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [OsString::from("s.json")]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The mode of a new file (0666 less the umask), not 0600.
            let fresh = t.path().join("fresh");
            std::fs::write(&fresh, "").unwrap();
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
            assert_eq!(mode(&p), mode(&fresh));
        }
    }

    #[test]
    fn errors_name_the_folder_or_the_file() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("f");
        std::fs::write(&file, "").unwrap();
        // A folder that cannot be made: the error names it.
        let e = write_atomic(&file.join("a/b"), b"x").unwrap_err();
        assert_eq!(e.path, file.join("a"));
        // A file that cannot be replaced (a folder is there): it names it,
        // and nothing is left behind.
        let d = t.path().join("d");
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join("x"), "").unwrap();
        let e = write_atomic(&d, b"x").unwrap_err();
        assert!(e.to_string().starts_with(&d.display().to_string()), "{e}");
        let left: Vec<_> = std::fs::read_dir(t.path()).unwrap().collect();
        assert_eq!(left.len(), 2);
    }

    #[test]
    fn only_its_own_temporaries_are_recognised() {
        let p = Path::new("/x/s.json");
        assert!(is_temporary(p, OsStr::new(".s.json.tmp-a1B2c3")));
        for other in [
            ".s.json.tmp-a1B2c",
            ".s.json.tmp-a1B2c3d",
            ".s.json.tmp-a1B2c.",
            ".t.json.tmp-a1B2c3",
            "s.json",
        ] {
            assert!(!is_temporary(p, OsStr::new(other)), "{other}");
        }
    }
}
