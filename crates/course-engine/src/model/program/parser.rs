//! The lab-format parser: a byte-wise lexer over each line, a cursor over
//! its tokens, then labels, destinations, classes and operands resolved
//! against the machine. Every problem is a located diagnostic.
//!
//! Two passes over the lines keep memory to the program itself: the first
//! checks the syntax and collects labels and destinations (whether a name
//! in an address is a register depends on every line), the second builds
//! the operations directly. Tokens borrow the text and go into one buffer
//! reused for every line; names become inline [`Name`]s.

use super::deps::build_edges;
use super::resolve::{Def, Defs, Resolver};
use super::{Address, Diagnostic, Kind, MAX_DIAGNOSTICS, MAX_EDGES, Op, Operand, Program, RegUse};
use crate::formats::diagnostic::{self as formats, Diagnostics};
use crate::model::form::{Form, IMM, MAX_DESTS, MEM, REG, Shape};
use crate::model::ids::ClassId;
use crate::model::machine::Machine;
use crate::util::name::{Name, NameIndex, Repeat, repeats};

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

/// What a byte can start, for [`lex`].
const OTHER: u8 = 0;
const SPACE: u8 = 1;
const NAME: u8 = 2;
const DIGIT: u8 = 3;
const MINUS: u8 = 4;
const PUNCT: u8 = 5;
const WIDE: u8 = 6;

/// The class of every byte: [`NAME`] for letters, `_` and `.`; [`SPACE`]
/// for the ASCII characters `char::is_whitespace` accepts; [`WIDE`] for
/// the bytes of characters beyond ASCII.
const CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0x80 {
            WIDE
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'.' {
            NAME
        } else if c.is_ascii_digit() {
            DIGIT
        } else if c == b'-' {
            MINUS
        } else if matches!(c, b':' | b',' | b'=' | b'[' | b']' | b'+' | b'@') {
            PUNCT
        } else if matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
            SPACE
        } else {
            OTHER
        };
        b += 1;
    }
    t
};

/// Whether a byte continues a name (letters, digits, `_`, `.`).
fn name_byte(c: u8) -> bool {
    matches!(CLASS[c as usize], NAME | DIGIT)
}

/// Splits one line into tokens with their 1-based character columns. Every
/// token is ASCII, so the scan walks bytes; only whitespace may be wider,
/// and the column counts characters, not bytes.
fn lex<'t>(line: &'t str, out: &mut Vec<Lexed<'t>>) -> Result<(), (u32, String)> {
    out.clear();
    let b = line.as_bytes();
    let mut i = 0;
    let mut col = 1u32;
    while i < b.len() {
        let c = b[i];
        let start = i;
        match CLASS[c as usize] {
            SPACE => i += 1,
            NAME => {
                i += 1;
                while i < b.len() && name_byte(b[i]) {
                    i += 1;
                }
                out.push(Lexed {
                    tok: Tok::Ident(&line[start..i]),
                    col,
                });
            }
            DIGIT | MINUS if c != b'-' || b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
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
                    tok: int_token(text),
                    col,
                });
            }
            PUNCT => {
                out.push(Lexed {
                    tok: Tok::Punct(c as char),
                    col,
                });
                i += 1;
            }
            WIDE => {
                let Some(ch) = line[i..].chars().next() else {
                    break;
                };
                if !ch.is_whitespace() {
                    return Err((col, format!("unexpected character {ch:?}")));
                }
                i += ch.len_utf8();
                // Wide whitespace is one column.
                col += 1;
                continue;
            }
            _ => return Err((col, format!("unexpected character {:?}", c as char))),
        }
        // Tokens are ASCII: one column per byte.
        col += (i - start) as u32;
    }
    Ok(())
}

/// An integer literal (`-`? digits): its value, or [`Tok::BigInt`] when it
/// does not fit in an i64.
fn int_token(text: &str) -> Tok<'_> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    // Accumulated negatively, so i64::MIN fits.
    let mut v: i64 = 0;
    for &d in digits.as_bytes() {
        match v
            .checked_mul(10)
            .and_then(|v| v.checked_sub(i64::from(d - b'0')))
        {
            Some(x) => v = x,
            None => return Tok::BigInt,
        }
    }
    if neg {
        Tok::Int(v)
    } else {
        v.checked_neg().map_or(Tok::BigInt, Tok::Int)
    }
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
        if self.eat(c) { Ok(()) } else { self.fail(what) }
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

/// A name as written: the text, an `@k` distance, its column.
type RawName<'t> = (&'t str, Option<u32>, u32);

/// An operand before we know which names are registers; an address's
/// names are `names[start .. start + len]` of the line's name buffer.
#[derive(Clone, Copy)]
enum RawOperand<'t> {
    Name(RawName<'t>),
    Imm(i64, u32),
    Mem {
        start: u32,
        len: u32,
        offset: Option<i64>,
        col: u32,
    },
}

