//! The shortcuts of the out-of-order simulation (Algorithm 23.1.11):
//! jumping over cycles in which nothing can change, and extrapolating a
//! state that repeats relative to the cycle and the iteration. Neither may
//! change a report: Total Cycles, micro-ops, booked cycles per operation
//! and resource (the pressure view), the peak in flight and every timeline
//! row must be those of the plain run that simulates every cycle
//! (`simulate_full`). Checked on the whole differential corpus under both
//! memory orders and on seeded random machines and loops (port groups,
//! scheduler queues, long dividers, wide instructions, loads and stores,
//! zero-latency operations, offsets that do not start at 0), at iteration
//! counts around a period: 1, 2, 3, 7, 100, 1000 and some primes.

use course_engine::engine::mca::{
    self, MemoryOrder, Options, Report, Shortcuts, llvm_memory, simulate, simulate_full,
    simulate_with,
};
use course_engine::model::machine::Machine;
use course_engine::model::program::{self, Program};
use course_engine::util::rng::Rng;

use crate::kernels;

const COUNTS: &[u64] = &[1, 2, 3, 7, 100, 1000, 1009];

/// `fast` with its extrapolation count cleared, which is all it may differ
/// in from a full run.
fn same_as_full(fast: &Report, full: &Report) -> bool {
    let mut f = fast.clone();
    f.extrapolated_iterations = 0;
    &f == full
}

/// Runs `p` on `m` at `n` iterations with every shortcut, with the cycle
/// skipping alone and with none; returns the fast report, or the first
/// difference.
fn compare(p: &Program, m: &Machine, n: u64, timeline: u64) -> Result<Report, String> {
    let opts = Options {
        iterations: n,
        timeline_iterations: timeline,
    };
    let full = simulate_full(p, m, &opts).map_err(|e| e.to_string())?;
    let fast = simulate(p, m, &opts).map_err(|e| e.to_string())?;
    let skip_only = Shortcuts {
        skip: true,
        extrapolate: false,
    };
    let skipped = simulate_with(p, m, &opts, skip_only).map_err(|e| e.to_string())?;
    if skipped != full {
        return Err(format!(
            "skipping cycles: {} cycles, full run {}",
            skipped.total_cycles, full.total_cycles
        ));
    }
    if !same_as_full(&fast, &full) {
        let first = fast
            .timeline
            .iter()
            .zip(&full.timeline)
            .position(|(a, b)| a != b);
        return Err(format!(
            "extrapolated ({} iterations): {} cycles, full run {}; booked equal: {}; first timeline difference: {first:?}",
            fast.extrapolated_iterations,
            fast.total_cycles,
            full.total_cycles,
            fast.booked == full.booked
        ));
    }
    Ok(fast)
}

#[test]
fn shortcuts_change_nothing_on_the_corpus() {
    let (mut n_kernels, mut extrapolated) = (0, 0);
    let mut failures = Vec::new();
    for model in kernels::MODELS {
        let m = kernels::machine(model);
        for path in kernels::lab_files(model) {
            n_kernels += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let parsed = program::parse(&text, "k.txt", &m).unwrap();
            for order in [MemoryOrder::NoAlias, MemoryOrder::Conservative] {
                let p = llvm_memory(&parsed, &m, order).unwrap_or_else(|| parsed.clone());
                for &n in COUNTS {
                    for timeline in [0, 3, 10] {
                        match compare(&p, &m, n, timeline) {
                            Ok(r) => {
                                if n == 1000 && timeline == 10 && order == MemoryOrder::NoAlias {
                                    extrapolated += u32::from(r.extrapolated_iterations > 0);
                                }
                            }
                            Err(e) => failures.push(format!(
                                "{}: {order:?}, {n} iterations, timeline {timeline}: {e}",
                                path.display()
                            )),
                        }
                    }
                }
            }
        }
    }
    assert!(n_kernels >= 38, "{n_kernels} kernels");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every kernel settles into a period well before 1000 iterations.
    assert_eq!(
        extrapolated, n_kernels,
        "extrapolated on {extrapolated} of {n_kernels}"
    );
}

