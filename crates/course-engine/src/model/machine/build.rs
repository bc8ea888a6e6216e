//! Validation of a [`MachineFile`] into a [`Machine`], in phases
//! (Definitions 23.1.1, 23.1.2 and 23.1.8): the top-level numbers, the
//! resources and groups, the classes with their reservation tables (issue
//! slots, then `unit` + `occupancy`, `reservation` or `uses`), their
//! folded-load forms and their zero-idiom variants. Each phase trusts what
//! the earlier ones checked, and the first mistake found, in that order, is
//! the one reported, at its [`Field`]. Each table is folded here, once,
//! into the counting table of Algorithm 23.1.4.

use std::collections::BTreeMap;

use crate::model::form::Form;
use crate::model::ids::{ClassId, ResourceId};

use super::{
    Class, ClassFile, Field, ISSUE, LoadFile, MAX_PAIRS, MAX_UOPS, Machine, MachineError,
    MachineFile, ReadAdvance, ReadAdvanceEntryFile, ReadAdvanceFile, Resource, ResourceFile,
    TopLevel, ZeroIdiomFile,
};

/// The largest value most numbers of a machine file may take.
const LIMIT: i64 = 1 << 16;

/// Validates `file` in the phases of a [`MachineBuilder`]
/// ([`Machine::from_file`]).
pub(super) fn machine(file: &MachineFile, origin: &str) -> Result<Machine, MachineError> {
    let mut b = MachineBuilder::new(file, origin);
    b.top_level()?;
    b.resources()?;
    b.class_names()?;
    b.classes()?;
    b.load_forms()?;
    b.zero_idioms()?;
    b.build()
}

/// The issue slots of `uops` micro-ops on a machine of width `w`: `w` at
/// offset 0, the next `w` at offset 1, and so on (Definition 23.1.8; a
/// class wider than the machine takes its slots over several cycles).
fn issue_pairs(uops: i64, w: i64) -> Vec<(ResourceId, u32)> {
    let w = w.max(1);
    (0..uops.max(0)).map(|k| (ISSUE, (k / w) as u32)).collect()
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
