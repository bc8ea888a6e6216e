//! Text of `course progress` and `course practice` (the values are
//! [`course_content::progress`]'s), within 80 columns.

use std::fmt::Write;

use course_content::path::Position;
use course_content::progress::{Practice, Progress, RECENT, Tally, TopicProgress};

fn percent(t: &Tally) -> String {
    t.percent().map_or_else(|| "-".into(), |p| format!("{p} %"))
}

/// Where the student is on the chapter's path.
pub fn path_line(p: &Position) -> String {
    match p.next {
        Some(step) => format!(
            "Path through the chapter: {} of {} steps done; next, step {}: drill {} \
             (seed {}): `course next` writes it.",
            p.done,
            p.total,
            step.number,
            step.drill.name(),
            step.seed
        ),
        None => format!(
            "Path through the chapter: all {} steps done; `course practice` picks what \
             to practise next.",
            p.total
        ),
    }
}

fn whose(who: Option<&str>) -> String {
    who.map_or_else(String::new, |w| format!(" of {w}"))
}

fn mistakes(t: &TopicProgress) -> String {
    let parts: Vec<String> = t
        .mistakes
        .iter()
        .map(|k| format!("{} {}", k.kind, k.count))
        .collect();
    parts.join(", ")
}

/// `course progress`: a line per topic, and under each topic with wrong
/// reviews the mistakes made most.
pub fn progress_text(p: &Progress) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Progress{} on {}: {} attempt(s), {} right ({}).",
        whose(p.who.as_deref()),
        p.today,
        p.total.attempts,
        p.total.right,
        percent(&p.total)
    );
    let _ = writeln!(s, "{}", path_line(&p.path));
    let _ = writeln!(
        s,
        "Trend: the last {RECENT} attempts of a topic against those before.\n"
    );
    let _ = writeln!(
        s,
        "{:<20} {:>8} {:>6} {:>8} {:>7}  {:<6} {:>3}  due",
        "topic", "attempts", "right", "last 10", "before", "trend", "box"
    );
    for t in &p.topics {
        let tried = t.tally.attempts > 0;
        let due = match t.due {
            Some(d) if d <= p.today => "now".to_string(),
            Some(d) => d.to_string(),
            None => "now".to_string(),
        };
        let _ = writeln!(
            s,
            "{:<20} {:>8} {:>6} {:>8} {:>7}  {:<6} {:>3}  {due}",
            t.label,
            t.tally.attempts,
            percent(&t.tally),
            percent(&t.trend.recent),
            percent(&t.trend.before),
            if tried { t.trend_word } else { "-" },
            if tried {
                t.leitner_box.to_string()
            } else {
                "-".into()
            }
        );
        if t.hints + t.solutions > 0 {
            let _ = writeln!(
                s,
                "    help used: {} hint(s), {} solution(s) shown (a right answer after its solution is not counted right)",
                t.hints, t.solutions
            );
        }
        if !t.mistakes.is_empty() {
            let _ = writeln!(s, "    mistakes made most: {}", mistakes(t));
        }
    }
    s
}

/// `course practice`: the topic, why, and the command to run.
pub fn practice_text(p: &Practice) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Practise {} next ({}{}):",
        p.pick.label,
        p.who
            .as_deref()
            .map_or_else(String::new, |w| format!("{w}, ")),
        p.today
    );
    let _ = writeln!(s, "{}.\n", p.why);
    let _ = writeln!(s, "  {}\n", p.pick.command);
    let t = &p.progress;
    if t.tally.attempts > 0 {
        let _ = writeln!(
            s,
            "So far: {} attempt(s), {} right ({}); box {} of 5.",
            t.tally.attempts,
            t.tally.right,
            percent(&t.tally),
            t.leitner_box
        );
        if !t.mistakes.is_empty() {
            let _ = writeln!(s, "Mistakes made most: {}.", mistakes(t));
        }
    }
    let then = if p.pick.drill.is_some() {
        "Then check your answer with --check"
    } else {
        "Answer the questions"
    };
    let _ = writeln!(s, "{then}; a topic right again waits longer.");
    s
}
