//! The engine-computed questions: a [`Generator`] turns a question's
//! introduction and a random stream into a prompt with fresh data, the
//! answer the engine computes for it, and the [`Variant`] it was built from.

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use crate::generate::GenParams;
use crate::quiz::kind::{Expected, Kind};
use course_engine::engine::hazard;
use course_engine::engine::mii;
use course_engine::model::machine::{ClassFile, Machine, MachineFile, ResourceFile};
use course_engine::model::program::Kind as ProgramKind;
use course_engine::util::ratio::Ratio;
use course_engine::util::rng::Rng;

/// The generators a question may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Generator {
    /// Definition 23.1.10 on a fresh toy-machine loop body.
    #[serde(rename = "loop-rthroughput")]
    LoopRThroughput,
    /// Lemma 23.1.6 on two fresh reservation tables.
    #[serde(rename = "forbidden-latencies")]
    ForbiddenLatencies,
    /// Proposition 23.1.9 on a fresh latency / ReadAdvance pair.
    #[serde(rename = "operand-latency")]
    OperandLatency,
}

impl Generator {
    /// Every generator, in the order error messages list them.
    pub const ALL: [Generator; 3] = [
        Generator::LoopRThroughput,
        Generator::ForbiddenLatencies,
        Generator::OperandLatency,
    ];

    /// The name a bank writes.
    pub fn name(self) -> &'static str {
        match self {
            Generator::LoopRThroughput => "loop-rthroughput",
            Generator::ForbiddenLatencies => "forbidden-latencies",
            Generator::OperandLatency => "operand-latency",
        }
    }

    /// The generator a bank names, if any.
    pub fn from_name(name: &str) -> Option<Generator> {
        Generator::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The kind of question it makes.
    pub fn kind(self) -> Kind {
        match self {
            Generator::LoopRThroughput | Generator::OperandLatency => Kind::Number,
            Generator::ForbiddenLatencies => Kind::Set,
        }
    }

    /// The prompt (after `intro`), answer and variant for one draw of `rng`.
    /// `tolerance` is the question's, for number answers.
    pub fn generate(self, intro: &str, rng: &mut Rng, tolerance: Ratio) -> Generated {
        match self {
            Generator::LoopRThroughput => gen_loop(intro, rng, tolerance),
            Generator::ForbiddenLatencies => gen_tables(intro, rng),
            Generator::OperandLatency => gen_operand(intro, rng, tolerance),
        }
    }
}

impl fmt::Display for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// What a generator made.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    pub prompt: String,
    pub expected: Expected,
    /// The answer worked out with this variant's own numbers, added to the
    /// bank's explanation (empty for a fixed question).
    pub worked: String,
    pub variant: Variant,
}

/// The engine inputs a generated question was built from, so that tests
/// (and instructors) can recompute the answer independently.
#[derive(Clone, Debug, PartialEq)]
pub enum Variant {
    Fixed,
    /// A toy-machine loop body in lab format; the answer is its RThroughput.
    Loop {
        text: String,
    },
    /// Offsets `K_r` of two classes on one capacity-1 resource.
    Tables {
        first: String,
        second: String,
        k_first: Vec<u32>,
        k_second: Vec<u32>,
    },
    /// A SchedWrite latency and a ReadAdvance.
    Operand {
        write: String,
        latency: u32,
        read: String,
        advance: u32,
    },
}

fn toy_summary(m: &Machine) -> String {
    let mut s = format!(
        "Machine `{}`: issue width W = {}; resources",
        m.name(),
        m.issue_width()
    );
    let res: Vec<String> = m
        .resource_ids()
        .skip(1)
        .map(|r| {
            format!(
                "{} (capacity {})",
                m.resource(r).name,
                m.resource(r).capacity
            )
        })
        .collect();
    s += &format!(
        " {}.\n\nClasses (latency / occupancy [unit]):",
        res.join(", ")
    );
    for c in m.class_ids() {
        let cl = m.class(c);
        let unit = cl
            .reservation
            .iter()
            .find(|(r, _)| r.index() != 0)
            .map(|&(r, _)| r);
        let (uname, occ) = match unit {
            Some(r) => (m.resource(r).name.clone(), cl.usage(r)),
            None => ("-".into(), 0),
        };
        s += &format!(
            "\n  {:<6} {}/{} [{}]  opcodes: {}",
            cl.name,
            cl.latency,
            occ,
            uname,
            cl.opcodes.join(" ")
        );
    }
    s
}

