//! Assembly as `clang -S` writes it and llvm-mca reads it (Lesson 23.1
//! §7): AT&T x86-64 and AArch64.
//!
//! Reading is in three steps, each linear in the text:
//!
//! 1. [`lines`] finds the statements, as the assembler's lexer does
//!    (comments, `;`, labels, directives) and llvm-mca's code regions
//!    (`# LLVM-MCA-BEGIN name` … `# LLVM-MCA-END`).
//! 2. [`x86`] and [`aarch64`] read each statement's mnemonic and operands
//!    into [`operand::Operand`]s; each operand has a *kind*, and the
//!    mnemonic with the kinds is the statement's *form key*
//!    (`addq m[r64,r64] r64a`, `ldr q [x,x]`).
//! 3. A form table generated from LLVM (`model::mc`) turns a key into the
//!    LLVM instruction and its operands; [`read`] leaves that to the caller
//!    and returns the instructions with their keys, display texts and
//!    source positions ([`Listing`]).
//!
pub mod aarch64;
pub mod expr;
pub mod lines;
pub mod operand;
pub mod x86;

use std::collections::HashMap;

use crate::formats::diagnostic::{Diagnostic, Diagnostics};
use lines::Item;
use operand::{Operand, Part};

/// The two assembly dialects read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Dialect {
    /// AT&T x86-64, as clang and llvm-mca print it.
    X86,
    /// AArch64.
    AArch64,
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

/// One instruction statement, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// 1-based line and column of the statement.
    pub line: u32,
    /// See `line`.
    pub column: u32,
    /// The statement as written (labels and comment removed).
    pub source: String,
    /// Prefixes and mnemonic, lower-case.
    pub mnemonic: String,
    /// The operands, in written order.
    pub operands: Vec<Operand>,
    /// The form key: the mnemonic and each operand's kind.
    pub key: String,
    /// Byte offset of the statement in the text.
    pub offset: usize,
}

impl Instruction {
    /// Every register and number of the operands, by path (`1.base`).
    pub fn parts(&self) -> Vec<(String, Part)> {
        let mut out = Vec::new();
        for (k, o) in self.operands.iter().enumerate() {
            o.parts(k, &mut out);
        }
        out
    }

    /// Each operand as the dialect's printer writes it.
    pub fn renders(&self, dialect: Dialect) -> Vec<String> {
        self.operands
            .iter()
            .map(|o| match dialect {
                Dialect::X86 => x86::render(o),
                Dialect::AArch64 => aarch64::render(o),
            })
            .collect()
    }
}

/// A code region: llvm-mca analyses each on its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    /// Its name (`LLVM-MCA-BEGIN name`); empty for an anonymous region and
    /// for the whole file.
    pub name: String,
    /// Begun by an `LLVM-MCA-BEGIN` (llvm-mca then prints its header, named
    /// or not); false for the whole file.
    pub marked: bool,
    /// Its instructions, in order.
    pub instructions: Vec<Instruction>,
}

/// A file read: its dialect and its regions with instructions (empty
/// regions left out, as llvm-mca leaves them out).
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// The dialect the file was read as.
    pub dialect: Dialect,
    /// At least one, none empty.
    pub regions: Vec<Region>,
}

/// The most instructions a file may hold (a million lines of views).
pub const MAX_INSTRUCTIONS: usize = 1_000_000;

/// Reads `text` (named `origin` in diagnostics) as `dialect`: every
/// statement and every region; all mistakes at once, each at its line and
/// column.
pub fn read(text: &str, origin: &str, dialect: Dialect) -> Result<Listing, Diagnostics> {
    read_with(text, origin, dialect, true)
}

/// [`read`], with region markers in AArch64 `//` comments seen or not
/// ([`lines::scan_with`]).
pub fn read_with(
    text: &str,
    origin: &str,
    dialect: Dialect,
    slash_markers: bool,
) -> Result<Listing, Diagnostics> {
    let mut diags = Vec::new();
    let mut regions = Regions::default();
    let mut instructions = Vec::new();
    let mut labels = std::collections::HashSet::new();
    for item in lines::scan_with(text, dialect, slash_markers) {
        match item {
            Item::Statement(s) => match statement(s.text, dialect) {
                Ok((mnemonic, operands, key)) => {
                    if instructions.len() >= MAX_INSTRUCTIONS {
                        diags.push(Diagnostic::new(
                            origin,
                            s.line,
                            s.column,
                            format!("more than {MAX_INSTRUCTIONS} instructions"),
                        ));
                        break;
                    }
                    instructions.push(Instruction {
                        line: s.line,
                        column: s.column,
                        source: s.text.to_string(),
                        mnemonic,
                        operands,
                        key,
                        offset: s.offset,
                    });
                }
                Err((at, why)) => {
                    // An offset inside a character counts the character.
                    let at = (0..=at.min(s.text.len()))
                        .rev()
                        .find(|&k| s.text.is_char_boundary(k))
                        .unwrap_or(0);
                    let col = s.column + s.text[..at].chars().count() as u32;
                    diags.push(Diagnostic::new(origin, s.line, col, why));
                }
            },
            // As the assembler: a symbol is defined once (`1:`, a
            // numeric local label, may be defined again).
            Item::Label(name, line, column) => {
                if !name.bytes().all(|c| c.is_ascii_digit()) && !labels.insert(name) {
                    diags.push(Diagnostic::new(
                        origin,
                        line,
                        column,
                        format!("symbol '{}' is already defined", name.trim_matches('"')),
                    ));
                }
            }
            Item::Begin(m) => {
                if let Err(why) = regions.begin(m.name, m.offset) {
                    diags.push(Diagnostic::new(origin, m.line, 1, why));
                }
            }
            Item::End(m) => {
                if let Err(why) = regions.end(m.name, m.offset) {
                    diags.push(Diagnostic::new(origin, m.line, 1, why));
                }
            }
        }
    }
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    let listing = Listing {
        dialect,
        regions: regions.fill(instructions),
    };
    if listing.regions.is_empty() {
        return Err(Diagnostics(vec![Diagnostic::new(
            origin,
            1,
            1,
            "no assembly instructions found",
        )]));
    }
    Ok(listing)
}

