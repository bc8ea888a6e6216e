//! The integration tests, linked as one executable: one module per area,
//! and `common` for the runner of the real binary and the snapshot names.

mod common;

mod answers;
mod bad_inputs;
mod bench;
mod cli;
mod drill_snapshots;
mod flash_cli;
mod grade_adversarial;
mod grade_properties;
mod grade_samples;
mod hazard_corpus;
mod heap;
mod lab_solutions;
mod layers;
mod mca;
mod mca_corpus;
mod mca_props;
mod properties;
mod quiz_bank;
mod quiz_cli;
mod quiz_generators;
mod table_corpus;
mod worked_example;
