//! The engine: reservation tables, hazard recognizers, schedulers, bounds,
//! hard checks and the simulator.

#![warn(missing_docs)]

pub mod check;
pub mod exact;
pub mod hazard;
pub mod mca;
pub mod mii;
pub mod modulo;
pub mod rtable;
pub mod sched;
pub mod schedule;
