//! Assembly as `clang -S` and llvm-mca read it, lowered to the lab format
//! so that `course mca` simulates a student's own kernel (Lesson 23.1 §7).
//!
//! Two dialects: AT&T x86-64 (`vdivpd %ymm0, %ymm1, %ymm2`, destination
//! last) and AArch64 (`fmla v0.2d, v1.2d, v2.2d`, destination first),
//! told apart by the `%` of AT&T registers. Labels, directives and
//! comments are skipped; when the text has `LLVM-MCA-BEGIN` / `LLVM-MCA-END`
//! comments, only the instructions of that region count.
//!
//! Each instruction becomes one lab operation, on the line of the lab text
//! one below its own (the header `loop NAME` is line 1), with the
//! instruction after `# asm:` as llvm-mca prints it (mnemonic, a tab, the
//! operands joined by `, `). The body is a loop, as llvm-mca repeats it:
//!
//! - **Registers as llvm-mca sees them.** Every spelling of one physical
//!   register is one name (`eax` and `rax`, `xmm0` and `ymm0`, `w8` and
//!   `x8`, `q1`, `d1` and `v1.2d`). A lab loop defines a name once per
//!   iteration, so a register written again gets a fresh name (`rax2`),
//!   and a read before any write in the body names the last write of the
//!   body: the previous iteration's value. `xzr`, `wzr` and `%rip` carry no
//!   dependence.
//! - **Flags.** A compare writes `eflags` / `nzcv`; an arithmetic
//!   instruction that also sets the flags (`subq`, `decq`, `subs`) has one
//!   destination in the lab format, so a later flag reader (`jne`, `b.ne`,
//!   `cmov`, `csel`) reads that instruction's destination instead: the
//!   same producer, the same latency.
//! - **Operand order.** x86: a two-operand instruction reads its
//!   destination first (`addq $32, %rax` is `rax = addq rax, 32`) unless it
//!   only writes it (`mov`, `lea`, `cvt`, `popcnt`, …); three-operand AVX
//!   keeps the AT&T order of its sources, an FMA reads its destination
//!   last; a compare lists its operands in Intel order; a store puts its
//!   address first. Immediates go last. AArch64: the destination is the
//!   first operand, read first by the accumulating instructions (`fmla`,
//!   `mla`, `movk`, `bfi`); a store puts its address first. A load pair
//!   (`ldp q0, q1, [x8]`) or a register list (`ld2 { v0.2d, v1.2d }, [x8]`)
//!   writes each of its registers, and an address with writeback
//!   (`[x8], #16`, `[x8, #16]!`) writes its base register last: the lab
//!   line lists them all (`a: q0, q1, x82 = ldp [x8 + 16]`).
//! - **The class.** Among the model's opcodes spelled as the mnemonic
//!   (`movq`, or `movq.st` for another form of it), the ones whose forms
//!   take the operands' kinds (register, immediate, memory); when more than
//!   one does, the class whose LLVM name matches the operands (`rm`, `mr`,
//!   `Y` for a 256-bit register on x86; on AArch64 the register letter,
//!   the vector arrangement (`v4f32`), `post`/`pre` writeback, a shifted
//!   operand (`shift`) and `ro`/`ui` addressing, a class named for another
//!   register kind counting against). An instruction no class takes is an error at
//!   its line and column, naming the forms the model has, or is skipped
//!   with a note under `skip_unsupported` (llvm-mca's
//!   `-skip-unsupported-instructions`).

use crate::formats::diagnostic::{Diagnostic, Diagnostics};
use crate::model::form::{IMM, MEM, REG, Shape};
use crate::model::machine::Machine;

/// The two assembly dialects read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// AT&T x86-64, as clang and llvm-mca print it.
    X86,
    /// AArch64.
    AArch64,
}

/// How to lower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Drop an instruction the model has no class for, with a note, instead
    /// of refusing the file.
    pub skip_unsupported: bool,
}

/// A kernel in the lab format, with what was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered {
    /// The lab text: `loop NAME`, then line `k + 1` for line `k` of the
    /// assembly.
    pub lab: String,
    /// The dialect the text was read as.
    pub dialect: Dialect,
    /// Instructions skipped under [`Options::skip_unsupported`], each with
    /// why.
    pub skipped: Vec<Diagnostic>,
}

/// Whether `text` (named `origin`) is assembly rather than a lab-format
/// input: a `.s`, `.S` or `.asm` name, or a first instruction line that is
/// not a lab header.
pub fn is_assembly(origin: &str, text: &str) -> bool {
    let lower = origin.to_ascii_lowercase();
    if lower.ends_with(".s") || lower.ends_with(".asm") {
        return true;
    }
    if lower.ends_with(".txt") {
        return false;
    }
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        let first = t.split_whitespace().next().unwrap_or("");
        return !matches!(first, "block" | "loop");
    }
    false
}

/// The dialect of a text: AT&T when a `%` register appears.
pub fn dialect_of(text: &str) -> Dialect {
    let att = text.lines().any(|l| {
        let code = l.split('#').next().unwrap_or("");
        code.contains('%')
    });
    if att { Dialect::X86 } else { Dialect::AArch64 }
}

/// A register as written: its physical register and its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reg {
    /// The physical register (`R0` for rax/eax/…, `V0` for xmm0/ymm0/q0/v0).
    phys: String,
    /// The spelling without `%` and arrangement (`ymm0`, `x8`, `q1`).
    spelled: String,
    /// The register letter an LLVM opcode name carries: `X`/`W` (AArch64
    /// general), `Q`/`D`/`S`/`H`/`B`/`V` (AArch64 vector), `Y` (ymm), `Z`
    /// (zmm), `x` (xmm), `g` (x86 general).
    letter: char,
    /// Reads nothing and keeps no write (`xzr`, `wzr`, `%rip`).
    zero: bool,
    /// An AArch64 vector arrangement, as lanes and lane letter (`(4, 's')`
    /// for `v1.4s`).
    arrangement: Option<(u32, char)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Mem {
    regs: Vec<Reg>,
    offset: Option<i64>,
    symbol: Option<String>,
    /// An AArch64 address with a register index (`[x0, x8]`).
    indexed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Opnd {
    Reg(Reg),
    Imm(i64),
    Mem(Mem),
    /// A branch target or other symbol outside an address.
    Label,
}

/// One instruction, parsed.
struct Insn {
    mnemonic: String,
    operands: Vec<Opnd>,
    /// As llvm-mca prints it.
    text: String,
    line: u32,
    column: u32,
    /// An AArch64 address that writes back its base register.
    writeback: Option<Writeback>,
    /// How many operands came from an AArch64 register list (`{ v0.2d,
    /// v1.2d }`), which stands first.
    list: usize,
    /// An AArch64 register operand shifted or extended (`x9, lsl #3`).
    shifted: bool,
}

/// How an AArch64 address writes back its base register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writeback {
    /// `[x8], #16`: the access uses x8, then x8 += 16.
    Post,
    /// `[x8, #16]!`: x8 += 16, then the access uses it.
    Pre,
}

/// What an instruction does, in lab terms.
struct Sem {
    dest: Option<Reg>,
    /// The registers written after `dest`: the second of a load pair, then
    /// the base register of an address with writeback.
    more_dests: Vec<Reg>,
    /// Whether the destination is the flags themselves (a compare).
    dest_flags: bool,
    sources: Vec<Opnd>,
    writes_flags: bool,
    reads_flags: bool,
}

