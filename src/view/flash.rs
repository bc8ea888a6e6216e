//! `course flash` as text: the card list, the review session's prompts and
//! feedback, and deck checks, each a function of a typed value in
//! [`crate::content::flash`].

use crate::content::flash::{
    CardBack, CardFront, CardList, CardState, DeckCheck, NotARating, NothingDue, ReviewEnd,
    ReviewStart,
};

/// The question after a card's answer is shown.
pub const RATING_PROMPT: &str = "How did it go? again/hard/good/easy (0-3, q stops): ";

/// Continuation lines of a multi-line front or back, under its `Q: `/`A: `.
fn indent(s: &str) -> String {
    s.lines().collect::<Vec<_>>().join("\n   ")
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
pub fn start(s: &ReviewStart) -> String {
    format!(
        "Flashcards {}: {} card(s) to review ({} due on {}); state: {}\n\n",
        s.chapter, s.cards, s.due, s.today, s.state
    )
}

/// A card's header and front, then the prompt to show its back.
pub fn front(f: &CardFront) -> String {
    let status = match &f.state {
        None => "new".to_string(),
        Some(s) => format!("box {}, due {}", s.leitner_box, s.due),
    };
    format!(
        "[{}/{}] {} ({}) - {status}\nQ: {}\n(Enter shows the answer) ",
        f.number,
        f.of,
        f.id,
        f.tags.join(", "),
        indent(&f.front)
    )
}

/// A card's back.
pub fn back(b: &CardBack) -> String {
    format!("A: {}\n", indent(&b.back))
}

/// A reply that is not a rating.
pub fn not_a_rating(n: &NotARating) -> String {
    format!("`{}` is not a rating.\n", n.reply)
}

/// Where a rated card went.
pub fn scheduled(next: &CardState) -> String {
    format!("-> box {}, next review {}\n\n", next.leitner_box, next.due)
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
