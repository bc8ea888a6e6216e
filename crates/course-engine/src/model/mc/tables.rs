//! The generated tables, read: a *form table* per LLVM release of an
//! architecture ([`Forms`]) and a *model* per processor ([`Model`]), in the
//! line format `scripts/mca-models/encode.py` writes (its header documents
//! every record). The text is trusted to be the generator's: a table that
//! does not read is a [`TableError`] naming its line, never a panic.

use std::collections::HashMap;

use super::{Advance, Desc, ProcResource, Processor, RegId, RegisterFile, Registers, ResourceUse};

/// A table that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{table}:{line}: {why}")]
pub struct TableError {
    /// Which table.
    pub table: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

/// Where a template takes an MCInst operand from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A register written in the statement, by part path (`1`, `2.base`).
    Reg(Path),
    /// A relative of a written register: the member of a class among the
    /// register's sub-registers (`D1` for `v1.8b`) or super-registers.
    Related(Path, Relation, u16),
    /// A fixed register (0: none).
    Fixed(RegId),
    /// A fixed immediate.
    Imm(i64),
    /// An immediate `num / den · part + add`.
    Affine(Path, i64, i64, i64),
    /// AArch64 `mov Rd, #v` as a move-wide: the 16-bit chunk (field 0) or
    /// its shift (field 1) of the part, inverted (MOVN) or not, in a
    /// register of `bits`.
    MoveWide {
        /// The immediate part.
        part: Path,
        /// MOVN: the chunk of `!v`.
        inverted: bool,
        /// 32 or 64.
        bits: u32,
        /// 0: the chunk; 1: the shift.
        field: u8,
    },
    /// Not needed by the tables (a displacement, a symbol).
    Other,
}

/// Sub- or super-register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// A sub-register of the written one.
    Sub,
    /// A super-register of the written one.
    Super,
}

/// A part of a statement's operands: operand index and which part.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path(pub String);

/// The condition of a reading on the statement's registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guard {
    /// Register part `.0` is an extended x86-64 register and part `.1` is
    /// not (VEX forms LLVM commutes or reverses): `a>b`.
    Extended(Path, Path),
    /// The two register parts are the same register (an alias LLVM prints
    /// then, `cinv` for `csinv` of one register): `a=b`.
    Same(Path, Path),
}

/// One reading of a form key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// When it is taken (None: always, the last reading of a key).
    pub guard: Option<Guard>,
    /// Index into [`Forms::opcodes`].
    pub opcode: u32,
    /// Index into [`Forms::templates`].
    pub template: u32,
    /// Index into [`Forms::prints`]; None: print the statement as written.
    pub print: Option<u32>,
    /// The processors whose LLVM release has this reading (a bit each);
    /// [`Variant::models`] those of them that accept the instruction.
    pub known: u32,
    /// Bit `i` set: processor `Forms::models[i]` accepts the form.
    pub models: u32,
}

/// An LLVM instruction the forms name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opcode {
    /// LLVM's name (`ADD64rr`).
    pub name: String,
    /// Registers written without being operands (`EFLAGS`).
    pub implicit_defs: Vec<RegId>,
    /// Registers read without being operands.
    pub implicit_uses: Vec<RegId>,
    /// MCInst operands (`MCInstrDesc::getNumOperands`).
    pub operands: u32,
    /// Explicit definitions (`getNumDefs`).
    pub defs: u32,
    /// Operands that are optional definitions.
    pub optional_defs: Vec<u32>,
    /// Takes a variable number of operands.
    pub variadic: bool,
    /// Its variable operands are definitions.
    pub variadic_defs: bool,
    /// A call (llvm-mca warns once per region and assumes 100 cycles).
    pub call: bool,
    /// A return (llvm-mca warns once per region).
    pub ret: bool,
}

