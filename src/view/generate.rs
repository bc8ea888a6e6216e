//! `course gen`: a generated input as a typed result; its text view is the
//! lab-format text itself.

use serde::Serialize;

use crate::model::program::Kind;

/// A seeded random block or loop. Fields are declared in alphabetical order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GenOutput {
    pub kind: Kind,
    /// The seed that reproduces it.
    pub seed: u64,
    /// The input in lab format, with a header comment naming the seed.
    pub text: String,
}

/// The lab-format text.
pub fn text(g: &GenOutput) -> &str {
    &g.text
}
