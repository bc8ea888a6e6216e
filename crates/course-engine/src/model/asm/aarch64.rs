//! AArch64 statements: mnemonic (`b.ne`, `ld1`), and operands (`x8`,
//! `v0.2d`, `v1.s[1]`, `{v0.16b, v1.16b}`, `z0.s`, `p0/z`, `#16`,
//! `#1.0`, `lsl #3`, `[x0, x8, lsl #3]`, `[sp, #-16]!`, `:lo12:sym`, `ne`),
//! with each operand's kind for the form key and its rendering as LLVM's
//! printer writes it.

use super::expr;
use super::operand::{Mem, Operand, Reg, Value, a64_imm_class};
use super::x86::split_top;

/// A statement read.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// Lower-case (`b.ne`, `ldr`).
    pub mnemonic: String,
    /// In written order (destination first).
    pub operands: Vec<Operand>,
}

/// A mistake in a statement: where (byte offset in it) and why.
pub type Error = (usize, String);

const SHIFTS: [&str; 14] = [
    "lsl", "lsr", "asr", "ror", "msl", "uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw",
    "sxtx", "mul",
];

/// Reads one statement.
pub fn parse(text: &str) -> Result<Statement, Error> {
    let end = text.find([' ', '\t']).unwrap_or(text.len());
    let mnemonic = text[..end].to_ascii_lowercase();
    let rest = text[end..].trim_start();
    let base = text.len() - rest.len();
    let mut operands = Vec::new();
    if !rest.is_empty() {
        for (at, piece) in split_top(rest) {
            if piece.is_empty() {
                return Err((base + at, "an empty operand".into()));
            }
            operands.push(operand(piece, base + at)?);
        }
    }
    Ok(Statement { mnemonic, operands })
}

fn operand(p: &str, at: usize) -> Result<Operand, Error> {
    if p.starts_with('[') {
        return memory(p, at).map(|m| Operand::Mem(Box::new(m)));
    }
    if p.starts_with('{') {
        return list(p, at);
    }
    if let Some(imm) = p.strip_prefix('#') {
        return Ok(immediate(imm.trim()));
    }
    if p.contains(['.', 'e']) && p.parse::<f64>().is_ok() {
        return Ok(Operand::Float(p.to_string()));
    }
    let lower = p.to_ascii_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    if SHIFTS.contains(&first) {
        return shift(&lower, first, at);
    }
    if let Some(r) = register(p) {
        return Ok(r);
    }
    if p.starts_with(':') || p.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return Ok(immediate(p));
    }
    if is_word(&lower) {
        return Ok(Operand::Word(lower));
    }
    Ok(Operand::Target(Value::Sym(p.to_string())))
}

/// Condition codes and the named operands of system, prefetch, barrier and
/// SVE instructions; anything else that is an identifier is a symbol.
fn is_word(w: &str) -> bool {
    const CONDS: [&str; 18] = [
        "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt",
        "le", "al", "nv",
    ];
    const SVE: [&str; 6] = ["pow2", "all", "mul3", "mul4", "vl", "za"];
    CONDS.contains(&w)
        || SVE.contains(&w)
        || (w.starts_with("vl") && w[2..].parse::<u32>().is_ok())
        || ["pld", "pli", "pst"].iter().any(|p| w.starts_with(p))
        || matches!(
            w,
            "sy" | "st"
                | "ld"
                | "ish"
                | "ishst"
                | "ishld"
                | "nsh"
                | "nshst"
                | "nshld"
                | "osh"
                | "oshst"
                | "oshld"
        )
        || w.contains("_el")
        || matches!(w, "nzcv" | "fpcr" | "fpsr" | "daif" | "spsel" | "dczid_el0")
}

fn immediate(s: &str) -> Operand {
    if s.contains('.') && !s.starts_with(':') && s.parse::<f64>().is_ok() {
        return Operand::Float(s.to_string());
    }
    match expr::eval(s) {
        Some(v) => Operand::Imm(Value::Int(v)),
        None => Operand::Imm(Value::Sym(s.to_string())),
    }
}

fn shift(lower: &str, kind: &str, at: usize) -> Result<Operand, Error> {
    let rest = lower[kind.len()..].trim();
    if kind == "mul" && rest == "vl" {
        return Ok(Operand::Shift {
            kind: "mul vl".into(),
            amount: None,
        });
    }
    let amount = if rest.is_empty() {
        None
    } else {
        let a = rest.trim_start_matches('#');
        Some(Value::Int(expr::eval(a).ok_or((
            at,
            format!("the shift amount '{rest}' is not a number"),
        ))?))
    };
    Ok(Operand::Shift {
        kind: kind.to_string(),
        amount,
    })
}

