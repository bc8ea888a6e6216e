//! The lab input format (product.md §4) and the dependence graph built from it.
//!
//! ```text
//! block running
//! a: r1 = load [x]
//! d: r4 = mul r1, r1
//! ```
//!
//! [`parse`] returns the [`Program`] or every [`Diagnostic`](crate::formats::diagnostic::Diagnostic) it found (one bad
//! line does not hide the next). Dependences follow Lesson 23.2:
//!
//! * register flow (RAW) edges with latency `max(0, lat(producer) − a)`
//!   (Proposition 23.1.9, `a` the consumer's ReadAdvance);
//! * in a block, a read that comes before the register's definition reads
//!   the value live on entry, and the definition waits for that read: an
//!   anti edge with ℓ = 0, so every block edge points forward in the source;
//! * memory edges in source order between two memory operations of which at
//!   least one writes, when they may alias (same symbol, or either address
//!   holds a register): latency `lat(store)` from a write, 0 from a read;
//! * in loops, a use at or before the definition reads the previous
//!   iteration (distance 1), `r@k` reads `k` iterations back, and memory
//!   operations on the same plain symbol get distance-1 edges backwards.
//!
//! ```
//! let src = "block t\na: r1 = load [x]\nb: r2 = add r1, 1\n";
//! let p = course_engine::model::program::parse(src, "t.txt", &course_engine::model::machine::Machine::toy()).unwrap();
//! assert_eq!(p.edges().len(), 1);
//! assert_eq!(p.edges()[0].latency, 3);
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::model::ids::{ClassId, OpId};
use crate::model::machine::Machine;
use crate::util::name::Name;

/// A straight-line block or the body of a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Kind {
    /// A straight-line block (`block NAME`), list-scheduled (Lesson 23.3).
    Block,
    /// A loop body (`loop NAME`), modulo-scheduled (Lesson 23.6).
    Loop,
}

impl Kind {
    /// `block` or `loop`, as written in the input.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Block => "block",
            Kind::Loop => "loop",
        }
    }
}

/// A register read, possibly from `distance` iterations back (`r@k`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegUse {
    /// The register name (`r1`).
    pub name: Name,
    /// `Some(k)` for `r@k`.
    pub at: Option<u32>,
}

/// A memory address: an optional symbol, registers, and an offset.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Address {
    /// The symbol (`x` in `[x]`), if any.
    pub symbol: Option<Name>,
    /// Registers in the address (`r2` in `[x + r2]`).
    pub regs: Vec<RegUse>,
    /// A constant offset, if any.
    pub offset: Option<i64>,
}

/// One operand of an operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A register read.
    Reg(RegUse),
    /// An immediate.
    Imm(i64),
    /// A memory operand `[...]`.
    Mem(Address),
}

/// One operation of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    /// The label before the colon (`a` in `a: r1 = load [x]`).
    pub label: Name,
    /// The register written, if any (the first, when it writes several).
    pub dest: Option<Name>,
    /// The further registers written, in order (`q1` and `x9` in
    /// `a: q0, q1, x9 = ldp [x8 + 32]`: a load pair whose address writes
    /// back its base register). Each has its latency from
    /// [`crate::model::machine::Class::write_latency`].
    pub more_dests: Vec<Name>,
    /// Whether it writes memory although it writes registers (its class
    /// [`stores`](crate::model::machine::Class::stores)).
    pub stores: bool,
    /// The opcode as written.
    pub opcode: Name,
    /// The opcode's class in the machine.
    pub class: ClassId,
    /// The operands in source order.
    pub operands: Vec<Operand>,
    /// 1-based line in the input.
    pub line: u32,
}

impl Op {
    /// The memory operand, if any.
    pub fn address(&self) -> Option<&Address> {
        self.operands.iter().find_map(|o| match o {
            Operand::Mem(a) => Some(a),
            _ => None,
        })
    }

    /// A memory operation without a destination writes memory; so does
    /// one whose class stores (a store that writes back its address).
    pub fn writes_memory(&self) -> bool {
        self.address().is_some() && (self.dest.is_none() || self.stores)
    }

