//! The machine-file format (Definitions 23.1.1, 23.1.2 and 23.1.8): the
//! serde structs a machine file is read into, one per level of the file
//! ([`MachineFile`] and its resources, classes, folded loads, zero idioms
//! and ReadAdvance entries), and the [`Field`] path and [`MachineError`] by
//! which validation names the part of a file that is wrong and finds its
//! line and column.

use std::fmt;

use serde::Deserialize;

use crate::formats::diagnostic::Location;
use crate::formats::yaml::LineIndex;

/// The machine-file format, the one schema of a machine (what
/// [`Machine::from_yaml`](super::Machine::from_yaml) reads, and what code
/// that builds a machine fills in, leaving the rest `Default`): issue width, resources and classes
/// (Definitions 23.1.1 and 23.1.2) and the optional LLVM-style fields of
/// Definition 23.1.8 (groups, scheduler buffers, LoadLatency, retire width,
/// resource uses with ReleaseAtCycles, folded loads, ReadAdvance per
/// operand). In this struct and those under it a field left out of the
/// file reads as `None` when it is an `Option`, and as its default where
/// it says `#[serde(default)]`; every other field is required.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineFile {
    /// `name:`.
    pub name: Option<String>,
    /// `issue_width:`, W: micro-ops dispatched per cycle (Definition 23.1.8).
    pub issue_width: i64,
    /// `micro_op_buffer_size:`; 0 or absent means in-order.
    pub micro_op_buffer_size: Option<i64>,
    /// `load_latency:`, LLVM's LoadLatency: the default latency of a folded
    /// load part (`load:` of a class).
    pub load_latency: Option<i64>,
    /// `reorder_buffer_size:`; defaults to `micro_op_buffer_size`.
    pub reorder_buffer_size: Option<i64>,
    /// `retire_width:`, instructions retired per cycle at most (0 = no limit).
    pub retire_width: Option<i64>,
    /// `load_queue_size:`, loads in flight (dispatched, not retired) at
    /// most; LLVM's LoadQueue (0 = no limit).
    pub load_queue_size: Option<i64>,
    /// `store_queue_size:`, stores in flight at most; LLVM's StoreQueue.
    pub store_queue_size: Option<i64>,
    /// `resources:`.
    pub resources: Vec<ResourceFile>,
    /// `classes:`.
    pub classes: Vec<ClassFile>,
}

/// One resource of a [`MachineFile`]: a kind with a capacity, or a group.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceFile {
    /// `name:`.
    pub name: String,
    /// `capacity:`, required for a kind, absent for a group.
    pub capacity: Option<i64>,
    /// `group:`, the member kinds of a ProcResGroup.
    pub group: Option<Vec<String>>,
    /// `buffer_size:`, LLVM's BufferSize (a scheduler queue of this many entries).
    pub buffer_size: Option<i64>,
}

/// One class of a [`MachineFile`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassFile {
    /// `name:`.
    pub name: String,
    /// `latency:`.
    pub latency: i64,
    /// `opcodes:`.
    pub opcodes: Vec<String>,
    /// `unit:`.
    pub unit: Option<String>,
    /// `occupancy:`.
    pub occupancy: Option<i64>,
    /// `reservation:`.
    pub reservation: Option<Vec<(String, i64)>>,
    /// `uses:`, LLVM-style `[resource, ReleaseAtCycles]` pairs: each resource
    /// is held from offset 0 for that many cycles.
    pub uses: Option<Vec<(String, i64)>>,
    /// `uops:`.
    pub uops: Option<i64>,
    /// `read_advance:`, a number (every register operand outside an address)
    /// or a list of entries.
    pub read_advance: Option<ReadAdvanceFile>,
    /// `load:`, the folded-load form of the class.
    pub load: Option<LoadFile>,
    /// `forms:`, the operand forms the class models (`"r = r, i"`,
    /// [`Form`](crate::model::form::Form)); absent for any form.
    pub forms: Option<Vec<String>>,
    /// `zero_idiom:`, the variant of the class for an operation whose two
    /// register operands are one register (`xorq rax, rax`).
    pub zero_idiom: Option<ZeroIdiomFile>,
    /// `write_latencies:`, the latency of each register written, in the
    /// lab line's order ([`Class::write_latencies`](super::Class::write_latencies)); default `latency` for
    /// each.
    pub write_latencies: Option<Vec<i64>>,
    /// `stores:`, whether the class writes memory although it writes a
    /// register ([`Class::stores`](super::Class::stores)); default false.
    pub stores: Option<bool>,
}

/// `zero_idiom:` of a class: the scheduling-class variant LLVM selects for
/// a dependency-breaking idiom (Lesson 23.1 §6). It applies to an
/// operation of one of `opcodes` whose register operands are exactly two,
/// both the same register: it reads neither, and takes `latency`, `uops`
/// and `uses` instead of the class's.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZeroIdiomFile {
    /// `name:` of the variant; `NAME-zero` when absent.
    pub name: Option<String>,
    /// `opcodes:` of the class it applies to; all of them when absent.
    pub opcodes: Option<Vec<String>>,
    /// `latency:`; default 0.
    pub latency: Option<i64>,
    /// `uops:`; default 1.
    pub uops: Option<i64>,
    /// `uses:`, like a class's; default none (no execution port).
    #[serde(default)]
    pub uses: Vec<(String, i64)>,
}

