//! A statement of a student's file resolved against a processor, as
//! llvm-mca resolves the MCInst its assembler makes of it
//! (`InstrBuilder::createInstruction`): the form table gives the LLVM
//! instruction and its MCInst operands, the processor's rule picks the
//! descriptor (variant scheduling classes, zero idioms, dependency
//! breaking, move elimination), and the descriptor's reads and writes are
//! bound to the registers of the statement.

use std::collections::HashMap;

use super::RegId;
use super::tables::{Feature, Forms, Guard, Model, Relation, Rule, Source, Variant};
use crate::model::asm::operand::Part;
use crate::model::asm::{Dialect, Instruction};

/// One MCInst operand, as the tables need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A register (0: none).
    Reg(RegId),
    /// An immediate.
    Imm(i64),
    /// Something the tables do not look at.
    Other,
}

/// A statement resolved: what llvm-mca's assembler and scheduling model
/// make of it, before [`super::build::Builder`] creates the instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The LLVM instruction (index into [`Forms::opcodes`]).
    pub opcode: u32,
    /// Its scheduling class is a variant one on the processor.
    pub variant: bool,
    /// Index into [`Model::outcomes`].
    pub outcome: u32,
    /// The MCInst operands.
    pub values: Vec<Value>,
    /// The text llvm-mca prints for it.
    pub text: String,
}

/// Why a statement does not resolve.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No form of the tables has this key.
    #[error("this form of '{mnemonic}' is not modelled ({key})")]
    Unknown {
        /// The mnemonic.
        mnemonic: String,
        /// The form key.
        key: String,
    },
    /// The processor does not have the instruction (llvm-mca: "instruction
    /// requires: …").
    #[error("'{mnemonic}' ({opcode}) is not an instruction of {model}")]
    NotOnModel {
        /// The mnemonic.
        mnemonic: String,
        /// LLVM's name.
        opcode: String,
        /// The processor.
        model: String,
    },
    /// The processor's model has no scheduling information for it.
    #[error("{opcode}: {why}")]
    Unsupported {
        /// LLVM's name.
        opcode: String,
        /// llvm-mca's message.
        why: String,
    },
}

/// Register names to ids, for one form table.
pub struct Names(HashMap<String, RegId>);

impl Names {
    /// The index of `forms`' registers.
    pub fn new(forms: &Forms) -> Names {
        Names(
            forms
                .registers
                .names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i as RegId))
                .collect(),
        )
    }

    fn get(&self, name: &str) -> Option<RegId> {
        self.0.get(name).copied()
    }
}

/// The form key with the accumulator and count flags of x86-64 register
/// kinds dropped (`r64a` → `r64`), the second key looked up.
fn plain_key(key: &str) -> Option<String> {
    let mut changed = false;
    let out: Vec<String> = key
        .split(' ')
        .enumerate()
        .map(|(i, t)| {
            let p = match t {
                _ if i == 0 => t,
                "r64a" => "r64",
                "r32a" => "r32",
                "r16a" | "r16d" => "r16",
                "r8a" | "r8c" => "r8",
                "x0" => "x",
                _ => t,
            };
            changed |= p != t;
            p.to_string()
        })
        .collect();
    changed.then(|| out.join(" "))
}

/// Whether an x86-64 register needs an extension bit (r8–r15, xmm8–15).
fn extended(name: &str) -> bool {
    let digits: String = name
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let prefix_ok = ["R", "XMM", "YMM", "ZMM"]
        .iter()
        .any(|p| name.starts_with(p));
    prefix_ok && digits.parse::<u32>().is_ok_and(|n| (8..=15).contains(&n))
}