/// `[base]`, `[base, #imm]`, `[base, reg{, ext {#amount}}]`, `[…]!`,
/// `[base, #imm, mul vl]`, `[base, :lo12:sym]`.
fn memory(p: &str, at: usize) -> Result<Mem, Error> {
    let close = p
        .rfind(']')
        .ok_or((at, format!("'{p}' has no closing ']'")))?;
    let after = p[close + 1..].trim();
    let mut m = Mem {
        writeback: after == "!",
        ..Mem::default()
    };
    if !after.is_empty() && after != "!" {
        return Err((
            at + close + 1,
            format!("unexpected '{after}' after the address"),
        ));
    }
    let parts = split_top(&p[1..close]);
    let (b_at, b) = parts[0];
    let base = register(b).ok_or((at + 1 + b_at, format!("'{b}' is not a base register")))?;
    m.base = match base {
        Operand::Reg(r, _) => Some(r),
        _ => return Err((at + 1 + b_at, format!("'{b}' is not a base register"))),
    };
    for &(o_at, piece) in &parts[1..] {
        let here = at + 1 + o_at;
        // An address holds registers, an offset and a shift, never another
        // address (and a nested one would recurse once per bracket).
        if piece.trim_start().starts_with('[') {
            return Err((here, format!("unexpected '{piece}' in an address")));
        }
        match operand(piece, here)? {
            Operand::Imm(v) if m.disp.is_none() && m.index.is_none() => m.disp = Some(v),
            Operand::Reg(r, None) if m.index.is_none() && m.disp.is_none() => m.index = Some(r),
            Operand::Shift { kind, .. } if kind == "mul vl" => m.mul_vl = true,
            Operand::Shift { kind, .. } if kind == "mul" => {
                return Err((here, "unexpected 'mul' in an address".into()));
            }
            Operand::Shift { kind, amount } if m.extend.is_none() => {
                m.extend = Some((kind, amount.and_then(|v| v.int())));
            }
            _ => return Err((here, format!("unexpected '{piece}' in an address"))),
        }
    }
    Ok(m)
}

