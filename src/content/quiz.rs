//! The chapter quiz (Lesson 23.1 §9): a YAML question bank, engine-computed
//! parametrised questions, answer checking and bank validation.
//!
//! A bank is a list of questions of five kinds: `number` (with a tolerance;
//! `5/2` and `2.5` both parse), `set` (of non-negative integers, any order,
//! spacing or brackets; net-correct partial credit), `single` and `multiple`
//! (choices by letter or by text) and `find` (a list of accepted forms, for
//! "find it in LLVM" questions). A question with a `generator` gets its
//! prompt and answer from the engine for the quiz seed, drawing from
//! `Rng::derived(seed, id)`, so adding a question never changes another's
//! variant.
//!
//! ```
//! let bank = course::content::quiz::Bank::parse(course::content::data::QUIZ_CH23_YAML, "quizzes/ch23.yaml").unwrap();
//! let q = bank.question("operand-latency").unwrap();
//! let inst = q.instantiate(7);
//! assert!(inst.grade(&inst.answer_text()).unwrap().correct());
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Deserialize;

use crate::content::gen::GenParams;
use crate::engine::hazard;
use crate::engine::mii;
use crate::formats::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::formats::yaml::{yaml_error, LineIndex};
use crate::model::machine::{ClassFile, Machine, MachineFile, ResourceFile};
use crate::model::program::Kind;
use crate::util::ratio::Ratio;
use crate::util::rng::Rng;

/// The tags the lesson's three techniques use.
pub const TECHNIQUE_TAGS: [&str; 3] = ["reservation-tables", "machine-model", "llvm-mca"];

/// The generators a question may name.
pub const GENERATORS: [&str; 3] = ["loop-rthroughput", "forbidden-latencies", "operand-latency"];

/// The question kinds.
pub const KINDS: [&str; 5] = ["number", "set", "single", "multiple", "find"];

/// An id the answer-file format reserves for the seed line.
pub const RESERVED_ID: &str = "seed";

/// A scalar from YAML that may be a number or a string (`answer: 5/2`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Scalar {
    Int(i64),
    Float(f64),
    Text(String),
}

impl Scalar {
    fn text(&self) -> String {
        match self {
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => f.to_string(),
            Scalar::Text(s) => s.clone(),
        }
    }
}

/// `answer:` as written: one scalar or a list.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum RawAnswer {
    One(Scalar),
    Many(Vec<Scalar>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBank {
    #[serde(default)]
    chapter: Option<u32>,
    #[serde(default)]
    title: Option<String>,
    questions: Vec<RawQuestion>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    id: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    prompt: Option<String>,
    generator: Option<String>,
    answer: Option<RawAnswer>,
    #[serde(default)]
    choices: Vec<String>,
    #[serde(default)]
    accept: Vec<String>,
    tolerance: Option<f64>,
    explanation: Option<String>,
}

/// What a question expects, after validation.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    Number {
        value: f64,
        exact: Option<Ratio>,
        tolerance: f64,
    },
    Set(BTreeSet<u64>),
    Single {
        choices: Vec<String>,
        answer: usize,
    },
    Multiple {
        choices: Vec<String>,
        answers: BTreeSet<usize>,
    },
    Find {
        accept: Vec<String>,
    },
}

/// A validated question.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub id: String,
    pub kind: String,
    pub tags: Vec<String>,
    /// The text shown (for a generated question, its introduction).
    pub prompt: String,
    pub generator: Option<String>,
    /// Fixed questions only; generated ones compute theirs.
    pub expected: Option<Expected>,
    pub tolerance: f64,
    pub explanation: String,
}

/// A validated bank.
#[derive(Clone, Debug, PartialEq)]
pub struct Bank {
    pub chapter: Option<u32>,
    pub title: Option<String>,
    pub questions: Vec<Question>,
}

const DEFAULT_TOLERANCE: f64 = 0.001;

/// Parses `3`, `2.5`, `-1`, `5/2`, `5 / 2`; `None` if it is not a number.
pub fn parse_number(s: &str) -> Option<(f64, Option<Ratio>)> {
    let t = s.trim();
    if let Some((a, b)) = t.split_once('/') {
        let a: u64 = a.trim().parse().ok()?;
        let b: u64 = b.trim().parse().ok()?;
        if b == 0 {
            return None;
        }
        return Some((a as f64 / b as f64, Some(Ratio::new(a, b))));
    }
    if t.is_empty()
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '-' || c == '+')
    {
        return None;
    }
    let v: f64 = t.parse().ok()?;
    if !v.is_finite() {
        return None;
    }
    let exact = t.parse::<u64>().ok().map(Ratio::int);
    Some((v, exact))
}

/// Parses a set of non-negative integers: `{0, 2}`, `0 2`, `[2,0]`, `{}`,
/// `∅`, `empty`, `none`. `Err` names the first token that is not a number.
pub fn parse_set(s: &str) -> Result<BTreeSet<u64>, String> {
    let t = s.trim();
    let lower = t.to_lowercase();
    if matches!(lower.as_str(), "∅" | "empty" | "none" | "{}" | "[]" | "()") {
        return Ok(BTreeSet::new());
    }
    let inner: String = t
        .chars()
        .map(|c| if "{}[]()".contains(c) { ' ' } else { c })
        .collect();
    let mut out = BTreeSet::new();
    let mut any = false;
    for tok in inner.split(|c: char| c == ',' || c == ';' || c.is_whitespace()) {
        if tok.is_empty() {
            continue;
        }
        any = true;
        match tok.parse::<u64>() {
            Ok(v) if v <= 1_000_000 => {
                out.insert(v);
            }
            _ => return Err(format!("`{tok}` is not a non-negative integer")),
        }
    }
    if !any && !t.chars().any(|c| "{}[]()".contains(c)) {
        return Err("empty answer (write {} for the empty set)".into());
    }
    Ok(out)
}

