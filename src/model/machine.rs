//! Machine models as data (Definition 23.1.1, Definition 23.1.2).
//!
//! A machine file states the issue width, the resources with their
//! capacities, and for each operation class its latency, opcodes and either a
//! `unit` + `occupancy` or a general `reservation` list of `[resource,
//! offset]` pairs. The `issue` pseudo-resource (capacity W) is implicit: every
//! class uses it at offset 0, once per micro-op.
//!
//! A file is parsed into [`MachineFile`] (plain serde structs) and validated
//! once into a [`Machine`]; after that the engine trusts the model and never
//! fails on it.
//!
//! ```
//! let m = course::model::machine::Machine::toy();
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
use crate::model::ids::{ClassId, ResourceId};

/// The toy machine's file, embedded so the binary works from any folder.
pub const TOY_YAML: &str = include_str!("../../labs/ch23-sched/machines/toy.yaml");

/// A resource with a capacity (the number of units of that kind).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The name used in machine files and reports (`alu`, `mem`, `issue`).
    pub name: String,
    /// `cap(r)`: units of this kind (Definition 23.1.1); `W` for `issue`.
    pub capacity: u32,
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
    /// ReadAdvance of this class's register reads (Proposition 23.1.9).
    pub read_advance: u32,
}

impl Class {
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
    /// LLVM's MicroOpBufferSize: 0 means in-order issue.
    micro_op_buffer_size: u32,
    opcode_class: BTreeMap<String, ClassId>,
}

/// The resource id of the issue pseudo-resource.
pub const ISSUE: ResourceId = ResourceId(0);

/// The file form of a machine (serde).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MachineFile {
    /// `name:`; `machine` when absent.
    pub name: Option<String>,
    /// `issue_width:`, W (Definition 23.1.1).
    pub issue_width: i64,
    /// `micro_op_buffer_size:`, LLVM's MicroOpBufferSize (Definition 23.1.8); 0 or absent means in-order.
    #[serde(default)]
    pub micro_op_buffer_size: Option<i64>,
    /// `resources:` besides `issue`.
    pub resources: Vec<ResourceFile>,
    /// `classes:`, the operation classes.
    pub classes: Vec<ClassFile>,
}

/// The file form of one resource.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceFile {
    /// `name:`.
    pub name: String,
    /// `capacity:`, `cap(r)`.
    pub capacity: i64,
}

