//! The model: ids, machines (Definition 23.1.1) and programs with their
//! dependence graphs; assembly as read (`asm`) and as LLVM's MC layer and
//! scheduling models see it (`mc`).

#![warn(missing_docs)]

pub mod asm;
pub mod form;
pub mod ids;
pub mod machine;
pub mod mc;
pub mod program;
