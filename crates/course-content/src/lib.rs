//! Course content: embedded data, generators, drills, the quiz, flashcards
//! and lab grading.

pub mod class_gen;
pub mod class_report;
pub mod data;
pub mod drill;
pub mod family;
pub mod flash;
pub mod flash_log;
pub mod generate;
pub mod json;
pub mod lab;
pub mod log_lines;
pub mod mca_models;
pub mod path;
pub mod progress;
pub mod quiz;
pub mod review_log;
pub mod text;
