//! Machine models as data (Definition 23.1.1, Definition 23.1.2).
//!
//! A machine file states the issue width, the resources with their
//! capacities, and for each operation class its latency, opcodes and either a
//! `unit` + `occupancy` or a general `reservation` list of `[resource,
//! offset]` pairs. The `issue` pseudo-resource (capacity W) is implicit: every
//! class uses it at offset 0, once per micro-op.
//!
//! A file is parsed into a [`MachineFile`] (serde structs, the one schema)
//! and validated once, in phases, into a [`Machine`]; after that the engine trusts the model and never
//! fails on it.
//!
//! ```
//! let m = course_engine::model::machine::Machine::toy();
//! let div = m.class_by_opcode("div").unwrap();
//! assert_eq!(m.class(div).latency, 6);
//! // RT(div) = {(issue,0), (mul,0), (mul,1), (mul,2), (mul,3)}
//! assert_eq!(m.class(div).reservation.len(), 5);
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::formats::diagnostic::{Diagnostic, Location};
use crate::formats::yaml::{self, LineIndex};
use crate::model::form::{Form, Shape};
use crate::model::ids::{ClassId, ResourceId};

/// The toy machine's file, embedded so the binary works from any folder.
pub const TOY_YAML: &str = include_str!("../../machines/toy.yaml");

/// A resource with a capacity (the number of units of that kind), or a
/// group of such resources (LLVM's ProcResGroup, Definition 23.1.8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The name used in machine files and reports (`alu`, `mem`, `issue`).
    pub name: String,
    /// `cap(r)`: units of this kind (Definition 23.1.1); `W` for `issue`;
    /// for a group, the units of all its members.
    pub capacity: u32,
    /// For a group: its members, unit kinds in machine order (a micro-op
    /// booking the group takes a free unit of any member). Empty for a kind.
    pub members: Vec<ResourceId>,
    /// LLVM's BufferSize: how many dispatched, not yet issued micro-ops may
    /// wait for this resource (a scheduler queue); `None` when it has none.
    pub buffer_size: Option<u32>,
}

impl Resource {
    /// Whether this is a group of other resources (LLVM's ProcResGroup).
    pub fn is_group(&self) -> bool {
        !self.members.is_empty()
    }
}

/// A ReadAdvance entry (Definition 23.1.8, Proposition 23.1.9): the listed
/// register operands read their value `cycles` late, so a producer of one
/// of the listed classes may be that much later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadAdvance {
    /// How many cycles late the operand is read.
    pub cycles: u32,
    /// Operand positions (0-based, in the order written after the opcode);
    /// `None` for every register operand outside an address.
    pub operands: Option<Vec<u32>>,
    /// Producer classes the advance applies to; `None` for every producer.
    pub writes: Option<Vec<ClassId>>,
}

/// An operation class: latency, opcodes and reservation table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// The class name (`alu`, `load`, `div`).
    pub name: String,
    /// Cycles from issue until the result is visible (`lat`, Definition 23.1.1).
    pub latency: u32,
    /// The opcodes of this class, as written in lab inputs.
    pub opcodes: Vec<String>,
    /// RT(o) as `(resource, offset)` pairs, the issue pairs included, in the
    /// order the file gives them. A pair may repeat: it then counts twice.
    pub reservation: Vec<(ResourceId, u32)>,
    /// The same table with repeats folded into a count, sorted: what Fits and
    /// Place iterate over.
    pub folded: Vec<(ResourceId, u32, u32)>,
    /// Micro-ops (LLVM's NumMicroOps); each uses one issue slot.
    pub uops: u32,
    /// ReadAdvance of this class's register operands outside an address,
    /// whatever produced them (Proposition 23.1.9); [`Class::reads`] entries
    /// take precedence.
    pub read_advance: u32,
    /// ReadAdvance per (operand, producer class): the first entry that
    /// matches applies (LLVM's getReadAdvanceCycles).
    pub reads: Vec<ReadAdvance>,
    /// Whether this is the folded-load form of its opcodes: it applies to an
    /// operation that has a memory operand and a destination.
    pub memory: bool,
    /// The operand forms the class models; `None` for any (a file that
    /// states no `forms:`).
    pub forms: Option<Vec<Form>>,
    /// Whether this is the zero-idiom variant of its opcodes (Lesson 23.1
    /// §6, a variant scheduling class): its register operands are not
    /// read, so it depends on nothing.
    pub zero_idiom: bool,
    /// The latency of each register written, in the order the lab line
    /// writes them (`a: q0, q1, x9 = ldp [x8 + 32]`), as LLVM gives each
    /// write of an instruction its own latency; a register past the list
    /// takes [`Class::latency`]. Empty for the usual one-register class.
    pub write_latencies: Vec<u32>,
    /// Whether an operation of the class writes memory even though it
    /// writes registers too (a store whose address writes back its base
    /// register). A memory operation without a destination always writes
    /// memory.
    pub stores: bool,
}

impl Class {
    /// The latency of the `k`-th register an operation writes (0-based):
    /// [`Class::write_latencies`], else [`Class::latency`].
    pub fn write_latency(&self, k: usize) -> u32 {
        self.write_latencies.get(k).copied().unwrap_or(self.latency)
    }

    /// Whether the class models an operation of this shape.
    pub fn accepts(&self, shape: &Shape) -> bool {
        self.forms
            .as_ref()
            .is_none_or(|fs| fs.iter().any(|f| f.accepts(shape)))
    }

