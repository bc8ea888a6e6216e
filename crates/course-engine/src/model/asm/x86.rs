//! AT&T x86-64 statements: prefixes, mnemonic and operands (`%rax`,
//! `$32`, `%fs:-8(%rbp,%rcx,4)`, `*%rax`, `.LBB0_2`, `{%k1}`, `{z}`,
//! `(%rax){1to16}`), with each operand's kind for the form key and its
//! rendering as LLVM's AT&T printer writes it.

use super::expr;
use super::operand::{Mem, Operand, Reg, Value, x86_imm_class};

/// Prefixes written before a mnemonic on the same statement.
const PREFIXES: [&str; 12] = [
    "lock", "rep", "repe", "repz", "repne", "repnz", "notrack", "data16", "data32", "addr32",
    "xacquire", "xrelease",
];

/// A statement read: prefixes and mnemonic (lower-case, one space
/// between), and operands.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// `lock addl`, `rep stosq`, `{vex} vpdpbusd`.
    pub mnemonic: String,
    /// In AT&T order (sources first, destination last).
    pub operands: Vec<Operand>,
}

/// A mistake in a statement: where (byte offset in it) and why.
pub type Error = (usize, String);

/// Reads one statement.
pub fn parse(text: &str) -> Result<Statement, Error> {
    let mut rest = text;
    let mut words = Vec::new();
    loop {
        let w_end = rest.find([' ', '\t']).unwrap_or(rest.len());
        let w = &rest[..w_end];
        let lw = w.to_ascii_lowercase();
        let is_prefix =
            PREFIXES.contains(&lw.as_str()) || (lw.starts_with('{') && lw.ends_with('}'));
        words.push(lw);
        rest = rest[w_end..].trim_start();
        if !is_prefix || rest.is_empty() {
            break;
        }
    }
    let mnemonic = words.join(" ");
    let base = text.len() - rest.len();
    let mut operands = Vec::new();
    if !rest.is_empty() {
        for (at, piece) in split_top(rest) {
            operand_with_decorations(piece, base + at, &mut operands)?;
        }
    }
    Ok(Statement { mnemonic, operands })
}

