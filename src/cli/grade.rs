//! `course grade`.

use super::{CliError, CmdResult, Ctx};

#[derive(clap::Args, Debug)]
pub struct GradeArgs {
    /// Arguments.
    pub rest: Vec<String>,
}

pub fn run(_ctx: &Ctx, _args: &GradeArgs) -> CmdResult {
    Err(CliError(
        "`course grade` is not available in this build".into(),
    ))
}