/// Mnemonic, operands and form key of a statement.
fn statement(
    text: &str,
    dialect: Dialect,
) -> Result<(String, Vec<Operand>, String), (usize, String)> {
    let (mnemonic, operands) = match dialect {
        Dialect::X86 => {
            let s = x86::parse(text)?;
            (s.mnemonic, s.operands)
        }
        Dialect::AArch64 => {
            let s = aarch64::parse(text)?;
            (s.mnemonic, s.operands)
        }
    };
    let key = form_key(&mnemonic, &operands, dialect);
    Ok((mnemonic, operands, key))
}

/// The form key of a statement: its mnemonic and its operands' kinds.
pub fn form_key(mnemonic: &str, operands: &[Operand], dialect: Dialect) -> String {
    let mut key = String::with_capacity(mnemonic.len() + 8 * operands.len());
    key.push_str(mnemonic);
    let wide = matches!(operands.first(), Some(Operand::Reg(r, _)) if r.kind == "x" || r.kind == "sp" || r.kind == "xzr");
    for o in operands {
        key.push(' ');
        match dialect {
            Dialect::X86 => key.push_str(&x86::kind(o)),
            Dialect::AArch64 => key.push_str(&aarch64::kind(o, mnemonic, wide)),
        }
    }
    key
}

/// A form key without its immediates' classes (`addq i* r64`,
/// `ldr x [x,#*]`), and the classes in order (`8`, `6.2`): the tables
/// keep one entry per such key, with the readings of each class.
pub fn split_key(key: &str, dialect: Dialect) -> (String, Vec<String>) {
    let mut classes = Vec::new();
    let mut out = String::with_capacity(key.len());
    for (k, t) in key.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        match dialect {
            _ if k == 0 => out.push_str(t),
            Dialect::X86 => match t.strip_prefix('i') {
                Some(c @ ("1" | "8" | "u8" | "16" | "u16" | "32" | "u32" | "64")) => {
                    classes.push(c.to_string());
                    out.push_str("i*");
                }
                _ => out.push_str(t),
            },
            Dialect::AArch64 => split_a64_token(t, &mut out, &mut classes),
        }
    }
    (out, classes)
}