    /// The forms as written, `; ` between them (`any` when unrestricted).
    pub fn forms_text(&self) -> String {
        match &self.forms {
            None => "any".into(),
            Some(fs) => fs
                .iter()
                .map(|f| format!("'{f}'"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The ReadAdvance of register operand `operand` (0-based, outside an
    /// address) when the value comes from class `producer`.
    pub fn advance(&self, operand: usize, producer: ClassId) -> u32 {
        for e in &self.reads {
            let op_ok = e
                .operands
                .as_ref()
                .is_none_or(|ops| ops.iter().any(|&o| o as usize == operand));
            let w_ok = e.writes.as_ref().is_none_or(|ws| ws.contains(&producer));
            if op_ok && w_ok {
                return e.cycles;
            }
        }
        self.read_advance
    }

    /// LLVM-style resource uses: each resource of the table (issue left
    /// out) with the number of cycles it is held (its ReleaseAtCycles when
    /// the offsets run from 0), in table order.
    pub fn uses(&self) -> Vec<(ResourceId, u32)> {
        let mut out: Vec<(ResourceId, u32)> = Vec::new();
        for &(r, _) in &self.reservation {
            if r == ISSUE {
                continue;
            }
            match out.iter_mut().find(|(x, _)| *x == r) {
                Some(e) => e.1 += 1,
                None => out.push((r, 1)),
            }
        }
        out
    }

    /// `K_r(o)`: the offsets at which this class uses `r` (with repeats).
    pub fn offsets(&self, r: ResourceId) -> impl Iterator<Item = u32> + '_ {
        self.reservation
            .iter()
            .filter(move |(res, _)| *res == r)
            .map(|&(_, k)| k)
    }

    /// `|{k | (r,k) ∈ RT(o)}|` counted with multiplicity: this class's share
    /// of `U_r` (Definition 23.1.2).
    pub fn usage(&self, r: ResourceId) -> u64 {
        self.offsets(r).count() as u64
    }

    /// The largest offset in the table.
    pub fn max_offset(&self) -> u32 {
        self.reservation.iter().map(|&(_, k)| k).max().unwrap_or(0)
    }
}

/// A validated machine model (Definition 23.1.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    name: String,
    /// W: at most this many micro-ops issue per cycle.
    issue_width: u32,
    /// Resource 0 is `issue` with capacity W.
    resources: Vec<Resource>,
    classes: Vec<Class>,
    /// The top-level numbers: buffers, queues, LoadLatency, retire width.
    top: TopLevel,
    opcode_class: BTreeMap<String, ClassId>,
    /// The folded-load form of a class, by register-form class.
    memory_form: BTreeMap<ClassId, ClassId>,
    /// The zero-idiom variant of a class, by class, with the opcodes it
    /// applies to.
    zero_form: BTreeMap<ClassId, (ClassId, Vec<String>)>,
}

/// The most `(resource, offset)` pairs the reservation tables of one
/// machine hold together, issue slots included.
pub const MAX_PAIRS: usize = 1 << 22;

/// The most micro-ops one class may have.
pub const MAX_UOPS: i64 = 64;

/// The issue slots of `uops` micro-ops on a machine of width `w`: `w` at
/// offset 0, the next `w` at offset 1, and so on (Definition 23.1.8; a
/// class wider than the machine takes its slots over several cycles).
fn issue_pairs(uops: i64, w: i64) -> Vec<(ResourceId, u32)> {
    let w = w.max(1);
    (0..uops.max(0)).map(|k| (ISSUE, (k / w) as u32)).collect()
}

/// The resource id of the issue pseudo-resource.
pub const ISSUE: ResourceId = ResourceId(0);

/// The machine-file format, the one schema of a machine (what
/// [`Machine::from_yaml`] reads, and what code that builds a machine fills
/// in, leaving the rest `Default`): issue width, resources and classes
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
    /// [`Form`]); absent for any form.
    pub forms: Option<Vec<String>>,
    /// `zero_idiom:`, the variant of the class for an operation whose two
    /// register operands are one register (`xorq rax, rax`).
    pub zero_idiom: Option<ZeroIdiomFile>,
    /// `write_latencies:`, the latency of each register written, in the
    /// lab line's order ([`Class::write_latencies`]); default `latency` for
    /// each.
    pub write_latencies: Option<Vec<i64>>,
    /// `stores:`, whether the class writes memory although it writes a
    /// register ([`Class::stores`]); default false.
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
/// [`Machine::from_yaml`] turns it into a [`Diagnostic`] at the field's line
/// and column.
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

impl Machine {
    /// The machine's name (`toy`, the file's `name:`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// W: at most this many micro-ops issue per cycle (Definition 23.1.1).
    pub fn issue_width(&self) -> u32 {
        self.issue_width
    }

    /// Every resource; resource 0 is `issue` with capacity W.
    pub fn resources(&self) -> &[Resource] {
        &self.resources
    }

    /// Every operation class, in file order.
    pub fn classes(&self) -> &[Class] {
        &self.classes
    }

    /// LLVM's MicroOpBufferSize: 0 means in-order issue (Definition 23.1.8).
    pub fn micro_op_buffer_size(&self) -> u32 {
        self.top.micro_op_buffer_size
    }

    /// The same machine with another MicroOpBufferSize (0 = in-order),
    /// capped at the largest size a machine file may state.
    pub fn with_micro_op_buffer_size(mut self, size: u32) -> Machine {
        if self.top.reorder_buffer_size == self.top.micro_op_buffer_size {
            self.top.reorder_buffer_size = size.min(1 << 16);
        }
        self.top.micro_op_buffer_size = size.min(1 << 16);
        self
    }

    /// The same machine under another name.
    pub fn with_name(mut self, name: &str) -> Machine {
        self.name = name.to_string();
        self
    }

    /// The built-in toy machine (lab SPEC §3).
    pub fn toy() -> Machine {
        Machine::from_yaml(TOY_YAML, "toy.yaml").expect("the embedded toy machine is valid")
    }

    /// Parses and validates a machine file; `origin` names it in messages.
    /// A mistake is reported at its line and column, naming the field:
    /// `m.yaml:5:57: classes[0].occupancy: occupancy 4 exceeds latency 3 …`.
    pub fn from_yaml(text: &str, origin: &str) -> Result<Machine, Diagnostic> {
        let doc: MachineFile = yaml::from_str(text, origin)?;
        Machine::from_file(&doc, origin).map_err(|e| {
            Diagnostic::at(
                e.field.locate(text, origin),
                format!("{}: {}", e.field, e.message),
            )
        })
    }

    /// Validates the full file form in the phases of a `MachineBuilder`:
    /// the top-level numbers, the resources and groups, the classes, their
    /// folded-load forms and zero-idiom variants. The first mistake found,
    /// in that order, is the one reported.
    pub fn from_file(file: &MachineFile, origin: &str) -> Result<Machine, MachineError> {
        let mut b = MachineBuilder::new(file, origin);
        b.top_level()?;
        b.resources()?;
        b.class_names()?;
        b.classes()?;
        b.load_forms()?;
        b.zero_idioms()?;
        b.build()
    }

    /// The zero-idiom variant of class `c` for `opcode`, if the machine
    /// declares one (Lesson 23.1 §6).
    pub fn zero_form(&self, c: ClassId, opcode: &str) -> Option<ClassId> {
        self.zero_form
            .get(&c)
            .filter(|(_, ops)| ops.iter().any(|o| o == opcode))
            .map(|&(z, _)| z)
    }

    /// The folded-load form of class `c`, if the machine declares one.
    pub fn memory_form(&self, c: ClassId) -> Option<ClassId> {
        self.memory_form.get(&c).copied()
    }

    /// LLVM's LoadLatency (0 when the file does not give it).
    pub fn load_latency(&self) -> u32 {
        self.top.load_latency
    }

    /// Reorder-buffer entries (micro-ops) of an out-of-order run.
    pub fn reorder_buffer_size(&self) -> u32 {
        self.top.reorder_buffer_size
    }

    /// Instructions retired per cycle at most; 0 for no limit.
    pub fn retire_width(&self) -> u32 {
        self.top.retire_width
    }

    /// Loads in flight (dispatched, not retired) at most; 0 for no limit.
    pub fn load_queue_size(&self) -> u32 {
        self.top.load_queue_size
    }

    /// Stores in flight at most; 0 for no limit.
    pub fn store_queue_size(&self) -> u32 {
        self.top.store_queue_size
    }

    /// The groups that contain resource kind `r` (empty for a group).
    pub fn groups_of(&self, r: ResourceId) -> impl Iterator<Item = ResourceId> + '_ {
        self.resource_ids()
            .filter(move |&g| self.resource(g).members.contains(&r))
    }

    /// The resources a class books as LLVM lists them (its "expanded"
    /// resources, llvm-mca's `[8]` column): each resource of its uses, every
    /// group that contains it, with cycles added where they repeat, in
    /// machine order.
    pub fn expanded_uses(&self, c: ClassId) -> Vec<(ResourceId, u32)> {
        let mut cycles = vec![0u32; self.resources.len()];
        for (r, n) in self.class(c).uses() {
            cycles[r.index()] += n;
            let covered: Vec<ResourceId> = if self.resource(r).is_group() {
                self.resource(r).members.clone()
            } else {
                vec![r]
            };
            for g in self.resource_ids() {
                let res = self.resource(g);
                if g != r && res.is_group() && covered.iter().all(|m| res.members.contains(m)) {
                    cycles[g.index()] += n;
                }
            }
        }
        self.resource_ids()
            .filter(|r| cycles[r.index()] > 0)
            .map(|r| (r, cycles[r.index()]))
            .collect()
    }

    /// The class with this id.
    pub fn class(&self, id: ClassId) -> &Class {
        &self.classes[id.index()]
    }

    /// The resource with this id.
    pub fn resource(&self, id: ResourceId) -> &Resource {
        &self.resources[id.index()]
    }

    /// The class an opcode belongs to, if the machine knows the opcode.
    pub fn class_by_opcode(&self, opcode: &str) -> Option<ClassId> {
        self.opcode_class.get(opcode).copied()
    }

    /// The class with this name, if any.
    pub fn class_by_name(&self, name: &str) -> Option<ClassId> {
        self.classes
            .iter()
            .position(|c| c.name == name)
            .map(ClassId::from_index)
    }

    /// The resource with this name, if any.
    pub fn resource_by_name(&self, name: &str) -> Option<ResourceId> {
        self.resources
            .iter()
            .position(|r| r.name == name)
            .map(ResourceId::from_index)
    }

    /// Every resource id, `issue` first.
    pub fn resource_ids(&self) -> impl Iterator<Item = ResourceId> + use<> {
        (0..self.resources.len()).map(ResourceId::from_index)
    }

    /// Every class id, in file order.
    pub fn class_ids(&self) -> impl Iterator<Item = ClassId> + use<> {
        (0..self.classes.len()).map(ClassId::from_index)
    }

    /// D: the largest offset in any reservation table.
    pub fn max_offset(&self) -> u32 {
        self.classes
            .iter()
            .map(Class::max_offset)
            .max()
            .unwrap_or(0)
    }

    /// The machine with its reservation tables mirrored for a bottom-up
    /// scheduler (Lesson 23.1 §4 and §6): offset `k` on resource `r`
    /// becomes `D_r − k`, where `D_r` is the largest offset any class uses
    /// on `r`. Moving every table on one resource by the same amount keeps
    /// each conflict, so the forward automaton of the mirrored machine,
    /// fed placements from the last cycle to the first, is the reverse
    /// automaton of Proebsting and Fraser (PF94). Latencies and everything
    /// else stay as they are.
    ///
    /// ```
    /// let m = course_engine::model::machine::Machine::toy().mirrored();
    /// let mul = m.resource_by_name("mul").unwrap();
    /// let k = |op: &str| m.class(m.class_by_opcode(op).unwrap()).offsets(mul).collect::<Vec<_>>();
    /// assert_eq!((k("mul"), k("div")), (vec![3], vec![3, 2, 1, 0]));
    /// ```
    pub fn mirrored(&self) -> Machine {
        let mut d = vec![0u32; self.resources.len()];
        for c in &self.classes {
            for &(r, k) in &c.reservation {
                d[r.index()] = d[r.index()].max(k);
            }
        }
        let mut m = self.clone();
        for c in &mut m.classes {
            for p in &mut c.reservation {
                p.1 = d[p.0.index()] - p.1;
            }
            for f in &mut c.folded {
                f.1 = d[f.0.index()] - f.1;
            }
            c.folded.sort_unstable();
        }
        m
    }

    /// All opcodes the machine knows, sorted.
    pub fn opcodes(&self) -> impl Iterator<Item = &str> {
        self.opcode_class.keys().map(String::as_str)
    }

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

impl fmt::Display for Machine {
    /// The model as a table: resources, then each class's reservation table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "machine {}: issue width {}, micro-op buffer {}",
            self.name,
            self.issue_width,
            if self.top.micro_op_buffer_size == 0 {
                "0 (in-order)".to_string()
            } else {
                self.top.micro_op_buffer_size.to_string()
            }
        )?;
        write!(f, "resources:")?;
        for r in &self.resources {
            if r.is_group() {
                let names: Vec<&str> = r
                    .members
                    .iter()
                    .map(|&m| self.resource(m).name.as_str())
                    .collect();
                write!(f, " {} ({}: {})", r.name, r.capacity, names.join("+"))?;
            } else {
                write!(f, " {} ({})", r.name, r.capacity)?;
            }
        }
        writeln!(f)?;
        Ok(())
    }
}

/// The largest value most numbers of a machine file may take.
const LIMIT: i64 = 1 << 16;

/// The top-level numbers of a machine file, checked (Definition 23.1.8).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct TopLevel {
    /// LLVM's MicroOpBufferSize: 0 means in-order issue.
    micro_op_buffer_size: u32,
    /// LLVM's LoadLatency (Definition 23.1.8): the default latency of a
    /// class's folded load part.
    load_latency: u32,
    /// Reorder-buffer entries (LLVM's RetireControlUnit); defaults to the
    /// micro-op buffer size.
    reorder_buffer_size: u32,
    /// Instructions retired per cycle at most; 0 for no limit.
    retire_width: u32,
    /// Loads in flight at most (LLVM's LoadQueue); 0 for no limit.
    load_queue_size: u32,
    /// Stores in flight at most (LLVM's StoreQueue); 0 for no limit.
    store_queue_size: u32,
}

