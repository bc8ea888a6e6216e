//! The model: ids, machines (Definition 23.1.1) and programs with their
//! dependence graphs.

pub mod ids;
pub mod machine;
pub mod program;
