//! The chapter quiz (Lesson 23.1 §9): a YAML question bank, engine-computed
//! questions, grading, and the typed values `course quiz` shows.
//!
//! A bank is a list of questions of six [`Kind`]s: `number` (exact, within
//! a tolerance the prompt states; `5/2` and `2.5` are the same answer, and
//! a unit word such as `cycles` may follow), `set` (of non-negative
//! integers, `{0, 2}`, `[0, 2]` or `0, 2`, any order; partial credit
//! |given ∩ answer| / |given ∪ answer|, the same both ways), `single` and
//! `multiple` (choices by letter or by text; multiple choice gets the same
//! partial credit), `find` (a list of accepted forms, for "find it in
//! LLVM" questions) and `bits` (a bit vector, offset 0 first). Every
//! question is shown with [`Instance::rules`]: the forms its answer takes
//! and how it is graded. A question that names a
//! [`Generator`] gets its prompt and answer from the engine for the quiz
//! seed, drawing from `Rng::derived(seed, id)`, so adding a question never
//! changes another's variant. Every reply, typed or from an answer file, is
//! read by [`course_engine::formats::answer`].
//!
//! The parts:
//!
//! | module | what it does |
//! |---|---|
//! | [`bank`] | YAML → validated [`Question`]s, every mistake at `file:line:column` |
//! | [`generators`] | the engine-computed questions |
//! | [`grading`] | instances, grading, the answer file, outcomes and totals |
//! | [`kind`] | the answer [`Kind`]s and [`Expected`] answers the bank and the generators share |
//! | [`results`] | the listing, instructor view, session and bank-check values |
//!
//! ```
//! let bank = course_content::quiz::Bank::parse(course_content::data::QUIZ_CH23_YAML, "quizzes/ch23.yaml").unwrap();
//! let q = bank.question("operand-latency").unwrap();
//! let inst = q.instantiate(7);
//! assert!(inst.grade(&inst.answer_text()).unwrap().correct());
//! ```

pub mod bank;
pub mod generators;
pub mod grading;
pub mod kind;
pub mod results;

pub use bank::{Bank, Question, RESERVED_ID, TECHNIQUE_TAGS, default_tolerance};
pub(crate) use bank::{all_tags, check_item_id, select_by_tags};
pub use generators::{Generated, Generator, Variant, tables_machine};
pub use grading::{
    AnswerFile, FormatError, Grade, Instance, Outcome, Results, Status, Summary, grade_answers,
    outcome, refuse_letters_without_seed, reply_text, total, withhold_blanks,
};
pub use kind::{Expected, Kind};
pub use results::{
    Asked, BankCheck, Feedback, InputEnded, Intro, LastResult, Listed, NothingMissed, QuestionList,
    Retry, Reveal, Revealed,
};
