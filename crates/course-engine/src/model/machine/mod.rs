//! Machine models as data (Definition 23.1.1, Definition 23.1.2).
//!
//! A machine file states the issue width, the resources with their
//! capacities, and for each operation class its latency, opcodes and either a
//! `unit` + `occupancy` or a general `reservation` list of `[resource,
//! offset]` pairs. The `issue` pseudo-resource (capacity W) is implicit: every
//! class uses it at offset 0, once per micro-op.
//!
//! A file is parsed into a [`MachineFile`] (serde structs, the one schema,
//! `schema.rs`) and validated once, in phases (`build.rs`), into a
//! [`Machine`]; after that the engine trusts the model and never fails on
//! it. Its JSON form is the course's (`course_content::json`).
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

use crate::formats::diagnostic::Diagnostic;
use crate::formats::yaml;
use crate::model::form::{Form, Shape};
use crate::model::ids::{ClassId, ResourceId};

mod build;
mod schema;

pub use schema::{
    ClassFile, Field, LoadFile, MachineError, MachineFile, ReadAdvanceEntryFile, ReadAdvanceFile,
    ResourceFile, ZeroIdiomFile,
};

/// The toy machine's file, embedded so the binary works from any folder.
pub const TOY_YAML: &str = include_str!("../../../machines/toy.yaml");

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

/// The resource id of the issue pseudo-resource.
pub const ISSUE: ResourceId = ResourceId(0);

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
        build::machine(file, origin)
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
}