/// A [`MachineFile`] being validated into a [`Machine`], one phase at a time
/// ([`Machine::from_file`]); each phase trusts what the earlier ones checked.
struct MachineBuilder<'a> {
    file: &'a MachineFile,
    origin: &'a str,
    top: TopLevel,
    /// Resource 0 is `issue`, then the file's in order.
    resources: Vec<Resource>,
    by_name: BTreeMap<String, ResourceId>,
    /// The declared classes' names, with their index in the file.
    class_names: BTreeMap<&'a str, usize>,
    classes: Vec<Class>,
    opcode_class: BTreeMap<String, ClassId>,
    memory_form: BTreeMap<ClassId, ClassId>,
    zero_form: BTreeMap<ClassId, (ClassId, Vec<String>)>,
    /// The pairs the reservation tables may still hold, counted before each
    /// table is built: a few numbers in a file (occupancy, uses cycles,
    /// uops) stand for many.
    room: usize,
}

impl<'a> MachineBuilder<'a> {
    /// A builder with nothing checked yet.
    fn new(file: &'a MachineFile, origin: &'a str) -> Self {
        MachineBuilder {
            file,
            origin,
            top: TopLevel::default(),
            resources: Vec::new(),
            by_name: BTreeMap::new(),
            class_names: BTreeMap::new(),
            classes: Vec::new(),
            opcode_class: BTreeMap::new(),
            memory_form: BTreeMap::new(),
            zero_form: BTreeMap::new(),
            room: MAX_PAIRS,
        }
    }

    /// The mistake `message` in `field`.
    fn bad(&self, field: Field, message: String) -> MachineError {
        MachineError {
            origin: self.origin.to_string(),
            field,
            message,
        }
    }