/// A random out-of-order machine in the YAML format: kinds of one or two
/// units, a divider held for many cycles, groups (one of them sometimes a
/// scheduler queue), classes with several micro-ops, and sometimes a class
/// whose reservation skips offsets (the ports' general path).
fn random_machine(rng: &mut Rng) -> String {
    let kinds = rng.range(2, 5) as usize;
    let width = rng.range(1, 6);
    let buffer = *rng.choose(&[4u64, 8, 16, 32, 64, 128]).unwrap();
    let mut y = format!("name: random\nissue_width: {width}\nmicro_op_buffer_size: {buffer}\n");
    if rng.percent(30) {
        y += &format!("reorder_buffer_size: {}\n", buffer + rng.range(0, buffer));
    }
    let top = |rng: &mut Rng, key: &str, y: &mut String| {
        if rng.percent(40) {
            *y += &format!("{key}: {}\n", rng.range(1, 6));
        }
    };
    top(rng, "retire_width", &mut y);
    top(rng, "load_queue_size", &mut y);
    top(rng, "store_queue_size", &mut y);
    y += "resources:\n  - { name: div, capacity: 1 }\n";
    let mut names: Vec<String> = Vec::new();
    for k in 0..kinds {
        y += &format!("  - {{ name: p{k}, capacity: {} }}\n", rng.range(1, 2));
        names.push(format!("p{k}"));
    }
    for g in 0..rng.range(0, 3) {
        let mut members: Vec<usize> = (0..kinds).collect();
        rng.shuffle(&mut members);
        members.truncate(rng.range(2, kinds as u64) as usize);
        members.sort_unstable();
        let list: Vec<String> = members.iter().map(|k| format!("p{k}")).collect();
        let queue = if rng.percent(40) {
            format!(", buffer_size: {}", rng.range(2, 12))
        } else {
            String::new()
        };
        y += &format!(
            "  - {{ name: g{g}, group: [{}]{queue} }}\n",
            list.join(", ")
        );
        names.push(format!("g{g}"));
    }
    let port = |rng: &mut Rng| rng.choose(&names).unwrap().clone();
    y += "classes:\n";
    let alu_lat = if rng.percent(20) { 0 } else { 1 };
    y += &format!(
        "  - {{ name: alu, latency: {alu_lat}, opcodes: [add, sub], uses: [[{}, 1]] }}\n",
        port(rng)
    );
    y += "  - { name: mov, latency: 0, opcodes: [mov] }\n";
    let mul = rng.range(2, 5);
    y += &format!(
        "  - {{ name: mul, latency: {mul}, opcodes: [mul], uses: [[{}, {}]] }}\n",
        port(rng),
        rng.range(1, 2)
    );
    let div = rng.range(6, 24);
    y += &format!(
        "  - {{ name: div, latency: {div}, opcodes: [div], uses: [[div, {}], [{}, 1]] }}\n",
        rng.range(2, div),
        port(rng)
    );
    y += &format!(
        "  - {{ name: load, latency: {}, opcodes: [load], uses: [[{}, 1]] }}\n",
        rng.range(2, 6),
        port(rng)
    );
    let (a, b) = (port(rng), port(rng));
    let second = if a == b {
        String::new()
    } else {
        format!(", [{b}, 1]")
    };
    y +=
        &format!("  - {{ name: store, latency: 1, opcodes: [store], uses: [[{a}, 1]{second}] }}\n");
    y += &format!(
        "  - {{ name: wide, latency: 2, uops: {}, opcodes: [wide], uses: [[{}, 1]] }}\n",
        rng.range(1, width),
        port(rng)
    );
    if rng.percent(30) {
        y += &format!(
            "  - {{ name: odd, latency: 4, opcodes: [odd], reservation: [[p0, 0], [{}, 2]] }}\n",
            names[rng.below(kinds as u64) as usize]
        );
    }
    y
}