/// Lower case, whitespace collapsed, surrounding quotes/backticks and a
/// final full stop dropped: the form find-it answers are compared in.
pub fn normalize(s: &str) -> String {
    let t = s.trim().trim_end_matches('.').trim();
    let t = t.trim_matches(|c| c == '`' || c == '"' || c == '\'');
    t.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn letter(i: usize) -> char {
    (b'a' + (i as u8 % 26)) as char
}

/// A choice by letter (`b`, `B`, `b)`) or by its text.
fn parse_choice(tok: &str, choices: &[String]) -> Option<usize> {
    let t = tok.trim().trim_end_matches([')', '.']);
    if t.len() == 1 {
        let c = t.chars().next()?.to_ascii_lowercase();
        if c.is_ascii_lowercase() {
            let i = (c as u8 - b'a') as usize;
            return (i < choices.len()).then_some(i);
        }
    }
    let n = normalize(t);
    choices.iter().position(|c| normalize(c) == n)
}

impl Bank {
    /// Parses and validates a bank; every mistake is reported with its
    /// location.
    pub fn parse(text: &str, origin: &str) -> Result<Bank, Diagnostics> {
        let raw: RawBank =
            serde_yaml::from_str(text).map_err(|e| Diagnostics(vec![yaml_error(&e, origin)]))?;
        let idx = LineIndex::new(text, origin, "questions");
        let mut diags = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut questions = Vec::new();
        if raw.questions.is_empty() {
            diags.push(Diagnostic::at(
                idx.field(usize::MAX, "questions"),
                "the bank has no questions",
            ));
        }
        for (i, q) in raw.questions.into_iter().enumerate() {
            let Some(id) =
                check_item_id(&idx, i, q.id.as_deref(), "question", &mut seen, &mut diags)
            else {
                continue;
            };
            let mut err = |at: Location, message: String| diags.push(Diagnostic::at(at, message));
            if id == RESERVED_ID {
                err(
                    idx.field(i, "id"),
                    format!("id `{id}` is reserved for the answer file's seed line"),
                );
            }
            let kind = match q.kind.as_deref() {
                None => {
                    err(
                        idx.item(i),
                        format!("{id}: missing kind (one of {})", KINDS.join(", ")),
                    );
                    continue;
                }
                Some(k) if !KINDS.contains(&k) => {
                    err(
                        idx.field(i, "kind"),
                        format!("{id}: unknown kind `{k}` (one of {})", KINDS.join(", ")),
                    );
                    continue;
                }
                Some(k) => k.to_string(),
            };
            let prompt = q.prompt.clone().unwrap_or_default();
            if prompt.trim().is_empty() && q.generator.is_none() {
                err(idx.field(i, "prompt"), format!("{id}: empty prompt"));
            }
            let explanation = q.explanation.clone().unwrap_or_default();
            if explanation.trim().is_empty() {
                err(
                    idx.field(i, "explanation"),
                    format!("{id}: missing explanation"),
                );
            }
            if q.tags.is_empty() {
                err(
                    idx.item(i),
                    format!("{id}: no tags (use some of {})", TECHNIQUE_TAGS.join(", ")),
                );
            }
            for (j, t) in q.tags.iter().enumerate() {
                if t.trim().is_empty() || t.contains(char::is_whitespace) {
                    err(
                        idx.list_elem(i, "tags", j),
                        format!("{id}: tag `{t}` must be one word"),
                    );
                }
            }
            let tolerance = q.tolerance.unwrap_or(DEFAULT_TOLERANCE);
            if !(tolerance.is_finite() && tolerance >= 0.0) {
                err(
                    idx.field(i, "tolerance"),
                    format!("{id}: tolerance must be a non-negative number"),
                );
            }
            if q.tolerance.is_some() && kind != "number" {
                err(
                    idx.field(i, "tolerance"),
                    format!("{id}: tolerance only applies to number questions"),
                );
            }
            if !q.choices.is_empty() && !matches!(kind.as_str(), "single" | "multiple") {
                err(
                    idx.field(i, "choices"),
                    format!("{id}: choices only apply to single/multiple questions"),
                );
            }
            if !q.accept.is_empty() && kind != "find" {
                err(
                    idx.field(i, "accept"),
                    format!("{id}: accept only applies to find questions"),
                );
            }
            let mut expected = None;
            if let Some(g) = &q.generator {
                match generator_kind(g) {
                    None => err(
                        idx.field(i, "generator"),
                        format!(
                            "{id}: unknown generator `{g}` (one of {})",
                            GENERATORS.join(", ")
                        ),
                    ),
                    Some(k) if k != kind => err(
                        idx.field(i, "kind"),
                        format!("{id}: generator `{g}` makes {k} questions, not {kind}"),
                    ),
                    Some(_) => {}
                }
                if q.answer.is_some() {
                    err(
                        idx.field(i, "answer"),
                        format!("{id}: a generated question computes its answer; remove `answer`"),
                    );
                }
            } else {
                match Self::expected(&kind, &q, tolerance) {
                    Ok(e) => expected = Some(e),
                    Err((key, elem, msg)) => {
                        let at = match elem {
                            Some(j) => idx.list_elem(i, key, j),
                            None => idx.field(i, key),
                        };
                        err(at, format!("{id}: {msg}"));
                    }
                }
            }
            questions.push(Question {
                id,
                kind,
                tags: q.tags,
                prompt,
                generator: q.generator,
                expected,
                tolerance,
                explanation,
            });
        }
        if diags.is_empty() {
            Ok(Bank {
                chapter: raw.chapter,
                title: raw.title,
                questions,
            })
        } else {
            Err(Diagnostics(diags))
        }
    }

    #[allow(clippy::type_complexity)]
    fn expected(
        kind: &str,
        q: &RawQuestion,
        tolerance: f64,
    ) -> Result<Expected, (&'static str, Option<usize>, String)> {
        let missing = || ("answer", None, "missing answer".to_string());
        match kind {
            "number" => {
                let a = match &q.answer {
                    Some(RawAnswer::One(s)) => s.text(),
                    Some(RawAnswer::Many(_)) => {
                        return Err(("answer", None, "a number answer is one value".into()))
                    }
                    None => return Err(missing()),
                };
                let (value, exact) = parse_number(&a).ok_or((
                    "answer",
                    None,
                    format!("answer `{a}` is not a number"),
                ))?;
                Ok(Expected::Number {
                    value,
                    exact,
                    tolerance,
                })
            }
            "set" => {
                let set = match &q.answer {
                    Some(RawAnswer::Many(v)) => {
                        let mut set = BTreeSet::new();
                        for (j, s) in v.iter().enumerate() {
                            match s {
                                Scalar::Int(n) if *n >= 0 => {
                                    set.insert(*n as u64);
                                }
                                _ => {
                                    return Err((
                                        "answer",
                                        Some(j),
                                        format!(
                                            "set element `{}` is not a non-negative integer",
                                            s.text()
                                        ),
                                    ))
                                }
                            }
                        }
                        set
                    }
                    Some(RawAnswer::One(s)) => {
                        parse_set(&s.text()).map_err(|m| ("answer", None, m))?
                    }
                    None => return Err(missing()),
                };
                Ok(Expected::Set(set))
            }
            "single" | "multiple" => {
                if q.choices.len() < 2 {
                    return Err(("choices", None, "needs at least two choices".into()));
                }
                if q.choices.len() > 26 {
                    return Err(("choices", None, "at most 26 choices".into()));
                }
                let mut norm = BTreeSet::new();
                for (j, c) in q.choices.iter().enumerate() {
                    if c.trim().is_empty() {
                        return Err(("choices", Some(j), "empty choice".into()));
                    }
                    if !norm.insert(normalize(c)) {
                        return Err(("choices", Some(j), format!("choice `{c}` appears twice")));
                    }
                }
                let items: Vec<String> = match &q.answer {
                    Some(RawAnswer::One(s)) => vec![s.text()],
                    Some(RawAnswer::Many(v)) => v.iter().map(Scalar::text).collect(),
                    None => return Err(missing()),
                };
                let mut answers = BTreeSet::new();
                for a in &items {
                    match parse_choice(a, &q.choices) {
                        Some(k) => {
                            answers.insert(k);
                        }
                        None => {
                            return Err((
                                "answer",
                                None,
                                format!("answer `{a}` is not among the choices"),
                            ))
                        }
                    }
                }
                if kind == "single" {
                    if answers.len() != 1 {
                        return Err((
                            "answer",
                            None,
                            "a single-choice question has exactly one answer".into(),
                        ));
                    }
                    let answer = answers.into_iter().next().unwrap_or(0);
                    Ok(Expected::Single {
                        choices: q.choices.clone(),
                        answer,
                    })
                } else {
                    if answers.is_empty() {
                        return Err(missing());
                    }
                    Ok(Expected::Multiple {
                        choices: q.choices.clone(),
                        answers,
                    })
                }
            }
            _ => {
                let mut accept: Vec<String> = match &q.answer {
                    Some(RawAnswer::One(s)) => vec![s.text()],
                    Some(RawAnswer::Many(v)) => v.iter().map(Scalar::text).collect(),
                    None => Vec::new(),
                };
                accept.extend(q.accept.iter().cloned());
                if let Some(j) = q.accept.iter().position(|a| normalize(a).is_empty()) {
                    return Err(("accept", Some(j), "empty accepted form".into()));
                }
                if accept.is_empty() || q.answer.is_none() {
                    return Err(missing());
                }
                let mut seen = BTreeSet::new();
                accept.retain(|a| seen.insert(normalize(a)));
                Ok(Expected::Find { accept })
            }
        }
    }

    pub fn question(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }

    /// Every tag used, sorted.
    pub fn tags(&self) -> Vec<String> {
        all_tags(&self.questions, |q| &q.tags)
    }

    /// The questions carrying any of `tags` (all if `tags` is empty), in
    /// bank order. An unknown tag is an error that lists the known ones.
    pub fn select(&self, tags: &[String]) -> Result<Vec<&Question>, String> {
        select_by_tags(&self.questions, |q| &q.tags, tags)
    }
}

/// The kind of question a generator makes.
pub fn generator_kind(name: &str) -> Option<&'static str> {
    match name {
        "loop-rthroughput" => Some("number"),
        "forbidden-latencies" => Some("set"),
        "operand-latency" => Some("number"),
        _ => None,
    }
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

/// A question with its prompt and answer fixed for one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    pub id: String,
    pub kind: String,
    pub tags: Vec<String>,
    pub prompt: String,
    pub expected: Expected,
    pub explanation: String,
    pub variant: Variant,
}