    /// A memory operation that does not write memory reads it.
    pub fn reads_memory(&self) -> bool {
        self.address().is_some() && !self.writes_memory()
    }

    /// Every register written, in order.
    pub fn dests(&self) -> impl Iterator<Item = &Name> {
        self.dest.iter().chain(&self.more_dests)
    }

    /// The place of `reg` among the registers written (0 for `dest`).
    pub fn dest_position(&self, reg: &str) -> Option<usize> {
        self.dests().position(|d| d.as_str() == reg)
    }

    /// Every register this operation reads (operands and addresses).
    pub fn reg_uses(&self) -> impl Iterator<Item = &RegUse> {
        self.operands.iter().flat_map(|o| {
            let (one, many): (Option<&RegUse>, &[RegUse]) = match o {
                Operand::Reg(r) => (Some(r), &[]),
                Operand::Mem(a) => (None, &a.regs),
                Operand::Imm(_) => (None, &[]),
            };
            one.into_iter().chain(many)
        })
    }

    /// Every register read with its operand position (0-based, after the
    /// opcode) and whether it is inside an address.
    pub fn reg_reads(&self) -> impl Iterator<Item = (usize, bool, &RegUse)> {
        self.operands.iter().enumerate().flat_map(
            |(pos, o)| -> Box<dyn Iterator<Item = (usize, bool, &RegUse)>> {
                match o {
                    Operand::Reg(r) => Box::new(std::iter::once((pos, false, r))),
                    Operand::Mem(a) => Box::new(a.regs.iter().map(move |r| (pos, true, r))),
                    Operand::Imm(_) => Box::new(std::iter::empty()),
                }
            },
        )
    }

    /// The operation as written in the lab format, after the label.
    pub fn text(&self) -> String {
        self.display().to_string()
    }

    /// [`Op::text`] as a value that writes itself, without allocating.
    pub fn display(&self) -> OpDisplay<'_> {
        OpDisplay(self)
    }
}

/// An operation's lab-format text after the label (`r1 = load [x + r2]`),
/// written on demand ([`Op::display`]).
#[derive(Clone, Copy, Debug)]
pub struct OpDisplay<'a>(&'a Op);

impl fmt::Display for OpDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = self.0;
        for (k, d) in op.dests().enumerate() {
            f.write_str(if k == 0 { "" } else { ", " })?;
            write!(f, "{d}")?;
        }
        if op.dest.is_some() {
            f.write_str(" = ")?;
        }
        f.write_str(&op.opcode)?;
        for (i, o) in op.operands.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            match o {
                Operand::Reg(r) => write_reg(f, r)?,
                Operand::Imm(v) => write!(f, "{v}")?,
                Operand::Mem(a) => write_address(f, a)?,
            }
        }
        Ok(())
    }
}

impl Address {
    /// The address as written in the lab format: `[x]`, `[x + r2]`.
    pub fn text(&self) -> String {
        struct Text<'a>(&'a Address);
        impl fmt::Display for Text<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_address(f, self.0)
            }
        }
        Text(self).to_string()
    }
}

/// `[x + r2 + 4]`: the symbol, the registers and the offset joined by ` + `.
fn write_address(f: &mut fmt::Formatter<'_>, a: &Address) -> fmt::Result {
    f.write_str("[")?;
    let mut first = true;
    let mut sep = |f: &mut fmt::Formatter<'_>| {
        let s = if first { "" } else { " + " };
        first = false;
        f.write_str(s)
    };
    if let Some(sym) = &a.symbol {
        sep(f)?;
        f.write_str(sym)?;
    }
    for r in &a.regs {
        sep(f)?;
        write_reg(f, r)?;
    }
    if let Some(off) = a.offset {
        sep(f)?;
        write!(f, "{off}")?;
    }
    f.write_str("]")
}

fn write_reg(f: &mut fmt::Formatter<'_>, r: &RegUse) -> fmt::Result {
    f.write_str(&r.name)?;
    if let Some(k) = r.at {
        write!(f, "@{k}")?;
    }
    Ok(())
}