    /// The top-level fields: W, the buffer and queue sizes, LoadLatency,
    /// the retire width, and how many resources and classes there are.
    fn top_level(&mut self) -> Result<(), MachineError> {
        let file = self.file;
        if file.issue_width < 1 || file.issue_width > LIMIT {
            return Err(self.bad(
                Field::Top("issue_width"),
                format!("must be between 1 and {LIMIT}, got {}", file.issue_width),
            ));
        }
        let buffer = self.top_number("micro_op_buffer_size", file.micro_op_buffer_size, 0)?;
        let load_latency = self.top_number("load_latency", file.load_latency, 0)?;
        let retire_width = self.top_number("retire_width", file.retire_width, 0)?;
        let load_queue_size = self.top_number("load_queue_size", file.load_queue_size, 0)?;
        let store_queue_size = self.top_number("store_queue_size", file.store_queue_size, 0)?;
        let reorder_buffer_size = match file.reorder_buffer_size {
            None => buffer,
            Some(_) => self.top_number("reorder_buffer_size", file.reorder_buffer_size, 1)?,
        };
        if file.resources.len() > 1024 {
            return Err(self.bad(
                Field::Top("resources"),
                format!("at most 1024 resources, got {}", file.resources.len()),
            ));
        }
        if file.classes.len() > 4096 {
            return Err(self.bad(
                Field::Top("classes"),
                format!("at most 4096 classes, got {}", file.classes.len()),
            ));
        }
        self.top = TopLevel {
            micro_op_buffer_size: buffer,
            load_latency,
            reorder_buffer_size,
            retire_width,
            load_queue_size,
            store_queue_size,
        };
        Ok(())
    }

    /// An optional top-level number: 0 when absent, else 0 or between `lo`
    /// and [`LIMIT`].
    fn top_number(&self, key: &'static str, v: Option<i64>, lo: i64) -> Result<u32, MachineError> {
        let v = v.unwrap_or(0);
        if (lo..=LIMIT).contains(&v) || v == 0 {
            Ok(v as u32)
        } else {
            Err(self.bad(
                Field::Top(key),
                format!("must be between {lo} and {LIMIT}, got {v}"),
            ))
        }
    }

    /// The resources: `issue` with capacity W, then the file's kinds and
    /// groups in order (Definitions 23.1.1 and 23.1.8).
    fn resources(&mut self) -> Result<(), MachineError> {
        self.resources.push(Resource {
            name: "issue".into(),
            capacity: self.file.issue_width as u32,
            members: Vec::new(),
            buffer_size: None,
        });
        self.by_name.insert("issue".into(), ISSUE);
        let file = self.file;
        for (i, r) in file.resources.iter().enumerate() {
            self.resource(i, r)?;
        }
        if self.resources.iter().any(Resource::is_group)
            && self
                .resources
                .iter()
                .skip(1)
                .filter(|r| !r.is_group())
                .count()
                > 64
        {
            return Err(self.bad(
                Field::Top("resources"),
                "a machine with groups has at most 64 resource kinds".into(),
            ));
        }
        Ok(())
    }

    /// Resource `i`: a fresh name, its scheduler buffer, its capacity.
    fn resource(&mut self, i: usize, r: &ResourceFile) -> Result<(), MachineError> {
        if !is_ident(&r.name) {
            return Err(self.bad(
                Field::Resource(i, "name"),
                format!("'{}' is not a name (letters, digits, '_', '-')", r.name),
            ));
        }
        if self.by_name.contains_key(&r.name) {
            return Err(self.bad(
                Field::Resource(i, "name"),
                format!("duplicate resource name '{}'", r.name),
            ));
        }
        let buffer_size = match r.buffer_size {
            None => None,
            Some(b) if (1..=LIMIT).contains(&b) => Some(b as u32),
            Some(b) => {
                return Err(self.bad(
                    Field::Resource(i, "buffer_size"),
                    format!("buffer_size must be between 1 and {LIMIT}, got {b}"),
                ));
            }
        };
        let (capacity, members) = self.capacity(i, r)?;
        let id = ResourceId::from_index(self.resources.len());
        self.by_name.insert(r.name.clone(), id);
        self.resources.push(Resource {
            name: r.name.clone(),
            capacity,
            members,
            buffer_size,
        });
        Ok(())
    }

    /// The capacity of resource `i` and its members: given for a kind, the
    /// members' units for a group.
    fn capacity(&self, i: usize, r: &ResourceFile) -> Result<(u32, Vec<ResourceId>), MachineError> {
        match (&r.group, r.capacity) {
            (Some(_), Some(_)) => Err(self.bad(
                Field::Resource(i, "capacity"),
                format!(
                    "'{}' is a group: its capacity is its members' units, not given",
                    r.name
                ),
            )),
            (None, None) => Err(self.bad(
                Field::Resource(i, "name"),
                format!("resource '{}' needs a capacity (or a group:)", r.name),
            )),
            (None, Some(cap)) if !(1..=LIMIT).contains(&cap) => Err(self.bad(
                Field::Resource(i, "capacity"),
                format!(
                    "capacity of '{}' must be between 1 and {LIMIT}, got {cap}",
                    r.name
                ),
            )),
            (None, Some(cap)) => Ok((cap as u32, Vec::new())),
            (Some(list), None) => self.group(i, list),
        }
    }

    /// The units and the members (sorted, each once) of group `i`, a
    /// ProcResGroup of kinds declared before it (Definition 23.1.8).
    fn group(&self, i: usize, list: &[String]) -> Result<(u32, Vec<ResourceId>), MachineError> {
        let mut members: Vec<ResourceId> = Vec::new();
        let mut cap = 0u32;
        for m in list {
            let Some(&id) = self.by_name.get(m) else {
                return Err(self.bad(
                    Field::Resource(i, "group"),
                    format!("unknown resource '{m}' (declare members before the group)"),
                ));
            };
            let res: &Resource = &self.resources[id.index()];
            if id == ISSUE || res.is_group() {
                return Err(self.bad(
                    Field::Resource(i, "group"),
                    format!("'{m}' cannot be a member: a group holds resource kinds, not 'issue' or another group"),
                ));
            }
            // A member listed twice counts its units twice, as LLVM counts a
            // ProcResGroup's units.
            cap += res.capacity;
            if !members.contains(&id) {
                members.push(id);
            }
        }
        if members.is_empty() {
            return Err(self.bad(
                Field::Resource(i, "group"),
                "a group needs at least one member".into(),
            ));
        }
        members.sort();
        Ok((cap, members))
    }

    /// The class names: at least one class, no name twice.
    fn class_names(&mut self) -> Result<(), MachineError> {
        let file = self.file;
        if file.classes.is_empty() {
            return Err(self.bad(
                Field::Top("classes"),
                "a machine needs at least one class".into(),
            ));
        }
        for (i, c) in file.classes.iter().enumerate() {
            if self.class_names.insert(&c.name, i).is_some() {
                return Err(self.bad(
                    Field::Class(i, "name"),
                    format!("duplicate class name '{}'", c.name),
                ));
            }
        }
        Ok(())
    }

    /// The declared classes, in file order.
    fn classes(&mut self) -> Result<(), MachineError> {
        let file = self.file;
        for (i, c) in file.classes.iter().enumerate() {
            let class = self.class(i, c)?;
            self.classes.push(class);
        }
        Ok(())
    }