/// Definition 23.1.10 on a fresh toy-machine loop body.
fn gen_loop(intro: &str, rng: &mut Rng, tolerance: Ratio) -> Generated {
    let m = Machine::toy();
    let params = GenParams::loop_default();
    let ops = rng.range(5, 8);
    let seed = rng.next_u64();
    let (text, p) = crate::generate::program(&m, &params, seed, Some(ops), ProgramKind::Loop);
    let r = mii::analyze(&p, &m).rthroughput;
    let worked = rthroughput_worked(&p, &m, r);
    let body: String = text
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !t.starts_with('#') && !t.starts_with("loop ") && !t.trim().is_empty()
        })
        .map(|l| format!("    {l}\n"))
        .collect();
    let prompt = format!(
        "{}\n\n{}\n\nLoop body:\n{}",
        intro.trim_end(),
        toy_summary(&m),
        body.trim_end()
    );
    Generated {
        prompt,
        expected: Expected::Number {
            value: r,
            tolerance,
        },
        worked,
        variant: Variant::Loop { text },
    }
}

/// `3.5`, `3`, `2.33`: a fraction as a decimal, at most two places.
fn decimal(r: Ratio) -> String {
    if r.den() == 1 {
        return r.num().to_string();
    }
    let s = format!("{:.2}", r.to_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `7/2 = 3.5`, `3`: a fraction with its decimal value.
fn fraction_and_value(r: Ratio) -> String {
    if r.den() == 1 {
        r.num().to_string()
    } else {
        format!("{} = {}", r.fraction_string(), decimal(r))
    }
}

/// Definition 23.1.10 on this loop's numbers: µops/W, then U_r/cap(r) for
/// every resource with what makes up U_r, then the largest.
fn rthroughput_worked(p: &course_engine::model::program::Program, m: &Machine, r: Ratio) -> String {
    let usage = mii::usage(p, m);
    let mut per_class = vec![0u64; m.classes().len()];
    for op in p.ops() {
        per_class[op.class.index()] += 1;
    }
    let mut rows = Vec::new();
    let mut best = Vec::new();
    for res in m.resource_ids() {
        let cap = u64::from(m.resource(res).capacity);
        let u = usage[res.index()];
        let q = Ratio::new(u, cap);
        let parts: Vec<String> = m
            .class_ids()
            .filter(|&c| per_class[c.index()] > 0 && m.class(c).usage(res) > 0)
            .map(|c| {
                let k = m.class(c).usage(res);
                let n = per_class[c.index()];
                if k == 1 {
                    format!("{n} {}", m.class(c).name)
                } else {
                    format!("{n} {} × {k}", m.class(c).name)
                }
            })
            .collect();
        let label = if res.index() == 0 {
            "µops / W".to_string()
        } else {
            format!("U_{} / cap", m.resource(res).name)
        };
        if q == r {
            best.push(label.clone());
        }
        let from = if parts.is_empty() {
            String::new()
        } else {
            format!("({})", parts.join(" + "))
        };
        rows.push(vec![
            format!("  {label}"),
            format!("= {u}/{cap}"),
            format!("= {}", decimal(q)),
            from,
        ]);
    }
    format!(
        "For this loop body:\n{}RThroughput is the largest, {} ({}).",
        crate::text::columns(&rows),
        fraction_and_value(r),
        best.join(", ")
    )
}

fn offsets(rng: &mut Rng, max: u64) -> Vec<u32> {
    let len = rng.range(1, 4);
    let mut set = BTreeSet::new();
    while (set.len() as u64) < len {
        set.insert(rng.below(max + 1) as u32);
    }
    set.into_iter().collect()
}

/// Builds the two-class machine of a forbidden-latency question.
pub fn tables_machine(first: &str, second: &str, k1: &[u32], k2: &[u32]) -> Machine {
    let class = |name: &str, ks: &[u32]| ClassFile {
        name: name.to_string(),
        latency: i64::from(ks.iter().copied().max().unwrap_or(0) + 1),
        opcodes: vec![name.to_string()],
        reservation: Some(
            ks.iter()
                .map(|&k| ("u".to_string(), i64::from(k)))
                .collect(),
        ),
        ..Default::default()
    };
    let file = MachineFile {
        name: Some("quiz".into()),
        issue_width: 1,
        resources: vec![ResourceFile {
            name: "u".into(),
            capacity: Some(1),
            ..Default::default()
        }],
        classes: vec![class(first, k1), class(second, k2)],
        ..Default::default()
    };
    // Offsets are distinct and small and the names differ, so this is valid.
    Machine::from_file(&file, "quiz").unwrap_or_else(|_| Machine::toy())
}

fn grid(name: &str, ks: &[u32], width: u32) -> String {
    let cells: Vec<&str> = (0..width)
        .map(|k| if ks.contains(&k) { "X" } else { "." })
        .collect();
    format!("  {:<5} {}", name, cells.join(" "))
}

/// `{0, 2}`: offsets written as quiz answers write sets.
fn set_of(ks: &[u32]) -> String {
    let v: Vec<u64> = ks.iter().map(|&k| u64::from(k)).collect();
    course_engine::formats::answer::set_text(&v)
}

/// Lemma 23.1.6 on two fresh reservation tables.
fn gen_tables(intro: &str, rng: &mut Rng) -> Generated {
    const NAMES: [(&str, &str); 4] = [("A", "B"), ("fdiv", "fsqrt"), ("mulx", "divx"), ("P", "Q")];
    let (first, second) = *rng.choose(&NAMES).unwrap_or(&NAMES[0]);
    let (k1, k2) = loop {
        let k1 = offsets(rng, 5);
        let k2 = offsets(rng, 3);
        // Keep the answer non-empty: some k in K1 must reach some k' in K2.
        if k1.last() >= k2.first() {
            break (k1, k2);
        }
    };
    let m = tables_machine(first, second, &k1, &k2);
    let r = m
        .resource_by_name("u")
        .unwrap_or(course_engine::model::ids::ResourceId::new(1));
    let a = m
        .class_by_name(first)
        .unwrap_or(course_engine::model::ids::ClassId::new(0));
    let b = m
        .class_by_name(second)
        .unwrap_or(course_engine::model::ids::ClassId::new(1));
    let f = hazard::forbidden_latencies(&m, r, a, b);
    let width = k1.iter().chain(&k2).copied().max().unwrap_or(0) + 1;
    let header: Vec<String> = (0..width).map(|k| k.to_string()).collect();
    let prompt = format!(
        "{}\n\nReservation tables on resource u (capacity 1), X = u busy k cycles after issue:\n  {:<5} {}\n{}\n{}\n\n\
         Which issue distances d >= 0 are forbidden when `{second}` is issued d cycles after `{first}`?",
        intro.trim_end(),
        "k",
        header.join(" "),
        grid(first, &k1, width),
        grid(second, &k2, width),
    );
    let set: BTreeSet<u64> = f.iter().copied().map(u64::from).collect();
    // One pair (k, k') for each forbidden d, the first in offset order.
    let mut witness: std::collections::BTreeMap<u32, (u32, u32)> = Default::default();
    for &k in &k1 {
        for &k2 in k2.iter().filter(|&&k2| k2 <= k) {
            witness.entry(k - k2).or_insert((k, k2));
        }
    }
    let diffs: Vec<String> = witness
        .iter()
        .map(|(d, (k, k2))| format!("{k}−{k2}={d}"))
        .collect();
    let worked = format!(
        "Here K({first}) = {} and K({second}) = {}. Each d with k − k' = d ≥ 0 for some \
         k in K({first}), k' in K({second}) (one pair shown for each): {}. So F({first}, {second}) = {}.",
        set_of(&k1),
        set_of(&k2),
        diffs.join(", "),
        set_of(&f),
    );
    Generated {
        prompt,
        expected: Expected::Set(set),
        worked,
        variant: Variant::Tables {
            first: first.into(),
            second: second.into(),
            k_first: k1,
            k_second: k2,
        },
    }
}

/// Proposition 23.1.9 on a fresh latency / ReadAdvance pair.
fn gen_operand(intro: &str, rng: &mut Rng, tolerance: Ratio) -> Generated {
    const PAIRS: [(&str, &str); 5] = [
        ("WriteFMA", "ReadFMAAcc"),
        ("WriteFDiv64Y", "ReadAfterVecYLd"),
        ("WriteIMul64", "ReadIMulAcc"),
        ("WriteVecALU", "ReadVecALUSrc"),
        ("WriteFAdd", "ReadFAddSrc"),
    ];
    let (write, read) = *rng.choose(&PAIRS).unwrap_or(&PAIRS[0]);
    let latency = rng.range(2, 20) as u32;
    // Now and then the advance exceeds the latency, where the edge is 0.
    let advance = if rng.percent(20) {
        latency + rng.range(0, 3) as u32
    } else {
        rng.range(0, u64::from(latency) - 1) as u32
    };
    let answer = latency.saturating_sub(advance);
    let prompt = format!(
        "{}\n\nThe defining operand's SchedWrite is {write} with latency {latency}; the using operand's \
         SchedRead {read} has ReadAdvance {advance} for {write}. What latency does LLVM put on the \
         dependence edge from the definition to this use?",
        intro.trim_end()
    );
    let worked = if advance > latency {
        format!(
            "Here L_w = {latency} and a = {advance}: max(0, {latency} − {advance}) = 0, since the read \
             is late by more than the write takes."
        )
    } else {
        format!("Here L_w = {latency} and a = {advance}: max(0, {latency} − {advance}) = {answer}.")
    };
    Generated {
        prompt,
        expected: Expected::Number {
            value: Ratio::int(u64::from(answer)),
            tolerance,
        },
        worked,
        variant: Variant::Operand {
            write: write.into(),
            latency,
            read: read.into(),
            advance,
        },
    }
}
