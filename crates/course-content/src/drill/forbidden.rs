//! The forbidden drill: forbidden-latency sets and collision vectors
//! (Definition 23.1.5) of two or three random classes on one capacity-1
//! resource. The answer is `F(A,B) = {0, 2}` lines, each set read with
//! [`answer::set`], and `CV(A) = 000101` lines, each vector (the state of
//! the resource right after `A` issues on it alone) read with
//! [`answer::bits`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use super::{Drill, Mistake, MistakeKind, ProblemLine, Verdict, Verdicts, set_text};
use crate::json::MachineJson;
use course_engine::engine::check::ViolationKind;
use course_engine::engine::hazard;
use course_engine::formats::answer::{self, shorten};
use course_engine::formats::diagnostic::Diagnostic;
use course_engine::model::ids::{ClassId, ResourceId};
use course_engine::model::machine::{ClassFile, Machine, MachineFile, ResourceFile};
use course_engine::util::rng::{GENERATOR_VERSION, Rng};

/// The problem: the generated classes and their offsets on `r`.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub drill: Drill,
    pub generator_version: u32,
    /// The generated machine (one resource `r`, classes A, B, C).
    pub machine: MachineJson<Arc<Machine>>,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Solution>,
    /// The generated machine (for the text view).
    #[serde(skip)]
    pub model: Arc<Machine>,
}

impl Problem {
    /// The problem's first line (the command that makes it); the generated machine is not named: the seed makes it.
    pub fn line(&self) -> ProblemLine {
        ProblemLine {
            drill: self.drill,
            seed: self.seed,
            machine: None,
        }
    }
}

/// Every forbidden-latency set and collision vector.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// Per class name: the state of `r` right after the class issues on it
    /// alone, as bits, offset 0 first (`1` = reserved).
    pub collision_vectors: BTreeMap<String, String>,
    /// `F(A,B)` → its sorted latencies. The class names sort in class
    /// order, so this is also the order of the text view.
    pub forbidden: BTreeMap<String, Vec<u32>>,
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        let sets = self
            .forbidden
            .iter()
            .map(|(key, f)| format!("{key} = {}\n", set_text(f)));
        let vectors = self
            .collision_vectors
            .iter()
            .map(|(class, v)| format!("CV({class}) = {v}\n"));
        sets.chain(vectors).collect()
    }
}

/// A set or a vector the student got right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Right {
    /// `F(A,B)` or `CV(A)`.
    pub key: String,
    /// The value as the solution writes it: `{0,2}` or `000101`.
    pub value: String,
}

/// The outcome of checking the sets: format problems, then each `F(o,o')`
/// in class order, then each `CV(o)`.
pub type Report = Verdicts<Right>;

/// The class names, in order.
const NAMES: [&str; 3] = ["A", "B", "C"];

/// Two or three classes on one capacity-1 resource with random offset sets.
fn machine(seed: u64) -> Machine {
    let mut rng = Rng::derived(seed, "forbidden/tables");
    let nclass = rng.range(2, 3) as usize;
    let offsets = (0..nclass)
        .map(|_| {
            let mut offs: Vec<i64> = (0..=5).filter(|_| rng.percent(35)).collect();
            if offs.is_empty() {
                offs.push(rng.range(0, 3) as i64);
            }
            offs
        })
        .collect();
    tables(format!("forbidden-{seed}"), offsets, "forbidden drill")
}

/// The machine of a generated drill: one capacity-1 resource `r` and a
/// class per offset set, named A, B, C in order, each with latency one past
/// its last offset. `what` names the drill in a (never expected) error.
pub(super) fn tables(name: String, offsets: Vec<Vec<i64>>, what: &str) -> Machine {
    let nclass = offsets.len();
    let classes = NAMES
        .iter()
        .zip(offsets)
        .map(|(name, offs)| ClassFile {
            name: name.to_string(),
            latency: offs.iter().max().copied().unwrap_or(0) + 1,
            opcodes: vec![name.to_ascii_lowercase()],
            reservation: Some(offs.iter().map(|&k| ("r".to_string(), k)).collect()),
            ..Default::default()
        })
        .collect();
    let file = MachineFile {
        name: Some(name),
        issue_width: nclass as i64,
        resources: vec![ResourceFile {
            name: "r".into(),
            capacity: Some(1),
            ..Default::default()
        }],
        classes,
        ..Default::default()
    };
    Machine::from_file(&file, what).expect("generated tables are valid")
}

