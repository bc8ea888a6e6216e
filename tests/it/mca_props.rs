//! Properties of the `course mca` simulator (Algorithm 23.1.11) against the
//! bounds of Theorem 23.1.12, over generated loops on several machines.

use course_content::data::builtin_machine;
use course_content::generate::{self, GenParams};
use course_engine::engine::check::check_cycles;
use course_engine::engine::mca::{self, Options, simulate};
use course_engine::engine::mii;
use course_engine::model::machine::Machine;
use course_engine::model::program::Kind;

fn machines() -> Vec<Machine> {
    let toy = Machine::toy();
    let big = toy
        .clone()
        .with_name("toy-224")
        .with_micro_op_buffer_size(224);
    let named = |n: &str| Machine::from_yaml(builtin_machine(n).unwrap(), n).unwrap();
    vec![
        toy,
        big,
        named("skylake-div"),
        named("dot-fma"),
        named("skylake"),
        named("znver4"),
        named("neoverse-v2"),
        named("apple-m1"),
    ]
}

/// Operations on a dependence cycle or fed (transitively) by one.
fn paced_by_recurrence(p: &course_engine::model::program::Program) -> Vec<bool> {
    let reach = |o: usize| -> Vec<bool> {
        let mut seen = vec![false; p.len()];
        let mut stack = vec![o];
        while let Some(x) = stack.pop() {
            for e in p.out_edges(course_engine::model::ids::OpId::new(x as u32)) {
                if !seen[e.to.index()] {
                    seen[e.to.index()] = true;
                    stack.push(e.to.index());
                }
            }
        }
        seen
    };
    let mut paced = vec![false; p.len()];
    for o in 0..p.len() {
        let r = reach(o);
        if r[o] {
            for (x, &hit) in r.iter().enumerate() {
                paced[x] |= hit;
            }
        }
    }
    paced
}

/// Theorem 23.1.12 at finite N, straight from its proof: every resource
/// needs `N·U_r/cap(r)` occupied cycles, and a recurrence with ratio ℓ/d
/// forces `floor((N−1)/d)·ℓ` cycles between its first and last instances.
#[test]
fn never_beats_theorem_23_1_12_and_reaches_the_resource_bound() {
    let params = GenParams::loop_default();
    let n: u64 = 200;
    let mut close = 0;
    let mut loops = 0;
    for m in machines() {
        let big_buffer = m.micro_op_buffer_size() >= 224;
        // Generator v2 (no `li` reads a register) makes fewer loops
        // resource bound: 350 seeds per machine give the sample below.
        for seed in 0..350u64 {
            let ops = 4 + seed % 9;
            let (text, p) = generate::program(&m, &params, seed, Some(ops), Kind::Loop);
            let b = mii::analyze(&p, &m);
            let r = simulate(
                &p,
                &m,
                &Options {
                    iterations: n,
                    timeline_iterations: 0,
                },
            )
            .unwrap();
            loops += 1;
            let c = r.total_cycles;
            let ctx = || {
                format!(
                    "{} seed {seed}: C({n}) = {c}, bound {}\n{text}",
                    m.name(),
                    b.bound.fraction_string()
                )
            };
            for res in m.resource_ids() {
                let need = n * b.usage[res.index()];
                let cap = u64::from(m.resource(res).capacity);
                assert!(
                    c * cap >= need,
                    "resource {}: {}",
                    m.resource(res).name,
                    ctx()
                );
            }
            // The recurrence under the simulator's own latencies (memory
            // order into a store is llvm-mca's, not a latency).
            if let Some(z) = &mca::recurrence(&p, &m) {
                let (l, d) = (z.ratio().num(), z.ratio().den());
                assert!(
                    c >= (n - 1) / d * l,
                    "recurrence {}: {}",
                    z.path_string(&p),
                    ctx()
                );
            }
            // Cycles per iteration at large N, against the bound itself.
            assert!(
                r.cycles_per_iteration() >= r.bound.to_f64() * (1.0 - 2.0 / n as f64),
                "{}",
                ctx()
            );
            // A resource-bound loop on a big buffer runs within 5% of the
            // bound in the steady state, (C(2N) − C(N))/N. Resource-bound
            // here: a unit (not issue) is the bottleneck with 25% to spare
            // over μ/W and every recurrence, and no operation on a
            // recurrence, or fed by one, uses it (age-order issue can otherwise
            // starve the recurrence, as llvm-mca's does).
            let rec = mca::recurrence(&p, &m).map_or(0.0, |z| z.ratio().to_f64());
            let rthr = b.rthroughput.to_f64();
            let issue = b.usage[0] as f64 / f64::from(m.issue_width());
            let paced = paced_by_recurrence(&p);
            let hot = (0..p.len())
                .any(|o| paced[o] && m.class(p.ops()[o].class).usage(b.res_bottleneck) > 0);
            // The closeness checks hold for machines without groups; with
            // groups, llvm-mca's greedy choice of unit (which we follow)
            // can put a pipelined operation on the port a divide needs.
            let groups = m.resources().iter().any(|r| r.is_group());
            if big_buffer
                && !groups
                && !hot
                && b.res_bottleneck.index() != 0
                && rec <= 0.8 * rthr
                && issue <= 0.8 * rthr
            {
                let r2 = simulate(
                    &p,
                    &m,
                    &Options {
                        iterations: 2 * n,
                        timeline_iterations: 0,
                    },
                )
                .unwrap();
                let slope = (r2.total_cycles - c) as f64 / n as f64;
                assert!(
                    slope <= b.bound.to_f64() * 1.05,
                    "not within 5%: {slope} {}",
                    ctx()
                );
                close += 1;
            }
        }
    }
    assert!(loops >= 500);
    assert!(
        close >= 15,
        "only {close} resource-bound loops on big buffers (of {loops})"
    );
}

