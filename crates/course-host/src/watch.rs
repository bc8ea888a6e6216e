//! Saves of one file, seen through the kernel's file notifications
//! (inotify through `notify`): the watcher blocks between saves, so a
//! `course watch` that waits costs no CPU. The folder is watched, not the
//! file, because editors often save by writing a new file and renaming it
//! over the old one.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// How long the events of one save are gathered into one.
const SETTLE: Duration = Duration::from_millis(100);

/// The saves of the files of one folder.
pub struct Saves {
    rx: Receiver<notify::Result<Event>>,
    _watcher: RecommendedWatcher,
    dir: PathBuf,
}

impl Saves {
    /// Starts watching `dir`.
    pub fn on(dir: &Path) -> Result<Saves, String> {
        let (tx, rx) = channel();
        let mut w = notify::recommended_watcher(move |e| {
            let _ = tx.send(e);
        })
        .map_err(|e| format!("{}: cannot watch: {e}", dir.display()))?;
        w.watch(dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("{}: cannot watch: {e}", dir.display()))?;
        Ok(Saves {
            rx,
            _watcher: w,
            dir: dir.to_path_buf(),
        })
    }

    /// Blocks until `name` (a file of the folder) is written, made or
    /// renamed into place, then lets the rest of that save's events pass.
    pub fn next_save(&self, name: &str) -> Result<(), String> {
        // What happened before this call was seen already, or was the
        // caller's own write (the next exercise file): not a save to check.
        while self.rx.try_recv().is_ok() {}
        loop {
            let e = self
                .rx
                .recv()
                .map_err(|_| format!("{}: the watch ended", self.dir.display()))?;
            if is_save_of(&e, name) {
                break;
            }
        }
        loop {
            match self.rx.recv_timeout(SETTLE) {
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => return Ok(()),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the watch ended", self.dir.display()));
                }
            }
        }
    }
}

fn is_save_of(e: &notify::Result<Event>, name: &str) -> bool {
    let Ok(e) = e else { return false };
    matches!(e.kind, EventKind::Modify(_) | EventKind::Create(_))
        && e.paths
            .iter()
            .any(|p| p.file_name().is_some_and(|n| n == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_is_seen_and_another_file_is_not() {
        let t = tempfile::tempdir().unwrap();
        let s = Saves::on(t.path()).unwrap();
        let f = t.path().join("a.txt");
        let other = t.path().join("b.txt");
        let written = f.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            std::fs::write(other, "x").unwrap();
            std::thread::sleep(Duration::from_millis(200));
            std::fs::write(written, "y").unwrap();
        });
        s.next_save("a.txt").unwrap();
        // Had the save of b.txt ended the wait, a.txt would not be there yet.
        assert!(f.exists(), "the wait ended on another file's save");
        writer.join().unwrap();
    }
}