/// The form table of one architecture, shared by the LLVM releases its
/// processors come from, as one release reads it.
#[derive(Clone, Debug, Default)]
pub struct Forms {
    /// `x86` or `aarch64`.
    pub arch: String,
    /// The LLVM release read (its register relations).
    pub llvm: u32,
    /// The processors of every release, in the order of the bits of
    /// [`Variant::models`].
    pub models: Vec<String>,
    /// The registers.
    pub registers: Registers,
    /// Register classes named by templates and register files.
    pub classes: Vec<(String, Vec<RegId>)>,
    /// LLVM instructions.
    pub opcodes: Vec<Opcode>,
    /// MCInst operand templates.
    pub templates: Vec<Vec<Source>>,
    /// Print templates: `{k}` operand `k` as rendered, `{k:F}` in format `F`.
    pub prints: Vec<String>,
    /// Readings of forms, shared.
    pub readings: Vec<Vec<Variant>>,
    /// Form key (without immediates) → its readings.
    pub keys: HashMap<String, u32>,
    /// Form key with immediates as `i*`/`#*` → the readings of each tuple
    /// of immediate classes (`8`, `6.2/0`).
    pub generic: HashMap<String, Vec<(String, u32)>>,
}

/// What an instruction resolves to on a processor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The descriptor.
    pub desc: u32,
    /// A zero idiom.
    pub zero: bool,
    /// Dependency breaking.
    pub dep: bool,
    /// Which uses (by use index) are independent; empty: every explicit one.
    pub mask: Vec<bool>,
    /// An optimizable register move.
    pub optimizable_move: bool,
    /// May load, may store, side effects, load barrier, store barrier.
    pub flags: [bool; 5],
    /// Which writes (by descriptor index) clear their super-registers.
    pub clears: Vec<bool>,
    /// Writes the target's post-processing removes (by descriptor index;
    /// x86-64 in LLVM 22: the stack pointer of push, pop and call).
    pub killed: Vec<u16>,
}

/// A feature of an instruction that a resolution rule looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feature {
    /// MCInst operands `i` and `j` are the same register.
    Pair(usize, usize),
    /// The value of MCInst operand `k`: its class by label (`v:5`,
    /// `abs:XZR`, `none`), else the default class.
    Op {
        /// The operand.
        k: usize,
        /// The class of any other value.
        default: u8,
        /// Labels whose class is not the default.
        labels: HashMap<String, u8>,
    },
}

/// How an instruction of one opcode picks its outcome on a processor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Always the same outcome.
    Fixed(u32),
    /// By features: the class of each, then the outcome of that tuple.
    Features(Vec<Feature>, HashMap<Vec<u8>, Option<u32>>),
    /// The processor has no scheduling information for it (llvm-mca's
    /// message).
    Unsupported(String),
}

/// A processor's tables.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// The processor with its descriptors.
    pub processor: Processor,
    /// Outcomes of resolutions.
    pub outcomes: Vec<Outcome>,
    /// By opcode index of the release's [`Forms`]: whether the opcode's
    /// scheduling class is a variant one on this processor (llvm-mca then
    /// builds a descriptor per distinct instruction, not per opcode), and
    /// its rule. None: not in the tables.
    pub rules: Vec<Option<(bool, Rule)>>,
}

fn err(table: &str, line: usize, why: impl Into<String>) -> TableError {
    TableError {
        table: table.into(),
        line,
        why: why.into(),
    }
}

/// Splits `s` at `sep`, parsing each non-empty piece.
fn list<T: std::str::FromStr>(s: &str, sep: char) -> Option<Vec<T>> {
    if s.is_empty() || s == "-" {
        return Some(Vec::new());
    }
    s.split(sep).map(|x| x.parse().ok()).collect()
}

fn num<T: std::str::FromStr>(s: Option<&str>) -> Option<T> {
    s?.parse().ok()
}

