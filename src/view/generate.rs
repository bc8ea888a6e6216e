//! `course gen`: the text view of a [`GenOutput`], the lab-format text
//! itself.

use crate::api::generate::GenOutput;

/// The lab-format text.
pub fn text(g: &GenOutput) -> &str {
    &g.text
}