/// The file form of one operation class.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClassFile {
    /// `name:`.
    pub name: String,
    /// `latency:`, `lat(o)` (Definition 23.1.1).
    pub latency: i64,
    /// `opcodes:` that belong to the class.
    pub opcodes: Vec<String>,
    /// `unit:`, the one unit `u_o` of Definition 23.1.2 (with `occupancy`).
    #[serde(default)]
    pub unit: Option<String>,
    /// `occupancy:`, `occ(o)` with `1 ≤ occ(o) ≤ lat(o)` (Definition 23.1.2); default 1.
    #[serde(default)]
    pub occupancy: Option<i64>,
    /// `reservation:`, a general RT(o) as `[resource, offset]` pairs (instead of `unit`).
    #[serde(default)]
    pub reservation: Option<Vec<(String, i64)>>,
    /// `uops:`, LLVM's NumMicroOps; default 1.
    #[serde(default)]
    pub uops: Option<i64>,
    /// `read_advance:`, LLVM's ReadAdvance (Proposition 23.1.9); default 0.
    #[serde(default)]
    pub read_advance: Option<i64>,
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
        self.micro_op_buffer_size
    }

    /// The same machine with another MicroOpBufferSize (0 = in-order),
    /// capped at the largest size a machine file may state.
    pub fn with_micro_op_buffer_size(mut self, size: u32) -> Machine {
        self.micro_op_buffer_size = size.min(1 << 16);
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
        let file: MachineFile = yaml::from_str(text, origin)?;
        Machine::from_file(&file, origin).map_err(|e| {
            Diagnostic::at(
                e.field.locate(text, origin),
                format!("{}: {}", e.field, e.message),
            )
        })
    }

    /// Validates the file form.
    pub fn from_file(file: &MachineFile, origin: &str) -> Result<Machine, MachineError> {
        let bad = |field: Field, message: String| MachineError {
            origin: origin.to_string(),
            field,
            message,
        };
        const LIMIT: i64 = 1 << 16;
        if file.issue_width < 1 || file.issue_width > LIMIT {
            return Err(bad(
                Field::Top("issue_width"),
                format!("must be between 1 and {LIMIT}, got {}", file.issue_width),
            ));
        }
        let buffer = file.micro_op_buffer_size.unwrap_or(0);
        if !(0..=LIMIT).contains(&buffer) {
            return Err(bad(
                Field::Top("micro_op_buffer_size"),
                format!("must be between 0 and {LIMIT}, got {buffer}"),
            ));
        }
        if file.resources.len() > 1024 {
            return Err(bad(
                Field::Top("resources"),
                format!("at most 1024 resources, got {}", file.resources.len()),
            ));
        }
        if file.classes.len() > 4096 {
            return Err(bad(
                Field::Top("classes"),
                format!("at most 4096 classes, got {}", file.classes.len()),
            ));
        }
        let mut resources = vec![Resource {
            name: "issue".into(),
            capacity: file.issue_width as u32,
        }];
        let mut by_name: BTreeMap<String, ResourceId> = BTreeMap::new();
        by_name.insert("issue".into(), ISSUE);
        for (i, r) in file.resources.iter().enumerate() {
            if !is_ident(&r.name) {
                return Err(bad(
                    Field::Resource(i, "name"),
                    format!("'{}' is not a name (letters, digits, '_', '-')", r.name),
                ));
            }
            if by_name.contains_key(&r.name) {
                return Err(bad(
                    Field::Resource(i, "name"),
                    format!("duplicate resource name '{}'", r.name),
                ));
            }
            if r.capacity < 1 || r.capacity > LIMIT {
                return Err(bad(
                    Field::Resource(i, "capacity"),
                    format!(
                        "capacity of '{}' must be between 1 and {LIMIT}, got {}",
                        r.name, r.capacity
                    ),
                ));
            }
            by_name.insert(r.name.clone(), ResourceId::from_index(resources.len()));
            resources.push(Resource {
                name: r.name.clone(),
                capacity: r.capacity as u32,
            });
        }
        if file.classes.is_empty() {
            return Err(bad(
                Field::Top("classes"),
                "a machine needs at least one class".into(),
            ));
        }
        let mut classes = Vec::new();
        let mut class_names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut opcode_class = BTreeMap::new();
        for (i, c) in file.classes.iter().enumerate() {
            let at = |f: &'static str| Field::Class(i, f);
            if !is_ident(&c.name) {
                return Err(bad(at("name"), format!("'{}' is not a name", c.name)));
            }
            if class_names.insert(&c.name, i).is_some() {
                return Err(bad(
                    at("name"),
                    format!("duplicate class name '{}'", c.name),
                ));
            }
            if c.latency < 0 || c.latency > LIMIT {
                return Err(bad(
                    at("latency"),
                    format!("latency must be between 0 and {LIMIT}, got {}", c.latency),
                ));
            }
            let uops = c.uops.unwrap_or(1);
            if uops < 1 || uops > file.issue_width.max(1) * 64 {
                return Err(bad(
                    at("uops"),
                    format!("uops must be at least 1, got {uops}"),
                ));
            }
            let read_advance = c.read_advance.unwrap_or(0);
            if !(0..=LIMIT).contains(&read_advance) {
                return Err(bad(
                    at("read_advance"),
                    format!("read_advance must be between 0 and {LIMIT}, got {read_advance}"),
                ));
            }
            let mut reservation: Vec<(ResourceId, u32)> = (0..uops).map(|_| (ISSUE, 0)).collect();
            match (&c.unit, c.occupancy, &c.reservation) {
                (Some(_), _, Some(_)) => {
                    return Err(bad(
                        at("reservation"),
                        "give either unit + occupancy or a reservation list, not both".into(),
                    ))
                }
                (None, Some(_), _) => {
                    return Err(bad(at("occupancy"), "occupancy needs a unit".into()))
                }
                (Some(unit), occ, None) => {
                    let Some(&rid) = by_name.get(unit) else {
                        return Err(bad(at("unit"), format!("unknown resource '{unit}'")));
                    };
                    if rid == ISSUE {
                        return Err(bad(at("unit"), "'issue' is implicit; name a unit".into()));
                    }
                    let occ = occ.unwrap_or(1);
                    if occ < 1 {
                        return Err(bad(
                            at("occupancy"),
                            format!("occupancy must be at least 1, got {occ}"),
                        ));
                    }
                    if occ > c.latency.max(1) {
                        return Err(bad(
                            at("occupancy"),
                            format!(
                                "occupancy {occ} exceeds latency {} (Definition 23.1.2 needs occ ≤ lat)",
                                c.latency
                            ),
                        ));
                    }
                    reservation.extend((0..occ as u32).map(|k| (rid, k)));
                }
                (None, None, Some(list)) => {
                    for (j, (res, off)) in list.iter().enumerate() {
                        let Some(&rid) = by_name.get(res) else {
                            return Err(bad(
                                Field::Reservation(i, j),
                                format!("unknown resource '{res}'"),
                            ));
                        };
                        if *off < 0 || *off > 4096 {
                            return Err(bad(
                                Field::Reservation(i, j),
                                format!("offset must be between 0 and 4096, got {off}"),
                            ));
                        }
                        reservation.push((rid, *off as u32));
                    }
                }
                (None, None, None) => {}
            }
            for op in &c.opcodes {
                if !is_ident(op) {
                    return Err(bad(at("opcodes"), format!("'{op}' is not an opcode name")));
                }
                if let Some(prev) = opcode_class.insert(op.clone(), ClassId::from_index(i)) {
                    return Err(bad(
                        at("opcodes"),
                        format!(
                            "opcode '{op}' is already in class '{}'",
                            file.classes[prev.index()].name
                        ),
                    ));
                }
            }
            let mut folded: BTreeMap<(ResourceId, u32), u32> = BTreeMap::new();
            for &p in &reservation {
                *folded.entry(p).or_default() += 1;
            }
            for (&(r, k), &n) in &folded {
                let cap = resources[r.index()].capacity;
                if n > cap {
                    return Err(bad(
                        at("reservation"),
                        format!(
                            "uses '{}' {n} times at offset {k}, more than its capacity {cap}: it could never issue",
                            resources[r.index()].name
                        ),
                    ));
                }
            }
            classes.push(Class {
                name: c.name.clone(),
                latency: c.latency as u32,
                opcodes: c.opcodes.clone(),
                reservation,
                folded: folded.into_iter().map(|((r, k), n)| (r, k, n)).collect(),
                uops: uops as u32,
                read_advance: read_advance as u32,
            });
        }
        Ok(Machine {
            name: file.name.clone().unwrap_or_else(|| "machine".into()),
            issue_width: file.issue_width as u32,
            resources,
            classes,
            micro_op_buffer_size: buffer as u32,
            opcode_class,
        })
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
    pub fn resource_ids(&self) -> impl Iterator<Item = ResourceId> {
        (0..self.resources.len()).map(ResourceId::from_index)
    }

    /// Every class id, in file order.
    pub fn class_ids(&self) -> impl Iterator<Item = ClassId> {
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
    /// let m = course::model::machine::Machine::toy().mirrored();
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

    /// The file form, for JSON/YAML output and round trips.
    pub fn to_file(&self) -> MachineFile {
        MachineFile {
            name: Some(self.name.clone()),
            issue_width: i64::from(self.issue_width),
            micro_op_buffer_size: Some(i64::from(self.micro_op_buffer_size)),
            resources: self.resources[1..]
                .iter()
                .map(|r| ResourceFile {
                    name: r.name.clone(),
                    capacity: i64::from(r.capacity),
                })
                .collect(),
            classes: self
                .classes
                .iter()
                .map(|c| ClassFile {
                    name: c.name.clone(),
                    latency: i64::from(c.latency),
                    opcodes: c.opcodes.clone(),
                    unit: None,
                    occupancy: None,
                    reservation: Some(
                        c.reservation
                            .iter()
                            .filter(|(r, _)| *r != ISSUE)
                            .map(|&(r, k)| (self.resource(r).name.clone(), i64::from(k)))
                            .collect(),
                    ),
                    uops: Some(i64::from(c.uops)),
                    read_advance: Some(i64::from(c.read_advance)),
                })
                .collect(),
        }
    }

    /// The serializable description of product.md §6 (`course machine
    /// --format json`, and the `machine` field of every data command).
    pub fn info(&self) -> MachineInfo {
        MachineInfo {
            classes: self
                .classes
                .iter()
                .map(|c| ClassInfo {
                    latency: c.latency,
                    name: c.name.clone(),
                    opcodes: c.opcodes.clone(),
                    read_advance: c.read_advance,
                    reservation: c
                        .reservation
                        .iter()
                        .map(|&(r, k)| (self.resource(r).name.clone(), k))
                        .collect(),
                    uops: c.uops,
                })
                .collect(),
            issue_width: self.issue_width,
            micro_op_buffer_size: self.micro_op_buffer_size,
            name: self.name.clone(),
            resources: self
                .resources
                .iter()
                .map(|r| ResourceInfo {
                    capacity: r.capacity,
                    name: r.name.clone(),
                })
                .collect(),
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
    /// 0 for an in-order machine.
    pub micro_op_buffer_size: u32,
    /// The machine's name.
    pub name: String,
    /// Every resource, `issue` first.
    pub resources: Vec<ResourceInfo>,
}

/// A class as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassInfo {
    /// `lat(o)`.
    pub latency: u32,
    /// The class name.
    pub name: String,
    /// The opcodes of the class.
    pub opcodes: Vec<String>,
    /// ReadAdvance of its register reads.
    pub read_advance: u32,
    /// RT(o) as `[resource, offset]` pairs.
    pub reservation: Vec<(String, u32)>,
    /// Micro-ops.
    pub uops: u32,
}

/// A resource as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceInfo {
    /// cap(r).
    pub capacity: u32,
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
            if self.micro_op_buffer_size == 0 {
                "0 (in-order)".to_string()
            } else {
                self.micro_op_buffer_size.to_string()
            }
        )?;
        write!(f, "resources:")?;
        for r in &self.resources {
            write!(f, " {} ({})", r.name, r.capacity)?;
        }
        writeln!(f)?;
        Ok(())
    }
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
        let e = reject(&base(
            "  - { name: a, latency: 1, opcodes: [add], unit: alu, occupancy: 2 }\n",
        ));
        assert!(
            e.contains("classes[0].occupancy") && e.contains("exceeds latency"),
            "{e}"
        );
        let e = reject(&base(
            "  - { name: a, latency: 1, opcodes: [add], unit: fpu }\n",
        ));
        assert!(
            e.contains("classes[0].unit") && e.contains("unknown resource 'fpu'"),
            "{e}"
        );
        let e = reject(&base(
            "  - { name: a, latency: 1, opcodes: [add], reservation: [[alu, -1]] }\n",
        ));
        assert!(
            e.contains("classes[0].reservation[0]") && e.contains("offset"),
            "{e}"
        );
        let e = reject(&base(
            "  - { name: a, latency: 1, opcodes: [add], unit: alu }\n  - { name: a, latency: 1, opcodes: [sub], unit: alu }\n",
        ));
        assert!(
            e.contains("classes[1].name") && e.contains("duplicate"),
            "{e}"
        );
        let e = reject("issue_width: 2\nresources:\n  - { name: alu, capacity: 0 }\nclasses:\n  - { name: a, latency: 1, opcodes: [add], unit: alu }\n");
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
