//! The automaton drill: the pipeline automaton of Algorithm 23.1.7 for one
//! capacity-1 resource used by two or three random classes. The student
//! lists every reachable state with its transitions, one line each:
//! `{0, 2}: - {0, 1, 2} {1}` is the state, then where `Issue(A)`,
//! `Issue(B)`, … and `Advance` lead (`-` for a refused issue), read with
//! [`answer::set_row`]. States are named by their sets, so any order and
//! any numbering is fine.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::forbidden::{k, located, named_slip, tables};
use super::hazard::{advance, union};
use super::{Drill, Mistake, MistakeKind, Verdict, Verdicts, set_text};
use course_engine::engine::check::ViolationKind;
use course_engine::engine::hazard::{Automaton, set_string};
use course_engine::formats::answer::{self, shorten};
use course_engine::model::ids::ClassId;
use course_engine::model::machine::Machine;

use crate::json::{MachineInfo, machine_info};
use course_engine::util::rng::{GENERATOR_VERSION, Rng};

/// The problem: the generated classes and their offsets on `r`.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub drill: Drill,
    pub generator_version: u32,
    /// The generated machine (one resource `r`, classes A, B and maybe C).
    pub machine: MachineInfo,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Solution>,
    /// The generated machine (for the text view).
    #[serde(skip)]
    pub model: Machine,
}

impl Problem {
    /// The problem's first line; the drill makes its own machine, so the
    /// line names none.
    pub fn line(&self) -> super::ProblemLine {
        super::ProblemLine {
            drill: self.drill,
            seed: self.seed,
            machine: None,
        }
    }
}

/// Every reachable state, breadth first from the empty one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Solution {
    pub states: Vec<StateRow>,
}

/// One state and where each event leads from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StateRow {
    /// The state after `Advance`.
    pub advance: Vec<u32>,
    /// Per class name, the state after `Issue(class)`, `None` if refused.
    pub issue: BTreeMap<String, Option<Vec<u32>>>,
    /// The reserved offsets.
    pub state: Vec<u32>,
}

impl StateRow {
    /// The row as an answer line: `{0, 2}: - {0, 1, 2} {1}`.
    pub fn line(&self) -> String {
        let mut items = vec![format!("{}:", set_text(&self.state))];
        items.extend(
            self.issue
                .values()
                .map(|t| t.as_ref().map_or("-".to_string(), |t| set_text(t))),
        );
        items.push(set_text(&self.advance));
        items.join(" ")
    }
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        self.states.iter().map(|r| r.line() + "\n").collect()
    }
}

/// The outcome of checking an automaton: lines that could not be read,
/// then each reachable state in breadth-first order, then states that are
/// not reachable or given twice.
pub type Report = Verdicts<StateRow>;

/// The largest offset a generated class uses.
const MAX_OFFSET: i64 = 3;

/// How many states a generated automaton may have: enough to need a
/// method, few enough to list by hand.
const STATES: std::ops::RangeInclusive<usize> = 4..=10;

/// One candidate machine: two or three classes on one capacity-1 resource.
fn candidate(rng: &mut Rng, seed: u64) -> Machine {
    let nclass = if rng.percent(30) { 3 } else { 2 };
    let offsets = (0..nclass)
        .map(|_| {
            let mut offs: Vec<i64> = (0..=MAX_OFFSET).filter(|_| rng.percent(40)).collect();
            if offs.is_empty() {
                offs.push(rng.range(0, MAX_OFFSET as u64) as i64);
            }
            offs
        })
        .collect();
    tables(format!("automaton-{seed}"), offsets, "automaton drill")
}