/// Why an edge exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum EdgeKind {
    /// Register flow through the register its source defines
    /// ([`Program::edge_register`]).
    #[cfg_attr(feature = "serde", serde(rename = "register"))]
    Reg,
    /// Possible memory aliasing.
    #[cfg_attr(feature = "serde", serde(rename = "memory"))]
    Mem,
    /// In a block, an operation that reads a register before the operation
    /// defining it: the definition may not issue before the read (ℓ = 0).
    /// The register is the one its target defines.
    #[cfg_attr(feature = "serde", serde(rename = "anti"))]
    Anti,
}

/// An operation as JSON (`ops` of product.md §6). Fields are declared in
/// alphabetical order, the order every JSON object of the crate prints its
/// keys in.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OpInfo {
    /// The class name.
    pub class: String,
    /// The label.
    pub label: String,
    /// The operation as written in the lab format, after the label.
    pub text: String,
}

/// A dependence as JSON (`edges` of product.md §6).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EdgeInfo {
    /// Iteration distance d.
    pub distance: u32,
    /// The producer's label.
    pub from: String,
    /// `register`, `memory` or `anti`.
    pub kind: EdgeKind,
    /// Latency ℓ.
    pub latency: u32,
    /// The consumer's label.
    pub to: String,
}

/// A dependence `from → to` with latency ℓ and iteration distance d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The producer.
    pub from: OpId,
    /// The consumer.
    pub to: OpId,
    /// ℓ: cycles from the producer's issue until the consumer may issue (Proposition 23.1.9 for registers).
    pub latency: u32,
    /// d: iterations between producer and consumer (0 in a block).
    pub distance: u32,
    /// Register flow, memory or (in a block) anti dependence.
    pub kind: EdgeKind,
}

/// A parsed input with its dependence graph.
#[derive(Clone, Debug)]
pub struct Program {
    name: String,
    kind: Kind,
    ops: Vec<Op>,
    edges: Vec<Edge>,
    /// Edge indices leaving each operation (`succs[x]`, ascending).
    succs: Adjacency,
    /// Edge indices entering each operation (`preds[x]`, ascending).
    preds: Adjacency,
    /// A topological order of the distance-0 edges (the source order).
    topo: Vec<OpId>,
}

/// Edge indices per operation, packed in one array (compressed sparse
/// rows): two allocations for the whole graph instead of one per operation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Adjacency {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Adjacency {
    /// Groups the indices of `edges` by `end(edge)` (an operation index
    /// below `n`), keeping edge order within each group.
    fn build(n: usize, edges: &[Edge], end: impl Fn(&Edge) -> usize) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for e in edges {
            start[end(e) + 1] += 1;
        }
        for x in 0..n {
            start[x + 1] += start[x];
        }
        let mut next: Vec<u32> = start[..n].to_vec();
        let mut list = vec![0u32; edges.len()];
        for (i, e) in edges.iter().enumerate() {
            let slot = &mut next[end(e)];
            list[*slot as usize] = i as u32;
            *slot += 1;
        }
        Adjacency { start, list }
    }

    /// The number of operations.
    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// Whether there are no operations.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The groups in operation order.
    pub fn iter(&self) -> impl Iterator<Item = &[u32]> {
        (0..self.len()).map(|x| &self[x])
    }
}

impl std::ops::Index<usize> for Adjacency {
    type Output = [u32];

    fn index(&self, x: usize) -> &[u32] {
        &self.list[self.start[x] as usize..self.start[x + 1] as usize]
    }
}

/// One problem in an input before the file name is attached.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Diagnostic {
    line: u32,
    column: u32,
    message: String,
}

/// The most dependences an input may have: memory pairs can grow
/// quadratically with the number of memory operations.
pub const MAX_EDGES: usize = 20_000_000;

/// The most diagnostics one file reports before giving up.
const MAX_DIAGNOSTICS: usize = 50;

impl Program {
    /// The name in the header (`block NAME`, `loop NAME`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A block or a loop body.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The operations, in source order (indexed by [`OpId`]).
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// The dependences, sorted by `(from, to, distance)`, no two alike.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// Edge indices leaving each operation (`succs()[x]`, ascending).
    pub fn succs(&self) -> &Adjacency {
        &self.succs
    }

