//! The JSON forms of product.md §6 written straight from the engine's
//! model: `ops`, `edges`, `machine` ([`MachineInfo`], [`machine_info`]) and
//! label-keyed maps such as `schedule`. Each value
//! holds a shared handle on the [`Program`] (and the [`Machine`]) and
//! streams its entries when serialised, so a result costs nothing extra in
//! text mode and no copy of the program in JSON mode.
//!
//! Keys come out in the order every JSON object of the crate prints them:
//! alphabetical, the order of [`OpInfo`](course_engine::model::program::OpInfo),
//! [`EdgeInfo`](course_engine::model::program::EdgeInfo) and
//! [`MachineInfo`], whose output these
//! reproduce byte for byte.
//!
//! ```
//! use std::sync::Arc;
//! use course_content::json;
//! use course_engine::model::{machine::Machine, program};
//! let m = Machine::toy();
//! let p = Arc::new(program::parse("block b\na: r1 = li 1\nb: r2 = add r1, 1\n", "b", &m).unwrap());
//! let ops = json::OpsJson::new(p.clone(), &m);
//! assert_eq!(
//!     serde_json::to_string(&ops).unwrap(),
//!     serde_json::to_string(&p.op_infos(&m)).unwrap()
//! );
//! let cycles = json::LabelMap::new(p.clone(), vec![0i64, 1]);
//! assert_eq!(serde_json::to_string(&cycles).unwrap(), r#"{"a":0,"b":1}"#);
//! ```

use std::ops::Deref;
use std::sync::Arc;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use course_engine::model::form::Form;
use course_engine::model::machine::Machine;
use course_engine::model::program::{EdgeKind, Op, Program};

/// `ops`: every operation as `{class, label, text}`, in source order.
#[derive(Clone, Debug)]
pub struct OpsJson<M> {
    program: Arc<Program>,
    machine: M,
}

impl<M: Deref<Target = Machine>> OpsJson<M> {
    /// The operations of `program`, their classes named by `machine`.
    pub fn new(program: Arc<Program>, machine: M) -> OpsJson<M> {
        OpsJson { program, machine }
    }
}

/// An operation's text as written in the lab format, formatted on demand.
struct OpText<'a>(&'a Op);

impl Serialize for OpText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0.display())
    }
}

impl<M: Deref<Target = Machine>> Serialize for OpsJson<M> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ops = self.program.ops();
        let mut seq = s.serialize_seq(Some(ops.len()))?;
        for op in ops {
            seq.serialize_element(&OpRef {
                class: &self.machine.class(op.class).name,
                label: &op.label,
                text: OpText(op),
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct OpRef<'a> {
    class: &'a str,
    label: &'a str,
    text: OpText<'a>,
}

/// `edges`: every dependence as `{distance, from, kind, latency, to}`, in
/// the program's edge order.
#[derive(Clone, Debug)]
pub struct EdgesJson {
    program: Arc<Program>,
}

impl EdgesJson {
    /// The dependences of `program`.
    pub fn new(program: Arc<Program>) -> EdgesJson {
        EdgesJson { program }
    }
}

#[derive(Serialize)]
struct EdgeRef<'a> {
    distance: u32,
    from: &'a str,
    kind: EdgeKind,
    latency: u32,
    to: &'a str,
}

impl Serialize for EdgesJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = &self.program;
        let mut seq = s.serialize_seq(Some(p.edges().len()))?;
        for e in p.edges() {
            seq.serialize_element(&EdgeRef {
                distance: e.distance,
                from: p.label(e.from),
                kind: e.kind,
                latency: e.latency,
                to: p.label(e.to),
            })?;
        }
        seq.end()
    }
}

/// One value per operation, serialised as an object keyed by label in
/// label order (what a `BTreeMap<String, T>` prints), without building the
/// map.
#[derive(Clone, Debug)]
pub struct LabelMap<T> {
    program: Arc<Program>,
    values: Vec<T>,
}

impl<T> LabelMap<T> {
    /// `values[i]` belongs to operation `i` of `program`.
    pub fn new(program: Arc<Program>, values: Vec<T>) -> LabelMap<T> {
        debug_assert_eq!(program.len(), values.len());
        LabelMap { program, values }
    }

    /// The values in source order.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The value of the operation labelled `label`.
    pub fn get(&self, label: &str) -> Option<&T> {
        self.program
            .op_by_label(label)
            .and_then(|x| self.values.get(x.index()))
    }
}

/// The first eight bytes of a label, big-endian and padded with zeros:
/// labels never hold a zero byte, so these keys order labels as their
/// text does wherever the keys differ.
fn prefix_key(label: &str) -> u64 {
    let mut b = [0u8; 8];
    let n = label.len().min(8);
    b[..n].copy_from_slice(&label.as_bytes()[..n]);
    u64::from_be_bytes(b)
}