/// The one resource of a generated machine.
pub fn resource(m: &Machine) -> ResourceId {
    m.resource_by_name("r").unwrap_or_default()
}

/// `K(o)` on `r`, sorted: the offsets class `o` reserves.
pub(super) fn k(m: &Machine, o: ClassId) -> Vec<u32> {
    offsets_on(m, o, resource(m))
}

/// The offsets class `o` reserves on resource `r`, sorted, each once
/// (Definition 23.1.5's K(o) on `r`).
pub(super) fn offsets_on(m: &Machine, o: ClassId, r: ResourceId) -> Vec<u32> {
    let mut k: Vec<u32> = m.class(o).offsets(r).collect();
    k.sort_unstable();
    k.dedup();
    k
}

/// `CV(o)`, the state of `r` right after `o` issues alone, for every class.
fn vectors(m: &Machine) -> Vec<(String, Vec<u32>)> {
    m.class_ids()
        .map(|c| (m.class(c).name.clone(), k(m, c)))
        .collect()
}

/// `F(o,o')` for every ordered pair of classes, in class order.
fn forbidden(m: &Machine) -> Vec<(String, Vec<u32>)> {
    let r = resource(m);
    let mut v = Vec::new();
    for a in m.class_ids() {
        for b in m.class_ids() {
            v.push((
                format!("F({},{})", m.class(a).name, m.class(b).name),
                hazard::forbidden_latencies(m, r, a, b),
            ));
        }
    }
    v
}

/// The classes for `seed`, with their sets when `solution`.
pub fn problem(seed: u64, solution: bool) -> Problem {
    let m = machine(seed);
    let solution = solution.then(|| {
        let r = resource(&m);
        Solution {
            collision_vectors: m
                .class_ids()
                .map(|c| (m.class(c).name.clone(), hazard::collision_vector(&m, r, c)))
                .collect(),
            forbidden: forbidden(&m).into_iter().collect(),
        }
    });
    let model = Arc::new(m);
    Problem {
        drill: Drill::Forbidden,
        generator_version: GENERATOR_VERSION,
        machine: MachineJson(model.clone()),
        seed,
        solution,
        model,
    }
}

/// One `KEY = SET` line: the set's text and where it starts.
struct Given<'t> {
    set: &'t str,
    line: u32,
    column: u32,
    /// Where the key starts.
    key_column: u32,
}

/// A mistake of `kind` located at `line:column` of `file`.
pub(super) fn located<R>(
    kind: impl Into<MistakeKind>,
    file: &str,
    line: u32,
    column: u32,
    message: String,
) -> Verdict<R> {
    Verdict::Wrong(Mistake::new(
        kind,
        Diagnostic::new(file, line, column, message).to_string(),
    ))
}

/// The kind of a wrong set and the words that name its slip
/// ([`super::set_slip`], e.g. `the right set shifted up by one: `), or a
/// plain wrong value and no words when there is no slip.
pub(super) fn named_slip(slip: Option<(MistakeKind, String)>) -> (MistakeKind, String) {
    match slip {
        Some((kind, text)) => (kind, format!("{text}: ")),
        None => (MistakeKind::Wrong, String::new()),
    }
}

/// Checks `F(A,B) = {…}` and `CV(A) = bits` lines (`:` for `=` too; blanks
/// inside the key ignored; a key given twice counts as its last line; a
/// key the machine does not have is a format mistake).
pub fn check(seed: u64, text: &str, file: &str) -> Report {
    let m = machine(seed);
    let (given, mut verdicts) = read_keys(text, file);
    let sets = forbidden(&m);
    let vectors = vectors(&m);
    verdicts.extend(keys_not_asked_for(file, &given, &sets, &vectors));
    for (key, want) in &sets {
        // F(B,A), for an answer that gives the pair in the other order.
        let other = swapped_key(key).and_then(|k| {
            sets.iter()
                .find(|(o, _)| *o == k)
                .map(|(o, w)| (o.clone(), w.clone()))
        });
        let verdict = judge(&given, file, key.clone(), answer::set, |key, got, _| {
            compare_set(key, &got, want, other.as_ref())
        });
        verdicts.push(verdict);
    }
    for (class, want) in vectors {
        let key = format!("CV({class})");
        let verdict = judge(&given, file, key, answer::bits, |key, got, g| {
            compare_vector(key, &class, &got, &want, g.set)
        });
        verdicts.push(verdict);
    }
    Verdicts::new(Drill::Forbidden, seed, verdicts)
}