/// `read_advance:` of a class.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum ReadAdvanceFile {
    /// One number for every register operand outside an address.
    All(i64),
    /// Entries per operand and producer class.
    List(Vec<ReadAdvanceEntryFile>),
}

/// One entry of a `read_advance:` list.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadAdvanceEntryFile {
    /// `cycles:`.
    pub cycles: i64,
    /// `operands:`, 0-based positions after the opcode; absent for all.
    pub operands: Option<Vec<i64>>,
    /// `writes:`, producer class names; absent for all.
    pub writes: Option<Vec<String>>,
}

/// `load:` of a class: its folded-load form (LLVM's `SchedWrite.Folded`),
/// used for an operation that has a memory operand and a destination. The
/// form adds `latency` cycles, `uops` micro-ops and the `uses` of the load
/// to the class, and its register operands read with ReadAdvance `latency`
/// (LLVM's ReadAfterLd): only the memory operand carries the load latency.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadFile {
    /// `name:` of the folded form; `NAME-mem` when absent.
    pub name: Option<String>,
    /// `latency:`; the machine's `load_latency` when absent.
    pub latency: Option<i64>,
    /// `uops:` added; default 1.
    pub uops: Option<i64>,
    /// `uses:` of the load part, like a class's.
    #[serde(default)]
    pub uses: Vec<(String, i64)>,
    /// `forms:` of the folded form; by default each form of the class with
    /// its first register operand made the memory operand.
    pub forms: Option<Vec<String>>,
}

/// Which field of a machine file a mistake is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// A top-level key: `issue_width`, `micro_op_buffer_size`, `resources`,
    /// `classes`.
    Top(&'static str),
    /// A key of `resources[i]`.
    Resource(usize, &'static str),
    /// A key of `classes[i]`.
    Class(usize, &'static str),
    /// Element `j` of `classes[i].reservation`.
    Reservation(usize, usize),
}

impl fmt::Display for Field {
    /// The path: `classes[4].occupancy`, `classes[0].reservation[1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Field::Top(k) => f.write_str(k),
            Field::Resource(i, k) => write!(f, "resources[{i}].{k}"),
            Field::Class(i, k) => write!(f, "classes[{i}].{k}"),
            Field::Reservation(i, j) => write!(f, "classes[{i}].reservation[{j}]"),
        }
    }
}

impl Field {
    /// Where the field is written in `text` (block or flow style).
    pub fn locate(&self, text: &str, origin: &str) -> Location {
        match *self {
            Field::Top(k) => LineIndex::new(text, origin, k).top(k),
            Field::Resource(i, k) => {
                LineIndex::new(text, origin, "resources").key("resources", i, k)
            }
            Field::Class(i, k) => LineIndex::new(text, origin, "classes").key("classes", i, k),
            Field::Reservation(i, j) => {
                LineIndex::new(text, origin, "classes").elem("classes", i, "reservation", j)
            }
        }
    }
}

/// Why a machine model was rejected: the field and what is wrong with it.
/// [`Machine::from_yaml`](super::Machine::from_yaml) turns it into a
/// [`Diagnostic`](crate::formats::diagnostic::Diagnostic) at the field's
/// line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {field}: {message}")]
pub struct MachineError {
    /// The file (or generator) the model came from.
    pub origin: String,
    /// The field the mistake is in.
    pub field: Field,
    /// What is wrong with it.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use crate::model::machine::Machine;

    #[test]
    fn mistakes_are_located_at_their_field() {
        let at = |yaml: &str| {
            let d = Machine::from_yaml(yaml, "m.yaml").unwrap_err();
            (d.line, d.column, d.message)
        };
        let flow = "issue_width: 2\nresources:\n  - { name: mul, capacity: 1 }\nclasses:\n  - { name: mul, latency: 3, opcodes: [mul], unit: mul, occupancy: 4 }\n";
        assert_eq!(
            Machine::from_yaml(flow, "m.yaml").unwrap_err().to_string(),
            "m.yaml:5:57: classes[0].occupancy: occupancy 4 exceeds latency 3 (Definition 23.1.2 needs occ ≤ lat)"
        );
        let block = "issue_width: 2\nresources:\n  - name: alu\n    capacity: 2\nclasses:\n  - name: a\n    latency: 1\n    opcodes: [add]\n    unit: alu\n  - name: b\n    latency: 2\n    opcodes: [sub]\n    reservation:\n      - [alu, 0]\n      - [fpu, 1]\n";
        let (l, c, msg) = at(block);
        assert_eq!((l, c), (15, 7), "{msg}");
        assert!(msg.starts_with("classes[1].reservation[1]: unknown resource 'fpu'"));
        let (l, c, _) = at(&block.replace(
            "      - [alu, 0]\n      - [fpu, 1]\n",
            "      [[alu, 0], [fpu, 1]]\n",
        ));
        assert_eq!((l, c), (14, 18));
        let (l, c, _) = at(&block.replace("  - name: b", "  - name: a"));
        assert_eq!((l, c), (10, 5));
        let (l, c, _) = at(&block.replace("    capacity: 2", "    capacity: 0"));
        assert_eq!((l, c), (4, 5));
        let (l, c, msg) = at(&block.replace("issue_width: 2", "issue_width: 0"));
        assert_eq!((l, c), (1, 1));
        assert!(msg.starts_with("issue_width: must be between"), "{msg}");
        let (l, c, msg) = at("issue_width: 2\nresources: []\nclasses: []\n");
        assert_eq!((l, c), (3, 1));
        assert!(msg.starts_with("classes: a machine needs"), "{msg}");
    }
}
