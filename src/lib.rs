//! `course`: the engine behind the Chapter 23 (instruction scheduling) drills,
//! quizzes, lab grader and analyses.
//!
//! The engine does no terminal I/O: every command of the binary is one call
//! into this library, which returns data or text.

pub mod bench;
pub mod check;
pub mod data;
pub mod drill;
pub mod flash;
pub mod gen;
pub mod grade;
pub mod hazard;
pub mod heap;
pub mod ids;
pub mod machine;
pub mod machine_view;
pub mod mca;
pub mod mii;
pub mod modulo;
pub mod program;
pub mod quiz;
pub mod ratio;
pub mod render;
pub mod report;
pub mod rng;
pub mod rtable;
pub mod sched;
