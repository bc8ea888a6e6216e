//! The integration tests, linked as one executable: one module per area,
//! and `common` for the runner of the real binary and the snapshot names.

// Test tables and end-to-end scripts read best whole; the 100-line limit
// is for the crates' sources.
#![allow(clippy::too_many_lines)]

mod common;

mod answers;
mod autograder;
mod bad_inputs;
mod block_optimum;
mod block_reads;
mod cli;
mod content_engine;
mod crates;
mod drill_blame;
mod drill_feedback;
mod drill_hints;
mod drill_snapshots;
mod flash_cli;
mod grade_adversarial;
mod grade_properties;
mod grade_report;
mod grade_run;
mod grade_safety;
mod grade_samples;
mod lab_solutions;
mod mca;
mod mca_asm;
mod mca_corpus;
mod mca_lesson;
mod mca_props;
mod mca_real;
mod modulo_exact;
mod modulo_quality;
mod optimum_exact;
mod path_cli;
mod practice;
mod progress_cli;
mod properties;
mod quiz_bank;
mod quiz_cli;
mod quiz_generators;
mod sandbox;
mod terminal;
mod worked_example;
mod worksheet;