/// Reads the `KEY = VALUE` lines (or `KEY: VALUE`, as in every key-value
/// answer), blanks dropped from the key, the last line of a key kept; a
/// line with neither `=` nor `:` is a format mistake.
fn read_keys<'t>(text: &'t str, file: &str) -> (BTreeMap<String, Given<'t>>, Vec<Verdict<Right>>) {
    let mut given = BTreeMap::new();
    let mut verdicts = Vec::new();
    for l in answer::lines(text) {
        let Some((k, v)) = l.text.split_once(['=', ':']) else {
            verdicts.push(located(
                ViolationKind::Format,
                file,
                l.line,
                l.column,
                format!(
                    "expected 'F(A,B) = {{…}}' or 'CV(A) = bits', found '{}'",
                    shorten(l.text)
                ),
            ));
            continue;
        };
        let key: String = k.chars().filter(|c| !c.is_whitespace()).collect();
        let skipped = &l.text[..l.text.len() - v.trim_start().len()];
        given.insert(
            key,
            Given {
                set: v.trim(),
                line: l.line,
                column: l.column + skipped.chars().count() as u32,
                key_column: l.column,
            },
        );
    }
    (given, verdicts)
}

/// A format mistake, at its key, for every key given that is neither one of
/// the `sets` nor the collision vector of a class of `vectors`.
fn keys_not_asked_for(
    file: &str,
    given: &BTreeMap<String, Given>,
    sets: &[(String, Vec<u32>)],
    vectors: &[(String, Vec<u32>)],
) -> Vec<Verdict<Right>> {
    let names: Vec<&str> = vectors.iter().map(|(c, _)| c.as_str()).collect();
    given
        .iter()
        .filter(|(key, _)| {
            !sets.iter().any(|(k, _)| k == *key)
                && !vectors.iter().any(|(c, _)| format!("CV({c})") == **key)
        })
        .map(|(key, g)| {
            located(ViolationKind::Format,
                file,
                g.line,
                g.key_column,
                format!(
                    "'{}' is not asked for: the classes are {}, and the answer gives F(o,o') for every pair and CV(o) for every class",
                    shorten(key),
                    names.join(", ")
                ),
            )
        })
        .collect()
}

/// The verdict on `key`: missing, unreadable by `read` (a format mistake
/// located at the value), or what `compare` says of the value read.
fn judge(
    given: &BTreeMap<String, Given>,
    file: &str,
    key: String,
    read: fn(&str) -> Result<BTreeSet<u64>, String>,
    compare: impl FnOnce(String, Vec<u32>, &Given) -> Verdict<Right>,
) -> Verdict<Right> {
    let Some(g) = given.get(&key) else {
        return Verdict::Wrong(Mistake::new(
            ViolationKind::Missing,
            format!("{key}: missing"),
        ));
    };
    match read(g.set) {
        // Elements are at most answer::MAX_SET_ELEMENT.
        Ok(got) => compare(key, got.into_iter().map(|x| x as u32).collect(), g),
        Err(e) => located(
            ViolationKind::Format,
            file,
            g.line,
            g.column,
            format!("{key}: {e}"),
        ),
    }
}

/// `F(B,A)` for `F(A,B)` (`None` when the two classes are one).
fn swapped_key(key: &str) -> Option<String> {
    let inner = key.strip_prefix("F(")?.strip_suffix(')')?;
    let (a, b) = inner.split_once(',')?;
    (a != b).then(|| format!("F({b},{a})"))
}

/// `F(o,o')` given as `got` against the right set `want` (Definition
/// 23.1.5), a slip named: the pair in the other order (`other`, the key
/// and set of `F(o',o)`), a 0 left out, or [`super::set_slip`]'s.
fn compare_set(
    key: String,
    got: &[u32],
    want: &[u32],
    other: Option<&(String, Vec<u32>)>,
) -> Verdict<Right> {
    if got == want {
        return Verdict::Right(Right {
            key,
            value: hazard::set_string(got),
        });
    }
    if let Some((okey, owant)) = other
        && got == owant.as_slice()
    {
        let (first, second) = key
            .trim_start_matches("F(")
            .trim_end_matches(')')
            .split_once(',')
            .unwrap_or(("o", "o'"));
        return Verdict::Wrong(Mistake::new(
            MistakeKind::PairOrder,
            format!(
                "{key}: the pair in the other order: you gave {okey} = {}; {key} holds the \
                 distances d at which {second} may not issue d cycles after {first}, {}",
                hazard::set_string(got),
                hazard::set_string(want)
            ),
        ));
    }
    if want.first() == Some(&0) && got == &want[1..] {
        return Verdict::Wrong(Mistake::new(
            MistakeKind::MissingZero,
            format!(
                "{key}: d = 0 is missing: both hold r at a common offset, so they cannot \
                 issue in the same cycle; it is {}",
                hazard::set_string(want)
            ),
        ));
    }
    let (kind, named) = named_slip(super::set_slip(got, want));
    Verdict::Wrong(Mistake::new(
        kind,
        format!(
            "{key}: {named}you said {}, it is {}",
            shorten(&hazard::set_string(got)),
            hazard::set_string(want)
        ),
    ))
}

