//! Instances, grading, the answer file, outcomes and totals.
//!
//! A [`Question`] becomes an [`Instance`] for one seed (a generated prompt,
//! shuffled choices). A reply is read with [`course_engine::formats::answer`], the
//! reader every command shares, and graded against the instance; an
//! [`Outcome`] records what happened, and a [`Summary`] adds them up exactly.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Serialize, Serializer};

use crate::quiz::bank::{Expected, Kind, Question, RESERVED_ID};
use crate::quiz::generators::{Generated, Variant};
use course_engine::formats::answer;
use course_engine::formats::diagnostic::{Diagnostic, Diagnostics};
use course_engine::util::ratio::Ratio;
use course_engine::util::rng::Rng;

/// A question with its prompt and answer fixed for one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    pub id: String,
    pub kind: Kind,
    pub tags: Vec<String>,
    pub prompt: String,
    pub expected: Expected,
    pub explanation: String,
    pub variant: Variant,
}

/// The result of grading one answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    /// Points out of 1 (sets and multiple choice: |A ∩ B| / |A ∪ B|).
    pub score: Ratio,
    /// A short note (`2 of 3 right, 1 extra`).
    pub note: String,
}

impl Grade {
    pub fn correct(&self) -> bool {
        self.score == Ratio::int(1)
    }

