//! `course quiz`: one entry point per mode. [`list`], [`reveal`] and
//! [`grade`] return a typed result; [`check_bank`] validates a bank; and
//! [`session`] opens the interactive quiz, a [`Session`] the front end drives
//! line by line (question → reply → feedback) without knowing how a reply is
//! read or graded.

use crate::content::data::Source;
use crate::content::quiz::{
    outcome, reply_text, AnswerFile, Asked, Bank, BankCheck, Feedback, InputEnded, Instance, Intro,
    Outcome, Question, QuestionList, Results, Retry, Reveal, Status, Summary,
};
use crate::formats::diagnostic::Diagnostics;
use crate::host::clock;

/// Why a quiz could not be given.
#[derive(Debug, thiserror::Error)]
pub enum QuizError {
    #[error("no quiz for chapter {0} (available: 23)")]
    NoChapter(u32),
    /// A course file that could not be read.
    #[error("{0}")]
    Read(String),
    #[error("invalid question bank:\n{0}")]
    InvalidBank(Diagnostics),
    #[error("{0}")]
    UnknownTag(String),
    #[error("no questions selected")]
    NoneSelected,
    /// The answer file's mistakes, one a line.
    #[error("{0}")]
    AnswerFile(Diagnostics),
    #[error("--seed {flag} disagrees with the answer file's `seed: {file}`")]
    SeedMismatch { flag: u64, file: u64 },
}

/// Which questions: a chapter's bank from the course data, and tags (any
/// of them; none means all).
#[derive(Clone, Copy, Debug)]
pub struct Selection<'a> {
    pub source: &'a Source,
    pub chapter: u32,
    pub tags: &'a [String],
}

/// The bank path of a chapter inside the course data.
pub fn bank_path(chapter: u32) -> String {
    format!("quizzes/ch{chapter}.yaml")
}

/// A course file's name as the user should see it in messages.
fn origin(source: &Source, path: &str) -> String {
    match source {
        Source::Dir(d) => d.join(path).display().to_string(),
        Source::Embedded => path.to_string(),
    }
}

fn load(source: &Source, chapter: u32) -> Result<Bank, QuizError> {
    let path = bank_path(chapter);
    let text = source.read(&path).map_err(|e| match source {
        Source::Embedded => QuizError::NoChapter(chapter),
        Source::Dir(_) => QuizError::Read(e),
    })?;
    Bank::parse(&text, &origin(source, &path)).map_err(QuizError::InvalidBank)
}

fn select<'b>(bank: &'b Bank, tags: &[String]) -> Result<Vec<&'b Question>, QuizError> {
    let selected = bank.select(tags).map_err(QuizError::UnknownTag)?;
    if selected.is_empty() {
        return Err(QuizError::NoneSelected);
    }
    Ok(selected)
}

fn instances(selected: &[&Question], seed: u64) -> Vec<Instance> {
    selected.iter().map(|q| q.instantiate(seed)).collect()
}

/// `--list`: the selected questions; prompts and choices for `seed`
/// (default 0).
pub fn list(sel: Selection<'_>, seed: Option<u64>) -> Result<QuestionList, QuizError> {
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
    Ok(QuestionList::new(&selected, seed.unwrap_or(0)))
}

/// `--reveal`: every selected question for `seed` (default: a fresh one),
/// with its answer and explanation.
pub fn reveal(sel: Selection<'_>, seed: Option<u64>) -> Result<Reveal, QuizError> {
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
    let seed = seed.unwrap_or_else(clock::fresh_seed);
    Ok(Reveal {
        questions: instances(&selected, seed)
            .into_iter()
            .map(Into::into)
            .collect(),
        seed,
    })
}

/// `--answers`: grades the answer file `text` (named `origin`). Its ids are
/// checked against the whole bank; the seed is the file's `seed:` line, else
/// `seed`, else 0 (the two must agree when both are given).
pub fn grade(
    sel: Selection<'_>,
    text: &str,
    origin: &str,
    seed: Option<u64>,
) -> Result<Results, QuizError> {
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
    let known: Vec<&str> = bank.questions.iter().map(|q| q.id.as_str()).collect();
    let file = AnswerFile::parse(text, origin, &known).map_err(QuizError::AnswerFile)?;
    let seed = match (seed, file.seed) {
        (Some(flag), Some(file)) if flag != file => {
            return Err(QuizError::SeedMismatch { flag, file })
        }
        (a, b) => a.or(b).unwrap_or(0),
    };
    let insts = instances(&selected, seed);
    Ok(Results {
        summary: Summary::of(crate::content::quiz::grade_answers(&insts, &file)),
        seed,
    })
}

/// `--check-bank FILE`: validates the bank `text` read from `origin`.
pub fn check_bank(text: &str, origin: &str) -> BankCheck {
    BankCheck::of(text, origin)
}

/// `--check-bank`: validates a chapter's bank in the course data.
pub fn check_chapter_bank(source: &Source, chapter: u32) -> Result<BankCheck, QuizError> {
    let path = bank_path(chapter);
    let text = source.read(&path).map_err(QuizError::Read)?;
    Ok(BankCheck::of(&text, &origin(source, &path)))
}

/// The interactive quiz for `seed` (default: a fresh one).
pub fn session(sel: Selection<'_>, seed: Option<u64>) -> Result<Session, QuizError> {
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
    let seed = seed.unwrap_or_else(clock::fresh_seed);
    Ok(Session {
        chapter: sel.chapter,
        title: bank.title.clone(),
        seed,
        insts: instances(&selected, seed),
        outcomes: Vec::new(),
        tries: 0,
    })
}

/// What a reply led to.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The reply could not be read; the same question is asked once more.
    Retry(Retry),
    /// The question is done (right, wrong, partly right, or a second
    /// unreadable reply).
    Feedback(Feedback),
}

