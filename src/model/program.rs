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
//! * memory edges in source order between two memory operations of which at
//!   least one writes, when they may alias (same symbol, or either address
//!   holds a register): latency `lat(store)` from a write, 0 from a read;
//! * in loops, a use at or before the definition reads the previous
//!   iteration (distance 1), `r@k` reads `k` iterations back, and memory
//!   operations on the same plain symbol get distance-1 edges backwards.
//!
//! ```
//! let src = "block t\na: r1 = load [x]\nb: r2 = add r1, 1\n";
//! let p = course::model::program::parse(src, "t.txt", &course::model::machine::Machine::toy()).unwrap();
//! assert_eq!(p.edges().len(), 1);
//! assert_eq!(p.edges()[0].latency, 3);
//! ```

use std::collections::HashMap;

use serde::Serialize;

use crate::formats::diagnostic::{self as formats, Diagnostics};
use crate::model::ids::{ClassId, OpId};
use crate::model::machine::Machine;

/// A straight-line block or the body of a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
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
    pub name: String,
    /// `Some(k)` for `r@k`.
    pub at: Option<u32>,
}

/// A memory address: an optional symbol, registers, and an offset.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Address {
    /// The symbol (`x` in `[x]`), if any.
    pub symbol: Option<String>,
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
    pub label: String,
    /// The register written, if any.
    pub dest: Option<String>,
    /// The opcode as written.
    pub opcode: String,
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

    /// A memory operation without a destination writes memory.
    pub fn writes_memory(&self) -> bool {
        self.address().is_some() && self.dest.is_none()
    }

    /// Every register this operation reads (operands and addresses).
    pub fn reg_uses(&self) -> impl Iterator<Item = &RegUse> {
        self.operands
            .iter()
            .flat_map(|o| -> Box<dyn Iterator<Item = &RegUse>> {
                match o {
                    Operand::Reg(r) => Box::new(std::iter::once(r)),
                    Operand::Mem(a) => Box::new(a.regs.iter()),
                    Operand::Imm(_) => Box::new(std::iter::empty()),
                }
            })
    }

    /// The operation as written in the lab format, after the label.
    pub fn text(&self) -> String {
        let mut s = String::new();
        if let Some(d) = &self.dest {
            s.push_str(d);
            s.push_str(" = ");
        }
        s.push_str(&self.opcode);
        for (i, o) in self.operands.iter().enumerate() {
            s.push_str(if i == 0 { " " } else { ", " });
            match o {
                Operand::Reg(r) => push_reg(&mut s, r),
                Operand::Imm(v) => s.push_str(&v.to_string()),
                Operand::Mem(a) => {
                    s.push('[');
                    let mut first = true;
                    let mut sep = |s: &mut String| {
                        if !first {
                            s.push_str(" + ");
                        }
                        first = false;
                    };
                    if let Some(sym) = &a.symbol {
                        sep(&mut s);
                        s.push_str(sym);
                    }
                    for r in &a.regs {
                        sep(&mut s);
                        push_reg(&mut s, r);
                    }
                    if let Some(off) = a.offset {
                        sep(&mut s);
                        s.push_str(&off.to_string());
                    }
                    s.push(']');
                }
            }
        }
        s
    }
}

fn push_reg(s: &mut String, r: &RegUse) {
    s.push_str(&r.name);
    if let Some(k) = r.at {
        s.push('@');
        s.push_str(&k.to_string());
    }
}

/// Why an edge exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum EdgeKind {
    /// Register flow through the register its source defines
    /// ([`Program::edge_register`]).
    #[serde(rename = "register")]
    Reg,
    /// Possible memory aliasing.
    #[serde(rename = "memory")]
    Mem,
}

/// An operation as JSON (`ops` of product.md §6). Fields are declared in
/// alphabetical order, the order every JSON object of the crate prints its
/// keys in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpInfo {
    /// The class name.
    pub class: String,
    /// The label.
    pub label: String,
    /// The operation as written in the lab format, after the label.
    pub text: String,
}

