//! `course bench`.

use super::{CliError, CmdResult, Ctx};

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Arguments.
    pub rest: Vec<String>,
}

pub fn run(_ctx: &Ctx, _args: &BenchArgs) -> CmdResult {
    Err(CliError(
        "`course bench` is not available in this build".into(),
    ))
}
