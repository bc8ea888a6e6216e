//! `course quiz`.

use super::{CliError, CmdResult, Ctx};

#[derive(clap::Args, Debug)]
pub struct QuizArgs {
    /// Arguments.
    pub rest: Vec<String>,
}

pub fn run(_ctx: &Ctx, _args: &QuizArgs) -> CmdResult {
    Err(CliError(
        "`course quiz` is not available in this build".into(),
    ))
}
