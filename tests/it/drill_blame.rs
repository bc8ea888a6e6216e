//! Feedback never blames a right step for the student's own earlier
//! mistake. The property, for the list-schedule drill (an answer is a
//! sequence of placements the list rule makes in order): change one step of
//! the reference answer (one operation moved to another cycle); the first
//! mistake reported names the changed step, and no unchanged step is a
//! mistake of its own: a violation of an unchanged step is listed under the
//! changed step as its consequence, because taking the changed step out
//! makes it disappear (`course_engine::engine::check::caused_by`). The same for
//! two steps changed at once (neighbours in label order), and for every
//! drill on seeds 1–50. In a modulo schedule a step the reference agrees
//! with may be blamed when moving it alone makes the answer valid (the
//! seed-1 case: f at 4 is right with e at 3, so e at 5 is the mistake); a
//! valid schedule of another family than the reference's, one step
//! slipped, gets a mistake about that step.

use std::collections::BTreeMap;

use course_content::drill::list_schedule;
use course_content::generate::GenParams;
use course_engine::model::ids::Cycle;
use course_engine::model::machine::Machine;

use crate::common::Course;

/// The words of a message (labels are words of letters and digits).
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The answer file for `schedule`, its lines in `order` of labels.
fn answer(schedule: &BTreeMap<String, Cycle>, order: &[&String]) -> String {
    order
        .iter()
        .map(|l| format!("{l} {}\n", schedule[*l]))
        .collect()
}

#[test]
fn one_changed_step_is_the_only_one_blamed() {
    let m = Machine::toy();
    let params = GenParams::block_default();
    let mut answers = 0usize;
    let mut with_consequences = 0usize;
    for seed in 1..=50u64 {
        let Some(s) = list_schedule::problem(&m, &params, seed, true).solution else {
            panic!("seed {seed}: no solution");
        };
        let labels: Vec<&String> = s.schedule.keys().collect();
        let reversed: Vec<&String> = labels.iter().rev().copied().collect();
        for changed in &labels {
            let at = s.schedule[*changed];
            for to in (at - 2..=at + 3).filter(|&c| c >= 0 && c != at) {
                let mut mine = s.schedule.clone();
                mine.insert((*changed).clone(), to);
                // Both line orders: within a cycle the check places the
                // lines in file order, so either side of a conflict may be
                // the one found over capacity.
                for order in [&labels, &reversed] {
                    let text = answer(&mine, order);
                    let r = list_schedule::check(&m, &params, seed, &text, "a.txt");
                    let what = format!("seed {seed}, {changed} {at} → {to}:\n{text}");
                    answers += 1;
                    assert!(!r.correct, "{what}");
                    let first = &r.mistakes[0].message;
                    assert!(
                        words(first).contains(&changed.as_str()),
                        "{what}the first mistake does not name {changed}: {first}"
                    );
                    for mk in &r.mistakes {
                        assert!(
                            words(&mk.message).contains(&changed.as_str()),
                            "{what}a mistake not about {changed}: {}",
                            mk.message
                        );
                        for u in labels.iter().filter(|u| *u != changed) {
                            assert!(
                                !mk.message.starts_with(&format!("{u} at ")),
                                "{what}the unchanged {u} is blamed: {}",
                                mk.message
                            );
                        }
                        with_consequences += usize::from(!mk.consequences.is_empty());
                        for c in &mk.consequences {
                            assert!(
                                words(c).contains(&changed.as_str()),
                                "{what}a consequence not of {changed}: {c}"
                            );
                        }
                    }
                }
            }
        }
    }
    // The property is not vacuous: many answers, and some of them have
    // violations of unchanged steps to list as consequences.
    crate::common::note(format!(
        "drill_blame: {answers} answers, {with_consequences} mistakes with consequences"
    ));
    assert!(answers > 1000, "{answers}");
    assert!(with_consequences > 20, "{with_consequences}");
}