/// Splits at commas outside parentheses and braces; each piece with its
/// offset, trimmed.
pub fn split_top(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(trimmed(s, start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(trimmed(s, start, s.len()));
    out
}

fn trimmed(s: &str, a: usize, b: usize) -> (usize, &str) {
    let piece = &s[a..b];
    let lead = piece.len() - piece.trim_start().len();
    (a + lead, piece.trim())
}

/// An operand and the AVX-512 decorations written after it (`%zmm0 {%k1} {z}`).
fn operand_with_decorations(piece: &str, at: usize, out: &mut Vec<Operand>) -> Result<(), Error> {
    if piece.is_empty() {
        return Err((at, "an empty operand".into()));
    }
    // A standalone decoration: `{rn-sae}`, `{sae}`.
    if piece.starts_with('{') && !piece.starts_with("{%") {
        out.push(decoration(piece, at)?);
        return Ok(());
    }
    // Decorations are the trailing `{…}` groups but a broadcast.
    let mut body = piece;
    let mut decor = Vec::new();
    while body.ends_with('}') {
        let Some(k) = body.rfind('{') else { break };
        if body[k..].starts_with("{1to") {
            break;
        }
        decor.push(&body[k..]);
        body = body[..k].trim_end();
    }
    if body.is_empty() {
        return Err((
            at,
            format!("'{piece}' has no operand before its decorations"),
        ));
    }
    out.push(operand(body, at)?);
    for d in decor.into_iter().rev() {
        out.push(decoration(d, at)?);
    }
    Ok(())
}

fn decoration(d: &str, at: usize) -> Result<Operand, Error> {
    let inner = d.trim_start_matches('{').trim_end_matches('}').trim();
    if let Some(r) = inner.strip_prefix('%') {
        let reg = register(r).ok_or((at, format!("unknown register '%{r}'")))?;
        return Ok(Operand::Decor("k".into(), Some(reg)));
    }
    Ok(Operand::Decor(inner.to_ascii_lowercase(), None))
}

/// One operand without decorations.
fn operand(p: &str, at: usize) -> Result<Operand, Error> {
    if let Some(inner) = p.strip_prefix('*') {
        let target = inner.trim_start();
        let target_at = at + p.len() - target.len();
        // One `*` only (a chain of them would recurse once each).
        if target.starts_with('*') {
            return Err((target_at, "unexpected '*'".into()));
        }
        return Ok(Operand::Indirect(Box::new(operand(target, target_at)?)));
    }
    if let Some(imm) = p.strip_prefix('$') {
        return Ok(Operand::Imm(value(imm)));
    }
    // `%reg` alone, or a segment override `%fs:…`.
    if let Some(r) = p.strip_prefix('%') {
        let name_end = r.find(':').unwrap_or(r.len());
        let reg = register(&r[..name_end])
            .ok_or((at, format!("unknown register '%{}'", &r[..name_end])))?;
        if name_end == r.len() {
            return Ok(Operand::Reg(reg, None));
        }
        let mut m = memory(&r[name_end + 1..], at + name_end + 2)?;
        m.segment = Some(reg);
        return Ok(Operand::Mem(Box::new(m)));
    }
    if p.contains('(') || p.ends_with('}') {
        return Ok(Operand::Mem(Box::new(memory(p, at)?)));
    }
    Ok(Operand::Target(value(p)))
}

/// `disp(base, index, scale){1toN}`, or a bare displacement.
fn memory(p: &str, at: usize) -> Result<Mem, Error> {
    let mut m = Mem::default();
    let (p, bcast) = match p.rfind("{1to") {
        Some(k) if p.ends_with('}') => (&p[..k], Some(p[k + 1..p.len() - 1].to_string())),
        _ => (p, None),
    };
    m.broadcast = bcast;
    let Some(open) = p.find('(') else {
        m.disp = Some(value(p.trim()));
        return Ok(m);
    };
    let disp = p[..open].trim();
    if !disp.is_empty() {
        m.disp = Some(value(disp));
    }
    let close = p
        .rfind(')')
        .ok_or((at, format!("'{p}' has no closing ')'")))?;
    if !p[close + 1..].trim().is_empty() {
        return Err((
            at + close + 1,
            format!("unexpected '{}' after the address", p[close + 1..].trim()),
        ));
    }
    let inner: Vec<&str> = p[open + 1..close].split(',').map(str::trim).collect();
    let reg_at = |s: &str| -> Result<Option<Reg>, Error> {
        if s.is_empty() {
            return Ok(None);
        }
        let r = s
            .strip_prefix('%')
            .ok_or((at + open, format!("'{s}' is not a register")))?;
        register(r)
            .map(Some)
            .ok_or((at + open, format!("unknown register '%{r}'")))
    };
    if inner.len() > 3 {
        return Err((
            at + open,
            format!(
                "'({})' has more than base, index and scale",
                &p[open + 1..close]
            ),
        ));
    }
    m.base = reg_at(inner[0])?;
    if let Some(i) = inner.get(1) {
        m.index = reg_at(i)?;
    }
    if let Some(s) = inner.get(2).filter(|s| !s.is_empty()) {
        let v = expr::eval(s).ok_or((at + open, format!("the scale '{s}' is not a number")))?;
        m.scale = Some(v);
    }
    Ok(m)
}

fn value(s: &str) -> Value {
    match expr::eval(s) {
        Some(v) => Value::Int(v),
        None => Value::Sym(s.to_string()),
    }
}

/// A register by its AT&T name (without `%`), with LLVM's name and kind.
pub fn register(name: &str) -> Option<Reg> {
    let n = name.to_ascii_lowercase();
    let (llvm, kind) = reg_kind(&n)?;
    let text = if n == "st(0)" || n == "st" {
        "%st".to_string()
    } else {
        format!("%{n}")
    };
    Some(Reg {
        name: llvm,
        kind: kind.into(),
        text,
    })
}

const GPR: [&str; 8] = ["ax", "bx", "cx", "dx", "si", "di", "bp", "sp"];

fn reg_kind(n: &str) -> Option<(String, &'static str)> {
    let up = n.to_ascii_uppercase();
    // The accumulator and count registers take forms of their own.
    let special = |k: &'static str, a: &'static str| -> &'static str {
        match n {
            "al" | "ax" | "eax" | "rax" => a,
            _ => k,
        }
    };
    if let Some(r) = n.strip_prefix('r') {
        if GPR.contains(&r) {
            return Some((up, special("r64", "r64a")));
        }
        if let Some((num, suffix)) = split_num(r)
            && (8..=15).contains(&num)
        {
            return match suffix {
                "" => Some((up, "r64")),
                "d" => Some((up, "r32")),
                "w" => Some((up, "r16")),
                "b" | "l" => Some((format!("R{num}B"), "r8")),
                _ => None,
            };
        }
        if r == "ip" {
            return Some((up, "rip"));
        }
    }
    if let Some(r) = n.strip_prefix('e') {
        if GPR.contains(&r) {
            return Some((up, special("r32", "r32a")));
        }
        if r == "ip" {
            return Some((up, "eip"));
        }
    }
    if GPR.contains(&n) {
        return Some((
            up,
            if n == "dx" {
                "r16d"
            } else {
                special("r16", "r16a")
            },
        ));
    }
    match n {
        "al" | "bl" | "dl" => return Some((up, special("r8", "r8a"))),
        "cl" => return Some((up, "r8c")),
        "sil" | "dil" | "bpl" | "spl" => return Some((up, "r8")),
        "ah" | "bh" | "ch" | "dh" => return Some((up, "r8h")),
        "cs" | "ds" | "es" | "fs" | "gs" | "ss" => return Some((up, "seg")),
        "st" => return Some(("ST0".into(), "st0")),
        _ => {}
    }
    if let Some(i) = n.strip_prefix("st(").and_then(|r| r.strip_suffix(')')) {
        let k: u32 = i.trim().parse().ok().filter(|k| *k < 8)?;
        return Some((format!("ST{k}"), if k == 0 { "st0" } else { "st" }));
    }
    vector_or_other(n, up)
}

fn vector_or_other(n: &str, up: String) -> Option<(String, &'static str)> {
    for (prefix, lo, hi, k_lo, k_hi) in [
        ("xmm", 0, 31, "x", "xh"),
        ("ymm", 0, 31, "y", "yh"),
        ("zmm", 0, 31, "z", "z"),
        ("mm", 0, 7, "mm", "mm"),
        ("k", 0, 7, "k", "k"),
        ("cr", 0, 15, "cr", "cr"),
        ("dr", 0, 15, "dr", "dr"),
        ("tmm", 0, 7, "tmm", "tmm"),
        ("bnd", 0, 3, "bnd", "bnd"),
    ] {
        if let Some(rest) = n.strip_prefix(prefix)
            && let Ok(k) = rest.parse::<u32>()
            && (lo..=hi).contains(&k)
            && !rest.starts_with('+')
        {
            let kind = match (prefix, k) {
                ("xmm", 0) => "x0",
                (_, 16..) => k_hi,
                _ => k_lo,
            };
            return Some((up, kind));
        }
    }
    None
}

fn split_num(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let n = s[..end].parse().ok()?;
    Some((n, &s[end..]))
}

/// The operand's token in a form key.
pub fn kind(op: &Operand) -> String {
    match op {
        Operand::Reg(r, _) => r.kind.clone(),
        Operand::Imm(Value::Int(v)) => format!("i{}", x86_imm_class(*v)),
        Operand::Imm(Value::Sym(_)) => "isym".into(),
        Operand::Mem(m) => mem_kind(m),
        Operand::Target(_) => "l".into(),
        Operand::Indirect(inner) => format!("*{}", kind(inner)),
        Operand::Decor(d, _) => format!("{{{d}}}"),
        Operand::Float(_) | Operand::List { .. } | Operand::Shift { .. } | Operand::Word(_) => {
            "?".into()
        }
    }
}

fn mem_kind(m: &Mem) -> String {
    fn reg(r: &Option<Reg>) -> &str {
        r.as_ref()
            .map_or("", |r| r.kind.trim_end_matches(['a', 'c', 'd']))
    }
    let mut k = format!("m[{},{}", reg(&m.base), reg(&m.index));
    if m.disp.is_some() {
        k.push_str(",d");
    }
    if m.segment.is_some() {
        k.push_str(",s");
    }
    k.push(']');
    if let Some(b) = &m.broadcast {
        k.push('{');
        k.push_str(b);
        k.push('}');
    }
    k
}

/// The operand as LLVM's AT&T printer writes it.
pub fn render(op: &Operand) -> String {
    match op {
        Operand::Reg(r, _) => r.text.clone(),
        Operand::Imm(v) => format!("${}", value_text(v)),
        Operand::Target(v) => value_text(v),
        Operand::Mem(m) => render_mem(m),
        Operand::Indirect(inner) => format!("*{}", render(inner)),
        Operand::Decor(_, Some(r)) => format!("{{{}}}", r.text),
        Operand::Decor(d, None) => format!("{{{d}}}"),
        Operand::Float(s) | Operand::Word(s) => s.clone(),
        Operand::List { reg, .. } => reg.text.clone(),
        Operand::Shift { kind, .. } => kind.clone(),
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Int(x) => x.to_string(),
        Value::Sym(s) => s.clone(),
    }
}

fn render_mem(m: &Mem) -> String {
    let mut s = String::new();
    if let Some(seg) = &m.segment {
        s.push_str(&seg.text);
        s.push(':');
    }
    let has_regs = m.base.is_some() || m.index.is_some();
    match &m.disp {
        Some(Value::Int(0)) if has_regs => {}
        Some(d) => s.push_str(&value_text(d)),
        None if !has_regs => s.push('0'),
        None => {}
    }
    if has_regs {
        s.push('(');
        if let Some(b) = &m.base {
            s.push_str(&b.text);
        }
        if let Some(i) = &m.index {
            s.push(',');
            s.push_str(&i.text);
            let scale = m.scale.unwrap_or(1);
            if scale != 1 {
                s.push(',');
                s.push_str(&scale.to_string());
            }
        }
        s.push(')');
    }
    if let Some(b) = &m.broadcast {
        s.push('{');
        s.push_str(b);
        s.push('}');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> String {
        let s = parse(text).unwrap();
        let kinds: Vec<String> = s.operands.iter().map(kind).collect();
        format!("{} {}", s.mnemonic, kinds.join(" "))
    }

    fn rendered(text: &str) -> Vec<String> {
        parse(text).unwrap().operands.iter().map(render).collect()
    }

    #[test]
    fn forms_and_renderings() {
        assert_eq!(key("addq (%rdi,%rcx,8), %rax"), "addq m[r64,r64] r64a");
        assert_eq!(
            key("vfmadd231pd (%rsi,%rax), %ymm1, %ymm0"),
            "vfmadd231pd m[r64,r64] y y"
        );
        assert_eq!(key("addq $32, %rax"), "addq i8 r64a");
        assert_eq!(key("movl %fs:-8(%rbp), %eax"), "movl m[r64,,d,s] r32a");
        assert_eq!(key("lock addl $1, (%rax)"), "lock addl i1 m[r64,]");
        assert_eq!(key("jne .LBB0_2"), "jne l");
        assert_eq!(key("callq *%rax"), "callq *r64a");
        assert_eq!(key("shlq %cl, %r8"), "shlq r8c r64");
        assert_eq!(
            key("vaddps (%rax){1to16}, %zmm1, %zmm0 {%k1} {z}"),
            "vaddps m[r64,]{1to16} z z {k} {z}"
        );
        assert_eq!(
            key("vaddps {rn-sae}, %zmm1, %zmm2, %zmm3"),
            "vaddps {rn-sae} z z z"
        );
        assert_eq!(key("fadd %st(1), %st"), "fadd st st0");
        assert_eq!(key("cltq"), "cltq ");
        assert_eq!(rendered("leaq 0(,%rax,8), %rdx"), ["(,%rax,8)", "%rdx"]);
        assert_eq!(
            rendered("nopw 0x0(%rax,%rax,1)"),
            ["(%rax,%rax)", "%rax"][..1]
        );
        assert_eq!(rendered("movq $-1, %rax"), ["$-1", "%rax"]);
        assert_eq!(rendered("movq %fs:0x28, %rax"), ["%fs:40", "%rax"]);
    }

    #[test]
    fn mistakes_are_located() {
        assert!(parse("movq (%rax, %rcx").is_err());
        assert!(parse("movq %foo, %rax").is_err());
        assert!(parse("addq , %rax").is_err());
    }
}
