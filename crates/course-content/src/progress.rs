//! `course progress` and `course practice` as pure functions of the review
//! log ([`crate::review_log`]) and the day: per topic of Lesson
//! 23.1, how many attempts, how many right, the mistakes made most and a
//! trend; and the next drill to practise, on the weakest topic that is due.
//!
//! Spacing is the flashcards' ([`crate::flash::schedule`]): every
//! topic is a card rated once a day, replayed in log order: a day of right
//! answers only is `good`, a day of wrong ones only `again`, a day with
//! both `hard` (the box kept). So a topic right on several days running
//! climbs the Leitner boxes and waits 2, 4, 8, 16 days (twenty right
//! answers in one sitting move it one box), and a topic got wrong on a
//! day with nothing right is due at once. Among the due topics
//! the weakest is the one with the lowest share right in its last
//! [`RECENT`] reviews (a topic never tried counts as half right: no sign
//! yet either way), then the one in the lowest box, then the most overdue,
//! then the lesson's order.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::drill::Drill;
use crate::flash::{CardState, Date, Rating, schedule};
use crate::review_log::{Origin, Review, Topic, drill_seed};

/// How many of a topic's latest reviews its trend and its weakness count.
pub const RECENT: usize = 10;

/// How many mistake kinds a topic lists (the most frequent).
pub const TOP_MISTAKES: usize = 3;

/// One kind of mistake and how often it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindCount {
    pub count: usize,
    pub kind: String,
}

/// Right answers out of attempts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub attempts: usize,
    pub right: usize,
}

impl Tally {
    fn add(&mut self, right: bool) {
        self.attempts += 1;
        self.right += usize::from(right);
    }

    /// The share right in percent, rounded down; `None` without attempts.
    pub fn percent(&self) -> Option<usize> {
        (self.attempts > 0).then(|| self.right * 100 / self.attempts)
    }

    /// `self` is a smaller share right than `other` (no attempts count as
    /// half right).
    fn worse_than(&self, other: &Tally) -> bool {
        let (a, b) = (self.share(), other.share());
        a.0 * b.1 < b.0 * a.1
    }

    fn share(&self) -> (usize, usize) {
        if self.attempts == 0 {
            (1, 2)
        } else {
            (self.right, self.attempts)
        }
    }
}

/// The trend of a topic: its last [`RECENT`] reviews against those before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Trend {
    pub before: Tally,
    pub recent: Tally,
}

impl Trend {
    /// `up`, `down`, `steady`, or `new` when there is nothing before the
    /// recent reviews to compare with.
    pub fn word(&self) -> &'static str {
        if self.before.attempts == 0 || self.recent.attempts == 0 {
            return "new";
        }
        let (r, b) = (self.recent, self.before);
        let (x, y) = (r.right * b.attempts, b.right * r.attempts);
        match x.cmp(&y) {
            std::cmp::Ordering::Greater => "up",
            std::cmp::Ordering::Less => "down",
            std::cmp::Ordering::Equal => "steady",
        }
    }
}

/// One topic's figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopicProgress {
    /// Its Leitner box (1–5) as a card of [`schedule`]; 0 when never tried.
    #[serde(rename = "box")]
    pub leitner_box: u8,
    /// When it is due again; `None` when never tried.
    pub due: Option<Date>,
    pub label: String,
    /// The most frequent root-cause kinds of its wrong reviews, most first
    /// (ties by name), at most [`TOP_MISTAKES`].
    pub mistakes: Vec<KindCount>,
    pub tally: Tally,
    pub topic: String,
    pub trend: Trend,
    pub trend_word: &'static str,
    /// Hints shown on its drills.
    pub hints: usize,
    /// Solutions shown on its drills.
    pub solutions: usize,
}

/// `course progress`: every topic of the lesson (tried or not), then any
/// other topic the log names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Where `who` is on the chapter's path ([`crate::path`]).
    pub path: crate::path::Position,
    pub today: Date,
    pub topics: Vec<TopicProgress>,
    pub total: Tally,
    /// Whose reviews (`None`: everyone's in the log).
    pub who: Option<String>,
}

