//! The engine: reservation tables, hazard recognizers, schedulers, bounds,
//! hard checks and the simulator.

#![warn(missing_docs)]

pub mod check;
pub mod hazard;
pub mod list;
pub mod mca;
pub mod mii;
pub mod modulo;
pub mod optimum;
pub mod reference;
pub mod rtable;
pub mod timesat;
