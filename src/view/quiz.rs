//! `course quiz` as text: the listing, the instructor view, graded answer
//! files, the interactive session and bank checks, each a function of the
//! typed value in [`crate::content::quiz`].

use crate::content::quiz::{
    Asked, BankCheck, Expected, Feedback, InputEnded, Intro, Outcome, QuestionList, Results, Retry,
    Reveal, Status, Summary,
};
use crate::formats::answer::letter;
use crate::util::ratio::Ratio;

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

/// Header, prompt and lettered choices of question `n` of `of`.
fn question_text(
    n: usize,
    of: usize,
    id: &str,
    tags: &[String],
    prompt: &str,
    choices: &[String],
) -> String {
    let mut s = format!("Question {n}/{of} [{id}] ({})\n{prompt}\n", tags.join(", "));
    for (i, c) in choices.iter().enumerate() {
        s += &format!("  {}) {c}\n", letter(i));
    }
    s
}

/// The explanation, indented under `Why:`.
fn explanation_text(explanation: &str) -> String {
    let mut s = String::from("Why:");
    for l in explanation.lines() {
        s += "\n  ";
        s += l;
    }
    s + "\n"
}

/// `--list`: id, kind, tags, generator; then the count.
pub fn list(l: &QuestionList) -> String {
    let mut s = String::new();
    for q in &l.questions {
        let gen = q
            .generator
            .map_or(String::new(), |g| format!("  (generated: {g})"));
        s += &format!("{:<28} {:<8} {}{gen}\n", q.id, q.kind, q.tags.join(","));
    }
    s + &format!("{} questions\n", l.questions.len())
}

/// `--reveal`: every question for the seed, with its answer.
pub fn reveal(r: &Reveal) -> String {
    let mut s = format!("Instructor view (seed {})\n\n", r.seed);
    let of = r.questions.len();
    for (i, q) in r.questions.iter().enumerate() {
        s += &question_text(i + 1, of, &q.id, &q.tags, &q.prompt, &q.choices);
        s += &format!("Answer: {}\n", answer_display(&q.answer));
        s += &explanation_text(&q.explanation);
        s += "\n";
    }
    s
}

fn result_line(o: &Outcome) -> String {
    let given = o.answer.as_deref().unwrap_or("-");
    let mut s = format!(
        "{:<13} {:<28} {} (answer: {given}",
        o.status.as_str(),
        o.id,
        o.score
    );
    if o.status != Status::Right {
        s += &format!("; expected: {}", answer_display(&o.expected));
    }
    s += ")";
    if !o.message.is_empty() {
        s += &format!("\n              {}", o.message);
    }
    s + "\n"
}

/// `--answers`: per-question results, then the score.
pub fn results(r: &Results) -> String {
    let mut s = format!("Quiz results (seed {})\n", r.seed);
    for o in &r.summary.questions {
        s += &result_line(o);
    }
    s + &summary_line(&r.summary) + "\n"
}

/// The opening line of an interactive quiz.
pub fn intro(i: &Intro) -> String {
    let title = i
        .title
        .as_deref()
        .map_or(String::new(), |t| format!(" ({t})"));
    format!(
        "Quiz {}{title}: {} questions, seed {seed} (repeat with --seed {seed}).\n\n",
        i.chapter,
        i.questions,
        seed = i.seed
    )
}

/// A question as the student sees it: header, prompt, choices.
pub fn question(q: &Asked) -> String {
    question_text(q.number, q.of, &q.id, &q.tags, &q.prompt, &q.choices)
}

/// The prompt for a reply, with how to write one.
pub fn answer_prompt(q: &Asked) -> String {
    format!("Your answer ({}): ", q.kind.answer_hint())
}

/// An unreadable reply, asked again.
pub fn retry(r: &Retry) -> String {
    format!("Cannot read that: {}. Try once more.\n", r.message)
}

/// Input ended before the last question.
pub fn input_ended(e: &InputEnded) -> String {
    format!("Input ended: {} question(s) left unanswered.\n\n", e.left)
}

/// The feedback after a reply: verdict, the right answer, the explanation.
pub fn feedback(f: &Feedback) -> String {
    let o = &f.outcome;
    let answer = answer_display(&o.expected);
    let verdict = match o.status {
        Status::Right => "Right.".to_string(),
        Status::Partial => format!(
            "Partly right ({} point; {}). The answer is {answer}.",
            o.score, o.message
        ),
        Status::Wrong => format!("Wrong. The answer is {answer}."),
        Status::FormatError => format!("Format error: {}. The answer is {answer}.", o.message),
        Status::Unanswered => format!("Not answered. The answer is {answer}."),
    };
    format!("{verdict}\n{}\n", explanation_text(&f.explanation))
}

/// The end of an interactive quiz: the score, and what to review.
pub fn summary(s: &Summary) -> String {
    let mut out = summary_line(s) + "\n";
    let missed: Vec<&str> = s
        .questions
        .iter()
        .filter(|o| o.status != Status::Right)
        .map(|o| o.id.as_str())
        .collect();
    if !missed.is_empty() {
        out += &format!("To review: {}\n", missed.join(", "));
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
