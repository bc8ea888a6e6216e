//! One path through the chapter's drills, in the order of Lesson 23.1's
//! sections (forbidden latencies and hazard automata, then list
//! scheduling, then the loop bounds and modulo scheduling, then
//! RThroughput), and where a student is on it, read from the review log
//! alone: a step is done once a drill of its kind was answered right
//! without its solution shown first. `course start`, `course next` and
//! `course watch` walk it with one exercise file per step.

use serde::Serialize;

use crate::drill::Drill;
use crate::review_log::{Origin, Review, SOLUTION_VIEWED, drill_seed};

/// The drills of the path, in the lesson's order.
pub const PATH: [Drill; 7] = [
    Drill::Forbidden,
    Drill::Hazard,
    Drill::Automaton,
    Drill::ListSchedule,
    Drill::Mii,
    Drill::Modulo,
    Drill::Rthroughput,
];

/// One step: the drill and the seed of its problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 1-based place on the path.
    pub number: usize,
    pub drill: Drill,
    pub seed: u64,
}

impl Step {
    /// The exercise file's name: `3-automaton-seed-1.txt`.
    pub fn file_name(&self) -> String {
        format!(
            "{}-{}-seed-{}.txt",
            self.number,
            self.drill.name(),
            self.seed
        )
    }
}

/// Where a student is on the path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// Steps done.
    pub done: usize,
    /// Steps in all.
    pub total: usize,
    /// The next step; `None` when the chapter's path is done.
    pub next: Option<Step>,
}

/// The position of `who` (everyone's reviews when `None`) on the path:
/// the first step whose drill has no right answer of its own; its seed is
/// the smallest whose solution was not shown (a problem whose solution was
/// read is not practice any more).
pub fn position(reviews: &[Review], who: Option<&str>) -> Position {
    let mut sorted: Vec<&Review> = reviews
        .iter()
        .filter(|r| r.origin == Origin::Drill && who.is_none_or(|w| r.who == w))
        .collect();
    sorted.sort_by_key(|r| (r.day, r.time));
    let mut done = 0;
    for (i, d) in PATH.iter().enumerate() {
        // A set: a log may hold a million markers.
        let mut shown = std::collections::BTreeSet::new();
        let mut right = false;
        for r in &sorted {
            let Some(seed) = drill_seed(&r.item, d.name()) else {
                continue;
            };
            if r.kind == SOLUTION_VIEWED {
                shown.insert(seed);
            } else if r.right && !shown.contains(&seed) {
                right = true;
            }
        }
        if right {
            done += 1;
            continue;
        }
        let seed = (1..).find(|s| !shown.contains(s)).unwrap_or(1);
        return Position {
            done,
            total: PATH.len(),
            next: Some(Step {
                number: i + 1,
                drill: *d,
                seed,
            }),
        };
    }
    Position {
        done,
        total: PATH.len(),
        next: None,
    }
}

/// Whether an exercise file holds an answer yet: a line that is not
/// blank and not a `#` comment.
pub fn has_answer(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::Date;
    use crate::review_log::{Topic, solution_marker};

    fn right(item: &str, time: i64) -> Review {
        let d = Date::parse("2026-04-01").unwrap();
        Review::new(d, time, "ada", Origin::Drill, item, "x", true, "-")
    }

    #[test]
    fn the_path_moves_on_a_right_answer_not_one_after_the_solution() {
        let p = position(&[], Some("ada"));
        assert_eq!((p.done, p.total), (0, 7));
        assert_eq!(
            p.next.map(|s| s.file_name()).unwrap(),
            "1-forbidden-seed-1.txt"
        );
        let d = Date::parse("2026-04-01").unwrap();
        let log = vec![
            right("forbidden:1", 1),
            solution_marker("hazard:1", Topic::HazardAutomata, "ada", d, 2),
            right("hazard:1", 3),
        ];
        let p = position(&log, Some("ada"));
        assert_eq!(p.done, 1);
        // The solution of seed 1 was read: the step is seed 2 now.
        assert_eq!(
            p.next,
            Some(Step {
                number: 2,
                drill: Drill::Hazard,
                seed: 2
            })
        );
        let all: Vec<Review> = PATH
            .iter()
            .enumerate()
            .map(|(i, d)| right(&format!("{}:5", d.name()), i as i64))
            .collect();
        let p = position(&all, None);
        assert_eq!((p.done, p.next), (7, None));
        // Someone else's answers do not move ada.
        assert_eq!(position(&all, Some("bob")).done, 0);
        assert!(!has_answer("# course drill mii --seed 1\n#  a: x\n\n  \n"));
        assert!(has_answer("# course drill mii --seed 1\nmii 3\n"));
    }
}
