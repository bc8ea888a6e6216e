//! `course`: the engine behind the Chapter 23 (instruction scheduling) drills,
//! quizzes, lab grader and analyses.
//!
//! The crate is a stack of layers; a module may use its own layer and the
//! layers below it, never one above (a test reads `src/` and enforces it):
//!
//! | layer | what it holds |
//! |---|---|
//! | [`util`] | exact fractions, the seeded random stream, text layout, the counting allocator |
//! | [`formats`] | diagnostics, YAML with positions, the answer reader, the submission format |
//! | [`model`] | ids, machines (Definition 23.1.1), programs and their dependence graphs |
//! | [`engine`] | reservation tables, hazard recognizers, schedulers, bounds, hard checks, the simulator |
//! | [`content`] | embedded course data, generators, drills, the quiz, flashcards, lab grading |
//! | [`view`] | text, JSON and DOT renderings of results |
//! | [`host`] | the file system: class folders, state files |
//! | [`bench`] | the scale benchmarks |
//! | [`api`] | one entry point per command, returning a typed, serializable result |
//!
//! The library does no terminal I/O: the `course` binary parses arguments,
//! makes one [`api`] call, renders the result with [`view`] and prints it.

pub mod api;
pub mod bench;
pub mod content;
pub mod engine;
pub mod formats;
pub mod host;
pub mod model;
pub mod util;
pub mod view;