/// A dependence as JSON (`edges` of product.md §6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeInfo {
    /// Iteration distance d.
    pub distance: u32,
    /// The producer's label.
    pub from: String,
    /// `register` or `memory`.
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
    /// Register or memory dependence.
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
    /// A topological order of the distance-0 edges.
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

    /// A topological order of the distance-0 edges.
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
    pub fn op_ids(&self) -> impl Iterator<Item = OpId> {
        (0..self.ops.len()).map(OpId::from_index)
    }

    /// The operation with this label, if any.
    pub fn op_by_label(&self, label: &str) -> Option<OpId> {
        self.ops
            .iter()
            .position(|o| o.label == label)
            .map(OpId::from_index)
    }

    /// The register a register edge carries: the one its source defines.
    pub fn edge_register(&self, e: &Edge) -> Option<&str> {
        match e.kind {
            EdgeKind::Reg => self.op(e.from).dest.as_deref(),
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
                label: o.label.clone(),
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

    /// Builds the program from parsed operations: adjacency, and the check
    /// that distance-0 edges form no cycle.
    fn assemble(
        name: String,
        kind: Kind,
        ops: Vec<Op>,
        edges: Vec<Edge>,
    ) -> Result<Program, Diagnostic> {
        let n = ops.len();
        let succs = Adjacency::build(n, &edges, |e| e.from.index());
        let preds = Adjacency::build(n, &edges, |e| e.to.index());
        let mut indeg: Vec<u32> = vec![0; n];
        for e in edges.iter().filter(|e| e.distance == 0) {
            indeg[e.to.index()] += 1;
        }
        let mut stack: Vec<usize> = (0..n).rev().filter(|&i| indeg[i] == 0).collect();
        let mut topo = Vec::with_capacity(n);
        while let Some(u) = stack.pop() {
            topo.push(OpId::from_index(u));
            for &ei in succs[u].iter().rev() {
                let e = &edges[ei as usize];
                if e.distance == 0 {
                    let v = e.to.index();
                    indeg[v] -= 1;
                    if indeg[v] == 0 {
                        stack.push(v);
                    }
                }
            }
        }
        let mut p = Program {
            name,
            kind,
            ops,
            edges,
            succs,
            preds,
            topo,
        };
        if p.topo.len() != n {
            let cycle = p.zero_distance_cycle(&indeg);
            let first = &p.ops[cycle[0].index()];
            let names: Vec<&str> = cycle
                .iter()
                .chain(std::iter::once(&cycle[0]))
                .map(|&o| p.label(o))
                .collect();
            return Err(Diagnostic {
                line: first.line,
                column: 1,
                message: format!(
                    "zero-distance dependence cycle {}: an operation would have to wait for itself",
                    names.join(" → ")
                ),
            });
        }
        p.topo.shrink_to_fit();
        Ok(p)
    }

    /// A cycle among the operations Kahn's algorithm could not order.
    fn zero_distance_cycle(&mut self, indeg: &[u32]) -> Vec<OpId> {
        let start = indeg.iter().position(|&d| d > 0).unwrap_or(0);
        // Walk backwards along distance-0 predecessors that are still blocked:
        // every blocked node has one, so the walk must repeat a node.
        let mut seen: HashMap<usize, usize> = HashMap::new();
        let mut path = Vec::new();
        let mut u = start;
        loop {
            if let Some(&pos) = seen.get(&u) {
                let mut cyc: Vec<OpId> = path[pos..].iter().map(|&i| OpId::from_index(i)).collect();
                cyc.reverse();
                // Start at the operation that comes first in the source.
                if let Some(first) = cyc
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, o)| **o)
                    .map(|(i, _)| i)
                {
                    cyc.rotate_left(first);
                }
                return cyc;
            }
            seen.insert(u, path.len());
            path.push(u);
            let next = self.preds[u]
                .iter()
                .map(|&e| &self.edges[e as usize])
                .find(|e| e.distance == 0 && indeg[e.from.index()] > 0)
                .map(|e| e.from.index());
            match next {
                Some(v) => u = v,
                None => return vec![OpId::from_index(start)],
            }
        }
    }
}

// ---------------------------------------------------------------- lexer

/// A token; names borrow the input text, so lexing allocates nothing per
/// name.
#[derive(Clone, Debug, PartialEq)]
enum Tok<'t> {
    Ident(&'t str),
    Int(i64),
    Punct(char),
    /// An integer literal too large for i64.
    BigInt,
}

struct Lexed<'t> {
    tok: Tok<'t>,
    col: u32,
}

