//! One entry point per command of the `course` binary, each returning a
//! typed result that derives `Serialize`: `--format json` serialises it, and
//! [`crate::view`] renders it as text.

pub mod analyze;
#[cfg(unix)]
pub mod autograder;
pub mod drill;
pub mod flash;
pub mod generate;
pub mod grade;
pub mod machine;
pub mod mca;
pub mod progress;
pub mod quiz;
pub mod schedule;