    /// Class `i`: its name and latency, micro-ops, write latencies,
    /// ReadAdvance, reservation table (Definition 23.1.2), opcodes and forms.
    fn class(&mut self, i: usize, c: &ClassFile) -> Result<Class, MachineError> {
        let at = |f: &'static str| Field::Class(i, f);
        if !is_ident(&c.name) {
            return Err(self.bad(at("name"), format!("'{}' is not a name", c.name)));
        }
        if c.latency < 0 || c.latency > LIMIT {
            return Err(self.bad(
                at("latency"),
                format!("latency must be between 0 and {LIMIT}, got {}", c.latency),
            ));
        }
        let uops = c.uops.unwrap_or(1);
        if uops < 1 {
            return Err(self.bad(at("uops"), format!("uops must be at least 1, got {uops}")));
        }
        if uops > MAX_UOPS {
            return Err(self.bad(
                at("uops"),
                format!("uops must be at most {MAX_UOPS}, got {uops}"),
            ));
        }
        let write_latencies = self.write_latencies(i, c)?;
        let (read_advance, reads) = self.read_advance(i, c)?;
        let reservation = self.reservation(i, c, uops)?;
        let folded =
            fold(&self.resources, &reservation).map_err(|m| self.bad(at("reservation"), m))?;
        self.opcodes(i, c)?;
        let forms = parse_forms(c.forms.as_deref()).map_err(|m| self.bad(at("forms"), m))?;
        let stores = c.stores.unwrap_or(false);
        if stores
            && forms
                .as_ref()
                .is_some_and(|fs| !fs.iter().all(Form::has_memory))
        {
            return Err(self.bad(
                at("stores"),
                "a class that stores needs a memory operand in each of its forms".into(),
            ));
        }
        Ok(Class {
            name: c.name.clone(),
            latency: c.latency as u32,
            opcodes: c.opcodes.clone(),
            reservation,
            folded,
            uops: uops as u32,
            read_advance,
            reads,
            memory: false,
            forms,
            zero_idiom: false,
            write_latencies,
            stores,
        })
    }

    /// The `write_latencies:` of class `i`: at most one per register an
    /// operation writes, each at most the class's latency.
    fn write_latencies(&self, i: usize, c: &ClassFile) -> Result<Vec<u32>, MachineError> {
        let Some(list) = &c.write_latencies else {
            return Ok(Vec::new());
        };
        let at = Field::Class(i, "write_latencies");
        if list.len() > crate::model::form::MAX_DESTS {
            return Err(self.bad(
                at,
                format!(
                    "{} latencies, but an operation writes at most {} registers",
                    list.len(),
                    crate::model::form::MAX_DESTS
                ),
            ));
        }
        list.iter()
            .map(|&l| {
                if (0..=c.latency).contains(&l) {
                    Ok(l as u32)
                } else {
                    Err(self.bad(
                        at,
                        format!(
                            "each must be between 0 and the class's latency {}, got {l}",
                            c.latency
                        ),
                    ))
                }
            })
            .collect()
    }

    /// The `read_advance:` of class `i` (Proposition 23.1.9): one number
    /// for every operand, or entries per operand and producer class.
    fn read_advance(
        &self,
        i: usize,
        c: &ClassFile,
    ) -> Result<(u32, Vec<ReadAdvance>), MachineError> {
        match &c.read_advance {
            None => Ok((0, Vec::new())),
            Some(ReadAdvanceFile::All(a)) if !(0..=LIMIT).contains(a) => Err(self.bad(
                Field::Class(i, "read_advance"),
                format!("read_advance must be between 0 and {LIMIT}, got {a}"),
            )),
            Some(ReadAdvanceFile::All(a)) => Ok((*a as u32, Vec::new())),
            Some(ReadAdvanceFile::List(list)) => {
                let reads = list
                    .iter()
                    .map(|e| self.read_advance_entry(i, e))
                    .collect::<Result<_, _>>()?;
                Ok((0, reads))
            }
        }
    }

    /// One entry of a `read_advance:` list of class `i`: its cycles, its
    /// operand positions and its producer classes.
    fn read_advance_entry(
        &self,
        i: usize,
        e: &ReadAdvanceEntryFile,
    ) -> Result<ReadAdvance, MachineError> {
        let at = Field::Class(i, "read_advance");
        if !(0..=LIMIT).contains(&e.cycles) {
            return Err(self.bad(
                at,
                format!("cycles must be between 0 and {LIMIT}, got {}", e.cycles),
            ));
        }
        let operand = |&o: &i64| {
            if (0..64).contains(&o) {
                Ok(o as u32)
            } else {
                Err(self.bad(
                    at,
                    format!("an operand position is between 0 and 63, got {o}"),
                ))
            }
        };
        let writer = |w: &String| match self.class_names.get(w.as_str()) {
            Some(&k) => Ok(ClassId::from_index(k)),
            None => Err(self.bad(at, format!("unknown class '{w}' in writes"))),
        };
        let operands = e
            .operands
            .as_ref()
            .map(|ops| ops.iter().map(operand).collect());
        let operands = operands.transpose()?;
        let writes = e.writes.as_ref().map(|ws| ws.iter().map(writer).collect());
        Ok(ReadAdvance {
            cycles: e.cycles as u32,
            operands,
            writes: writes.transpose()?,
        })
    }

    /// RT(o) of class `i` (Definition 23.1.2): its `uops` issue slots, then
    /// the pairs of one of `unit` + `occupancy`, `reservation` or `uses`.
    fn reservation(
        &mut self,
        i: usize,
        c: &ClassFile,
        uops: i64,
    ) -> Result<Vec<(ResourceId, u32)>, MachineError> {
        let at = |f: &'static str| Field::Class(i, f);
        // Each micro-op takes an issue slot: W at offset 0, the next W at
        // offset 1, and so on (llvm-mca dispatches a wider instruction alone
        // and carries its extra micro-ops into the next cycles' width).
        let mut reservation = issue_pairs(uops, self.file.issue_width);
        let given = [c.unit.is_some(), c.reservation.is_some(), c.uses.is_some()]
            .iter()
            .filter(|&&b| b)
            .count();
        if given > 1 {
            return Err(self.bad(
                at(if c.uses.is_some() {
                    "uses"
                } else {
                    "reservation"
                }),
                "give one of unit + occupancy, a reservation list or uses".into(),
            ));
        }
        let (field, pairs) = match (&c.unit, &c.reservation, &c.uses) {
            (Some(_), _, _) => (
                "occupancy",
                c.occupancy.unwrap_or(1).clamp(0, LIMIT) as usize,
            ),
            (None, Some(list), _) => ("reservation", list.len()),
            (None, None, Some(list)) => ("uses", uses_cycles(list)),
            (None, None, None) => ("uops", 0),
        };
        self.reserve(at(field), uops as usize + pairs)?;
        match (&c.unit, c.occupancy, &c.reservation, &c.uses) {
            (None, Some(_), _, _) => {
                return Err(self.bad(at("occupancy"), "occupancy needs a unit".into()));
            }
            (Some(unit), occ, _, _) => reservation.extend(self.unit_pairs(i, c, unit, occ)?),
            (None, None, Some(list), _) => reservation.extend(self.listed_pairs(i, list)?),
            (None, None, None, Some(list)) => {
                reservation.extend(self.uses_pairs(i, "uses", list)?);
            }
            (None, None, None, None) => {}
        }
        Ok(reservation)
    }

    /// The pairs of `unit:` + `occupancy:` of class `i`: the unit at
    /// offsets `0..occ(o)`, with `1 ≤ occ(o) ≤ lat(o)` (Definition 23.1.2).
    fn unit_pairs(
        &self,
        i: usize,
        c: &ClassFile,
        unit: &str,
        occ: Option<i64>,
    ) -> Result<Vec<(ResourceId, u32)>, MachineError> {
        let at = |f: &'static str| Field::Class(i, f);
        let Some(&rid) = self.by_name.get(unit) else {
            return Err(self.bad(at("unit"), format!("unknown resource '{unit}'")));
        };
        if rid == ISSUE {
            return Err(self.bad(at("unit"), "'issue' is implicit; name a unit".into()));
        }
        let occ = occ.unwrap_or(1);
        if occ < 1 {
            return Err(self.bad(
                at("occupancy"),
                format!("occupancy must be at least 1, got {occ}"),
            ));
        }
        if occ > c.latency.max(1) {
            return Err(self.bad(
                at("occupancy"),
                format!(
                    "occupancy {occ} exceeds latency {} (Definition 23.1.2 needs occ ≤ lat)",
                    c.latency
                ),
            ));
        }
        Ok((0..occ as u32).map(|k| (rid, k)).collect())
    }