/// `CV(class)` given as `got` (written `said`) against the offsets `want`
/// that `class` reserves; a vector written offset 0 last is named.
fn compare_vector(
    key: String,
    class: &str,
    got: &[u32],
    want: &[u32],
    said: &str,
) -> Verdict<Right> {
    let bits = hazard::bits(want);
    if got == want {
        return Verdict::Right(Right { key, value: bits });
    }
    let digits: String = said.chars().filter(|c| matches!(c, '0' | '1')).collect();
    let reversed: String = digits.chars().rev().collect();
    let (kind, named) = if reversed.trim_end_matches('0') == bits.trim_end_matches('0') {
        (
            MistakeKind::Reversed,
            "reversed, offset 0 is the first bit: ",
        )
    } else {
        (MistakeKind::Wrong, "")
    };
    Verdict::Wrong(Mistake::new(
        kind,
        format!(
            "{key}: {named}you said {}, it is {bits} ({}): right after {class} issues, r is reserved at the offsets K({class}) = {}",
            shorten(said),
            hazard::bit_order(bits.len()),
            hazard::set_string(want),
        ),
    ))
}

/// How many hints the drill has.
pub const HINTS: usize = 2;

/// The first `level` hints (at most [`HINTS`]): what to compute from the
/// K sets, then Definition 23.1.5 worked on a pair of sets that is not in
/// the problem.
pub fn hints(p: &Problem, level: usize) -> Vec<String> {
    let m = &p.model;
    let mut out = vec![format!(
        "Work pair by pair from the K sets of the prompt: for F(o,o'), take every k in \
         K(o) and k' in K(o') and keep each difference k − k' that is 0 or more (o' \
         issued that many cycles after o would need {} in a cycle o holds it). CV(o) is \
         K(o) itself, written as bits from offset 0.",
        m.resource(resource(m)).name
    )];
    out.push(rule_example(m));
    out.truncate(level.min(HINTS));
    out
}