/// The result of grading one answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    /// Points out of 1 (sets and multiple choice: net-correct fraction).
    pub score: Ratio,
    /// A short note (`2 of 3 right, 1 extra`).
    pub note: String,
}

impl Grade {
    pub fn correct(&self) -> bool {
        self.score == Ratio::int(1)
    }
}

/// An answer that cannot be read as the question's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Question {
    /// The prompt and answer for `seed` (a fixed question ignores it).
    pub fn instantiate(&self, seed: u64) -> Instance {
        let mut rng = Rng::derived(seed, &self.id);
        let (prompt, expected, variant) = match self.generator.as_deref() {
            Some("loop-rthroughput") => gen_loop(&self.prompt, &mut rng, self.tolerance),
            Some("forbidden-latencies") => gen_tables(&self.prompt, &mut rng),
            Some("operand-latency") => gen_operand(&self.prompt, &mut rng, self.tolerance),
            _ => (
                self.prompt.trim_end().to_string(),
                shuffled(
                    self.expected
                        .clone()
                        .unwrap_or(Expected::Find { accept: Vec::new() }),
                    &mut rng,
                ),
                Variant::Fixed,
            ),
        };
        Instance {
            id: self.id.clone(),
            kind: self.kind.clone(),
            tags: self.tags.clone(),
            prompt,
            expected,
            explanation: self.explanation.trim_end().to_string(),
            variant,
        }
    }
}

