//! The machine as JSON (product.md §6): [`MachineInfo`] and the class,
//! resource and ReadAdvance entries under it, as `course machine --format
//! json` and the `machine` field of every data command print them, each
//! reservation table by resource name (Definition 23.1.2). A field the
//! machine file leaves at its default is left out.

use serde::Serialize;

use crate::model::form::Form;

use super::Machine;

impl Machine {
    /// The serializable description of product.md §6 (`course machine
    /// --format json`, and the `machine` field of every data command).
    pub fn info(&self) -> MachineInfo {
        MachineInfo {
            classes: self
                .classes
                .iter()
                .map(|c| ClassInfo {
                    forms: c
                        .forms
                        .as_ref()
                        .map(|fs| fs.iter().map(Form::to_string).collect()),
                    latency: c.latency,
                    memory: c.memory,
                    name: c.name.clone(),
                    opcodes: c.opcodes.clone(),
                    read_advance: c.read_advance,
                    reads: c
                        .reads
                        .iter()
                        .map(|e| ReadAdvanceInfo {
                            cycles: e.cycles,
                            operands: e.operands.clone(),
                            writes: e
                                .writes
                                .as_ref()
                                .map(|ws| ws.iter().map(|&w| self.class(w).name.clone()).collect()),
                        })
                        .collect(),
                    reservation: c
                        .reservation
                        .iter()
                        .map(|&(r, k)| (self.resource(r).name.clone(), k))
                        .collect(),
                    stores: c.stores,
                    uops: c.uops,
                    write_latencies: c.write_latencies.clone(),
                    zero_idiom: c.zero_idiom,
                })
                .collect(),
            issue_width: self.issue_width,
            load_latency: self.top.load_latency,
            micro_op_buffer_size: self.top.micro_op_buffer_size,
            name: self.name.clone(),
            reorder_buffer_size: self.top.reorder_buffer_size,
            resources: self
                .resources
                .iter()
                .map(|r| ResourceInfo {
                    buffer_size: r.buffer_size,
                    capacity: r.capacity,
                    group: r
                        .members
                        .iter()
                        .map(|&m| self.resource(m).name.clone())
                        .collect(),
                    name: r.name.clone(),
                })
                .collect(),
            retire_width: self.top.retire_width,
        }
    }
}

/// A machine as JSON (product.md §6). Fields are declared in alphabetical
/// order, the order every JSON object of the crate prints its keys in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MachineInfo {
    /// Every class with its reservation table (issue pairs included).
    pub classes: Vec<ClassInfo>,
    /// W.
    pub issue_width: u32,
    /// LLVM's LoadLatency, when the file gives one.
    #[serde(skip_serializing_if = "is_zero")]
    pub load_latency: u32,
    /// 0 for an in-order machine.
    pub micro_op_buffer_size: u32,
    /// The machine's name.
    pub name: String,
    /// Reorder-buffer entries of an out-of-order machine.
    #[serde(skip_serializing_if = "is_zero")]
    pub reorder_buffer_size: u32,
    /// Every resource, `issue` first.
    pub resources: Vec<ResourceInfo>,
    /// Instructions retired per cycle at most, when limited.
    #[serde(skip_serializing_if = "is_zero")]
    pub retire_width: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// A ReadAdvance entry as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadAdvanceInfo {
    /// Cycles the operand is read late.
    pub cycles: u32,
    /// Operand positions; absent for every register operand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operands: Option<Vec<u32>>,
    /// Producer classes; absent for every producer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes: Option<Vec<String>>,
}

/// A class as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassInfo {
    /// The operand forms it models; absent for any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forms: Option<Vec<String>>,
    /// `lat(o)`.
    pub latency: u32,
    /// Whether it is the folded-load form of its opcodes.
    #[serde(skip_serializing_if = "is_false")]
    pub memory: bool,
    /// The class name.
    pub name: String,
    /// The opcodes of the class.
    pub opcodes: Vec<String>,
    /// ReadAdvance of its register operands outside an address.
    pub read_advance: u32,
    /// ReadAdvance per operand and producer class, first match first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<ReadAdvanceInfo>,
    /// RT(o) as `[resource, offset]` pairs.
    pub reservation: Vec<(String, u32)>,
    /// Whether it writes memory as well as registers.
    #[serde(skip_serializing_if = "is_false")]
    pub stores: bool,
    /// Micro-ops.
    pub uops: u32,
    /// The latency of each register written, when they differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub write_latencies: Vec<u32>,
    /// Whether it is the zero-idiom variant of its opcodes.
    #[serde(skip_serializing_if = "is_false")]
    pub zero_idiom: bool,
}

/// A resource as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceInfo {
    /// LLVM's BufferSize, when the resource has a scheduler queue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_size: Option<u32>,
    /// cap(r).
    pub capacity: u32,
    /// The members of a group.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub group: Vec<String>,
    /// The resource name.
    pub name: String,
}