/// One line's operation, its operands and address names in buffers that
/// every line reuses.
struct RawOp<'t> {
    label: &'t str,
    label_col: u32,
    dest: Option<(&'t str, u32)>,
    opcode: &'t str,
    opcode_col: u32,
}

/// The buffers a line's operands are parsed into.
#[derive(Default)]
struct Scratch<'t> {
    operands: Vec<RawOperand<'t>>,
    names: Vec<RawName<'t>>,
    /// The destinations after the first (`q1, x9` in `a: q0, q1, x9 = ldp …`).
    more_dests: Vec<(&'t str, u32)>,
}

fn parse_operand<'t>(
    c: &mut Cursor<'_, 't>,
    names: &mut Vec<RawName<'t>>,
) -> LineResult<RawOperand<'t>> {
    match c.peek().map(|l| &l.tok) {
        Some(Tok::Punct('[')) => {
            let col = c.col();
            c.pos += 1;
            let start = names.len();
            let mut offset = None;
            loop {
                match c.peek().map(|l| &l.tok) {
                    Some(Tok::Ident(_)) => {
                        let (n, ncol) = c.ident("a name")?;
                        let at = c.distance()?;
                        names.push((n, at, ncol));
                    }
                    Some(Tok::Int(_)) | Some(Tok::BigInt) => {
                        let ocol = c.col();
                        let v = c.int()?;
                        if offset.is_some() {
                            return Err((ocol, "an address holds at most one offset".into()));
                        }
                        offset = Some(v);
                    }
                    _ => return c.fail("a symbol, register or offset inside '[…]'"),
                }
                if c.eat(']') {
                    break;
                }
                c.expect('+', "'+' or ']' in a memory address")?;
            }
            if names.len() - start > 2 {
                return Err((
                    col,
                    "an address is SYMBOL, REGISTER or SYMBOL + REGISTER".into(),
                ));
            }
            Ok(RawOperand::Mem {
                start: start as u32,
                len: (names.len() - start) as u32,
                offset,
                col,
            })
        }
        Some(Tok::Ident(_)) => {
            let (n, col) = c.ident("an operand")?;
            let at = c.distance()?;
            Ok(RawOperand::Name((n, at, col)))
        }
        Some(Tok::Int(_)) | Some(Tok::BigInt) => {
            let col = c.col();
            Ok(RawOperand::Imm(c.int()?, col))
        }
        _ => c.fail("an operand (register, integer or [address])"),
    }
}

fn parse_op_line<'t>(
    toks: &[Lexed<'t>],
    end_col: u32,
    scratch: &mut Scratch<'t>,
) -> LineResult<RawOp<'t>> {
    scratch.operands.clear();
    scratch.names.clear();
    let mut c = Cursor {
        toks,
        pos: 0,
        end_col,
    };
    let (label, label_col) = c.ident("a label")?;
    c.expect(':', "':' after the label")?;
    scratch.more_dests.clear();
    let (first, first_col) = c.ident("an opcode or a destination register")?;
    if c.eat(',') {
        // A list of destinations: `d1, d2, … = opcode …`.
        loop {
            if scratch.more_dests.len() + 1 >= MAX_DESTS {
                return Err((
                    c.col(),
                    format!("an operation writes at most {MAX_DESTS} registers"),
                ));
            }
            scratch.more_dests.push(c.ident("a destination register")?);
            if !c.eat(',') {
                break;
            }
        }
        c.expect('=', "'=' after the destination registers")?;
        let (op, col) = c.ident("an opcode after '='")?;
        parse_operands(&mut c, scratch)?;
        return Ok(RawOp {
            label,
            label_col,
            dest: Some((first, first_col)),
            opcode: op,
            opcode_col: col,
        });
    }
    let (dest, opcode, opcode_col) = if c.eat('=') {
        let (op, col) = c.ident("an opcode after '='")?;
        (Some((first, first_col)), op, col)
    } else {
        (None, first, first_col)
    };
    parse_operands(&mut c, scratch)?;
    Ok(RawOp {
        label,
        label_col,
        dest,
        opcode,
        opcode_col,
    })
}

/// The operands after the opcode, up to the end of the line.
fn parse_operands<'t>(c: &mut Cursor<'_, 't>, scratch: &mut Scratch<'t>) -> LineResult<()> {
    if !c.at_end() {
        loop {
            let o = parse_operand(c, &mut scratch.names)?;
            scratch.operands.push(o);
            if c.at_end() {
                break;
            }
            c.expect(',', "',' between operands")?;
        }
    }
    Ok(())
}

/// Parses a lab input. `origin` names the file in diagnostics.
pub fn parse(text: &str, origin: &str, machine: &Machine) -> Result<Program, Diagnostics> {
    parse_limited(text, origin, machine, MAX_EDGES)
}