impl Forms {
    /// Reads a form table.
    pub fn parse(text: &str, table: &str, llvm: u32) -> Result<Forms, TableError> {
        let mut f = Forms::default();
        // `r RELEASE REG SUBS SUPS`: the relations of release RELEASE where
        // they differ from the R line's, applied once every R line is read.
        let mut overrides = Vec::new();
        f.registers.names.push(String::new());
        f.registers.subregs.push(Vec::new());
        f.registers.superregs.push(Vec::new());
        f.registers.constant.push(false);
        f.registers.artificial.push(false);
        for (n, line) in text.lines().enumerate() {
            let ln = n + 1;
            let mut p = line.split('\t');
            let tag = p.next().unwrap_or("");
            let bad = |why: &str| err(table, ln, why);
            match tag {
                "R" => {
                    let name = p.next().ok_or_else(|| bad("register without a name"))?;
                    let subs = list(p.next().unwrap_or(""), ',')
                        .ok_or_else(|| bad("bad sub-registers"))?;
                    let sups = list(p.next().unwrap_or(""), ',')
                        .ok_or_else(|| bad("bad super-registers"))?;
                    f.registers.names.push(name.to_string());
                    f.registers.subregs.push(subs);
                    f.registers.superregs.push(sups);
                    f.registers.constant.push(p.next() == Some("1"));
                    f.registers.artificial.push(p.next() == Some("1"));
                }
                "r" => {
                    let release: u32 = num(p.next()).ok_or_else(|| bad("bad release"))?;
                    let reg: usize = num(p.next()).ok_or_else(|| bad("bad register"))?;
                    let subs = list(p.next().unwrap_or(""), ',')
                        .ok_or_else(|| bad("bad sub-registers"))?;
                    let sups = list(p.next().unwrap_or(""), ',')
                        .ok_or_else(|| bad("bad super-registers"))?;
                    if release == llvm {
                        overrides.push((reg, subs, sups));
                    }
                }
                "C" => {
                    let name = p.next().ok_or_else(|| bad("class without a name"))?;
                    let members = list(p.next().unwrap_or(""), ',')
                        .ok_or_else(|| bad("bad class members"))?;
                    f.classes.push((name.to_string(), members));
                }
                "O" => f.opcodes.push(opcode_line(&mut p).map_err(&bad)?),
                "T" => f
                    .templates
                    .push(template(p.next().unwrap_or("")).ok_or_else(|| bad("bad template"))?),
                "P" => f.prints.push(unescape(p.next().unwrap_or(""))),
                "V" => {
                    let vs = p
                        .next()
                        .unwrap_or("")
                        .split('|')
                        .map(variant)
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| bad("bad readings"))?;
                    f.readings.push(vs);
                }
                "K" => {
                    let key = p.next().ok_or_else(|| bad("form without a key"))?;
                    let v = num(p.next()).ok_or_else(|| bad("bad form"))?;
                    f.keys.insert(key.to_string(), v);
                }
                "G" => {
                    let key = p.next().ok_or_else(|| bad("form without a key"))?;
                    let mut entries = Vec::new();
                    for e in p.next().unwrap_or("").split(';') {
                        let (v, classes) =
                            e.split_once('=').ok_or_else(|| bad("bad generic form"))?;
                        let v: u32 = v.parse().map_err(|_| bad("bad generic form"))?;
                        entries.extend(classes.split(',').map(|c| (c.to_string(), v)));
                    }
                    f.generic.insert(key.to_string(), entries);
                }
                "arch" => {}
                _ => header(line, &mut f.arch, &mut f.llvm, &mut f.models),
            }
        }
        f.llvm = llvm;
        for (reg, subs, sups) in overrides {
            if reg >= f.registers.names.len() {
                return Err(err(table, 0, "a register relation names no register"));
            }
            f.registers.subregs[reg] = subs;
            f.registers.superregs[reg] = sups;
        }
        Ok(f)
    }

    /// The readings of a form key (with immediate classes as the front end
    /// writes them), if the tables have it.
    pub fn readings_of(
        &self,
        key: &str,
        dialect: crate::model::asm::Dialect,
    ) -> Option<&[Variant]> {
        if let Some(&v) = self.keys.get(key) {
            return self.readings.get(v as usize).map(Vec::as_slice);
        }
        let (base, classes) = crate::model::asm::split_key(key, dialect);
        if classes.is_empty() {
            return None;
        }
        let want = classes.join("/");
        let siblings = self.generic.get(&base)?;
        let v = match siblings.iter().find(|(c, _)| *c == want) {
            Some((_, v)) => *v,
            // No form of the tables had these immediates: the nearest
            // classes that an assembler encodes the same way.
            None => {
                siblings
                    .iter()
                    .filter_map(|(c, v)| {
                        let theirs: Vec<&str> = c.split('/').collect();
                        (theirs.len() == classes.len()).then_some(())?;
                        let d = classes
                            .iter()
                            .zip(&theirs)
                            .map(|(a, b)| class_distance(a, b, dialect))
                            .sum::<u32>();
                        Some((d, c, *v))
                    })
                    .min()?
                    .2
            }
        };
        self.readings.get(v as usize).map(Vec::as_slice)
    }

    /// The members of class `c`, if it exists.
    pub fn class(&self, c: u16) -> Option<&[RegId]> {
        self.classes.get(c as usize).map(|(_, m)| m.as_slice())
    }
}

