//! The host: everything that touches the file system (class folders,
//! submission files, state files), and the class's own texts beside them
//! (rosters and gradebooks, [`roster`] and [`csv`], as text the caller has
//! read; the Gradescope bundle's archive, [`zip`], as bytes). The
//! layers below never touch the file system. Class folders, submissions
//! and scheduler runs rely on Unix file and process semantics (no symbolic
//! links followed, FIFOs not opened, process groups), so those modules
//! exist on Unix only; the rest builds for the web page too.

#[cfg(unix)]
pub mod autograder;
pub mod clock;
pub mod csv;
pub mod flash_state;
pub mod fsutil;
pub mod quiz_state;
pub mod review_log;
pub mod roster;
#[cfg(unix)]
pub mod run;
#[cfg(target_os = "linux")]
pub mod sandbox;
#[cfg(unix)]
pub mod students;
#[cfg(unix)]
pub mod watch;
pub mod zip;
