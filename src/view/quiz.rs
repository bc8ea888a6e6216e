//! `course quiz` as text: the listing, the instructor view, graded answer
//! files, the interactive session and bank checks, each a function of the
//! typed value in [`course_content::quiz`]. Prose is wrapped to the
//! [`Style`]'s width; right and wrong are coloured when it says so.

use crate::view::style::Style;
use course_content::quiz::{
    Asked, BankCheck, Expected, Feedback, InputEnded, Intro, LastResult, NothingMissed, Outcome,
    QuestionList, Results, Retry, Reveal, Status, Summary,
};
use course_content::text::wrap_line;
use course_engine::formats::answer::letter;
use course_engine::util::ratio::Ratio;

/// The answer as shown to a student: `5/2 = 2.5`, `c) …` for choices, the
/// other accepted forms of a find-it answer.
pub fn answer_display(e: &Expected) -> String {
    match e {
        Expected::Number { value: r, .. } if r.den() != 1 => {
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
            _ => e.text(),
        },
        _ => e.text(),
    }
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

/// `Score: 3.5/5 (70%): right 3, partial 1, wrong 1`.
pub fn summary_line(s: &Summary) -> String {
    let t = s.score;
    let n = s.max as u64;
    let pct = if n == 0 {
        100
    } else {
        (t.num() as u128 * 100 / (t.den() as u128 * n as u128)) as u64
    };
    let parts: Vec<String> = Status::ALL
        .iter()
        .filter_map(|&st| {
            let c = s.count(st);
            (c > 0).then(|| format!("{} {c}", st.as_str()))
        })
        .collect();
    format!(
        "Score: {}/{n} ({pct}%): {}",
        score_text(t),
        parts.join(", ")
    )
}

/// What a question shows under its header.
struct Body<'a> {
    prompt: &'a str,
    choices: &'a [String],
    rules: &'a str,
}

/// Header, prompt, lettered choices and the rules of question `n` of `of`,
/// wrapped.
fn question_text(
    n: usize,
    of: usize,
    id: &str,
    tags: &[String],
    Body {
        prompt,
        choices,
        rules,
    }: Body<'_>,
    style: &Style,
) -> String {
    let mut s = wrap_line(
        &format!("Question {n}/{of} [{id}] ({})", tags.join(", ")),
        "  ",
        style.width,
    );
    s += "\n";
    s += &style.wrap(&format!("{}\n", prompt.trim_end()));
    for (i, c) in choices.iter().enumerate() {
        s += &wrap_line(&format!("  {}) {c}", letter(i)), "     ", style.width);
        s += "\n";
    }
    s += &style.wrap(&format!("{rules}\n"));
    s
}

/// The explanation, indented under `Why:` and wrapped.
fn explanation_text(explanation: &str, indent: &str, style: &Style) -> String {
    let inner = Style {
        width: style.width.saturating_sub(indent.len() + 2),
        ..*style
    };
    let mut s = format!("{indent}Why:");
    for l in inner.wrap(explanation).lines() {
        s += "\n";
        if !l.is_empty() {
            s += indent;
            s += "  ";
            s += l;
        }
    }
    s + "\n"
}

/// `--list`: id, kind, tags (and the generator on a line of its own); then
/// the count.
pub fn list(l: &QuestionList) -> String {
    let mut s = String::new();
    for q in &l.questions {
        s += &format!("{:<28} {:<8} {}\n", q.id, q.kind, q.tags.join(","));
        if let Some(g) = q.generator {
            s += &format!("{:<38}(generated: {g})\n", "");
        }
    }
    s + &format!("{} questions\n", l.questions.len())
}

