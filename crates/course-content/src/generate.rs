//! Seeded generators of lab-format blocks and loops (`course gen`, drills,
//! quiz variants and benchmarks).
//!
//! A generator writes lab-format text, which is then parsed like any input:
//! the text a student sees is the single source of truth. The same seed and
//! parameters give the same bytes (see [`course_engine::util::rng`]).
//!
//! ```
//! use course_content::generate;
//! use course_engine::model::machine::Machine;
//! let m = Machine::toy();
//! let params = generate::GenParams::block_default();
//! let a = generate::block(&m, &params, 7, None);
//! assert_eq!(a, generate::block(&m, &params, 7, None));
//! assert!(course_engine::model::program::parse(&a, "gen", &m).is_ok());
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use course_engine::formats::yaml;
use course_engine::model::form::{IMM, MEM, REG, Shape as FormShape};
use course_engine::model::machine::{Class, Machine};
use course_engine::model::program::{Kind, Program, parse};
use course_engine::util::rng::Rng;

/// An inclusive range of operation counts.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Span {
    pub min: u64,
    pub max: u64,
}

/// Generator parameters (the drill YAML files).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GenParams {
    pub ops: Span,
    pub class_weights: BTreeMap<String, u32>,
    pub symbols: Vec<String>,
    #[serde(default)]
    pub register_address_percent: u32,
    #[serde(default)]
    pub immediate_percent: u32,
    #[serde(default = "default_window")]
    pub window: u32,
    #[serde(default)]
    pub carried_percent: u32,
    #[serde(default)]
    pub distance2_percent: u32,
    #[serde(default)]
    pub min_recurrences: u32,
}

fn default_window() -> u32 {
    5
}

/// Blocks above this size keep memory disambiguated (no register
/// addresses, symbols per region) so that the number of memory edges stays
/// linear: a register address may alias every earlier store.
pub const SCALE_OPS: u64 = 2000;

impl GenParams {
    /// The parameters of `drills/list-schedule.yaml`.
    pub fn block_default() -> GenParams {
        yaml::from_str(crate::data::LIST_SCHEDULE_YAML, "drills/list-schedule.yaml")
            .expect("embedded drill parameters are valid")
    }

    /// The parameters of `drills/mii.yaml`.
    pub fn loop_default() -> GenParams {
        yaml::from_str(crate::data::MII_YAML, "drills/mii.yaml")
            .expect("embedded drill parameters are valid")
    }

    /// Parses a parameter file; `origin` names it in messages.
    pub fn from_yaml(text: &str, origin: &str) -> Result<GenParams, String> {
        let p: GenParams = yaml::from_str(text, origin).map_err(|d| d.to_string())?;
        if p.ops.min < 1 || p.ops.min > p.ops.max {
            return Err(format!("{origin}: ops: need 1 ≤ min ≤ max"));
        }
        if p.symbols.is_empty() {
            return Err(format!("{origin}: symbols: at least one symbol"));
        }
        if p.class_weights.values().all(|&w| w == 0) {
            return Err(format!(
                "{origin}: class_weights: some weight must be positive"
            ));
        }
        Ok(p)
    }
}

/// `a`…`z`, `aa`, `ab`, … (bijective base 26), skipping `ii`: that word
/// starts a submission's II line, so no operation may be labelled with it.
pub fn label_name(i: u64) -> String {
    // `ii` is the 243rd name (index 242); every later one moves up by one.
    let skip = u64::from(i >= 242);
    base26(i + skip)
}

/// The `i`-th name of bijective base 26.
fn base26(mut i: u64) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// Names a block may get: places in a control-flow graph.
const BLOCK_NAMES: [&str; 16] = [
    "entry", "body", "header", "latch", "exit", "tail", "join", "merge", "split", "prologue",
    "epilogue", "setup", "update", "cleanup", "fixup", "finish",
];

/// Names a loop may get: kernels a loop body could come from.
const LOOP_NAMES: [&str; 16] = [
    "dot", "axpy", "scan", "norm", "poly", "fir", "sum", "blend", "scale", "horner", "stencil",
    "hist", "copy", "walk", "reduce", "mix",
];

