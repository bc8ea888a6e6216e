//! One entry point per command of the `course` binary, each returning a
//! typed result that derives `Serialize`, defined in its command's module
//! (or in the crate that computes it, such as [`course_content`] for drills,
//! the quiz and flashcards): `--format json` serialises it, and
//! [`crate::view`] renders it as text. Nothing here uses the views: a
//! result that holds rendered text (Gradescope's feedback) takes the
//! rendering from its caller.

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
pub mod worksheet;
