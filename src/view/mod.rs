//! Views: the typed results of the commands (their JSON form, fields in
//! alphabetical order) and their text, CSV and DOT renderings.

pub mod analyze;
pub mod autograder;
pub mod class_report;
pub mod dot;
pub mod drill;
pub mod flash;
pub mod generate;
pub mod grade;
pub mod machine;
pub mod mca;
pub mod progress;
pub mod quiz;
pub mod report;
pub mod schedule;
pub mod style;