/// Definition 23.1.5 on two offset sets of which neither they nor their
/// forbidden latencies are a set of the problem or its answer.
pub(super) fn rule_example(m: &Machine) -> String {
    let ks: Vec<Vec<u32>> = m.class_ids().map(|c| k(m, c)).collect();
    // Every set of the problem and of its answer (the K sets, every F):
    // none may be shown, as a value, in the example.
    let mut taken: Vec<Vec<u32>> = ks.clone();
    taken.extend(forbidden(m).into_iter().map(|(_, f)| f));
    let candidates: [(&[u32], &[u32]); 8] = [
        (&[0, 3], &[0, 1]),
        (&[0, 1, 4], &[0, 2]),
        (&[0, 2, 5], &[1, 2]),
        (&[1, 4], &[0, 3, 4]),
        (&[0, 5], &[0, 2]),
        (&[0, 4, 6], &[1, 3]),
        (&[2, 6], &[0, 5]),
        (&[0, 1, 6], &[0, 4]),
    ];
    let (a, b) = candidates
        .iter()
        .find(|(a, b)| {
            let f = hazard::forbidden_between(a, b);
            [a.to_vec(), b.to_vec(), f]
                .iter()
                .all(|s| s.len() < 2 || !taken.contains(s))
        })
        .copied()
        .unwrap_or(candidates[0]);
    let f = hazard::forbidden_between(a, b);
    format!(
        "The rule on an example outside the problem: o' issued t cycles after o \
         collides when some k ∈ K(o) and k' ∈ K(o') give k = t + k'. With K(o) = {} and \
         K(o') = {}, F(o,o') = {{ k − k' ≥ 0 }} = {}. The collision vector of o has a 1 \
         at each offset of K(o).",
        set_text(a),
        set_text(b),
        set_text(&f)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reversed collision vector, a shifted set and an off-by-one
    /// offset are named.
    #[test]
    fn slips_are_named() {
        for seed in 1..40 {
            let s = problem(seed, true).solution.unwrap();
            let Some((class, v)) = s
                .collision_vectors
                .iter()
                .find(|(_, v)| v.chars().rev().collect::<String>() != **v)
            else {
                continue;
            };
            let rev: String = v.chars().rev().collect();
            let text = s.answer().replace(
                &format!("CV({class}) = {v}\n"),
                &format!("CV({class}) = {rev}\n"),
            );
            let r = check(seed, &text, "a.txt");
            let mk: Vec<&Mistake> = r.verdicts.iter().filter_map(Verdict::mistake).collect();
            assert_eq!(mk.len(), 1, "{mk:#?}");
            assert_eq!(mk[0].kind, MistakeKind::Reversed);
            assert!(
                mk[0].message.starts_with(&format!(
                    "CV({class}): reversed, offset 0 is the first bit: you said {rev}"
                )),
                "{}",
                mk[0].message
            );
            let (key, f) = s.forbidden.iter().find(|(_, f)| !f.is_empty()).unwrap();
            let up: Vec<u32> = f.iter().map(|x| x + 1).collect();
            let text = s.answer().replace(
                &format!("{key} = {}\n", set_text(f)),
                &format!("{key} = {}\n", set_text(&up)),
            );
            let r = check(seed, &text, "a.txt");
            let mk: Vec<&Mistake> = r.verdicts.iter().filter_map(Verdict::mistake).collect();
            assert_eq!(mk[0].kind, MistakeKind::Shifted, "{mk:#?}");
            assert!(
                mk[0]
                    .message
                    .starts_with(&format!("{key}: the right set shifted up by one"))
            );
            return;
        }
        panic!("no seed has a collision vector that reads differently reversed");
    }

    #[test]
    fn one_offset_off_by_one_is_named() {
        for seed in 1..40 {
            let s = problem(seed, true).solution.unwrap();
            // A set of two or more where the largest offset moved up by one
            // is still a set (so only that one offset is off).
            let Some((key, f)) = s.forbidden.iter().find(|(_, f)| f.len() >= 2) else {
                continue;
            };
            let mut off = f.clone();
            let last = off.len() - 1;
            off[last] += 1;
            let text = s.answer().replace(
                &format!("{key} = {}\n", set_text(f)),
                &format!("{key} = {}\n", set_text(&off)),
            );
            let r = check(seed, &text, "a.txt");
            let mk: Vec<&Mistake> = r.verdicts.iter().filter_map(Verdict::mistake).collect();
            assert_eq!(mk.len(), 1, "{mk:#?}");
            assert_eq!(mk[0].kind, MistakeKind::OffByOne, "{}", mk[0].message);
            assert!(mk[0].message.contains("off by one"), "{}", mk[0].message);
            return;
        }
        panic!("no seed has a forbidden set of two offsets");
    }

    fn messages(r: &Report) -> Vec<String> {
        crate::drill::mistake_messages(&r.verdicts)
    }

    #[test]
    fn a_huge_wrong_set_is_echoed_shortened() {
        let big: Vec<String> = (0..5000).map(|i| i.to_string()).collect();
        let text = format!("F(A,A) = {{{}}}\n", big.join(", "));
        let r = check(1, &text, "a.txt");
        let said = messages(&r)
            .into_iter()
            .find(|m| m.starts_with("F(A,A): you said "))
            .unwrap();
        assert!(said.starts_with("F(A,A): you said {0,1,2,3,"), "{said}");
        assert!(said.len() < 120, "{said}");
        assert!(said.contains("…, it is {0}"), "{said}");
    }

    #[test]
    fn solutions_check_as_correct() {
        for seed in 0..40 {
            let s = problem(seed, true).solution.unwrap();
            let r = check(seed, &s.answer(), "a.txt");
            assert!(r.correct, "seed {seed}: {:?}", messages(&r));
            // Blanks in the key, spaces between elements, any order.
            let spaced: String = s
                .forbidden
                .iter()
                .map(|(k, f)| {
                    let mut f: Vec<String> = f.iter().map(u32::to_string).collect();
                    f.reverse();
                    format!("{} = {{{}}}\n", k.replace(',', " , "), f.join(" "))
                })
                .chain(
                    s.collision_vectors
                        .iter()
                        .map(|(c, v)| format!("CV ( {c} ) = {}\n", v.replace('0', "0 "))),
                )
                .collect();
            assert!(check(seed, &spaced, "a.txt").correct, "{spaced}");
            let colons = s.answer().replace(" = ", ": ");
            assert!(check(seed, &colons, "a.txt").correct, "{colons}");
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let s = problem(3, true).solution.unwrap();
        let (key, want) = s.forbidden.iter().next().unwrap();
        let wrong = s.answer().replacen(
            &format!("{key} = {}", set_text(want)),
            &format!("{key} = {{9}}"),
            1,
        );
        let r = check(3, &wrong, "a.txt");
        assert_eq!(
            messages(&r),
            vec![format!(
                "{key}: you said {{9}}, it is {}",
                hazard::set_string(want)
            )]
        );
        let r = check(3, "", "a.txt");
        assert!(messages(&r).iter().all(|m| m.ends_with(": missing")));
    }

    #[test]
    fn keys_not_asked_for_are_named() {
        // Seed 1 has the classes A and B: F(A,C) is a slip, not ignored.
        let s = problem(1, true).solution.unwrap();
        let r = check(1, &format!("{}F(A,C) = {{0}}\n", s.answer()), "a.txt");
        assert!(!r.correct);
        let line = s.answer().lines().count() + 1;
        assert_eq!(
            messages(&r),
            vec![format!(
                "a.txt:{line}:1: 'F(A,C)' is not asked for: the classes are A, B, and the answer gives F(o,o') for every pair and CV(o) for every class"
            )]
        );
    }

    #[test]
    fn collision_vectors_are_states() {
        for seed in 0..40 {
            let m = machine(seed);
            let s = problem(seed, true).solution.unwrap();
            for (class, k) in vectors(&m) {
                let bits = &s.collision_vectors[&class];
                assert_eq!(bits, &hazard::bits(&k));
                // Written as the set of its ones, or with trailing zeros.
                for spelling in [hazard::set_string(&k), format!("{bits}00")] {
                    let answer = s.answer().replace(
                        &format!("CV({class}) = {bits}\n"),
                        &format!("CV({class}) = {spelling}\n"),
                    );
                    assert!(check(seed, &answer, "a.txt").correct, "{answer}");
                }
            }
        }
        // Seed 1 has K(B) = {1, 4}: the state is 01001, not F(B,B) = {0,3}.
        let s = problem(1, true).solution.unwrap();
        assert_eq!(s.collision_vectors["B"], "01001");
        let wrong = s.answer().replace("CV(B) = 01001", "CV(B) = 1001");
        assert_eq!(
            messages(&check(1, &wrong, "a.txt")),
            vec![
                "CV(B): you said 1001, it is 01001 (offsets 0..4, offset 0 first): right after B issues, r is reserved at the offsets K(B) = {1,4}"
            ]
        );
    }

    #[test]
    fn malformed_sets_are_located_format_errors() {
        for (bad, at, why) in [
            ("F(A,A) = {1, 2", "a.txt:2:10", "does not end with '}'"),
            (
                "F(A,A) = 0..1",
                "a.txt:2:10",
                "is a range, and ranges are not read",
            ),
            ("F(A,A) = {0, 1]", "a.txt:2:10", "does not end with '}'"),
            (
                "F(A,A) =   {0; 2}",
                "a.txt:2:12",
                "separate elements with commas",
            ),
        ] {
            let r = check(3, &format!("# sets\n{bad}\n"), "a.txt");
            let m = &messages(&r)[0];
            assert!(m.starts_with(&format!("{at}: F(A,A): ")), "{m}");
            assert!(m.contains(why), "{m}");
            assert_eq!(
                r.verdicts[0].mistake().map(|x| x.kind),
                Some(MistakeKind::Check(ViolationKind::Format))
            );
        }
        let r = check(3, "F(A,A) {0}\n", "a.txt");
        assert_eq!(
            messages(&r)[0],
            "a.txt:1:1: expected 'F(A,B) = {…}' or 'CV(A) = bits', found 'F(A,A) {0}'"
        );
        let r = check(3, "CV(A) =  01x\n", "a.txt");
        assert!(
            messages(&r)
                .iter()
                .any(|m| m.starts_with("a.txt:1:10: CV(A): '01x' is not a bit vector")),
            "{:?}",
            messages(&r)
        );
    }
}
