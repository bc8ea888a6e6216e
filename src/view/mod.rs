//! Views: the text, CSV, DOT and HTML renderings of the commands' typed
//! results, which [`crate::api`] (or the crate that computes them, such as
//! [`course_content`] for drills, the quiz and flashcards) defines. A view
//! reads a result and returns text; it computes nothing the JSON form
//! lacks.

pub mod analyze;
#[cfg(unix)]
pub mod autograder;
pub mod class_report;
pub mod dot;
pub mod drill;
pub mod flash;
pub mod generate;
pub mod grade;
pub mod machine;
pub mod mca;
pub mod path;
pub mod progress;
pub mod quiz;
pub mod report;
pub mod schedule;
pub mod style;
pub mod worksheet;