    /// Edge indices entering each operation (`preds()[x]`, ascending).
    pub fn preds(&self) -> &Adjacency {
        &self.preds
    }

    /// A topological order of the distance-0 edges: every distance-0 edge
    /// points forward in the source, so this is the source order.
    pub fn topo(&self) -> &[OpId] {
        &self.topo
    }

    /// The operation with this id.
    pub fn op(&self, id: OpId) -> &Op {
        &self.ops[id.index()]
    }

    /// The label of the operation with this id.
    pub fn label(&self, id: OpId) -> &str {
        &self.ops[id.index()].label
    }

    /// The number of operations.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the program has no operations.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Every operation id, in source order.
    pub fn op_ids(&self) -> impl Iterator<Item = OpId> + use<> {
        (0..self.ops.len()).map(OpId::from_index)
    }

    /// The operation with this label, if any.
    pub fn op_by_label(&self, label: &str) -> Option<OpId> {
        self.ops
            .iter()
            .position(|o| o.label == label)
            .map(OpId::from_index)
    }

    /// The register an edge is about: for a flow edge the one its source
    /// defines, for an anti edge the one its target defines.
    pub fn edge_register(&self, e: &Edge) -> Option<&str> {
        match e.kind {
            EdgeKind::Reg => {
                let (from, to) = (self.op(e.from), self.op(e.to));
                from.dests()
                    .find(|d| to.reg_uses().any(|u| u.name == **d))
                    .or(from.dest.as_ref())
                    .map(Name::as_str)
            }
            EdgeKind::Anti => self.op(e.to).dest.as_deref(),
            EdgeKind::Mem => None,
        }
    }

    /// A map from label to op, for lookups in bulk.
    pub fn label_map(&self) -> HashMap<&str, OpId> {
        self.ops
            .iter()
            .enumerate()
            .map(|(i, o)| (o.label.as_str(), OpId::from_index(i)))
            .collect()
    }

    /// Edges leaving `id`.
    pub fn out_edges(&self, id: OpId) -> impl Iterator<Item = &Edge> {
        self.succs[id.index()]
            .iter()
            .map(|&e| &self.edges[e as usize])
    }

    /// Edges entering `id`.
    pub fn in_edges(&self, id: OpId) -> impl Iterator<Item = &Edge> {
        self.preds[id.index()]
            .iter()
            .map(|&e| &self.edges[e as usize])
    }

    /// Every operation as JSON (`ops` of product.md §6).
    pub fn op_infos(&self, m: &Machine) -> Vec<OpInfo> {
        self.ops
            .iter()
            .map(|o| OpInfo {
                class: m.class(o.class).name.clone(),
                label: o.label.to_string(),
                text: o.text(),
            })
            .collect()
    }

    /// Every dependence as JSON (`edges` of product.md §6).
    pub fn edge_infos(&self) -> Vec<EdgeInfo> {
        self.edges
            .iter()
            .map(|e| EdgeInfo {
                distance: e.distance,
                from: self.label(e.from).to_string(),
                kind: e.kind,
                latency: e.latency,
                to: self.label(e.to).to_string(),
            })
            .collect()
    }

    /// The lab-format text of the program (parses back to the same program).
    pub fn to_text(&self) -> String {
        let mut s = format!("{} {}\n", self.kind.as_str(), self.name);
        for op in &self.ops {
            s.push_str(&op.label);
            s.push_str(": ");
            s.push_str(&op.text());
            s.push('\n');
        }
        s
    }

    /// The same operations with other dependences: `edges` must keep the
    /// rule of `Program::assemble` (a distance-0 edge points forward in
    /// the source); edges that break it are dropped.
    pub fn with_edges(&self, edges: Vec<Edge>) -> Program {
        let edges = edges
            .into_iter()
            .filter(|e| e.distance > 0 || e.from < e.to)
            .collect();
        Program::assemble(self.name.clone(), self.kind, self.ops.clone(), edges)
    }