/// A readable name for the seed's block or loop, drawn from a stream of
/// its own so that it changes no generated operation.
pub fn name(seed: u64, kind: Kind) -> &'static str {
    let names = match kind {
        Kind::Block => &BLOCK_NAMES,
        Kind::Loop => &LOOP_NAMES,
    };
    let mut rng = Rng::derived(seed, &format!("{}/name", kind.as_str()));
    names[rng.below(names.len() as u64) as usize]
}

/// What an operation of a class looks like.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Load,
    Store,
    /// `li r, imm`
    Imm,
    /// `mov r, s`
    Unary,
    Binary,
}

/// The lab shape of a generated operation (the second operand of a
/// binary one of kind `second`).
fn form_shape(sh: Shape, second: u8) -> FormShape {
    let (dest, kinds) = match sh {
        Shape::Load => (true, vec![MEM]),
        Shape::Store => (false, vec![MEM, REG]),
        Shape::Imm => (true, vec![IMM]),
        Shape::Unary => (true, vec![REG]),
        Shape::Binary => (true, vec![REG, second]),
    };
    FormShape {
        dests: u8::from(dest),
        kinds,
    }
}

/// The opcodes of class `c` the generator can write in a form the class
/// models (Definition 23.1.8): a binary opcode needs a two-operand form,
/// or a one-operand register form.
fn generable(c: &Class) -> Vec<&str> {
    c.opcodes
        .iter()
        .map(String::as_str)
        .filter(|op| match shape(op) {
            Shape::Binary => [IMM, REG]
                .iter()
                .any(|&k| c.accepts(&form_shape(Shape::Binary, k))),
            sh => c.accepts(&form_shape(sh, REG)),
        })
        .collect()
}

fn shape(opcode: &str) -> Shape {
    match opcode {
        "load" => Shape::Load,
        "store" => Shape::Store,
        "li" => Shape::Imm,
        "mov" => Shape::Unary,
        _ => Shape::Binary,
    }
}

struct Line {
    label: String,
    shape: Shape,
    dest: Option<u64>,
    opcode: String,
    /// Register operands by definition index (carried: `(def, distance)`).
    srcs: Vec<Src>,
    addr: Option<(Option<String>, Option<Src>)>,
    /// Whether the class's forms take an immediate, not a register, where
    /// this line has one (a recurrence then rewrites another operand).
    imm_only: bool,
}

#[derive(Clone)]
enum Src {
    Reg(u64, Option<u32>),
    Imm(i64),
}

/// The lab-format text of a seeded block or loop (what [`program`] parses):
/// `ops` operations, or a count drawn from `params` when `None`. The
/// phases: the classes to draw from, the operations drawn one by one
/// (`Draft`), the recurrences of a loop, the text.
pub fn generate(
    m: &Machine,
    params: &GenParams,
    seed: u64,
    ops: Option<u64>,
    kind: Kind,
) -> String {
    let mut rng = Rng::derived(seed, kind.as_str());
    let n = ops
        .unwrap_or_else(|| rng.range(params.ops.min, params.ops.max))
        .max(1);
    let classes = generable_classes(m, params);
    let weights: Vec<u32> = classes.iter().map(|c| c.0).collect();
    let mut draft = Draft::new(m, params, n);
    for i in 0..n {
        draft.add_line(i, &classes, &weights, &mut rng);
    }
    let Draft {
        mut lines, defs, ..
    } = draft;
    if kind == Kind::Loop {
        add_recurrences(&mut lines, &defs, params, &mut rng);
    }
    render(&lines, kind, n, seed)
}

/// The classes that can be generated, with their weights and opcodes:
/// those `params` weighs, or every class equally on a machine the
/// parameters do not name.
fn generable_classes<'m>(m: &'m Machine, params: &GenParams) -> Vec<(u32, Vec<&'m str>)> {
    let mut classes: Vec<(u32, Vec<&str>)> = Vec::new();
    for c in m.classes() {
        let w = params.class_weights.get(&c.name).copied().unwrap_or(0);
        let ops = generable(c);
        if w > 0 && !ops.is_empty() {
            classes.push((w, ops));
        }
    }
    if classes.is_empty() {
        classes = m
            .classes()
            .iter()
            .map(|c| (1, generable(c)))
            .filter(|c| !c.1.is_empty())
            .collect();
    }
    classes
}