/// What a line of the input is, once its tokens are known.
enum LineKind {
    /// Blank or a comment.
    Empty,
    /// The header.
    Header,
    /// A bad header, parsed as an operation as well so later lines still
    /// get checked.
    BadHeaderOp,
    /// An operation.
    Op,
}

/// [`parse`] refusing more than `max_edges` dependences.
pub(super) fn parse_limited(
    text: &str,
    origin: &str,
    machine: &Machine,
    max_edges: usize,
) -> Result<Program, Diagnostics> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut toks: Vec<Lexed> = Vec::new();
    let mut scratch = Scratch::default();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut outline = outline(text, &mut toks, &mut scratch, &mut diags);
    let Some((kind, name)) = outline.header.take() else {
        return Err(located(
            origin,
            vec![Diagnostic {
                line: 1,
                column: 1,
                message: "empty input: expected the header 'block NAME' or 'loop NAME'".into(),
            }],
        ));
    };
    if outline.nops == 0 && diags.is_empty() {
        diags.push(Diagnostic {
            line: text.lines().count().max(1) as u32,
            column: 1,
            message: format!("{} '{name}' has no operations", kind.as_str()),
        });
    }
    let (defs, redefined) = NameIndex::build(&outline.dests);
    name_diagnostics(kind, &outline, &redefined, &mut diags);
    let (nops, last_line) = (outline.nops, outline.last_line);
    drop((outline, redefined));

    let (ops, mut diags) = Builder::new(machine, kind, &defs, diags).build(
        text,
        last_line,
        nops,
        &mut toks,
        &mut scratch,
    );
    if !diags.is_empty() {
        diags.truncate(MAX_DIAGNOSTICS);
        return Err(located(origin, diags));
    }
    let edges =
        build_edges(kind, &ops, defs, machine, max_edges).map_err(|d| located(origin, vec![d]))?;
    Ok(Program::assemble(name, kind, ops, edges))
}

/// The diagnostics of a parse, located in the file `origin`.
fn located(origin: &str, diags: Vec<Diagnostic>) -> Diagnostics {
    Diagnostics(
        diags
            .into_iter()
            .map(|d| formats::Diagnostic::new(origin, d.line, d.column, d.message))
            .collect(),
    )
}

// -------------------------------------------------- pass 1: the outline

/// What the first pass learns of the lines.
struct Outline<'t> {
    header: Option<(Kind, String)>,
    /// The operations read so far.
    nops: usize,
    /// The last line read (the pass stops at [`MAX_DIAGNOSTICS`] problems).
    last_line: u32,
    /// The label, line and label column of every operation, in order.
    labels: Vec<(&'t str, u32, u32)>,
    /// Every destination with its operation and line, in order.
    dests: Vec<(&'t str, Def)>,
    /// The column of each of `dests`.
    dest_cols: Vec<u32>,
}

impl<'t> Outline<'t> {
    /// Records the label and destinations of operation `op` of line `ln`.
    #[inline]
    fn operation(&mut self, op: &RawOp<'t>, more_dests: &[(&'t str, u32)], ln: u32) {
        self.labels.push((op.label, ln, op.label_col));
        let def = Def {
            op: self.nops as u32,
            line: ln,
        };
        for &(d, col) in op.dest.iter().chain(more_dests) {
            self.dests.push((d, def));
            self.dest_cols.push(col);
        }
        self.nops += 1;
    }
}

/// Pass 1: the header, the syntax of every line, labels and destinations,
/// until [`MAX_DIAGNOSTICS`] problems are found.
fn outline<'t>(
    text: &'t str,
    toks: &mut Vec<Lexed<'t>>,
    scratch: &mut Scratch<'t>,
    diags: &mut Vec<Diagnostic>,
) -> Outline<'t> {
    let mut o = Outline {
        header: None,
        nops: 0,
        last_line: 0,
        labels: Vec::new(),
        dests: Vec::new(),
        dest_cols: Vec::new(),
    };
    for (ln, (body, end_col)) in Bodies::new(text).enumerate() {
        if diags.len() >= MAX_DIAGNOSTICS {
            break;
        }
        let ln = ln as u32 + 1;
        o.last_line = ln;
        if let Err((col, message)) = lex(body, toks) {
            diags.push(Diagnostic {
                line: ln,
                column: col,
                message,
            });
            continue;
        }
        let line_kind = classify(toks, o.header.is_some());
        match line_kind {
            LineKind::Empty => continue,
            LineKind::Header | LineKind::BadHeaderOp => {
                let (h, d) = read_header(toks, end_col, ln);
                o.header = Some(h);
                diags.extend(d);
                if matches!(line_kind, LineKind::Header) {
                    continue;
                }
            }
            LineKind::Op => {}
        }
        match parse_op_line(toks, end_col, scratch) {
            Ok(op) => o.operation(&op, &scratch.more_dests, ln),
            // A bad header is reported as such; its line counts as an
            // operation only when it reads as one.
            Err(_) if matches!(line_kind, LineKind::BadHeaderOp) => {}
            Err((col, message)) => diags.push(Diagnostic {
                line: ln,
                column: col,
                message,
            }),
        }
    }
    o
}