/// The machine for `seed`: the first candidate whose classes differ,
/// whose automaton has a number of states in [`STATES`], and that refuses
/// some issue.
fn machine(seed: u64) -> Machine {
    let mut rng = Rng::derived(seed, "automaton/tables");
    let mut m = candidate(&mut rng, seed);
    for _ in 0..100 {
        let a = automaton(&m);
        let refuses = (0..a.len() as u32).any(|s| m.class_ids().any(|o| a.issue(s, o).is_none()));
        let ks: BTreeSet<Vec<u32>> = m.class_ids().map(|o| k(&m, o)).collect();
        if STATES.contains(&a.len()) && refuses && ks.len() == m.classes().len() {
            break;
        }
        m = candidate(&mut rng, seed);
    }
    m
}

/// The one resource of a generated machine (its tables are made as the
/// forbidden drill makes them).
pub use super::forbidden::resource;

/// The automaton over `r`.
fn automaton(m: &Machine) -> Automaton {
    // At most 2^(MAX_OFFSET + 1) states: it always builds.
    Automaton::build(m, &[resource(m)]).expect("a small automaton")
}

/// The reserved offsets of state `s`.
fn offsets(a: &Automaton, s: u32) -> Vec<u32> {
    a.state(s)[0]
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(k, _)| k as u32)
        .collect()
}

/// Every reachable state with its transitions, breadth first.
fn rows(m: &Machine) -> Vec<StateRow> {
    let a = automaton(m);
    (0..a.len() as u32)
        .map(|s| StateRow {
            advance: offsets(&a, a.advance(s)),
            issue: m
                .class_ids()
                .map(|o| {
                    (
                        m.class(o).name.clone(),
                        a.issue(s, o).map(|t| offsets(&a, t)),
                    )
                })
                .collect(),
            state: offsets(&a, s),
        })
        .collect()
}

/// The classes for `seed`, with the automaton when `solution`.
pub fn problem(seed: u64, solution: bool) -> Problem {
    let m = machine(seed);
    Problem {
        drill: Drill::Automaton,
        generator_version: GENERATOR_VERSION,
        machine: machine_info(&m),
        seed,
        solution: solution.then(|| Solution { states: rows(&m) }),
        model: m,
    }
}

/// One line of the answer: the state, its transitions, where each starts.
struct Given {
    line: u32,
    /// `(column, set)` for the state and each transition.
    items: Vec<(u32, Option<BTreeSet<u64>>)>,
}

/// Why `Issue(o)` from `state` goes where it goes.
fn issue_reason(m: &Machine, o: ClassId, state: &[u32], to: Option<&Vec<u32>>) -> String {
    let ko = k(m, o);
    let name = &m.class(o).name;
    match to {
        None => {
            let at: Vec<String> = ko
                .iter()
                .filter(|x| state.contains(x))
                .map(u32::to_string)
                .collect();
            format!(
                "K({name}) = {} overlaps s at {}, so Issue({name}) is refused (-)",
                set_string(&ko),
                at.join(",")
            )
        }
        Some(t) => format!(
            "K({name}) = {} misses s, so it goes to s ∪ K({name}) = {}",
            set_string(&ko),
            set_string(t)
        ),
    }
}

/// Checks one line per state: every reachable state once, each with the
/// right transitions.
pub fn check(seed: u64, text: &str, file: &str) -> Report {
    let m = machine(seed);
    let want = rows(&m);
    let events = event_names(&m);
    let Answer {
        mut verdicts,
        given,
        twice,
    } = read_answer(text, file, &events);
    let own_reach = own_reach(&given);
    // What only follows from a wrong transition, listed under it.
    let mut knock_on: Vec<String> = Vec::new();
    for w in &want {
        match given.get(&w.state) {
            None if !own_reach.contains(&w.state) => knock_on.push(format!(
                "state {} is not listed: your transitions do not reach it",
                set_string(&w.state)
            )),
            None => verdicts.push(missing_state(&want, w)),
            Some(g) => {
                let wrong = wrong_transitions(&m, &events, file, w, g);
                if wrong.is_empty() {
                    verdicts.push(Verdict::Right(w.clone()));
                } else {
                    verdicts.extend(wrong.into_iter().map(Verdict::Wrong));
                }
            }
        }
    }
    let reachable: BTreeSet<&Vec<u32>> = want.iter().map(|r| &r.state).collect();
    for (state, g) in given.iter().filter(|(s, _)| !reachable.contains(s)) {
        if own_reach.contains(state) {
            knock_on.push(format!(
                "{file}:{}: state {} is listed because your transitions reach it",
                g.line,
                shorten(&set_string(state))
            ));
        } else {
            verdicts.push(Verdict::Wrong(Mistake::new(ViolationKind::Unknown,
                format!(
                    "{file}:{}: state {} is not reachable: no sequence of Issue and Advance from ∅ leads there",
                    g.line,
                    shorten(&set_string(state))
                ),
            )));
        }
    }
    attach_knock_on(&mut verdicts, knock_on);
    verdicts.extend(twice);
    Verdicts::new(Drill::Automaton, seed, verdicts)
}