    /// Builds the program from parsed operations and their edges. Every
    /// distance-0 edge points forward in the source (flow from a definition
    /// to a later read, anti from a read to a later definition, memory in
    /// source order), so the source order is a topological order and no
    /// input can make a zero-distance cycle.
    fn assemble(name: String, kind: Kind, ops: Vec<Op>, edges: Vec<Edge>) -> Program {
        debug_assert!(edges.iter().all(|e| e.distance > 0 || e.from < e.to));
        let n = ops.len();
        let succs = Adjacency::build(n, &edges, |e| e.from.index());
        let preds = Adjacency::build(n, &edges, |e| e.to.index());
        Program {
            name,
            kind,
            ops,
            edges,
            succs,
            preds,
            topo: (0..n).map(OpId::from_index).collect(),
        }
    }
}

mod deps;
mod parser;
mod resolve;

pub use parser::parse;

#[cfg(test)]
mod tests {
    use super::parser::parse_limited;
    use super::*;

    pub const RUNNING: &str = include_str!("../../../../../labs/ch23-sched/inputs/running.txt");

    fn toy() -> Machine {
        Machine::toy()
    }

    fn edge_list(p: &Program) -> Vec<String> {
        p.edges
            .iter()
            .map(|e| {
                format!(
                    "{}->{} {}{}",
                    p.label(e.from),
                    p.label(e.to),
                    e.latency,
                    if e.distance > 0 {
                        format!(" d{}", e.distance)
                    } else {
                        String::new()
                    }
                )
            })
            .collect()
    }

    #[test]
    fn running_block_dependences() {
        let p = parse(RUNNING, "running.txt", &toy()).unwrap();
        assert_eq!(p.kind, Kind::Block);
        assert_eq!(p.len(), 10);
        assert_eq!(
            edge_list(&p),
            vec![
                "a->d 3", "a->f 3", "b->g 3", "b->h 3", "c->e 3", "d->j 3", "e->f 1", "f->i 3",
                "g->h 0", "g->i 3", "i->j 1"
            ]
        );
        assert_eq!(p.op(OpId(7)).text(), "store [w], r2");
        assert_eq!(parse(&p.to_text(), "again", &toy()).unwrap().edges, p.edges);
    }

    #[test]
    fn loop_carried_edges() {
        let src = "loop l\na: r1 = load [x + r3]\nb: r2 = add r1, r2\nc: r3 = add r3, 4\nd: r4 = mul r2@2, 3\ne: store [s], r4\nf: r5 = load [s]\n";
        let p = parse(src, "l.txt", &toy()).unwrap();
        assert_eq!(
            edge_list(&p),
            vec![
                "a->b 3",
                "a->e 0",
                "b->b 1 d1",
                "b->d 1 d2",
                "c->a 1 d1",
                "c->c 1 d1",
                "d->e 3",
                "e->e 1 d1",
                "e->f 1",
                "f->e 0 d1"
            ]
        );
    }

    fn errors(src: &str) -> String {
        parse(src, "in.txt", &toy()).unwrap_err().to_string()
    }

