//! Operands as the two dialects write them, read into one shape.
//!
//! Each operand has a *kind* (the token it adds to its instruction's form
//! key: `r64`, `i8`, `m[r64,r64,d]`, `v.4s`, `[x,i13.4]!`) and *parts*:
//! the registers and numbers a form's template takes into the MCInst
//! (`base`, `index`, `disp`, …). The key says which LLVM instruction a
//! statement is; the parts fill its operands.

use std::fmt::Write as _;

/// A register as written, with LLVM's name for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reg {
    /// LLVM's name of the register (`RAX`, `X8`, `FP`, `Q1`, `D1`,
    /// `Q0_Q1`, `Z3`, `P0`).
    pub name: String,
    /// The kind token (`r64`, `x`, `v.4s`, …).
    pub kind: String,
    /// The register as printed (`%rax`, `x8`, `v1.2d`).
    pub text: String,
}

/// A number or a symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer (in range of `i64`; larger unsigned values wrap).
    Int(i64),
    /// A symbolic expression (`.LBB0_2`, `foo+8`, `:lo12:bar`), as written.
    Sym(String),
}

impl Value {
    /// The integer, if it is one.
    pub fn int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(*v),
            Value::Sym(_) => None,
        }
    }
}

/// One operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register (with an element index on AArch64: `v0.s[1]`).
    Reg(Reg, Option<i64>),
    /// An immediate (`$32`, `#16`, `#0x10`).
    Imm(Value),
    /// A floating-point immediate (`#1.0`), as written.
    Float(String),
    /// A memory reference.
    Mem(Box<Mem>),
    /// A bare symbol or number: a branch target, or an absolute address.
    Target(Value),
    /// x86 `*…`: an indirect branch through a register or memory.
    Indirect(Box<Operand>),
    /// A register list (`{v0.4s, v1.4s}`, `{ z0.s }`) as LLVM's tuple
    /// register, with a lane (`{v0.s, v1.s}[1]`).
    List {
        /// The tuple register.
        reg: Reg,
        /// How many registers.
        count: usize,
        /// The lane index, if any.
        lane: Option<i64>,
    },
    /// A shift or extend (`lsl #3`, `sxtw`, `mul vl`), with its amount.
    Shift {
        /// `lsl`, `lsr`, `asr`, `ror`, `msl`, `uxtw`, `sxtw`, …, `mul`.
        kind: String,
        /// The amount, if written.
        amount: Option<Value>,
    },
    /// An AArch64 condition (`ne`) or a named operand (`pldl1keep`, `ish`,
    /// `tpidr_el0`, `vl8`, `vl`), lower-cased.
    Word(String),
    /// An AVX-512 decoration: `{%k1}` (as a register), `{z}`, `{sae}`,
    /// `{rn-sae}`.
    Decor(String, Option<Reg>),
}

/// A memory reference of either dialect.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mem {
    /// x86 segment override (`%fs`).
    pub segment: Option<Reg>,
    /// x86 displacement (`-8`, `foo`), or AArch64 immediate offset.
    pub disp: Option<Value>,
    /// The base register.
    pub base: Option<Reg>,
    /// x86 index register, or AArch64 register offset.
    pub index: Option<Reg>,
    /// x86 scale (1, 2, 4, 8), when written.
    pub scale: Option<i64>,
    /// AArch64 offset shift or extend (`lsl #3`, `sxtw`), with its amount.
    pub extend: Option<(String, Option<i64>)>,
    /// AArch64 pre-index writeback (`[x0, #16]!`).
    pub writeback: bool,
    /// AArch64 `, mul vl` after an SVE offset.
    pub mul_vl: bool,
    /// x86 AVX-512 broadcast (`{1to16}`).
    pub broadcast: Option<String>,
}

/// The signed width of `v`: the fewest bits of a two's-complement number
/// that hold it (0 for 0, 2 for 1, 1 for −1).
pub fn signed_width(v: i64) -> u32 {
    if v >= 0 {
        65 - v.leading_zeros()
    } else {
        65 - (!v).leading_zeros()
    }
    .min(64)
}

/// The class of an AArch64 immediate in a form key: its sign, signed width
/// and trailing zeros (at most 4), which decide scaled or unscaled
/// offsets, 12-bit or shifted immediates, `add` or `sub`.
pub fn a64_imm_class(v: i64) -> String {
    if v == 0 {
        return "0".into();
    }
    let sign = if v < 0 { "-" } else { "" };
    format!("{sign}{}.{}", signed_width(v), v.trailing_zeros().min(4))
}

/// The class of an x86 immediate: which encodings can hold it.
pub fn x86_imm_class(v: i64) -> &'static str {
    match v {
        1 => "1",
        -128..=127 => "8",
        128..=255 => "u8",
        -32768..=32767 => "16",
        32768..=65535 => "u16",
        -2147483648..=2147483647 => "32",
        2147483648..=4294967295 => "u32",
        _ => "64",
    }
}

/// What a template can take from an operand: a register or a number, by
/// its path (`2`, `2.base`, `1.index`, `3.amount`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// A register, by LLVM name.
    Reg(String),
    /// A number.
    Int(i64),
}

impl Operand {
    /// Appends the operand's parts, with paths under `k`.
    pub fn parts(&self, k: usize, out: &mut Vec<(String, Part)>) {
        let reg = |out: &mut Vec<(String, Part)>, path: String, r: &Reg| {
            out.push((path, Part::Reg(r.name.clone())));
        };
        let int = |out: &mut Vec<(String, Part)>, path: String, v: &Value| {
            if let Value::Int(x) = v {
                out.push((path, Part::Int(*x)));
            }
        };
        match self {
            Operand::Reg(r, lane) => {
                reg(out, k.to_string(), r);
                if let Some(l) = lane {
                    out.push((format!("{k}.lane"), Part::Int(*l)));
                }
            }
            Operand::Imm(v) | Operand::Target(v) => int(out, k.to_string(), v),
            Operand::Mem(m) => {
                if let Some(r) = &m.segment {
                    reg(out, format!("{k}.seg"), r);
                }
                if let Some(r) = &m.base {
                    reg(out, format!("{k}.base"), r);
                }
                if let Some(r) = &m.index {
                    reg(out, format!("{k}.index"), r);
                }
                if let Some(v) = &m.disp {
                    int(out, format!("{k}.disp"), v);
                }
                // An index without a written scale is scaled by 1 (so that
                // `(%rax,%rcx)` and `(%rax,%rcx,2)` share one template).
                if let Some(s) = m.scale.or(m.index.as_ref().map(|_| 1)) {
                    out.push((format!("{k}.scale"), Part::Int(s)));
                }
                if let Some((_, Some(a))) = &m.extend {
                    out.push((format!("{k}.amount"), Part::Int(*a)));
                }
            }
            Operand::Indirect(inner) => inner.parts(k, out),
            Operand::List { reg: r, lane, .. } => {
                reg(out, k.to_string(), r);
                if let Some(l) = lane {
                    out.push((format!("{k}.lane"), Part::Int(*l)));
                }
            }
            Operand::Shift { amount, .. } => {
                if let Some(v) = amount {
                    int(out, format!("{k}.amount"), v);
                }
            }
            Operand::Decor(_, Some(r)) => reg(out, k.to_string(), r),
            Operand::Float(_) | Operand::Word(_) | Operand::Decor(_, None) => {}
        }
    }
}

/// Appends `v` as the printer writes an integer (decimal).
pub fn push_int(out: &mut String, v: i64) {
    let _ = write!(out, "{v}");
}