impl Sem {
    /// An instruction that writes and reads the flags as said, with no
    /// register operand yet.
    fn new(writes_flags: bool, reads_flags: bool) -> Sem {
        Sem {
            dest: None,
            more_dests: Vec::new(),
            dest_flags: false,
            sources: Vec::new(),
            writes_flags,
            reads_flags,
        }
    }
}

type LineResult<T> = Result<T, (u32, String)>;

/// Lowers the assembly `text` (named `origin`) for machine `m`.
pub fn lower(
    text: &str,
    origin: &str,
    m: &Machine,
    opts: &Options,
) -> Result<Lowered, Diagnostics> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let dialect = dialect_of(text);
    let mut errors = Capped::default();
    let mut insns = Vec::new();
    let regions = text.lines().any(|l| marker(l, dialect) == Some(true));
    let mut inside = !regions;
    let mut seen_region = false;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        match marker(line, dialect) {
            Some(true) => {
                if seen_region {
                    errors.push(Diagnostic::new(
                        origin,
                        n,
                        1,
                        "a second LLVM-MCA-BEGIN region: course mca analyzes one region a file; put each in a file of its own",
                    ));
                }
                seen_region = true;
                inside = true;
                continue;
            }
            Some(false) => {
                inside = false;
                continue;
            }
            None => {}
        }
        if !inside {
            continue;
        }
        match parse_line(line, n, dialect) {
            Ok(Some(insn)) => insns.push(insn),
            Ok(None) => {}
            Err((col, msg)) => errors.push(Diagnostic::new(origin, n, col, msg)),
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors.finish("problems")));
    }
    let line_count = text.lines().count();
    // What each instruction does, and its class, or why it has none.
    let mut lowered: Vec<(Insn, Sem, String)> = Vec::new();
    let mut skipped = Capped::default();
    for insn in insns {
        let sem = match dialect {
            Dialect::X86 => x86_semantics(&insn),
            Dialect::AArch64 => a64_semantics(&insn),
        };
        let sem = match sem {
            Ok(s) => s,
            Err(msg) => {
                let d = Diagnostic::new(origin, insn.line, insn.column, msg);
                if opts.skip_unsupported {
                    skipped.push(d);
                    continue;
                }
                errors.push(d);
                continue;
            }
        };
        match choose_opcode(m, &insn, &sem, dialect) {
            Ok(op) => lowered.push((insn, sem, op)),
            Err(msg) => {
                let d = Diagnostic::new(origin, insn.line, insn.column, msg);
                if opts.skip_unsupported {
                    skipped.push(d);
                } else {
                    errors.push(d);
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors.finish("problems")));
    }
    if lowered.is_empty() {
        return Err(Diagnostics(vec![Diagnostic::new(
            origin,
            1,
            1,
            if skipped.is_empty() {
                "no instruction to simulate (only labels, directives and comments)".to_string()
            } else {
                format!(
                    "no instruction left to simulate: all {} were skipped as unsupported",
                    skipped.count()
                )
            },
        )]));
    }
    let lab = emit(&lowered, origin, line_count, dialect);
    Ok(Lowered {
        lab,
        dialect,
        skipped: skipped.finish("instructions skipped"),
    })
}

/// The most diagnostics (errors, or notes of skipped instructions) one
/// file reports; the rest are counted in a last line.
pub const MAX_DIAGNOSTICS: usize = 50;

/// Diagnostics kept up to [`MAX_DIAGNOSTICS`], the rest only counted, so a
/// file of a million bad lines costs no more than fifty.
#[derive(Default)]
struct Capped {
    kept: Vec<Diagnostic>,
    /// The first diagnostic not kept, where the summary line points.
    first_dropped: Option<Diagnostic>,
    dropped: usize,
}

impl Capped {
    fn push(&mut self, d: Diagnostic) {
        if self.kept.len() < MAX_DIAGNOSTICS {
            self.kept.push(d);
        } else {
            self.dropped += 1;
            self.first_dropped.get_or_insert(d);
        }
    }

    fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    fn count(&self) -> usize {
        self.kept.len() + self.dropped
    }

    /// The kept diagnostics, and a last one counting the others (`what`
    /// names them: "problems", "instructions skipped").
    fn finish(self, what: &str) -> Vec<Diagnostic> {
        let mut v = self.kept;
        if let Some(d) = self.first_dropped {
            v.push(Diagnostic::new(
                &d.file,
                d.line,
                d.column,
                format!("{} more {what} from here on, not shown", self.dropped),
            ));
        }
        v
    }
}

/// `Some(true)` for an `LLVM-MCA-BEGIN` comment, `Some(false)` for an
/// `LLVM-MCA-END` one.
fn marker(line: &str, dialect: Dialect) -> Option<bool> {
    let t = line.trim_start();
    let body = t
        .strip_prefix("//")
        .or_else(|| t.strip_prefix('#'))
        .or_else(|| t.strip_prefix(';'))?;
    // An AArch64 `#` starts an immediate, never a line.
    if dialect == Dialect::AArch64 && t.starts_with('#') && !body.trim_start().starts_with("LLVM") {
        return None;
    }
    let word = body.split_whitespace().next()?;
    match word {
        "LLVM-MCA-BEGIN" => Some(true),
        "LLVM-MCA-END" => Some(false),
        _ => None,
    }
}

/// The code of a line without its comment.
fn strip_comment(line: &str, dialect: Dialect) -> &str {
    let mut end = line.len();
    if let Some(i) = line.find("//") {
        end = end.min(i);
    }
    match dialect {
        Dialect::X86 => {
            if let Some(i) = line.find('#') {
                end = end.min(i);
            }
        }
        Dialect::AArch64 => {
            if let Some(i) = line.find(';') {
                end = end.min(i);
            }
            // `#` at the start of a line is a comment; elsewhere an immediate.
            if line.trim_start().starts_with('#') {
                end = 0;
            }
        }
    }
    &line[..end]
}

