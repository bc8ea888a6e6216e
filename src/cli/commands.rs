//! The engine commands: drill, schedule, analyze, machine, gen.

use super::{CmdResult, Ctx, DrillArgs, GenArgs, InputArgs, MachineArgs};

pub fn drill(_ctx: &Ctx, _a: &DrillArgs) -> CmdResult {
    Ok(0)
}
pub fn schedule(_ctx: &Ctx, _a: &InputArgs) -> CmdResult {
    Ok(0)
}
pub fn analyze(_ctx: &Ctx, _a: &InputArgs) -> CmdResult {
    Ok(0)
}
pub fn machine_cmd(_ctx: &Ctx, _a: &MachineArgs) -> CmdResult {
    Ok(0)
}
pub fn gen(_ctx: &Ctx, _a: &GenArgs) -> CmdResult {
    Ok(0)
}