    fn all_or_nothing(ok: bool) -> Grade {
        Grade {
            score: Ratio::int(u64::from(ok)),
            note: String::new(),
        }
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
    /// The prompt and answer for `seed` (a fixed question ignores it but
    /// for the order of its choices). Draws from `Rng::derived(seed, id)`,
    /// so adding a question never changes another's variant.
    pub fn instantiate(&self, seed: u64) -> Instance {
        let mut rng = Rng::derived(seed, &self.id);
        let Generated {
            prompt,
            expected,
            worked,
            variant,
        } = match self.generator {
            Some(g) => g.generate(&self.prompt, &mut rng, self.tolerance),
            None => Generated {
                prompt: self.prompt.trim_end().to_string(),
                expected: shuffled(
                    self.expected
                        .clone()
                        .unwrap_or(Expected::Find { accept: Vec::new() }),
                    &mut rng,
                ),
                worked: String::new(),
                variant: Variant::Fixed,
            },
        };
        let mut explanation = self.explanation.trim_end().to_string();
        if !worked.is_empty() {
            explanation = format!("{explanation}\n\n{worked}");
        }
        Instance {
            id: self.id.clone(),
            kind: self.kind,
            tags: self.tags.clone(),
            prompt,
            expected,
            explanation,
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

/// `|a - b| <= tolerance`, exactly (in floating point only if the exact
/// products do not fit in 128 bits).
fn within(a: Ratio, b: Ratio, tolerance: Ratio) -> bool {
    let (an, ad) = (u128::from(a.num()), u128::from(a.den()));
    let (bn, bd) = (u128::from(b.num()), u128::from(b.den()));
    let (tn, td) = (u128::from(tolerance.num()), u128::from(tolerance.den()));
    let diff = (an * bd).abs_diff(bn * ad);
    match (diff.checked_mul(td), (ad * bd).checked_mul(tn)) {
        (Some(l), Some(r)) => l <= r,
        _ => (a.to_f64() - b.to_f64()).abs() <= tolerance.to_f64(),
    }
}

impl Instance {
    /// The choices shown under the prompt (`a) …`), if any.
    pub fn choices(&self) -> &[String] {
        self.expected.choices()
    }

    /// The syntax a reply must have, short, as the answer prompt shows it
    /// (the reader is [`course_engine::formats::answer`]); [`Instance::rules`] has
    /// the whole of it.
    pub fn syntax(&self) -> String {
        match &self.expected {
            Expected::Number { .. } => "a number: 3, 5/2 or 2.5".into(),
            Expected::Set(_) => "a set: {0, 2}, [0, 2] or 0, 2; {} when empty".into(),
            Expected::Bits(_) => "bits, offset 0 first: 0101".into(),
            Expected::Single { choices, .. } => {
                format!(
                    "one letter {}, or the text of a choice",
                    answer::choice_range(choices.len())
                )
            }
            Expected::Multiple { choices, .. } => format!(
                "letters {} such as a, c, or choice texts separated by ;",
                answer::choice_range(choices.len())
            ),
            Expected::Find { .. } => "a name or a value".into(),
        }
    }

    /// The rules the reply is read and graded by, shown with the question:
    /// every form the reader takes, the number tolerance, the partial credit.
    pub fn rules(&self) -> String {
        match &self.expected {
            Expected::Number { tolerance, .. } => {
                let within = if *tolerance == Ratio::int(0) {
                    "graded exactly".to_string()
                } else {
                    format!("right within ±{} of the exact value", decimal(*tolerance))
                };
                format!(
                    "Answer with a number: 3, 5/2 or 2.5 (exact fractions), a unit word allowed after it (5 cycles); {within}."
                )
            }
            Expected::Set(_) => "Answer with a set of whole numbers, any order: {0, 2}, [0, 2], 0, 2 or 0 2; {} when empty; ranges such as 0..3 are not read. Partial credit: the elements in both sets over the elements in either, |given ∩ answer| / |given ∪ answer|.".into(),
            Expected::Bits(_) => "Answer with bits, offset 0 first, such as 0101 (no 0b prefix; trailing zeros change nothing), or the set of the offsets holding 1, such as {1, 3}; graded exactly.".into(),
            Expected::Single { choices, .. } => format!(
                "Answer with one letter {} or the text of a choice; graded exactly.",
                answer::choice_range(choices.len())
            ),
            Expected::Multiple { choices, .. } => format!(
                "Answer with every right letter {}: a, c · a c · a; c · a and c · ac, or choice texts separated by ;. Partial credit: the choices in both your answer and the right one over the choices in either, |given ∩ answer| / |given ∪ answer|.",
                answer::choice_range(choices.len())
            ),
            Expected::Find { .. } => "Answer with the name or value as you found it; case, spacing and a final full stop are ignored; graded exactly.".into(),
        }
    }

    /// The canonical answer, in a form [`Instance::grade`] accepts.
    pub fn answer_text(&self) -> String {
        self.expected.text()
    }

    /// Grades one reply (already without its comment). A reply that cannot
    /// be read as this kind is a [`FormatError`], not a wrong answer.
    pub fn grade(&self, reply: &str) -> Result<Grade, FormatError> {
        let reply = reply.trim();
        if reply.is_empty() {
            return Err(FormatError(format!(
                "empty answer; write {}",
                self.syntax()
            )));
        }
        match &self.expected {
            Expected::Number { value, tolerance } => {
                let got = answer::number(reply).map_err(FormatError)?;
                Ok(Grade::all_or_nothing(within(got, *value, *tolerance)))
            }
            Expected::Set(want) => {
                let got = answer::set(reply).map_err(FormatError)?;
                Ok(jaccard(want, &got, |x| x.to_string()))
            }
            Expected::Bits(want) => {
                let got = answer::bits(reply).map_err(FormatError)?;
                Ok(Grade::all_or_nothing(&got == want))
            }
            Expected::Single { choices, answer } => {
                let k = answer::choice(reply, choices).map_err(FormatError)?;
                Ok(Grade::all_or_nothing(k == *answer))
            }
            Expected::Multiple { choices, answers } => {
                let got = answer::choices(reply, choices).map_err(FormatError)?;
                Ok(jaccard(answers, &got, |&i| answer::letter(i).to_string()))
            }
            Expected::Find { accept } => {
                let n = answer::normalize(reply);
                Ok(Grade::all_or_nothing(
                    accept.iter().any(|a| answer::normalize(a) == n),
                ))
            }
        }
    }
}

/// A tolerance for people: `0.01`, `0.001`, `1`, or `1/3` when it has no
/// decimal of at most 18 places.
fn decimal(r: Ratio) -> String {
    let (num, den) = (u128::from(r.num()), u128::from(r.den()));
    let Some(places) = (0..=18u32).find(|&k| 10u128.pow(k) % den == 0) else {
        return r.fraction_string();
    };
    let scaled = num * (10u128.pow(places) / den);
    let text = format!("{scaled:0>width$}", width = places as usize + 1);
    let (int, frac) = text.split_at(text.len() - places as usize);
    if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    }
}

/// Partial credit, symmetric in the two sets: |given ∩ answer| /
/// |given ∪ answer| (1 when both are empty). Giving {0} for {0, 1, 2, 3}
/// earns 1/4, and so does giving {0, 1, 2, 3} for {0}.
fn jaccard<T: Ord>(want: &BTreeSet<T>, got: &BTreeSet<T>, show: impl Fn(&T) -> String) -> Grade {
    let right = got.intersection(want).count() as u64;
    let extra: Vec<String> = got.difference(want).map(&show).collect();
    let missed = want.len() as u64 - right;
    let union = want.len() as u64 + extra.len() as u64;
    let score = if union == 0 {
        Ratio::int(1)
    } else {
        Ratio::new(right, union)
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

/// A reply as the answer reader sees a line: a BOM, a `#` comment and the
/// surrounding blanks dropped (empty when nothing is left).
pub fn reply_text(line: &str) -> &str {
    answer::lines(line).next().map_or("", |l| l.text)
}

/// One answer of an answer file, and where its value starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// 1-based line.
    pub line: u32,
    /// 1-based column of the value.
    pub column: u32,
    pub text: String,
}

/// An answer file: `id: answer` a line (read by
/// [`answer::key_value`]), `#` comments and blank lines ignored, an optional
/// `seed: N` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerFile {
    /// The file's name in messages.
    pub origin: String,
    pub seed: Option<u64>,
    /// id → the answer; ids exactly as the bank writes them.
    pub answers: BTreeMap<String, Given>,
}

impl AnswerFile {
    /// Parses an answer file named `origin`; ids must be among `known`
    /// exactly as written there. Every bad line is a diagnostic.
    pub fn parse(text: &str, origin: &str, known: &[&str]) -> Result<AnswerFile, Diagnostics> {
        let mut out = AnswerFile {
            origin: origin.to_string(),
            ..AnswerFile::default()
        };
        let mut errs = Vec::new();
        for l in answer::lines(text) {
            let kv = match answer::key_value(l) {
                Ok(kv) => kv,
                Err(m) => {
                    errs.push(Diagnostic::new(origin, l.line, l.column, m));
                    continue;
                }
            };
            let at_key = |message: String| Diagnostic::new(origin, l.line, l.column, message);
            if kv.key == RESERVED_ID {
                match answer::whole(kv.value) {
                    Ok(s) if out.seed.is_none() => out.seed = Some(s),
                    Ok(_) => errs.push(at_key("a second seed line".into())),
                    Err(_) => errs.push(Diagnostic::new(
                        origin,
                        kv.line,
                        kv.column,
                        format!("seed `{}` is not a non-negative integer", kv.value),
                    )),
                }
                continue;
            }
            if !known.contains(&kv.key) {
                errs.push(at_key(format!("unknown question id `{}`", kv.key)));
                continue;
            }
            if let Some(first) = out.answers.get(kv.key) {
                errs.push(at_key(format!(
                    "second answer for `{}` (first on line {})",
                    kv.key, first.line
                )));
                continue;
            }
            out.answers.insert(
                kv.key.to_string(),
                Given {
                    line: kv.line,
                    column: kv.column,
                    text: kv.value.to_string(),
                },
            );
        }
        if errs.is_empty() {
            Ok(out)
        } else {
            Err(Diagnostics(errs))
        }
    }
}

/// How one question ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Right,
    Partial,
    Wrong,
    /// The answer could not be read as the question's kind.
    FormatError,
    Unanswered,
}

impl Status {
    /// Every status, in the order a summary counts them.
    pub const ALL: [Status; 5] = [
        Status::Right,
        Status::Partial,
        Status::Wrong,
        Status::FormatError,
        Status::Unanswered,
    ];

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

/// A fraction as JSON writes it: `"5/2"`, `"3"`.
pub(crate) fn fraction<S: Serializer>(r: &Ratio, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&r.fraction_string())
}

/// An expected answer as JSON writes it: its canonical text.
pub(crate) fn answer_text<S: Serializer>(e: &Expected, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&e.text())
}

fn optional_answer_text<S: Serializer>(e: &Option<Expected>, s: S) -> Result<S::Ok, S::Error> {
    match e {
        Some(e) => answer_text(e, s),
        None => s.serialize_none(),
    }
}

/// The result for one question.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// The reply, if there was one.
    pub answer: Option<String>,
    /// What was expected (serialised as its canonical text); `None` when
    /// it is withheld ([`withhold_blanks`]).
    #[serde(
        serialize_with = "optional_answer_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub expected: Option<Expected>,
    /// Why the answer is what it is (the instance's explanation, with the
    /// numbers of a generated question).
    pub explanation: String,
    pub id: String,
    /// Where an answer file's unreadable answer starts (`file:line:column`);
    /// only for format errors in files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The grade's note, or the format error.
    pub message: String,
    /// `score` as a float, for scripts.
    pub points: f64,
    #[serde(serialize_with = "fraction")]
    pub score: Ratio,
    pub status: Status,
    /// The question's tags, so that results can be added up by topic.
    pub tags: Vec<String>,
    /// The question's kind (for the review log's cause).
    #[serde(skip)]
    pub kind: Kind,
}