/// The instruction on a line, if it has one.
fn parse_line(line: &str, n: u32, dialect: Dialect) -> LineResult<Option<Insn>> {
    let mut code = strip_comment(line, dialect);
    let mut col = 1 + (code.len() - code.trim_start().len()) as u32;
    code = code.trim();
    // Labels, possibly followed by an instruction.
    while let Some(i) = label_end(code) {
        let rest = &code[i + 1..];
        col += (i + 1 + (rest.len() - rest.trim_start().len())) as u32;
        code = rest.trim();
    }
    if code.is_empty() || code.starts_with('.') {
        return Ok(None);
    }
    let (mnemonic, rest) = match code.find(|c: char| c.is_whitespace()) {
        Some(i) => (&code[..i], code[i..].trim()),
        None => (code, ""),
    };
    let mnemonic = mnemonic.to_ascii_lowercase();
    let rest_col = col + (code.len() - rest.len()) as u32;
    let pieces = split_operands(rest);
    let mut operands = Vec::new();
    let mut shown = Vec::new();
    let mut post_index = false;
    let mut list = 0;
    let mut shifted = false;
    for (off, piece) in pieces {
        let pcol = rest_col + off as u32;
        let p = piece.trim();
        if p.is_empty() {
            return Err((pcol, "an empty operand".into()));
        }
        shown.push(match dialect {
            Dialect::X86 => p.split_whitespace().collect::<String>(),
            Dialect::AArch64 => normalize_a64(p),
        });
        match dialect {
            Dialect::X86 => operands.push(x86_operand(p).map_err(|m| (pcol, m))?),
            Dialect::AArch64 => {
                if is_modifier(p) {
                    shifted = true;
                    continue;
                }
                if let Some(inner) = p.strip_prefix('{').and_then(|q| q.strip_suffix('}')) {
                    // `{ v0.2d, v1.2d }`: each register an operand.
                    if !operands.is_empty() {
                        return Err((
                            pcol,
                            format!("a register list ({p}) after another operand is not modelled"),
                        ));
                    }
                    for r in inner.split(',').map(str::trim) {
                        let reg = a64_reg(r).filter(|_| !r.is_empty()).ok_or_else(|| {
                            (
                                pcol,
                                format!("a register list ({p}) holds '{r}', not a register"),
                            )
                        })?;
                        operands.push(Opnd::Reg(reg));
                        list += 1;
                    }
                    continue;
                }
                let o = a64_operand(p).map_err(|m| (pcol, m))?;
                // `[x0], #16`: the immediate after an address is a post-index.
                if matches!(o, Opnd::Imm(_)) && matches!(operands.last(), Some(Opnd::Mem(_))) {
                    post_index = true;
                }
                operands.push(o);
            }
        }
    }
    let writeback = if post_index {
        Some(Writeback::Post)
    } else if dialect == Dialect::AArch64 && rest.contains("]!") {
        Some(Writeback::Pre)
    } else {
        None
    };
    let text = if shown.is_empty() {
        mnemonic.clone()
    } else {
        format!("{mnemonic}\t{}", shown.join(", "))
    };
    Ok(Some(Insn {
        mnemonic,
        operands,
        text,
        line: n,
        column: col,
        writeback,
        list,
        shifted,
    }))
}

/// The index of a label's `:` at the start of `code`, if it is one.
fn label_end(code: &str) -> Option<usize> {
    let i = code.find(':')?;
    let name = &code[..i];
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')))
    .then_some(i)
}

/// Operands split at top-level commas, each with its byte offset.
fn split_operands(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    if s.is_empty() {
        return out;
    }
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push((start + lead(&s[start..i]), &s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start + lead(&s[start..]), &s[start..]));
    out
}

