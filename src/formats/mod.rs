//! Text formats shared by the parsers: diagnostics, YAML with positions,
//! answers, submissions, and the assembly `course mca` reads.
pub mod answer;
pub mod asm;
pub mod csv;
pub mod diagnostic;
pub mod submission;
pub mod yaml;
pub mod zip;
