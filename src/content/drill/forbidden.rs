//! The forbidden drill: forbidden-latency sets and collision vectors
//! (Definition 23.1.5) of two or three random classes on one capacity-1
//! resource. The answer is `F(A,B) = {0, 2}` lines, each set read with
//! [`answer::set`].

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::{all_right, mistakes_only, Drill, Mistake, MistakeKind, Verdict};
use crate::engine::hazard;
use crate::formats::answer::{self, shorten};
use crate::formats::diagnostic::Diagnostic;
use crate::model::ids::ResourceId;
use crate::model::json::MachineJson;
use crate::model::machine::{ClassFile, Machine, MachineFile, ResourceFile};
use crate::util::rng::{Rng, GENERATOR_VERSION};

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

/// Every forbidden-latency set and collision vector.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// Per class name, latency 0 first, `1` = forbidden.
    pub collision_vectors: BTreeMap<String, String>,
    /// `F(A,B)` → its sorted latencies. The class names sort in class
    /// order, so this is also the order of the text view.
    pub forbidden: BTreeMap<String, Vec<u32>>,
}

impl Solution {
    /// The solution as an answer file.
    pub fn answer(&self) -> String {
        self.forbidden
            .iter()
            .map(|(key, f)| format!("{key} = {}\n", braces(f)))
            .collect()
    }
}

/// `{0, 2}`: a set as an answer file writes it.
fn braces(f: &[u32]) -> String {
    let v: Vec<String> = f.iter().map(u32::to_string).collect();
    format!("{{{}}}", v.join(", "))
}

/// A set the student got right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Right {
    /// `F(A,B)`.
    pub key: String,
    pub set: Vec<u32>,
}

/// The outcome of checking the sets.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub correct: bool,
    pub drill: Drill,
    /// Format problems, then each `F(o,o')` in class order (serialised as
    /// the list of mistakes).
    #[serde(rename = "mistakes", serialize_with = "mistakes_only")]
    pub verdicts: Vec<Verdict<Right>>,
    pub seed: u64,
}

/// The class names, in order.
const NAMES: [&str; 3] = ["A", "B", "C"];

/// Two or three classes on one capacity-1 resource with random offset sets.
fn machine(seed: u64) -> Machine {
    let mut rng = Rng::derived(seed, "forbidden/tables");
    let nclass = rng.range(2, 3);
    let mut classes = Vec::new();
    for name in NAMES.iter().take(nclass as usize) {
        let mut offs: Vec<i64> = (0..=5).filter(|_| rng.percent(35)).collect();
        if offs.is_empty() {
            offs.push(rng.range(0, 3) as i64);
        }
        let lat = offs.iter().max().copied().unwrap_or(0) + 1;
        classes.push(ClassFile {
            name: name.to_string(),
            latency: lat,
            opcodes: vec![name.to_ascii_lowercase()],
            unit: None,
            occupancy: None,
            reservation: Some(offs.iter().map(|&k| ("r".to_string(), k)).collect()),
            uops: None,
            read_advance: None,
        });
    }
    let file = MachineFile {
        name: Some(format!("forbidden-{seed}")),
        issue_width: nclass as i64,
        micro_op_buffer_size: None,
        resources: vec![ResourceFile {
            name: "r".into(),
            capacity: 1,
        }],
        classes,
    };
    Machine::from_file(&file, "forbidden drill").expect("generated tables are valid")
}

/// The one resource of a generated machine.
pub fn resource(m: &Machine) -> ResourceId {
    m.resource_by_name("r").unwrap_or_default()
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
}

/// Checks `F(A,B) = {…}` lines (blanks inside the key ignored; a key given
/// twice counts as its last line; lines for other keys are ignored).
pub fn check(seed: u64, text: &str, file: &str) -> Report {
    let m = machine(seed);
    let mut given: BTreeMap<String, Given> = BTreeMap::new();
    let mut verdicts: Vec<Verdict<Right>> = Vec::new();
    for l in answer::lines(text) {
        match l.text.split_once('=') {
            Some((k, v)) => {
                let key: String = k.chars().filter(|c| !c.is_whitespace()).collect();
                let set = v.trim();
                let skipped = &l.text[..l.text.len() - v.trim_start().len()];
                given.insert(
                    key,
                    Given {
                        set,
                        line: l.line,
                        column: l.column + skipped.chars().count() as u32,
                    },
                );
            }
            None => verdicts.push(Verdict::Wrong(Mistake::new(
                MistakeKind::Format,
                Diagnostic::new(
                    file,
                    l.line,
                    l.column,
                    format!("expected 'F(A,B) = {{…}}', found '{}'", shorten(l.text)),
                )
                .to_string(),
            ))),
        }
    }
    for (key, want) in forbidden(&m) {
        let verdict = match given.get(&key) {
            None => Verdict::Wrong(Mistake::new(
                MistakeKind::Missing,
                format!("{key}: missing"),
            )),
            Some(g) => match answer::set(g.set) {
                Ok(got) => {
                    // Elements are at most answer::MAX_SET_ELEMENT.
                    let got: Vec<u32> = got.into_iter().map(|x| x as u32).collect();
                    if got == want {
                        Verdict::Right(Right { key, set: got })
                    } else {
                        Verdict::Wrong(Mistake::new(
                            MistakeKind::Wrong,
                            format!(
                                "{key}: you said {}, it is {}",
                                hazard::set_string(&got),
                                hazard::set_string(&want)
                            ),
                        ))
                    }
                }
                Err(e) => Verdict::Wrong(Mistake::new(
                    MistakeKind::Format,
                    Diagnostic::new(file, g.line, g.column, format!("{key}: {e}")).to_string(),
                )),
            },
        };
        verdicts.push(verdict);
    }
    Report {
        correct: all_right(&verdicts),
        drill: Drill::Forbidden,
        verdicts,
        seed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(r: &Report) -> Vec<String> {
        r.verdicts
            .iter()
            .filter_map(|v| v.mistake().map(|x| x.message.clone()))
            .collect()
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
                .collect();
            assert!(check(seed, &spaced, "a.txt").correct, "{spaced}");
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let s = problem(3, true).solution.unwrap();
        let (key, want) = s.forbidden.iter().next().unwrap();
        let wrong = s.answer().replacen(
            &format!("{key} = {}", braces(want)),
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
    fn malformed_sets_are_located_format_errors() {
        for (bad, at, why) in [
            ("F(A,A) = {1, 2", "a.txt:2:10", "does not end with '}'"),
            ("F(A,A) = 0,1", "a.txt:2:10", "does not start with '{'"),
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
                Some(MistakeKind::Format)
            );
        }
        let r = check(3, "F(A,A) {0}\n", "a.txt");
        assert_eq!(
            messages(&r)[0],
            "a.txt:1:1: expected 'F(A,B) = {…}', found 'F(A,A) {0}'"
        );
    }
}
