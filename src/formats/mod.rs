//! Text formats shared by the parsers: diagnostics, YAML with positions,
//! answers and submissions.
pub mod diagnostic;
pub mod yaml;