/// Splits one line into tokens with their 1-based character columns. Every
/// token is ASCII, so the scan walks bytes; only whitespace may be wider,
/// and the column counts characters, not bytes.
fn lex(line: &str) -> Result<Vec<Lexed<'_>>, (u32, String)> {
    let b = line.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
    let mut out = Vec::new();
    let mut i = 0;
    let mut col = 1u32;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if !c.is_ascii() {
            let Some(ch) = line[i..].chars().next() else {
                break;
            };
            if !ch.is_whitespace() {
                return Err((col, format!("unexpected character {ch:?}")));
            }
            i += ch.len_utf8();
        } else if (c as char).is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'.' {
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            out.push(Lexed {
                tok: Tok::Ident(&line[start..i]),
                col,
            });
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let text = &line[start..i];
            if i < b.len() && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
                return Err((
                    col,
                    format!("'{text}{}…' is neither a number nor a name", b[i] as char),
                ));
            }
            out.push(Lexed {
                tok: text.parse().map(Tok::Int).unwrap_or(Tok::BigInt),
                col,
            });
        } else if b":,=[]+@".contains(&c) {
            out.push(Lexed {
                tok: Tok::Punct(c as char),
                col,
            });
            i += 1;
        } else {
            return Err((col, format!("unexpected character {:?}", c as char)));
        }
        // Tokens are ASCII: one column per byte; wide whitespace is one column.
        col += if c.is_ascii() { (i - start) as u32 } else { 1 };
    }
    Ok(out)
}

fn describe(t: Option<&Lexed<'_>>) -> String {
    match t.map(|l| &l.tok) {
        None => "end of line".into(),
        Some(Tok::Ident(s)) => format!("'{s}'"),
        Some(Tok::Int(v)) => format!("'{v}'"),
        Some(Tok::BigInt) => "a number".into(),
        Some(Tok::Punct(c)) => format!("'{c}'"),
    }
}

/// A cursor over one line's tokens.
struct Cursor<'a, 't> {
    toks: &'a [Lexed<'t>],
    pos: usize,
    /// Column just past the end of the line, for "expected … at end of line".
    end_col: u32,
}

type LineResult<T> = Result<T, (u32, String)>;

impl<'a, 't> Cursor<'a, 't> {
    fn peek(&self) -> Option<&'a Lexed<'t>> {
        self.toks.get(self.pos)
    }
    fn col(&self) -> u32 {
        self.peek().map_or(self.end_col, |l| l.col)
    }
    fn fail<T>(&self, expected: &str) -> LineResult<T> {
        Err((
            self.col(),
            format!("expected {expected}, found {}", describe(self.peek())),
        ))
    }
    fn ident(&mut self, what: &str) -> LineResult<(&'t str, u32)> {
        match self.peek() {
            Some(Lexed {
                tok: Tok::Ident(s),
                col,
            }) => {
                self.pos += 1;
                Ok((*s, *col))
            }
            _ => self.fail(what),
        }
    }
    fn eat(&mut self, c: char) -> bool {
        if matches!(self.peek(), Some(Lexed { tok: Tok::Punct(p), .. }) if *p == c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char, what: &str) -> LineResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.fail(what)
        }
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    /// `@k` after a register name.
    fn distance(&mut self) -> LineResult<Option<u32>> {
        if !self.eat('@') {
            return Ok(None);
        }
        match self.peek() {
            Some(Lexed {
                tok: Tok::Int(v),
                col,
            }) => {
                self.pos += 1;
                if *v < 1 || *v > 1_000_000 {
                    Err((
                        *col,
                        format!("a distance r@k needs 1 ≤ k ≤ 1000000, got {v}"),
                    ))
                } else {
                    Ok(Some(*v as u32))
                }
            }
            _ => self.fail("an iteration distance after '@' (r@1 reads the previous iteration)"),
        }
    }
    fn int(&mut self) -> LineResult<i64> {
        match self.peek() {
            Some(Lexed {
                tok: Tok::Int(v), ..
            }) => {
                self.pos += 1;
                Ok(*v)
            }
            Some(Lexed {
                tok: Tok::BigInt,
                col,
            }) => Err((*col, "integer does not fit in 64 bits".to_string())),
            _ => self.fail("an integer"),
        }
    }
}