/// The events of a row, in its order: `Issue(A)`, `Issue(B)`, …, `Advance`.
fn event_names(m: &Machine) -> Vec<String> {
    m.classes()
        .iter()
        .map(|c| format!("Issue({})", c.name))
        .chain(["Advance".to_string()])
        .collect()
}

/// An answer read line by line.
struct Answer {
    /// The lines that could not be read.
    verdicts: Vec<Verdict<StateRow>>,
    /// The rows given, by state.
    given: BTreeMap<Vec<u32>, Given>,
    /// The rows of a state given again.
    twice: Vec<Verdict<StateRow>>,
}

/// Reads one row per line ([`answer::set_row`]): a state, then a set or
/// `-` for each of `events`; the first row of a state counts.
fn read_answer(text: &str, file: &str, events: &[String]) -> Answer {
    let mut read = Answer {
        verdicts: Vec::new(),
        given: BTreeMap::new(),
        twice: Vec::new(),
    };
    let unread = |line: u32, column: u32, message: String| {
        located(ViolationKind::Format, file, line, column, message)
    };
    for l in answer::lines(text) {
        let items = match answer::set_row(l.text) {
            Ok(items) => items,
            Err((at, e)) => {
                read.verdicts.push(unread(l.line, l.column + at as u32, e));
                continue;
            }
        };
        if items.len() != events.len() + 1 {
            read.verdicts.push(unread(
                l.line,
                l.column,
                format!(
                    "expected a state and {} transitions ({}), found {} item(s)",
                    events.len(),
                    events.join(", "),
                    items.len()
                ),
            ));
            continue;
        }
        let Some(state) = &items[0].set else {
            read.verdicts.push(unread(
                l.line,
                l.column,
                "a line starts with its state, a set such as {0, 2}".into(),
            ));
            continue;
        };
        // Elements are at most answer::MAX_SET_ELEMENT.
        let key: Vec<u32> = state.iter().map(|&x| x as u32).collect();
        if let Some(first) = read.given.get(&key) {
            read.twice.push(Verdict::Wrong(Mistake::new(
                ViolationKind::Duplicate,
                format!(
                    "{}:{}: state {} is listed twice (first on line {})",
                    file,
                    l.line,
                    shorten(&set_string(&key)),
                    first.line
                ),
            )));
            continue;
        }
        let row = Given {
            line: l.line,
            items: items
                .into_iter()
                .map(|i| (l.column + i.offset as u32, i.set))
                .collect(),
        };
        read.given.insert(key, row);
    }
    read
}

/// The states the student's own transitions reach from ∅: a state reached
/// only through a wrong transition (or missed because of one) is that
/// transition's consequence, not a mistake of its own.
fn own_reach(given: &BTreeMap<Vec<u32>, Given>) -> BTreeSet<Vec<u32>> {
    let mut seen: BTreeSet<Vec<u32>> = BTreeSet::from([Vec::new()]);
    let mut todo: Vec<Vec<u32>> = vec![Vec::new()];
    while let Some(st) = todo.pop() {
        let Some(g) = given.get(&st) else { continue };
        for (_, t) in g.items.iter().skip(1) {
            let Some(t) = t else { continue };
            let t: Vec<u32> = t.iter().map(|&x| x as u32).collect();
            if seen.insert(t.clone()) {
                todo.push(t);
            }
        }
    }
    seen
}

