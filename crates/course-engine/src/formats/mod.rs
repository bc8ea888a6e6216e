//! Text formats shared by the parsers: diagnostics, YAML with positions,
//! answers and submissions.
pub mod answer;
pub mod diagnostic;
pub mod submission;
pub mod yaml;
