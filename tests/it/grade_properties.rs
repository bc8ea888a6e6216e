//! Over 1,000 generated blocks and loops: the reference schedules pass the
//! grader (with full marks, but for a block whose list schedule is above
//! the shortest schedule found), and a schedule with one operation moved by
//! one cycle is accepted exactly when an independent check (Definition
//! 23.1.3 by direct counting, every edge) accepts it — and when rejected,
//! for the reason that check finds.

use std::collections::BTreeMap;

use course_content::generate::{self, GenParams};
use course_content::lab::{LabInput, grade_input};
use course_engine::engine::check::{ViolationKind, check, check_cycles, submission_text};
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program};
use course_engine::util::rng::Rng;

/// (latency ok, resources ok), computed without the engine's tables.
fn independent(p: &Program, m: &Machine, t: &[i64], ii: Option<u64>) -> (bool, bool) {
    let ii = ii.map(|v| v as i64);
    let lat_ok = p.edges().iter().all(|e| {
        if p.kind() == Kind::Block && e.distance > 0 {
            return true;
        }
        t[e.to.index()] + i64::from(e.distance) * ii.unwrap_or(0)
            >= t[e.from.index()] + i64::from(e.latency)
    });
    let mut count: BTreeMap<(usize, i64), u32> = BTreeMap::new();
    for (i, op) in p.ops().iter().enumerate() {
        for &(r, k) in &m.class(op.class).reservation {
            let c = t[i] + i64::from(k);
            let c = match ii {
                Some(ii) => c.rem_euclid(ii),
                None => c,
            };
            *count.entry((r.index(), c)).or_default() += 1;
        }
    }
    let res_ok = count
        .iter()
        .all(|(&(r, _), &n)| n <= m.resources()[r].capacity);
    (lat_ok, res_ok)
}

#[test]
fn references_pass_and_mutations_are_judged_right() {
    let m = Machine::toy();
    let bp = GenParams::block_default();
    let lp = GenParams::loop_default();
    let (mut still_valid, mut rejected) = (0, 0);
    for seed in 0..1000u64 {
        for kind in [Kind::Block, Kind::Loop] {
            let params = if kind == Kind::Block { &bp } else { &lp };
            let (_, p) = generate::program(&m, params, seed, None, kind);
            let li = LabInput::new("g", p.clone(), &m);
            let reference = li.reference_text();
            let r = grade_input(&li, &m, 10.0, Ok(&reference));
            assert!(r.valid, "seed {seed}: {:?}", r.violations);
            // Full marks unless a block's list schedule is above the
            // shortest schedule found, the target.
            assert!(li.bound <= li.target, "seed {seed}");
            let full = match li.list_length {
                Some(list) => {
                    assert!(li.target <= list, "seed {seed}");
                    list == li.target
                }
                None => true,
            };
            assert_eq!(r.score == 10.0, full, "seed {seed} {kind:?}: {r:?}");
            assert!(check_cycles(&p, &m, &li.reference, li.ii).is_empty());

            let mut rng = Rng::derived(seed, kind.as_str());
            let x = rng.below(p.len() as u64) as usize;
            let mut t = li.reference.clone();
            let delta = if rng.percent(50) || t[x] == 0 { 1 } else { -1 };
            t[x] += delta;
            let text = submission_text(&p, &t, li.ii);
            let res = check(
                &p,
                &m,
                &course_engine::formats::submission::parse(&text, "s"),
            );
            let (lat_ok, res_ok) = independent(&p, &m, &t, li.ii);
            assert_eq!(
                res.valid(),
                lat_ok && res_ok,
                "seed {seed} {kind:?}: {:?}",
                res.violations
            );
            if res.valid() {
                still_valid += 1;
            } else {
                rejected += 1;
                let kinds: Vec<ViolationKind> = res.violations.iter().map(|v| v.kind).collect();
                assert_eq!(
                    kinds.contains(&ViolationKind::Latency),
                    !lat_ok,
                    "seed {seed}"
                );
                assert_eq!(
                    kinds.contains(&ViolationKind::Resource),
                    !res_ok,
                    "seed {seed}"
                );
                // The moved operation is named in some message.
                let label = p.label(course_engine::model::ids::OpId::from_index(x));
                let named = res.violations.iter().any(|v| {
                    v.message
                        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .any(|w| w == label)
                });
                assert!(
                    named,
                    "seed {seed}: {label} not named in {:?}",
                    res.violations
                );
            }
        }
    }
    assert!(
        still_valid > 100 && rejected > 100,
        "{still_valid} {rejected}"
    );
}