/// Choices in a per-seed order, so the right letter is not always `a`
/// (the bank lists them in any order it likes).
fn shuffled(e: Expected, rng: &mut Rng) -> Expected {
    let perm = |n: usize, rng: &mut Rng| {
        let mut p: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut p);
        p
    };
    match e {
        Expected::Single { choices, answer } => {
            let p = perm(choices.len(), rng);
            Expected::Single {
                choices: p.iter().map(|&i| choices[i].clone()).collect(),
                answer: p.iter().position(|&i| i == answer).unwrap_or(0),
            }
        }
        Expected::Multiple { choices, answers } => {
            let p = perm(choices.len(), rng);
            Expected::Multiple {
                choices: p.iter().map(|&i| choices[i].clone()).collect(),
                answers: (0..p.len()).filter(|&k| answers.contains(&p[k])).collect(),
            }
        }
        other => other,
    }
}

fn toy_summary(m: &Machine) -> String {
    let mut s = format!(
        "Machine `{}`: issue width W = {}; resources",
        m.name, m.issue_width
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
        " {}.\nClasses (latency / occupancy [unit]):",
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
fn gen_loop(intro: &str, rng: &mut Rng, tolerance: f64) -> (String, Expected, Variant) {
    let m = Machine::toy();
    let params = GenParams::loop_default();
    let ops = rng.range(5, 8);
    let seed = rng.next_u64();
    let (text, p) = crate::content::gen::program(&m, &params, seed, Some(ops), Kind::Loop);
    let r = mii::analyze(&p, &m).rthroughput;
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
    let expected = Expected::Number {
        value: r.to_f64(),
        exact: Some(r),
        tolerance,
    };
    (prompt, expected, Variant::Loop { text })
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
        unit: None,
        occupancy: None,
        reservation: Some(
            ks.iter()
                .map(|&k| ("u".to_string(), i64::from(k)))
                .collect(),
        ),
        uops: None,
        read_advance: None,
    };
    let file = MachineFile {
        name: Some("quiz".into()),
        issue_width: 1,
        micro_op_buffer_size: None,
        resources: vec![ResourceFile {
            name: "u".into(),
            capacity: 1,
        }],
        classes: vec![class(first, k1), class(second, k2)],
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

/// Lemma 23.1.6 on two fresh reservation tables.
fn gen_tables(intro: &str, rng: &mut Rng) -> (String, Expected, Variant) {
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
        .unwrap_or(crate::model::ids::ResourceId(1));
    let a = m
        .class_by_name(first)
        .unwrap_or(crate::model::ids::ClassId(0));
    let b = m
        .class_by_name(second)
        .unwrap_or(crate::model::ids::ClassId(1));
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
    let set: BTreeSet<u64> = f.into_iter().map(u64::from).collect();
    (
        prompt,
        Expected::Set(set),
        Variant::Tables {
            first: first.into(),
            second: second.into(),
            k_first: k1,
            k_second: k2,
        },
    )
}

/// Proposition 23.1.9 on a fresh latency / ReadAdvance pair.
fn gen_operand(intro: &str, rng: &mut Rng, tolerance: f64) -> (String, Expected, Variant) {
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
    let expected = Expected::Number {
        value: f64::from(answer),
        exact: Some(Ratio::int(u64::from(answer))),
        tolerance,
    };
    (
        prompt,
        expected,
        Variant::Operand {
            write: write.into(),
            latency,
            read: read.into(),
            advance,
        },
    )
}

impl Instance {
    /// The choices shown under the prompt (`a) …`), if any.
    pub fn choices(&self) -> &[String] {
        match &self.expected {
            Expected::Single { choices, .. } | Expected::Multiple { choices, .. } => choices,
            _ => &[],
        }
    }

    /// How to write an answer, for the prompt.
    pub fn answer_hint(&self) -> &'static str {
        match self.kind.as_str() {
            "number" => "a number, 2.5 or 5/2",
            "set" => "a set such as {0, 2}, {} when empty",
            "single" => "one letter or the choice's text",
            "multiple" => "letters or texts separated by commas",
            _ => "a name or value",
        }
    }

    /// The canonical answer, in a form `grade` accepts.
    pub fn answer_text(&self) -> String {
        match &self.expected {
            Expected::Number { value, exact, .. } => match exact {
                Some(r) => r.fraction_string(),
                None => format!("{value}"),
            },
            Expected::Set(s) => set_text(s),
            Expected::Single { answer, .. } => letter(*answer).to_string(),
            Expected::Multiple { answers, .. } => answers
                .iter()
                .map(|&i| letter(i).to_string())
                .collect::<Vec<_>>()
                .join(", "),
            Expected::Find { accept } => accept.first().cloned().unwrap_or_default(),
        }
    }

    /// The answer as shown to a student (`c) …` for choices, `5/2 = 2.5`).
    pub fn answer_display(&self) -> String {
        match &self.expected {
            Expected::Number { exact: Some(r), .. } if r.den() != 1 => {
                format!("{} = {}", r.fraction_string(), r.to_f64())
            }
            Expected::Single { choices, answer } => {
                format!("{}) {}", letter(*answer), choices[*answer])
            }
            Expected::Multiple { choices, answers } => answers
                .iter()
                .map(|&i| format!("{}) {}", letter(i), choices[i]))
                .collect::<Vec<_>>()
                .join("; "),
            Expected::Find { accept } => match accept.split_first() {
                Some((first, rest)) if !rest.is_empty() => {
                    format!("{first} (also accepted: {})", rest.join(", "))
                }
                _ => self.answer_text(),
            },
            _ => self.answer_text(),
        }
    }

    /// Grades one answer. A reply that cannot be read as this kind is a
    /// [`FormatError`], not a wrong answer.
    pub fn grade(&self, reply: &str) -> Result<Grade, FormatError> {
        let reply = reply.trim();
        if reply.is_empty() {
            return Err(FormatError(format!(
                "empty answer; expected {}",
                self.answer_hint()
            )));
        }
        match &self.expected {
            Expected::Number {
                value,
                exact,
                tolerance,
            } => {
                let (v, r) = parse_number(reply).ok_or_else(|| {
                    FormatError(format!(
                        "`{reply}` is not a number; expected {}",
                        self.answer_hint()
                    ))
                })?;
                let ok = match (exact, r) {
                    (Some(a), Some(b)) if *a == b => true,
                    _ => (v - value).abs() <= tolerance + 1e-9,
                };
                Ok(Grade {
                    score: Ratio::int(u64::from(ok)),
                    note: String::new(),
                })
            }
            Expected::Set(want) => {
                let got = parse_set(reply)
                    .map_err(|m| FormatError(format!("{m}; expected {}", self.answer_hint())))?;
                Ok(net_correct(want, &got, |x| x.to_string()))
            }
            Expected::Single { choices, answer } => {
                let k = parse_choice(reply, choices).ok_or_else(|| {
                    FormatError(format!(
                        "`{reply}` is not one of the choices a–{}",
                        letter(choices.len() - 1)
                    ))
                })?;
                Ok(Grade {
                    score: Ratio::int(u64::from(k == *answer)),
                    note: String::new(),
                })
            }
            Expected::Multiple { choices, answers } => {
                let mut got = BTreeSet::new();
                for tok in reply.split([',', ';']).flat_map(|t| {
                    // `a c` and `ac` are common shorthand for letters.
                    let t = t.trim();
                    if parse_choice(t, choices).is_none()
                        && t.chars().all(|c| c.is_ascii_alphabetic() || c == ' ')
                    {
                        t.chars()
                            .filter(|c| *c != ' ')
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                    } else {
                        vec![t.to_string()]
                    }
                }) {
                    if tok.is_empty() {
                        continue;
                    }
                    let k = parse_choice(&tok, choices).ok_or_else(|| {
                        FormatError(format!(
                            "`{tok}` is not one of the choices a–{}",
                            letter(choices.len() - 1)
                        ))
                    })?;
                    got.insert(k);
                }
                Ok(net_correct(answers, &got, |&i| letter(i).to_string()))
            }
            Expected::Find { accept } => {
                let n = normalize(reply);
                Ok(Grade {
                    score: Ratio::int(u64::from(accept.iter().any(|a| normalize(a) == n))),
                    note: String::new(),
                })
            }
        }
    }
}

/// `{0, 1, 2}` / `{}`.
pub fn set_text(s: &BTreeSet<u64>) -> String {
    format!(
        "{{{}}}",
        s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
    )
}

/// Net-correct partial credit: (right − extra) / |expected|, at least 0.
fn net_correct<T: Ord>(
    want: &BTreeSet<T>,
    got: &BTreeSet<T>,
    show: impl Fn(&T) -> String,
) -> Grade {
    let right = got.intersection(want).count() as u64;
    let extra: Vec<String> = got.difference(want).map(&show).collect();
    let missed = want.len() as u64 - right;
    let total = (want.len() as u64).max(1);
    let score = if want.is_empty() {
        Ratio::int(u64::from(got.is_empty()))
    } else {
        Ratio::new(right.saturating_sub(extra.len() as u64), total)
    };
    let note = if score == Ratio::int(1) {
        String::new()
    } else {
        let mut parts = vec![format!("{right} of {} right", want.len())];
        if missed > 0 {
            parts.push(format!("{missed} missing"));
        }
        if !extra.is_empty() {
            parts.push(format!("{} extra: {}", extra.len(), extra.join(", ")));
        }
        parts.join(", ")
    };
    Grade { score, note }
}

/// One line of an answer file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerFileError {
    pub line: usize,
    pub message: String,
}

/// An answer file: `id: answer` a line, `#` comments and blank lines
/// ignored, an optional `seed: N` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerFile {
    pub seed: Option<u64>,
    /// id → (line, answer), in file order.
    pub answers: BTreeMap<String, (usize, String)>,
}