/// Resolves `inst` on model `model_index` of `forms` (its tables `model`).
pub fn resolve(
    inst: &Instruction,
    dialect: Dialect,
    forms: &Forms,
    names: &Names,
    model_index: usize,
    model: &Model,
) -> Result<Resolution, Refusal> {
    let variants = forms
        .readings_of(&inst.key, dialect)
        .or_else(|| plain_key(&inst.key).and_then(|k| forms.readings_of(&k, dialect)))
        .ok_or_else(|| Refusal::Unknown {
            mnemonic: inst.mnemonic.clone(),
            key: inst.key.clone(),
        })?;
    // The readings of this model's LLVM release (another release's may
    // differ or be all there is).
    let bit = 1u32 << model_index;
    let mine: Vec<&Variant> = variants.iter().filter(|v| v.known & bit != 0).collect();
    if mine.is_empty() {
        return Err(Refusal::Unknown {
            mnemonic: inst.mnemonic.clone(),
            key: inst.key.clone(),
        });
    }
    let parts: HashMap<String, Part> = inst.parts().into_iter().collect();
    let v = choose(&mine, &parts, names);
    let opcode = forms
        .opcodes
        .get(v.opcode as usize)
        .map_or("?", |o| o.name.as_str());
    if v.models & bit == 0 {
        return Err(Refusal::NotOnModel {
            mnemonic: inst.mnemonic.clone(),
            opcode: opcode.to_string(),
            model: model.processor.name.clone(),
        });
    }
    let template = forms
        .templates
        .get(v.template as usize)
        .map_or(&[][..], Vec::as_slice);
    let values: Vec<Value> = template
        .iter()
        .map(|s| value(s, &parts, forms, names))
        .collect();
    let unsupported = |why: &str| Refusal::Unsupported {
        opcode: opcode.to_string(),
        why: why.to_string(),
    };
    let (variant, rule) = match model.rules.get(v.opcode as usize).and_then(Option::as_ref) {
        None => return Err(unsupported("no scheduling information in the tables")),
        Some((variant, rule)) => (*variant, rule),
    };
    let outcome = match rule {
        Rule::Unsupported(why) => return Err(unsupported(why)),
        Rule::Fixed(o) => *o,
        Rule::Features(feats, table) => {
            let key: Vec<u8> = feats
                .iter()
                .map(|f| feature(f, &values, &forms.registers.names))
                .collect();
            table
                .get(&key)
                .copied()
                .flatten()
                .ok_or_else(|| unsupported("no descriptor for these operands in the tables"))?
        }
    };
    if model.outcomes.get(outcome as usize).is_none() {
        return Err(unsupported("the tables are inconsistent"));
    }
    let text = display(
        inst,
        dialect,
        v.print.and_then(|p| forms.prints.get(p as usize)),
    );
    Ok(Resolution {
        opcode: v.opcode,
        variant,
        outcome,
        values,
        text,
    })
}

fn choose<'v>(
    variants: &[&'v Variant],
    parts: &HashMap<String, Part>,
    names: &Names,
) -> &'v Variant {
    let reg = |p: &str| match parts.get(p) {
        Some(Part::Reg(r)) => r.as_str(),
        _ => "",
    };
    variants
        .iter()
        .find(|v| match &v.guard {
            None => true,
            Some(Guard::Extended(a, b)) => extended(reg(&a.0)) && !extended(reg(&b.0)),
            Some(Guard::Same(a, b)) => {
                let (x, y) = (names.get(reg(&a.0)), names.get(reg(&b.0)));
                x.is_some() && x == y
            }
        })
        .copied()
        .unwrap_or(variants[variants.len() - 1])
}