/// `{v0.4s, v1.4s}`, `{v0.4s-v3.4s}`, `{ z0.s }`, `{v0.s, v1.s}[1]`.
fn list(p: &str, at: usize) -> Result<Operand, Error> {
    let close = p
        .find('}')
        .ok_or((at, format!("'{p}' has no closing '}}'")))?;
    let lane = match p[close + 1..].trim() {
        "" => None,
        l => Some(
            l.strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .and_then(|l| expr::eval(l.trim()))
                .ok_or((at + close + 1, format!("'{l}' is not a lane index")))?,
        ),
    };
    let inner = p[1..close].trim();
    let mut regs: Vec<(char, u32, String)> = Vec::new();
    let reg_at = |s: &str| -> Result<(char, u32, String), Error> {
        let s = s.trim().to_ascii_lowercase();
        let (name, suffix) = s.split_once('.').unwrap_or((&s, ""));
        let mut chars = name.chars();
        let class = chars.next().unwrap_or(' ');
        let num: u32 = chars
            .as_str()
            .parse()
            .map_err(|_| (at, format!("'{s}' is not a vector register")))?;
        if !matches!(class, 'v' | 'z' | 'p') || num > 31 {
            return Err((at, format!("'{s}' is not a vector register")));
        }
        Ok((class, num, suffix.to_string()))
    };
    if let Some((a, b)) = inner.split_once('-') {
        let (c, first, suf) = reg_at(a)?;
        let (_, last, _) = reg_at(b)?;
        let count = (last + 32 - first) % 32 + 1;
        for k in 0..count {
            regs.push((c, (first + k) % 32, suf.clone()));
        }
    } else {
        for piece in inner.split(',') {
            regs.push(reg_at(piece)?);
        }
    }
    let (class, first, suffix) = regs[0].clone();
    let letter = match class {
        'z' => 'Z',
        'p' => 'P',
        _ if matches!(suffix.as_str(), "8b" | "4h" | "2s" | "1d") => 'D',
        _ => 'Q',
    };
    let name = regs
        .iter()
        .map(|(_, n, _)| format!("{letter}{n}"))
        .collect::<Vec<_>>()
        .join("_");
    let text = format!(
        "{{ {} }}",
        regs.iter()
            .map(|(c, n, s)| if s.is_empty() {
                format!("{c}{n}")
            } else {
                format!("{c}{n}.{s}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    let kind = format!(
        "{{{class}.{suffix}}}{}{}",
        regs.len(),
        if lane.is_some() { "[]" } else { "" }
    );
    let _ = first;
    Ok(Operand::List {
        reg: Reg { name, kind, text },
        count: regs.len(),
        lane,
    })
}

/// A register operand, if `p` names one: `w3`, `x29`, `fp`, `sp`, `wzr`,
/// `q1`, `v1.2d`, `v1.s[1]`, `z0.s`, `z0.d[1]`, `p0/z`, `p0.b`.
pub fn register(p: &str) -> Option<Operand> {
    let l = p.trim().to_ascii_lowercase();
    let (body, lane) = match l.find('[') {
        Some(k) if l.ends_with(']') => (&l[..k], Some(expr::eval(&l[k + 1..l.len() - 1])?)),
        _ => (l.as_str(), None),
    };
    let (name, kind) = reg_name(body)?;
    let kind = if lane.is_some() {
        format!("{kind}[]")
    } else {
        kind
    };
    Some(Operand::Reg(
        Reg {
            name,
            kind,
            text: l.clone(),
        },
        lane,
    ))
}

fn reg_name(body: &str) -> Option<(String, String)> {
    match body {
        "sp" => return Some(("SP".into(), "sp".into())),
        "wsp" => return Some(("WSP".into(), "wsp".into())),
        "xzr" => return Some(("XZR".into(), "xzr".into())),
        "wzr" => return Some(("WZR".into(), "wzr".into())),
        "fp" => return Some(("FP".into(), "x".into())),
        "lr" => return Some(("LR".into(), "x".into())),
        _ => {}
    }
    let (head, suffix) = match body.split_once('.') {
        Some((h, s)) => (h, Some(s)),
        None => match body.split_once('/') {
            Some((h, s)) => (h, Some(s)),
            None => (body, None),
        },
    };
    let mut chars = head.chars();
    let class = chars.next()?;
    let num: u32 = chars.as_str().parse().ok()?;
    let pred_suffix = body.contains('/');
    match (class, suffix) {
        ('w', None) if num <= 30 => Some((format!("W{num}"), "w".into())),
        ('x', None) if num <= 30 => Some((
            match num {
                29 => "FP".into(),
                30 => "LR".into(),
                _ => format!("X{num}"),
            },
            "x".into(),
        )),
        ('b' | 'h' | 's' | 'd' | 'q', None) if num <= 31 => Some((
            format!("{}{num}", class.to_ascii_uppercase()),
            class.to_string(),
        )),
        ('v', Some(arr)) if num <= 31 => {
            let wide = !matches!(
                arr,
                "8b" | "4h" | "2s" | "1d" | "2h" | "4b" | "b" | "h" | "s" | "d"
            );
            let letter = if wide || matches!(arr, "b" | "h" | "s" | "d") {
                'Q'
            } else {
                'D'
            };
            Some((format!("{letter}{num}"), format!("v.{arr}")))
        }
        ('v', None) if num <= 31 => Some((format!("Q{num}"), "v".into())),
        ('z', s) if num <= 31 => Some((format!("Z{num}"), format!("z.{}", s.unwrap_or("")))),
        ('p', s) if num <= 15 => {
            let k = match s {
                None => "p".to_string(),
                Some(s) if pred_suffix => format!("p/{s}"),
                Some(s) => format!("p.{s}"),
            };
            Some((format!("P{num}"), k))
        }
        _ => None,
    }
}

/// The operand's token in a form key; `mnemonic` tells `mov`'s immediate
/// classes apart (a `movz`, a `movn` or a bitmask immediate).
pub fn kind(op: &Operand, mnemonic: &str, wide: bool) -> String {
    match op {
        Operand::Reg(r, _) => r.kind.clone(),
        Operand::Imm(Value::Int(v)) if mnemonic == "mov" => format!("#{}", mov_class(*v, wide)),
        Operand::Imm(Value::Int(v)) => format!("#{}", a64_imm_class(*v)),
        Operand::Imm(Value::Sym(s)) => format!("#{}", modifier(s)),
        Operand::Float(_) => "#f".into(),
        Operand::Mem(m) => mem_kind(m),
        Operand::Target(_) => "l".into(),
        Operand::List { reg, .. } => reg.kind.clone(),
        // A zero amount prints as nothing: its own form.
        Operand::Shift { kind, amount } => match amount {
            Some(Value::Int(0)) => format!("{kind}#0"),
            Some(_) => format!("{kind}#"),
            None => kind.clone(),
        },
        Operand::Word(w) => word_kind(w),
        Operand::Indirect(_) | Operand::Decor(..) => "?".into(),
    }
}

/// A relocation modifier of a symbolic immediate (`:lo12:`), or `sym`.
fn modifier(s: &str) -> String {
    let t = s.trim_start_matches('#');
    if let Some(rest) = t.strip_prefix(':')
        && let Some(k) = rest.find(':')
    {
        return format!(":{}:", &rest[..k]);
    }
    "sym".into()
}

fn word_kind(w: &str) -> String {
    const CONDS: [&str; 18] = [
        "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt",
        "le", "al", "nv",
    ];
    if CONDS.contains(&w) {
        "cond".into()
    } else {
        format!("w:{w}")
    }
}

/// Which instruction `mov Rd, #v` stands for: `z` a MOVZ, `n` a MOVN,
/// `b` an ORR of a bitmask immediate, `?` none (an error in the assembler).
fn mov_class(v: i64, wide: bool) -> &'static str {
    let bits = if wide { 64 } else { 32 };
    let mask: u64 = if wide { u64::MAX } else { u32::MAX as u64 };
    let u = v as u64 & mask;
    let one_chunk = |x: u64| {
        (0..bits / 16)
            .filter(|k| (x >> (16 * k)) & 0xffff != 0)
            .count()
            <= 1
    };
    if one_chunk(u) {
        "z"
    } else if one_chunk(!u & mask) {
        "n"
    } else if is_bitmask(u, bits) {
        "b"
    } else {
        "?"
    }
}

/// Whether `v` (of `bits` bits) is a bitmask immediate: a rotated run of
/// ones repeated with a power-of-two period.
pub fn is_bitmask(v: u64, bits: u32) -> bool {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if v == 0 || v == mask {
        return false;
    }
    let mut size = bits;
    while size > 2 {
        let half = size / 2;
        let m = (1u64 << half) - 1;
        if (v & m) != ((v >> half) & m) {
            break;
        }
        size = half;
    }
    let m = if size == 64 {
        u64::MAX
    } else {
        (1u64 << size) - 1
    };
    let e = v & m;
    // A rotation of a contiguous run of ones within the element.
    (0..size).any(|r| {
        let rot = if r == 0 {
            e
        } else {
            ((e >> r) | (e << (size - r))) & m
        };
        let ones = rot.trailing_ones();
        ones > 0 && ones < size && rot >> ones == 0
    })
}

fn mem_kind(m: &Mem) -> String {
    let mut k = String::from("[");
    if let Some(b) = &m.base {
        k.push_str(&b.kind);
    }
    if let Some(d) = &m.disp {
        k.push(',');
        match d {
            Value::Int(v) => {
                k.push('#');
                k.push_str(&a64_imm_class(*v));
            }
            Value::Sym(s) => {
                k.push('#');
                k.push_str(&modifier(s));
            }
        }
    }
    if let Some(i) = &m.index {
        k.push(',');
        k.push_str(&i.kind);
    }
    if let Some((e, a)) = &m.extend {
        k.push(',');
        k.push_str(e);
        match a {
            Some(0) => k.push_str("#0"),
            Some(_) => k.push('#'),
            None => {}
        }
    }
    if m.mul_vl {
        k.push_str(",mulvl");
    }
    k.push(']');
    if m.writeback {
        k.push('!');
    }
    k
}

/// The operand as LLVM's AArch64 printer writes it in the common case
/// (decimal immediates); forms that print otherwise get their own template.
pub fn render(op: &Operand) -> String {
    match op {
        Operand::Reg(r, _) => r.text.clone(),
        Operand::Imm(Value::Int(v)) => format!("#{v}"),
        Operand::Imm(Value::Sym(s)) => s.clone(),
        // The printer writes floating-point immediates with eight decimals.
        Operand::Float(f) => match f.parse::<f64>() {
            Ok(v) => format!("#{v:.8}"),
            Err(_) => format!("#{f}"),
        },
        Operand::Target(v) => match v {
            Value::Int(x) => x.to_string(),
            Value::Sym(s) => s.clone(),
        },
        Operand::List { reg, lane, .. } => match lane {
            Some(l) => format!("{}[{l}]", reg.text),
            None => reg.text.clone(),
        },
        Operand::Shift { kind, amount } => match amount {
            Some(Value::Int(a)) => format!("{kind} #{a}"),
            _ => kind.clone(),
        },
        Operand::Word(w) => w.clone(),
        Operand::Mem(m) => render_mem(m),
        Operand::Indirect(_) | Operand::Decor(..) => String::new(),
    }
}

fn render_mem(m: &Mem) -> String {
    let mut s = String::from("[");
    if let Some(b) = &m.base {
        s.push_str(&b.text);
    }
    match &m.disp {
        Some(Value::Int(0)) if !m.mul_vl => {}
        Some(Value::Int(v)) => s.push_str(&format!(", #{v}")),
        Some(Value::Sym(sym)) => {
            s.push_str(", ");
            s.push_str(sym);
        }
        None => {}
    }
    if let Some(i) = &m.index {
        s.push_str(", ");
        s.push_str(&i.text);
    }
    if let Some((e, a)) = &m.extend {
        s.push_str(", ");
        s.push_str(e);
        if let Some(a) = a {
            s.push_str(&format!(" #{a}"));
        }
    }
    if m.mul_vl {
        s.push_str(", mul vl");
    }
    s.push(']');
    if m.writeback {
        s.push('!');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> String {
        let s = parse(text).unwrap();
        let wide = s
            .operands
            .first()
            .is_some_and(|o| matches!(o, Operand::Reg(r, _) if r.kind == "x"));
        let kinds: Vec<String> = s
            .operands
            .iter()
            .map(|o| kind(o, &s.mnemonic, wide))
            .collect();
        format!("{} {}", s.mnemonic, kinds.join(" "))
    }

    #[test]
    fn forms() {
        assert_eq!(key("ldr q1, [x0, x8]"), "ldr q [x,x]");
        assert_eq!(key("fmla v0.2d, v1.2d, v2.2d"), "fmla v.2d v.2d v.2d");
        assert_eq!(key("add x8, x8, #16"), "add x x #6.4");
        assert_eq!(key("b.ne .Lloop"), "b.ne l");
        assert_eq!(key("stp x29, x30, [sp, #-16]!"), "stp x x [sp,#-5.4]!");
        assert_eq!(key("ldr x0, [x1], #8"), "ldr x [x] #5.3");
        assert_eq!(key("ldr w0, [x1, w2, sxtw #2]"), "ldr w [x,w,sxtw#]");
        assert_eq!(key("add x0, x1, x2, lsl #3"), "add x x x lsl#");
        assert_eq!(
            key("ld1 {v0.16b, v1.16b}, [x0], #32"),
            "ld1 {v.16b}2 [x] #7.4"
        );
        assert_eq!(key("st2 {v0.s, v1.s}[1], [x0]"), "st2 {v.s}2[] [x]");
        assert_eq!(
            key("ld1w { z0.s }, p0/z, [x0, x1, lsl #2]"),
            "ld1w {z.s}1 p/z [x,x,lsl#]"
        );
        assert_eq!(key("csel x0, x1, x2, ne"), "csel x x x cond");
        assert_eq!(key("mov x0, #65536"), "mov x #z");
        assert_eq!(key("mov x0, #-1"), "mov x #n");
        assert_eq!(key("mov w0, #0xff00ff"), "mov w #b");
        assert_eq!(key("adrp x0, :got:foo"), "adrp x #:got:");
        assert_eq!(key("ldr x0, [x0, :got_lo12:foo]"), "ldr x [x,#:got_lo12:]");
        assert_eq!(key("fmov d0, #1.0"), "fmov d #f");
        assert_eq!(key("mov v0.s[1], w1"), "mov v.s[] w");
        assert_eq!(
            key("prfm pldl1keep, [x0, #64]"),
            "prfm w:pldl1keep [x,#8.4]"
        );
        assert_eq!(
            key("ld1d { z0.d }, p0/z, [x0, #1, mul vl]"),
            "ld1d {z.d}1 p/z [x,#2.0,mulvl]"
        );
    }

    #[test]
    fn registers_get_llvm_names() {
        let name = |p: &str| match register(p) {
            Some(Operand::Reg(r, _)) => r.name,
            _ => String::new(),
        };
        assert_eq!(name("x29"), "FP");
        assert_eq!(name("v1.8b"), "D1");
        assert_eq!(name("v1.16b"), "Q1");
        assert_eq!(name("v1.s[1]"), "Q1");
        assert_eq!(name("q3"), "Q3");
        assert!(register("x31").is_none());
        match list("{v31.4s, v0.4s}", 0).unwrap() {
            Operand::List { reg, count, .. } => {
                assert_eq!((reg.name.as_str(), count), ("Q31_Q0", 2))
            }
            _ => panic!(),
        }
    }

    #[test]
    fn bitmask_immediates() {
        assert!(is_bitmask(0xff, 64));
        assert!(is_bitmask(0x00ff00ff00ff00ff, 64));
        assert!(!is_bitmask(0x1234, 64));
        assert!(is_bitmask(0xfffffffe, 32));
    }
}