    /// The pairs of a `reservation:` list of class `i`, as written.
    fn listed_pairs(
        &self,
        i: usize,
        list: &[(String, i64)],
    ) -> Result<Vec<(ResourceId, u32)>, MachineError> {
        let pair = |(j, (res, off)): (usize, &(String, i64))| {
            let Some(&rid) = self.by_name.get(res) else {
                return Err(self.bad(
                    Field::Reservation(i, j),
                    format!("unknown resource '{res}'"),
                ));
            };
            if *off < 0 || *off > 4096 {
                return Err(self.bad(
                    Field::Reservation(i, j),
                    format!("offset must be between 0 and 4096, got {off}"),
                ));
            }
            Ok((rid, *off as u32))
        };
        list.iter().enumerate().map(pair).collect()
    }

    /// The pairs of a `uses:` list of class `i` (in `field`): each resource
    /// from offset 0 for its ReleaseAtCycles.
    fn uses_pairs(
        &self,
        i: usize,
        field: &'static str,
        list: &[(String, i64)],
    ) -> Result<Vec<(ResourceId, u32)>, MachineError> {
        let mut out = Vec::new();
        for (res, cycles) in list {
            let Some(&rid) = self.by_name.get(res) else {
                return Err(self.bad(Field::Class(i, field), format!("unknown resource '{res}'")));
            };
            if rid == ISSUE {
                return Err(self.bad(
                    Field::Class(i, field),
                    "'issue' is implicit; name a unit".into(),
                ));
            }
            if !(1..=4096).contains(cycles) {
                return Err(self.bad(
                    Field::Class(i, field),
                    format!("cycles of '{res}' must be between 1 and 4096, got {cycles}"),
                ));
            }
            out.extend((0..*cycles as u32).map(|k| (rid, k)));
        }
        Ok(out)
    }

    /// Takes room for `pairs` more pairs, or refuses the table in `field`
    /// when the machine would hold more than [`MAX_PAIRS`].
    fn reserve(&mut self, field: Field, pairs: usize) -> Result<(), MachineError> {
        if pairs > self.room {
            return Err(self.bad(
                field,
                format!("the reservation tables hold more than {MAX_PAIRS} pairs in all"),
            ));
        }
        self.room -= pairs;
        Ok(())
    }

