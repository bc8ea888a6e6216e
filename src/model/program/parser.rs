//! The lab-format parser: a byte-wise lexer over each line, a cursor over
//! its tokens, then labels, destinations, classes and operands resolved
//! against the machine. Every problem is a located diagnostic.

use std::collections::HashMap;

use super::deps::build_edges;
use super::{Address, Diagnostic, Kind, Op, Operand, Program, RegUse, MAX_DIAGNOSTICS, MAX_EDGES};
use crate::formats::diagnostic::{self as formats, Diagnostics};
use crate::model::ids::ClassId;
use crate::model::machine::Machine;

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
pub(super) fn parse_limited(
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
        if crate::formats::submission::is_reserved_label(op.label) {
            diags.push(Diagnostic {
                line: op.line,
                column: op.label_col,
                message: format!(
                    "the label '{}' is reserved: a submission's 'ii N' line gives the initiation interval; choose another label",
                    op.label
                ),
            });
        }
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
        // A load-op (a memory operand and a destination) takes its class's
        // folded-load form when the machine has one (Definition 23.1.8).
        let class = match machine.memory_form(class) {
            Some(m) if mem_count > 0 && op.dest.is_some() => m,
            _ => class,
        };
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