/// The operations drawn so far, and what the next one may read.
struct Draft<'a> {
    m: &'a Machine,
    params: &'a GenParams,
    /// A large block: symbols per region, no register addresses.
    scale: bool,
    window: usize,
    reg_addr: u32,
    lines: Vec<Line>,
    /// The line index of each definition.
    defs: Vec<u64>,
    /// Whether each definition has been read.
    used: Vec<bool>,
}

impl<'a> Draft<'a> {
    fn new(m: &'a Machine, params: &'a GenParams, n: u64) -> Draft<'a> {
        let scale = n > SCALE_OPS;
        Draft {
            m,
            params,
            scale,
            window: params.window.max(1) as usize,
            reg_addr: if scale {
                0
            } else {
                params.register_address_percent
            },
            lines: Vec::with_capacity(n as usize),
            defs: Vec::new(),
            used: Vec::new(),
        }
    }

    /// A recent definition, preferring one nobody has read yet.
    fn pick(&mut self, rng: &mut Rng) -> Option<u64> {
        if self.defs.is_empty() {
            return None;
        }
        let lo = self.defs.len().saturating_sub(self.window);
        let unused: Vec<usize> = (lo..self.defs.len()).filter(|&d| !self.used[d]).collect();
        let d = if !unused.is_empty() && rng.percent(60) {
            unused[0]
        } else {
            lo + rng.below((self.defs.len() - lo) as u64) as usize
        };
        self.used[d] = true;
        Some(d as u64)
    }

    /// A symbol for line `i`'s address (one per region of 32 lines in a
    /// large block).
    fn symbol(&self, rng: &mut Rng, i: u64) -> String {
        let symbols = &self.params.symbols;
        let s = &symbols[rng.below(symbols.len() as u64) as usize];
        if self.scale {
            format!("{s}{}", i / 32)
        } else {
            s.clone()
        }
    }

    /// The opcode of the next line, drawn by class weight; before any
    /// definition, an operation that reads a register starts from memory
    /// or a constant instead.
    fn opcode(
        &self,
        classes: &[(u32, Vec<&str>)],
        weights: &[u32],
        rng: &mut Rng,
    ) -> (String, Shape) {
        let ci = rng.weighted(weights);
        let opcodes = &classes[ci].1;
        let mut opcode = opcodes[rng.below(opcodes.len() as u64) as usize].to_string();
        let mut sh = shape(&opcode);
        if self.defs.is_empty() && matches!(sh, Shape::Store | Shape::Unary | Shape::Binary) {
            let fallback = self
                .m
                .opcodes()
                .find(|o| *o == "load")
                .or_else(|| self.m.opcodes().find(|o| *o == "li"));
            if let Some(f) = fallback {
                opcode = f.to_string();
                sh = shape(&opcode);
            }
        }
        (opcode, sh)
    }

    /// Draws line `i`: its opcode, then its operands by shape.
    fn add_line(&mut self, i: u64, classes: &[(u32, Vec<&str>)], weights: &[u32], rng: &mut Rng) {
        let (opcode, sh) = self.opcode(classes, weights, rng);
        let mut line = Line {
            label: label_name(i),
            shape: sh,
            dest: None,
            opcode,
            srcs: Vec::new(),
            addr: None,
            imm_only: false,
        };
        match sh {
            Shape::Load | Shape::Store => {
                let with_reg = !self.defs.is_empty() && rng.percent(self.reg_addr);
                let addr = if with_reg {
                    let r = self.pick(rng).map(|d| Src::Reg(d, None));
                    let sym = rng.percent(50).then(|| self.symbol(rng, i));
                    (sym, r)
                } else {
                    (Some(self.symbol(rng, i)), None)
                };
                line.addr = Some(addr);
                if sh == Shape::Store
                    && let Some(d) = self.pick(rng)
                {
                    line.srcs.push(Src::Reg(d, None));
                }
            }
            Shape::Imm => line.srcs.push(Src::Imm(rng.range(0, 15) as i64)),
            Shape::Unary => {
                if let Some(d) = self.pick(rng) {
                    line.srcs.push(Src::Reg(d, None));
                }
            }
            Shape::Binary => self.binary_operands(&mut line, rng),
        }
        if sh != Shape::Store {
            line.dest = Some(self.defs.len() as u64);
            self.defs.push(i);
            self.used.push(false);
        }
        self.lines.push(line);
    }

    /// A binary operation's operands: a register, then a register or an
    /// immediate as the class's forms allow (a class without forms takes
    /// either).
    fn binary_operands(&mut self, line: &mut Line, rng: &mut Rng) {
        if let Some(d) = self.pick(rng) {
            line.srcs.push(Src::Reg(d, None));
        }
        let (imm_ok, reg_ok) = match self
            .m
            .class_by_opcode(&line.opcode)
            .map(|c| self.m.class(c))
        {
            Some(c) => (
                c.accepts(&form_shape(Shape::Binary, IMM)),
                c.accepts(&form_shape(Shape::Binary, REG)),
            ),
            None => (true, true),
        };
        line.imm_only = !reg_ok;
        if !reg_ok || (imm_ok && rng.percent(self.params.immediate_percent)) {
            line.srcs.push(Src::Imm(rng.range(1, 16) as i64));
        } else if let Some(d) = self.pick(rng) {
            line.srcs.push(Src::Reg(d, None));
        }
    }
}

