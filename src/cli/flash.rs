//! `course flash`.

use super::{CliError, CmdResult, Ctx};

#[derive(clap::Args, Debug)]
pub struct FlashArgs {
    /// Arguments.
    pub rest: Vec<String>,
}

pub fn run(_ctx: &Ctx, _args: &FlashArgs) -> CmdResult {
    Err(CliError(
        "`course flash` is not available in this build".into(),
    ))
}