/// Parses an answer file; ids are checked against `known`.
pub fn parse_answer_file(text: &str, known: &[&str]) -> Result<AnswerFile, Vec<AnswerFileError>> {
    let mut out = AnswerFile::default();
    let mut errs = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let Some((id, ans)) = l.split_once(':') else {
            errs.push(AnswerFileError {
                line,
                message: format!("expected `id: answer`, got `{l}`"),
            });
            continue;
        };
        let (id, ans) = (id.trim(), ans.trim());
        if id == RESERVED_ID {
            match ans.parse::<u64>() {
                Ok(s) if out.seed.is_none() => out.seed = Some(s),
                Ok(_) => errs.push(AnswerFileError {
                    line,
                    message: "a second seed line".into(),
                }),
                Err(_) => errs.push(AnswerFileError {
                    line,
                    message: format!("seed `{ans}` is not a non-negative integer"),
                }),
            }
            continue;
        }
        if !known.contains(&id) {
            errs.push(AnswerFileError {
                line,
                message: format!("unknown question id `{id}`"),
            });
            continue;
        }
        if let Some((first, _)) = out.answers.get(id) {
            errs.push(AnswerFileError {
                line,
                message: format!("second answer for `{id}` (first on line {first})"),
            });
            continue;
        }
        out.answers.insert(id.to_string(), (line, ans.to_string()));
    }
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(errs)
    }
}