/// Grades `reply` (or its absence) for `inst`.
pub fn outcome(inst: &Instance, reply: Option<&str>) -> Outcome {
    let (status, score, message) = match reply.map(|r| inst.grade(r)) {
        None => (Status::Unanswered, Ratio::int(0), String::new()),
        Some(Ok(g)) => {
            let status = if g.correct() {
                Status::Right
            } else if g.score > Ratio::int(0) {
                Status::Partial
            } else {
                Status::Wrong
            };
            (status, g.score, g.note)
        }
        Some(Err(FormatError(m))) => (Status::FormatError, Ratio::int(0), m),
    };
    Outcome {
        answer: reply.map(str::to_string),
        expected: Some(inst.expected.clone()),
        kind: inst.kind,
        explanation: inst.explanation.clone(),
        id: inst.id.clone(),
        location: None,
        message,
        points: score.to_f64(),
        score,
        status,
        tags: inst.tags.clone(),
    }
}

/// Whether a choice reply names its choices by letters only (`b`, `a, c`,
/// `ac`), not by their text: every word is a run of the letters of the
/// `n` choices, and the reply is not itself a choice's text (`Both`).
pub fn by_letters(reply: &str, choices: &[String]) -> bool {
    let n = choices.len().min(26) as u8;
    let letter = |c: char| c.is_ascii_alphabetic() && (c.to_ascii_lowercase() as u8) < b'a' + n;
    if choices
        .iter()
        .any(|c| answer::normalize(c) == answer::normalize(reply))
    {
        return false;
    }
    let mut any = false;
    for tok in reply.split(|c: char| c == ',' || c == ';' || c == '&' || c.is_whitespace()) {
        let t = tok.trim_matches(|c| c == '(' || c == ')' || c == '.');
        if t.is_empty() || t.eq_ignore_ascii_case("and") {
            continue;
        }
        if !t.chars().all(letter) {
            return false;
        }
        any = true;
    }
    any
}

