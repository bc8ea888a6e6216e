//! Small helpers every layer may use: exact fractions, the seeded random
//! stream, text layout, compact names, linear stable orders.

pub mod name;
pub mod order;
pub mod ratio;
pub mod rng;
pub mod text;