/// An address term before we know which names are registers.
struct RawAddr<'t> {
    names: Vec<(&'t str, Option<u32>, u32)>,
    offset: Option<i64>,
    col: u32,
}

enum RawOperand<'t> {
    Name(&'t str, Option<u32>, u32),
    Imm(i64),
    Mem(RawAddr<'t>),
}

struct RawOp<'t> {
    label: &'t str,
    label_col: u32,
    dest: Option<(&'t str, u32)>,
    opcode: &'t str,
    opcode_col: u32,
    operands: Vec<RawOperand<'t>>,
    line: u32,
}

fn parse_operand<'t>(c: &mut Cursor<'_, 't>) -> LineResult<RawOperand<'t>> {
    match c.peek().map(|l| &l.tok) {
        Some(Tok::Punct('[')) => {
            let col = c.col();
            c.pos += 1;
            let mut addr = RawAddr {
                names: Vec::new(),
                offset: None,
                col,
            };
            loop {
                match c.peek().map(|l| &l.tok) {
                    Some(Tok::Ident(_)) => {
                        let (n, ncol) = c.ident("a name")?;
                        let at = c.distance()?;
                        addr.names.push((n, at, ncol));
                    }
                    Some(Tok::Int(_)) | Some(Tok::BigInt) => {
                        let ocol = c.col();
                        let v = c.int()?;
                        if addr.offset.is_some() {
                            return Err((ocol, "an address holds at most one offset".into()));
                        }
                        addr.offset = Some(v);
                    }
                    _ => return c.fail("a symbol, register or offset inside '[…]'"),
                }
                if c.eat(']') {
                    break;
                }
                c.expect('+', "'+' or ']' in a memory address")?;
            }
            if addr.names.len() > 2 {
                return Err((
                    col,
                    "an address is SYMBOL, REGISTER or SYMBOL + REGISTER".into(),
                ));
            }
            Ok(RawOperand::Mem(addr))
        }
        Some(Tok::Ident(_)) => {
            let (n, col) = c.ident("an operand")?;
            let at = c.distance()?;
            Ok(RawOperand::Name(n, at, col))
        }
        Some(Tok::Int(_)) | Some(Tok::BigInt) => Ok(RawOperand::Imm(c.int()?)),
        _ => c.fail("an operand (register, integer or [address])"),
    }
}

fn parse_op_line<'t>(toks: &[Lexed<'t>], end_col: u32, line: u32) -> LineResult<RawOp<'t>> {
    let mut c = Cursor {
        toks,
        pos: 0,
        end_col,
    };
    let (label, label_col) = c.ident("a label")?;
    c.expect(':', "':' after the label")?;
    let (first, first_col) = c.ident("an opcode or a destination register")?;
    let (dest, opcode, opcode_col) = if c.eat('=') {
        let (op, col) = c.ident("an opcode after '='")?;
        (Some((first, first_col)), op, col)
    } else {
        (None, first, first_col)
    };
    let mut operands = Vec::new();
    if !c.at_end() {
        loop {
            operands.push(parse_operand(&mut c)?);
            if c.at_end() {
                break;
            }
            c.expect(',', "',' between operands")?;
        }
    }
    Ok(RawOp {
        label,
        label_col,
        dest,
        opcode,
        opcode_col,
        operands,
        line,
    })
}

/// Parses a lab input. `origin` names the file in diagnostics.
pub fn parse(text: &str, origin: &str, machine: &Machine) -> Result<Program, Diagnostics> {
    parse_limited(text, origin, machine, MAX_EDGES)
}

