//! One entry point per command of the `course` binary, each returning a
//! typed result that derives `Serialize`: `--format json` serialises it, and
//! [`crate::view`] renders it as text.

pub mod drill;
pub mod flash;
pub mod quiz;