/// What a topic's reviews add up to.
#[derive(Default)]
struct Acc<'r> {
    /// The attempts, a right answer to an item whose solution was shown
    /// before counted as wrong (`after-solution`).
    reviews: Vec<std::borrow::Cow<'r, Review>>,
    card: Option<CardState>,
    hints: usize,
    solutions: usize,
}

/// The reviews by topic (lesson topics first, in order; then the others by
/// name), each topic's cards replayed.
fn by_topic<'r>(reviews: &'r [Review], who: Option<&str>) -> Vec<(String, Acc<'r>)> {
    let mut map: BTreeMap<(usize, String), Acc<'r>> = BTreeMap::new();
    for t in Topic::ALL {
        map.insert((t as usize, t.name().to_string()), Acc::default());
    }
    // In time order: appends of several processes (or clocks) need not be.
    let mut mine: Vec<&Review> = reviews
        .iter()
        .filter(|r| who.is_none_or(|w| r.who == w))
        .collect();
    mine.sort_by_key(|r| (r.day, r.time));
    // The items whose solution was shown, by whom.
    let mut seen: std::collections::BTreeSet<(&str, &str)> = Default::default();
    for r in mine {
        let key = match r.lesson_topic() {
            Some(t) => (t as usize, r.topic.clone()),
            None => (Topic::ALL.len(), r.topic.clone()),
        };
        let acc = map.entry(key).or_default();
        if r.kind == crate::review_log::SOLUTION_VIEWED {
            acc.solutions += 1;
            seen.insert((r.who.as_str(), r.item.as_str()));
            continue;
        }
        if let Some(n) = r.hints() {
            acc.hints += n;
            continue;
        }
        if r.right && seen.contains(&(r.who.as_str(), r.item.as_str())) {
            // Right after the solution was shown: not the student's own.
            let mut w = r.clone();
            w.right = false;
            w.kind = "after-solution".into();
            acc.reviews.push(std::borrow::Cow::Owned(w));
        } else {
            acc.reviews.push(std::borrow::Cow::Borrowed(r));
        }
    }
    for acc in map.values_mut() {
        acc.card = replay_days(&acc.reviews);
    }
    map.into_iter()
        .map(|((_, name), acc)| (name, acc))
        .collect()
}

/// A topic's card after its reviews (in time order), one rating a day as
/// the flashcards count a day: a day of right answers only is `good` (one
/// box up, however many), of wrong ones only `again`, and a day with both
/// `hard` (the box kept).
fn replay_days(reviews: &[std::borrow::Cow<'_, Review>]) -> Option<CardState> {
    let mut card = None;
    for day in reviews.chunk_by(|a, b| a.day == b.day) {
        let right = day.iter().filter(|r| r.right).count();
        let rating = match right {
            0 => Rating::Again,
            n if n == day.len() => Rating::Good,
            _ => Rating::Hard,
        };
        card = Some(schedule(card.as_ref(), rating, day[0].day));
    }
    card
}

fn topic_progress(name: String, acc: &Acc<'_>) -> TopicProgress {
    let mut tally = Tally::default();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &acc.reviews {
        tally.add(r.right);
        if !r.right {
            *kinds.entry(r.kind.as_str()).or_default() += 1;
        }
    }
    let mut mistakes: Vec<KindCount> = kinds
        .into_iter()
        .map(|(kind, count)| KindCount {
            count,
            kind: kind.to_string(),
        })
        .collect();
    mistakes.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.kind.cmp(&b.kind)));
    mistakes.truncate(TOP_MISTAKES);
    let split = acc.reviews.len().saturating_sub(RECENT);
    let mut trend = Trend::default();
    for (i, r) in acc.reviews.iter().enumerate() {
        if i < split {
            trend.before.add(r.right);
        } else {
            trend.recent.add(r.right);
        }
    }
    let label = Topic::from_name(&name).map_or_else(|| name.clone(), |t| t.label().to_string());
    TopicProgress {
        leitner_box: acc.card.as_ref().map_or(0, |c| c.leitner_box),
        due: acc.card.as_ref().and_then(CardState::due_date),
        label,
        mistakes,
        tally,
        topic: name,
        trend_word: trend.word(),
        trend,
        hints: acc.hints,
        solutions: acc.solutions,
    }
}