/// How far immediate class `theirs` is from `mine` (as the front end writes
/// them): a wider x86 encoding holds the value, a narrower one may not; an
/// AArch64 class with another sign is never taken, one with fewer trailing
/// zeros (an unscaled offset where a scaled one was meant) only last.
fn class_distance(mine: &str, theirs: &str, dialect: crate::model::asm::Dialect) -> u32 {
    use crate::model::asm::Dialect;
    match dialect {
        Dialect::X86 => {
            const ORDER: [&str; 8] = ["1", "8", "u8", "16", "u16", "32", "u32", "64"];
            let at = |c: &str| ORDER.iter().position(|o| *o == c).unwrap_or(0) as u32;
            let (a, b) = (at(mine), at(theirs));
            if b >= a { b - a } else { 100 * (a - b) }
        }
        Dialect::AArch64 => {
            // (negative, width, trailing zeros); 0 divides by anything.
            let parse = |c: &str| -> (bool, u32, u32) {
                if c == "0" {
                    return (false, 1, 4);
                }
                let (neg, rest) = c.strip_prefix('-').map_or((false, c), |r| (true, r));
                let (w, t) = rest.split_once('.').unwrap_or((rest, "0"));
                (neg, w.parse().unwrap_or(0), t.parse().unwrap_or(0))
            };
            let (an, aw, at) = parse(mine);
            let (bn, bw, bt) = parse(theirs);
            if an != bn {
                return 100_000;
            }
            let zeros = if bt >= at {
                10 * (bt - at)
            } else {
                1000 * (at - bt)
            };
            zeros + aw.abs_diff(bw)
        }
    }
}

/// An `O` line after its tag: name, implicit defs and uses, operand and
/// definition counts, optional defs, flags (variadic, variadic defs,
/// call, return).
fn opcode_line<'a>(p: &mut impl Iterator<Item = &'a str>) -> Result<Opcode, &'static str> {
    let name = p.next().ok_or("opcode without a name")?.to_string();
    let implicit_defs = list(p.next().unwrap_or(""), ',').ok_or("bad implicit defs")?;
    let implicit_uses = list(p.next().unwrap_or(""), ',').ok_or("bad implicit uses")?;
    let operands = num(p.next()).ok_or("bad operand count")?;
    let defs = num(p.next()).ok_or("bad definition count")?;
    let optional_defs = list(p.next().unwrap_or(""), ',').ok_or("bad optional defs")?;
    let v = p.next().unwrap_or("00").as_bytes();
    Ok(Opcode {
        name,
        implicit_defs,
        implicit_uses,
        operands,
        defs,
        optional_defs,
        variadic: v.first() == Some(&b'1'),
        variadic_defs: v.get(1) == Some(&b'1'),
        call: v.get(2) == Some(&b'1'),
        ret: v.get(3) == Some(&b'1'),
    })
}