/// The text of the drawn lines, after the header that names the command.
fn render(lines: &[Line], kind: Kind, n: u64, seed: u64) -> String {
    let mut out = format!(
        "# generated: course gen {} --ops {n} --seed {seed} (generator v{})\n{} {}\n",
        kind.as_str(),
        course_engine::util::rng::GENERATOR_VERSION,
        kind.as_str(),
        name(seed, kind)
    );
    let reg = |d: u64, at: Option<u32>| match at {
        Some(k) => format!("r{}@{k}", d + 1),
        None => format!("r{}", d + 1),
    };
    for l in lines {
        out.push_str(&l.label);
        out.push_str(": ");
        if let Some(d) = l.dest {
            out.push_str(&reg(d, None));
            out.push_str(" = ");
        }
        out.push_str(&l.opcode);
        let mut operands: Vec<String> = Vec::new();
        if let Some((sym, r)) = &l.addr {
            let mut parts = Vec::new();
            if let Some(s) = sym {
                parts.push(s.clone());
            }
            if let Some(Src::Reg(d, at)) = r {
                parts.push(reg(*d, *at));
            }
            operands.push(format!("[{}]", parts.join(" + ")));
        }
        for s in &l.srcs {
            operands.push(match s {
                Src::Reg(d, at) => reg(*d, *at),
                Src::Imm(v) => v.to_string(),
            });
        }
        if !operands.is_empty() {
            out.push(' ');
            out.push_str(&operands.join(", "));
        }
        out.push('\n');
    }
    out
}