/// Seed 1 with d at 0 next to a at 0 (both loads, one mem unit): the mem
/// conflict is the mistake; f at 0, the reference's own placement, fills
/// the issue width only because of d, so it is d's consequence.
const CASCADE: &str = "a 0\nd 0\nf 0\ni 1\ne 2\nb 3\nk 3\nc 4\ng 5\nh 5\nj 6\nl 6\n";

#[test]
fn the_cascade_is_listed_under_its_cause() {
    let m = Machine::toy();
    let params = GenParams::block_default();
    let r = list_schedule::check(&m, &params, 1, CASCADE, "a.txt");
    let messages: Vec<&str> = r.mistakes.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(
        messages,
        ["cycle 0: d does not fit: mem is taken at cycle 0 by a"]
    );
    assert_eq!(
        r.mistakes[0].consequences,
        [
            "f at 0 would fit if d were not at 0 (f at 0: issue is full at cycle 0: \
          its 2 slots are taken by a, d)"
        ]
    );
}

#[test]
fn the_cascade_report_marks_over_capacity_cells() {
    let out = Course::new(["drill", "list-schedule", "--seed", "1", "--check", "-"])
        .stdin(CASCADE)
        .any_code()
        .run()
        .stdout;
    assert!(!out.contains("✗ f at 0"), "{out}");
    assert!(
        out.contains("  consequence: f at 0 would fit if d were not at 0"),
        "{out}"
    );
    let row = out
        .lines()
        .skip_while(|l| !l.starts_with("Your reservation table"))
        .find(|l| l.starts_with("0 "))
        .unwrap_or_default();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[..5], ["0", "3!", "f", "a,d!", "."], "{row}");
    // In colour the same cells are painted as over capacity.
    let painted = Course::new(["drill", "list-schedule", "--seed", "1", "--check", "-"])
        .args(["--color", "always"])
        .stdin(CASCADE)
        .any_code()
        .run()
        .stdout;
    assert!(painted.contains("\x1b[1;41m3!\x1b[0m"), "{painted}");
    assert!(painted.contains("\x1b[1;41ma,d!\x1b[0m"), "{painted}");
}

// The one-changed-step property over every drill: the reference answer
// with one step changed (the kind of change drawn by a seeded ChaCha8Rng)
// gets exactly one step blamed, the changed one, named by the first
// mistake; no unchanged step is a mistake. Where a drill's later steps
// follow from earlier ones (mii from res_mii and rec_mii, the hazard trace
// from the state before, the automaton's states from its transitions), a
// second answer also carries the change forward as the student's own rule
// would: those later steps are right given the student's earlier ones and
// appear only as consequences of the changed step.