/// In an answer file that names no seed, a choice answered by letters is
/// refused: the letters follow the order of one seed's shuffle, which the
/// file does not say (a choice's text reads the same in every order).
pub fn refuse_letters_without_seed(insts: &[Instance], outcomes: &mut [Outcome]) {
    for (i, o) in insts.iter().zip(outcomes.iter_mut()) {
        let letters = o
            .answer
            .as_deref()
            .is_some_and(|a| by_letters(a, i.choices()));
        if matches!(i.kind, Kind::Single | Kind::Multiple) && letters {
            o.status = Status::FormatError;
            o.score = Ratio::int(0);
            o.points = 0.0;
            o.message = "choices named by letters need the seed whose order they follow: add \
                         'seed: N' (the quiz's first line names it), or write the choice's text"
                .into();
        }
    }
}

/// Questions left blank in an answer file keep their answers to
/// themselves: no expected answer, no explanation (a blank is "not
/// answered", not a way to read the answers; `--reveal` shows them).
pub fn withhold_blanks(outcomes: &mut [Outcome]) {
    for o in outcomes
        .iter_mut()
        .filter(|o| o.status == Status::Unanswered)
    {
        o.expected = None;
        o.explanation.clear();
    }
}

/// Grades an answer file against the selected instances (missing answers
/// are unanswered; an unreadable one is a format error at its
/// `file:line:column`).
pub fn grade_answers(insts: &[Instance], file: &AnswerFile) -> Vec<Outcome> {
    insts
        .iter()
        .map(|i| {
            let given = file.answers.get(&i.id);
            let mut o = outcome(i, given.map(|g| g.text.as_str()));
            if let (Status::FormatError, Some(g)) = (o.status, given) {
                o.location = Some(format!("{}:{}:{}", file.origin, g.line, g.column));
            }
            o
        })
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

/// Every question's outcome and the total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub all_right: bool,
    /// The most points there were (one a question).
    pub max: usize,
    pub points: f64,
    pub questions: Vec<Outcome>,
    #[serde(serialize_with = "fraction")]
    pub score: Ratio,
}

