//! The question bank: YAML in, validated [`Question`]s out. Every mistake is
//! a [`Diagnostic`] at its `file:line:column`, and all of them are reported
//! at once. Kinds and generators are looked up here, once, and are enums
//! from then on.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::quiz::generators::Generator;
use course_engine::formats::answer;
use course_engine::formats::diagnostic::{Diagnostic, Diagnostics};
use course_engine::formats::yaml::LineIndex;
use course_engine::util::ratio::Ratio;

// Defined in `kind.rs`, below the bank and the generators alike; the old
// path `quiz::bank::{Expected, Kind}` still names them.
pub use crate::quiz::kind::{Expected, Kind};

/// The tags the lesson's three techniques use.
pub const TECHNIQUE_TAGS: [&str; 3] = ["reservation-tables", "machine-model", "llvm-mca"];

/// An id the answer-file format reserves for the seed line.
pub const RESERVED_ID: &str = "seed";

/// The tolerance of a number question that names none: 1/1000.
pub fn default_tolerance() -> Ratio {
    Ratio::new(1, 1000)
}

fn names<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str) -> String {
    all.iter().map(|&x| name(x)).collect::<Vec<_>>().join(", ")
}

/// A scalar from YAML that may be a number or a string (`answer: 5/2`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
enum Scalar {
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
enum RawAnswer {
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

/// A validated question.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub id: String,
    pub kind: Kind,
    pub tags: Vec<String>,
    /// The text shown (for a generated question, its introduction).
    pub prompt: String,
    pub generator: Option<Generator>,
    /// Fixed questions only; generated ones compute theirs.
    pub expected: Option<Expected>,
    pub tolerance: Ratio,
    pub explanation: String,
}

/// A validated bank.
#[derive(Clone, Debug, PartialEq)]
pub struct Bank {
    pub chapter: Option<u32>,
    pub title: Option<String>,
    pub questions: Vec<Question>,
}

/// Where a mistake in a question's answer is: a key, and an element of its
/// list when the mistake is in one.
type Misplaced = (&'static str, Option<usize>, String);

/// A tolerance from YAML as an exact fraction (`0.01` is 1/100).
fn exact_tolerance(t: f64) -> Option<Ratio> {
    if !(t.is_finite() && t >= 0.0) {
        return None;
    }
    answer::number(&t.to_string()).ok()
}

impl Bank {
    /// Parses and validates a bank; every mistake is reported with its
    /// location.
    pub fn parse(text: &str, origin: &str) -> Result<Bank, Diagnostics> {
        let raw: RawBank =
            course_engine::formats::yaml::from_str(text, origin).map_err(Diagnostics::from)?;
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
            let site = Site {
                idx: &idx,
                i,
                diags: &mut diags,
            };
            questions.extend(check_question(site, id, q));
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

    /// The question with this id.
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

/// Question `i` of a bank being checked: where its mistakes are reported.
struct Site<'a, 't> {
    idx: &'a LineIndex<'t>,
    i: usize,
    diags: &'a mut Vec<Diagnostic>,
}

impl Site<'_, '_> {
    /// A mistake at the question's dash.
    fn at_item(&mut self, message: String) {
        self.diags
            .push(Diagnostic::at(self.idx.item(self.i), message));
    }

    /// A mistake at the question's `key:`.
    fn at_field(&mut self, key: &str, message: String) {
        self.diags
            .push(Diagnostic::at(self.idx.field(self.i, key), message));
    }

    /// A mistake at element `j` of the question's list under `key:`.
    fn at_elem(&mut self, key: &str, j: usize, message: String) {
        self.diags
            .push(Diagnostic::at(self.idx.list_elem(self.i, key, j), message));
    }
}

/// Validates one question whose id is known, in the order its diagnostics
/// are reported; `None` when its kind is missing or unknown.
fn check_question(mut site: Site<'_, '_>, id: String, q: RawQuestion) -> Option<Question> {
    if id == RESERVED_ID {
        site.at_field(
            "id",
            format!("id `{id}` is reserved for the answer file's seed line"),
        );
    }
    let kind = question_kind(&mut site, &id, q.kind.as_deref())?;
    let (prompt, explanation) = question_prose(&mut site, &id, &q);
    check_tags(&mut site, &id, &q.tags);
    let tolerance = question_tolerance(&mut site, &id, q.tolerance);
    check_keys_of_kind(&mut site, &id, &q, kind);
    let (generator, expected) = question_answer(&mut site, &id, &q, kind, tolerance);
    Some(Question {
        id,
        kind,
        tags: q.tags,
        prompt,
        generator,
        expected,
        tolerance,
        explanation,
    })
}

/// The question's `kind:`, looked up once; `None` (reported) when missing or
/// unknown.
fn question_kind(site: &mut Site<'_, '_>, id: &str, kind: Option<&str>) -> Option<Kind> {
    let kind_names = || names(&Kind::ALL, Kind::name);
    match kind {
        None => {
            site.at_item(format!("{id}: missing kind (one of {})", kind_names()));
            None
        }
        Some(k) => {
            let kind = Kind::from_name(k);
            if kind.is_none() {
                site.at_field(
                    "kind",
                    format!("{id}: unknown kind `{k}` (one of {})", kind_names()),
                );
            }
            kind
        }
    }
}

/// The prompt and the explanation, each required to say something (a
/// generated question may leave its prompt to the generator).
fn question_prose(site: &mut Site<'_, '_>, id: &str, q: &RawQuestion) -> (String, String) {
    let prompt = q.prompt.clone().unwrap_or_default();
    if prompt.trim().is_empty() && q.generator.is_none() {
        site.at_field("prompt", format!("{id}: empty prompt"));
    }
    let explanation = q.explanation.clone().unwrap_or_default();
    if explanation.trim().is_empty() {
        site.at_field("explanation", format!("{id}: missing explanation"));
    }
    (prompt, explanation)
}

/// At least one tag, each a single word.
fn check_tags(site: &mut Site<'_, '_>, id: &str, tags: &[String]) {
    if tags.is_empty() {
        site.at_item(format!(
            "{id}: no tags (use some of {})",
            TECHNIQUE_TAGS.join(", ")
        ));
    }
    for (j, t) in tags.iter().enumerate() {
        if t.trim().is_empty() || t.contains(char::is_whitespace) {
            site.at_elem("tags", j, format!("{id}: tag `{t}` must be one word"));
        }
    }
}

/// The tolerance as an exact fraction; the default when none is given or
/// the given one is not a non-negative number (reported).
fn question_tolerance(site: &mut Site<'_, '_>, id: &str, tolerance: Option<f64>) -> Ratio {
    match tolerance {
        None => default_tolerance(),
        Some(t) => exact_tolerance(t).unwrap_or_else(|| {
            site.at_field(
                "tolerance",
                format!("{id}: tolerance must be a non-negative number"),
            );
            default_tolerance()
        }),
    }
}

/// `tolerance`, `choices` and `accept` only where the kind uses them.
fn check_keys_of_kind(site: &mut Site<'_, '_>, id: &str, q: &RawQuestion, kind: Kind) {
    if q.tolerance.is_some() && kind != Kind::Number {
        site.at_field(
            "tolerance",
            format!("{id}: tolerance only applies to number questions"),
        );
    }
    if !q.choices.is_empty() && !matches!(kind, Kind::Single | Kind::Multiple) {
        site.at_field(
            "choices",
            format!("{id}: choices only apply to single/multiple questions"),
        );
    }
    if !q.accept.is_empty() && kind != Kind::Find {
        site.at_field(
            "accept",
            format!("{id}: accept only applies to find questions"),
        );
    }
}

/// The question's generator, looked up once, or else its fixed answer; a
/// mistake in either is reported and leaves it `None`.
fn question_answer(
    site: &mut Site<'_, '_>,
    id: &str,
    q: &RawQuestion,
    kind: Kind,
    tolerance: Ratio,
) -> (Option<Generator>, Option<Expected>) {
    let Some(g) = &q.generator else {
        return match expected_answer(kind, q, tolerance) {
            Ok(e) => (None, Some(e)),
            Err((key, elem, msg)) => {
                let message = format!("{id}: {msg}");
                match elem {
                    Some(j) => site.at_elem(key, j, message),
                    None => site.at_field(key, message),
                }
                (None, None)
            }
        };
    };
    let mut generator = None;
    match Generator::from_name(g) {
        None => site.at_field(
            "generator",
            format!(
                "{id}: unknown generator `{g}` (one of {})",
                names(&Generator::ALL, Generator::name)
            ),
        ),
        Some(g) if g.kind() != kind => site.at_field(
            "kind",
            format!(
                "{id}: generator `{g}` makes {} questions, not {kind}",
                g.kind()
            ),
        ),
        Some(g) => generator = Some(g),
    }
    if q.answer.is_some() {
        site.at_field(
            "answer",
            format!("{id}: a generated question computes its answer; remove `answer`"),
        );
    }
    (generator, None)
}

/// The mistake of a fixed question with no `answer:`.
fn missing_answer() -> Misplaced {
    ("answer", None, "missing answer".to_string())
}

impl RawAnswer {
    /// Every value written, as text (one for a scalar).
    fn texts(&self) -> Vec<String> {
        match self {
            RawAnswer::One(s) => vec![s.text()],
            RawAnswer::Many(v) => v.iter().map(Scalar::text).collect(),
        }
    }
}

/// The expected answer of a fixed question, read with the same reader as
/// the students' answers.
fn expected_answer(kind: Kind, q: &RawQuestion, tolerance: Ratio) -> Result<Expected, Misplaced> {
    match kind {
        Kind::Number => number_answer(q, tolerance),
        Kind::Set => set_answer(q),
        Kind::Single | Kind::Multiple => choice_answer(kind, q),
        Kind::Bits => bits_answer(q),
        Kind::Find => find_answer(q),
    }
}

/// A number answer: one non-negative value, exact.
fn number_answer(q: &RawQuestion, tolerance: Ratio) -> Result<Expected, Misplaced> {
    let a = match &q.answer {
        Some(RawAnswer::One(s)) => s.text(),
        Some(RawAnswer::Many(_)) => {
            return Err(("answer", None, "a number answer is one value".into()));
        }
        None => return Err(missing_answer()),
    };
    let value = answer::number(&a).map_err(|_| {
        let why = if a.trim_start().starts_with('-') {
            "is negative (quiz numbers are non-negative)"
        } else {
            "is not a number"
        };
        ("answer", None, format!("answer `{a}` {why}"))
    })?;
    Ok(Expected::Number { value, tolerance })
}

/// A set answer: a YAML list or one integer, or a set written as text
/// (`"{0, 2}"`).
fn set_answer(q: &RawQuestion) -> Result<Expected, Misplaced> {
    let elements = match &q.answer {
        Some(RawAnswer::Many(v)) => v.iter().enumerate().collect::<Vec<_>>(),
        Some(RawAnswer::One(s @ Scalar::Int(_))) => vec![(0, s)],
        Some(RawAnswer::One(s)) => {
            let set = answer::set(&s.text()).map_err(|m| ("answer", None, m))?;
            return Ok(Expected::Set(set));
        }
        None => return Err(missing_answer()),
    };
    let many = matches!(q.answer, Some(RawAnswer::Many(_)));
    let mut set = BTreeSet::new();
    for (j, s) in elements {
        match s {
            Scalar::Int(n) if *n >= 0 => {
                set.insert(*n as u64);
            }
            _ => {
                return Err((
                    "answer",
                    many.then_some(j),
                    format!("set element `{}` is not a non-negative integer", s.text()),
                ));
            }
        }
    }
    Ok(Expected::Set(set))
}

/// A single- or multiple-choice answer: its choices, then the chosen ones.
fn choice_answer(kind: Kind, q: &RawQuestion) -> Result<Expected, Misplaced> {
    check_choices(&q.choices)?;
    let items = q.answer.as_ref().ok_or_else(missing_answer)?.texts();
    let mut answers = BTreeSet::new();
    for a in &items {
        let k = answer::choice(a, &q.choices).map_err(|_| {
            (
                "answer",
                None,
                format!("answer `{a}` is not among the choices"),
            )
        })?;
        answers.insert(k);
    }
    if kind == Kind::Single {
        let mut it = answers.into_iter();
        match (it.next(), it.next()) {
            (Some(answer), None) => Ok(Expected::Single {
                choices: q.choices.clone(),
                answer,
            }),
            _ => Err((
                "answer",
                None,
                "a single-choice question has exactly one answer".into(),
            )),
        }
    } else {
        if answers.is_empty() {
            return Err(missing_answer());
        }
        Ok(Expected::Multiple {
            choices: q.choices.clone(),
            answers,
        })
    }
}

/// Between two and 26 choices, none empty and no two alike.
fn check_choices(choices: &[String]) -> Result<(), Misplaced> {
    if choices.len() < 2 {
        return Err(("choices", None, "needs at least two choices".into()));
    }
    if choices.len() > 26 {
        return Err(("choices", None, "at most 26 choices".into()));
    }
    let mut norm = BTreeSet::new();
    for (j, c) in choices.iter().enumerate() {
        if c.trim().is_empty() {
            return Err(("choices", Some(j), "empty choice".into()));
        }
        if !norm.insert(answer::normalize(c)) {
            return Err(("choices", Some(j), format!("choice `{c}` appears twice")));
        }
    }
    Ok(())
}

/// A bit-vector answer (Definition 23.1.5): one quoted string of 0s and 1s.
fn bits_answer(q: &RawQuestion) -> Result<Expected, Misplaced> {
    match &q.answer {
        Some(RawAnswer::One(Scalar::Text(t))) => answer::bits(t)
            .map(Expected::Bits)
            .map_err(|m| ("answer", None, format!("answer `{t}`: {m}"))),
        Some(RawAnswer::One(s)) => Err((
            "answer",
            None,
            format!(
                "answer `{}`: quote a bit vector (\"0101\"), or YAML reads it as a number",
                s.text()
            ),
        )),
        Some(RawAnswer::Many(_)) => Err((
            "answer",
            None,
            "a bit-vector answer is one string such as \"0101\"".into(),
        )),
        None => Err(missing_answer()),
    }
}

/// A find answer: `answer:` and the `accept:` forms, none empty, each
/// distinct form once.
fn find_answer(q: &RawQuestion) -> Result<Expected, Misplaced> {
    let mut accept: Vec<String> = q.answer.as_ref().map(RawAnswer::texts).unwrap_or_default();
    accept.extend(q.accept.iter().cloned());
    if let Some(j) = q
        .accept
        .iter()
        .position(|a| answer::normalize(a).is_empty())
    {
        return Err(("accept", Some(j), "empty accepted form".into()));
    }
    if accept.is_empty() || q.answer.is_none() {
        return Err(missing_answer());
    }
    let mut seen = BTreeSet::new();
    accept.retain(|a| seen.insert(answer::normalize(a)));
    Ok(Expected::Find { accept })
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
        Bank::parse(crate::data::QUIZ_CH23_YAML, "quizzes/ch23.yaml")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn embedded_bank_is_valid_and_has_the_lesson_questions() {
        let b = bank();
        assert!(b.questions.len() >= 20);
        for (id, kind) in [
            ("mca-rthroughput", Kind::Number),
            ("forbidden-latencies", Kind::Set),
            ("operand-latency", Kind::Number),
            ("find-skl-divider", Kind::Find),
            ("tables-vs-automaton", Kind::Single),
        ] {
            assert_eq!(b.question(id).map(|q| q.kind), Some(kind), "{id}");
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
    fn kinds_and_generators_are_looked_up_once() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
        assert_eq!(Kind::from_name("essay"), None);
        for g in Generator::ALL {
            assert_eq!(Generator::from_name(g.name()), Some(g));
        }
        let b = bank();
        let q = b.question("mca-rthroughput").unwrap();
        assert_eq!(q.generator, Some(Generator::LoopRThroughput));
        assert_eq!(q.tolerance, Ratio::new(1, 100));
    }

    #[test]
    fn bank_answers_are_read_exactly() {
        let one = |kind: &str, answer: &str| {
            let text = format!(
                "questions:\n  - id: q\n    kind: {kind}\n    tags: [t]\n    prompt: p\n    answer: {answer}\n    explanation: e\n"
            );
            Bank::parse(&text, "b.yaml").map(|b| b.questions[0].expected.clone())
        };
        assert_eq!(
            one("number", "2.5"),
            Ok(Some(Expected::Number {
                value: Ratio::new(5, 2),
                tolerance: default_tolerance()
            }))
        );
        assert_eq!(
            one("set", "\"{2, 0}\""),
            Ok(Some(Expected::Set([0, 2].into())))
        );
        assert_eq!(one("set", "3"), Ok(Some(Expected::Set([3].into()))));
        let e = one("number", "-1").unwrap_err();
        assert!(e.0[0].message.contains("is negative"), "{e}");
    }
}
