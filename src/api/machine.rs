//! `course machine`: a machine model with the forbidden latencies of its
//! capacity-1 units (Definition 23.1.5).

use crate::engine::hazard;
use crate::model::machine::Machine;
use crate::view::machine::{ForbiddenLatencies, ForbiddenPair};

pub use crate::view::machine::MachineOutput;

/// The description of `m`.
pub fn run(m: &Machine) -> MachineOutput<'_> {
    let info = m.info();
    let forbidden_latencies = m
        .resource_ids()
        .filter(|&r| r.index() != 0 && m.resource(r).capacity == 1)
        .map(|r| ForbiddenLatencies {
            pairs: hazard::forbidden_matrix(m, r)
                .into_iter()
                .map(|(x, y, latencies)| ForbiddenPair {
                    from: m.class(x).name.clone(),
                    latencies,
                    to: m.class(y).name.clone(),
                })
                .collect(),
            resource: m.resource(r).name.clone(),
        })
        .collect();
    MachineOutput {
        classes: info.classes,
        forbidden_latencies,
        issue_width: info.issue_width,
        micro_op_buffer_size: info.micro_op_buffer_size,
        name: info.name,
        resources: info.resources,
        model: m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_toy_multiplier_forbids_what_the_divider_holds() {
        let m = Machine::toy();
        let out = run(&m);
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