/// Reserved and repeated labels and redefined registers (`redefined`, the
/// repeats among the outline's destinations), by operation, a label's
/// problem before its destinations'.
fn name_diagnostics(
    kind: Kind,
    o: &Outline<'_>,
    redefined: &[Repeat],
    diags: &mut Vec<Diagnostic>,
) {
    let labels = &o.labels;
    let reserved = labels
        .iter()
        .enumerate()
        .filter(|(_, l)| crate::formats::submission::is_reserved_label(l.0))
        .map(|(i, &(label, line, column))| {
            let message = format!(
                "the label '{label}' is reserved: a submission's 'ii N' line gives the initiation interval; choose another label"
            );
            (i as u32, 0, Diagnostic { line, column, message })
        });
    let repeated = repeats(labels, |l| l.0).into_iter().map(|r| {
        let (label, line, column) = labels[r.at];
        let message = format!(
            "label '{label}' is already used on line {}",
            labels[r.previous].1
        );
        (
            r.at as u32,
            0,
            Diagnostic {
                line,
                column,
                message,
            },
        )
    });
    let once = if kind == Kind::Block {
        " (renamed code)"
    } else {
        " per iteration"
    };
    let redefinitions = redefined.iter().map(|r| {
        let (d, def) = o.dests[r.at];
        let first = o.dests[r.first].1;
        let by = labels[first.op as usize].0;
        let message = format!(
            "register {d} is already defined by {by} on line {}; a {} defines each register once{once}",
            first.line,
            kind.as_str(),
        );
        let column = o.dest_cols[r.at];
        (
            def.op,
            1,
            Diagnostic {
                line: def.line,
                column,
                message,
            },
        )
    });
    let mut found: Vec<(u32, u8, Diagnostic)> =
        reserved.chain(repeated).chain(redefinitions).collect();
    found.sort_by_key(|&(i, k, _)| (i, k));
    diags.extend(found.into_iter().map(|(_, _, d)| d));
}

// ---------------------------------------------- pass 2: the operations

/// The second pass: the operations built straight from the lines, with
/// what is known of the names and the opcodes looked up so far.
struct Builder<'m, 'd, 't> {
    machine: &'m Machine,
    kind: Kind,
    resolver: Resolver<'d, 't>,
    /// Every opcode looked up, with its class.
    classes: Vec<(&'t str, Option<ClassId>)>,
    /// The line whose diagnostic lists the machine's opcodes, once there is one.
    listed_at: Option<u32>,
    diags: Vec<Diagnostic>,
}

