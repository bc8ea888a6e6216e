//! Properties over many seeds, each checked by an independent computation
//! written here rather than by the engine's own helpers.

use std::collections::BTreeMap;

use course_content::generate::{self, GenParams};
use course_engine::engine::list::list_schedule;
use course_engine::engine::mii;
use course_engine::model::machine::Machine;
use course_engine::model::program::{Kind, Program, parse};
use course_engine::util::ratio::Ratio;
use course_engine::util::rng::Rng;

/// Definition 23.1.3 by direct counting, and every distance-0 latency.
fn independent_problems(p: &Program, m: &Machine, t: &[i64]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut count: BTreeMap<(usize, i64), u32> = BTreeMap::new();
    for (i, op) in p.ops().iter().enumerate() {
        for &(r, k) in &m.class(op.class).reservation {
            *count.entry((r.index(), t[i] + i64::from(k))).or_default() += 1;
        }
    }
    for ((r, c), n) in count {
        if n > m.resources()[r].capacity {
            problems.push(format!("{} over capacity at {c}", m.resources()[r].name));
        }
    }
    for e in p.edges() {
        if e.distance == 0 && t[e.to.index()] < t[e.from.index()] + i64::from(e.latency) {
            problems.push(format!("{} too early", p.label(e.to)));
        }
    }
    problems
}

fn machines() -> Vec<Machine> {
    // A wider machine with a general reservation list and a repeated pair.
    let wide = Machine::from_yaml(include_str!("../data/wide.yaml"), "wide.yaml").unwrap();
    vec![Machine::toy(), wide]
}

#[test]
fn reference_list_schedules_pass_an_independent_check() {
    let params = GenParams::block_default();
    for m in machines() {
        for seed in 0..1000 {
            let ops = if seed % 10 == 0 {
                Some(40 + seed % 50)
            } else {
                None
            };
            let (text, p) = generate::program(&m, &params, seed, ops, Kind::Block);
            let s = list_schedule(&p, &m);
            let problems = independent_problems(&p, &m, &s.cycles);
            assert!(
                problems.is_empty(),
                "{} seed {seed}: {problems:?}\n{text}",
                m.name()
            );
            assert!(course_engine::engine::check::check_cycles(&p, &m, &s.cycles, None).is_empty());
        }
    }
}

/// A small loop whose operations read random registers of the whole body:
/// dense, with many circuits.
fn dense_loop(seed: u64) -> String {
    let mut rng = Rng::derived(seed, "dense-loop");
    let n = rng.range(2, 8);
    let opcodes = ["add", "mul", "load", "div", "sub"];
    let mut s = String::from("loop dense\n");
    for i in 0..n {
        let op = opcodes[rng.below(opcodes.len() as u64) as usize];
        let reg = |rng: &mut Rng| {
            let r = rng.range(1, n);
            if rng.percent(25) {
                format!("r{r}@{}", rng.range(1, 3))
            } else {
                format!("r{r}")
            }
        };
        let a = reg(&mut rng);
        let b = reg(&mut rng);
        if op == "load" {
            s.push_str(&format!("o{i}: r{} = load [x + {a}]\n", i + 1));
        } else {
            s.push_str(&format!("o{i}: r{} = {op} {a}, {b}\n", i + 1));
        }
    }
    s
}

#[test]
fn rec_mii_equals_circuit_enumeration() {
    let m = Machine::toy();
    let params = GenParams::loop_default();
    let mut with_cycles = 0;
    for seed in 0..1000 {
        for text in [
            dense_loop(seed),
            generate::loop_body(&m, &params, seed, None),
        ] {
            let p = parse(&text, "loop", &m).unwrap();
            let brute = mii::brute_force_max_ratio(&p, 1_000_000);
            assert!(brute.complete);
            let fast = mii::critical_recurrence(&p);
            assert_eq!(
                fast.as_ref().map(|r| r.ratio()),
                brute.best,
                "seed {seed}\n{text}"
            );
            if let Some(r) = &fast {
                with_cycles += 1;
                // The reported recurrence is a real cycle with those totals.
                let mut l = 0u64;
                let mut d = 0u64;
                for (i, &e) in r.edges.iter().enumerate() {
                    let e = &p.edges()[e as usize];
                    let next = &p.edges()[r.edges[(i + 1) % r.edges.len()] as usize];
                    assert_eq!(e.to, next.from);
                    l += u64::from(e.latency);
                    d += u64::from(e.distance);
                }
                assert_eq!((l, d), (r.latency, r.distance));
                assert_eq!(
                    mii::analyze(&p, &m).rec_mii,
                    brute.best.map_or(0, Ratio::ceil)
                );
            }
        }
    }
    assert!(with_cycles > 1500);
}

