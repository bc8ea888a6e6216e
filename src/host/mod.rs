//! The host: everything that touches the file system (class folders,
//! submission files, state files). The layers below never do.

pub mod autograder;
pub mod class;
pub mod clock;
pub mod flash_state;
pub mod run;