fn lead(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

/// An AArch64 operand as llvm-mca prints it: `[x0, x8]`, `v0.2d`.
fn normalize_a64(p: &str) -> String {
    if p.starts_with('[') {
        let inner = p.trim_start_matches('[');
        let (inner, tail) = match inner.find(']') {
            Some(i) => (&inner[..i], &inner[i + 1..]),
            None => (inner, ""),
        };
        let parts: Vec<String> = inner
            .split(',')
            .map(|x| x.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        format!("[{}]{}", parts.join(", "), tail.trim())
    } else {
        p.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// An integer as assemblers write it: decimal, `0x…` hex, a sign.
fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

// ------------------------------------------------------------------ x86

const X86_GPR: [&str; 8] = ["ax", "bx", "cx", "dx", "si", "di", "bp", "sp"];

/// An x86 register's physical name and letter.
fn x86_reg(name: &str) -> Option<Reg> {
    let lower = name.to_ascii_lowercase();
    let mk = |phys: String, letter: char| Reg {
        phys,
        spelled: lower.clone(),
        letter,
        zero: false,
        arrangement: None,
    };
    if lower == "rip" || lower == "eip" {
        return Some(Reg {
            zero: true,
            ..mk("RIP".into(), 'g')
        });
    }
    for (k, p) in ["xmm", "ymm", "zmm"].iter().enumerate() {
        if let Some(n) = lower.strip_prefix(p)
            && n.parse::<u32>().is_ok_and(|v| v < 32)
        {
            return Some(mk(format!("V{n}"), ['x', 'Y', 'Z'][k]));
        }
    }
    for (i, g) in X86_GPR.iter().enumerate() {
        let forms = [
            format!("r{g}"),
            format!("e{g}"),
            g.to_string(),
            match *g {
                "ax" | "bx" | "cx" | "dx" => format!("{}l", &g[..1]),
                _ => format!("{g}l"),
            },
        ];
        if forms.contains(&lower) || (i < 4 && lower == format!("{}h", &g[..1])) {
            return Some(mk(format!("R{i}"), 'g'));
        }
    }
    if let Some(rest) = lower.strip_prefix('r') {
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let suffix = &rest[digits.len()..];
        if let Ok(n) = digits.parse::<u32>()
            && (8..16).contains(&n)
            && matches!(suffix, "" | "d" | "w" | "b")
        {
            return Some(mk(format!("R{n}"), 'g'));
        }
    }
    None
}

fn x86_operand(p: &str) -> Result<Opnd, String> {
    if let Some(r) = p.strip_prefix('%') {
        return x86_reg(r)
            .map(Opnd::Reg)
            .ok_or_else(|| format!("unknown register %{r}"));
    }
    if let Some(v) = p.strip_prefix('$') {
        return Ok(Opnd::Imm(parse_int(v).unwrap_or(0)));
    }
    if p.starts_with('*') {
        return Err(format!("an indirect operand ({p}) is not modelled"));
    }
    if let Some(open) = p.find('(') {
        let disp = p[..open].trim();
        let inner = p[open + 1..].trim_end_matches(')');
        let mut regs = Vec::new();
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        for part in parts.iter().take(2) {
            if part.is_empty() {
                continue;
            }
            let Some(name) = part.strip_prefix('%') else {
                return Err(format!(
                    "expected a register in the address {p}, found '{part}'"
                ));
            };
            let r = x86_reg(name).ok_or_else(|| format!("unknown register %{name} in {p}"))?;
            if !r.zero {
                regs.push(r);
            }
        }
        let (offset, symbol) = if disp.is_empty() {
            (None, None)
        } else if let Some(v) = parse_int(disp) {
            (Some(v), None)
        } else {
            let sym: String = disp
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'))
                .collect();
            (None, Some(sym).filter(|s| !s.is_empty()))
        };
        return Ok(Opnd::Mem(Mem {
            regs,
            offset,
            symbol,
            indexed: parts.len() > 1,
        }));
    }
    if let Some(v) = parse_int(p) {
        // An absolute address.
        return Ok(Opnd::Mem(Mem {
            regs: Vec::new(),
            offset: Some(v),
            symbol: None,
            indexed: false,
        }));
    }
    Ok(Opnd::Label)
}

/// The x86 mnemonic without its size suffix, when it is a flag-setting
/// integer instruction's (`addq` → `add`).
fn x86_int_base(m: &str) -> Option<&str> {
    const SETS: &[&str] = &[
        "add", "sub", "adc", "sbb", "and", "or", "xor", "neg", "inc", "dec", "cmp", "test", "shl",
        "shr", "sar", "sal", "rol", "ror", "imul", "mul", "popcnt", "lzcnt", "tzcnt", "bsf", "bsr",
        "bt", "bts", "btr", "btc",
    ];
    SETS.iter().copied().find(|b| {
        m == *b
            || (m.len() == b.len() + 1
                && m.starts_with(b)
                && matches!(m.as_bytes()[b.len()], b'b' | b'w' | b'l' | b'q'))
    })
}

fn x86_semantics(insn: &Insn) -> Result<Sem, String> {
    let m = insn.mnemonic.as_str();
    let ops = &insn.operands;
    let base = x86_int_base(m);
    let writes_flags = base.is_some()
        || ["ucomis", "comis", "vucomis", "vcomis"]
            .iter()
            .any(|p| m.starts_with(p));
    let reads_flags = (m.starts_with('j') && m != "jmp")
        || m.starts_with("cmov")
        || m.starts_with("set")
        || matches!(base, Some("adc" | "sbb"));
    let mut sem = Sem::new(writes_flags, reads_flags);
    if m.starts_with('j') || m.starts_with("call") || m.starts_with("ret") || m == "nop" {
        if m.starts_with("call") {
            return Err(format!("{m}: a call is not modelled inside a kernel"));
        }
        sem.sources = ops
            .iter()
            .filter(|o| !matches!(o, Opnd::Label))
            .cloned()
            .collect();
        return Ok(sem);
    }
    let is_compare = matches!(base, Some("cmp" | "test" | "bt"))
        || ["ucomis", "comis", "vucomis", "vcomis"]
            .iter()
            .any(|p| m.starts_with(p));
    if is_compare {
        sem.dest_flags = true;
        sem.sources = imm_last(ops.iter().rev().cloned().collect());
        return Ok(sem);
    }
    let Some(last) = ops.last() else {
        return Ok(sem);
    };
    if m.starts_with("lea") {
        // An address computed, not read: its registers and offset.
        let (Some(Opnd::Mem(a)), Opnd::Reg(d)) = (ops.first(), last) else {
            return Err(format!("{m}: expected an address and a register"));
        };
        sem.dest = Some(d.clone());
        sem.sources = a.regs.iter().cloned().map(Opnd::Reg).collect();
        if let Some(v) = a.offset {
            sem.sources.push(Opnd::Imm(v));
        }
        return Ok(sem);
    }
    match last {
        Opnd::Mem(_) => {
            // A store (or a read-modify-write of memory): the address first.
            let mut s = vec![last.clone()];
            s.extend(ops[..ops.len() - 1].iter().cloned());
            sem.sources = imm_last(s);
        }
        Opnd::Reg(d) => {
            sem.dest = Some(d.clone());
            let others: Vec<Opnd> = ops[..ops.len() - 1].to_vec();
            sem.sources = if others.is_empty() {
                vec![last.clone()]
            } else if others.len() == 1 && !x86_write_only(m) {
                imm_last(vec![last.clone(), others[0].clone()])
            } else if x86_fma(m) {
                let mut s = imm_last(others);
                s.push(last.clone());
                s
            } else {
                imm_last(others)
            };
            if m.starts_with("cmov") {
                // Reads the destination too (kept when the condition fails).
                sem.sources = vec![last.clone(), ops[0].clone()];
            }
        }
        _ => {
            return Err(format!(
                "{m}: the last operand is not a register or an address"
            ));
        }
    }
    Ok(sem)
}

/// x86 instructions whose two-operand form only writes its destination.
fn x86_write_only(m: &str) -> bool {
    [
        "mov",
        "vmov",
        "lea",
        "cvt",
        "vcvt",
        "popcnt",
        "lzcnt",
        "tzcnt",
        "bsf",
        "bsr",
        "sqrt",
        "vsqrt",
        "rcp",
        "vrcp",
        "rsqrt",
        "vrsqrt",
        "vbroadcast",
        "vpbroadcast",
        "pmovzx",
        "pmovsx",
        "vpmovzx",
        "vpmovsx",
        "vpabs",
        "pabs",
        "set",
        "vpermq",
        "vpermpd",
        "pshufd",
        "vpshufd",
    ]
    .iter()
    .any(|p| m.starts_with(p))
}

fn x86_fma(m: &str) -> bool {
    ["vfmadd", "vfmsub", "vfnmadd", "vfnmsub"]
        .iter()
        .any(|p| m.starts_with(p))
}

/// The operands with immediates moved to the end (the lab forms' order).
fn imm_last(v: Vec<Opnd>) -> Vec<Opnd> {
    let (imm, rest): (Vec<Opnd>, Vec<Opnd>) =
        v.into_iter().partition(|o| matches!(o, Opnd::Imm(_)));
    rest.into_iter().chain(imm).collect()
}

// -------------------------------------------------------------- AArch64

fn a64_reg(p: &str) -> Option<Reg> {
    let lower = p.to_ascii_lowercase();
    // `v1.2d`, `v1.s[1]`, `v1.16b`: the arrangement is not the register.
    let mut parts = lower.split('.');
    let name = parts.next().unwrap_or("");
    let arrangement = parts.next().and_then(|a| {
        let lanes: String = a.chars().take_while(char::is_ascii_digit).collect();
        let lane = a[lanes.len()..].chars().next()?;
        Some((lanes.parse().ok()?, lane))
    });
    let mk = |phys: String, letter: char, zero: bool| Reg {
        phys,
        spelled: name.to_string(),
        letter,
        zero,
        arrangement,
    };
    match name {
        "xzr" => return Some(mk("XZR".into(), 'X', true)),
        "wzr" => return Some(mk("XZR".into(), 'W', true)),
        "sp" => return Some(mk("SP".into(), 'X', false)),
        "wsp" => return Some(mk("SP".into(), 'W', false)),
        "lr" => return Some(mk("X30".into(), 'X', false)),
        "fp" => return Some(mk("X29".into(), 'X', false)),
        _ => {}
    }
    let mut chars = name.chars();
    let first = chars.next()?;
    let n: u32 = chars.as_str().parse().ok()?;
    if n > 31 {
        return None;
    }
    match first {
        'x' | 'w' if n <= 30 => Some(mk(format!("X{n}"), first.to_ascii_uppercase(), false)),
        'v' | 'q' | 'd' | 's' | 'h' | 'b' => {
            Some(mk(format!("V{n}"), first.to_ascii_uppercase(), false))
        }
        _ => None,
    }
}

/// A shift or extend modifier (`lsl #3`, `uxtw`, `sxtw #2`).
fn is_modifier(p: &str) -> bool {
    let w = p
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    matches!(
        w.as_str(),
        "lsl"
            | "lsr"
            | "asr"
            | "ror"
            | "msl"
            | "uxtb"
            | "uxth"
            | "uxtw"
            | "uxtx"
            | "sxtb"
            | "sxth"
            | "sxtw"
            | "sxtx"
    )
}

fn a64_operand(p: &str) -> Result<Opnd, String> {
    if let Some(inner) = p.strip_prefix('[') {
        let inner = inner.trim_end_matches('!');
        let inner = inner.strip_suffix(']').unwrap_or(inner);
        let mut regs = Vec::new();
        let mut offset = None;
        let mut indexed = false;
        for (k, part) in inner.split(',').map(str::trim).enumerate() {
            if is_modifier(part) {
                continue;
            }
            if let Some(v) = part.strip_prefix('#') {
                offset = parse_int(v).or(Some(0));
                continue;
            }
            if part.starts_with(':') {
                // `:lo12:sym`
                continue;
            }
            let r = a64_reg(part)
                .ok_or_else(|| format!("unknown register '{part}' in the address {p}"))?;
            if k > 0 {
                indexed = true;
            }
            if !r.zero {
                regs.push(r);
            }
        }
        return Ok(Opnd::Mem(Mem {
            regs,
            offset,
            symbol: None,
            indexed,
        }));
    }
    if let Some(v) = p.strip_prefix('#') {
        return Ok(Opnd::Imm(parse_int(v).unwrap_or(0)));
    }
    if let Some(v) = parse_int(p) {
        return Ok(Opnd::Imm(v));
    }
    if p.starts_with('{') {
        return Err(format!("a register list ({p}) is not modelled"));
    }
    match a64_reg(p) {
        Some(r) => Ok(Opnd::Reg(r)),
        None => Ok(Opnd::Label),
    }
}

/// Whether the A64 mnemonic `m` writes the condition flags.
fn a64_writes_flags(m: &str) -> bool {
    matches!(
        m,
        "adds"
            | "subs"
            | "ands"
            | "bics"
            | "cmp"
            | "cmn"
            | "tst"
            | "fcmp"
            | "fcmpe"
            | "ccmp"
            | "ccmn"
            | "fccmp"
            | "negs"
            | "ngcs"
            | "adcs"
            | "sbcs"
    )
}

/// Whether the A64 mnemonic `m` reads the condition flags.
fn a64_reads_flags(m: &str) -> bool {
    m.starts_with("b.")
        || matches!(
            m,
            "csel"
                | "csinc"
                | "csinv"
                | "csneg"
                | "cset"
                | "csetm"
                | "cinc"
                | "cinv"
                | "cneg"
                | "ccmp"
                | "ccmn"
                | "fccmp"
                | "fcsel"
                | "adc"
                | "adcs"
                | "sbc"
                | "sbcs"
                | "ngc"
                | "ngcs"
        )
}

fn a64_semantics(insn: &Insn) -> Result<Sem, String> {
    let m = insn.mnemonic.as_str();
    let ops = &insn.operands;
    let writes_flags = a64_writes_flags(m);
    let reads_flags = a64_reads_flags(m);
    let mut sem = Sem::new(writes_flags, reads_flags);
    let operands: Vec<Opnd> = ops
        .iter()
        .filter(|o| !matches!(o, Opnd::Label))
        .cloned()
        .collect();
    if m == "b"
        || m.starts_with("b.")
        || matches!(m, "cbz" | "cbnz" | "tbz" | "tbnz" | "ret" | "br" | "nop")
    {
        sem.sources = imm_last(operands);
        return Ok(sem);
    }
    if m == "bl" || m == "blr" {
        return Err(format!("{m}: a call is not modelled inside a kernel"));
    }
    if insn.list > 0 && m.starts_with("ld") {
        // `ld2 { v0.2d, v1.2d }, [x0]`: the list's registers are written.
        let (dests, rest) = operands.split_at(insn.list);
        let mut regs = dests.iter().filter_map(|o| match o {
            Opnd::Reg(r) => Some(r.clone()),
            _ => None,
        });
        sem.dest = regs.next();
        sem.more_dests = regs.collect();
        sem.sources = imm_last(rest.to_vec());
        return writeback(insn, sem);
    }
    if matches!(m, "ldp" | "ldnp" | "ldpsw") {
        // A load pair writes two registers from one address.
        let [Opnd::Reg(d1), Opnd::Reg(d2), rest @ ..] = operands.as_slice() else {
            return Err(format!("{m}: expected two registers, then an address"));
        };
        sem.dest = Some(d1.clone());
        sem.more_dests.push(d2.clone());
        sem.sources = imm_last(rest.to_vec());
        return writeback(insn, sem);
    }
    if matches!(
        m,
        "cmp" | "cmn" | "tst" | "fcmp" | "fcmpe" | "ccmp" | "ccmn" | "fccmp"
    ) {
        sem.dest_flags = true;
        sem.sources = imm_last(operands);
        return Ok(sem);
    }
    if m.starts_with("st") {
        // A store: its address first, then the data.
        let (mem, data): (Vec<Opnd>, Vec<Opnd>) = operands
            .into_iter()
            .partition(|o| matches!(o, Opnd::Mem(_)));
        sem.sources = mem.into_iter().chain(data).collect();
        return writeback(insn, sem);
    }
    let Some(Opnd::Reg(d)) = operands.first() else {
        return Err(format!("{m}: expected a register as the first operand"));
    };
    sem.dest = Some(d.clone());
    let accumulates = matches!(
        m,
        "fmla" | "fmls" | "mla" | "mls" | "bfi" | "bfxil" | "movk" | "sdot" | "udot" | "ins"
    );
    let mut sources: Vec<Opnd> = Vec::new();
    if accumulates {
        sources.push(operands[0].clone());
    }
    sources.extend(operands[1..].iter().cloned());
    sem.sources = imm_last(sources);
    writeback(insn, sem)
}

/// An address with writeback also writes its base register: the last
/// destination (a store's only one).
fn writeback(insn: &Insn, mut sem: Sem) -> Result<Sem, String> {
    if insn.writeback.is_none() {
        return Ok(sem);
    }
    let base = sem.sources.iter().find_map(|o| match o {
        Opnd::Mem(a) if !a.indexed => a.regs.first(),
        _ => None,
    });
    let Some(base) = base.cloned() else {
        return Err(format!(
            "{}: an address with writeback needs a base register and no index",
            insn.mnemonic
        ));
    };
    if sem.dest.is_none() {
        sem.dest = Some(base);
    } else {
        sem.more_dests.push(base);
    }
    Ok(sem)
}

// ------------------------------------------------------------- classes

/// The lab shape of an instruction.
fn shape_of(sem: &Sem) -> Shape {
    Shape {
        dests: u8::from(sem.dest.is_some() || sem.dest_flags) + sem.more_dests.len() as u8,
        kinds: sem
            .sources
            .iter()
            .map(|o| match o {
                Opnd::Reg(_) => REG,
                Opnd::Imm(_) => IMM,
                Opnd::Mem(_) => MEM,
                Opnd::Label => REG,
            })
            .chain(sem.reads_flags.then_some(REG))
            .collect(),
    }
}

/// The opcode of the model for `insn`: see the module header.
fn choose_opcode(m: &Machine, insn: &Insn, sem: &Sem, dialect: Dialect) -> Result<String, String> {
    let shape = shape_of(sem);
    let spelled: Vec<&str> = m
        .opcodes()
        .filter(|o| o.split('.').next() == Some(insn.mnemonic.as_str()) || *o == insn.mnemonic)
        .filter(|o| {
            *o == insn.mnemonic
                || o.len() > insn.mnemonic.len() && o.as_bytes()[insn.mnemonic.len()] == b'.'
        })
        .collect();
    let takes: Vec<&str> = spelled
        .iter()
        .copied()
        .filter(|o| m.class_for_shape(o, &shape).is_some())
        .collect();
    if takes.is_empty() {
        if spelled.is_empty() {
            let near = nearest(m, &insn.mnemonic);
            // The lab's toy machine (the default) models no real processor.
            let choose = if m.name() == "toy" {
                "; assembly needs a processor model: -mcpu=NAME or --machine NAME (-mcpu=help lists them)"
            } else {
                ""
            };
            return Err(format!(
                "{}: the model {} has no class for this instruction (shape '{shape}'){}{choose}",
                insn.mnemonic,
                m.name(),
                if near.is_empty() {
                    String::new()
                } else {
                    format!(" (it knows {})", near.join(", "))
                }
            ));
        }
        let forms: Vec<String> = spelled
            .iter()
            .filter_map(|o| m.class_by_opcode(o))
            .map(|c| format!("{} {}", m.class(c).name, m.class(c).forms_text()))
            .collect();
        return Err(format!(
            "{}: the model {} has no form of it for '{}' (its forms: {})",
            insn.mnemonic,
            m.name(),
            shape,
            forms.join("; ")
        ));
    }
    let wanted = signature(insn, sem, dialect);
    let best = takes
        .iter()
        .copied()
        .max_by_key(|o| {
            let c = m
                .class_for_shape(o, &shape)
                .map(|c| m.class(c).name.as_str())
                .unwrap_or("");
            let score: i32 = wanted
                .iter()
                .map(|(pat, w)| if c.contains(pat.as_str()) { *w } else { 0 })
                .sum();
            (
                score,
                std::cmp::Reverse(o.len()),
                std::cmp::Reverse(o.to_string()),
            )
        })
        .unwrap_or(takes[0]);
    Ok(best.to_string())
}

/// Fragments of the LLVM opcode name an instruction should have, each with
/// a weight, to choose among classes that all take its operand kinds.
fn signature(insn: &Insn, sem: &Sem, dialect: Dialect) -> Vec<(String, i32)> {
    let mnemonic = insn.mnemonic.as_str();
    let mut out = Vec::new();
    let kinds: String = sem
        .dest
        .iter()
        .map(|_| 'r')
        .chain(sem.sources.iter().skip(usize::from(sem.dest.is_some() && sem.sources.len() > 1 && matches!(sem.sources.first(), Some(Opnd::Reg(r)) if Some(r) == sem.dest.as_ref()))).map(|o| match o {
            Opnd::Mem(_) => 'm',
            Opnd::Imm(_) => 'i',
            _ => 'r',
        }))
        .take(2)
        .collect();
    let regs = || {
        sem.dest
            .iter()
            .chain(sem.sources.iter().filter_map(|o| match o {
                Opnd::Reg(r) => Some(r),
                _ => None,
            }))
    };
    match dialect {
        Dialect::X86 => {
            if kinds.len() == 2 {
                out.push((kinds, 2));
            }
            if regs().any(|r| r.letter == 'Y') {
                out.push(("Y".into(), 1));
            } else {
                // An xmm or general register operand: not the 256-bit class.
                out.push(("Y".into(), -1));
            }
        }
        Dialect::AArch64 => {
            let data = if mnemonic.starts_with("st") {
                sem.sources.iter().find_map(|o| match o {
                    Opnd::Reg(r) => Some(r),
                    _ => None,
                })
            } else {
                sem.dest.as_ref()
            };
            if let Some(arr) = data.and_then(|r| vector_suffix(r, mnemonic)) {
                // The arrangement LLVM's vector class names carry
                // (FMLAv4f32 for `fmla v0.4s, …`, FMLAv2f64 for `.2d`).
                out.push((format!("{}{arr}", mnemonic.to_ascii_uppercase()), 3));
            }
            if let Some(l) = data.map(|r| r.letter) {
                let up = mnemonic.to_ascii_uppercase();
                out.push((format!("{up}{l}"), 2));
                // LLVM names a vector class by its arrangement after a
                // small `v` (FADDv2f64, ADDv4i32). A class named for
                // another register kind is the wrong one (ANDVrrr for
                // `and x0, x1, x2`).
                let v = if l == 'V' { 2 } else { -2 };
                out.push((format!("{up}v"), v));
                for other in "XWQDSHBV".chars().filter(|&o| o != l) {
                    out.push((format!("{up}{other}"), -2));
                }
            }
            // A shifted operand takes the class generated for it (named
            // `…shift…` by scripts/mca-rows.py), never an unshifted one's.
            out.push(("shift".into(), if insn.shifted { 3 } else { -3 }));
            match insn.writeback {
                Some(Writeback::Post) => out.push(("post".into(), 3)),
                Some(Writeback::Pre) => out.push(("pre".into(), 3)),
                None => {}
            }
            if let Some(Opnd::Mem(a)) = sem.sources.iter().find(|o| matches!(o, Opnd::Mem(_))) {
                out.push((if a.indexed { "ro" } else { "ui" }.into(), 1));
            } else if sem.sources.iter().any(|o| matches!(o, Opnd::Imm(_))) {
                out.push(("ri".into(), 1));
            } else {
                out.push(("rr".into(), 1));
            }
        }
    }
    out
}

/// The arrangement part of an LLVM vector class name for register `r`
/// (`v4f32` for `v1.4s` in a floating-point instruction, `v16i8` for
/// `v1.16b`), if it is a whole vector with an arrangement.
fn vector_suffix(r: &Reg, mnemonic: &str) -> Option<String> {
    let (lanes, lane) = r.arrangement?;
    let bits = match lane {
        'b' => 8,
        'h' => 16,
        's' => 32,
        'd' => 64,
        _ => return None,
    };
    let kind = if mnemonic.starts_with('f') { 'f' } else { 'i' };
    (lanes > 0).then(|| format!("v{lanes}{kind}{bits}"))
}

/// Up to three opcodes of the model spelled most like `word`.
fn nearest(m: &Machine, word: &str) -> Vec<String> {
    let mut all: Vec<(usize, &str)> = m
        .opcodes()
        .map(|o| (edit_distance(o.split('.').next().unwrap_or(o), word), o))
        .filter(|(d, _)| *d <= 2)
        .collect();
    all.sort();
    let mut out: Vec<String> = Vec::new();
    for (_, o) in all {
        let b = o.split('.').next().unwrap_or(o).to_string();
        if !out.contains(&b) {
            out.push(b);
        }
        if out.len() == 3 {
            break;
        }
    }
    out
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(ca != cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

// ---------------------------------------------------------------- emit

/// Names for one iteration: a register written again gets a fresh name.
struct Names {
    /// The physical register's base spelling (its first one in the file).
    base: std::collections::HashMap<String, String>,
    /// Names of each physical register's writes, in order.
    writes: std::collections::HashMap<String, Vec<String>>,
    used: std::collections::HashSet<String>,
}

/// The name of the flags' writes in [`Names::writes`] (no register's).
const FLAGS: &str = "\u{0}flags";

impl Names {
    /// Names in which every spelling of a register in `ops`, and the
    /// flags' own name, reserve their base names, so that fresh names
    /// never take one.
    fn reserving(ops: &[(Insn, Sem, String)], dialect: Dialect) -> Names {
        let mut names = Names {
            base: Default::default(),
            writes: Default::default(),
            used: Default::default(),
        };
        for (_, sem, _) in ops {
            for r in sem
                .dest
                .iter()
                .chain(&sem.more_dests)
                .chain(sem.sources.iter().flat_map(|o| match o {
                    Opnd::Reg(r) => vec![r],
                    Opnd::Mem(a) => a.regs.iter().collect(),
                    _ => Vec::new(),
                }))
            {
                let b = names.base_of(r);
                names.used.insert(b);
            }
        }
        names.used.insert(flags_base(dialect).to_string());
        names
    }

    fn base_of(&mut self, r: &Reg) -> String {
        self.base
            .entry(r.phys.clone())
            .or_insert_with(|| r.spelled.clone())
            .clone()
    }

    fn fresh(&mut self, base: &str) -> String {
        let mut k = 1;
        loop {
            let n = if k == 1 {
                base.to_string()
            } else {
                format!("{base}{k}")
            };
            if self.used.insert(n.clone()) {
                return n;
            }
            k += 1;
        }
    }

    /// Records `n` as the next write of `key` (a physical register, or
    /// [`FLAGS`]).
    fn wrote(&mut self, key: &str, n: &str) {
        self.writes
            .entry(key.to_string())
            .or_default()
            .push(n.to_string());
    }

    /// Pass 1: the names each operation's writes get, in order; a
    /// register written again gets a fresh name.
    fn name_writes(&mut self, ops: &[(Insn, Sem, String)], dialect: Dialect) -> Vec<Vec<String>> {
        let mut seen: std::collections::HashSet<String> = Default::default();
        let mut dest_names: Vec<Vec<String>> = Vec::new();
        for (_, sem, _) in ops {
            if sem.dest_flags {
                let n = if seen.insert(FLAGS.to_string()) {
                    flags_base(dialect).to_string()
                } else {
                    self.fresh(flags_base(dialect))
                };
                self.wrote(FLAGS, &n);
                dest_names.push(vec![n]);
                continue;
            }
            let mut written = Vec::new();
            for (k, d) in sem.dest.iter().chain(&sem.more_dests).enumerate() {
                let base = self.base_of(d);
                let n = if d.zero {
                    self.fresh(&format!("{base}_"))
                } else if seen.insert(d.phys.clone()) {
                    base
                } else {
                    self.fresh(&base)
                };
                if !d.zero {
                    self.wrote(&d.phys, &n);
                }
                if k == 0 && sem.writes_flags {
                    self.wrote(FLAGS, &n);
                }
                written.push(n);
            }
            dest_names.push(written);
        }
        dest_names
    }

    /// The name a read of `r` sees: the latest write so far (`current`),
    /// else the body's last write (carried from the previous iteration),
    /// else the register's own name.
    fn read(&mut self, current: &std::collections::HashMap<String, String>, r: &Reg) -> String {
        if r.zero {
            return format!("{}_zero", self.base_of(r));
        }
        if let Some(n) = current.get(&r.phys) {
            return n.clone();
        }
        match self.writes.get(&r.phys).and_then(|w| w.last()) {
            Some(n) => n.clone(),
            None => self.base_of(r),
        }
    }

    /// The operand texts of one operation's reads, the flags last.
    fn source_texts(
        &mut self,
        current: &std::collections::HashMap<String, String>,
        sem: &Sem,
        dialect: Dialect,
    ) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        for o in &sem.sources {
            parts.push(match o {
                Opnd::Reg(r) => self.read(current, r),
                Opnd::Imm(v) => v.to_string(),
                Opnd::Mem(a) => {
                    let mut inside: Vec<String> = Vec::new();
                    if let Some(s) = &a.symbol {
                        inside.push(s.clone());
                    }
                    for r in a.regs.iter().take(2 - inside.len().min(1)) {
                        inside.push(self.read(current, r));
                    }
                    if let Some(v) = a.offset {
                        inside.push(v.to_string());
                    }
                    if inside.is_empty() {
                        inside.push("mem".into());
                    }
                    format!("[{}]", inside.join(" + "))
                }
                Opnd::Label => "0".into(),
            });
        }
        if sem.reads_flags {
            let f = current
                .get(FLAGS)
                .cloned()
                .or_else(|| self.writes.get(FLAGS).and_then(|w| w.last().cloned()))
                .unwrap_or_else(|| flags_base(dialect).to_string());
            parts.push(f);
        }
        parts
    }
}

/// A name for the flags themselves.
fn flags_base(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::X86 => "eflags",
        Dialect::AArch64 => "nzcv",
    }
}

/// Makes `dest`, the names of `sem`'s writes, the latest ones.
fn record_writes(
    current: &mut std::collections::HashMap<String, String>,
    sem: &Sem,
    dest: &[String],
) {
    if sem.dest_flags {
        if let Some(n) = dest.first() {
            current.insert(FLAGS.into(), n.clone());
        }
        return;
    }
    for (k, (d, n)) in sem.dest.iter().chain(&sem.more_dests).zip(dest).enumerate() {
        if !d.zero {
            current.insert(d.phys.clone(), n.clone());
        }
        if k == 0 && sem.writes_flags {
            current.insert(FLAGS.into(), n.clone());
        }
    }
}

/// The loop's name: the file's stem as an identifier.
fn kernel_name(origin: &str) -> String {
    let stem = std::path::Path::new(origin)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("kernel{name}")
    } else {
        name
    }
}

/// One lowered operation's line: `label: dests = opcode parts   # asm: text`.
fn op_line(label: &str, dest: &[String], opcode: &str, parts: &[String], insn: &Insn) -> String {
    let mut line = format!("{label}: ");
    if !dest.is_empty() {
        line.push_str(&dest.join(", "));
        line.push_str(" = ");
    }
    line.push_str(opcode);
    if !parts.is_empty() {
        line.push(' ');
        line.push_str(&parts.join(", "));
    }
    line.push_str("   # asm: ");
    line.push_str(&insn.text);
    line
}

/// The loop text of the lowered operations, each on its source line.
fn emit(ops: &[(Insn, Sem, String)], origin: &str, lines: usize, dialect: Dialect) -> String {
    let mut names = Names::reserving(ops, dialect);
    let dest_names = names.name_writes(ops, dialect);
    // Pass 2: reads name the latest write so far, else the body's last.
    let mut current: std::collections::HashMap<String, String> = Default::default();
    let mut text_lines: Vec<String> = vec![String::new(); lines.max(1)];
    for (k, ((insn, sem, opcode), dest)) in ops.iter().zip(&dest_names).enumerate() {
        let parts = names.source_texts(&current, sem, dialect);
        record_writes(&mut current, sem, dest);
        let line = op_line(&op_label(k + 1), dest, opcode, &parts, insn);
        if let Some(slot) = text_lines.get_mut(insn.line as usize - 1) {
            *slot = line;
        }
    }
    let mut out = format!("loop {}\n", kernel_name(origin));
    for l in text_lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// `a`, `b`, …, `z`, `aa`, `ab`, …: the labels of the lowered operations.
fn op_label(k: usize) -> String {
    let mut k = k;
    let mut s = Vec::new();
    while k > 0 {
        k -= 1;
        s.push(b'a' + (k % 26) as u8);
        k /= 26;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(name: &str) -> Machine {
        let text = std::fs::read_to_string(format!(
            "{}/../../labs/ch23-sched/machines/{name}.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        Machine::from_yaml(&text, name).unwrap()
    }

    /// The lowered operations without their `# asm:` comments.
    fn ops_of(lab: &str) -> Vec<&str> {
        lab.lines()
            .filter(|l| l.contains(": "))
            .map(|l| l.split("   #").next().unwrap_or(l))
            .collect()
    }

    fn skl() -> Machine {
        builtin("skylake-llvm14")
    }

    /// Lowering that leaves out what no class models.
    const SKIP: Options = Options {
        skip_unsupported: true,
    };

    /// The first problem `lower` finds in `s` for `m`.
    fn first_error(s: &str, m: &Machine) -> String {
        let e = lower(s, "k.s", m, &Options::default()).unwrap_err();
        e.0[0].message.clone()
    }

    /// Lowers `s` for `m`, checks the operations against `want`, and gives
    /// the lowering back for what else a test looks at.
    fn assert_lowers(s: &str, file: &str, m: &Machine, want: &[&str]) -> Lowered {
        let l = lower(s, file, m, &Options::default()).unwrap();
        assert_eq!(ops_of(&l.lab), want);
        l
    }

    #[test]
    fn the_dot_box_lowers_to_the_corpus_form() {
        let s = "# dot\n.Lloop:\n  vmovupd (%rdi,%rax), %ymm1\n  vfmadd231pd (%rsi,%rax), %ymm1, %ymm0\n  addq $32, %rax\n  cmpq %rcx, %rax\n  jne .Lloop\n";
        let l = assert_lowers(
            s,
            "dot.s",
            &skl(),
            &[
                "a: ymm1 = vmovupd [rdi + rax]",
                "b: ymm0 = vfmadd231pd [rsi + rax], ymm1, ymm0",
                "c: rax = addq rax, 32",
                "d: eflags = cmpq rax, rcx",
                "e: jne eflags",
            ],
        );
        assert!(l.lab.starts_with("loop dot\n"));
        // Line k of the assembly is line k + 1 of the lab text.
        assert_eq!(
            l.lab.lines().nth(3).unwrap().split("   #").next(),
            Some("a: ymm1 = vmovupd [rdi + rax]")
        );
        assert!(l.lab.contains("# asm: vmovupd\t(%rdi,%rax), %ymm1"));
    }

    #[test]
    fn a_register_written_twice_is_renamed_and_flags_follow_their_writer() {
        let s = "movq (%rdi), %rax\naddq $1, %rax\nsubq $1, %rcx\njne .L\n";
        assert_lowers(
            s,
            "k.s",
            &skl(),
            &[
                "a: rax = movq [rdi]",
                "b: rax2 = addq rax, 1",
                "c: rcx = subq rcx, 1",
                "d: jne rcx",
            ],
        );
    }

    #[test]
    fn sub_registers_are_one_register_and_stores_put_the_address_first() {
        // addl writes eax, which is rax: the store reads that write.
        let s = "addl $1, %eax\nmovq %rax, 8(%rsi)\nmovq %rax, %rbx\n";
        assert_lowers(
            s,
            "k.s",
            &skl(),
            &[
                "a: eax = addl eax, 1",
                "b: movq.st [rsi + 8], eax",
                "c: rbx = movq.rr eax",
            ],
        );
    }

    #[test]
    fn an_unknown_instruction_is_located_and_can_be_skipped() {
        let s = "  vaddps %ymm0, %ymm1, %ymm2\naddq $1, %rax\n";
        let e = lower(s, "k.s", &skl(), &Options::default()).unwrap_err();
        let d = &e.0[0];
        assert_eq!((d.line, d.column), (1, 3));
        assert!(d.message.contains("vaddps"), "{}", d.message);
        let l = lower(s, "k.s", &skl(), &SKIP).unwrap();
        assert_eq!(l.skipped.len(), 1);
        assert!(l.lab.contains("addq"));
    }

    #[test]
    fn a_file_of_many_bad_lines_reports_fifty_and_counts_the_rest() {
        let bad = "  vaddps %ymm0, %ymm1, %ymm2\n".repeat(1000);
        let e = lower(&bad, "k.s", &skl(), &Options::default()).unwrap_err();
        assert_eq!(e.0.len(), MAX_DIAGNOSTICS + 1);
        let last = &e.0[MAX_DIAGNOSTICS];
        assert_eq!(last.line, MAX_DIAGNOSTICS as u32 + 1);
        assert!(
            last.message.starts_with("950 more problems"),
            "{}",
            last.message
        );
        let text = format!("{bad}addq $1, %rax\n");
        let l = lower(&text, "k.s", &skl(), &SKIP).unwrap();
        assert_eq!(l.skipped.len(), MAX_DIAGNOSTICS + 1);
        let all = lower(&bad, "k.s", &skl(), &SKIP).unwrap_err();
        assert!(
            all.0[0].message.contains("all 1000 were skipped"),
            "{}",
            all.0[0].message
        );
    }

    #[test]
    fn regions_directives_and_writeback() {
        let s =
            "\t.text\nfoo:\n# LLVM-MCA-BEGIN k\naddq $1, %rax\n# LLVM-MCA-END\nimulq %rax, %rbx\n";
        let l = lower(s, "k.s", &skl(), &Options::default()).unwrap();
        assert!(
            l.lab.contains("addq") && !l.lab.contains("imulq"),
            "{}",
            l.lab
        );
        // Writeback: the base register is the last destination, after the
        // data registers (none for a store); post-index keeps its increment.
        let m1 = builtin("apple-m1");
        let l = lower(
            "ldr q0, [x0], #16\nldp q1, q2, [x1, #32]\nstr q0, [x2], #16\nadd x3, x0, x1\n",
            "k.s",
            &m1,
            &Options::default(),
        )
        .unwrap();
        let ops = ops_of(&l.lab);
        // (A loop: each register's one write keeps its name, and a read
        // before it reads the previous iteration's value.)
        let want = [
            ("a: q0, x0 = ldr", " [x0], 16"),
            ("b: q1, q2 = ldp", " [x1 + 32]"),
            ("c: x2 = str", " [x2], q0, 16"),
            ("", " x0, x1"),
        ];
        assert!(ops.len() >= want.len(), "{}", l.lab);
        for (op, (head, tail)) in ops.iter().zip(want) {
            assert!(op.starts_with(head) && op.ends_with(tail), "{}", l.lab);
        }
        // A register list: each of its registers is written.
        let l = lower(
            "ld2 { v0.2d, v1.2d }, [x0]\n",
            "k.s",
            &m1,
            &Options::default(),
        )
        .unwrap();
        assert!(l.lab.contains("a: v0, v1 = ld2"), "{}", l.lab);
        // Pre-index: the base register is the third destination.
        let e = first_error("ldp q1, q2, [x1, #32]!\n", &m1);
        assert!(e.contains("for 'r, r, r = m'"), "{e}");
    }

    #[test]
    fn aarch64_registers_and_accumulators() {
        let m1 = builtin("apple-m1");
        let s = ".Lloop:\n  ldr q1, [x0, x8]\n  ldr q2, [x1, x8]\n  fmla v0.2d, v1.2d, v2.2d\n  add x8, x8, #16\n  cmp x8, x9\n  b.ne .Lloop\n";
        let l = assert_lowers(
            s,
            "dot.s",
            &m1,
            &[
                "a: q1 = ldr [x0 + x8]",
                "b: q2 = ldr [x1 + x8]",
                "c: v0 = fmla v0, q1, q2",
                "d: x8 = add x8, 16",
                "e: nzcv = cmp x8, x9",
                "f: b.ne nzcv",
            ],
        );
        assert!(l.lab.contains("# asm: fmla\tv0.2d, v1.2d, v2.2d"));
        assert!(l.lab.contains("# asm: ldr\tq1, [x0, x8]"));
    }

    #[test]
    fn the_toy_machine_says_to_choose_a_processor() {
        let toy = builtin("toy");
        let e = first_error("vdivpd %ymm0, %ymm1, %ymm2\n", &toy);
        assert!(e.contains("-mcpu=NAME"), "{e}");
    }

    #[test]
    fn detection() {
        assert!(is_assembly("div.s", "loop x"));
        assert!(!is_assembly("k.txt", "vdivpd %ymm0, %ymm1, %ymm2"));
        assert!(is_assembly("-", "vdivpd %ymm0, %ymm1, %ymm2\n"));
        assert!(!is_assembly("-", "# c\nloop l\na: r1 = add r1, 1\n"));
        assert_eq!(dialect_of("add x0, x0, #1"), Dialect::AArch64);
        assert_eq!(op_label(27), "aa");
    }
}