    /// The opcodes of class `i`: names, each in no other class.
    fn opcodes(&mut self, i: usize, c: &ClassFile) -> Result<(), MachineError> {
        let at = Field::Class(i, "opcodes");
        for op in &c.opcodes {
            if !is_ident(op) {
                return Err(self.bad(at, format!("'{op}' is not an opcode name")));
            }
            if let Some(prev) = self.opcode_class.insert(op.clone(), ClassId::from_index(i)) {
                return Err(self.bad(
                    at,
                    format!(
                        "opcode '{op}' is already in class '{}'",
                        self.file.classes[prev.index()].name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The folded-load forms (Definition 23.1.8), after every declared
    /// class, in file order.
    fn load_forms(&mut self) -> Result<(), MachineError> {
        let file = self.file;
        for (i, c) in file.classes.iter().enumerate() {
            let Some(load) = &c.load else { continue };
            let class = self.load_form(i, c, load)?;
            let id = ClassId::from_index(self.classes.len());
            self.memory_form.insert(ClassId::from_index(i), id);
            self.classes.push(class);
        }
        Ok(())
    }

    /// The folded-load form of class `i`: the load's latency, micro-ops and
    /// uses added to the class's, its registers read ReadAdvance late.
    fn load_form(
        &mut self,
        i: usize,
        c: &ClassFile,
        load: &LoadFile,
    ) -> Result<Class, MachineError> {
        let at = Field::Class(i, "load");
        let name = load
            .name
            .clone()
            .unwrap_or_else(|| format!("{}-mem", c.name));
        if !is_ident(&name) || self.class_names.contains_key(name.as_str()) {
            return Err(self.bad(
                at,
                format!("'{name}' is not a fresh class name for the folded form"),
            ));
        }
        let ll = load.latency.unwrap_or(i64::from(self.top.load_latency));
        if !(0..=LIMIT).contains(&ll) {
            return Err(self.bad(
                at,
                format!("the load latency must be between 0 and {LIMIT}, got {ll}"),
            ));
        }
        let extra = load.uops.unwrap_or(1);
        if !(0..=64).contains(&extra) {
            return Err(self.bad(
                at,
                format!("the load's uops must be between 0 and 64, got {extra}"),
            ));
        }
        let uops = self.classes[i].uops + extra as u32;
        let kept = self.classes[i]
            .reservation
            .iter()
            .filter(|(r, _)| *r != ISSUE)
            .count();
        self.reserve(at, uops as usize + uses_cycles(&load.uses) + kept)?;
        let base = &self.classes[i];
        let mut reservation = issue_pairs(i64::from(uops), self.file.issue_width);
        reservation.extend(self.uses_pairs(i, "load", &load.uses)?);
        reservation.extend(
            base.reservation
                .iter()
                .copied()
                .filter(|(r, _)| *r != ISSUE),
        );
        let folded = fold(&self.resources, &reservation).map_err(|m| self.bad(at, m))?;
        let forms = self.folded_forms(i, load, base)?;
        Ok(Class {
            name,
            latency: base.latency + ll as u32,
            opcodes: base.opcodes.clone(),
            reservation,
            folded,
            uops,
            read_advance: ll as u32,
            reads: Vec::new(),
            memory: true,
            forms,
            zero_idiom: false,
            write_latencies: Vec::new(),
            stores: false,
        })
    }

    /// The forms of the folded-load form of class `i`: `load.forms`, else
    /// each form of `base` with its first register operand made the memory
    /// operand; each needs a destination and a memory operand.
    fn folded_forms(
        &self,
        i: usize,
        load: &LoadFile,
        base: &Class,
    ) -> Result<Option<Vec<Form>>, MachineError> {
        let at = Field::Class(i, "load");
        let forms = match &load.forms {
            Some(_) => parse_forms(load.forms.as_deref()).map_err(|m| self.bad(at, m))?,
            None => base
                .forms
                .as_ref()
                .map(|fs| fs.iter().filter_map(Form::folded).collect()),
        };
        if let Some(fs) = &forms
            && let Some(f) = fs.iter().find(|f| f.dests != 1 || !f.has_memory())
        {
            return Err(self.bad(
                at,
                format!("the folded form '{f}' needs a destination and a memory operand"),
            ));
        }
        Ok(forms)
    }

    /// The zero-idiom variants (Lesson 23.1 §6), after the folded forms, in
    /// file order.
    fn zero_idioms(&mut self) -> Result<(), MachineError> {
        let file = self.file;
        for (i, c) in file.classes.iter().enumerate() {
            let Some(z) = &c.zero_idiom else { continue };
            let class = self.zero_idiom(i, c, z)?;
            let id = ClassId::from_index(self.classes.len());
            self.zero_form
                .insert(ClassId::from_index(i), (id, class.opcodes.clone()));
            self.classes.push(class);
        }
        Ok(())
    }

    /// The zero-idiom variant of class `i`: a fresh name, some of the
    /// class's opcodes, its own latency, micro-ops and uses.
    fn zero_idiom(
        &mut self,
        i: usize,
        c: &ClassFile,
        z: &ZeroIdiomFile,
    ) -> Result<Class, MachineError> {
        let at = Field::Class(i, "zero_idiom");
        let name = z.name.clone().unwrap_or_else(|| format!("{}-zero", c.name));
        let taken = self.classes.iter().any(|k| k.name == name);
        if !is_ident(&name) || taken {
            return Err(self.bad(
                at,
                format!("'{name}' is not a fresh class name for the zero idiom"),
            ));
        }
        let opcodes = z.opcodes.clone().unwrap_or_else(|| c.opcodes.clone());
        if let Some(op) = opcodes.iter().find(|o| !c.opcodes.contains(o)) {
            return Err(self.bad(at, format!("'{op}' is not an opcode of class '{}'", c.name)));
        }
        let latency = z.latency.unwrap_or(0);
        if !(0..=LIMIT).contains(&latency) {
            return Err(self.bad(
                at,
                format!("latency must be between 0 and {LIMIT}, got {latency}"),
            ));
        }
        let uops = z.uops.unwrap_or(1);
        if !(1..=MAX_UOPS).contains(&uops) {
            return Err(self.bad(
                at,
                format!("uops must be between 1 and {MAX_UOPS}, got {uops}"),
            ));
        }
        self.reserve(at, uops as usize + uses_cycles(&z.uses))?;
        let mut reservation = issue_pairs(uops, self.file.issue_width);
        reservation.extend(self.uses_pairs(i, "zero_idiom", &z.uses)?);
        let folded = fold(&self.resources, &reservation).map_err(|m| self.bad(at, m))?;
        Ok(Class {
            name,
            latency: latency as u32,
            opcodes,
            reservation,
            folded,
            uops: uops as u32,
            read_advance: 0,
            reads: Vec::new(),
            memory: false,
            forms: self.classes[i].forms.clone(),
            zero_idiom: true,
            write_latencies: Vec::new(),
            stores: false,
        })
    }

    /// The machine, once its classes (derived ones included) are at most 4096.
    fn build(self) -> Result<Machine, MachineError> {
        if self.classes.len() > 4096 {
            return Err(self.bad(
                Field::Top("classes"),
                format!("at most 4096 classes, got {}", self.classes.len()),
            ));
        }
        Ok(Machine {
            name: self.file.name.clone().unwrap_or_else(|| "machine".into()),
            issue_width: self.file.issue_width as u32,
            resources: self.resources,
            classes: self.classes,
            top: self.top,
            opcode_class: self.opcode_class,
            memory_form: self.memory_form,
            zero_form: self.zero_form,
        })
    }
}

/// The cycles a `uses:` list holds its resources, as the bound on pairs
/// counts them (each clamped to 0..=4096).
fn uses_cycles(list: &[(String, i64)]) -> usize {
    list.iter().map(|&(_, c)| c.clamp(0, 4096) as usize).sum()
}

/// The counting table Fits and Place use (Algorithm 23.1.4): the pairs of
/// `reservation` with repeats counted, and each pair on a resource kind also
/// counted against every group that contains the kind (a unit taken
/// directly is one fewer for the group). Refuses a table that overflows a
/// resource by itself.
fn fold(
    resources: &[Resource],
    reservation: &[(ResourceId, u32)],
) -> Result<Vec<(ResourceId, u32, u32)>, String> {
    // Repeats are counted first, so the groups are walked once per distinct
    // pair rather than once per micro-op or cycle of occupancy.
    let mut direct: BTreeMap<(ResourceId, u32), u32> = BTreeMap::new();
    for &(r, k) in reservation {
        *direct.entry((r, k)).or_default() += 1;
    }
    let groups: Vec<(ResourceId, &Resource)> = resources
        .iter()
        .enumerate()
        .filter(|(_, res)| res.is_group())
        .map(|(g, res)| (ResourceId::from_index(g), res))
        .collect();
    let mut folded = direct.clone();
    for (&(r, k), &n) in &direct {
        let covered: &[ResourceId] = if resources[r.index()].is_group() {
            &resources[r.index()].members
        } else {
            std::slice::from_ref(&r)
        };
        for &(g, res) in &groups {
            if g != r && covered.iter().all(|m| res.members.contains(m)) {
                *folded.entry((g, k)).or_default() += n;
            }
        }
    }
    for (&(r, k), &n) in &folded {
        let cap = resources[r.index()].capacity;
        if n > cap {
            return Err(format!(
                "uses '{}' {n} times at offset {k}, more than its capacity {cap}: it could never issue",
                resources[r.index()].name
            ));
        }
    }
    Ok(folded.into_iter().map(|((r, k), n)| (r, k, n)).collect())
}

/// A class's `forms:` list, each read as a [`Form`].
fn parse_forms(list: Option<&[String]>) -> Result<Option<Vec<Form>>, String> {
    let Some(list) = list else { return Ok(None) };
    if list.is_empty() {
        return Err("a class needs at least one form (leave forms out for any)".into());
    }
    list.iter()
        .map(|f| f.parse::<Form>())
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toy_machine_matches_def_23_1_2() {
        let m = Machine::toy();
        assert_eq!(m.issue_width, 2);
        let cap = |n: &str| m.resource(m.resource_by_name(n).unwrap()).capacity;
        assert_eq!(
            (cap("issue"), cap("alu"), cap("mem"), cap("mul")),
            (2, 2, 1, 1)
        );
        let div = m.class(m.class_by_opcode("div").unwrap());
        let mul = m.resource_by_name("mul").unwrap();
        assert_eq!(div.offsets(mul).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert_eq!(div.usage(ISSUE), 1);
        for op in [
            "add", "sub", "li", "and", "or", "xor", "shl", "shr", "mov", "cmp",
        ] {
            assert_eq!(m.class(m.class_by_opcode(op).unwrap()).name, "alu");
        }
        assert_eq!(m.class(m.class_by_opcode("load").unwrap()).latency, 3);
        assert_eq!(m.max_offset(), 3);
    }

    fn reject(yaml: &str) -> String {
        Machine::from_yaml(yaml, "m.yaml").unwrap_err().to_string()
    }

    #[test]
    fn invalid_machines_name_the_field() {
        let base = |extra: &str| {
            format!(
                "issue_width: 2\nresources:\n  - {{ name: alu, capacity: 2 }}\nclasses:\n{extra}"
            )
        };
        // (classes, the field the message names, what it says of it)
        let cases = [
            (
                "  - { name: a, latency: 1, opcodes: [add], unit: alu, occupancy: 2 }\n",
                "classes[0].occupancy",
                "exceeds latency",
            ),
            (
                "  - { name: a, latency: 1, opcodes: [add], unit: fpu }\n",
                "classes[0].unit",
                "unknown resource 'fpu'",
            ),
            (
                "  - { name: a, latency: 1, opcodes: [add], reservation: [[alu, -1]] }\n",
                "classes[0].reservation[0]",
                "offset",
            ),
            (
                "  - { name: a, latency: 1, opcodes: [add], unit: alu }\n  - { name: a, latency: 1, opcodes: [sub], unit: alu }\n",
                "classes[1].name",
                "duplicate",
            ),
        ];
        for (classes, field, says) in cases {
            let e = reject(&base(classes));
            assert!(e.contains(field) && e.contains(says), "{e}");
        }
        let e = reject(
            "issue_width: 2\nresources:\n  - { name: alu, capacity: 0 }\nclasses:\n  - { name: a, latency: 1, opcodes: [add], unit: alu }\n",
        );
        assert!(e.contains("resources[0].capacity"), "{e}");
        let e = reject("issue_width: 2\nresources: [\n");
        assert!(e.starts_with("m.yaml:"), "{e}");
        let e = reject("issue_width: 2\nresourcez: []\nclasses: []\n");
        assert!(e.contains("resourcez"), "{e}");
    }

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

    #[test]
    fn llvm_style_fields_are_validated_where_they_are_written() {
        let base = "issue_width: 4\nmicro_op_buffer_size: 8\nresources:\n  - { name: p0, capacity: 1 }\n  - { name: p1, capacity: 1 }\n";
        let at = |extra: &str| {
            let d = Machine::from_yaml(&format!("{base}{extra}"), "m.yaml").unwrap_err();
            (d.line, d.column, d.message)
        };
        let (l, _, msg) = at(
            "  - { name: p01, group: [p0, p9] }\nclasses:\n  - { name: a, latency: 1, opcodes: [a] }\n",
        );
        assert_eq!(l, 6);
        assert!(
            msg.starts_with("resources[2].group: unknown resource 'p9'"),
            "{msg}"
        );
        let (l, _, msg) = at(
            "  - { name: p01, group: [p0, p1], capacity: 2 }\nclasses:\n  - { name: a, latency: 1, opcodes: [a] }\n",
        );
        assert_eq!(l, 6);
        assert!(msg.contains("is a group"), "{msg}");
        let (l, _, msg) =
            at("classes:\n  - { name: a, latency: 1, opcodes: [a], uses: [[p2, 1]] }\n");
        assert_eq!(l, 7);
        assert!(
            msg.starts_with("classes[0].uses: unknown resource 'p2'"),
            "{msg}"
        );
        let (_, _, msg) =
            at("classes:\n  - { name: a, latency: 1, opcodes: [a], uses: [[p0, 1]], unit: p1 }\n");
        assert!(msg.contains("give one of"), "{msg}");
        let (_, _, msg) = at(
            "classes:\n  - { name: a, latency: 1, opcodes: [a], read_advance: [{ cycles: 1, writes: [b] }] }\n",
        );
        assert!(
            msg.starts_with("classes[0].read_advance: unknown class 'b'"),
            "{msg}"
        );
        let (_, _, msg) = at(
            "classes:\n  - { name: a, latency: 1, opcodes: [a], load: { name: a, uses: [[p0, 1]] } }\n",
        );
        assert!(msg.starts_with("classes[0].load:"), "{msg}");
        let (_, _, msg) = at(
            "  - { name: q, capacity: 1, buffer_size: 0 }\nclasses:\n  - { name: a, latency: 1, opcodes: [a] }\n",
        );
        assert!(msg.starts_with("resources[2].buffer_size"), "{msg}");
    }

    #[test]
    fn groups_folded_loads_and_read_advance() {
        let m = Machine::from_yaml(
            "issue_width: 4\nmicro_op_buffer_size: 8\nload_latency: 5\nresources:\n  - { name: p0, capacity: 1 }\n  - { name: p1, capacity: 1 }\n  - { name: ld, capacity: 2 }\n  - { name: p01, group: [p0, p1] }\nclasses:\n  - name: fma\n    latency: 4\n    opcodes: [fma]\n    uses: [[p01, 1]]\n    read_advance: [{ cycles: 2, operands: [2], writes: [fma] }]\n    load: { uses: [[ld, 1]] }\n  - { name: div, latency: 9, opcodes: [div], uses: [[p0, 1]] }\n",
            "m.yaml",
        )
        .unwrap();
        let p01 = m.resource_by_name("p01").unwrap();
        assert_eq!(m.resource(p01).capacity, 2);
        let fma = m.class_by_opcode("fma").unwrap();
        let mem = m.memory_form(fma).unwrap();
        let c = m.class(mem);
        assert_eq!((c.name.as_str(), c.latency, c.uops), ("fma-mem", 9, 2));
        assert_eq!(c.advance(0, fma), 5);
        // The register form: only operand 2, only from another fma.
        let div = m.class_by_opcode("div").unwrap();
        assert_eq!(m.class(fma).advance(2, fma), 2);
        assert_eq!(m.class(fma).advance(2, div), 0);
        assert_eq!(m.class(fma).advance(1, fma), 0);
        // A unit taken directly also counts against its group in Fits.
        let p0 = m.resource_by_name("p0").unwrap();
        assert!(m.class(div).folded.contains(&(p01, 0, 1)));
        assert_eq!(m.class(div).usage(p01), 0);
        assert_eq!(m.expanded_uses(div), vec![(p0, 1), (p01, 1)]);
        // Per-operand latencies reach the dependence graph (Proposition 23.1.9).
        let p = crate::model::program::parse(
            "loop l\na: v1 = fma v9, v8, v1\nb: v2 = fma v1, v8, v2\nc: v3 = fma [x], v8, v3\n",
            "l.txt",
            &m,
        )
        .unwrap();
        let lat = |from: u32, to: u32| {
            p.edges()
                .iter()
                .find(|e| e.from.0 == from && e.to.0 == to)
                .map(|e| e.latency)
        };
        assert_eq!(lat(0, 0), Some(2)); // accumulator from itself: 4 − 2
        assert_eq!(lat(0, 1), Some(4)); // operand 0: no advance
        assert_eq!(p.ops()[2].class, mem);
        assert_eq!(lat(2, 2), Some(4)); // folded form: 9 − 5 on the accumulator
    }

    #[test]
    fn tables_are_bounded_before_they_are_built() {
        // A few numbers stand for many pairs: uops beyond MAX_UOPS are
        // refused at once, and the tables of all classes together have a
        // ceiling that is checked before a table is built.
        let e = reject(
            "issue_width: 4\nresources: []\nclasses:\n  - { name: a, latency: 1, opcodes: [a], uops: 4194304 }\n",
        );
        assert_eq!(
            e,
            "m.yaml:4:42: classes[0].uops: uops must be at most 64, got 4194304"
        );
        let head = "issue_width: 1\nresources:\n  - { name: u, capacity: 1 }\nclasses:\n";
        let uses = format!(
            "{head}  - {{ name: a, latency: 1, opcodes: [a], uses: [{}] }}\n",
            vec!["[u, 4096]"; 1025].join(", ")
        );
        assert_eq!(
            reject(&uses),
            "m.yaml:5:42: classes[0].uses: the reservation tables hold more than 4194304 pairs in all"
        );
    }

    #[test]
    fn repeated_pairs_count_twice() {
        let m = Machine::from_yaml(
            "issue_width: 2\nresources:\n  - { name: bus, capacity: 2 }\nclasses:\n  - { name: wide, latency: 2, opcodes: [wide], reservation: [[bus, 0], [bus, 0]] }\n",
            "m.yaml",
        )
        .unwrap();
        let bus = m.resource_by_name("bus").unwrap();
        assert_eq!(m.classes[0].usage(bus), 2);
        assert!(m.classes[0].folded.contains(&(bus, 0, 2)));
    }
}