fn value(s: &Source, parts: &HashMap<String, Part>, forms: &Forms, names: &Names) -> Value {
    let reg_of = |p: &str| match parts.get(p) {
        Some(Part::Reg(r)) => names.get(r),
        _ => None,
    };
    match s {
        Source::Reg(p) => Value::Reg(reg_of(&p.0).unwrap_or(0)),
        Source::Related(p, rel, class) => {
            let Some(r) = reg_of(&p.0) else {
                return Value::Reg(0);
            };
            let kin = match rel {
                Relation::Sub => forms.registers.subregs.get(r as usize),
                Relation::Super => forms.registers.superregs.get(r as usize),
            };
            let members = forms.class(*class).unwrap_or(&[]);
            let found = kin
                .into_iter()
                .flatten()
                .find(|k| members.contains(k))
                .copied();
            Value::Reg(found.unwrap_or(0))
        }
        Source::Fixed(r) => Value::Reg(*r),
        Source::Imm(v) => Value::Imm(*v),
        Source::Affine(p, num, den, add) => match parts.get(&p.0) {
            Some(Part::Int(x)) if *den != 0 => Value::Imm(x.wrapping_mul(*num) / den + add),
            _ => Value::Other,
        },
        Source::MoveWide {
            part,
            inverted,
            bits,
            field,
        } => match parts.get(&part.0) {
            Some(Part::Int(x)) => {
                move_wide(*x, *inverted, *bits, *field).map_or(Value::Other, Value::Imm)
            }
            _ => Value::Other,
        },
        Source::Other => Value::Other,
    }
}

/// The chunk (`field` 0) or shift (1) of `v` (of `!v` when `inverted`) as
/// a MOVZ/MOVN of a `bits`-bit register, or None when it is not one chunk
/// (generate.py's `movewide`).
fn move_wide(v: i64, inverted: bool, bits: u32, field: u8) -> Option<i64> {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let u = (if inverted { !v } else { v }) as u64 & mask;
    (0..bits / 16).find_map(|k| {
        let s = 16 * k;
        (u & !(0xffffu64 << s) & mask == 0).then_some(if field == 0 {
            ((u >> s) & 0xffff) as i64
        } else {
            i64::from(s)
        })
    })
}

/// The class of a feature for these operand values.
fn feature(f: &Feature, values: &[Value], names: &[String]) -> u8 {
    match f {
        Feature::Pair(i, j) => match (values.get(*i), values.get(*j)) {
            (Some(Value::Reg(a)), Some(Value::Reg(b))) if *a != 0 && a == b => 1,
            _ => 0,
        },
        Feature::Op { k, default, labels } => {
            let label = match values.get(*k) {
                Some(Value::Imm(v)) => format!("v:{v}"),
                Some(Value::Reg(0)) => "none".to_string(),
                Some(Value::Reg(r)) => {
                    format!("abs:{}", names.get(*r as usize).map_or("", String::as_str))
                }
                _ => return *default,
            };
            labels.get(&label).copied().unwrap_or(*default)
        }
    }
}

/// The text llvm-mca prints: the form's print template applied to the
/// operands as rendered, or the statement as written (mnemonic, a tab,
/// the operands).
pub fn display(inst: &Instruction, dialect: Dialect, print: Option<&String>) -> String {
    let renders = inst.renders(dialect);
    if let Some(p) = print
        && let Some(t) = apply(p, &renders)
    {
        return t;
    }
    // Else the mnemonic, a tab, and each operand as the printer writes it
    // (x86-64 decorations after a space).
    if renders.is_empty() {
        return inst.mnemonic.clone();
    }
    let mut out = inst.mnemonic.clone();
    out.push('\t');
    for (k, r) in renders.iter().enumerate() {
        if k > 0 {
            let decoration = dialect == Dialect::X86 && r.starts_with('{') && !r.ends_with("sae}");
            out.push_str(if decoration { " " } else { ", " });
        }
        out.push_str(r);
    }
    out
}