/// A reachable state `w` the answer does not list, with the transition of
/// `want` that reaches it.
fn missing_state(want: &[StateRow], w: &StateRow) -> Verdict<StateRow> {
    let from = want.iter().find_map(|r| {
        let by_issue = r
            .issue
            .iter()
            .find_map(|(c, t)| (t.as_ref() == Some(&w.state)).then(|| format!("Issue({c})")));
        by_issue
            .or_else(|| (r.advance == w.state).then(|| "Advance".to_string()))
            .filter(|_| r.state != w.state)
            .map(|e| format!("{} from {}", e, set_string(&r.state)))
    });
    let how = match from {
        Some(how) if !w.state.is_empty() => format!("{how} reaches it"),
        _ => "the start state".to_string(),
    };
    Verdict::Wrong(Mistake::new(
        ViolationKind::Missing,
        format!("state {}: missing ({how})", set_string(&w.state)),
    ))
}

/// The transitions of the row `g` given for state `w` that differ from
/// `w`'s, each located and explained by Algorithm 23.1.7.
fn wrong_transitions(
    m: &Machine,
    events: &[String],
    file: &str,
    w: &StateRow,
    g: &Given,
) -> Vec<Mistake> {
    let nclass = m.classes().len();
    let wanted = w
        .issue
        .values()
        .map(Option::as_ref)
        .chain([Some(&w.advance)]);
    let mut wrong = Vec::new();
    for (e, ((line_col, got), want_t)) in g.items.iter().skip(1).zip(wanted).enumerate() {
        let got_t: Option<Vec<u32>> = got.as_ref().map(|s| s.iter().map(|&x| x as u32).collect());
        if got_t.as_ref() == want_t {
            continue;
        }
        let said = got_t
            .as_deref()
            .map_or("-".to_string(), |s| shorten(&set_string(s)));
        let why = if e < nclass {
            issue_reason(m, ClassId::from_index(e), &w.state, want_t)
        } else {
            format!(
                "Advance drops offset 0 and moves the others down one, giving {}",
                set_string(&w.advance)
            )
        };
        // An Advance answered with the state unlowered (as it was, or every
        // offset one above the right ones).
        let raised: Vec<u32> = w.advance.iter().map(|x| x + 1).collect();
        let unlowered = e >= nclass
            && got_t
                .as_deref()
                .is_some_and(|g| g == w.state.as_slice() || g == raised.as_slice());
        let (kind, named) = if unlowered {
            (
                MistakeKind::NotLowered,
                "forgot to lower the offsets: ".to_string(),
            )
        } else {
            named_slip(
                got_t
                    .as_deref()
                    .zip(want_t.map(Vec::as_slice))
                    .and_then(|(g, w)| super::set_slip(g, w)),
            )
        };
        wrong.push(Mistake::new(
            kind,
            format!(
                "{file}:{}:{line_col}: from {}, {}: {named}you said {said}; {why}",
                g.line,
                set_string(&w.state),
                events[e]
            ),
        ));
    }
    wrong
}

/// Lists `knock_on` under the first wrong transition (the first mistake
/// that is not about the format); without one, each is a mistake of its
/// own.
fn attach_knock_on(verdicts: &mut Vec<Verdict<StateRow>>, knock_on: Vec<String>) {
    match verdicts.iter_mut().find_map(|v| match v {
        Verdict::Wrong(mk) if mk.kind != MistakeKind::Check(ViolationKind::Format) => Some(mk),
        _ => None,
    }) {
        Some(mk) => mk.consequences.extend(knock_on),
        None => verdicts.extend(
            knock_on
                .into_iter()
                .map(|k| Verdict::Wrong(Mistake::new(ViolationKind::Missing, k))),
        ),
    }
}

