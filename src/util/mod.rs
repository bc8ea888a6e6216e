//! Small helpers every layer may use: exact fractions, the seeded random
//! stream, text layout, the counting allocator.

pub mod heap;
pub mod ratio;
pub mod rng;
pub mod text;