#[test]
fn res_mii_and_rthroughput_match_a_direct_count() {
    let params = GenParams::loop_default();
    for m in machines() {
        for seed in 0..1000 {
            let p = parse(&generate::loop_body(&m, &params, seed, None), "loop", &m).unwrap();
            let mut per_resource = vec![0u64; m.resources().len()];
            for op in p.ops() {
                for &(r, _) in &m.class(op.class).reservation {
                    per_resource[r.index()] += 1;
                }
            }
            let uops: u64 = p
                .ops()
                .iter()
                .map(|o| u64::from(m.class(o.class).uops))
                .sum();
            assert_eq!(per_resource[0], uops);
            let mut best = Ratio::new(uops, u64::from(m.issue_width()));
            let mut res_mii = uops.div_ceil(u64::from(m.issue_width()));
            for (r, &u) in per_resource.iter().enumerate().skip(1) {
                let cap = u64::from(m.resources()[r].capacity);
                best = best.max(Ratio::new(u, cap));
                res_mii = res_mii.max(u.div_ceil(cap));
            }
            let b = mii::analyze(&p, &m);
            assert_eq!(b.rthroughput, best);
            assert_eq!(b.res_mii, res_mii);
            assert_eq!(b.usage, per_resource);
        }
    }
}

/// The list scheduler of product.md §5 written the slow, obvious way:
/// every cycle rescan all operations, take the best ready one that has not
/// failed this cycle, place it if Algorithm 23.1.4 says it fits.
fn naive_list_schedule(p: &Program, m: &Machine) -> Vec<i64> {
    let h = course_engine::engine::list::heights(p, m);
    let n = p.len();
    let mut t: Vec<Option<i64>> = vec![None; n];
    let mut table = course_engine::engine::rtable::GlobalTable::new();
    let mut cycle = 0i64;
    while t.iter().any(Option::is_none) {
        let mut failed = vec![false; n];
        loop {
            let ready = (0..n).filter(|&x| {
                t[x].is_none()
                    && !failed[x]
                    && p.edges()
                        .iter()
                        .filter(|e| e.distance == 0 && e.to.index() == x)
                        .all(|e| {
                            t[e.from.index()].is_some_and(|tp| tp + i64::from(e.latency) <= cycle)
                        })
            });
            let Some(x) = ready.max_by_key(|&x| (h[x], std::cmp::Reverse(x))) else {
                break;
            };
            let class = p.ops()[x].class;
            if table.fits(m, class, cycle) {
                table.place(m, class, cycle, None);
                t[x] = Some(cycle);
            } else {
                failed[x] = true;
            }
        }
        cycle += 1;
    }
    t.into_iter().map(|c| c.unwrap_or(-1)).collect()
}

#[test]
fn the_fast_list_scheduler_equals_the_obvious_one() {
    let params = GenParams::block_default();
    for m in machines() {
        for seed in 0..1000 {
            let ops = if seed % 20 == 0 { Some(60) } else { None };
            let (text, p) = generate::program(&m, &params, seed, ops, Kind::Block);
            assert_eq!(
                list_schedule(&p, &m).cycles,
                naive_list_schedule(&p, &m),
                "{} seed {seed}\n{text}",
                m.name()
            );
        }
    }
}

#[test]
/// Every modulo schedule of a generated loop passes the hard checks.
fn generated_loops_are_valid() {
    let m = Machine::toy();
    let params = GenParams::loop_default();
    for seed in 0..200 {
        let ops = if seed % 4 == 0 {
            Some(30 + seed % 40)
        } else {
            None
        };
        let (text, p) = generate::program(&m, &params, seed, ops, Kind::Loop);
        let s = course_engine::engine::modulo::modulo_schedule(&p, &m);
        assert!(s.ii >= s.mii);
        let v = course_engine::engine::check::check_cycles(&p, &m, &s.cycles, Some(s.ii));
        assert!(v.is_empty(), "seed {seed}: {v:?}\n{text}");
    }
}

#[test]
/// The parser's invariants: edges sorted by (from, to, distance) and unique,
/// adjacency rows equal to a rescan, register edges naming a register read.
fn edges_sorted_unique_and_adjacency_matches_a_rescan() {
    let m = Machine::toy();
    for seed in 0..40 {
        for kind in [Kind::Block, Kind::Loop] {
            let params = if kind == Kind::Block {
                generate::GenParams::block_default()
            } else {
                generate::GenParams::loop_default()
            };
            let (_, p) = generate::program(&m, &params, seed, Some(60), kind);
            let keys: Vec<_> = p
                .edges()
                .iter()
                .map(|e| (e.from, e.to, e.distance))
                .collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "seed {seed}");
            assert_eq!(p.succs().len(), p.len());
            for x in 0..p.len() {
                let out: Vec<u32> = (0..p.edges().len() as u32)
                    .filter(|&i| p.edges()[i as usize].from.index() == x)
                    .collect();
                let inc: Vec<u32> = (0..p.edges().len() as u32)
                    .filter(|&i| p.edges()[i as usize].to.index() == x)
                    .collect();
                assert_eq!(&p.succs()[x], &out[..]);
                assert_eq!(&p.preds()[x], &inc[..]);
            }
            for e in p.edges() {
                if e.kind == course_engine::model::program::EdgeKind::Reg {
                    let r = p.edge_register(e).expect("a register edge has a register");
                    assert!(p.op(e.to).reg_uses().any(|u| u.name == r));
                }
            }
        }
    }
}