impl<T: Serialize> Serialize for LabelMap<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Sorted on keys read in one pass over the operations; only labels
        // that share their first eight bytes are compared in full.
        let p = &self.program;
        let label = |x: u32| p.ops()[x as usize].label.as_str();
        let mut keys: Vec<(u64, u32)> = p
            .ops()
            .iter()
            .enumerate()
            .map(|(x, op)| (prefix_key(&op.label), x as u32))
            .collect();
        keys.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| label(a.1).cmp(label(b.1))));
        let mut map = s.serialize_map(Some(keys.len()))?;
        for (key, x) in keys {
            let text = key.to_be_bytes();
            let short = text
                .iter()
                .position(|&c| c == 0)
                .and_then(|n| std::str::from_utf8(&text[..n]).ok());
            map.serialize_entry(short.unwrap_or_else(|| label(x)), &self.values[x as usize])?;
        }
        map.end()
    }
}

/// `machine`: the model as [`MachineInfo`]
/// prints it, built only when serialised (a machine is small next to a
/// program: its classes and resources, not its operations).
#[derive(Clone, Debug)]
pub struct MachineJson<M>(pub M);

impl<M: Deref<Target = Machine>> Serialize for MachineJson<M> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        machine_info(&self.0).serialize(s)
    }
}

/// The serializable description of product.md §6 (`course machine
/// --format json`, and the `machine` field of every data command), each
/// reservation table by resource name (Definition 23.1.2). A field the
/// machine file leaves at its default is left out.
pub fn machine_info(m: &Machine) -> MachineInfo {
    MachineInfo {
        classes: m
            .classes()
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
                            .map(|ws| ws.iter().map(|&w| m.class(w).name.clone()).collect()),
                    })
                    .collect(),
                reservation: c
                    .reservation
                    .iter()
                    .map(|&(r, k)| (m.resource(r).name.clone(), k))
                    .collect(),
                stores: c.stores,
                uops: c.uops,
                write_latencies: c.write_latencies.clone(),
                zero_idiom: c.zero_idiom,
            })
            .collect(),
        issue_width: m.issue_width(),
        load_latency: m.load_latency(),
        micro_op_buffer_size: m.micro_op_buffer_size(),
        name: m.name().to_string(),
        reorder_buffer_size: m.reorder_buffer_size(),
        resources: m
            .resources()
            .iter()
            .map(|r| ResourceInfo {
                buffer_size: r.buffer_size,
                capacity: r.capacity,
                group: r
                    .members
                    .iter()
                    .map(|&g| m.resource(g).name.clone())
                    .collect(),
                name: r.name.clone(),
            })
            .collect(),
        retire_width: m.retire_width(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use course_engine::model::program::parse;

    #[test]
    fn every_form_prints_what_the_eager_copies_print() {
        let wide = Machine::from_yaml(
            "issue_width: 3\nmicro_op_buffer_size: 8\nresources:\n  - { name: a, capacity: 2 }\nclasses:\n  - { name: x, latency: 4, opcodes: [x, y], reservation: [[a, 0], [a, 0], [a, 2]], uops: 2, read_advance: 1 }\n",
            "wide.yaml",
        )
        .unwrap();
        for m in [Machine::toy(), wide] {
            assert_eq!(
                serde_json::to_string_pretty(&MachineJson(&m)).unwrap(),
                serde_json::to_string_pretty(&machine_info(&m)).unwrap()
            );
        }
        let m = Machine::toy();
        let p = Arc::new(
            parse(
                "loop l\nb: r1 = load [x + r2]\na: r2 = add r1@2, -4\nc: store [x], r2\n",
                "l",
                &m,
            )
            .unwrap(),
        );
        assert_eq!(
            serde_json::to_string_pretty(&OpsJson::new(p.clone(), &m)).unwrap(),
            serde_json::to_string_pretty(&p.op_infos(&m)).unwrap()
        );
        assert_eq!(
            serde_json::to_string_pretty(&EdgesJson::new(p.clone())).unwrap(),
            serde_json::to_string_pretty(&p.edge_infos()).unwrap()
        );
        let map = LabelMap::new(p.clone(), vec![5i64, 7, 9]);
        let eager: std::collections::BTreeMap<String, i64> =
            [("b".to_string(), 5), ("a".into(), 7), ("c".into(), 9)].into();
        assert_eq!(
            serde_json::to_string_pretty(&map).unwrap(),
            serde_json::to_string_pretty(&eager).unwrap()
        );
        assert_eq!(map.get("a"), Some(&7));
        // Labels sharing their first eight bytes, and of exactly eight.
        let labels = [
            "abcdefgh1",
            "abcdefgh",
            "b",
            "abcdefg",
            "abcdefgh0",
            "a_",
            "abcdefgha",
        ];
        let src: String = labels
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{l}: r{i} = li {i}\n"))
            .collect();
        let p = Arc::new(parse(&format!("block b\n{src}"), "b", &m).unwrap());
        let map = LabelMap::new(p, (0..labels.len() as i64).collect());
        let eager: std::collections::BTreeMap<String, i64> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| (l.to_string(), i as i64))
            .collect();
        assert_eq!(
            serde_json::to_string(&map).unwrap(),
            serde_json::to_string(&eager).unwrap()
        );
        let empty: Vec<i64> = Vec::new();
        assert_eq!(serde_json::to_string_pretty(&empty).unwrap(), "[]");
    }
}