/// How one question ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Right,
    Partial,
    Wrong,
    /// The answer could not be read as the question's kind.
    FormatError,
    Unanswered,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Right => "right",
            Status::Partial => "partial",
            Status::Wrong => "wrong",
            Status::FormatError => "format-error",
            Status::Unanswered => "unanswered",
        }
    }
}

/// The result for one question.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub id: String,
    pub status: Status,
    pub score: Ratio,
    pub given: Option<String>,
    /// The grade's note, or the format error.
    pub message: String,
}

/// Grades `reply` (or its absence) for `inst`.
pub fn outcome(inst: &Instance, reply: Option<&str>) -> Outcome {
    let given = reply.map(str::to_string);
    let Some(reply) = reply else {
        return Outcome {
            id: inst.id.clone(),
            status: Status::Unanswered,
            score: Ratio::int(0),
            given,
            message: String::new(),
        };
    };
    match inst.grade(reply) {
        Ok(g) => Outcome {
            id: inst.id.clone(),
            status: if g.correct() {
                Status::Right
            } else if g.score > Ratio::int(0) {
                Status::Partial
            } else {
                Status::Wrong
            },
            score: g.score,
            given,
            message: g.note,
        },
        Err(FormatError(m)) => Outcome {
            id: inst.id.clone(),
            status: Status::FormatError,
            score: Ratio::int(0),
            given,
            message: m,
        },
    }
}

/// Grades an answer file against the selected instances (missing answers
/// are unanswered).
pub fn grade_answers(insts: &[Instance], file: &AnswerFile) -> Vec<Outcome> {
    insts
        .iter()
        .map(|i| outcome(i, file.answers.get(&i.id).map(|(_, a)| a.as_str())))
        .collect()
}

/// The sum of the scores, exactly.
pub fn total(outcomes: &[Outcome]) -> Ratio {
    outcomes.iter().fold(Ratio::int(0), |acc, o| {
        Ratio::new(
            acc.num() * o.score.den() + o.score.num() * acc.den(),
            acc.den() * o.score.den(),
        )
    })
}

/// `17`, `17.5`, `16.67`: a score for people.
pub fn score_text(r: Ratio) -> String {
    if r.den() == 1 {
        return r.num().to_string();
    }
    let hundredths = (r.num() as u128 * 200 + r.den() as u128) / (2 * r.den() as u128);
    let s = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    s.trim_end_matches('0').to_string()
}

/// `Score: 3.5/5 (70%) — right 3, partial 1, wrong 1`.
pub fn summary_line(outcomes: &[Outcome]) -> String {
    let t = total(outcomes);
    let n = outcomes.len() as u64;
    let pct = if n == 0 {
        100
    } else {
        (t.num() as u128 * 100 / (t.den() as u128 * n as u128)) as u64
    };
    let mut parts = Vec::new();
    for st in [
        Status::Right,
        Status::Partial,
        Status::Wrong,
        Status::FormatError,
        Status::Unanswered,
    ] {
        let c = outcomes.iter().filter(|o| o.status == st).count();
        if c > 0 {
            parts.push(format!("{} {c}", st.as_str()));
        }
    }
    format!(
        "Score: {}/{n} ({pct}%): {}",
        score_text(t),
        parts.join(", ")
    )
}