/// `{k}`, `{k:F}` and `{{`/`}}` of a print template, or None when an
/// operand is missing.
fn apply(t: &str, renders: &[String]) -> Option<String> {
    let mut out = String::with_capacity(t.len() + 16);
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' if b.get(i + 1) == Some(&b'{') => {
                out.push('{');
                i += 2;
            }
            b'}' if b.get(i + 1) == Some(&b'}') => {
                out.push('}');
                i += 2;
            }
            b'{' => {
                let end = i + t[i..].find('}')?;
                let inner = &t[i + 1..end];
                let (k, fmt) = inner.split_once(':').unwrap_or((inner, ""));
                let r = renders.get(k.parse::<usize>().ok()?)?;
                out.push_str(&format_imm(r, fmt)?);
                i = end + 1;
            }
            _ => {
                let ch = t[i..].chars().next()?;
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    Some(out)
}

/// An operand rendering printed in format `fmt` (see generate.py's
/// `imm_text`): as is, hex, masked to a width, or a shifted 12-bit
/// immediate.
fn format_imm(r: &str, fmt: &str) -> Option<String> {
    if fmt.is_empty() {
        return Some(r.to_string());
    }
    if fmt == "c" {
        // An AArch64 condition as LLVM prints it (`cc` → `lo`).
        const CONDS: [&str; 18] = [
            "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt",
            "gt", "le", "al", "nv",
        ];
        return CONDS.contains(&r).then(|| {
            match r {
                "cs" => "hs",
                "cc" => "lo",
                c => c,
            }
            .to_string()
        });
    }
    if fmt == "w" {
        // An X register printed as its W half (`tbz x1, #3, …` → `w1`).
        let n = r.strip_prefix('x')?;
        return (n == "zr" || (!n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())))
            .then(|| format!("w{n}"));
    }
    let (sigil, num) = r.split_at(1);
    if sigil != "#" && sigil != "$" {
        return None;
    }
    let v: i64 = num.parse().ok()?;
    if fmt == "s12" {
        if v == 0 || v % 4096 != 0 {
            return None;
        }
        return Some(format!("#{}, lsl #12", v >> 12));
    }
    if fmt == "x" {
        let sign = if v < 0 { "-" } else { "" };
        return Some(format!("{sigil}{sign}0x{:x}", v.unsigned_abs()));
    }
    let bits: u32 = fmt[1..].parse().ok()?;
    let u = if bits >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << bits) - 1)
    };
    match &fmt[..1] {
        "u" => Some(format!("{sigil}{u}")),
        "x" => Some(format!("{sigil}0x{u:x}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_wide_immediates() {
        assert_eq!(move_wide(0, false, 64, 0), Some(0));
        assert_eq!(move_wide(0, false, 64, 1), Some(0));
        assert_eq!(move_wide(1 << 20, false, 64, 0), Some(16));
        assert_eq!(move_wide(1 << 20, false, 64, 1), Some(16));
        assert_eq!(move_wide(-1, true, 32, 0), Some(0));
        assert_eq!(move_wide(0x10001, false, 64, 0), None);
    }

    #[test]
    fn print_formats() {
        let r = vec!["$-1".to_string(), "%rax".to_string()];
        assert_eq!(
            apply("shlq\t{0:u8}, {1}", &r).as_deref(),
            Some("shlq\t$255, %rax")
        );
        let a = vec!["#-257".to_string(), "#32768".to_string()];
        assert_eq!(
            apply("and\t{0:x32}", &a).as_deref(),
            Some("and\t#0xfffffeff")
        );
        assert_eq!(
            apply("add\t{1:s12}", &a).as_deref(),
            Some("add\t#8, lsl #12")
        );
        assert_eq!(apply("{{1to8}} {0}", &r).as_deref(), Some("{1to8} $-1"));
        let c = vec!["w0".to_string(), "cc".to_string(), "x14".to_string()];
        assert_eq!(
            apply("cset\t{0}, {1:c}", &c).as_deref(),
            Some("cset\tw0, lo")
        );
        assert_eq!(apply("tbz\t{2:w}, #0", &c).as_deref(), Some("tbz\tw14, #0"));
        assert_eq!(apply("tbz\t{0:w}, #0", &c), None);
    }

    #[test]
    fn flags_fall_back_and_extended_registers() {
        assert_eq!(plain_key("addq i8 r64a").as_deref(), Some("addq i8 r64"));
        assert_eq!(plain_key("addq i8 r64"), None);
        assert!(extended("R9") && extended("XMM15") && !extended("XMM7") && !extended("RAX"));
        assert!(!extended("XMM16"));
    }
}