/// A print template as written: `\t` is a tab, `\\` a backslash.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('t') => out.push('\t'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Header lines: `arch x86`, `llvm 22`, `models a b`, `name …`.
fn header(line: &str, arch: &mut String, llvm: &mut u32, models: &mut Vec<String>) {
    if let Some(v) = line.strip_prefix("llvm ") {
        *llvm = v.trim().parse().unwrap_or(0);
    } else if let Some(v) = line.strip_prefix("models ") {
        *models = v.split_whitespace().map(str::to_string).collect();
    } else if let Some(v) = line.strip_prefix("arch ") {
        *arch = v.trim().to_string();
    }
}

fn template(s: &str) -> Option<Vec<Source>> {
    if s.is_empty() {
        return Some(Vec::new());
    }
    s.split(';')
        .map(|e| {
            let mut f = e.split(':');
            Some(match f.next()? {
                "r" => {
                    let path = Path(f.next()?.to_string());
                    match f.next() {
                        None => Source::Reg(path),
                        Some(rel) => {
                            let r = if rel == "sub" {
                                Relation::Sub
                            } else {
                                Relation::Super
                            };
                            Source::Related(path, r, f.next()?.parse().ok()?)
                        }
                    }
                }
                "R" => Source::Fixed(f.next()?.parse().ok()?),
                "i" => Source::Imm(f.next()?.parse().ok()?),
                "m" => Source::MoveWide {
                    part: Path(f.next()?.to_string()),
                    inverted: f.next()? == "1",
                    bits: f.next()?.parse().ok()?,
                    field: f.next()?.parse().ok()?,
                },
                "a" => Source::Affine(
                    Path(f.next()?.to_string()),
                    f.next()?.parse().ok()?,
                    f.next()?.parse().ok()?,
                    f.next()?.parse().ok()?,
                ),
                _ => Source::Other,
            })
        })
        .collect()
}

fn variant(s: &str) -> Option<Variant> {
    let mut f = s.split(':');
    let g = f.next()?;
    let guard = if g == "-" {
        None
    } else if let Some((a, b)) = g.split_once('>') {
        Some(Guard::Extended(Path(a.to_string()), Path(b.to_string())))
    } else {
        let (a, b) = g.split_once('=')?;
        Some(Guard::Same(Path(a.to_string()), Path(b.to_string())))
    };
    let opcode = f.next()?.parse().ok()?;
    let template = f.next()?.parse().ok()?;
    let print = match f.next()? {
        "-" => None,
        p => Some(p.parse().ok()?),
    };
    let models = f.next()?.parse().ok()?;
    Some(Variant {
        guard,
        opcode,
        template,
        print,
        models,
        known: match f.next() {
            Some(k) => k.parse().ok()?,
            None => models,
        },
    })
}

impl Model {
    /// Reads a processor's tables; `forms` is its release's form table
    /// (register classes of register files).
    pub fn parse(text: &str, table: &str, forms: &Forms) -> Result<Model, TableError> {
        let mut m = Model {
            rules: vec![None; forms.opcodes.len()],
            ..Model::default()
        };
        let p = &mut m.processor;
        p.llvm = forms.llvm;
        for (n, line) in text.lines().enumerate() {
            let ln = n + 1;
            let bad = |why: &str| err(table, ln, why);
            let mut f = line.split('\t');
            match f.next().unwrap_or("") {
                "params" => params(p, f),
                "U" => p
                    .resources
                    .push(resource(f).ok_or_else(|| bad("bad resource"))?),
                "F" => p
                    .register_files
                    .push(register_file(f, forms).ok_or_else(|| bad("bad register file"))?),
                "D" => p.descs.push(desc(f).ok_or_else(|| bad("bad descriptor"))?),
                "Y" => m
                    .outcomes
                    .push(outcome(f).ok_or_else(|| bad("bad outcome"))?),
                "X" => {
                    let op: usize = num(f.next()).ok_or_else(|| bad("bad opcode"))?;
                    let variant = f.next() == Some("1");
                    let r = rule(f.next().unwrap_or("")).ok_or_else(|| bad("bad rule"))?;
                    let slot = m
                        .rules
                        .get_mut(op)
                        .ok_or_else(|| bad("opcode out of range"))?;
                    *slot = Some((variant, r));
                }
                _ => {
                    if let Some(name) = line.strip_prefix("name ") {
                        p.name = name.trim().to_string();
                    }
                }
            }
        }
        Ok(m)
    }
}

