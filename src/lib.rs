//! `course`: the engine behind the Chapter 23 (instruction scheduling) drills,
//! quizzes, lab grader and analyses.
//!
//! The engine does no terminal I/O: every command of the binary is one call
//! into this library, which returns data or text.

pub mod bench;
pub mod content;
pub mod engine;
pub mod formats;
pub mod model;
pub mod util;
pub mod view;