/// [`parse`] refusing more than `max_edges` dependences.
fn parse_limited(
    text: &str,
    origin: &str,
    machine: &Machine,
    max_edges: usize,
) -> Result<Program, Diagnostics> {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let err = |diags: Vec<Diagnostic>| {
        Diagnostics(
            diags
                .into_iter()
                .map(|d| formats::Diagnostic::new(origin, d.line, d.column, d.message))
                .collect(),
        )
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut header: Option<(Kind, String)> = None;
    let mut raw_ops: Vec<RawOp> = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        if diags.len() >= MAX_DIAGNOSTICS {
            break;
        }
        let ln = ln as u32 + 1;
        let body = line.split('#').next().unwrap_or("");
        let body = body.trim_end_matches('\r');
        let end_col = body.chars().count() as u32 + 1;
        let toks = match lex(body) {
            Ok(t) => t,
            Err((col, message)) => {
                diags.push(Diagnostic {
                    line: ln,
                    column: col,
                    message,
                });
                continue;
            }
        };
        if toks.is_empty() {
            continue;
        }
        if header.is_none() {
            let kind = match &toks[0].tok {
                Tok::Ident(s) if *s == "block" => Some(Kind::Block),
                Tok::Ident(s) if *s == "loop" => Some(Kind::Loop),
                _ => None,
            };
            match (kind, toks.get(1).map(|t| &t.tok), toks.len()) {
                (Some(k), Some(Tok::Ident(name)), 2) => header = Some((k, name.to_string())),
                (Some(_), _, _) => {
                    let col = toks.get(1).map_or(end_col, |t| t.col);
                    diags.push(Diagnostic {
                        line: ln,
                        column: col,
                        message: "expected a name after 'block'/'loop' and nothing else".into(),
                    });
                    header = Some((Kind::Block, String::new()));
                }
                (None, _, _) => {
                    diags.push(Diagnostic {
                        line: ln,
                        column: toks[0].col,
                        message: format!(
                            "expected the header 'block NAME' or 'loop NAME', found {}",
                            describe(toks.first())
                        ),
                    });
                    // Parse the rest as a block so later lines still get checked.
                    header = Some((Kind::Block, String::new()));
                    if let Ok(op) = parse_op_line(&toks, end_col, ln) {
                        raw_ops.push(op);
                    }
                }
            }
            continue;
        }
        match parse_op_line(&toks, end_col, ln) {
            Ok(op) => raw_ops.push(op),
            Err((col, message)) => diags.push(Diagnostic {
                line: ln,
                column: col,
                message,
            }),
        }
    }
    let Some((kind, name)) = header else {
        return Err(err(vec![Diagnostic {
            line: 1,
            column: 1,
            message: "empty input: expected the header 'block NAME' or 'loop NAME'".into(),
        }]));
    };
    if raw_ops.is_empty() && diags.is_empty() {
        diags.push(Diagnostic {
            line: text.lines().count().max(1) as u32,
            column: 1,
            message: format!("{} '{name}' has no operations", kind.as_str()),
        });
    }

    // Labels and destinations.
    let mut labels: HashMap<&str, u32> = HashMap::with_capacity(raw_ops.len());
    let mut defs: HashMap<&str, (usize, u32)> = HashMap::with_capacity(raw_ops.len());
    for (i, op) in raw_ops.iter().enumerate() {
        if let Some(prev) = labels.insert(op.label, op.line) {
            diags.push(Diagnostic {
                line: op.line,
                column: op.label_col,
                message: format!("label '{}' is already used on line {prev}", op.label),
            });
        }
        if let Some((d, col)) = &op.dest {
            if let Some(&(j, line)) = defs.get(d) {
                diags.push(Diagnostic {
                    line: op.line,
                    column: *col,
                    message: format!(
                        "register {d} is already defined by {} on line {line}; a {} defines each register once{}",
                        raw_ops[j].label,
                        kind.as_str(),
                        if kind == Kind::Block { " (renamed code)" } else { " per iteration" }
                    ),
                });
            } else {
                defs.insert(d, (i, op.line));
            }
        }
    }

    // Resolve operands and classes.
    let mut ops: Vec<Op> = Vec::with_capacity(raw_ops.len());
    for op in &raw_ops {
        let class = match machine.class_by_opcode(op.opcode) {
            Some(c) => c,
            None => {
                let known: Vec<&str> = machine.opcodes().collect();
                diags.push(Diagnostic {
                    line: op.line,
                    column: op.opcode_col,
                    message: format!(
                        "unknown opcode '{}' for machine {} (known: {})",
                        op.opcode,
                        machine.name(),
                        known.join(" ")
                    ),
                });
                ClassId(0)
            }
        };
        let mut operands = Vec::with_capacity(op.operands.len());
        let mut mem_count = 0;
        for o in &op.operands {
            operands.push(match o {
                RawOperand::Name(n, at, col) => {
                    check_at(&mut diags, kind, &defs, op.line, *at, *col, n);
                    Operand::Reg(RegUse {
                        name: n.to_string(),
                        at: *at,
                    })
                }
                RawOperand::Imm(v) => Operand::Imm(*v),
                RawOperand::Mem(a) => {
                    mem_count += 1;
                    if mem_count == 2 {
                        diags.push(Diagnostic {
                            line: op.line,
                            column: a.col,
                            message: "an operation has at most one memory operand".into(),
                        });
                    }
                    let mut addr = Address {
                        offset: a.offset,
                        ..Address::default()
                    };
                    for (n, at, col) in &a.names {
                        if defs.contains_key(n) {
                            check_at(&mut diags, kind, &defs, op.line, *at, *col, n);
                            addr.regs.push(RegUse {
                                name: n.to_string(),
                                at: *at,
                            });
                        } else if at.is_some() {
                            check_at(&mut diags, kind, &defs, op.line, *at, *col, n);
                        } else if addr.symbol.is_some() {
                            diags.push(Diagnostic {
                                line: op.line,
                                column: *col,
                                message: format!(
                                    "'{n}' is a second symbol in this address (no operation defines it, so it is not a register)"
                                ),
                            });
                        } else {
                            addr.symbol = Some(n.to_string());
                        }
                    }
                    if addr.symbol.is_none() && addr.regs.is_empty() {
                        addr.symbol = Some(a.offset.unwrap_or(0).to_string());
                        addr.offset = None;
                    }
                    Operand::Mem(addr)
                }
            });
        }
        ops.push(Op {
            label: op.label.to_string(),
            dest: op.dest.map(|(d, _)| d.to_string()),
            opcode: op.opcode.to_string(),
            class,
            operands,
            line: op.line,
        });
    }
    if !diags.is_empty() {
        diags.truncate(MAX_DIAGNOSTICS);
        return Err(err(diags));
    }

    // The names in `defs` borrow the text, not the raw operations.
    drop((labels, raw_ops));
    let edges = build_edges(kind, &ops, &defs, machine, max_edges).map_err(|d| err(vec![d]))?;
    Program::assemble(name, kind, ops, edges).map_err(|d| err(vec![d]))
}

