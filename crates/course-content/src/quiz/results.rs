//! What `course quiz` shows, as typed values: the listing, the instructor
//! view, the interactive session's question, feedback and end, and a bank
//! check. `course::view::quiz` writes them as text; JSON is their
//! `Serialize` (fields in alphabetical order, as the JSON has always been).

use serde::{Deserialize, Serialize};

use crate::quiz::bank::{Bank, Expected, Kind, Question};
use crate::quiz::generators::Generator;
use crate::quiz::grading::{Instance, Outcome, Status, Summary, answer_text};
use course_engine::formats::diagnostic::Diagnostics;

/// One question of `--list`, for one seed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Listed {
    pub choices: Vec<String>,
    pub generator: Option<Generator>,
    pub id: String,
    pub kind: Kind,
    pub prompt: String,
    pub tags: Vec<String>,
}

/// `--list`: the selected questions (prompts and choices for `seed`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuestionList {
    pub questions: Vec<Listed>,
    pub seed: u64,
}

impl QuestionList {
    /// The listing of `questions` for `seed`.
    pub fn new(questions: &[&Question], seed: u64) -> QuestionList {
        let questions = questions
            .iter()
            .map(|q| {
                let inst = q.instantiate(seed);
                Listed {
                    choices: inst.choices().to_vec(),
                    generator: q.generator,
                    id: inst.id,
                    kind: inst.kind,
                    prompt: inst.prompt,
                    tags: inst.tags,
                }
            })
            .collect();
        QuestionList { questions, seed }
    }
}

/// One question of the instructor view, with its answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Revealed {
    /// Serialised as the canonical answer text.
    #[serde(serialize_with = "answer_text")]
    pub answer: Expected,
    pub choices: Vec<String>,
    pub explanation: String,
    pub id: String,
    pub kind: Kind,
    pub prompt: String,
    /// How the reply is read and graded ([`Instance::rules`]).
    pub rules: String,
    pub tags: Vec<String>,
}

impl From<Instance> for Revealed {
    fn from(i: Instance) -> Revealed {
        Revealed {
            choices: i.choices().to_vec(),
            rules: i.rules(),
            answer: i.expected,
            explanation: i.explanation,
            id: i.id,
            kind: i.kind,
            prompt: i.prompt,
            tags: i.tags,
        }
    }
}

/// `--reveal`: every selected question for `seed`, with its answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reveal {
    pub questions: Vec<Revealed>,
    pub seed: u64,
}

/// The opening line of an interactive quiz.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Intro {
    pub chapter: u32,
    /// Only the questions not right last time (`--missed`).
    pub missed: bool,
    pub questions: usize,
    pub seed: u64,
    pub title: Option<String>,
}

/// A question as the student sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Asked {
    pub choices: Vec<String>,
    pub id: String,
    pub kind: Kind,
    /// 1-based position in the quiz.
    pub number: usize,
    /// How many questions the quiz has.
    pub of: usize,
    pub prompt: String,
    /// How the reply is read and graded ([`Instance::rules`]).
    pub rules: String,
    /// How to write the reply ([`Instance::syntax`]).
    pub syntax: String,
    pub tags: Vec<String>,
}

impl Asked {
    /// Question `number` of `of`.
    pub fn new(inst: &Instance, number: usize, of: usize) -> Asked {
        Asked {
            choices: inst.choices().to_vec(),
            id: inst.id.clone(),
            kind: inst.kind,
            number,
            of,
            prompt: inst.prompt.clone(),
            rules: inst.rules(),
            syntax: inst.syntax(),
            tags: inst.tags.clone(),
        }
    }
}

/// An unreadable reply: the question is asked again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Retry {
    /// Why it could not be read.
    pub message: String,
    /// How to write the reply ([`Instance::syntax`]).
    pub syntax: String,
}

/// What follows a graded reply: the outcome and the explanation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Feedback {
    pub explanation: String,
    pub outcome: Outcome,
}

/// Input ended before the quiz did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputEnded {
    /// The questions left unanswered, the current one included.
    pub left: usize,
}

/// `--check-bank`: a valid bank's figures, or its mistakes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BankCheck {
    Valid {
        generated: usize,
        origin: String,
        questions: usize,
        tags: Vec<String>,
    },
    Mistakes {
        diagnostics: Diagnostics,
        origin: String,
    },
}

impl BankCheck {
    /// Checks the bank `text` read from `origin`.
    pub fn of(text: &str, origin: &str) -> BankCheck {
        match Bank::parse(text, origin) {
            Ok(b) => BankCheck::Valid {
                generated: b.questions.iter().filter(|q| q.generator.is_some()).count(),
                origin: origin.to_string(),
                questions: b.questions.len(),
                tags: b.tags(),
            },
            Err(diagnostics) => BankCheck::Mistakes {
                diagnostics,
                origin: origin.to_string(),
            },
        }
    }

    /// True when the bank has no mistakes.
    pub fn is_valid(&self) -> bool {
        matches!(self, BankCheck::Valid { .. })
    }
}

/// What the quiz remembers of its last interactive run, for `--missed`:
/// the chapter, the seed, and the ids of the questions that were not right
/// (wrong, partly right or unanswered), in the order they were asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LastResult {
    pub chapter: u32,
    pub missed: Vec<String>,
    pub seed: u64,
}

impl LastResult {
    /// The result of a finished (or cut short) quiz.
    pub fn of(chapter: u32, seed: u64, summary: &Summary) -> LastResult {
        LastResult {
            chapter,
            missed: summary
                .questions
                .iter()
                .filter(|o| o.status != Status::Right)
                .map(|o| o.id.clone())
                .collect(),
            seed,
        }
    }

    /// The JSON text stored on disk.
    pub fn text(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads the stored text.
    pub fn parse(text: &str) -> Result<LastResult, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// `--missed` found nothing to ask: the last quiz had every question right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NothingMissed {
    pub chapter: u32,
    pub seed: u64,
}