/// An interactive quiz: the questions in order, each answered once (an
/// unreadable reply gets one more try), then the summary.
#[derive(Clone, Debug)]
pub struct Session {
    chapter: u32,
    title: Option<String>,
    seed: u64,
    insts: Vec<Instance>,
    /// One per finished question, in order.
    outcomes: Vec<Outcome>,
    /// Unreadable replies to the current question so far.
    tries: u8,
}

impl Session {
    /// How many unreadable replies end a question as a format error.
    pub const TRIES: u8 = 2;

    /// The opening line's figures.
    pub fn intro(&self) -> Intro {
        Intro {
            chapter: self.chapter,
            questions: self.insts.len(),
            seed: self.seed,
            title: self.title.clone(),
        }
    }

    /// The question waiting for a reply; `None` when the quiz is over.
    pub fn question(&self) -> Option<Asked> {
        let at = self.outcomes.len();
        self.insts
            .get(at)
            .map(|inst| Asked::new(inst, at + 1, self.insts.len()))
    }

    /// Grades one typed line for the current question: read like an answer
    /// file's value (a comment and the blanks around it dropped).
    pub fn reply(&mut self, line: &str) -> Option<Reply> {
        let inst = self.insts.get(self.outcomes.len())?;
        let o = outcome(inst, Some(reply_text(line)));
        self.tries += 1;
        if o.status == Status::FormatError && self.tries < Self::TRIES {
            return Some(Reply::Retry(Retry { message: o.message }));
        }
        self.tries = 0;
        let explanation = inst.explanation.clone();
        self.outcomes.push(o.clone());
        Some(Reply::Feedback(Feedback {
            explanation,
            outcome: o,
        }))
    }

    /// Input ended: the current question and the rest are unanswered.
    pub fn end_of_input(&mut self) -> InputEnded {
        let left = self.insts.len() - self.outcomes.len();
        for inst in &self.insts[self.outcomes.len()..] {
            self.outcomes.push(outcome(inst, None));
        }
        self.tries = 0;
        InputEnded { left }
    }

    /// Every outcome so far and the score.
    pub fn summary(&self) -> Summary {
        Summary::of(self.outcomes.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(source: &Source) -> Selection<'_> {
        Selection {
            source,
            chapter: 23,
            tags: &[],
        }
    }

    /// The verdict of the interactive session for `reply` (repeated if it
    /// asks again) on every question.
    fn interactive(reply: &dyn Fn(&Instance) -> String, seed: u64) -> Vec<Outcome> {
        let source = Source::Embedded;
        let mut s = session(sel(&source), Some(seed)).unwrap();
        let insts = s.insts.clone();
        for inst in &insts {
            let line = reply(inst);
            loop {
                match s.reply(&line) {
                    Some(Reply::Retry(_)) => continue,
                    Some(Reply::Feedback(_)) => break,
                    None => panic!("the session ended early"),
                }
            }
        }
        assert!(s.question().is_none());
        s.summary().questions
    }

    fn answered(reply: &dyn Fn(&Instance) -> String, seed: u64) -> Vec<Outcome> {
        let source = Source::Embedded;
        let insts = session(sel(&source), Some(seed)).unwrap().insts;
        let text: String = insts
            .iter()
            .map(|i| format!("{}: {}\n", i.id, reply(i)))
            .collect();
        grade(sel(&source), &text, "a.txt", Some(seed))
            .unwrap()
            .summary
            .questions
    }

    #[test]
    fn the_session_and_the_answer_file_agree() {
        let replies: [&dyn Fn(&Instance) -> String; 7] = [
            &|i| i.answer_text(),
            &|i| i.answer_text().to_uppercase(),
            &|i| format!("{}  # my guess", i.answer_text()),
            &|_| "999".into(),
            &|_| "{0, 1}".into(),
            &|_| "a, c".into(),
            &|_| "abc".into(),
        ];
        for (k, reply) in replies.iter().enumerate() {
            for seed in [0, 7, 42] {
                let a = interactive(reply, seed);
                let b = answered(reply, seed);
                assert_eq!(a.len(), b.len());
                for (x, y) in a.iter().zip(&b) {
                    assert_eq!(
                        (&x.id, x.status, x.score, &x.message),
                        (&y.id, y.status, y.score, &y.message),
                        "reply {k}, seed {seed}"
                    );
                }
            }
        }
        // All statuses but `unanswered` occur.
        let all: Vec<Status> = replies
            .iter()
            .flat_map(|r| interactive(r, 7))
            .map(|o| o.status)
            .collect();
        for st in [
            Status::Right,
            Status::Partial,
            Status::Wrong,
            Status::FormatError,
        ] {
            assert!(all.contains(&st), "{st:?}");
        }
    }

    #[test]
    fn one_retry_then_a_format_error_and_end_of_input() {
        let source = Source::Embedded;
        let tags = ["llvm-mca".to_string()];
        let mut s = session(
            Selection {
                source: &source,
                chapter: 23,
                tags: &tags,
            },
            Some(1),
        )
        .unwrap();
        let n = s.intro().questions;
        assert!(matches!(s.reply("{"), Some(Reply::Retry(_))));
        let Some(Reply::Feedback(f)) = s.reply("{") else {
            panic!()
        };
        assert_eq!(f.outcome.status, Status::FormatError);
        assert_eq!(s.question().map(|q| q.number), Some(2));
        assert_eq!(s.end_of_input().left, n - 1);
        assert!(s.question().is_none());
        assert_eq!(s.reply("x"), None);
        let sum = s.summary();
        assert_eq!(sum.count(Status::Unanswered), n - 1);
        assert!(!sum.all_right);
    }
}
