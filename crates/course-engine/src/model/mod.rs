//! The model: ids, machines (Definition 23.1.1) and programs with their
//! dependence graphs, and assembly lowered to programs (`asm`).

#![warn(missing_docs)]

pub mod asm;
pub mod form;
pub mod ids;
pub mod json;
pub mod machine;
pub mod program;