impl Summary {
    /// Adds up the outcomes.
    pub fn of(questions: Vec<Outcome>) -> Summary {
        let score = total(&questions);
        Summary {
            all_right: questions.iter().all(|o| o.status == Status::Right),
            max: questions.len(),
            points: score.to_f64(),
            questions,
            score,
        }
    }

    /// How many questions ended with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.questions.iter().filter(|o| o.status == status).count()
    }
}

/// An answer file, graded (`course quiz --answers`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Results {
    #[serde(flatten)]
    pub summary: Summary,
    pub seed: u64,
}

#[cfg(test)]
mod letters_tests {
    use super::by_letters;

    #[test]
    fn letters_are_told_from_a_choice_named_by_its_text() {
        let c: Vec<String> = ["Both", "None", "x86 only", "dd"]
            .map(String::from)
            .to_vec();
        for yes in ["b", "a, c", "ac", "(d)", "a and c"] {
            assert!(by_letters(yes, &c), "{yes}");
        }
        // A choice's own text, a word with a letter past d, a number.
        for no in ["Both", "none", "x86 only", "dd", "bet", "e", "3"] {
            assert!(!by_letters(no, &c), "{no}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Bank;
    use course_engine::formats::answer::letter;

    fn bank() -> Bank {
        Bank::parse(crate::data::QUIZ_CH23_YAML, "quizzes/ch23.yaml")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn fixed(kind: &str, answer: &str, tolerance: &str) -> Instance {
        let text = format!(
            "questions:\n  - id: q\n    kind: {kind}\n    tags: [t]\n    prompt: p\n    answer: {answer}\n{tolerance}    explanation: e\n"
        );
        Bank::parse(&text, "b.yaml")
            .unwrap_or_else(|e| panic!("{e}"))
            .questions[0]
            .instantiate(0)
    }

    #[test]
    fn replies_are_read_by_the_answer_reader() {
        let q = fixed("number", "5/2", "    tolerance: 0\n");
        for ok in ["5/2", " 5/2 ", "2.5", "10/4", "2.50"] {
            assert!(q.grade(ok).unwrap().correct(), "{ok}");
        }
        assert!(!q.grade("2.4").unwrap().correct());
        for bad in ["abc", "1/0", "inf", "-2.5", "2,5"] {
            assert!(q.grade(bad).is_err(), "{bad}");
        }
        // The tolerance applies to the exact value of the reply.
        let q = fixed("number", "4", "    tolerance: 0.2\n");
        assert!(q.grade("4.2").unwrap().correct());
        assert!(q.grade("19/5").unwrap().correct());
        assert!(!q.grade("4.2000001").unwrap().correct());
        // A unit word after the number, on every number question.
        for ok in ["4 cycles", "4.2 cycles", "19/5 cycles per iteration"] {
            assert!(q.grade(ok).unwrap().correct(), "{ok}");
        }
        assert!(q.grade("4 apples").is_err());
        assert!(q.grade("0b100").unwrap_err().0.contains("decimal (4)"));
        let q = fixed("set", "[0, 2]", "");
        for ok in ["{0, 2}", "{2 0}", "{ 0 ,2 }", "0 2", "0, 2", "[2,0]"] {
            assert!(q.grade(ok).unwrap().correct(), "{ok}");
        }
        // `;` between elements, a range, a stray letter: not a set.
        for bad in ["{0; 2}", "0..2", "{0, x}", ""] {
            assert!(q.grade(bad).is_err(), "{bad}");
        }
        assert_eq!(q.grade("{}").unwrap().score, Ratio::int(0));
    }

    #[test]
    fn the_rules_state_the_tolerance_and_the_credit() {
        let exact = fixed("number", "5/2", "    tolerance: 0\n");
        assert!(
            exact.rules().ends_with("; graded exactly."),
            "{}",
            exact.rules()
        );
        let q = fixed("number", "5/2", "    tolerance: 0.01\n");
        assert!(q.rules().contains("right within ±0.01 of the exact value"));
        let q = fixed("number", "5/2", "");
        assert!(q.rules().contains("right within ±0.001 of the exact value"));
        assert!(q.grade("2.501").unwrap().correct());
        assert!(!q.grade("2.502").unwrap().correct());
        assert_eq!(decimal(Ratio::new(1, 3)), "1/3");
        assert_eq!(decimal(Ratio::new(1, 20)), "0.05");
        assert_eq!(decimal(Ratio::new(3, 2)), "1.5");
        assert_eq!(decimal(Ratio::int(2)), "2");
        let set = fixed("set", "[0]", "");
        assert!(set.rules().contains("|given ∩ answer| / |given ∪ answer|"));
        assert!(set.rules().contains("{0, 2}, [0, 2], 0, 2 or 0 2"));
    }

    /// Partial credit is symmetric: the score of giving A for B is the
    /// score of giving B for A, for sets and for multiple choice.
    #[test]
    fn partial_credit_is_symmetric() {
        let score = |want: &str, got: &str| fixed("set", want, "").grade(got).unwrap().score;
        assert_eq!(score("[0, 1, 2, 3]", "{0}"), Ratio::new(1, 4));
        assert_eq!(score("[0]", "{0, 1, 2, 3}"), Ratio::new(1, 4));
        assert_eq!(score("[0, 1]", "{1, 2}"), Ratio::new(1, 3));
        assert_eq!(score("[0, 1]", "{2}"), Ratio::int(0));
        assert_eq!(score("[]", "{}"), Ratio::int(1));
        assert_eq!(score("[]", "{1}"), Ratio::int(0));
        // Every pair of subsets of {0, 1, 2, 3}, both ways.
        let subsets: Vec<BTreeSet<u64>> = (0u32..16)
            .map(|m| (0..4).filter(|b| m >> b & 1 == 1).collect())
            .collect();
        for a in &subsets {
            for b in &subsets {
                let ab = jaccard(a, b, u64::to_string).score;
                let ba = jaccard(b, a, u64::to_string).score;
                assert_eq!(ab, ba, "{a:?} {b:?}");
                assert_eq!(ab == Ratio::int(1), a == b);
            }
        }
        let text = "questions:\n  - id: q\n    kind: multiple\n    tags: [t]\n    prompt: p\n    choices: [w, x, y, z]\n    answer: [a, b]\n    explanation: e\n";
        let q = &Bank::parse(text, "b.yaml").unwrap().questions[0];
        let Expected::Multiple { choices, answers } = q.instantiate(0).expected else {
            panic!()
        };
        let letters = |set: &BTreeSet<usize>| {
            set.iter()
                .map(|&i| letter(i).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let all: BTreeSet<usize> = (0..choices.len()).collect();
        let inst = q.instantiate(0);
        // All four for two right: 2/4; one right alone: 1/2.
        assert_eq!(inst.grade(&letters(&all)).unwrap().score, Ratio::new(1, 2));
        let one: BTreeSet<usize> = answers.iter().take(1).copied().collect();
        assert_eq!(inst.grade(&letters(&one)).unwrap().score, Ratio::new(1, 2));
    }

    #[test]
    fn bit_vectors_are_exact_and_refuse_0b() {
        let b = bank();
        let q = b.question("div-collision-vector").unwrap().instantiate(0);
        assert_eq!(q.kind, Kind::Bits);
        for ok in ["1111", "1 1 1 1", "11110", "{0, 1, 2, 3}", "[0,1,2,3]"] {
            assert!(q.grade(ok).unwrap().correct(), "{ok}");
        }
        assert!(!q.grade("0111").unwrap().correct());
        let e = q.grade("0b1111").unwrap_err().0;
        assert!(
            e.contains("binary literal") && e.contains("offset 0 first"),
            "{e}"
        );
        assert!(
            q.rules()
                .contains("offset 0 first, such as 0101 (no 0b prefix")
        );
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
    fn sets_get_partial_credit() {
        let b = bank();
        let q = b.question("forbidden-latencies").unwrap().instantiate(3);
        let Expected::Set(want) = &q.expected else {
            panic!()
        };
        assert!(q.grade(&answer::set_text(want)).unwrap().correct());
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
        assert!(
            q.grade(&answer::letter(*answer).to_ascii_uppercase().to_string())
                .unwrap()
                .correct()
        );
        assert!(q.grade(&choices[*answer].to_uppercase()).unwrap().correct());
        assert!(q.grade("z").is_err());
        // A choice whose text ends in `)` is read as that text.
        let q = b.question("fits-precondition").unwrap().instantiate(0);
        let Expected::Single { choices, answer } = &q.expected else {
            panic!()
        };
        assert!(choices[*answer].ends_with(')'));
        assert!(q.grade(&choices[*answer]).unwrap().correct());
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
        let f = AnswerFile::parse(
            "\u{feff}# mine\r\nseed: 4\na: 3 # sure\n\nb : {0,1}\n",
            "f",
            &["a", "b"],
        )
        .unwrap();
        assert_eq!(f.seed, Some(4));
        let at = |id: &str| {
            let g = &f.answers[id];
            (g.line, g.column, g.text.as_str())
        };
        assert_eq!(at("a"), (3, 4, "3"));
        assert_eq!(at("b"), (5, 5, "{0,1}"));
        let e = AnswerFile::parse("a:\nc: 1\na: 1\na: 2\nA: 3\n", "f", &["a"]).unwrap_err();
        assert_eq!(
            e.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![1, 2, 4, 5]
        );
        assert_eq!(
            e.to_string().lines().nth(2),
            Some("f:4:1: second answer for `a` (first on line 3)")
        );
    }
}
