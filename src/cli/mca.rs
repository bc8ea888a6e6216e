//! `course mca`.

use super::{CliError, CmdResult, Ctx};

#[derive(clap::Args, Debug)]
pub struct McaArgs {
    /// Arguments.
    pub rest: Vec<String>,
}

pub fn run(_ctx: &Ctx, _args: &McaArgs) -> CmdResult {
    Err(CliError(
        "`course mca` is not available in this build".into(),
    ))
}