/// `course progress` over `reviews` (those of `who`, or everyone's).
pub fn progress(reviews: &[Review], who: Option<&str>, today: Date) -> Progress {
    let topics: Vec<TopicProgress> = by_topic(reviews, who)
        .into_iter()
        .map(|(name, acc)| topic_progress(name, &acc))
        .collect();
    let mut total = Tally::default();
    for t in &topics {
        total.attempts += t.tally.attempts;
        total.right += t.tally.right;
    }
    Progress {
        path: crate::path::position(reviews, who),
        today,
        topics,
        total,
        who: who.map(str::to_string),
    }
}

/// What to practise: a drill and its seed, or the quiz on a topic no drill
/// practises.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pick {
    /// The command to run.
    pub command: String,
    /// The drill's name, for a drill.
    pub drill: Option<&'static str>,
    pub label: String,
    /// The seed: a problem of the drill not in the log yet (the smallest
    /// from 1), or the quiz's.
    pub seed: u64,
    pub topic: &'static str,
}

/// `p` is weaker than `b`: a smaller share right recently, then a lower
/// box (never tried counts as box 1), then overdue longer (never tried
/// after tried).
fn weaker(p: &TopicProgress, b: &TopicProgress) -> bool {
    if p.trend.recent.worse_than(&b.trend.recent) {
        return true;
    }
    if b.trend.recent.worse_than(&p.trend.recent) {
        return false;
    }
    let (pb, bb) = (p.leitner_box.max(1), b.leitner_box.max(1));
    if pb != bb {
        return pb < bb;
    }
    match (p.due, b.due) {
        (Some(x), Some(y)) => x < y,
        (Some(_), None) => true,
        _ => false,
    }
}

/// `course practice`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Practice {
    /// The topic is due (else nothing was due and this is the one due
    /// first, practised ahead).
    pub due: bool,
    /// When the picked topic is due (`None`: never tried).
    pub due_on: Option<Date>,
    pub pick: Pick,
    /// Its figures, as `course progress` shows them.
    pub progress: TopicProgress,
    pub today: Date,
    /// Why this topic, in a sentence.
    pub why: String,
    pub who: Option<String>,
}

/// The drills that practise a topic (none for the topics only the quiz
/// and the flashcards cover).
pub fn drills_of(topic: Topic) -> Vec<Drill> {
    Drill::ALL
        .into_iter()
        .filter(|d| Topic::of_drill(*d) == topic)
        .collect()
}

/// The quiz chapter a quiz pick names.
pub const CHAPTER: u32 = 23;

/// `course practice` over `reviews` (those of `who`, or everyone's) on
/// `today`: the weakest due topic of the lesson and the next problem on
/// it. Deterministic: the same log and day give the same pick.
pub fn practice(reviews: &[Review], who: Option<&str>, today: Date) -> Practice {
    let topics: Vec<(Topic, TopicProgress, Acc<'_>)> = by_topic(reviews, who)
        .into_iter()
        .filter_map(|(name, acc)| {
            let t = Topic::from_name(&name)?;
            Some((t, topic_progress(name, &acc), acc))
        })
        .collect();
    let is_due = |p: &TopicProgress| p.due.is_none_or(|d| d <= today);
    let any_due = topics.iter().any(|(_, p, _)| is_due(p));
    // The weakest ([`weaker`]) among due topics, in lesson order on ties;
    // when none is due, the one due first.
    let mut best: Option<&(Topic, TopicProgress, Acc<'_>)> = None;
    for cand in &topics {
        let p = &cand.1;
        if any_due && !is_due(p) {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, b, _)) if !any_due => p.due < b.due,
            Some((_, b, _)) => weaker(p, b),
        };
        if better {
            best = Some(cand);
        }
    }
    let Some((topic, prog, acc)) = best else {
        // Unreachable: every lesson topic is listed; a fresh start.
        let t = Topic::ReservationTables;
        return practice_fallback(t, today, who);
    };
    let pick = pick_for(*topic, &acc.reviews);
    let why = match (prog.tally.attempts, any_due) {
        (0, _) => format!(
            "{} has not been practised yet, and no topic tried is doing worse",
            topic.label()
        ),
        (_, true) => {
            let recent = prog.trend.recent;
            format!(
                "{} is due and the weakest: box {} of 5, {} of its last {} right",
                topic.label(),
                prog.leitner_box,
                recent.right,
                recent.attempts
            )
        }
        (_, false) => format!(
            "nothing is due today; {} is due first ({})",
            topic.label(),
            prog.due.map_or_else(String::new, |d| d.to_string())
        ),
    };
    Practice {
        due: any_due,
        due_on: prog.due,
        pick,
        progress: prog.clone(),
        today,
        why,
        who: who.map(str::to_string),
    }
}