/// A question as the student sees it: header, prompt, choices.
pub fn render_question(inst: &Instance, n: usize, of: usize) -> String {
    let mut s = format!(
        "Question {n}/{of} [{}] ({})\n{}\n",
        inst.id,
        inst.tags.join(", "),
        inst.prompt
    );
    for (i, c) in inst.choices().iter().enumerate() {
        s += &format!("  {}) {c}\n", letter(i));
    }
    s
}

/// The explanation, indented under `Why:`.
pub fn render_explanation(inst: &Instance) -> String {
    let mut s = String::from("Why:");
    for l in inst.explanation.lines() {
        s += "\n  ";
        s += l;
    }
    s + "\n"
}

/// The feedback after an answer: verdict, the right answer, the explanation.
pub fn render_feedback(inst: &Instance, o: &Outcome) -> String {
    let verdict = match o.status {
        Status::Right => "Right.".to_string(),
        Status::Partial => format!(
            "Partly right ({} point; {}). The answer is {}.",
            o.score,
            o.message,
            inst.answer_display()
        ),
        Status::Wrong => format!("Wrong. The answer is {}.", inst.answer_display()),
        Status::FormatError => format!(
            "Format error: {}. The answer is {}.",
            o.message,
            inst.answer_display()
        ),
        Status::Unanswered => format!("Not answered. The answer is {}.", inst.answer_display()),
    };
    format!("{verdict}\n{}", render_explanation(inst))
}

/// Per-question results of an answer file, then the score.
pub fn render_results(insts: &[Instance], outcomes: &[Outcome], seed: u64) -> String {
    let mut s = format!("Quiz results (seed {seed})\n");
    for (inst, o) in insts.iter().zip(outcomes) {
        let given = o.given.as_deref().unwrap_or("-");
        s += &format!(
            "{:<13} {:<28} {} (answer: {}",
            o.status.as_str(),
            o.id,
            o.score,
            given
        );
        if o.status != Status::Right {
            s += &format!("; expected: {}", inst.answer_display());
        }
        s += ")";
        if !o.message.is_empty() {
            s += &format!("\n              {}", o.message);
        }
        s += "\n";
    }
    s + &summary_line(outcomes) + "\n"
}

/// The JSON form of an answer-file grading.
pub fn results_json(insts: &[Instance], outcomes: &[Outcome], seed: u64) -> serde_json::Value {
    let qs: Vec<serde_json::Value> = insts
        .iter()
        .zip(outcomes)
        .map(|(inst, o)| {
            serde_json::json!({
                "id": o.id,
                "status": o.status.as_str(),
                "score": o.score.fraction_string(),
                "points": o.score.to_f64(),
                "answer": o.given,
                "expected": inst.answer_text(),
                "message": o.message,
            })
        })
        .collect();
    let t = total(outcomes);
    serde_json::json!({
        "seed": seed,
        "questions": qs,
        "score": t.fraction_string(),
        "points": t.to_f64(),
        "max": outcomes.len(),
        "all_right": outcomes.iter().all(|o| o.status == Status::Right),
    })
}

/// `--list`: id, kind, tags, generator.
pub fn render_list(qs: &[&Question]) -> String {
    let mut s = String::new();
    for q in qs {
        let gen = q
            .generator
            .as_deref()
            .map_or(String::new(), |g| format!("  (generated: {g})"));
        s += &format!("{:<28} {:<8} {}{gen}\n", q.id, q.kind, q.tags.join(","));
    }
    s + &format!("{} questions\n", qs.len())
}

/// `--reveal`: every question for the seed, with its answer.
pub fn render_reveal(insts: &[Instance], seed: u64) -> String {
    let mut s = format!("Instructor view (seed {seed})\n\n");
    for (i, inst) in insts.iter().enumerate() {
        s += &render_question(inst, i + 1, insts.len());
        s += &format!("Answer: {}\n", inst.answer_display());
        s += &render_explanation(inst);
        s += "\n";
    }
    s
}

/// The JSON form of `--reveal` / `--list`.
pub fn instances_json(insts: &[Instance], seed: u64, with_answers: bool) -> serde_json::Value {
    let qs: Vec<serde_json::Value> = insts
        .iter()
        .map(|i| {
            let mut v = serde_json::json!({
                "id": i.id,
                "kind": i.kind,
                "tags": i.tags,
                "prompt": i.prompt,
                "choices": i.choices(),
            });
            if with_answers {
                v["answer"] = serde_json::Value::String(i.answer_text());
                v["explanation"] = serde_json::Value::String(i.explanation.clone());
            }
            v
        })
        .collect();
    serde_json::json!({ "seed": seed, "questions": qs })
}

/// The distinct tags of a bank's items, sorted.
pub(crate) fn all_tags<T>(items: &[T], tags_of: impl Fn(&T) -> &[String]) -> Vec<String> {
    let set: BTreeSet<&String> = items.iter().flat_map(&tags_of).collect();
    set.into_iter().cloned().collect()
}