/// A random loop (or block) on `random_machine`'s opcodes: register reads
/// of earlier results, of later ones (carried to the next iteration) and
/// `r@2`; loads and stores through symbols and registers.
fn random_kernel(rng: &mut Rng, odd: bool) -> String {
    let n = rng.range(1, 10) as usize;
    let looped = rng.percent(80);
    let mut names = vec!["add", "sub", "mov", "mul", "div", "load", "store", "wide"];
    if odd {
        names.push("odd");
    }
    let ops: Vec<&str> = (0..n).map(|_| *rng.choose(&names).unwrap()).collect();
    // The registers a read of operation `i` may name: every result in a
    // loop (a later one is carried from the previous iteration), the
    // earlier ones in a block.
    let defined: Vec<usize> = (0..n).filter(|&i| ops[i] != "store").collect();
    let reg = |rng: &mut Rng, i: usize| -> Option<String> {
        let from: Vec<usize> = defined
            .iter()
            .copied()
            .filter(|&d| looped || d < i)
            .collect();
        let r = *rng.choose(&from)?;
        Some(if looped && rng.percent(10) {
            format!("r{r}@2")
        } else {
            format!("r{r}")
        })
    };
    let mut t = String::from(if looped { "loop k\n" } else { "block k\n" });
    for (i, &op) in ops.iter().enumerate() {
        let sym = *rng.choose(&["x", "y", "z"]).unwrap();
        let addr = match reg(rng, i) {
            Some(r) if rng.percent(30) => format!("[{sym} + {r}]"),
            _ => format!("[{sym}]"),
        };
        let src = |rng: &mut Rng| reg(rng, i).unwrap_or_else(|| "1".to_string());
        let line = match op {
            "load" => format!("r{i} = load {addr}"),
            "store" => format!("store {addr}, {}", src(rng)),
            "mov" => format!("r{i} = mov {}", src(rng)),
            _ if rng.percent(30) => format!("r{i} = {op} {}, 1", src(rng)),
            _ => format!("r{i} = {op} {}, {}", src(rng), src(rng)),
        };
        t += &format!("o{i}: {line}\n");
    }
    t
}

#[test]
fn shortcuts_change_nothing_on_random_machines_and_loops() {
    let counts: &[u64] = &[1, 2, 3, 7, 100, 257, 1000];
    let (mut runs, mut extrapolated, mut tried) = (0, 0, 0);
    for seed in 0..150u64 {
        let mut rng = Rng::new(seed);
        let yaml = random_machine(&mut rng);
        let m = Machine::from_yaml(&yaml, "random.yaml")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{yaml}"));
        let odd = yaml.contains("name: odd");
        for _ in 0..3 {
            let text = random_kernel(&mut rng, odd);
            let parsed = program::parse(&text, "k.txt", &m)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            tried += 1;
            let order = if rng.percent(50) {
                MemoryOrder::NoAlias
            } else {
                MemoryOrder::Conservative
            };
            let p = llvm_memory(&parsed, &m, order).unwrap_or(parsed);
            let timeline = rng.range(0, 4);
            for &n in counts {
                runs += 1;
                match compare(&p, &m, n, timeline) {
                    Ok(r) => extrapolated += u32::from(n == 1000 && r.extrapolated_iterations > 0),
                    Err(e) => panic!(
                        "seed {seed}, {order:?}, {n} iterations, timeline {timeline}: {e}\n{yaml}\n{text}"
                    ),
                }
            }
        }
    }
    // Nearly every loop repeats within 1000 iterations, so the comparisons
    // above exercised the extrapolation, not just the full run.
    assert!(
        extrapolated * 10 >= tried * 9,
        "extrapolated {extrapolated} of {tried}"
    );
    kernels::note(format!(
        "mca_extrapolate: {tried} random loops, {runs} runs equal to the full simulation; {extrapolated} extrapolated at 1000 iterations"
    ));
}

/// Long runs: the extrapolated report at 10⁵ iterations equals the full
/// one on the kernels whose steady state involves the divider, the
/// scheduler queue and the load/store order.
#[test]
fn long_runs_extrapolate_exactly() {
    let m = kernels::machine("skylake-llvm14");
    for k in ["div-mul", "sqrt-div", "store-mix", "loads-add", "vcopy"] {
        let path = kernels::root()
            .join("skylake-llvm14")
            .join(format!("{k}.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let p = program::parse(&text, "k.txt", &m).unwrap();
        let r = compare(&p, &m, 100_003, 10).unwrap_or_else(|e| panic!("{k}: {e}"));
        assert!(
            r.extrapolated_iterations > 99_000,
            "{k}: {}",
            r.extrapolated_iterations
        );
        let pressure = mca::simulated_pressure(&p, &m, &r);
        assert!(pressure.per_iteration.iter().any(|&x| x > 0.0));
    }
}