/// Turns some reads into reads of a later (or the same) definition, which a
/// loop reads from the previous iteration, and guarantees at least
/// `min_recurrences` recurrences by closing a chain of real dependences.
fn add_recurrences(lines: &mut [Line], defs: &[u64], params: &GenParams, rng: &mut Rng) {
    let n = lines.len();
    if defs.is_empty() {
        return;
    }
    let def_line = |d: u64| defs[d as usize] as usize;
    let mut made = 0u32;
    // Extra carried reads (they may or may not close a cycle).
    for (j, line) in lines.iter_mut().enumerate() {
        if line.opcode == "load"
            || line.opcode == "store"
            || line.shape == Shape::Imm
            || line.srcs.is_empty()
        {
            continue;
        }
        if !rng.percent(params.carried_percent) {
            continue;
        }
        // A definition at or after j (carried distance 1, or 2 with r@2):
        // `defs` is in line order, so those are a suffix of it.
        let first = defs.partition_point(|&l| (l as usize) < j);
        let later = defs.len() - first;
        if later == 0 {
            continue;
        }
        let d = (first + rng.below(later as u64) as usize) as u64;
        let at = rng.percent(params.distance2_percent).then_some(2);
        let mut k = rng.below(line.srcs.len() as u64) as usize;
        if line.imm_only && matches!(line.srcs[k], Src::Imm(_)) {
            k = 0;
        }
        line.srcs[k] = Src::Reg(d, at);
    }
    let mut tries = 0;
    while made < params.min_recurrences && tries < 4 * n {
        tries += 1;
        // Walk back from a definition through register reads to an earlier
        // operation j, then let j read that definition: j → … → i → j.
        let d = rng.below(defs.len() as u64);
        let i = def_line(d);
        let mut j = i;
        let steps = rng.range(1, 4);
        for _ in 0..steps {
            let preds: Vec<usize> = lines[j]
                .srcs
                .iter()
                .chain(lines[j].addr.iter().filter_map(|(_, r)| r.as_ref()))
                .filter_map(|s| match s {
                    Src::Reg(p, None) if def_line(*p) < j => Some(def_line(*p)),
                    _ => None,
                })
                .collect();
            match rng.choose(&preds) {
                Some(&p) => j = p,
                None => break,
            }
        }
        let line = &mut lines[j];
        if line.shape == Shape::Imm {
            continue; // `li` takes an immediate, never a register
        }
        if line.opcode == "load" || line.srcs.is_empty() {
            if line.opcode == "load"
                && let Some((_, r)) = &mut line.addr
            {
                *r = Some(Src::Reg(d, None));
                made += 1;
            }
            continue;
        }
        let mut k = rng.below(line.srcs.len() as u64) as usize;
        let at = rng.percent(params.distance2_percent).then_some(2);
        if line.imm_only && matches!(line.srcs[k], Src::Imm(_)) {
            k = 0;
        }
        line.srcs[k] = Src::Reg(d, at);
        made += 1;
    }
}

/// The largest `--ops` a generator accepts.
pub const MAX_OPS: u64 = 10_000_000;

/// A random block in lab format. `ops` overrides the parameters' range.
pub fn block(m: &Machine, params: &GenParams, seed: u64, ops: Option<u64>) -> String {
    generate(m, params, seed, ops, Kind::Block)
}

/// A random loop body in lab format.
pub fn loop_body(m: &Machine, params: &GenParams, seed: u64, ops: Option<u64>) -> String {
    generate(m, params, seed, ops, Kind::Loop)
}

/// Generates and parses; the text and the program.
pub fn program(
    m: &Machine,
    params: &GenParams,
    seed: u64,
    ops: Option<u64>,
    kind: Kind,
) -> (String, Program) {
    let text = generate(m, params, seed, ops, kind);
    let p = parse(&text, "generated", m).expect("generated inputs parse");
    (text, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(label_name(0), "a");
        assert_eq!(label_name(25), "z");
        assert_eq!(label_name(26), "aa");
        assert_eq!(label_name(27), "ab");
        assert_eq!(label_name(26 + 26 * 26), "aab");
        assert_eq!(label_name(241), "ih");
        assert_eq!(label_name(242), "ij");
        assert!((0..2000).all(|i| label_name(i) != "ii"));
    }

    #[test]
    fn names_are_words_and_li_reads_no_register() {
        let m = Machine::toy();
        let lp = GenParams::loop_default();
        for seed in 0..400 {
            let (text, p) = program(&m, &lp, seed, None, Kind::Loop);
            assert!(LOOP_NAMES.contains(&p.name()), "{}", p.name());
            for op in p.ops().iter().filter(|o| o.opcode == "li") {
                assert!(
                    op.reg_uses().next().is_none(),
                    "seed {seed}: {}\n{text}",
                    op.text()
                );
            }
        }
        let (_, b) = program(&m, &GenParams::block_default(), 3, None, Kind::Block);
        assert!(BLOCK_NAMES.contains(&b.name()));
    }

    #[test]
    fn generated_inputs_parse_and_loops_recur() {
        let m = Machine::toy();
        let bp = GenParams::block_default();
        let lp = GenParams::loop_default();
        for seed in 0..300 {
            let (_, p) = program(&m, &bp, seed, None, Kind::Block);
            assert!((8..=12).contains(&p.len()));
            let (t, l) = program(&m, &lp, seed, None, Kind::Loop);
            assert!(
                course_engine::engine::mii::critical_recurrence(&l).is_some(),
                "seed {seed}:\n{t}"
            );
        }
    }
}