use course_content::drill::{Drill, Mistake, Problem};
use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One answer with one changed step: its text, what changed (for
/// messages), and how a mistake names the changed step.
struct Case {
    text: String,
    what: String,
    names: Box<dyn Fn(&Mistake) -> bool>,
    /// When the changed answer may still be right (another valid modulo
    /// schedule); the check then decides.
    may_be_right: bool,
    /// The unchanged operations of a schedule: none may be blamed
    /// (`LABEL at …` as the first words of a mistake).
    unchanged: Vec<String>,
    /// How many mistakes of their own the drills of independent parts may
    /// report (one a changed part).
    at_most: usize,
}

fn case(text: String, what: String, names: impl Fn(&Mistake) -> bool + 'static) -> Case {
    Case {
        text,
        what,
        names: Box::new(names),
        may_be_right: false,
        unchanged: Vec::new(),
        at_most: 1,
    }
}

/// `{0, 2}` as the answers write sets.
fn braces(s: &[u32]) -> String {
    let v: Vec<String> = s.iter().map(u32::to_string).collect();
    format!("{{{}}}", v.join(", "))
}

/// A set changed by one of the commonest slips: shifted by one, one
/// offset off by one, an element dropped or added; never the set itself.
fn slip(rng: &mut ChaCha8Rng, s: &[u32]) -> Vec<u32> {
    for _ in 0..20 {
        let mut t: Vec<u32> = match rng.random_range(0..4) {
            0 => s.iter().map(|x| x + 1).collect(),
            1 if !s.is_empty() => {
                let i = rng.random_range(0..s.len());
                let mut t = s.to_vec();
                t[i] = if t[i] > 0 && rng.random_bool(0.5) {
                    t[i] - 1
                } else {
                    t[i] + 1
                };
                t
            }
            2 if !s.is_empty() => {
                let mut t = s.to_vec();
                t.remove(rng.random_range(0..s.len()));
                t
            }
            _ => {
                let mut t = s.to_vec();
                t.push(rng.random_range(0..6));
                t
            }
        };
        t.sort_unstable();
        t.dedup();
        if t != s {
            return t;
        }
    }
    s.iter().map(|x| x + 1).chain([0]).collect()
}

/// Two steps of a schedule changed at once (neighbours in label order,
/// each moved by 1 to 3 cycles): the first mistake names one of the two,
/// and neither of the others is blamed.
fn two_step_slips(
    schedule: &BTreeMap<String, Cycle>,
    rng: &mut ChaCha8Rng,
    text: impl Fn(&BTreeMap<String, Cycle>) -> String,
) -> Vec<Case> {
    let labels: Vec<&String> = schedule.keys().collect();
    let mut out = Vec::new();
    for w in labels.windows(2) {
        let mut mine = schedule.clone();
        let mut what = Vec::new();
        for l in w {
            let at = schedule[*l];
            let to = loop {
                let to = at + rng.random_range(-3..=3i64);
                if to >= 0 && to != at {
                    break to;
                }
            };
            mine.insert((*l).clone(), to);
            what.push(format!("{l} {at} → {to}"));
        }
        let (a, b) = (w[0].clone(), w[1].clone());
        let mut c = case(text(&mine), what.join(", "), move |mk| {
            let ws = words(&mk.message);
            ws.contains(&a.as_str()) || ws.contains(&b.as_str())
        });
        c.unchanged = labels
            .iter()
            .filter(|u| !w.contains(u))
            .map(|u| (*u).clone())
            .collect();
        out.push(c);
    }
    out
}

/// The state after Advance (Algorithm 23.1.7): every offset down one,
/// offset 0 dropped.
fn advance(s: &[u32]) -> Vec<u32> {
    s.iter().filter(|&&k| k > 0).map(|k| k - 1).collect()
}

fn cases(drill: Drill, m: &Machine, seed: u64, rng: &mut ChaCha8Rng) -> Vec<Case> {
    let p = drill.problem(m, None, seed, true).unwrap();
    let mut out = Vec::new();
    match &p {
        Problem::ListSchedule(p) => {
            let s = p.solution.as_ref().unwrap();
            for label in s.schedule.keys() {
                let at = s.schedule[label];
                let to = loop {
                    let to = at + rng.random_range(-3..=3i64);
                    if to >= 0 && to != at {
                        break to;
                    }
                };
                let mut mine = s.schedule.clone();
                mine.insert(label.clone(), to);
                let text: String = mine.iter().map(|(l, c)| format!("{l} {c}\n")).collect();
                let l = label.clone();
                let mut c = case(text, format!("{label} {at} → {to}"), move |mk| {
                    words(&mk.message).contains(&l.as_str())
                });
                c.unchanged = s.schedule.keys().filter(|u| *u != label).cloned().collect();
                out.push(c);
            }
            out.extend(two_step_slips(&s.schedule, rng, |mine| {
                mine.iter().map(|(l, c)| format!("{l} {c}\n")).collect()
            }));
        }
        Problem::Modulo(p) => {
            let s = p.solution.as_ref().unwrap();
            let line = |ii: u64, mine: &BTreeMap<String, Cycle>| -> String {
                let mut t = format!("ii {ii}\n");
                t.extend(mine.iter().map(|(l, c)| format!("{l} {c}\n")));
                t
            };
            for label in s.schedule.keys() {
                let at = s.schedule[label];
                let to = loop {
                    let to = at + rng.random_range(-3..=3i64);
                    if to >= 0 && to != at {
                        break to;
                    }
                };
                let mut mine = s.schedule.clone();
                mine.insert(label.clone(), to);
                let l = label.clone();
                let mut c = case(
                    line(s.ii, &mine),
                    format!("{label} {at} → {to}"),
                    move |mk| words(&mk.message).contains(&l.as_str()),
                );
                c.may_be_right = true;
                c.unchanged = s.schedule.keys().filter(|u| *u != label).cloned().collect();
                out.push(c);
            }
            // Two steps changed: the step blamed may be one the reference
            // agrees with, when moving it alone makes the answer valid (the
            // changed steps are then right in that completion); its message
            // still names the changed step it meets.
            out.extend(
                two_step_slips(&s.schedule, rng, |mine| line(s.ii, mine))
                    .into_iter()
                    .map(|mut c| {
                        c.may_be_right = true;
                        c.unchanged.clear();
                        c
                    }),
            );
            // A valid answer unlike the reference (one step moved where
            // every rule still holds), then another step slipped: the
            // moved step is right in the student's own answer, so the
            // mistake is about the slipped one (blamed, or named as what
            // the blamed step meets).
            let valid = |mine: &BTreeMap<String, Cycle>| {
                drill
                    .check(m, None, seed, &line(s.ii, mine), "a.txt")
                    .unwrap()
                    .correct()
            };
            let horizon = s.schedule.values().max().copied().unwrap_or(0) + 2 * s.ii as Cycle;
            let alternative = s.schedule.keys().find_map(|x| {
                (0..=horizon)
                    .filter(|&c| c != s.schedule[x])
                    .map(|c| {
                        let mut t = s.schedule.clone();
                        t.insert(x.clone(), c);
                        (x.clone(), t)
                    })
                    .find(|(_, t)| valid(t))
            });
            if let Some((moved, alt)) = alternative {
                for label in alt.keys().filter(|l| **l != moved) {
                    let at = alt[label];
                    let to = loop {
                        let to = at + rng.random_range(-3..=3i64);
                        if to >= 0 && to != at {
                            break to;
                        }
                    };
                    let mut mine = alt.clone();
                    mine.insert(label.clone(), to);
                    let l = label.clone();
                    let mut c = case(
                        line(s.ii, &mine),
                        format!("{moved} moved validly, then {label} {at} → {to}"),
                        move |mk| words(&mk.message).contains(&l.as_str()),
                    );
                    c.may_be_right = true;
                    out.push(c);
                }
            }
            for ii in [s.ii + 1, s.ii.saturating_sub(1)] {
                if ii == 0 || ii == s.ii {
                    continue;
                }
                let ii_named = |mk: &Mistake| {
                    let w = words(&mk.message);
                    w.contains(&"ii") || w.contains(&"II")
                };
                let mut c = case(
                    line(ii, &s.schedule),
                    format!("ii {} → {ii}", s.ii),
                    ii_named,
                );
                c.unchanged = s.schedule.keys().cloned().collect();
                out.push(c);
            }
        }
        Problem::Mii(p) => {
            let s = p.solution.as_ref().unwrap();
            let values = [
                ("res_mii", s.info.res_mii),
                ("rec_mii", s.info.rec_mii),
                ("mii", s.info.mii),
            ];
            // ResMII and RecMII both wrong, MII right: two mistakes, each
            // about its own value.
            {
                let mut vals = values;
                vals[0].1 += 1;
                vals[1].1 += 2;
                let text: String = vals.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
                let mut c = case(text, "res_mii and rec_mii both off".into(), |mk| {
                    mk.message.starts_with("res_mii:") || mk.message.starts_with("rec_mii:")
                });
                c.at_most = 2;
                out.push(c);
            }
            for (i, (key, v)) in values.iter().enumerate() {
                let to = match rng.random_range(0..3) {
                    0 => v + 1,
                    1 if *v > 1 => v - 1,
                    _ => v + rng.random_range(2..5),
                };
                let mut vals = values;
                vals[i].1 = to;
                let text: String = vals.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
                let k = key.to_string();
                out.push(case(text, format!("{key} {v} → {to}"), move |mk| {
                    mk.message.starts_with(&format!("{k}:"))
                }));
                // Carried forward: MII = max(ResMII, RecMII) of the
                // student's own values.
                if i < 2 {
                    let own = vals[0].1.max(vals[1].1);
                    if own != s.info.mii {
                        vals[2].1 = own;
                        let text: String = vals.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
                        let k = key.to_string();
                        out.push(case(
                            text,
                            format!("{key} {v} → {to}, mii {own} from it"),
                            move |mk| mk.message.starts_with(&format!("{k}:")),
                        ));
                    }
                }
            }
        }
        Problem::Forbidden(p) => {
            let s = p.solution.as_ref().unwrap();
            let sets_of_two: Vec<(String, Vec<u32>)> = s
                .forbidden
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            // Two sets slipped at once: each reported on its own line, and
            // nothing else.
            for i in 0..sets_of_two.len().saturating_sub(1) {
                let mut mine = sets_of_two.clone();
                mine[i].1 = slip(rng, &sets_of_two[i].1);
                mine[i + 1].1 = slip(rng, &sets_of_two[i + 1].1);
                let (a, b) = (sets_of_two[i].0.clone(), sets_of_two[i + 1].0.clone());
                let mut text: String = mine
                    .iter()
                    .map(|(k, v)| format!("{k} = {}\n", braces(v)))
                    .collect();
                for (k, v) in &s.collision_vectors {
                    text.push_str(&format!("CV({k}) = {v}\n"));
                }
                let mut c = case(text, format!("{a} and {b} slipped"), move |mk| {
                    mk.message.starts_with(&format!("{a}:"))
                        || mk.message.starts_with(&format!("{b}:"))
                });
                c.at_most = 2;
                out.push(c);
            }
            let sets: Vec<(String, Vec<u32>)> = s
                .forbidden
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let cvs: Vec<(String, String)> = s
                .collision_vectors
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let text = |sets: &[(String, Vec<u32>)], cvs: &[(String, String)]| -> String {
                let a = sets.iter().map(|(k, v)| format!("{k} = {}\n", braces(v)));
                let b = cvs.iter().map(|(k, v)| format!("CV({k}) = {v}\n"));
                a.chain(b).collect()
            };
            for i in 0..sets.len() {
                let mut mine = sets.clone();
                mine[i].1 = slip(rng, &sets[i].1);
                let key = sets[i].0.clone();
                let what = format!("{key} {:?} → {:?}", sets[i].1, mine[i].1);
                out.push(case(text(&mine, &cvs), what, move |mk| {
                    mk.message.starts_with(&format!("{key}:"))
                }));
            }
            for i in 0..cvs.len() {
                let mut mine = cvs.clone();
                let v = &cvs[i].1;
                let rev: String = v.chars().rev().collect();
                mine[i].1 = if rev != *v && rng.random_bool(0.5) {
                    rev
                } else {
                    // One bit flipped.
                    let k = rng.random_range(0..v.len());
                    v.chars()
                        .enumerate()
                        .map(|(j, c)| match (j == k, c) {
                            (true, '0') => '1',
                            (true, _) => '0',
                            (false, c) => c,
                        })
                        .collect()
                };
                let key = format!("CV({})", cvs[i].0);
                let what = format!("{key} {v} → {}", mine[i].1);
                out.push(case(text(&sets, &mine), what, move |mk| {
                    mk.message.starts_with(&format!("{key}:"))
                }));
            }
        }
        Problem::Hazard(p) => {
            let s = p.solution.as_ref().unwrap();
            let m = &p.model;
            let k = |event: &str| -> Vec<u32> {
                let name = event.trim_start_matches("Issue(").trim_end_matches(')');
                let c = m.class_by_name(name).unwrap();
                let mut k: Vec<u32> = m.class(c).offsets(p.unit).collect();
                k.sort_unstable();
                k.dedup();
                k
            };
            let line = |accepted: bool, after: &[u32]| {
                format!(
                    "{} {}\n",
                    if accepted { "accept" } else { "reject" },
                    braces(after)
                )
            };
            // Two steps slipped, two apart, the others as the reference
            // has them: a mistake at each (what the lines between them
            // become is listed under the first), and nothing else.
            for i in 0..s.steps.len().saturating_sub(2) {
                let j = i + 2;
                let mut text = String::new();
                for (n, t) in s.steps.iter().enumerate() {
                    let after = if n == i || n == j {
                        slip(rng, &t.after)
                    } else {
                        t.after.clone()
                    };
                    text.push_str(&line(t.accepted, &after));
                }
                let pi = format!("cycle {}: {}", s.steps[i].cycle, s.steps[i].event);
                let pj = format!("cycle {}: {}", s.steps[j].cycle, s.steps[j].event);
                let what = format!("steps {i} and {j} slipped");
                let mut c = case(text, what, move |mk| {
                    mk.message.starts_with(&pi) || mk.message.starts_with(&pj)
                });
                c.at_most = 2;
                out.push(c);
            }
            for i in 0..s.steps.len() {
                let st = &s.steps[i];
                let (accepted, after) = if rng.random_bool(0.3) {
                    (!st.accepted, st.after.clone())
                } else {
                    (st.accepted, slip(rng, &st.after))
                };
                let prefix = format!("cycle {}: {}", st.cycle, st.event);
                let what = format!("step {i} ({prefix}) → {}", line(accepted, &after));
                let mut text = String::new();
                for (j, t) in s.steps.iter().enumerate() {
                    text.push_str(&if j == i {
                        line(accepted, &after)
                    } else {
                        line(t.accepted, &t.after)
                    });
                }
                let pf = prefix.clone();
                out.push(case(text, what.clone(), move |mk| {
                    mk.message.starts_with(&pf)
                }));
                // Carried forward: each later step follows from the
                // student's own state by Algorithm 23.1.7.
                let mut text: String = s.steps[..i]
                    .iter()
                    .map(|t| line(t.accepted, &t.after))
                    .collect();
                text.push_str(&line(accepted, &after));
                let mut state = after.clone();
                let mut cycle = st.cycle;
                for t in &s.steps[i + 1..] {
                    while cycle < t.cycle {
                        state = advance(&state);
                        cycle += 1;
                    }
                    let kk = k(&t.event);
                    let ok = kk.iter().all(|x| !state.contains(x));
                    if ok {
                        state.extend(kk);
                        state.sort_unstable();
                        state.dedup();
                    }
                    text.push_str(&line(ok, &state));
                }
                let pf = prefix;
                out.push(case(text, format!("{what} carried forward"), move |mk| {
                    mk.message.starts_with(&pf)
                }));
            }
        }
        Problem::Automaton(p) => {
            let s = p.solution.as_ref().unwrap();
            let m = &p.model;
            let classes: Vec<String> = m.classes().iter().map(|c| c.name.clone()).collect();
            let r = m.resource_by_name("r").unwrap();
            let ks: Vec<Vec<u32>> = m
                .class_ids()
                .map(|c| {
                    let mut k: Vec<u32> = m.class(c).offsets(r).collect();
                    k.sort_unstable();
                    k.dedup();
                    k
                })
                .collect();
            // Where event e leads from s by the rule (`None`: refused).
            let step = |s: &[u32], e: usize| -> Option<Vec<u32>> {
                if e == ks.len() {
                    return Some(advance(s));
                }
                if ks[e].iter().any(|x| s.contains(x)) {
                    return None;
                }
                let mut t: Vec<u32> = s.iter().chain(&ks[e]).copied().collect();
                t.sort_unstable();
                t.dedup();
                Some(t)
            };
            let item = |t: &Option<Vec<u32>>| t.as_ref().map_or("-".to_string(), |t| braces(t));
            // Two Advances slipped, in neighbouring rows: a mistake at each
            // (their own transitions), nothing else.
            let ne = classes.len() + 1;
            for w in s.states.windows(2) {
                let slipped: Vec<(Vec<u32>, Vec<u32>)> = w
                    .iter()
                    .map(|row| (row.state.clone(), slip(rng, &advance(&row.state))))
                    .collect();
                let text: String = s
                    .states
                    .iter()
                    .map(|x| {
                        let mut items = vec![format!("{}:", braces(&x.state))];
                        for j in 0..ne {
                            let changed = slipped.iter().find(|(st, _)| *st == x.state);
                            let t = match changed {
                                Some((_, to)) if j == ne - 1 => Some(to.clone()),
                                _ => step(&x.state, j),
                            };
                            items.push(item(&t));
                        }
                        items.join(" ") + "\n"
                    })
                    .collect();
                let froms: Vec<String> = slipped
                    .iter()
                    .map(|(st, _)| format!("from {}, Advance", set_text(st)))
                    .collect();
                let what = format!("{} and {} slipped", froms[0], froms[1]);
                let mut c = case(text, what, move |mk| {
                    froms.iter().any(|f| mk.message.contains(f.as_str()))
                });
                c.at_most = 2;
                out.push(c);
            }
            for (i, row) in s.states.iter().enumerate() {
                let e = rng.random_range(0..ne);
                let want = step(&row.state, e);
                let got = match &want {
                    Some(t) if e < classes.len() && rng.random_bool(0.3) => None,
                    Some(t) => Some(slip(rng, t)),
                    None => Some(slip(rng, &row.state)),
                };
                let event = if e < classes.len() {
                    format!("Issue({})", classes[e])
                } else {
                    "Advance".into()
                };
                let from = format!("from {}, {event}", set_text(&row.state));
                let line_of = |state: &[u32], changed: Option<&Option<Vec<u32>>>| -> String {
                    let mut items = vec![format!("{}:", braces(state))];
                    for j in 0..ne {
                        let t = match changed {
                            Some(t) if j == e => t.clone(),
                            _ => step(state, j),
                        };
                        items.push(item(&t));
                    }
                    items.join(" ") + "\n"
                };
                let text: String = s
                    .states
                    .iter()
                    .enumerate()
                    .map(|(j, x)| line_of(&x.state, (j == i).then_some(&got)))
                    .collect();
                let what = format!("{from} → {}", item(&got));
                let f = from.clone();
                out.push(case(text, what.clone(), move |mk| mk.message.contains(&f)));
                // Carried forward: the student's automaton, every state
                // their own transitions reach from ∅, breadth first.
                let mut seen: Vec<Vec<u32>> = vec![Vec::new()];
                let mut text = String::new();
                let mut k = 0;
                while k < seen.len() && seen.len() < 64 {
                    let st = seen[k].clone();
                    let changed = (st == row.state).then_some(&got);
                    text.push_str(&line_of(&st, changed));
                    for j in 0..ne {
                        let t = match changed {
                            Some(t) if j == e => t.clone(),
                            _ => step(&st, j),
                        };
                        if let Some(t) = t
                            && !seen.contains(&t)
                        {
                            seen.push(t);
                        }
                    }
                    k += 1;
                }
                let f = from;
                out.push(case(text, format!("{what} carried forward"), move |mk| {
                    mk.message.contains(&f)
                }));
            }
        }
        Problem::Rthroughput(p) => {
            let s = p.solution.as_ref().unwrap();
            let (n, d) = match s.rthroughput.split_once('/') {
                Some((n, d)) => (n.parse::<u64>().unwrap(), d.parse::<u64>().unwrap()),
                None => (s.rthroughput.parse::<u64>().unwrap(), 1),
            };
            let to = match rng.random_range(0..3) {
                0 if d > 1 => format!("{}", n.div_ceil(d)),
                1 => format!("{}/{d}", n + 1),
                _ => format!("{}/{}", n, d + 1),
            };
            out.push(case(
                format!("{to}\n"),
                format!("{} → {to}", s.rthroughput),
                |_| true,
            ));
        }
    }
    out
}

/// `{0, 2}` as the check messages write sets (`set_string`).
fn set_text(s: &[u32]) -> String {
    course_engine::engine::hazard::set_string(s)
}

#[test]
fn every_drill_blames_only_the_changed_step() {
    let m = Machine::toy();
    for drill in Drill::ALL {
        let (mut answers, mut carried, mut right) = (0usize, 0usize, 0usize);
        for seed in 1..=50u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for c in cases(drill, &m, seed, &mut rng) {
                let r = drill.check(&m, None, seed, &c.text, "a.txt").unwrap();
                let what = format!("{} seed {seed}, {}:\n{}", drill.name(), c.what, c.text);
                answers += 1;
                carried +=
                    usize::from(c.what.contains("carried forward") || c.what.contains("from it"));
                if r.correct() {
                    assert!(c.may_be_right, "{what}reported correct");
                    right += 1;
                    continue;
                }
                let mistakes = r.mistakes();
                assert!(
                    (c.names)(mistakes[0]),
                    "{what}the first mistake does not name the change: {}",
                    mistakes[0].message
                );
                if !matches!(drill, Drill::ListSchedule | Drill::Modulo) {
                    assert!(mistakes.len() <= c.at_most, "{what}{mistakes:#?}");
                }
                for mk in &mistakes {
                    assert!(
                        (c.names)(mk),
                        "{what}a mistake not about the change: {}",
                        mk.message
                    );
                    for u in &c.unchanged {
                        assert!(
                            !mk.message.starts_with(&format!("{u} at ")),
                            "{what}the unchanged {u} is blamed: {}",
                            mk.message
                        );
                    }
                }
            }
        }
        crate::common::note(format!(
            "one changed step, {}: {answers} answers ({carried} carried forward, {right} still valid)",
            drill.name()
        ));
        assert!(answers >= 50, "{}: {answers}", drill.name());
    }
}

