//! The last hint of the mii, rthroughput and modulo drills: the method
//! worked on another small loop of the same machine (four or five
//! operations, labelled `p`, `q`, … so that no line reads like one of the
//! student's), drawn from a seed of its own until none of the figures it
//! shows is a value of the student's answer.

use course_engine::engine::mii::{self, Bounds};
use course_engine::formats::answer;
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::ratio::Ratio;

use super::generated;
use crate::generate::{GenParams, Span};

/// How many loops are tried for one whose figures avoid the answer's.
pub const TRIES: u64 = 512;

/// The labels of an example's operations, in order.
const LABELS: [&str; 6] = ["p", "q", "s", "t", "u", "v"];

/// A small loop of `m` with at least one recurrence, for the problem of
/// `seed`, whose worked text (`render`) has no number equal to a value of
/// `avoid` (`6/2` counts as 3; `render` returns an empty text for a loop
/// it does not want); `None` when no loop of [`TRIES`] has one.
pub fn small_loop(
    m: &Machine,
    seed: u64,
    avoid: &[Ratio],
    render: impl Fn(&Program, &Bounds) -> String,
) -> Option<String> {
    small(m, seed, Kind::Loop, avoid, render)
}

/// [`small_loop`] for a basic block (the list-schedule drill's).
pub fn small_block(
    m: &Machine,
    seed: u64,
    render: impl Fn(&Program, &Bounds) -> String,
) -> Option<String> {
    small(m, seed, Kind::Block, &[], render)
}

fn small(
    m: &Machine,
    seed: u64,
    kind: Kind,
    avoid: &[Ratio],
    render: impl Fn(&Program, &Bounds) -> String,
) -> Option<String> {
    let mut params = match kind {
        Kind::Loop => GenParams::loop_default(),
        Kind::Block => GenParams::block_default(),
    };
    params.ops = Span { min: 4, max: 5 };
    if kind == Kind::Loop {
        params.min_recurrences = 1;
    }
    for k in 0..TRIES {
        let s = seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0xE8A3_91C5 + k);
        let p = generated(m, &params, s, kind);
        let b = mii::analyze(&p, m);
        if kind == Kind::Loop && b.recurrence.is_none() {
            continue;
        }
        let text = render(&p, &b);
        // An empty text: `render` does not want this loop.
        if !text.is_empty() && !mentions(&text, avoid) {
            return Some(text);
        }
    }
    None
}

/// Whether `text` has a number equal to one of `values`.
pub fn mentions(text: &str, values: &[Ratio]) -> bool {
    words(text).any(|w| answer::number(w).is_ok_and(|v| values.contains(&v)))
}

/// The words of `text` that are values: numbers (`12`, `5/2`, `2.5`),
/// not the digits of a name (`r12`).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '/' || c == '.' || c == '_'))
        .map(|w| w.trim_matches('.'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
}

/// An example operation's label.
pub fn label(p: &Program, x: course_engine::model::ids::OpId) -> &'static str {
    let _ = p;
    LABELS[x.index() % LABELS.len()]
}

/// The loop on one line: `p: r1 = load [x]; q: r2 = mul r1, 3; …`.
pub fn listing(p: &Program) -> String {
    p.op_ids()
        .map(|x| format!("{}: {}", label(p, x), p.op(x).text()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `U/cap: issue 5/2, mem 2/1, …`: each used resource's usage over its
/// capacity, as one word each.
pub fn usage(m: &Machine, b: &Bounds) -> String {
    let parts: Vec<String> = m
        .resource_ids()
        .filter(|r| b.usage[r.index()] > 0)
        .map(|r| {
            format!(
                "{} {}/{}",
                m.resource(r).name,
                b.usage[r.index()],
                m.resource(r).capacity
            )
        })
        .collect();
    format!("U/cap: {}", parts.join(", "))
}

/// The critical recurrence of `b` in example labels: `q → s → q`.
pub fn recurrence(p: &Program, b: &Bounds) -> String {
    let Some(r) = &b.recurrence else {
        return "none".into();
    };
    let ops = r.ops(p);
    let mut names: Vec<&str> = ops.iter().map(|&o| label(p, o)).collect();
    if let Some(first) = names.first().copied() {
        names.push(first);
    }
    names.join(" → ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_example_avoids_every_value_it_is_given() {
        let m = Machine::toy();
        for seed in 1..=30 {
            let avoid = [Ratio::int(2), Ratio::int(3), Ratio::int(4)];
            let text = small_loop(&m, seed, &avoid, |p, b| {
                format!("{} · {} · MII {}", listing(p), usage(&m, b), b.mii)
            })
            .expect("an example");
            assert!(!mentions(&text, &avoid), "{text}");
            assert!(mentions("issue 6/2", &avoid));
            assert!(text.starts_with("p: "), "{text}");
        }
        assert_eq!(
            words("r12 = mul r3, 16; 5/2 or 2.5.").collect::<Vec<_>>(),
            ["16", "5/2", "2.5"]
        );
    }
}