/// Bodies without recurrences (generated blocks run as loops) are resource
/// bound by construction: on a big buffer they never beat RThroughput and,
/// when a unit rather than the issue width is the bottleneck and no store
/// is ordered behind loads, come within 10% of it. (Not 5%: age-order issue is greedy, and on the toy machine an
/// old memory operation can delay the load that feeds the next divide, which
/// costs seed 69 half a cycle per iteration.)
#[test]
fn recurrence_free_bodies_reach_rthroughput() {
    let params = GenParams::block_default();
    let n = 200u64;
    let mut close = 0;
    for m in machines()
        .into_iter()
        .filter(|m| m.micro_op_buffer_size() >= 224)
    {
        for seed in 0..120u64 {
            let (text, p) = generate::program(&m, &params, seed, None, Kind::Block);
            let b = mii::analyze(&p, &m);
            assert!(b.recurrence.is_none());
            let issue = b.usage[0] as f64 / f64::from(m.issue_width());
            let run = |n| {
                simulate(
                    &p,
                    &m,
                    &Options {
                        iterations: n,
                        timeline_iterations: 0,
                    },
                )
                .unwrap()
                .total_cycles
            };
            let (c1, c2) = (run(n), run(2 * n));
            let slope = (c2 - c1) as f64 / n as f64;
            let (num, den) = (b.rthroughput.num(), b.rthroughput.den());
            assert!(
                c1 * den >= n * num,
                "{} seed {seed}: {c1}\n{text}",
                m.name()
            );
            // A store waits for every older load and store to issue
            // (llvm-mca's load/store unit): across iterations that can
            // chain a store behind a slow load, a constraint no edge shows.
            let stores = p.ops().iter().any(|o| o.writes_memory());
            let groups = m.resources().iter().any(|r| r.is_group());
            if b.res_bottleneck.index() != 0
                && issue <= 0.8 * b.rthroughput.to_f64()
                && !stores
                && !groups
            {
                assert!(
                    slope <= b.rthroughput.to_f64() * 1.10,
                    "{} seed {seed}: {slope} vs {}\n{text}",
                    m.name(),
                    b.rthroughput.decimal1()
                );
                close += 1;
            }
        }
    }
    // 120 bodies on each of the three machines without groups; about a
    // third hold a store.
    assert!(close >= 60, "only {close}");
}

/// An in-order run of a block (one iteration) is a valid schedule: the
/// grader finds no latency or resource violation in its issue cycles.
#[test]
fn in_order_blocks_respect_latencies_and_resources() {
    let params = GenParams::block_default();
    let m = Machine::toy();
    for seed in 0..300u64 {
        let (text, p) = generate::program(&m, &params, seed, None, Kind::Block);
        let r = simulate(
            &p,
            &m,
            &Options {
                iterations: 1,
                timeline_iterations: 1,
            },
        )
        .unwrap();
        assert_eq!(r.timeline.len(), p.len());
        let mut cycles = vec![0; p.len()];
        for s in &r.timeline {
            cycles[s.op] = s.issue;
        }
        let v = check_cycles(&p, &m, &cycles, None);
        assert!(v.is_empty(), "seed {seed}: {v:?}\n{text}");
        // In order: issue cycles never decrease along the program.
        assert!(
            cycles.windows(2).all(|w| w[0] <= w[1]),
            "seed {seed}: {cycles:?}"
        );
        // No run is shorter than the critical path (heights over the block).
        let longest = course_engine::engine::list::heights(&p, &m)
            .into_iter()
            .max()
            .unwrap_or(0) as i64;
        let end = cycles
            .iter()
            .zip(p.ops())
            .map(|(t, o)| t + i64::from(m.class(o.class).latency))
            .max()
            .unwrap_or(0);
        assert!(
            end - cycles[0] >= longest,
            "seed {seed}: {cycles:?} shorter than {longest}\n{text}"
        );
    }
}