impl<'m, 'd, 't> Builder<'m, 'd, 't> {
    /// A second pass after the first found `diags`.
    fn new(
        machine: &'m Machine,
        kind: Kind,
        defs: &'d Defs<'t>,
        diags: Vec<Diagnostic>,
    ) -> Builder<'m, 'd, 't> {
        Builder {
            machine,
            kind,
            resolver: Resolver::new(defs),
            classes: Vec::new(),
            listed_at: None,
            diags,
        }
    }

    /// Pass 2: the operations of the lines up to `last_line` (where pass 1
    /// stopped), and every diagnostic.
    fn build(
        mut self,
        text: &'t str,
        last_line: u32,
        nops: usize,
        toks: &mut Vec<Lexed<'t>>,
        scratch: &mut Scratch<'t>,
    ) -> (Vec<Op>, Vec<Diagnostic>) {
        let mut ops: Vec<Op> = Vec::with_capacity(nops);
        let mut seen_header = false;
        for (ln, (body, end_col)) in Bodies::new(text).enumerate().take(last_line as usize) {
            let ln = ln as u32 + 1;
            if lex(body, toks).is_err() {
                continue;
            }
            match classify(toks, seen_header) {
                LineKind::Empty => continue,
                LineKind::Header => {
                    seen_header = true;
                    continue;
                }
                LineKind::BadHeaderOp => seen_header = true,
                LineKind::Op => {}
            }
            let Ok(op) = parse_op_line(toks, end_col, scratch) else {
                continue;
            };
            ops.push(self.op(&op, scratch, ln));
        }
        (ops, self.diags)
    }

    /// The operation of line `ln`: its class, operands and form.
    #[inline]
    fn op(&mut self, op: &RawOp<'t>, scratch: &Scratch<'t>, ln: u32) -> Op {
        let class = self.class(op, ln);
        let known = self.diags.last().is_none_or(|d| d.line != ln);
        let store_dest = self.store_dest(op, class, ln);
        let operands = self.operands(scratch, ln);
        let class = if known && !store_dest {
            match choose_form(self.machine, class, op, scratch, &operands) {
                Ok(c) => c,
                Err(d) => {
                    self.diags.push(d.at_line(ln));
                    class
                }
            }
        } else {
            class
        };
        Op {
            label: Name::from(op.label),
            dest: op.dest.map(|(d, _)| Name::from(d)),
            more_dests: scratch
                .more_dests
                .iter()
                .map(|&(d, _)| Name::from(d))
                .collect(),
            stores: self.machine.class(class).stores,
            opcode: Name::from(op.opcode),
            class,
            operands,
            line: ln,
        }
    }

    /// The class of `op`'s opcode, looked up once per opcode; an unknown
    /// opcode is reported and takes class 0.
    #[inline]
    fn class(&mut self, op: &RawOp<'t>, ln: u32) -> ClassId {
        let class = match self.classes.iter().find(|c| c.0 == op.opcode) {
            Some(&(_, c)) => c,
            None => {
                let c = self.machine.class_by_opcode(op.opcode);
                self.classes.push((op.opcode, c));
                c
            }
        };
        class.unwrap_or_else(|| {
            self.unknown_opcode(op, ln);
            ClassId(0)
        })
    }

    /// Reports an unknown opcode; the known ones are listed once, at the
    /// first unknown one.
    fn unknown_opcode(&mut self, op: &RawOp<'t>, ln: u32) {
        let known = match self.listed_at {
            Some(line) => format!("known: as listed at line {line}"),
            None => {
                self.listed_at = Some(ln);
                let known: Vec<&str> = self.machine.opcodes().collect();
                format!("known: {}", known.join(" "))
            }
        };
        self.diags.push(Diagnostic {
            line: ln,
            column: op.opcode_col,
            message: format!(
                "unknown opcode '{}' for machine {} ({known})",
                op.opcode,
                self.machine.name(),
            ),
        });
    }

    /// Reports a destination on a store, which defines no register;
    /// whether there was one.
    #[inline]
    fn store_dest(&mut self, op: &RawOp<'t>, class: ClassId, ln: u32) -> bool {
        let Some((d, col)) = op.dest else {
            return false;
        };
        if !(op.opcode == "store" || self.machine.class(class).name == "store") {
            return false;
        }
        self.diags.push(Diagnostic {
            line: ln,
            column: col,
            message: format!(
                "a store writes memory and defines no register: drop '{d} =' (write '{}: {} …')",
                op.label, op.opcode
            ),
        });
        true
    }

    /// The operands of the line in `scratch`; a second memory operand is
    /// reported.
    #[inline]
    fn operands(&mut self, scratch: &Scratch<'t>, ln: u32) -> Vec<Operand> {
        let mut operands = Vec::with_capacity(scratch.operands.len());
        let mut mem_count = 0;
        for o in &scratch.operands {
            operands.push(match *o {
                RawOperand::Name((n, at, col)) => {
                    self.check_at(ln, at, col, n);
                    Operand::Reg(RegUse {
                        name: Name::from(n),
                        at,
                    })
                }
                RawOperand::Imm(v, _) => Operand::Imm(v),
                RawOperand::Mem {
                    start,
                    len,
                    offset,
                    col,
                } => {
                    mem_count += 1;
                    if mem_count == 2 {
                        self.diags.push(Diagnostic {
                            line: ln,
                            column: col,
                            message: "an operation has at most one memory operand".into(),
                        });
                    }
                    let names = &scratch.names[start as usize..(start + len) as usize];
                    Operand::Mem(self.address(names, offset, ln))
                }
            });
        }
        operands
    }

    /// An address of `names` and `offset`: a name some operation defines
    /// is a register, another is the symbol (one at most); an address of
    /// an offset alone is that number as a symbol.
    #[inline]
    fn address(&mut self, names: &[RawName<'t>], offset: Option<i64>, ln: u32) -> Address {
        let mut addr = Address {
            offset,
            ..Address::default()
        };
        for &(n, at, col) in names {
            if self.resolver.get(n).is_some() {
                self.check_at(ln, at, col, n);
                addr.regs.push(RegUse {
                    name: Name::from(n),
                    at,
                });
            } else if at.is_some() {
                self.check_at(ln, at, col, n);
            } else if addr.symbol.is_some() {
                self.diags.push(Diagnostic {
                    line: ln,
                    column: col,
                    message: format!(
                        "'{n}' is a second symbol in this address (no operation defines it, so it is not a register)"
                    ),
                });
            } else {
                addr.symbol = Some(Name::from(n));
            }
        }
        if addr.symbol.is_none() && addr.regs.is_empty() {
            addr.symbol = Some(Name::from(addr.offset.unwrap_or(0).to_string()));
            addr.offset = None;
        }
        addr
    }

    /// Reports a misplaced `r@k` on `name` at `line` and `column`: in a
    /// block, or on a name the loop never defines.
    #[inline]
    fn check_at(&mut self, line: u32, at: Option<u32>, column: u32, name: &'t str) {
        let message = if at.is_some() && self.kind == Kind::Block {
            format!("'{name}@k' reads an earlier iteration: only loops have those")
        } else if at.is_some() && self.resolver.get(name).is_none() {
            format!("'{name}@k' names a register that no operation of the loop defines")
        } else {
            return;
        };
        self.diags.push(Diagnostic {
            line,
            column,
            message,
        });
    }
}