    #[test]
    fn bad_inputs_are_located() {
        assert_eq!(
            errors(""),
            "in.txt:1:1: empty input: expected the header 'block NAME' or 'loop NAME'"
        );
        assert!(
            errors("block b\na: r1 = frob r2\n").starts_with("in.txt:2:9: unknown opcode 'frob'")
        );
        // The machine's opcodes are listed once, not on every unknown one.
        let e = errors("block b\na: r1 = frob r2\nb: r3 = zap r1\n");
        assert_eq!(e.matches("known: add").count(), 1, "{e}");
        assert!(
            e.contains(
                "in.txt:3:9: unknown opcode 'zap' for machine toy (known: as listed at line 2)"
            ),
            "{e}"
        );
        assert!(
            errors("block b\na: r1 = li 1\nb: r1 = li 2\n")
                .starts_with("in.txt:3:4: register r1 is already defined by a")
        );
        assert!(
            errors("block b\na: r1 = load [x\n").starts_with("in.txt:2:16: expected '+' or ']'")
        );
        assert!(errors("block b\na: r1 = load [x + y]\n").contains("second symbol"));
        assert_eq!(
            errors("block b\nh: r1 = store [w], r2\n"),
            "in.txt:2:4: a store writes memory and defines no register: drop 'r1 =' (write 'h: store …')"
        );
        assert!(
            errors("block b\na r1 = li 1\n")
                .starts_with("in.txt:2:3: expected ':' after the label")
        );
        assert!(errors("block b\na: r1 = add r2@1, 1\n").contains("only loops"));
        assert!(errors("loop l\na: r1 = add r2@0, 1\n").contains("1 ≤ k"));
        assert!(
            errors("loop l\na: r1 = add r9@1, 1\n").contains("no operation of the loop defines")
        );
        assert!(errors("block b\na: r1 = li 99999999999999999999\n").contains("64 bits"));
        assert!(
            errors("block b\na: r1 = li 1\na: r2 = li 2\n")
                .contains("label 'a' is already used on line 2")
        );
        assert!(errors("blok b\n").starts_with("in.txt:1:1: expected the header"));
        assert!(errors("block b\n").contains("has no operations"));
        assert!(errors("block b\na: r1 = li $3\n").contains("unexpected character '$'"));
        // several problems are all reported
        assert_eq!(
            errors("block b\na: r1 = frob 1\nb: r2 = frob 2\n")
                .lines()
                .count(),
            2
        );
    }

    #[test]
    fn a_block_read_before_the_definition_is_an_anti_dependence() {
        let p = parse("block t\na: r2 = add r1, 1\nb: r1 = li 3\n", "t", &toy()).unwrap();
        assert_eq!(edge_list(&p), vec!["a->b 0"]);
        assert_eq!(p.edges()[0].kind, EdgeKind::Anti);
        assert_eq!(p.edge_register(&p.edges()[0]), Some("r1"));
        // Reading and defining the same register in one operation reads the
        // value live on entry: no edge at all.
        let p = parse("block t\na: r2 = add r2, 1\n", "t", &toy()).unwrap();
        assert!(p.edges().is_empty());
        // Once a cycle of reads and definitions, now two forward edges; the
        // flow edge wins over the anti edge on the same pair.
        let p = parse(
            "block b\na: r1 = add r2, 1\nb: r2 = add r1, 1\n",
            "t",
            &toy(),
        )
        .unwrap();
        assert_eq!(edge_list(&p), vec!["a->b 1"]);
        assert_eq!(p.edges()[0].kind, EdgeKind::Reg);
        // Loops keep their rule: the earlier read is loop-carried.
        let p = parse("loop l\na: r2 = add r1, 1\nb: r1 = li 3\n", "t", &toy()).unwrap();
        assert_eq!(edge_list(&p), vec!["b->a 1 d1"]);
    }

    #[test]
    fn crlf_bom_comments() {
        let p = parse(
            "\u{feff}# hi\r\nblock b # x\r\na: r1 = li 1\r\n",
            "in.txt",
            &toy(),
        )
        .unwrap();
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn too_many_memory_edges_names_the_first_group_in_source_order() {
        // Six symbols, two stores each: 6 forward edges, then 3 loop-carried
        // edges per symbol. With room for 6, the first group (p) fits and
        // the second (q, first stored on line 3) passes the limit.
        let m = toy();
        let mut src = String::from("loop l\n");
        for (k, sym) in ["p", "q", "s", "t", "u", "v", "p", "q", "s", "t", "u", "v"]
            .iter()
            .enumerate()
        {
            src.push_str(&format!("o{k}: store [{sym}], r1\n"));
        }
        for _ in 0..20 {
            let e = parse_limited(&src, "l.txt", &m, 6).unwrap_err();
            assert_eq!(e.len(), 1);
            assert_eq!((e.0[0].line, e.0[0].column), (3, 1), "{e}");
            assert!(e.0[0].message.starts_with("more than 6 dependences"), "{e}");
        }
        assert!(parse_limited(&src, "l.txt", &m, 24).is_ok());
    }
}