/// The items carrying any of `tags` (all if `tags` is empty), in bank
/// order; an unknown tag is an error that lists the known ones.
pub(crate) fn select_by_tags<'a, T>(
    items: &'a [T],
    tags_of: impl Fn(&T) -> &[String],
    tags: &[String],
) -> Result<Vec<&'a T>, String> {
    let known = all_tags(items, &tags_of);
    for t in tags {
        if !known.contains(t) {
            return Err(format!("unknown tag `{t}` (known: {})", known.join(", ")));
        }
    }
    Ok(items
        .iter()
        .filter(|x| tags.is_empty() || tags_of(x).iter().any(|t| tags.contains(t)))
        .collect())
}

/// The id of item `i` of a bank or deck: present, made of letters, digits,
/// `-` and `_`, and not used before. Reports each problem; `None` when the
/// item has no id at all.
pub(crate) fn check_item_id(
    idx: &LineIndex,
    i: usize,
    raw: Option<&str>,
    what: &str,
    seen: &mut BTreeMap<String, usize>,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let id = match raw.map(str::trim) {
        None | Some("") => {
            diags.push(Diagnostic::at(
                idx.item(i),
                format!("{what} {} has no id", i + 1),
            ));
            return None;
        }
        Some(id) => id.to_string(),
    };
    if !id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        diags.push(Diagnostic::at(
            idx.field(i, "id"),
            format!("id `{id}`: use letters, digits, `-` and `_` only"),
        ));
    }
    if let Some(&first) = seen.get(&id) {
        diags.push(Diagnostic::at(
            idx.field(i, "id"),
            format!(
                "duplicate id `{id}` (first used at {})",
                idx.field(first, "id")
            ),
        ));
    } else {
        seen.insert(id.clone(), i);
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank() -> Bank {
        Bank::parse(crate::content::data::QUIZ_CH23_YAML, "quizzes/ch23.yaml")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn embedded_bank_is_valid_and_has_the_lesson_questions() {
        let b = bank();
        assert!(b.questions.len() >= 20);
        for (id, kind) in [
            ("mca-rthroughput", "number"),
            ("forbidden-latencies", "set"),
            ("operand-latency", "number"),
            ("find-skl-divider", "find"),
            ("tables-vs-automaton", "single"),
        ] {
            assert_eq!(b.question(id).map(|q| q.kind.as_str()), Some(kind), "{id}");
        }
        for t in TECHNIQUE_TAGS {
            assert!(
                b.questions
                    .iter()
                    .filter(|q| q.tags.iter().any(|x| x == t))
                    .count()
                    >= 4,
                "{t}"
            );
        }
    }

    #[test]
    fn numbers_and_sets_parse_leniently() {
        assert_eq!(parse_number("5/2").map(|x| x.0), Some(2.5));
        assert_eq!(
            parse_number(" 5 / 2 ").map(|x| x.1),
            Some(Some(Ratio::new(5, 2)))
        );
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number("1/0"), None);
        assert_eq!(parse_number("inf"), None);
        let s: BTreeSet<u64> = [0, 2].into();
        for t in ["{0, 2}", "2 0", "[2,0]", "{ 0 ,2 }", "0;2"] {
            assert_eq!(parse_set(t), Ok(s.clone()), "{t}");
        }
        assert_eq!(parse_set("{}"), Ok(BTreeSet::new()));
        assert!(parse_set("{0, x}").is_err());
        assert!(parse_set("").is_err());
    }

    #[test]
    fn find_skl_divider_accepts_the_forms() {
        let b = bank();
        let q = b.question("find-skl-divider").unwrap().instantiate(0);
        for a in ["8", "ReleaseAtCycles = 8", " releaseatcycles=8 "] {
            assert!(q.grade(a).unwrap().correct(), "{a}");
        }
        assert!(!q.grade("14").unwrap().correct());
    }

    #[test]
    fn sets_get_net_correct_credit() {
        let b = bank();
        let q = b.question("forbidden-latencies").unwrap().instantiate(3);
        let Expected::Set(want) = &q.expected else {
            panic!()
        };
        assert!(q.grade(&set_text(want)).unwrap().correct());
        let none = q.grade("{99}").unwrap();
        assert_eq!(none.score, Ratio::int(0));
    }

    #[test]
    fn choices_by_letter_or_text() {
        let b = bank();
        let q = b.question("tables-vs-automaton").unwrap().instantiate(0);
        let Expected::Single { choices, answer } = &q.expected else {
            panic!()
        };
        assert!(q
            .grade(&letter(*answer).to_ascii_uppercase().to_string())
            .unwrap()
            .correct());
        assert!(q.grade(&choices[*answer].to_uppercase()).unwrap().correct());
        assert!(q.grade("z").is_err());
    }

    #[test]
    fn variants_are_independent_per_question() {
        let b = bank();
        let q = b.question("mca-rthroughput").unwrap();
        assert_eq!(q.instantiate(5), q.instantiate(5));
        let distinct: BTreeSet<String> = (0..20).map(|s| q.instantiate(s).prompt).collect();
        assert!(distinct.len() > 10);
    }

    #[test]
    fn answer_file_format() {
        let f = parse_answer_file("# mine\nseed: 4\na: 3\n\nb : {0,1}\n", &["a", "b"]).unwrap();
        assert_eq!(f.seed, Some(4));
        assert_eq!(f.answers["b"], (5, "{0,1}".to_string()));
        let e = parse_answer_file("a 3\nc: 1\na: 1\na: 2\n", &["a"]).unwrap_err();
        assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), vec![1, 2, 4]);
    }
}
