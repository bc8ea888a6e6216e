//! `course quiz 23` as a session the page drives: start, one reply at a
//! time, end of input.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use course::api;
use course::api::quiz::{Reply, Selection, Session};
use course::view;
use course_content::data::Source;
use course_content::quiz::{Asked, Intro, Status, Summary};
use course_content::review_log::quiz_review;

use crate::{CHAPTER, STYLE, Stamp, with_session};

thread_local! {
    static QUIZ: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// `{"cmd":"quiz_start","seed":N,"tags":[…]}`: a new quiz.
#[derive(Deserialize)]
pub(crate) struct StartReq {
    seed: u64,
    #[serde(default)]
    tags: Vec<String>,
}

/// `{"cmd":"quiz_reply","line":TEXT}`: a reply to the current question.
#[derive(Deserialize)]
pub(crate) struct LineReq {
    line: String,
    #[serde(default)]
    stamp: Option<Stamp>,
}

/// Where the quiz is: its current question (`null` when it is over) and
/// what shows it.
#[derive(Serialize)]
pub(crate) struct QuizState {
    question: Option<Asked>,
    #[serde(flatten)]
    shown: Shown,
}

/// The current question's text and prompt, or the summary at the end.
#[derive(Serialize)]
#[serde(untagged)]
enum Shown {
    Asking {
        prompt_text: String,
        question_text: String,
    },
    Over {
        summary: Summary,
        summary_text: String,
    },
}

/// The state of the quiz `s`.
fn state(s: &Session) -> QuizState {
    let question = s.question();
    let shown = match &question {
        Some(q) => Shown::Asking {
            prompt_text: view::quiz::answer_prompt(q),
            question_text: view::quiz::question(q, &STYLE),
        },
        None => {
            let summary = s.summary();
            Shown::Over {
                summary_text: view::quiz::summary(&summary, &STYLE),
                summary,
            }
        }
    };
    QuizState { question, shown }
}

/// The reply to `quiz_start`: the intro and the first question.
#[derive(Serialize)]
pub(crate) struct Started {
    intro: Intro,
    intro_text: String,
    #[serde(flatten)]
    state: QuizState,
}

/// Starts a quiz, in place of any that is running.
pub(crate) fn start(a: &StartReq) -> Result<Started, String> {
    let sel = Selection {
        source: &Source::Embedded,
        chapter: CHAPTER,
        tags: &a.tags,
    };
    let s = api::quiz::session(sel, a.seed).map_err(|e| e.to_string())?;
    let intro = s.intro();
    let started = Started {
        intro_text: view::quiz::intro(&intro, &STYLE),
        intro,
        state: state(&s),
    };
    QUIZ.set(Some(s));
    Ok(started)
}

/// The reply to `quiz_reply`: what the reply led to, then where the quiz
/// is.
#[derive(Serialize)]
pub(crate) struct Replied {
    #[serde(flatten)]
    led_to: LedTo,
    #[serde(flatten)]
    state: QuizState,
}

/// A reply that could not be read (asked again), or the feedback on a
/// graded one with its review-log line when stamped.
#[derive(Serialize)]
#[serde(untagged)]
enum LedTo {
    Retry {
        retry_text: String,
    },
    Feedback {
        feedback_text: String,
        status: Status,
        #[serde(skip_serializing_if = "Option::is_none")]
        review_line: Option<String>,
    },
}

/// Answers the current question.
pub(crate) fn reply(a: &LineReq) -> Result<Replied, String> {
    with_session(&QUIZ, "no quiz is running", |s| {
        let asked = s.question();
        let led_to = match s.reply(&a.line).ok_or("the quiz is over")? {
            Reply::Retry(r) => LedTo::Retry {
                retry_text: view::quiz::retry(&r, &STYLE),
            },
            Reply::Feedback(f) => {
                let review_line = match (&a.stamp, &asked) {
                    (Some(st), Some(q)) => st.line(|who, day, time| {
                        Some(quiz_review(&f.outcome, q.kind, who, day, time))
                    })?,
                    _ => None,
                };
                LedTo::Feedback {
                    feedback_text: view::quiz::feedback(&f, &STYLE),
                    status: f.outcome.status,
                    review_line,
                }
            }
        };
        Ok(Replied {
            led_to,
            state: state(s),
        })
    })
}

/// The reply to `quiz_end`: the end-of-input line, then the summary.
#[derive(Serialize)]
pub(crate) struct Ended {
    ended_text: String,
    #[serde(flatten)]
    state: QuizState,
}

/// Ends the input, as end of file ends `course quiz`.
pub(crate) fn end() -> Result<Ended, String> {
    with_session(&QUIZ, "no quiz is running", |s| {
        let ended = s.end_of_input();
        Ok(Ended {
            ended_text: view::quiz::input_ended(&ended),
            state: state(s),
        })
    })
}