/// A diagnostic of one line before its line number is known.
struct LineDiag {
    column: u32,
    message: String,
}

impl LineDiag {
    fn at_line(self, line: u32) -> Diagnostic {
        Diagnostic {
            line,
            column: self.column,
            message: self.message,
        }
    }
}

/// The class an operation of opcode class `base` takes given its operand
/// forms (Definition 23.1.8): the class itself when it models the shape,
/// its zero-idiom variant when the two register operands are one register
/// (Lesson 23.1 §6), its folded-load form for a memory operand; otherwise
/// an error at the first operand no form takes, naming the class and the
/// forms it has. A class without `forms:` takes any shape (a memory
/// operand with a destination then selects the folded form, if any).
fn choose_form(
    machine: &Machine,
    base: ClassId,
    op: &RawOp<'_>,
    scratch: &Scratch<'_>,
    operands: &[Operand],
) -> Result<ClassId, LineDiag> {
    let raw = &scratch.operands;
    let mut class = base;
    if let [Operand::Reg(a), Operand::Reg(b)] = operands
        && a == b
        && let Some(z) = machine.zero_form(base, op.opcode)
    {
        class = z;
    }
    let shape = Shape {
        dests: u8::from(op.dest.is_some()) + scratch.more_dests.len() as u8,
        kinds: raw
            .iter()
            .map(|o| match o {
                RawOperand::Name(_) => REG,
                RawOperand::Imm(..) => IMM,
                RawOperand::Mem { .. } => MEM,
            })
            .collect(),
    };
    let c = machine.class(class);
    let mem = machine.memory_form(base);
    if c.forms.is_none() {
        // A class states its several-destination forms: without forms it
        // writes at most one register.
        if shape.dests > 1 {
            return Err(LineDiag {
                column: op.opcode_col,
                message: format!(
                    "'{}' writes {} registers, but class {} of machine {} writes at most one (a class that writes several states forms such as 'r, r = m')",
                    op.opcode,
                    shape.dests,
                    c.name,
                    machine.name()
                ),
            });
        }
        return Ok(match mem {
            Some(m) if shape.kinds.contains(&MEM) && shape.dests == 1 => m,
            _ => class,
        });
    }
    if c.accepts(&shape) {
        return Ok(class);
    }
    if let Some(m) = mem.filter(|&m| machine.class(m).accepts(&shape)) {
        return Ok(m);
    }
    // The first operand whose kind no form takes at its place.
    let all: Vec<&Form> = c
        .forms
        .iter()
        .chain(mem.and_then(|m| machine.class(m).forms.as_ref()))
        .flatten()
        .collect();
    let bad = shape
        .kinds
        .iter()
        .enumerate()
        .find(|&(j, &k)| !all.iter().any(|f| f.allows_at(j, k)));
    let col = |j: usize| match raw[j] {
        RawOperand::Name((_, _, col)) | RawOperand::Imm(_, col) | RawOperand::Mem { col, .. } => {
            col
        }
    };
    let base_class = machine.class(base);
    let mut forms = base_class.forms_text();
    if let Some(m) = mem {
        forms.push_str(&format!(
            "; its folded-load form {} models {}",
            machine.class(m).name,
            machine.class(m).forms_text()
        ));
    }
    let (column, what) = match bad {
        Some((j, &k)) => (
            col(j),
            format!(
                "{} (operand {})",
                match k {
                    MEM => "a memory operand",
                    IMM => "an immediate",
                    _ => "a register",
                },
                j + 1
            ),
        ),
        None => (op.opcode_col, format!("the form '{shape}'")),
    };
    let hint = if mem.is_none() && shape.kinds.contains(&MEM) && shape.dests == 1 {
        " (it has no folded-load form)"
    } else {
        ""
    };
    Err(LineDiag {
        column,
        message: format!(
            "'{}' with {what} is not modelled: class {} of machine {} has only the forms {forms}{hint}",
            op.opcode,
            base_class.name,
            machine.name(),
        ),
    })
}

/// The lines of a text as `str::lines` splits them, each without its
/// comment and trailing CRs, with the column just past its end: one scan
/// per line finds the line feed, the comment and whether the line is
/// ASCII (then columns are bytes).
struct Bodies<'t> {
    rest: &'t str,
}