/// `--reveal`: every question for the seed, with its answer.
pub fn reveal(r: &Reveal, style: &Style) -> String {
    let mut s = format!("Instructor view (seed {})\n\n", r.seed);
    let of = r.questions.len();
    for (i, q) in r.questions.iter().enumerate() {
        s += &question_text(
            i + 1,
            of,
            &q.id,
            &q.tags,
            Body {
                prompt: &q.prompt,
                choices: &q.choices,
                rules: &q.rules,
            },
            style,
        );
        s += &wrap_line(
            &format!("Answer: {}", answer_display(&q.answer)),
            "  ",
            style.width,
        );
        s += "\n";
        s += &explanation_text(&q.explanation, "", style);
        s += "\n";
    }
    s
}

/// A status word, coloured when colour is on and padded to `width`.
fn status_word(st: Status, width: usize, style: &Style) -> String {
    let word = format!("{:<width$}", st.as_str());
    let (head, pad) = word.split_at(st.as_str().len());
    let head = match st {
        Status::Right => style.good(head),
        Status::Partial | Status::Unanswered => style.warn(head),
        Status::Wrong | Status::FormatError => style.bad(head),
    };
    head + pad
}

/// Continuation lines of a result, under its id.
const RESULT_INDENT: &str = "              ";

fn result_line(o: &Outcome, style: &Style) -> String {
    let given = o.answer.as_deref().unwrap_or("-");
    let mut s = format!("{:<28} {} (answer: {given}", o.id, o.score);
    if let (false, Some(e)) = (o.status == Status::Right, &o.expected) {
        s += &format!("; expected: {}", answer_display(e));
    }
    s += ")";
    let width = style.width.saturating_sub(RESULT_INDENT.len());
    let body = wrap_line(&s, "  ", width).replace('\n', &format!("\n{RESULT_INDENT}"));
    let mut s = format!("{} {body}\n", status_word(o.status, 13, style));
    let message = match (&o.location, o.message.is_empty()) {
        (Some(at), _) => format!("{at}: {}", o.message),
        (None, false) => o.message.clone(),
        (None, true) => String::new(),
    };
    if !message.is_empty() {
        s += &wrap_line(
            &format!("{RESULT_INDENT}{message}"),
            RESULT_INDENT,
            style.width,
        );
        s += "\n";
    }
    if matches!(
        o.status,
        Status::Wrong | Status::Partial | Status::FormatError
    ) && !o.explanation.is_empty()
    {
        s += &explanation_text(&o.explanation, RESULT_INDENT, style);
    }
    s
}

/// `--answers`: per-question results (with the explanation of every answer
/// that is not right), then the score.
pub fn results(r: &Results, style: &Style) -> String {
    let mut s = format!("Quiz results (seed {})\n", r.seed);
    for o in &r.summary.questions {
        s += &result_line(o, style);
    }
    s + &summary_line(&r.summary) + "\n"
}

/// The opening line of an interactive quiz.
pub fn intro(i: &Intro, style: &Style) -> String {
    let title = i
        .title
        .as_deref()
        .map_or(String::new(), |t| format!(" ({t})"));
    let s = if i.missed {
        format!(
            "Quiz {}{title}: the {} question(s) not right last time, seed {seed}.\n",
            i.chapter,
            i.questions,
            seed = i.seed
        )
    } else {
        format!(
            "Quiz {}{title}: {} questions, seed {seed} (repeat with --seed {seed}).\n",
            i.chapter,
            i.questions,
            seed = i.seed
        )
    };
    style.wrap(&s) + "\n"
}

/// After a quiz whose result was kept: how to be asked again what was not
/// right (nothing when all was); `state` is the `--state` file, if one was
/// named.
pub fn kept(last: &LastResult, state: Option<&str>) -> String {
    if last.missed.is_empty() {
        return String::new();
    }
    format!(
        "Ask the {} not right again with: course quiz {} --missed{}\n",
        match last.missed.len() {
            1 => "one".to_string(),
            n => n.to_string(),
        },
        last.chapter,
        state.map_or(String::new(), |s| format!(" --state {s}"))
    )
}

