//! What a question takes and what it expects (Lesson 23.1 §9): the six
//! answer [`Kind`]s a bank names, and the validated [`Expected`] answer that
//! grading compares a reply against. The bank and the engine-computed
//! questions both build these, so they stand below both; numbers are exact
//! [`Ratio`]s, and the canonical answer text is written with
//! [`course_engine::formats::answer`], the reader every command shares.

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use course_engine::formats::answer;
use course_engine::util::ratio::Ratio;

/// What kind of answer a question takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A number, compared within the question's tolerance.
    Number,
    /// A set of non-negative integers, with partial credit |A ∩ B| / |A ∪ B|.
    Set,
    /// One of the choices.
    Single,
    /// Some of the choices, with partial credit |A ∩ B| / |A ∪ B|.
    Multiple,
    /// A name or value to find in LLVM, one of several accepted forms.
    Find,
    /// A bit vector (Definition 23.1.5's collision vector), offset 0 first,
    /// compared exactly.
    Bits,
}

impl Kind {
    /// Every kind, in the order the bank format lists them.
    pub const ALL: [Kind; 6] = [
        Kind::Number,
        Kind::Set,
        Kind::Single,
        Kind::Multiple,
        Kind::Find,
        Kind::Bits,
    ];

    /// The name a bank writes.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::Set => "set",
            Kind::Single => "single",
            Kind::Multiple => "multiple",
            Kind::Find => "find",
            Kind::Bits => "bits",
        }
    }

    /// The kind a bank names, if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// What a question expects, after validation. Numbers are exact: the
/// tolerance is applied to the exact value of a reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    Number {
        value: Ratio,
        tolerance: Ratio,
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
    /// The offsets whose bit is 1.
    Bits(BTreeSet<u64>),
}

impl Expected {
    /// The choices shown under the prompt (`a) …`), if any.
    pub fn choices(&self) -> &[String] {
        match self {
            Expected::Single { choices, .. } | Expected::Multiple { choices, .. } => choices,
            _ => &[],
        }
    }

    /// The canonical answer, in a form grading accepts (`5/2`, `{0, 2}`,
    /// `b`, `a, c`, the first accepted form).
    pub fn text(&self) -> String {
        match self {
            Expected::Number { value, .. } => value.fraction_string(),
            Expected::Set(s) => answer::set_text(s),
            Expected::Single { answer, .. } => answer::letter(*answer).to_string(),
            Expected::Multiple { answers, .. } => answers
                .iter()
                .map(|&i| answer::letter(i).to_string())
                .collect::<Vec<_>>()
                .join(", "),
            Expected::Find { accept } => accept.first().cloned().unwrap_or_default(),
            Expected::Bits(ones) => answer::bits_text(ones),
        }
    }
}