fn params<'a>(p: &mut Processor, f: impl Iterator<Item = &'a str>) {
    for kv in f {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        let v: u32 = v.parse().unwrap_or(0);
        match k {
            "issue_width" => p.issue_width = v,
            "micro_op_buffer_size" => p.micro_op_buffer_size = v,
            "load_latency" => p.load_latency = v,
            "high_latency" => p.high_latency = v,
            "processor_id" => p.processor_id = v,
            "rob" => p.reorder_buffer_size = v,
            "retire" => p.max_retire_per_cycle = v,
            "lq" => p.load_queue = v as u16,
            "sq" => p.store_queue = v as u16,
            _ => {}
        }
    }
}

fn resource<'a>(mut f: impl Iterator<Item = &'a str>) -> Option<ProcResource> {
    Some(ProcResource {
        name: f.next()?.to_string(),
        units: num(f.next())?,
        super_idx: num(f.next())?,
        buffer_size: num(f.next())?,
        mask: num(f.next())?,
        sub_units: list(f.next().unwrap_or(""), ',')?,
    })
}

fn register_file<'a>(mut f: impl Iterator<Item = &'a str>, forms: &Forms) -> Option<RegisterFile> {
    let name = f.next()?.to_string();
    let phys_regs = num(f.next())?;
    let max_moves_per_cycle = num(f.next())?;
    let zero_moves_only = f.next()? == "1";
    let mut costs = Vec::new();
    for e in f.next().unwrap_or("").split(';').filter(|e| !e.is_empty()) {
        let mut p = e.split(':');
        let class: u16 = p.next()?.parse().ok()?;
        let cost = p.next()?.parse().ok()?;
        let elim = p.next()? == "1";
        costs.push((forms.class(class)?.to_vec(), cost, elim));
    }
    Some(RegisterFile {
        name,
        phys_regs,
        max_moves_per_cycle,
        zero_moves_only,
        costs,
    })
}

/// Records of a descriptor field: `a,b,c;a,b,c`.
fn records(s: &str) -> Option<Vec<Vec<i64>>> {
    if s.is_empty() {
        return Some(Vec::new());
    }
    s.split(';').map(|r| list::<i64>(r, ',')).collect()
}

fn desc<'a>(mut f: impl Iterator<Item = &'a str>) -> Option<Desc> {
    let mut head = [0u64; 11];
    for h in &mut head {
        *h = num(f.next())?;
    }
    let res = records(f.next().unwrap_or(""))?;
    let adv = records(f.next().unwrap_or(""))?;
    let wpr = records(f.next().unwrap_or(""))?;
    let wlat = records(f.next().unwrap_or(""))?;
    let get = |r: &Vec<i64>, i: usize| r.get(i).copied();
    Some(Desc {
        sched_class: head[0] as u32,
        uops: head[1] as u32,
        max_latency: head[2] as u32,
        must_issue_immediately: head[3] != 0,
        partially_overlapping_groups: head[4] != 0,
        begin_group: head[5] != 0,
        end_group: head[6] != 0,
        retire_ooo: head[7] != 0,
        used_buffers: head[8],
        used_units: head[9],
        used_groups: head[10],
        resources: res
            .iter()
            .map(|r| {
                Some(ResourceUse {
                    resource: get(r, 0)? as u16,
                    begin: get(r, 1)? as u32,
                    end: get(r, 2)? as u32,
                    units: get(r, 3)? as u32,
                    reserved: get(r, 4)? != 0,
                })
            })
            .collect::<Option<_>>()?,
        writes: Vec::new(),
        reads: Vec::new(),
        advance: adv
            .iter()
            .map(|a| {
                Some(Advance {
                    use_index: get(a, 0)? as u32,
                    write_resource: get(a, 1)? as u32,
                    cycles: get(a, 2)? as i32,
                })
            })
            .collect::<Option<_>>()?,
        write_proc_res: wpr
            .iter()
            .map(|w| Some((get(w, 0)? as u16, get(w, 1)? as u32, get(w, 2)? as u32)))
            .collect::<Option<_>>()?,
        write_latencies: wlat
            .iter()
            .map(|w| Some((get(w, 0)? as i32, get(w, 1)? as u32)))
            .collect::<Option<_>>()?,
    })
}

