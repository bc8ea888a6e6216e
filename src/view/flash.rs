//! `course flash` as text: the card list, the review session's prompts and
//! feedback, and deck checks, each a function of a typed value in
//! [`course_content::flash`]. Fronts and backs are wrapped to the
//! [`Style`]'s width; where a rated card went is coloured when it says so.

use crate::view::style::Style;
use course_content::flash::{
    CardBack, CardFront, CardList, CardState, DeckCheck, NotARating, NothingDue, ReviewEnd,
    ReviewStart,
};
use course_content::text::wrap_line;

/// The question after a card's answer is shown.
pub const RATING_PROMPT: &str = "How did it go? again/hard/good/easy (0-3, q stops): ";

/// A front or back after its `Q: `/`A: `, wrapped, continuation lines
/// under its text.
fn indent(s: &str, style: &Style) -> String {
    let inner = Style {
        width: style.width.saturating_sub(3),
        ..*style
    };
    inner
        .wrap(s)
        .lines()
        .collect::<Vec<_>>()
        .join("\n   ")
        .replace("\n   \n", "\n\n")
}

/// `--list`: a `*` on due cards, box and due date, tags; then the counts.
pub fn list(l: &CardList) -> String {
    let mut s = String::new();
    for c in &l.cards {
        let (b, due) = match &c.state {
            Some(cs) => (cs.leitner_box.to_string(), cs.due.clone()),
            None => ("-".into(), "new".into()),
        };
        let mark = if c.due_now { "*" } else { " " };
        s += &format!(
            "{mark} {:<24} box {b:<2} due {due:<10} {}\n",
            c.id,
            c.tags.join(",")
        );
    }
    s + &format!(
        "{} cards, {} due on {} (*)\n",
        l.cards.len(),
        l.due,
        l.today
    )
}

/// Nothing to review, and when something will be.
pub fn nothing_due(n: &NothingDue) -> String {
    let when = n
        .next
        .map_or(String::new(), |d| format!("; the next card is due {d}"));
    format!(
        "Nothing is due on {}{when}. Use --all to review anyway.\n",
        n.today
    )
}

/// The opening line of a review.
pub fn start(s: &ReviewStart, style: &Style) -> String {
    let line = format!(
        "Flashcards {}: {} card(s) to review ({} due on {}).",
        s.chapter, s.cards, s.due, s.today
    );
    format!(
        "{}\nState: {}\n\n",
        wrap_line(&line, "  ", style.width),
        s.state
    )
}

/// A card's header and front, then the prompt to show its back.
pub fn front(f: &CardFront, style: &Style) -> String {
    let status = match &f.state {
        None => "new".to_string(),
        Some(s) => format!("box {}, due {}", s.leitner_box, s.due),
    };
    let header = format!(
        "[{}/{}] {} ({}) - {status}",
        f.number,
        f.of,
        f.id,
        f.tags.join(", ")
    );
    format!(
        "{}\nQ: {}\n(Enter shows the answer) ",
        wrap_line(&header, "  ", style.width),
        indent(&f.front, style)
    )
}

/// A card's back.
pub fn back(b: &CardBack, style: &Style) -> String {
    format!("A: {}\n", indent(&b.back, style))
}

/// A reply that is not a rating.
pub fn not_a_rating(n: &NotARating) -> String {
    if n.reply.is_empty() {
        "Type a rating: again, hard, good or easy (or 0-3); q stops.\n".into()
    } else {
        format!(
            "`{}` is not a rating.\n",
            course_engine::formats::answer::shorten(&n.reply)
        )
    }
}

/// Where a rated card went (already saved): red when it comes back today,
/// green when it moved on.
pub fn scheduled(next: &CardState, style: &Style) -> String {
    let line = format!("-> box {}, next review {}", next.leitner_box, next.due);
    let line = if next.due == next.last {
        style.bad(&format!("{line} (again in this session)"))
    } else {
        style.good(&line)
    };
    format!("{line}\n\n")
}

/// The end of a review.
pub fn end(e: &ReviewEnd) -> String {
    format!(
        "Reviewed {} card(s); {} still due on {}.\n",
        e.reviewed, e.left, e.today
    )
}

/// `--check-bank` on a deck: `ok` with the figures, or every mistake.
pub fn deck_check(c: &DeckCheck) -> String {
    match c {
        DeckCheck::Valid {
            cards,
            origin,
            tags,
        } => format!("{origin}: ok, {cards} cards, tags: {}\n", tags.join(", ")),
        DeckCheck::Mistakes {
            diagnostics,
            origin,
        } => format!(
            "{diagnostics}\n{origin}: {} mistake(s)\n",
            diagnostics.len()
        ),
    }
}
