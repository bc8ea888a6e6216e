//! `course machine`: a machine model with the forbidden latencies of its
//! capacity-1 units (Definition 23.1.5), or with `reverse` the same for its
//! mirrored tables (the reverse automaton of a bottom-up scheduler, Lesson
//! 23.1 §4 and §6). Machines whose view would be too large to print in a
//! moment are refused, naming the field ([`check_size`]).

use std::borrow::Cow;

use crate::engine::hazard;
use crate::model::machine::Machine;
use crate::view::machine::{ForbiddenLatencies, ForbiddenPair};

pub use crate::view::machine::{check_size, MachineOutput, TooLarge};

/// What `course machine` shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MachineRequest {
    /// Mirror the tables for a bottom-up scheduler ([`Machine::mirrored`]).
    pub reverse: bool,
}

/// The description of `m`, or why it is too large to describe.
pub fn run<'m>(m: &'m Machine, req: &MachineRequest) -> Result<MachineOutput<'m>, TooLarge> {
    check_size(m)?;
    let model = if req.reverse {
        Cow::Owned(m.mirrored())
    } else {
        Cow::Borrowed(m)
    };
    let m: &Machine = &model;
    let info = m.info();
    let by_resource = hazard::users(m);
    let forbidden_latencies = m
        .resource_ids()
        .filter(|&r| r.index() != 0 && m.resource(r).capacity == 1)
        .map(|r| {
            let users = &by_resource[r.index()];
            ForbiddenLatencies {
                pairs: users
                    .iter()
                    .flat_map(|(x, kx)| {
                        users.iter().map(move |(y, ky)| ForbiddenPair {
                            from: m.class(*x).name.clone(),
                            latencies: hazard::forbidden_between(kx, ky),
                            to: m.class(*y).name.clone(),
                        })
                    })
                    .collect(),
                resource: m.resource(r).name.clone(),
            }
        })
        .collect();
    Ok(MachineOutput {
        classes: info.classes,
        forbidden_latencies,
        issue_width: info.issue_width,
        micro_op_buffer_size: info.micro_op_buffer_size,
        name: info.name,
        resources: info.resources,
        reverse: req.reverse,
        model,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_toy_multiplier_forbids_what_the_divider_holds() {
        let m = Machine::toy();
        let out = run(&m, &MachineRequest::default()).unwrap();
        let names: Vec<&str> = out
            .forbidden_latencies
            .iter()
            .map(|f| f.resource.as_str())
            .collect();
        assert_eq!(names, ["mem", "mul"]);
        let mul = &out.forbidden_latencies[1];
        let div_div = mul
            .pairs
            .iter()
            .find(|p| p.from == "div" && p.to == "div")
            .unwrap();
        assert_eq!(div_div.latencies, [0, 1, 2, 3]);
        let j = serde_json::to_string(&out).unwrap();
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(j, v.to_string(), "keys print sorted");
    }
}