/// Reports a misplaced `r@k`: in a block, or on a name the loop never defines.
fn check_at(
    diags: &mut Vec<Diagnostic>,
    kind: Kind,
    defs: &HashMap<&str, (usize, u32)>,
    line: u32,
    at: Option<u32>,
    column: u32,
    name: &str,
) {
    let message = if at.is_some() && kind == Kind::Block {
        format!("'{name}@k' reads an earlier iteration: only loops have those")
    } else if at.is_some() && !defs.contains_key(name) {
        format!("'{name}@k' names a register that no operation of the loop defines")
    } else {
        return;
    };
    diags.push(Diagnostic {
        line,
        column,
        message,
    });
}

/// Register and memory dependences (Lesson 23.2), deduplicated per
/// `(from, to, distance)` keeping the largest latency. `defs` maps each
/// register to the operation defining it (and that operation's line). More
/// than `max_edges` dependences are refused at the operation where the
/// count was passed, found in source order.
fn build_edges(
    kind: Kind,
    ops: &[Op],
    defs: &HashMap<&str, (usize, u32)>,
    machine: &Machine,
    max_edges: usize,
) -> Result<Vec<Edge>, Diagnostic> {
    let mut edges: Vec<Edge> = Vec::with_capacity(ops.len() * 2);
    let lat = |i: usize| machine.class(ops[i].class).latency;
    for (j, op) in ops.iter().enumerate() {
        let advance = machine.class(op.class).read_advance;
        for u in op.reg_uses() {
            let Some(&(i, _)) = defs.get(u.name.as_str()) else {
                continue; // live-in value
            };
            let distance = match (kind, u.at) {
                (Kind::Block, _) => 0,
                (Kind::Loop, Some(k)) => k,
                (Kind::Loop, None) => u32::from(i >= j),
            };
            edges.push(Edge {
                from: OpId::from_index(i),
                to: OpId::from_index(j),
                latency: lat(i).saturating_sub(advance),
                distance,
                kind: EdgeKind::Reg,
            });
        }
    }

    // Memory: index by symbol so the work is proportional to the pairs found.
    // The groups of plain-symbol operations are kept in the order their
    // symbols first appear, so everything below runs in source order.
    let mut group_of: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut with_reg: Vec<usize> = Vec::new();
    let mut all_mem: Vec<usize> = Vec::new();
    let mem_lat = |i: usize| if ops[i].writes_memory() { lat(i) } else { 0 };
    let too_many = |op: &Op| {
        Diagnostic {
        line: op.line,
        column: 1,
        message: format!(
            "more than {max_edges} dependences: too many memory operations may alias (an address through a register aliases every other)"
        ),
    }
    };
    for (j, op) in ops.iter().enumerate() {
        let Some(a) = op.address() else { continue };
        if edges.len() > max_edges {
            return Err(too_many(op));
        }
        let w = op.writes_memory();
        let pair = |i: usize, edges: &mut Vec<Edge>| {
            if w || ops[i].writes_memory() {
                edges.push(Edge {
                    from: OpId::from_index(i),
                    to: OpId::from_index(j),
                    latency: mem_lat(i),
                    distance: 0,
                    kind: EdgeKind::Mem,
                });
            }
        };
        let sym = a.symbol.as_deref().unwrap_or("");
        if !a.regs.is_empty() {
            for &i in &all_mem {
                pair(i, &mut edges);
            }
        } else {
            let mut earlier: Vec<usize> = group_of
                .get(sym)
                .map(|&g| groups[g].clone())
                .unwrap_or_default();
            earlier.extend(with_reg.iter().copied());
            earlier.sort_unstable();
            for i in earlier {
                pair(i, &mut edges);
            }
        }
        all_mem.push(j);
        if a.regs.is_empty() {
            let g = *group_of.entry(sym).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(j);
        } else {
            with_reg.push(j);
        }
    }
    if kind == Kind::Loop {
        // Across iterations only through the same plain symbol: a later (or
        // the same) operation of iteration k before an earlier one of k+1.
        for group in &groups {
            if edges.len() > max_edges {
                return Err(too_many(&ops[group[0]]));
            }
            for (x, &j) in group.iter().enumerate() {
                for &i in &group[x..] {
                    if ops[i].writes_memory() || ops[j].writes_memory() {
                        edges.push(Edge {
                            from: OpId::from_index(i),
                            to: OpId::from_index(j),
                            latency: mem_lat(i),
                            distance: 1,
                            kind: EdgeKind::Mem,
                        });
                    }
                }
            }
        }
    }

    // Deduplicate per (from, to, distance), keeping the first edge of the
    // largest latency: register edges come first, so they win ties. A
    // stable sort keeps generation order within each key.
    edges.sort_by_key(|e| (e.from, e.to, e.distance));
    edges.dedup_by(|later, kept| {
        let same = (later.from, later.to, later.distance) == (kept.from, kept.to, kept.distance);
        if same && later.latency > kept.latency {
            *kept = *later;
        }
        same
    });
    edges.shrink_to_fit();
    Ok(edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub const RUNNING: &str = include_str!("../../labs/ch23-sched/inputs/running.txt");

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
        assert!(errors("block b\na: r1 = li 1\nb: r1 = li 2\n")
            .starts_with("in.txt:3:4: register r1 is already defined by a"));
        assert!(
            errors("block b\na: r1 = load [x\n").starts_with("in.txt:2:16: expected '+' or ']'")
        );
        assert!(errors("block b\na: r1 = load [x + y]\n").contains("second symbol"));
        assert!(errors("block b\na: r1 = add r2, 1\nb: r2 = add r1, 1\n")
            .contains("zero-distance dependence cycle"));
        assert!(errors("block b\na r1 = li 1\n")
            .starts_with("in.txt:2:3: expected ':' after the label"));
        assert!(errors("block b\na: r1 = add r2@1, 1\n").contains("only loops"));
        assert!(errors("loop l\na: r1 = add r2@0, 1\n").contains("1 ≤ k"));
        assert!(
            errors("loop l\na: r1 = add r9@1, 1\n").contains("no operation of the loop defines")
        );
        assert!(errors("block b\na: r1 = li 99999999999999999999\n").contains("64 bits"));
        assert!(errors("block b\na: r1 = li 1\na: r2 = li 2\n")
            .contains("label 'a' is already used on line 2"));
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