/// `--missed` when the last quiz had every question right.
pub fn nothing_missed(n: &NothingMissed) -> String {
    format!(
        "Nothing to ask again: every question of the last chapter {} quiz (seed {}) was right.\n",
        n.chapter, n.seed
    )
}

/// A question as the student sees it: header, prompt, choices.
pub fn question(q: &Asked, style: &Style) -> String {
    question_text(
        q.number,
        q.of,
        &q.id,
        &q.tags,
        Body {
            prompt: &q.prompt,
            choices: &q.choices,
            rules: &q.rules,
        },
        style,
    )
}

/// The prompt for a reply, with how to write one.
pub fn answer_prompt(q: &Asked) -> String {
    format!("Your answer ({}): ", q.syntax)
}

/// An unreadable reply: why; the prompt that follows shows the syntax.
pub fn retry(r: &Retry, style: &Style) -> String {
    let s = format!(
        "Cannot read that: {}. Try again.\n",
        r.message.trim_end_matches('.')
    );
    style.wrap(&s)
}

/// Input ended before the last question.
pub fn input_ended(e: &InputEnded) -> String {
    format!("Input ended: {} question(s) left unanswered.\n\n", e.left)
}

/// The feedback after a reply: verdict, the right answer, the explanation.
pub fn feedback(f: &Feedback, style: &Style) -> String {
    let o = &f.outcome;
    let answer = o
        .expected
        .as_ref()
        .map_or_else(|| "withheld".to_string(), answer_display);
    let verdict = match o.status {
        Status::Right => style.good("Right."),
        Status::Partial => format!(
            "{} ({} point; {}). The answer is {answer}.",
            style.warn("Partly right"),
            o.score,
            o.message
        ),
        Status::Wrong => format!("{} The answer is {answer}.", style.bad("Wrong.")),
        Status::FormatError => format!(
            "{} {}. The answer is {answer}.",
            style.bad("Format error:"),
            o.message
        ),
        Status::Unanswered => format!("Not answered. The answer is {answer}."),
    };
    format!(
        "{}\n{}\n",
        wrap_line(&verdict, "  ", style.width),
        explanation_text(&f.explanation, "", style)
    )
}

/// The end of an interactive quiz: the score, and what to review.
pub fn summary(s: &Summary, style: &Style) -> String {
    let mut out = summary_line(s) + "\n";
    let missed: Vec<&str> = s
        .questions
        .iter()
        .filter(|o| o.status != Status::Right)
        .map(|o| o.id.as_str())
        .collect();
    if !missed.is_empty() {
        out += &style.wrap(&format!("To review: {}\n", missed.join(", ")));
    }
    out
}

/// `--check-bank`: `ok` with the figures, or every mistake and their count.
pub fn bank_check(c: &BankCheck) -> String {
    match c {
        BankCheck::Valid {
            generated,
            origin,
            questions,
            tags,
        } => format!(
            "{origin}: ok, {questions} questions ({generated} generated), tags: {}\n",
            tags.join(", ")
        ),
        BankCheck::Mistakes {
            diagnostics,
            origin,
        } => format!(
            "{diagnostics}\n{origin}: {} mistake(s)\n",
            diagnostics.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_for_people() {
        assert_eq!(score_text(Ratio::int(17)), "17");
        assert_eq!(score_text(Ratio::new(35, 2)), "17.5");
        assert_eq!(score_text(Ratio::new(50, 3)), "16.67");
        assert_eq!(score_text(Ratio::new(15, 4)), "3.75");
    }

    #[test]
    fn answers_are_displayed_with_their_choice_text() {
        let e = Expected::Multiple {
            choices: vec!["x".into(), "y".into(), "z".into()],
            answers: [0, 2].into(),
        };
        assert_eq!(answer_display(&e), "a) x; c) z");
        let n = Expected::Number {
            value: Ratio::new(5, 2),
            tolerance: Ratio::int(0),
        };
        assert_eq!(answer_display(&n), "5/2 = 2.5");
    }
}
