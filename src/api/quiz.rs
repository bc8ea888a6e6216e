//! `course quiz`: one entry point per mode. [`list`], [`reveal`] and
//! [`grade`] return a typed result; [`check_bank`] validates a bank; and
//! [`session`] opens the interactive quiz, a [`Session`] the front end drives
//! line by line (question → reply → feedback) without knowing how a reply is
//! read or graded. [`record`] keeps which questions of a session were not
//! right, and [`missed_session`] asks only those again (`--missed`).

use std::path::{Path, PathBuf};

use course_content::data::Source;
use course_content::quiz::{
    AnswerFile, Asked, Bank, BankCheck, Feedback, InputEnded, Instance, Intro, LastResult,
    NothingMissed, Outcome, Question, QuestionList, Results, Retry, Reveal, Status, Summary,
    outcome, reply_text,
};
use course_engine::formats::diagnostic::Diagnostics;
use course_host::flash_state::StateError;
use course_host::quiz_state;

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
    #[error("no data folder (HOME and XDG_DATA_HOME are unset); use --state FILE")]
    NoDataFolder,
    #[error(
        "{0}: no quiz result yet; take the quiz first (course quiz {1}), then --missed asks again what was not right"
    )]
    NoLastResult(String, u32),
    #[error("{path}: the last result is of chapter {found}, not {chapter}")]
    OtherChapter {
        path: String,
        found: u32,
        chapter: u32,
    },
    #[error("none of the questions missed last time has the tag(s) asked for: {0}")]
    NoneMissedWithTags(String),
    #[error(transparent)]
    State(#[from] StateError),
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

/// `--reveal`: every selected question for `seed` (the command line draws
/// a fresh one when none is given), with its answer and explanation.
pub fn reveal(sel: Selection<'_>, seed: u64) -> Result<Reveal, QuizError> {
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
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
/// `seed`, else 0 (the two must agree when both are given); with neither,
/// a choice named by letters is refused (whose order would they follow?).
/// The answers of questions left blank are withheld unless `reveal`.
pub fn grade(
    sel: Selection<'_>,
    text: &str,
    origin: &str,
    seed: Option<u64>,
    reveal: bool,
) -> Result<Results, QuizError> {
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
    let known: Vec<&str> = bank.questions.iter().map(|q| q.id.as_str()).collect();
    let file = AnswerFile::parse(text, origin, &known).map_err(QuizError::AnswerFile)?;
    let named = seed.is_some() || file.seed.is_some();
    let seed = match (seed, file.seed) {
        (Some(flag), Some(file)) if flag != file => {
            return Err(QuizError::SeedMismatch { flag, file });
        }
        (a, b) => a.or(b).unwrap_or(0),
    };
    let insts = instances(&selected, seed);
    let mut outcomes = course_content::quiz::grade_answers(&insts, &file);
    if !named {
        course_content::quiz::refuse_letters_without_seed(&insts, &mut outcomes);
    }
    if !reveal {
        course_content::quiz::withhold_blanks(&mut outcomes);
    }
    Ok(Results {
        summary: Summary::of(outcomes),
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

/// The interactive quiz for `seed` (the command line draws a fresh one
/// when none is given).
pub fn session(sel: Selection<'_>, seed: u64) -> Result<Session, QuizError> {
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
    Ok(Session {
        chapter: sel.chapter,
        title: bank.title.clone(),
        seed,
        insts: instances(&selected, seed),
        outcomes: Vec::new(),
        missed: false,
    })
}

/// Where the last result of chapter `chapter` is kept: `state`, else
/// `quiz-<chapter>.json` in the user's data folder (next to the flashcard
/// state).
pub fn result_path(state: Option<&Path>, chapter: u32) -> Result<PathBuf, QuizError> {
    match state {
        Some(p) => Ok(p.to_path_buf()),
        None => quiz_state::default_path(|k| std::env::var(k).ok(), chapter)
            .ok_or(QuizError::NoDataFolder),
    }
}

/// What `--missed` found in the last result.
#[derive(Debug)]
pub enum Missed {
    /// The questions that were not right, to ask again.
    Ask(Session),
    /// The last quiz had every question right.
    Nothing(NothingMissed),
}

/// `--missed`: a session of the questions that were not right in the last
/// result kept in `path` (among those with the selection's tags), in bank
/// order, for `seed` (default: the last quiz's, so the same variants
/// return).
pub fn missed_session(
    sel: Selection<'_>,
    seed: Option<u64>,
    path: &Path,
) -> Result<Missed, QuizError> {
    let last = quiz_state::load(path)?
        .ok_or_else(|| QuizError::NoLastResult(path.display().to_string(), sel.chapter))?;
    if last.chapter != sel.chapter {
        return Err(QuizError::OtherChapter {
            path: path.display().to_string(),
            found: last.chapter,
            chapter: sel.chapter,
        });
    }
    let bank = load(sel.source, sel.chapter)?;
    let selected = select(&bank, sel.tags)?;
    let seed = seed.unwrap_or(last.seed);
    if last.missed.is_empty() {
        return Ok(Missed::Nothing(NothingMissed {
            chapter: sel.chapter,
            seed: last.seed,
        }));
    }
    let asked: Vec<&Question> = selected
        .into_iter()
        .filter(|q| last.missed.contains(&q.id))
        .collect();
    if asked.is_empty() {
        return Err(QuizError::NoneMissedWithTags(sel.tags.join(", ")));
    }
    Ok(Missed::Ask(Session {
        chapter: sel.chapter,
        title: bank.title.clone(),
        seed,
        insts: instances(&asked, seed),
        outcomes: Vec::new(),
        missed: true,
    }))
}

/// Keeps the session's result in `path` for a later `--missed`: its seed
/// and the questions that were not right (unanswered ones included). The
/// result replaces the one before.
pub fn record(session: &Session, path: &Path) -> Result<LastResult, QuizError> {
    let last = LastResult::of(session.chapter, session.seed, &session.summary());
    quiz_state::save(path, &last)?;
    Ok(last)
}

/// What a reply led to.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The reply could not be read: it is not graded, and the same question
    /// is asked again, with the syntax it takes.
    Retry(Retry),
    /// The question is done (right, wrong or partly right).
    Feedback(Feedback),
}

/// An interactive quiz: the questions in order, each answered once (an
/// unreadable reply is asked again, as often as it takes), then the
/// summary.
#[derive(Clone, Debug)]
pub struct Session {
    chapter: u32,
    title: Option<String>,
    seed: u64,
    insts: Vec<Instance>,
    /// One per finished question, in order.
    outcomes: Vec<Outcome>,
    /// Only the questions not right last time (`--missed`).
    missed: bool,
}

impl Session {
    /// The opening line's figures.
    pub fn intro(&self) -> Intro {
        Intro {
            chapter: self.chapter,
            missed: self.missed,
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
        if o.status == Status::FormatError {
            return Some(Reply::Retry(Retry {
                message: o.message,
                syntax: inst.syntax(),
            }));
        }
        let explanation = inst.explanation.clone();
        self.outcomes.push(o.clone());
        Some(Reply::Feedback(Feedback {
            explanation,
            outcome: o,
        }))
    }

    /// Grades one line read from a pipe for the current question: an
    /// unreadable line is that question's format error (asking again would
    /// take the next question's line and shift every later answer).
    pub fn reply_piped(&mut self, line: &str) -> Option<Feedback> {
        let inst = self.insts.get(self.outcomes.len())?;
        let o = outcome(inst, Some(reply_text(line)));
        self.outcomes.push(o.clone());
        Some(Feedback {
            explanation: inst.explanation.clone(),
            outcome: o,
        })
    }

    /// Input ended: the current question and the rest are unanswered.
    pub fn end_of_input(&mut self) -> InputEnded {
        let left = self.insts.len() - self.outcomes.len();
        for inst in &self.insts[self.outcomes.len()..] {
            self.outcomes.push(outcome(inst, None));
        }
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
    use course_content::quiz::{Expected, Kind};
    use course_engine::formats::answer::letter;
    use course_engine::util::ratio::Ratio;

    fn sel(source: &Source) -> Selection<'_> {
        Selection {
            source,
            chapter: 23,
            tags: &[],
        }
    }

    /// The verdict of the interactive session for `reply` on every
    /// question: its outcome, or the reason it was asked again (after
    /// which the right answer moves the quiz on).
    fn interactive(reply: &dyn Fn(&Instance) -> String, seed: u64) -> Vec<Result<Outcome, Retry>> {
        let source = Source::Embedded;
        let mut s = session(sel(&source), seed).unwrap();
        let insts = s.insts.clone();
        let mut out = Vec::new();
        for inst in &insts {
            match s.reply(&reply(inst)) {
                Some(Reply::Retry(r)) => {
                    assert_eq!(s.question().map(|q| q.id), Some(inst.id.clone()));
                    assert!(matches!(
                        s.reply(&inst.answer_text()),
                        Some(Reply::Feedback(_))
                    ));
                    out.push(Err(r));
                }
                Some(Reply::Feedback(f)) => out.push(Ok(f.outcome)),
                None => panic!("the session ended early"),
            }
        }
        assert!(s.question().is_none());
        out
    }

    fn answered(reply: &dyn Fn(&Instance) -> String, seed: u64) -> Vec<Outcome> {
        let source = Source::Embedded;
        let insts = session(sel(&source), seed).unwrap().insts;
        let text: String = insts
            .iter()
            .map(|i| (i, reply(i)))
            .filter(|(_, r)| !r.is_empty())
            .map(|(i, r)| format!("{}: {r}\n", i.id))
            .collect();
        grade(sel(&source), &text, "a.txt", Some(seed), false)
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
        let mut statuses = Vec::new();
        for (k, reply) in replies.iter().enumerate() {
            for seed in [0, 7, 42] {
                let a = interactive(reply, seed);
                let b = answered(reply, seed);
                assert_eq!(a.len(), b.len());
                for (x, y) in a.iter().zip(&b) {
                    statuses.push(y.status);
                    match x {
                        Ok(x) => assert_eq!(
                            (&x.id, x.status, x.score, &x.message),
                            (&y.id, y.status, y.score, &y.message),
                            "reply {k}, seed {seed}"
                        ),
                        // What the file calls a format error is asked
                        // again at the prompt, for the same reason.
                        Err(r) => {
                            assert_eq!(y.status, Status::FormatError, "reply {k}, seed {seed}");
                            assert_eq!(r.message, y.message);
                            assert!(
                                y.location
                                    .as_deref()
                                    .is_some_and(|l| l.starts_with("a.txt:"))
                            );
                        }
                    }
                }
            }
        }
        // All statuses but `unanswered` occur.
        for st in [
            Status::Right,
            Status::Partial,
            Status::Wrong,
            Status::FormatError,
        ] {
            assert!(statuses.contains(&st), "{st:?}");
        }
    }

    #[test]
    fn unreadable_replies_are_asked_again_then_end_of_input() {
        let source = Source::Embedded;
        let tags = ["llvm-mca".to_string()];
        let mut s = session(
            Selection {
                source: &source,
                chapter: 23,
                tags: &tags,
            },
            1,
        )
        .unwrap();
        let n = s.intro().questions;
        let first = s.question().unwrap();
        for _ in 0..5 {
            let Some(Reply::Retry(r)) = s.reply("{") else {
                panic!()
            };
            assert_eq!(r.syntax, first.syntax);
        }
        assert_eq!(s.question().map(|q| q.number), Some(1));
        assert_eq!(s.end_of_input().left, n);
        assert!(s.question().is_none());
        assert_eq!(s.reply("x"), None);
        let sum = s.summary();
        assert_eq!(sum.count(Status::Unanswered), n);
        assert_eq!(sum.count(Status::FormatError), 0);
        assert!(!sum.all_right);
    }

    /// The credit choice `i` deserves: all of it for the one right choice,
    /// and for multiple choice its share of the right ones (a wrong one
    /// alone earns nothing).
    fn deserved(e: &Expected, i: usize) -> Ratio {
        match e {
            Expected::Single { answer, .. } => Ratio::int(u64::from(i == *answer)),
            Expected::Multiple { answers, .. } if answers.contains(&i) => {
                Ratio::new(1, answers.len() as u64)
            }
            _ => Ratio::int(0),
        }
    }

    /// Issue 11, point 1: over the whole bank and seeds 0..20, every choice
    /// of every single and multiple choice question, given by its letter or
    /// by its exact text, earns the credit it deserves, both typed at the
    /// prompt and in an answer file.
    #[test]
    fn every_choice_by_letter_or_text_earns_its_credit() {
        let source = Source::Embedded;
        let bank = load(&source, 23).unwrap();
        let mut checked = 0;
        for seed in 0..20 {
            let insts = session(sel(&source), seed).unwrap().insts;
            let most = insts.iter().map(|i| i.choices().len()).max().unwrap_or(0);
            for k in 0..most {
                for by_text in [false, true] {
                    let reply = |i: &Instance| match i.choices().get(k) {
                        Some(c) if by_text => c.clone(),
                        Some(_) => letter(k).to_string(),
                        None => String::new(),
                    };
                    let typed = interactive(&reply, seed);
                    let filed = answered(&reply, seed);
                    for ((inst, t), f) in insts.iter().zip(&typed).zip(&filed) {
                        if k >= inst.choices().len() {
                            continue;
                        }
                        let want = deserved(&inst.expected, k);
                        let how = format!("{} seed {seed} choice {k} text {by_text}", inst.id);
                        let t = t
                            .as_ref()
                            .unwrap_or_else(|r| panic!("{how}: {}", r.message));
                        assert_eq!(t.score, want, "typed: {how}: {}", t.message);
                        assert_eq!(f.score, want, "file: {how}: {}", f.message);
                        assert_ne!(f.status, Status::FormatError, "file: {how}");
                        checked += 1;
                    }
                }
            }
        }
        let choice_questions = bank
            .questions
            .iter()
            .filter(|q| matches!(q.kind, Kind::Single | Kind::Multiple))
            .count();
        assert!(choice_questions >= 10);
        assert!(checked >= choice_questions * 20 * 2 * 4);
    }

    /// A readable reply that earns nothing.
    fn wrong(inst: &Instance) -> String {
        match &inst.expected {
            Expected::Number { .. } => "999".into(),
            Expected::Set(_) => "{999}".into(),
            Expected::Bits(ones) if ones.is_empty() => "1".into(),
            Expected::Bits(_) => "0".into(),
            Expected::Single { answer, .. } => letter((answer + 1) % inst.choices().len()).into(),
            Expected::Multiple { answers, .. } => (0..inst.choices().len())
                .find(|i| !answers.contains(i))
                .map_or("a".into(), |i| letter(i).to_string()),
            Expected::Find { .. } => "no such thing".into(),
        }
    }

    /// A scripted session: the wrong ones are kept, `--missed` asks them
    /// only (same seed, same prompts), and a second round narrows down.
    #[test]
    fn missed_sessions_narrow_down_to_what_is_still_wrong() {
        let source = Source::Embedded;
        let dir = std::env::temp_dir().join(format!("course-missed-{}", std::process::id()));
        let path = dir.join("quiz-23.json");
        assert!(matches!(
            missed_session(sel(&source), None, &path),
            Err(QuizError::NoLastResult(..))
        ));
        let mut s = session(sel(&source), 4).unwrap();
        let insts = s.insts.clone();
        for (k, inst) in insts.iter().enumerate() {
            let reply = if k % 5 == 1 {
                wrong(inst)
            } else {
                inst.answer_text()
            };
            assert!(matches!(s.reply(&reply), Some(Reply::Feedback(_))));
        }
        let last = record(&s, &path).unwrap();
        let wrong: Vec<String> = s
            .summary()
            .questions
            .iter()
            .filter(|o| o.status != Status::Right)
            .map(|o| o.id.clone())
            .collect();
        assert!(!wrong.is_empty());
        assert_eq!((last.missed.clone(), last.seed), (wrong.clone(), 4));
        let Missed::Ask(mut again) = missed_session(sel(&source), None, &path).unwrap() else {
            panic!("nothing missed")
        };
        assert!(again.intro().missed);
        let asked: Vec<String> = again.insts.iter().map(|i| i.id.clone()).collect();
        assert_eq!(asked, wrong);
        for inst in &again.insts {
            let first = insts.iter().find(|i| i.id == inst.id).unwrap();
            assert_eq!(first, inst, "same seed, same variant");
        }
        // Right this time, all but the first.
        let retry = again.insts.clone();
        for (k, inst) in retry.iter().enumerate() {
            let reply = if k == 0 {
                "999".to_string()
            } else {
                inst.answer_text()
            };
            again.reply(&reply);
        }
        record(&again, &path).unwrap();
        let Missed::Ask(third) = missed_session(sel(&source), None, &path).unwrap() else {
            panic!("nothing missed")
        };
        assert_eq!(third.insts.len(), 1);
        assert_eq!(third.insts[0].id, wrong[0]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