/// Replaces each `#CLASS` of an AArch64 kind token (`#0`, `#6.2`, `#-5.4`,
/// ending the token or before `,`, `]`, `!`) by `#*`.
fn split_a64_token(t: &str, out: &mut String, classes: &mut Vec<String>) {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'#' {
            let rest = &t[i + 1..];
            // Up to the next `#` too, so that no byte is scanned twice; a
            // class is never followed by one.
            let end = rest.find([',', ']', '!', '#']).unwrap_or(rest.len());
            let c = &rest[..end];
            if !rest[end..].starts_with('#') && is_imm_class(c) {
                classes.push(c.to_string());
                out.push_str("#*");
            } else {
                // Not a class: copied as it is, and never scanned again.
                out.push('#');
                out.push_str(c);
            }
            i += 1 + end;
            continue;
        }
        let ch = t[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
}

/// `0`, or `[-]WIDTH.TZ`.
fn is_imm_class(c: &str) -> bool {
    if c == "0" {
        return true;
    }
    let c = c.strip_prefix('-').unwrap_or(c);
    match c.split_once('.') {
        Some((w, t)) => {
            !w.is_empty()
                && w.bytes().all(|x| x.is_ascii_digit())
                && t.len() == 1
                && t.bytes().all(|x| x.is_ascii_digit())
        }
        None => false,
    }
}

/// llvm-mca's code regions (`CodeRegions`): the whole file until the first
/// `LLVM-MCA-BEGIN`, then each named span; regions may overlap when their
/// names differ.
#[derive(Default)]
struct Regions {
    /// Name, start offset (None: from the top), end offset (None: to the end).
    spans: Vec<(String, Option<usize>, Option<usize>)>,
    /// The regions begun and not ended: name → index in `spans`.
    active: HashMap<String, usize>,
}

impl Regions {
    fn begin(&mut self, name: &str, at: usize) -> Result<(), String> {
        if self.active.contains_key(name) {
            return Err(if name.is_empty() {
                "found multiple overlapping anonymous regions".into()
            } else {
                format!("overlapping regions cannot have the same name ('{name}')")
            });
        }
        self.active.insert(name.to_string(), self.spans.len());
        self.spans.push((name.to_string(), Some(at), None));
        Ok(())
    }

    fn end(&mut self, name: &str, at: usize) -> Result<(), String> {
        if name.is_empty() && self.active.len() == 1 {
            for (_, k) in self.active.drain() {
                self.spans[k].2 = Some(at);
            }
            return Ok(());
        }
        if name.is_empty() && self.active.is_empty() && self.spans.is_empty() {
            self.spans.push((String::new(), None, Some(at)));
            return Ok(());
        }
        if let Some(k) = self.active.remove(name) {
            self.spans[k].2 = Some(at);
            return Ok(());
        }
        Err(if name.is_empty() {
            "found an invalid region end directive: no active anonymous region".into()
        } else {
            format!("found an invalid region end directive: no active region named '{name}'")
        })
    }

    /// The regions with their instructions, empty ones left out.
    fn fill(mut self, instructions: Vec<Instruction>) -> Vec<Region> {
        if self.spans.is_empty() {
            self.spans.push((String::new(), None, None));
        }
        let mut out: Vec<Region> = Vec::with_capacity(self.spans.len());
        if self.spans.len() == 1 {
            let (name, lo, hi) = self.spans.pop().unwrap_or_default();
            let inside = |o: usize| lo.is_none_or(|l| o >= l) && hi.is_none_or(|h| o <= h);
            let instructions: Vec<Instruction> = instructions
                .into_iter()
                .filter(|i| inside(i.offset))
                .collect();
            if !instructions.is_empty() {
                out.push(Region {
                    name,
                    marked: lo.is_some(),
                    instructions,
                });
            }
            return out;
        }
        for (name, lo, hi) in &self.spans {
            let inside = |o: usize| lo.is_none_or(|l| o >= l) && hi.is_none_or(|h| o <= h);
            let mine: Vec<Instruction> = instructions
                .iter()
                .filter(|i| inside(i.offset))
                .cloned()
                .collect();
            if !mine.is_empty() {
                out.push(Region {
                    name: name.clone(),
                    marked: lo.is_some(),
                    instructions: mine,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_as_llvm_mca_makes_them() {
        let text = "addq %rax, %rbx\n# LLVM-MCA-BEGIN foo\nimulq %rax, %rbx\n# LLVM-MCA-END foo\naddq %rcx, %rbx\n# LLVM-MCA-BEGIN\nsubq %rax, %rbx\n";
        let l = read(text, "t.s", Dialect::X86).unwrap();
        let names: Vec<(&str, usize)> = l
            .regions
            .iter()
            .map(|r| (r.name.as_str(), r.instructions.len()))
            .collect();
        assert_eq!(names, [("foo", 1), ("", 1)]);
        let whole = read("addq %rax, %rbx\nimulq %rax, %rbx\n", "t.s", Dialect::X86).unwrap();
        assert_eq!(whole.regions[0].instructions.len(), 2);
        let err = read("# LLVM-MCA-END foo\nnop\n", "t.s", Dialect::X86).unwrap_err();
        assert!(err.0[0].message.contains("invalid region end"), "{err:?}");
    }

    #[test]
    fn keys_split_off_their_immediate_classes() {
        let split = |k: &str, d| {
            let (b, c) = split_key(k, d);
            format!("{b} {c:?}")
        };
        assert_eq!(split("addq i8 r64a", Dialect::X86), r#"addq i* r64a ["8"]"#);
        assert_eq!(
            split("lock addl i1 m[r64,]", Dialect::X86),
            r#"lock addl i* m[r64,] ["1"]"#
        );
        assert_eq!(
            split("stp x x [sp,#-5.4]!", Dialect::AArch64),
            r#"stp x x [sp,#*]! ["-5.4"]"#
        );
        assert_eq!(split("cmp x #0", Dialect::AArch64), r#"cmp x #* ["0"]"#);
        assert_eq!(split("mov x #z", Dialect::AArch64), r#"mov x #z []"#);
        assert_eq!(
            split("add x x #6.4 lsl#", Dialect::AArch64),
            r#"add x x #* lsl# ["6.4"]"#
        );
    }

    #[test]
    fn a_bad_operand_is_located() {
        let err = read("\taddq %rax, %foo\n\tnop\n", "t.s", Dialect::X86).unwrap_err();
        assert_eq!((err.0[0].line, err.0[0].column), (1, 13));
    }
}