impl<'t> Bodies<'t> {
    fn new(text: &'t str) -> Bodies<'t> {
        Bodies { rest: text }
    }
}

impl<'t> Iterator for Bodies<'t> {
    type Item = (&'t str, u32);

    fn next(&mut self) -> Option<(&'t str, u32)> {
        if self.rest.is_empty() {
            return None;
        }
        let b = self.rest.as_bytes();
        let (mut end, mut hash, mut ascii) = (b.len(), None, true);
        for (i, &c) in b.iter().enumerate() {
            if c == b'\n' {
                end = i;
                break;
            }
            if c == b'#' && hash.is_none() {
                hash = Some(i);
            }
            ascii &= c.is_ascii();
        }
        let line = &self.rest[..hash.unwrap_or(end)];
        self.rest = self.rest.get(end + 1..).unwrap_or("");
        let body = line.trim_end_matches('\r');
        let end_col = if ascii {
            body.len() as u32 + 1
        } else {
            body.chars().count() as u32 + 1
        };
        Some((body, end_col))
    }
}

/// Whether a lexed line is blank, the header (the first line with tokens,
/// while `header_seen` is false), or an operation.
fn classify(toks: &[Lexed<'_>], header_seen: bool) -> LineKind {
    if toks.is_empty() {
        return LineKind::Empty;
    }
    if header_seen {
        return LineKind::Op;
    }
    match &toks[0].tok {
        Tok::Ident(s) if *s == "block" || *s == "loop" => LineKind::Header,
        _ => LineKind::BadHeaderOp,
    }
}

/// The header of a line classified as one, and its problem if any (then
/// the input is read as a block so later lines still get checked).
fn read_header(toks: &[Lexed<'_>], end_col: u32, ln: u32) -> ((Kind, String), Option<Diagnostic>) {
    let kind = match &toks[0].tok {
        Tok::Ident(s) if *s == "block" => Some(Kind::Block),
        Tok::Ident(s) if *s == "loop" => Some(Kind::Loop),
        _ => None,
    };
    match (kind, toks.get(1).map(|t| &t.tok), toks.len()) {
        (Some(k), Some(Tok::Ident(name)), 2) => ((k, name.to_string()), None),
        (Some(_), _, _) => {
            let col = toks.get(1).map_or(end_col, |t| t.col);
            (
                (Kind::Block, String::new()),
                Some(Diagnostic {
                    line: ln,
                    column: col,
                    message: "expected a name after 'block'/'loop' and nothing else".into(),
                }),
            )
        }
        (None, _, _) => (
            (Kind::Block, String::new()),
            Some(Diagnostic {
                line: ln,
                column: toks[0].col,
                message: format!(
                    "expected the header 'block NAME' or 'loop NAME', found {}",
                    describe(toks.first())
                ),
            }),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_classes_match_the_char_predicates() {
        for b in 0..=255u8 {
            let c = b as char;
            let class = CLASS[b as usize];
            assert_eq!(class == WIDE, !b.is_ascii(), "{b}");
            if b.is_ascii() {
                assert_eq!(class == SPACE, c.is_whitespace(), "{b}");
                assert_eq!(
                    name_byte(b),
                    b.is_ascii_alphanumeric() || b == b'_' || b == b'.',
                    "{b}"
                );
            }
        }
    }

    #[test]
    fn bodies_split_as_lines_do() {
        for text in [
            "",
            "\n",
            "a\n\nb",
            "a\r\nb # c\r\n",
            "x # y\r\r\n\r",
            "µs: 1 # é\nz",
            "#only\n  \t\n",
        ] {
            let want: Vec<(&str, u32)> = text
                .lines()
                .map(|line| {
                    let body = match line.bytes().position(|b| b == b'#') {
                        Some(i) => &line[..i],
                        None => line,
                    };
                    let body = body.trim_end_matches('\r');
                    (body, body.chars().count() as u32 + 1)
                })
                .collect();
            assert_eq!(Bodies::new(text).collect::<Vec<_>>(), want, "{text:?}");
        }
    }

    /// A machine with a load pair whose address writes back its base
    /// register: three destinations, each with its own latency.
    fn pair_machine() -> Machine {
        Machine::from_yaml(
            "issue_width: 4\nmicro_op_buffer_size: 16\nresources:\n  - { name: ls, capacity: 2 }\n  - { name: alu, capacity: 2 }\nclasses:\n  - { name: add, latency: 1, opcodes: [add], uses: [[alu, 1]], forms: [\"r = r, r\", \"r = r, i\"] }\n  - { name: ldp, latency: 6, uops: 3, write_latencies: [4, 6, 1], opcodes: [ldp], uses: [[ls, 1]], forms: [\"r, r, r = m\"] }\n  - { name: stw, latency: 2, write_latencies: [1], stores: true, opcodes: [stw], uses: [[ls, 1]], forms: [\"r = m, r\"] }\n",
            "pair.yaml",
        )
        .unwrap()
    }

    #[test]
    fn several_destinations_each_have_their_latency() {
        let m = pair_machine();
        let text = "loop l\na: q0, q1, x8 = ldp [x8 + 32]\nb: r0 = add q0, q1\nc: r1 = add x8, 1\nd: x8b = stw [x8], r0\n";
        let p = parse(text, "l.txt", &m).unwrap();
        assert_eq!(
            p.ops()[0].dests().map(|d| d.as_str()).collect::<Vec<_>>(),
            ["q0", "q1", "x8"]
        );
        assert_eq!(
            p.ops()[0].display().to_string(),
            "q0, q1, x8 = ldp [x8 + 32]"
        );
        let lat = |from: u32, to: u32, d: u32| {
            p.edges()
                .iter()
                .find(|e| e.from.0 == from && e.to.0 == to && e.distance == d)
                .map(|e| e.latency)
        };
        // b reads q0 (4) and q1 (6): the edge keeps the larger.
        assert_eq!(lat(0, 1, 0), Some(6));
        assert_eq!(lat(0, 2, 0), Some(1)); // x8, the writeback: 1
        assert_eq!(lat(0, 0, 1), Some(1)); // the next iteration's address
        let edge = |from: u32, to: u32| {
            p.edges()
                .iter()
                .find(|e| e.from.0 == from && e.to.0 == to && e.distance == 0)
                .unwrap()
        };
        assert_eq!(p.edge_register(edge(0, 2)), Some("x8"));
        assert_eq!(p.edge_register(edge(1, 3)), Some("r0"));
        // The writeback store still writes memory.
        assert!(p.ops()[3].writes_memory() && !p.ops()[3].reads_memory());
        assert!(p.ops()[0].reads_memory());
    }

    #[test]
    fn destination_lists_are_checked() {
        let m = pair_machine();
        let first = |text: &str| {
            let e = parse(&format!("loop l\n{text}\n"), "l.txt", &m).unwrap_err();
            e.iter()
                .next()
                .map(|d| (d.column, d.message.clone()))
                .unwrap()
        };
        let (col, msg) = first("a: q0, = ldp [x]");
        assert_eq!(col, 8);
        assert!(msg.contains("a destination register"), "{msg}");
        let (col, msg) = first("a: q0, q1 ldp [x]");
        assert_eq!(col, 11);
        assert!(msg.contains("'=' after the destination registers"), "{msg}");
        let (col, msg) = first("a: a, b, c, d, e = ldp [x]");
        assert_eq!(col, 16);
        assert!(msg.contains("at most 4 registers"), "{msg}");
        // Two destinations where the class has three, and a register
        // written twice by one operation.
        let (_, msg) = first("a: q0, q1 = ldp [x]");
        assert!(
            msg.contains("the form 'r, r = m'") && msg.contains("'r, r, r = m'"),
            "{msg}"
        );
        // A class without forms writes one register.
        let open = Machine::from_yaml(
            "issue_width: 2\nresources:\n  - { name: alu, capacity: 2 }\nclasses:\n  - { name: alu, latency: 1, opcodes: [add], unit: alu }\n",
            "open.yaml",
        )
        .unwrap();
        let e = parse("block b\na: r1, r2 = add r3, r4\n", "b.txt", &open).unwrap_err();
        let d = e.iter().next().unwrap();
        assert_eq!(d.column, 13);
        let msg = &d.message;
        assert!(
            msg.contains("writes 2 registers, but class alu of machine"),
            "{msg}"
        );
        let (col, msg) = first("a: q0, q0, x8 = ldp [x]");
        assert_eq!(col, 8);
        assert!(msg.contains("register q0 is already defined by a"), "{msg}");
    }

    #[test]
    fn integers_read_as_str_parse_reads_them() {
        for text in [
            "0",
            "-0",
            "007",
            "42",
            "-42",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999999",
        ] {
            let want = text.parse::<i64>().map_or(Tok::BigInt, Tok::Int);
            assert_eq!(int_token(text), want, "{text}");
        }
        let mut toks = Vec::new();
        // Comments are cut before lexing; wide spaces are one column.
        assert_eq!(
            lex("a # x", &mut toks).unwrap_err(),
            (3, "unexpected character '#'".to_string())
        );
        lex("a:\tr1 = add r2,\u{2003}-3\u{a0}", &mut toks).unwrap();
        let cols: Vec<u32> = toks.iter().map(|t| t.col).collect();
        assert_eq!(cols, [1, 2, 4, 7, 9, 13, 15, 17]);
        assert_eq!(toks[7].tok, Tok::Int(-3));
        assert_eq!(
            lex("a: r1 = 12x", &mut toks).unwrap_err(),
            (9, "'12x…' is neither a number nor a name".to_string())
        );
        assert_eq!(
            lex("a - b", &mut toks).unwrap_err(),
            (3, "unexpected character '-'".to_string())
        );
    }
}