fn bits(s: &str) -> Vec<bool> {
    if s == "-" {
        return Vec::new();
    }
    s.chars().map(|c| c == '1').collect()
}

fn outcome<'a>(mut f: impl Iterator<Item = &'a str>) -> Option<Outcome> {
    let desc = num(f.next())?;
    let zd = f.next()?;
    let mask = bits(f.next()?);
    let optimizable_move = f.next()? == "1";
    let fl = f.next()?;
    let clears = bits(f.next().unwrap_or("-"));
    let killed = list(f.next().unwrap_or("-"), ',')?;
    let has = |c: char| fl.contains(c);
    Some(Outcome {
        desc,
        zero: zd.starts_with('z'),
        dep: zd.as_bytes().get(1) == Some(&b'd'),
        mask,
        optimizable_move,
        flags: [has('l'), has('s'), has('e'), has('L'), has('S')],
        clears,
        killed,
    })
}

fn rule(s: &str) -> Option<Rule> {
    if let Some(why) = s.strip_prefix('!') {
        return Some(Rule::Unsupported(why.to_string()));
    }
    let parts: Vec<&str> = s.split(' ').collect();
    if parts.len() == 1 {
        return Some(Rule::Fixed(s.parse().ok()?));
    }
    let (combos, feats) = parts.split_last()?;
    let mut features = Vec::new();
    for f in feats {
        if let Some(pair) = f.strip_prefix('=') {
            let (i, j) = pair.split_once(':')?;
            features.push(Feature::Pair(i.parse().ok()?, j.parse().ok()?));
            continue;
        }
        let mut p = f.splitn(3, ':');
        let k = p.next()?.parse().ok()?;
        let default = p.next()?.parse().ok()?;
        let mut labels = HashMap::new();
        for l in p.next().unwrap_or("").split(',').filter(|l| !l.is_empty()) {
            let (name, c) = l.rsplit_once('=')?;
            labels.insert(name.to_string(), c.parse().ok()?);
        }
        features.push(Feature::Op { k, default, labels });
    }
    let mut table = HashMap::new();
    for c in combos.split(',').filter(|c| !c.is_empty()) {
        let (classes, o) = c.split_once('=')?;
        let key = classes
            .split('.')
            .map(|x| x.parse().ok())
            .collect::<Option<Vec<u8>>>()?;
        table.insert(
            key,
            if o == "!" {
                None
            } else {
                Some(o.parse().ok()?)
            },
        );
    }
    Some(Rule::Features(features, table))
}

#[cfg(test)]
mod tests {
    use super::class_distance;
    use crate::model::asm::Dialect;

    #[test]
    fn an_x86_immediate_falls_back_to_a_wider_encoding_first() {
        let d = |a, b| class_distance(a, b, Dialect::X86);
        // 200 does not fit a sign-extended byte: a 16-bit or 32-bit
        // immediate holds it, a byte one is the last resort.
        assert!(d("u8", "16") < d("u8", "32"));
        assert!(d("u8", "32") < d("u8", "8"));
        assert_eq!(d("32", "32"), 0);
    }

    #[test]
    fn an_aarch64_immediate_keeps_its_sign_and_its_scaling() {
        let d = |a, b| class_distance(a, b, Dialect::AArch64);
        // 12 (4.2): a scaled word offset; 20 (6.2) is encoded the same way,
        // 9 (5.0) would be an unscaled one.
        assert!(d("4.2", "6.2") < d("4.2", "4.0"));
        assert!(d("4.2", "5.3") < d("4.2", "4.1"));
        // A negative offset is never taken for a positive one.
        assert!(d("4.2", "-4.2") > d("4.2", "18.0"));
        assert!(d("0", "2.4") < d("0", "2.0"));
    }
}
