//! Views: text, JSON and DOT renderings of results.

pub mod drill;
pub mod machine;
pub mod mca;
pub mod report;