/// A state of the hint's example automaton, where Issue(x) leads (`None`:
/// undefined) and where Advance leads.
type ExampleRow = (Vec<u32>, Option<Vec<u32>>, Vec<u32>);

/// How many hints the drill has.
pub const HINTS: usize = 2;

/// The first `level` hints (at most [`HINTS`]): the K sets, then the
/// transitions of Algorithm 23.1.7 applied to a state the automaton does
/// not reach.
pub fn hints(p: &Problem, level: usize) -> Vec<String> {
    let m = &p.model;
    let r = super::forbidden::resource(m);
    let mut out = vec![format!(
        "The states are the sets of future offsets of {} that issues can leave. From \
         the K sets of the prompt and the empty set, two moves make them: Issue(o), \
         defined when K(o) shares no offset with the state, adds K(o); Advance takes one \
         off every offset and drops offset 0.",
        m.resource(r).name
    )];
    // The whole automaton of a made-up class x alone, breadth first: a
    // different example, not the student's classes.
    let candidates: [&[u32]; 2] = [&[0, 2], &[0, 3]];
    let walk = |kx: &[u32]| -> Vec<ExampleRow> {
        let mut states: Vec<Vec<u32>> = vec![Vec::new()];
        let mut out = Vec::new();
        let mut i = 0;
        while i < states.len() && states.len() <= 8 {
            let st = states[i].clone();
            let issue = (!st.iter().any(|o| kx.contains(o))).then(|| union(&st, kx));
            let adv = advance(&st);
            for t in issue.iter().chain([&adv]) {
                if !states.contains(t) {
                    states.push(t.clone());
                }
            }
            out.push((st, issue, adv));
            i += 1;
        }
        out
    };
    let example = candidates
        .iter()
        .map(|k| (k, walk(k)))
        .find(|(_, w)| w.len() <= 8)
        .map_or(String::new(), |(k, w)| {
            let rows: Vec<String> = w
                .iter()
                .map(|(st, issue, adv)| {
                    format!(
                        "{}: x → {}, Advance → {}",
                        set_text(st),
                        issue.as_ref().map_or("-".to_string(), |t| set_text(t)),
                        set_text(adv)
                    )
                })
                .collect();
            format!(
                " Worked on a made-up class x with K(x) = {}: {}.",
                set_text(k),
                rows.join("; ")
            )
        });
    out.push(format!(
        "Start from the empty state and follow every transition breadth first, each \
         class's Issue and Advance from every state; each new set reached is a new \
         state, and a transition to a set seen before is an edge back to it.{example}"
    ));
    out.truncate(level.min(HINTS));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transition shifted by one or with one offset off by one is named.
    #[test]
    fn slips_in_transitions_are_named() {
        let s = problem(1, true).solution.unwrap();
        let row = s.states.iter().find(|r| r.advance.len() >= 2).unwrap();
        let shifted: Vec<u32> = row.advance.iter().map(|x| x + 1).collect();
        let text = s.answer().replacen(
            &row.line(),
            &StateRow {
                advance: shifted,
                ..row.clone()
            }
            .line(),
            1,
        );
        let r = check(1, &text, "a.txt");
        let mk: Vec<&Mistake> = r.verdicts.iter().filter_map(Verdict::mistake).collect();
        assert_eq!(mk.len(), 1, "{mk:#?}");
        assert_eq!(mk[0].kind, MistakeKind::NotLowered);
        assert!(
            mk[0]
                .message
                .contains("Advance: forgot to lower the offsets: you said"),
            "{}",
            mk[0].message
        );
    }

    #[test]
    fn one_offset_off_by_one_in_a_transition_is_named() {
        let s = problem(1, true).solution.unwrap();
        let row = s.states.iter().find(|r| r.advance.len() >= 2).unwrap();
        let mut off = row.advance.clone();
        let last = off.len() - 1;
        off[last] += 1;
        let text = s.answer().replacen(
            &row.line(),
            &StateRow {
                advance: off,
                ..row.clone()
            }
            .line(),
            1,
        );
        let r = check(1, &text, "a.txt");
        let mk: Vec<&Mistake> = r.verdicts.iter().filter_map(Verdict::mistake).collect();
        assert_eq!(mk.len(), 1, "{mk:#?}");
        assert_eq!(mk[0].kind, MistakeKind::OffByOne, "{}", mk[0].message);
        assert!(mk[0].message.contains("off by one"), "{}", mk[0].message);
    }

    fn messages(r: &Report) -> Vec<String> {
        crate::drill::mistake_messages(&r.verdicts)
    }

    #[test]
    fn generated_automata_are_small_and_refuse_something() {
        for seed in 0..200 {
            let m = machine(seed);
            let a = automaton(&m);
            assert!(STATES.contains(&a.len()), "seed {seed}: {} states", a.len());
            let ks: BTreeSet<Vec<u32>> = m.class_ids().map(|o| k(&m, o)).collect();
            assert_eq!(ks.len(), m.classes().len(), "seed {seed}");
        }
    }

    #[test]
    fn solutions_check_as_correct_in_any_order_and_spelling() {
        for seed in 0..40 {
            let s = problem(seed, true).solution.unwrap();
            let r = check(seed, &s.answer(), "a.txt");
            assert!(r.correct, "seed {seed}: {:?}", messages(&r));
            // Reversed, ∅ for the empty set, no colon, no spaces in sets.
            let mut lines: Vec<String> = s
                .answer()
                .lines()
                .map(|l| l.replace(':', "").replace(", ", ",").replace("{}", "∅"))
                .collect();
            lines.reverse();
            let r = check(seed, &lines.join("\n"), "a.txt");
            assert!(r.correct, "seed {seed}: {:?}", messages(&r));
        }
    }

    #[test]
    fn mistakes_are_explained() {
        let seed = 3;
        let s = problem(seed, true).solution.unwrap();
        let answer = s.answer();
        let lines: Vec<&str> = answer.lines().collect();
        // A missing state, a state listed twice, and an unreachable one.
        let mut text: Vec<String> = lines[1..].iter().map(|l| l.to_string()).collect();
        text.push(lines[1].to_string());
        let r = check(seed, &text.join("\n"), "a.txt");
        let msgs = messages(&r);
        assert!(msgs[0].starts_with("state ∅: missing"), "{msgs:?}");
        assert!(
            msgs.iter().any(|m| m.contains("is listed twice")),
            "{msgs:?}"
        );
        // A wrong Advance is located at its column.
        let first = &s.states[0];
        let mut wrong = first.clone();
        wrong.advance = vec![7];
        let text = answer.replacen(&first.line(), &wrong.line(), 1);
        let r = check(seed, &text, "a.txt");
        let msgs = messages(&r);
        assert_eq!(msgs.len(), 1, "{msgs:?}");
        assert!(
            msgs[0].contains("from ∅, Advance: you said {7}; Advance drops offset 0"),
            "{msgs:?}"
        );
        // An unreachable state.
        let dashes = "- ".repeat(first.issue.len());
        let r = check(seed, &format!("{answer}{{9}}: {dashes}∅\n"), "a.txt");
        assert!(
            messages(&r)
                .iter()
                .any(|m| m.contains("state {9} is not reachable")),
            "{:?}",
            messages(&r)
        );
    }

    #[test]
    fn malformed_lines_are_located_format_errors() {
        let r = check(3, "{0, 1: - -\nx\n- {0} {1}\n", "a.txt");
        let msgs = messages(&r);
        assert!(
            msgs[0].starts_with("a.txt:1:1: '{0, 1: - -' does not end with '}'"),
            "{msgs:?}"
        );
        assert!(
            msgs[1].starts_with("a.txt:2:1: 'x' is neither a set"),
            "{msgs:?}"
        );
        assert!(
            msgs[2].starts_with("a.txt:3:1: expected a state and"),
            "{msgs:?}"
        );
    }
}