/// The modulo drill blames the step that breaks the rule, not the one
/// that differs from the reference: on seed 1, f at 4 with e at 3 is valid
/// and optimal, so with e at 5 beside the div f (which holds the
/// multiplier in rows 4–7) e is the mistake, and f is never marked.
#[test]
fn modulo_blames_the_step_that_breaks_the_rule() {
    let dir = crate::common::tempdir();
    let f = dir.path().join("m.txt");
    let answer = |e: u32| {
        format!(
            "# course drill modulo --seed 1 --machine toy\nii 8\na 0\nb 4\nc 5\nd 9\ne {e}\nf 4\ng 10\nh 2\ni 11\n"
        )
    };
    std::fs::write(&f, answer(3)).unwrap();
    Course::new(["drill", "modulo", "--check"])
        .arg_path(&f)
        .run();
    std::fs::write(&f, answer(5)).unwrap();
    let o = Course::new(["drill", "modulo", "--check"])
        .arg_path(&f)
        .code(1)
        .stdout_has("✗ e at 5: mul is taken at row 5 (cycle mod II 8) by f")
        .run();
    assert!(!o.stdout.contains("✗ f"), "{}", o.stdout);
    assert_eq!(o.stdout.matches('✗').count(), 1, "{}", o.stdout);
}
