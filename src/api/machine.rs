//! `course machine`: a machine model with the forbidden latencies of its
//! capacity-1 units (Definition 23.1.5), or with `reverse` the same for its
//! mirrored tables (the reverse automaton of a bottom-up scheduler, Lesson
//! 23.1 §4 and §6). Machines whose view would be too large to print in a
//! moment are refused, naming the field ([`check_size`]).

use std::borrow::Cow;

use serde::Serialize;

use course_content::json::{ClassInfo, ResourceInfo};
use course_engine::engine::hazard;
use course_engine::model::machine::Machine;

/// States beyond this are counted but not listed: the text view lists a
/// unit's automaton only up to this many states, and [`check_size`] counts
/// that many rows per unit.
pub const LIST_STATES: usize = 40;

/// The most cells the tables of the view may have: the reservation tables
/// (rows × offsets, plus the pairs of every table) and the transition
/// tables of the per-unit automata (a row per state, a column per class).
pub const MAX_TABLE_CELLS: u64 = 1 << 20;

/// The most forbidden-latency sets the matrices may have, over every
/// capacity-1 unit (256 classes sharing one unit).
pub const MAX_FORBIDDEN_PAIRS: u64 = 1 << 16;

/// The most latencies those sets may hold, bounded per unit by
/// `pairs × (D_r + 1)`.
pub const MAX_FORBIDDEN_LATENCIES: u64 = 1 << 20;

/// A machine model with its forbidden latencies (product.md §6). Fields are
/// declared in alphabetical order, the order JSON objects print their keys
/// in.
#[derive(Clone, Debug, Serialize)]
pub struct MachineOutput<'m> {
    pub classes: Vec<ClassInfo>,
    /// Per capacity-1 unit (issue excluded), in machine order.
    pub forbidden_latencies: Vec<ForbiddenLatencies>,
    pub issue_width: u32,
    pub micro_op_buffer_size: u32,
    pub name: String,
    pub resources: Vec<ResourceInfo>,
    /// True for `--reverse`: the tables and latencies are those of the
    /// mirrored machine ([`Machine::mirrored`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reverse: bool,
    /// The model (the mirrored one for `--reverse`), for the text view.
    #[serde(skip)]
    pub model: Cow<'m, Machine>,
}

/// `F(from, to)` for every pair of classes using one unit (Definition
/// 23.1.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForbiddenLatencies {
    pub pairs: Vec<ForbiddenPair>,
    pub resource: String,
}

/// One pair's forbidden latencies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForbiddenPair {
    pub from: String,
    pub latencies: Vec<u32>,
    pub to: String,
}

/// Why a machine is too large for `course machine`: the field, and what
/// would be printed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("machine {machine}: {field}: {message}")]
pub struct TooLarge {
    /// The machine's name.
    pub machine: String,
    /// `classes[4]`, `resources[0]`: where the limit is passed.
    pub field: String,
    /// How much the view would print, and the limit.
    pub message: String,
}

/// Refuses a machine whose view would be larger than [`MAX_TABLE_CELLS`],
/// [`MAX_FORBIDDEN_PAIRS`] or [`MAX_FORBIDDEN_LATENCIES`], naming the class
/// or resource where the total passes the limit. Linear in the size of the
/// machine.
pub fn check_size(m: &Machine) -> Result<(), TooLarge> {
    let too_large = |field: String, message: String| TooLarge {
        machine: m.name().to_string(),
        field,
        message,
    };
    let mut cells = 0u64;
    for (i, c) in m.classes().iter().enumerate() {
        let rows = c.folded.chunk_by(|a, b| a.0 == b.0).count() as u64;
        cells += c.reservation.len() as u64 + rows * (u64::from(c.max_offset()) + 2);
        if cells > MAX_TABLE_CELLS {
            return Err(too_large(
                format!("classes[{i}]"),
                format!(
                    "the reservation tables up to class '{}' have {cells} cells, more than the {MAX_TABLE_CELLS} `course machine` draws",
                    c.name
                ),
            ));
        }
    }
    // Per resource: the classes using it and the largest offset on it.
    let mut users = vec![0u64; m.resources().len()];
    let mut span = vec![0u64; m.resources().len()];
    for c in m.classes() {
        for run in c.folded.chunk_by(|a, b| a.0 == b.0) {
            let r = run[0].0.index();
            users[r] += 1;
            span[r] = span[r].max(u64::from(run[run.len() - 1].1) + 1);
        }
    }
    // Each unit's automaton lists up to LIST_STATES + 1 rows, a column per class.
    let listing = (LIST_STATES as u64 + 1) * (m.classes().len() as u64 + 2);
    let (mut pairs, mut latencies) = (0u64, 0u64);
    for r in m.resource_ids().skip(1) {
        let res = m.resource(r);
        let (c, d) = (users[r.index()], span[r.index()]);
        if c == 0 {
            continue;
        }
        let field = format!("resources[{}]", r.index() - 1);
        cells += listing;
        if cells > MAX_TABLE_CELLS {
            return Err(too_large(
                field,
                format!(
                    "with the hazard automaton of '{}', the tables have {cells} cells ({} classes), more than the {MAX_TABLE_CELLS} `course machine` draws",
                    res.name,
                    m.classes().len()
                ),
            ));
        }
        if res.capacity != 1 {
            continue;
        }
        pairs += c * c;
        latencies += c * c * d;
        if pairs > MAX_FORBIDDEN_PAIRS {
            return Err(too_large(
                field,
                format!(
                    "{c} classes use '{}' (capacity 1), so the forbidden-latency matrices would have {pairs} sets, more than the {MAX_FORBIDDEN_PAIRS} `course machine` lists",
                    res.name
                ),
            ));
        }
        if latencies > MAX_FORBIDDEN_LATENCIES {
            return Err(too_large(
                field,
                format!(
                    "{c} classes use '{}' (capacity 1) at offsets up to {}, so the forbidden-latency sets could hold {latencies} latencies, more than the {MAX_FORBIDDEN_LATENCIES} `course machine` lists",
                    res.name,
                    d - 1
                ),
            ));
        }
    }
    Ok(())
}

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
    let info = course_content::json::machine_info(m);
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

    #[test]
    fn the_toy_and_a_wide_machine_are_small_enough() {
        assert!(check_size(&Machine::toy()).is_ok());
        assert!(check_size(&course_engine::engine::hazard::pathological_machine(64)).is_ok());
    }
}