fn practice_fallback(t: Topic, today: Date, who: Option<&str>) -> Practice {
    let prog = topic_progress(t.name().to_string(), &Acc::default());
    Practice {
        due: true,
        due_on: None,
        pick: pick_for(t, &[]),
        progress: prog,
        today,
        why: format!("{} has not been practised yet", t.label()),
        who: who.map(str::to_string),
    }
}

/// The next problem on `topic`: its drill tried least (ties in drill
/// order) at the smallest seed from 1 not in the topic's reviews; a topic
/// without a drill gets the quiz on its tag, at a seed one past the number
/// of its quiz reviews.
fn pick_for(topic: Topic, reviews: &[std::borrow::Cow<'_, Review>]) -> Pick {
    let drills = drills_of(topic);
    let used = |d: Drill| -> Vec<u64> {
        reviews
            .iter()
            .filter(|r| r.origin == Origin::Drill)
            .filter_map(|r| drill_seed(&r.item, d.name()))
            .collect()
    };
    let chosen = drills
        .iter()
        .copied()
        .min_by_key(|d| (used(*d).len(), *d as usize));
    match chosen {
        Some(d) => {
            let mut seeds = used(d);
            seeds.sort_unstable();
            seeds.dedup();
            let mut seed = 1;
            for s in seeds {
                if s == seed {
                    seed += 1;
                } else if s > seed {
                    break;
                }
            }
            Pick {
                command: format!("course drill {} --seed {seed}", d.name()),
                drill: Some(d.name()),
                label: topic.label().to_string(),
                seed,
                topic: topic.name(),
            }
        }
        None => {
            let quizzes = reviews.iter().filter(|r| r.origin == Origin::Quiz).count();
            let seed = quizzes as u64 + 1;
            Pick {
                command: format!("course quiz {CHAPTER} --tag {} --seed {seed}", topic.name()),
                drill: None,
                label: topic.label().to_string(),
                seed,
                topic: topic.name(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    fn rev(d: &str, item: &str, topic: Topic, right: bool, kind: &str) -> Review {
        let origin = if item.contains(':') {
            Origin::Drill
        } else {
            Origin::Quiz
        };
        Review::new(day(d), 0, "ada", origin, item, topic.name(), right, kind)
    }

    /// A scripted history: list scheduling often wrong (order twice, latency
    /// once), MII right every time, one quiz answer on llvm-mca.
    fn history() -> Vec<Review> {
        vec![
            rev(
                "2026-01-01",
                "list-schedule:1",
                Topic::ListScheduling,
                false,
                "order",
            ),
            rev(
                "2026-01-01",
                "list-schedule:1",
                Topic::ListScheduling,
                false,
                "latency",
            ),
            rev(
                "2026-01-02",
                "list-schedule:2",
                Topic::ListScheduling,
                false,
                "order",
            ),
            rev(
                "2026-01-02",
                "list-schedule:3",
                Topic::ListScheduling,
                true,
                "-",
            ),
            rev("2026-01-01", "mii:1", Topic::Mii, true, "-"),
            rev("2026-01-03", "mii:2", Topic::Mii, true, "-"),
            rev("2026-01-03", "q-mca", Topic::LlvmMca, false, "number-wrong"),
        ]
    }

    #[test]
    fn solutions_and_hints_are_counted_and_a_right_answer_after_the_solution_is_not() {
        use crate::review_log::{hints_marker, solution_marker};
        let d = day("2026-03-01");
        let log = vec![
            hints_marker("mii:4", Topic::Mii, 2, "ada", d, 0),
            rev("2026-03-01", "mii:4", Topic::Mii, true, "-"),
            solution_marker("mii:5", Topic::Mii, "ada", d, 0),
            rev("2026-03-01", "mii:5", Topic::Mii, true, "-"),
        ];
        let p = progress(&log, None, d);
        let t = p.topics.iter().find(|t| t.topic == "mii").unwrap();
        assert_eq!((t.hints, t.solutions), (2, 1));
        // Two attempts, the markers none; the one after the solution is wrong.
        assert_eq!(
            t.tally,
            Tally {
                attempts: 2,
                right: 1
            }
        );
        assert_eq!(t.mistakes[0].kind, "after-solution");
        // A day with a right and a not-right answer keeps the box.
        assert_eq!(t.leitner_box, 1);
    }

    #[test]
    fn one_day_moves_a_topic_one_box_at_most() {
        // Twenty right quiz answers in one sitting: one box up.
        let mut day1: Vec<Review> = (0..20)
            .map(|i| rev("2026-02-01", &format!("q-{i}"), Topic::LlvmMca, true, "-"))
            .collect();
        let p = progress(&day1, None, day("2026-02-01"));
        let t = |p: &Progress| {
            let t = p.topics.iter().find(|t| t.topic == "llvm-mca").unwrap();
            (t.leitner_box, t.due)
        };
        let one = t(&p);
        assert_eq!(one.0, 2, "{one:?}");
        // Right again the next day: one more.
        day1.push(rev("2026-02-03", "q-x", Topic::LlvmMca, true, "-"));
        assert_eq!(t(&progress(&day1, None, day("2026-02-03"))).0, 3);
        // A wrong answer on a day with right ones keeps the box.
        day1.push(rev("2026-02-07", "q-y", Topic::LlvmMca, true, "-"));
        day1.push(rev(
            "2026-02-07",
            "q-z",
            Topic::LlvmMca,
            false,
            "number-wrong",
        ));
        assert_eq!(t(&progress(&day1, None, day("2026-02-07"))).0, 3);
        // Only wrong: back to box 1.
        day1.push(rev(
            "2026-02-08",
            "q-w",
            Topic::LlvmMca,
            false,
            "number-wrong",
        ));
        assert_eq!(t(&progress(&day1, None, day("2026-02-08"))).0, 1);
    }

    #[test]
    fn progress_counts_attempts_right_mistakes_and_trend() {
        let p = progress(&history(), None, day("2026-01-04"));
        assert_eq!(p.topics.len(), 9);
        assert_eq!(
            p.total,
            Tally {
                attempts: 7,
                right: 3
            }
        );
        let ls = p
            .topics
            .iter()
            .find(|t| t.topic == "list-scheduling")
            .unwrap();
        assert_eq!(
            ls.tally,
            Tally {
                attempts: 4,
                right: 1
            }
        );
        assert_eq!(
            ls.mistakes,
            vec![
                KindCount {
                    count: 2,
                    kind: "order".into()
                },
                KindCount {
                    count: 1,
                    kind: "latency".into()
                }
            ]
        );
        assert_eq!(ls.trend_word, "new");
        // Day 1 wrong only (again), day 2 a wrong and a right answer
        // (hard): still box 1, due a day later.
        assert_eq!((ls.leitner_box, ls.due), (1, Some(day("2026-01-03"))));
        let mii = p.topics.iter().find(|t| t.topic == "mii").unwrap();
        assert_eq!((mii.leitner_box, mii.due), (3, Some(day("2026-01-07"))));
        let untried = p.topics.iter().find(|t| t.topic == "modulo").unwrap();
        assert_eq!(
            (untried.tally.attempts, untried.leitner_box, untried.due),
            (0, 0, None)
        );
        // Someone else's reviews are left out when asked.
        assert_eq!(
            progress(&history(), Some("bob"), day("2026-01-04"))
                .total
                .attempts,
            0
        );
    }

    #[test]
    fn trends_compare_the_last_ten_with_those_before() {
        let mut h = Vec::new();
        for i in 0..5 {
            h.push(rev(
                "2026-01-01",
                &format!("mii:{i}"),
                Topic::Mii,
                false,
                "wrong",
            ));
        }
        for i in 0..10 {
            h.push(rev(
                "2026-01-02",
                &format!("mii:{}", i + 5),
                Topic::Mii,
                i % 2 == 0,
                "wrong",
            ));
        }
        let p = progress(&h, None, day("2026-01-04"));
        let mii = p.topics.iter().find(|t| t.topic == "mii").unwrap();
        assert_eq!(
            mii.trend.before,
            Tally {
                attempts: 5,
                right: 0
            }
        );
        assert_eq!(
            mii.trend.recent,
            Tally {
                attempts: 10,
                right: 5
            }
        );
        assert_eq!(mii.trend_word, "up");
        assert_eq!(
            mii.mistakes,
            vec![KindCount {
                count: 10,
                kind: "wrong".into()
            }]
        );
    }

    #[test]
    fn practice_picks_the_weakest_due_topic_and_a_new_seed() {
        let h = history();
        // On 01-04 list scheduling (box 2, due that day, 1 of 4 right) and
        // llvm-mca (box 1, due 01-03) are due, and the untried topics;
        // llvm-mca is in the lowest box with the worst share right.
        let p = practice(&h, None, day("2026-01-04"));
        assert!(p.due);
        assert_eq!(p.pick.topic, "llvm-mca");
        assert_eq!(p.pick.command, "course quiz 23 --tag llvm-mca --seed 2");
        // Once llvm-mca is right twice it waits; list scheduling is next, at
        // a seed not tried yet.
        let mut h2 = h.clone();
        h2.push(rev("2026-01-04", "q-mca", Topic::LlvmMca, true, "-"));
        let p = practice(&h2, None, day("2026-01-04"));
        assert_eq!(p.pick.topic, "list-scheduling");
        assert_eq!(p.pick.command, "course drill list-schedule --seed 4");
        assert_eq!(p.pick.drill, Some("list-schedule"));
        // Same log, same day: same pick.
        assert_eq!(practice(&h2, None, day("2026-01-04")), p);
        // An empty log starts at the first topic with a problem.
        let fresh = practice(&[], None, day("2026-01-04"));
        assert_eq!(fresh.pick.topic, "reservation-tables");
        assert_eq!(fresh.progress.tally.attempts, 0);
    }

    #[test]
    fn a_topic_right_recently_waits_longer() {
        // Every topic right on 01-01; mii right again on 01-03 and 01-07.
        let mut h: Vec<Review> = Topic::ALL
            .into_iter()
            .map(|t| rev("2026-01-01", "x", t, true, "-"))
            .collect();
        h.push(rev("2026-01-03", "mii:1", Topic::Mii, true, "-"));
        h.push(rev("2026-01-07", "mii:2", Topic::Mii, true, "-"));
        let p = progress(&h, None, day("2026-01-07"));
        let due = |name: &str| p.topics.iter().find(|t| t.topic == name).unwrap().due;
        assert_eq!(due("mii"), Some(day("2026-01-15")));
        assert_eq!(due("modulo"), Some(day("2026-01-03")));
        // On 01-08 everything but mii is due; mii is never picked before 01-15.
        for d in ["2026-01-08", "2026-01-10", "2026-01-14"] {
            assert_ne!(practice(&h, None, day(d)).pick.topic, "mii", "{d}");
        }
        // Nothing due: the topic due first, practised ahead.
        let only_mii: Vec<Review> = h.iter().filter(|r| r.topic == "mii").cloned().collect();
        let p = practice(&only_mii, None, day("2026-01-08"));
        assert_ne!(p.pick.topic, "mii", "untried topics are due");
        let mut all: Vec<Review> = Vec::new();
        for t in Topic::ALL {
            for d in ["2026-01-01", "2026-01-03"] {
                all.push(rev(d, "x", t, true, "-"));
            }
        }
        all.push(rev("2026-01-07", "mii:1", Topic::Mii, true, "-"));
        let p = practice(&all, None, day("2026-01-05"));
        assert!(!p.due);
        assert_ne!(p.pick.topic, "mii");
        assert_eq!(p.due_on, Some(day("2026-01-07")));
        assert!(p.why.starts_with("nothing is due today"), "{}", p.why);
    }
}
