//! Views: text, JSON and DOT renderings of results.

pub mod drill;
pub mod flash;
pub mod machine;
pub mod mca;
pub mod quiz;
pub mod report;
