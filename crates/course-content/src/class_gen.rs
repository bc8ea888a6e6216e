//! A seeded made-up class for a lab (the 300-student class of the class
//! report's benchmark, BENCHMARKS.md): per student and input, the
//! reference schedule, or a valid but longer one, or one of the mistakes
//! the class report names (an operation a cycle early, a load's result
//! read after one cycle, two operations of a class on one unit, II below
//! MII, a missing or doubled line), or a broken file (garbage, none).
//! Pure: the files as text; `examples/gen_class.rs` writes them.

use crate::lab::{Lab, LabInput};
use course_engine::engine::check;
use course_engine::engine::mii;
use course_engine::model::ids::Cycle;
use course_engine::model::program::{EdgeKind, Kind};
use course_engine::util::rng::Rng;

/// One made-up student: a folder name and `(file name, text)` for each
/// submission handed in (a missing one is absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenStudent {
    pub name: String,
    pub files: Vec<(String, String)>,
}

/// `students` students for `lab`, from `seed` (ChaCha8, through
/// [`Rng`]): the same seed gives the same class.
pub fn class(lab: &Lab, students: usize, seed: u64) -> Vec<GenStudent> {
    let mut rng = Rng::derived(seed, "class");
    let width = students.max(1).to_string().len();
    (1..=students)
        .map(|k| GenStudent {
            name: format!("s{k:0width$}"),
            files: lab
                .inputs
                .iter()
                .filter_map(|li| {
                    submission(lab, li, &mut rng).map(|t| (format!("{}.sched", li.stem), t))
                })
                .collect(),
        })
        .collect()
}

/// One submission of `li`, or `None` for no file.
fn submission(lab: &Lab, li: &LabInput, rng: &mut Rng) -> Option<String> {
    let p = &li.program;
    let m = &lab.machine;
    let mut t: Vec<Cycle> = li.reference.clone();
    let mut ii = li.ii;
    let n = p.len() as u64;
    let pick = |rng: &mut Rng| rng.below(n) as usize;
    // right, longer, early, load latency 1, clash, II below MII, missing,
    // doubled, garbage, no file.
    match rng.weighted(&[45, 10, 12, 8, 8, 5, 4, 2, 3, 3]) {
        0 => {}
        1 => {
            // Valid but longer: everything from a cycle on a little later
            // (a loop: one more II); kept only when it stays valid.
            let (mut u, mut jj) = (t.clone(), ii);
            match jj {
                Some(x) => jj = Some(x + 1),
                None => {
                    let cut = t[pick(rng)];
                    let by = rng.range(1, 3) as Cycle;
                    for c in &mut u {
                        if *c >= cut {
                            *c += by;
                        }
                    }
                }
            }
            if check::check_cycles(p, m, &u, jj).is_empty() {
                (t, ii) = (u, jj);
            }
        }
        2 => {
            let x = pick(rng);
            t[x] -= i64::from(t[x] > 0);
        }
        3 => {
            // A consumer of a load one cycle after it.
            let loads: Vec<_> = p
                .edges()
                .iter()
                .filter(|e| {
                    e.kind == EdgeKind::Reg
                        && e.distance == 0
                        && e.latency > 1
                        && m.class(p.op(e.from).class).name == "load"
                })
                .collect();
            match rng.choose(&loads) {
                Some(e) => t[e.to.index()] = t[e.from.index()] + 1,
                None => t[pick(rng)] += 1,
            }
        }
        4 => {
            // Two operations of one class: the second where the first is,
            // or one cycle after it.
            let x = pick(rng);
            let same: Vec<usize> = (0..p.len())
                .filter(|&y| y != x && p.ops()[y].class == p.ops()[x].class)
                .collect();
            if let Some(&y) = rng.choose(&same) {
                t[y] = t[x] + rng.below(2) as Cycle;
            }
        }
        5 if p.kind() == Kind::Loop => {
            let b = mii::analyze(p, m);
            ii = Some(b.mii.saturating_sub(1).max(1));
        }
        5 => t[pick(rng)] += 1,
        6 | 7 => {
            let text = check::submission_text(p, &t, ii);
            let mut lines: Vec<&str> = text.lines().collect();
            let at = rng.below(lines.len() as u64) as usize;
            if rng.below(2) == 0 && lines.len() > 1 {
                lines.remove(at);
            } else {
                let l = lines[at];
                lines.push(l);
            }
            return Some(lines.iter().map(|l| format!("{l}\n")).collect());
        }
        8 => return Some("schedule:\n  a -> 0 ??\n".into()),
        _ => return None,
    }
    Some(check::submission_text(p, &t, ii))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Source;
    use crate::lab::{grade_input, load_lab};

    #[test]
    fn a_seed_gives_one_mixed_class() {
        let lab = load_lab(&Source::Embedded, "ch23-sched").unwrap();
        let a = class(&lab, 60, 7);
        assert_eq!(a, class(&lab, 60, 7));
        assert_ne!(a, class(&lab, 60, 8));
        assert_eq!(a[0].name, "s01");
        let (mut valid, mut invalid, mut absent) = (0, 0, 0);
        for st in &a {
            for li in &lab.inputs {
                let file = format!("{}.sched", li.stem);
                match st.files.iter().find(|(f, _)| *f == file) {
                    None => absent += 1,
                    Some((_, text)) => {
                        if grade_input(li, &lab.machine, 10.0, Ok(text)).valid {
                            valid += 1
                        } else {
                            invalid += 1
                        }
                    }
                }
            }
        }
        assert!(
            valid > 200 && invalid > 80 && absent > 0,
            "{valid} {invalid} {absent}"
        );
    }
}
