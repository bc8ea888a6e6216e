//! Small helpers every layer may use: exact fractions, the seeded random
//! stream, the column layout of the engine's tables, compact names, linear
//! stable orders.

pub mod name;
pub mod order;
pub mod ratio;
pub mod rng;
pub mod text;
