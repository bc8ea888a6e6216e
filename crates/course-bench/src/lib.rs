//! Scale benchmarks of the engine (product.md §10): seeded workloads, timed
//! medians, peak heap memory and log–log growth exponents, returned as data for
//! the `course-bench` binary and BENCHMARKS.md.
//!
//! The binary installs [`heap::Counting`] as its allocator, so in-process
//! peaks are measured there and nowhere else: the product's `course` binary
//! runs on the plain system allocator. The process benchmarks time that
//! `course` binary from outside, as a user runs it.
//!
//! Workloads come from the same seeded generators as `course gen`
//! ([`course_content::generate`]), plus [`diamond_ladder`], a loop with `2^k` elementary
//! circuits that separates Howard's policy iteration (polynomial) from
//! circuit enumeration (exponential). Nothing here asserts a time: the
//! figures are reported, never checked.

use std::path::Path;
use std::time::{Duration, Instant};

use course_content::generate::{self, GenParams};
use course_engine::engine::check;
use course_engine::engine::hazard::{self, Automaton};
use course_engine::engine::list;
use course_engine::engine::mii;
use course_engine::model::ids::ResourceId;
use course_engine::model::machine::Machine;
use course_engine::model::program::{self, Kind, Program};

pub use crate::report::{BenchOutput, Fit, Measurement, Section};

pub mod heap;
pub mod process;
pub mod report;
pub mod suite;

/// Every benchmark `course-bench --only` accepts, in run order.
pub const NAMES: &[&str] = &[
    "list-schedule",
    "parse",
    "mii",
    "mii-ladder",
    "modulo",
    "exact",
    "hazard",
    "grading",
    "drill-latency",
    "process",
];

/// How hard to work: `quick` uses small sizes and few runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub quick: bool,
}

impl Options {
    fn runs(&self, size: u64) -> usize {
        match (self.quick, size) {
            (true, _) => 1,
            (false, s) if s >= 1_000_000 => 3,
            _ => 5,
        }
    }
}

/// The median of a non-empty slice (mean of the middle two when even).
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The least-squares slope of `ln y` on `ln x`: the growth exponent `p` of
/// `y ≈ c·x^p`. `None` with fewer than two distinct positive points.
pub fn loglog_slope(points: &[(f64, f64)]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|&(x, y)| (x.ln(), y.ln()))
        .collect();
    let n = pts.len() as f64;
    if pts.len() < 2 {
        return None;
    }
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 {
        return None;
    }
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    Some(sxy / sxx)
}

/// The slope over the measurements of `label` with `from <= size <= to`.
pub fn fit(ms: &[Measurement], label: &str, from: u64, to: u64) -> Option<Fit> {
    let pts: Vec<(f64, f64)> = ms
        .iter()
        .filter(|m| m.label == label && m.size >= from && m.size <= to)
        .map(|m| (m.size as f64, m.median_s))
        .collect();
    let lo = ms
        .iter()
        .filter(|m| m.label == label && m.size >= from)
        .map(|m| m.size)
        .min()?;
    let hi = ms
        .iter()
        .filter(|m| m.label == label && m.size <= to)
        .map(|m| m.size)
        .max()?;
    loglog_slope(&pts).map(|slope| Fit {
        label: label.to_string(),
        from: lo,
        to: hi,
        slope,
    })
}

/// Times `runs` runs of `f` (after `setup` builds a fresh input each time,
/// untimed); the median and the peak heap of the first run.
fn time<I, T>(
    runs: usize,
    setup: impl FnMut() -> I,
    f: impl FnMut(I) -> T,
) -> (f64, Option<u64>, T) {
    let (times, peak, out) = time_each(runs, setup, f);
    (median(&times), peak, out)
}

/// [`time`] with every run's time.
fn time_each<I, T>(
    runs: usize,
    mut setup: impl FnMut() -> I,
    mut f: impl FnMut(I) -> T,
) -> (Vec<f64>, Option<u64>, T) {
    let mut times = Vec::with_capacity(runs);
    let mut peak = None;
    let mut last = None;
    for i in 0..runs.max(1) {
        // The previous result goes first: each run starts from the same heap.
        drop(last.take());
        let input = setup();
        let start = Instant::now();
        let (out, pk) = if i == 0 {
            crate::heap::peak_during(|| f(input))
        } else {
            (f(input), None)
        };
        times.push(start.elapsed().as_secs_f64());
        if i == 0 {
            peak = pk;
        }
        last = Some(out);
    }
    (times, peak, last.expect("at least one run"))
}

/// A random block of `n` operations from the list-schedule drill parameters.
pub fn random_block(m: &Machine, seed: u64, n: u64) -> (String, Program) {
    generate::program(m, &GenParams::block_default(), seed, Some(n), Kind::Block)
}

/// A random loop of `n` operations from the loop drill parameters.
pub fn random_loop(m: &Machine, seed: u64, n: u64) -> (String, Program) {
    generate::program(m, &GenParams::loop_default(), seed, Some(n), Kind::Loop)
}

/// A ladder of `k` diamonds closed by a recurrence, in lab format: `s0`
/// reads `s_k` of the previous iteration, and diamond `i` forks `s_i` into
/// an add and a multiply that join in `s_{i+1}`. Each diamond doubles the
/// paths, so the loop has exactly `2^k` elementary circuits (each of
/// distance 1), the most critical taking every multiply: `1 + 4k` cycles.
pub fn diamond_ladder(k: u32) -> String {
    let mut s = format!(
        "# a ladder of {k} diamonds on a recurrence: 2^{k} elementary circuits\nloop ladder{k}\n"
    );
    s.push_str(&format!("s0: r0 = add r{}, 1\n", 3 * k));
    for i in 0..k {
        let (src, a, b, j) = (3 * i, 3 * i + 1, 3 * i + 2, 3 * i + 3);
        s.push_str(&format!("a{i}: r{a} = add r{src}, 1\n"));
        s.push_str(&format!("m{i}: r{b} = mul r{src}, 3\n"));
        s.push_str(&format!("s{}: r{j} = add r{a}, r{b}\n", i + 1));
    }
    s
}

/// Runs the benchmark `name` (one of [`NAMES`]). `exe` is the `course`
/// binary for `drill-latency` (and writes the inputs of `process`);
/// `measured` is the binary `process` times.
pub fn run(
    name: &str,
    m: &Machine,
    opts: Options,
    exe: &Path,
    measured: &Path,
) -> Result<Section, String> {
    match name {
        "list-schedule" => Ok(list_schedule(m, opts)),
        "parse" => Ok(parse_blocks(m, opts)),
        "mii" => Ok(mii_random(m, opts)),
        "mii-ladder" => Ok(mii_ladder(m, opts)),
        "modulo" => Ok(modulo_random(m, opts)),
        "exact" => Ok(exact_sizes(m, opts)),
        "hazard" => Ok(hazard_automaton(opts)),
        "grading" => Ok(grading(m, opts)),
        "drill-latency" => drill_latency(exe, opts),
        "process" => process::processes(
            opts,
            process::Binaries {
                generator: exe,
                measured,
            },
            Duration::from_secs(if opts.quick { 10 } else { 60 }),
        ),
        _ => Err(format!(
            "unknown benchmark '{name}' (expected one of: {})",
            NAMES.join(", ")
        )),
    }
}

/// The sizes of a scaling section: all of `full`, or without the largest
/// under `--quick`.
fn ladder(opts: Options, full: &'static [u64]) -> &'static [u64] {
    match full.split_last() {
        Some((_, smaller)) if opts.quick => smaller,
        _ => full,
    }
}

/// List scheduling of random blocks, 10³ … 10⁶ operations.
pub fn list_schedule(m: &Machine, opts: Options) -> Section {
    list_schedule_sizes(m, opts, ladder(opts, &[1_000, 10_000, 100_000, 1_000_000]))
}

/// [`list_schedule`] over chosen sizes.
pub fn list_schedule_sizes(m: &Machine, opts: Options, sizes: &[u64]) -> Section {
    let mut ms = Vec::new();
    for &n in sizes {
        let start = Instant::now();
        let (text, gen_peak) = crate::heap::peak_during(|| {
            generate::generate(m, &GenParams::block_default(), 1, Some(n), Kind::Block)
        });
        let gen_s = start.elapsed().as_secs_f64();
        ms.push(Measurement {
            label: "generate".into(),
            size: n,
            median_s: gen_s,
            runs: 1,
            peak_bytes: gen_peak,
            note: format!("{} bytes", text.len()),
            ..Default::default()
        });
        let start = Instant::now();
        let (p, parse_peak) = crate::heap::peak_during(|| {
            program::parse(&text, "generated", m).expect("generated inputs parse")
        });
        let parse_s = start.elapsed().as_secs_f64();
        ms.push(Measurement {
            label: "parse".into(),
            size: n,
            median_s: parse_s,
            runs: 1,
            peak_bytes: parse_peak,
            note: format!("{} edges", p.edges().len()),
            ..Default::default()
        });
        drop(text);
        let (t, peak, s) = time(opts.runs(n), || (), |()| list::list_schedule(&p, m));
        ms.push(Measurement {
            label: "schedule".into(),
            size: n,
            median_s: t,
            runs: opts.runs(n),
            peak_bytes: peak,
            note: format!("length {} cycles", s.length),
            ..Default::default()
        });
    }
    let fits = [
        fit(&ms, "schedule", sizes[0], u64::MAX),
        fit(&ms, "schedule", 10_000, u64::MAX),
        fit(&ms, "generate", 10_000, u64::MAX),
        fit(&ms, "parse", 10_000, u64::MAX),
    ];
    Section {
        name: "list-schedule".into(),
        title: "List scheduling of random blocks (toy machine)".into(),
        measurements: ms,
        fits: fits.into_iter().flatten().collect(),
    }
}

/// Parsing random blocks, 10³ … 10⁶ operations (the lab text generated
/// once per size, untimed): time and peak heap of `program::parse`, which
/// builds the operations and the dependence graph.
pub fn parse_blocks(m: &Machine, opts: Options) -> Section {
    parse_sizes(m, opts, ladder(opts, &[1_000, 10_000, 100_000, 1_000_000]))
}

/// [`parse_blocks`] over chosen sizes.
pub fn parse_sizes(m: &Machine, opts: Options, sizes: &[u64]) -> Section {
    let mut ms = Vec::new();
    for &n in sizes {
        let text = generate::generate(m, &GenParams::block_default(), 1, Some(n), Kind::Block);
        let (times, peak, p) = time_each(
            opts.runs(n),
            || (),
            |()| program::parse(&text, "generated", m).expect("generated inputs parse"),
        );
        ms.push(Measurement {
            label: "parse".into(),
            size: n,
            median_s: median(&times),
            min_s: times.iter().copied().reduce(f64::min),
            max_s: times.iter().copied().reduce(f64::max),
            runs: opts.runs(n),
            peak_bytes: peak,
            note: format!("{} bytes of text, {} edges", text.len(), p.edges().len()),
            ..Default::default()
        });
    }
    let fits = [
        fit(&ms, "parse", sizes[0], u64::MAX),
        fit(&ms, "parse", 10_000, u64::MAX),
    ];
    Section {
        name: "parse".into(),
        title: "Parsing random blocks into programs (toy machine)".into(),
        measurements: ms,
        fits: fits.into_iter().flatten().collect(),
    }
}

/// `mii::analyze` of random loops, 10² … 10⁵ operations.
pub fn mii_random(m: &Machine, opts: Options) -> Section {
    mii_random_sizes(m, opts, ladder(opts, &[100, 1_000, 10_000, 100_000]))
}

/// [`mii_random`] over chosen sizes.
pub fn mii_random_sizes(m: &Machine, opts: Options, sizes: &[u64]) -> Section {
    let mut ms = Vec::new();
    for &n in sizes {
        let (_, p) = random_loop(m, 1, n);
        let (t, peak, b) = time(opts.runs(n), || (), |()| mii::analyze(&p, m));
        ms.push(Measurement {
            label: "analyze".into(),
            size: n,
            median_s: t,
            runs: opts.runs(n),
            peak_bytes: peak,
            note: format!(
                "{} edges; ResMII {}, RecMII {}, MII {}",
                p.edges().len(),
                b.res_mii,
                b.rec_mii,
                b.mii
            ),
            ..Default::default()
        });
    }
    let fits = [fit(&ms, "analyze", sizes[0], u64::MAX)];
    Section {
        name: "mii".into(),
        title: "MII of random loops (toy machine)".into(),
        measurements: ms,
        fits: fits.into_iter().flatten().collect(),
    }
}

/// Iterative modulo scheduling of random loops, 10² … 10⁵ operations, with
/// the II reached against MII.
pub fn modulo_random(m: &Machine, opts: Options) -> Section {
    let sizes: &[u64] = if opts.quick {
        &[100, 1_000]
    } else {
        &[100, 1_000, 10_000, 100_000]
    };
    let mut ms = Vec::new();
    for &n in sizes {
        let (_, p) = random_loop(m, 1, n);
        let runs = if n >= 10_000 {
            opts.runs(n).min(3)
        } else {
            opts.runs(n)
        };
        let (t, peak, s) = time(
            runs,
            || (),
            |()| course_engine::engine::modulo::modulo_schedule(&p, m),
        );
        ms.push(Measurement {
            label: "modulo".into(),
            size: n,
            median_s: t,
            runs,
            peak_bytes: peak,
            note: format!(
                "{} edges; MII {}, II {} ({} IIs tried before)",
                p.edges().len(),
                s.mii,
                s.ii,
                s.attempts
            ),
            ..Default::default()
        });
    }
    let fits = [
        fit(&ms, "modulo", sizes[0], u64::MAX),
        fit(&ms, "modulo", 10_000, u64::MAX),
    ];
    Section {
        name: "modulo".into(),
        title: "Iterative modulo scheduling of random loops (toy machine)".into(),
        measurements: ms,
        fits: fits.into_iter().flatten().collect(),
    }
}

/// The loop sizes of the exact-II benchmark (`course gen loop --ops N`).
pub const EXACT_SIZES: &[u64] = &[16, 24, 32, 40, 48, 56, 64, 72, 80];
/// The block sizes of the optimum benchmark (`course gen block --ops N`).
pub const OPTIMUM_SIZES: &[u64] = &[30, 40, 50, 60];
/// Seeds per size (1 …).
pub const EXACT_SEEDS: u64 = 20;

/// What the exact benchmark schedules: loops (minimum II) or blocks
/// (shortest length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExactKind {
    /// `course gen loop`: the exact modulo search.
    Loop,
    /// `course gen block`: the list schedule and the optimum beside it.
    Block,
}

impl ExactKind {
    /// The word `course gen` takes.
    pub fn word(self) -> &'static str {
        match self {
            ExactKind::Loop => "loop",
            ExactKind::Block => "block",
        }
    }
}

/// One input of the exact benchmark, as the reference schedules it:
/// whether its figure is proven optimal (a loop's II minimal, a block's
/// length shortest), and how far the lesson's heuristic is above it (a
/// loop's II above MII; a block's list schedule above the optimum).
pub fn exact_one(m: &Machine, kind: ExactKind, ops: u64, seed: u64) -> (bool, u64) {
    match kind {
        ExactKind::Loop => {
            let (_, p) = random_loop(m, seed, ops);
            let s = course_engine::engine::modulo::modulo_schedule(&p, m);
            let proven = matches!(
                s.minimality,
                course_engine::engine::modulo::Minimality::Mii
                    | course_engine::engine::modulo::Minimality::Proven
            );
            (proven, s.ii - s.mii)
        }
        ExactKind::Block => {
            let (_, p) = random_block(m, seed, ops);
            let s = course_engine::engine::reference::reference(&p, m);
            match s.optimum {
                Some(o) => (o.proven(), (s.length - o.length).max(0) as u64),
                None => (false, 0),
            }
        }
    }
}

/// The exact references (issue: every loop's II proven minimal up to 80
/// operations, every block's length up to 60): per size, 20 seeds, each
/// timed once; the median, the fastest and the worst, and the share
/// proven. Then the same inputs under the WebAssembly build in node, when
/// node and the built page are here ([`wasm_exact`]).
pub fn exact_sizes(m: &Machine, opts: Options) -> Section {
    let mut ms = Vec::new();
    for kind in [ExactKind::Loop, ExactKind::Block] {
        let all = match kind {
            ExactKind::Loop => EXACT_SIZES,
            ExactKind::Block => OPTIMUM_SIZES,
        };
        let (sizes, seeds): (&[u64], u64) = if opts.quick {
            (&all[..2], 3)
        } else {
            (all, EXACT_SEEDS)
        };
        for &n in sizes {
            let mut times = Vec::new();
            let (mut proven, mut above) = (0, 0);
            for seed in 1..=seeds {
                let start = Instant::now();
                let (ok, gap) = exact_one(m, kind, n, seed);
                times.push(start.elapsed().as_secs_f64());
                proven += u64::from(ok);
                above += u64::from(gap > 0);
            }
            ms.push(exact_measurement(kind, "native", n, &times, proven, above));
        }
        match wasm_exact(kind, sizes, seeds) {
            Ok(rows) => ms.extend(rows),
            Err(why) => ms.push(Measurement {
                label: format!("{} wasm", kind.word()),
                note: format!("not run: {why}"),
                ..Default::default()
            }),
        }
    }
    Section {
        name: "exact".into(),
        title: "Exact references of random loops (minimum II) and blocks (shortest length), as `course schedule` computes them (toy machine)".into(),
        measurements: ms,
        fits: Vec::new(),
    }
}

/// A row of [`exact_sizes`]: `times` of one size's seeds.
fn exact_measurement(
    kind: ExactKind,
    label: &str,
    n: u64,
    times: &[f64],
    proven: u64,
    above: u64,
) -> Measurement {
    let worst = times.iter().copied().fold(0.0, f64::max);
    let best = times.iter().copied().fold(f64::INFINITY, f64::min);
    let note = match kind {
        ExactKind::Loop => format!(
            "{proven} of {} proven minimal; {above} above MII",
            times.len()
        ),
        ExactKind::Block => format!(
            "{proven} of {} proven optimal; {above} with the list schedule longer",
            times.len()
        ),
    };
    Measurement {
        label: format!("{} {label}", kind.word()),
        size: n,
        median_s: median(times),
        min_s: Some(best),
        max_s: Some(worst),
        runs: times.len(),
        note,
        ..Default::default()
    }
}

/// The exact references under the WebAssembly build in node: runs
/// `web/test/bench-exact.mjs` (next to the source this binary was built
/// from, or under `$COURSE_SOURCE`) on the built page (`$COURSE_WEB_DIR`,
/// else `target/web`), which times each `bench_exact` call of the engine
/// with `performance.now()`.
pub fn wasm_exact(kind: ExactKind, sizes: &[u64], seeds: u64) -> Result<Vec<Measurement>, String> {
    let root = std::env::var_os("COURSE_SOURCE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let script = root.join("web/test/bench-exact.mjs");
    let web = std::env::var_os("COURSE_WEB_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target/web"));
    if !script.exists() {
        return Err(format!("no {}", script.display()));
    }
    if !web.join("course-wasm.js").exists() {
        return Err(format!("no built page in {} (web/build.sh)", web.display()));
    }
    let sizes_arg: Vec<String> = sizes.iter().map(u64::to_string).collect();
    let out = std::process::Command::new("node")
        .arg(&script)
        .arg(sizes_arg.join(","))
        .arg(seeds.to_string())
        .arg(kind.word())
        .env("COURSE_WEB_DIR", &web)
        .output()
        .map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "node {}: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    // One line an input: `OPS SEED SECONDS PROVEN GAP`.
    let text = String::from_utf8_lossy(&out.stdout);
    let mut rows = Vec::new();
    for &n in sizes {
        let mut times = Vec::new();
        let (mut proven, mut above) = (0, 0);
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 5 || f[0].parse() != Ok(n) {
                continue;
            }
            times.push(f[2].parse::<f64>().map_err(|e| format!("{line:?}: {e}"))?);
            proven += u64::from(f[3] == "true");
            above += u64::from(f[4] != "0");
        }
        if times.is_empty() {
            return Err(format!("node printed nothing for {n} operations"));
        }
        rows.push(exact_measurement(kind, "wasm", n, &times, proven, above));
    }
    Ok(rows)
}

/// Howard's MII against circuit enumeration on [`diamond_ladder`]: the
/// enumeration grows `k` until one run exceeds the cap (10 s; 0.2 s quick),
/// the engine continues to much larger `k`.
pub fn mii_ladder(m: &Machine, opts: Options) -> Section {
    let cap = if opts.quick {
        Duration::from_millis(200)
    } else {
        Duration::from_secs(10)
    };
    let engine_ks: &[u32] = if opts.quick {
        &[4, 8, 16, 64]
    } else {
        &[4, 8, 16, 32, 64, 128, 256, 1024, 4096]
    };
    mii_ladder_with(m, opts, cap, engine_ks, 40)
}

/// [`mii_ladder`] with an explicit enumeration cap, engine `k`s and the
/// largest `k` enumeration may try.
pub fn mii_ladder_with(
    m: &Machine,
    opts: Options,
    cap: Duration,
    engine_ks: &[u32],
    max_enum_k: u32,
) -> Section {
    let mut ms = Vec::new();
    let mut enum_ks = Vec::new();
    let mut k = 1;
    while k <= max_enum_k {
        let p = program::parse(&diamond_ladder(k), "ladder", m).expect("the ladder parses");
        // One timed run first: beyond a second, repeating is pointless.
        let start = Instant::now();
        let e = mii::brute_force_max_ratio(&p, u64::MAX);
        let first = start.elapsed();
        let mut times = vec![first.as_secs_f64()];
        if first < Duration::from_millis(200) {
            for _ in 1..opts.runs(1) {
                let start = Instant::now();
                std::hint::black_box(mii::brute_force_max_ratio(&p, u64::MAX));
                times.push(start.elapsed().as_secs_f64());
            }
        }
        let best = e.best.map_or("-".into(), |r| r.fraction_string());
        ms.push(Measurement {
            label: "enumerate".into(),
            size: u64::from(k),
            median_s: median(&times),
            runs: times.len(),
            peak_bytes: None,
            note: format!("{} circuits, max ratio {best}", e.circuits),
            ..Default::default()
        });
        enum_ks.push(k);
        if first > cap {
            break;
        }
        k += 1;
    }
    let mut ks: Vec<u32> = enum_ks
        .iter()
        .copied()
        .chain(engine_ks.iter().copied())
        .collect();
    ks.sort_unstable();
    ks.dedup();
    for k in ks {
        let p = program::parse(&diamond_ladder(k), "ladder", m).expect("the ladder parses");
        let (t, peak, rec) = time(opts.runs(1), || (), |()| mii::critical_recurrence(&p));
        let best = rec.map_or("-".into(), |r| r.ratio().fraction_string());
        ms.push(Measurement {
            label: "howard".into(),
            size: u64::from(k),
            median_s: t,
            runs: opts.runs(1),
            peak_bytes: peak,
            note: format!("max ratio {best}"),
            ..Default::default()
        });
    }
    // Enumeration is exponential in k, so a log–log slope would mislead: its
    // growth is reported as a factor per step of k (see the last note).
    let fits = [fit(&ms, "howard", 16, u64::MAX)];
    let mut s = Section {
        name: "mii-ladder".into(),
        title: "MII on the diamond ladder (2^k circuits): Howard vs enumeration".into(),
        measurements: ms,
        fits: fits.into_iter().flatten().collect(),
    };
    if let Some(d) = doubling_factor(&s.measurements, "enumerate", 6)
        && let Some(m) = s.measurements.iter_mut().rfind(|m| m.label == "enumerate")
    {
        m.note
            .push_str(&format!("; time ×{d:.2} per step of k over the last 6"));
    }
    s
}

/// The geometric-mean growth factor of `label`'s times per unit of size
/// over its last `last` measurements.
pub fn doubling_factor(ms: &[Measurement], label: &str, last: usize) -> Option<f64> {
    let v: Vec<&Measurement> = ms.iter().filter(|m| m.label == label).collect();
    let tail = &v[v.len().saturating_sub(last)..];
    let (a, b) = (tail.first()?, tail.last()?);
    if b.size <= a.size || a.median_s <= 0.0 {
        return None;
    }
    Some((b.median_s / a.median_s).powf(1.0 / (b.size - a.size) as f64))
}

/// Automaton enumeration on the pathological family, D = 8 … 20.
pub fn hazard_automaton(opts: Options) -> Section {
    let ds: Vec<u32> = if opts.quick {
        (8..=14).step_by(2).collect()
    } else {
        (8..=20).collect()
    };
    hazard_sizes(opts, &ds)
}

/// [`hazard_automaton`] over chosen `D`s.
pub fn hazard_sizes(opts: Options, ds: &[u32]) -> Section {
    let mut ms = Vec::new();
    for &d in ds {
        let m = hazard::pathological_machine(d);
        let r = m.resource_by_name("r").expect("the family has resource r");
        let runs = if d >= 18 {
            opts.runs(1_000_000)
        } else {
            opts.runs(1)
        };
        let (t, peak, a) = time(runs, || (), |()| Automaton::build(&m, &[r]));
        let note = match a {
            Ok(a) => format!("{} states, {} classes", a.len(), d),
            Err(e) => format!("not built: {e}"),
        };
        ms.push(Measurement {
            label: "build".into(),
            size: u64::from(d),
            median_s: t,
            runs,
            peak_bytes: peak,
            note,
            ..Default::default()
        });
    }
    // The work is states (2^D) × transitions per state (D + 1): the slope is
    // fitted against the number of states, not against D.
    let pts: Vec<(f64, f64)> = ms
        .iter()
        .map(|m| ((m.size as f64).exp2(), m.median_s))
        .collect();
    let fits = loglog_slope(&pts).map(|slope| Fit {
        label: "build vs states".into(),
        from: ds.first().map_or(0, |&d| 1u64 << d.min(63)),
        to: ds.last().map_or(0, |&d| 1u64 << d.min(63)),
        slope,
    });
    Section {
        name: "hazard".into(),
        title: "Hazard automaton of the pathological family (2^D states)".into(),
        measurements: ms,
        fits: fits.into_iter().collect(),
    }
}

/// The submissions of the grading benchmark: `count` running-block-sized
/// random blocks (8–12 operations), each with a submission text — the
/// reference schedule, every third one perturbed so the checker also reports
/// violations. Deterministic in `seed`.
pub fn grading_corpus(m: &Machine, seed: u64, count: u64) -> Vec<(Program, String)> {
    let params = GenParams::block_default();
    (0..count)
        .map(|i| {
            let (_, p) = generate::program(m, &params, seed.wrapping_add(i), None, Kind::Block);
            let mut t = list::list_schedule(&p, m).cycles;
            if i % 3 == 2 && t.len() > 1 {
                // Issue the last operation in cycle 0: a latency or resource
                // violation unless it had no predecessors and room.
                let last = t.len() - 1;
                t[last] = 0;
            }
            let text = check::submission_text(&p, &t, None);
            (p, text)
        })
        .collect()
}

/// Grading throughput: `parse_submission` + `check` per second, in process.
pub fn grading(m: &Machine, opts: Options) -> Section {
    let count = if opts.quick { 1_000 } else { 10_000 };
    grading_count(m, opts, count)
}

/// [`grading`] over `count` submissions.
pub fn grading_count(m: &Machine, opts: Options, count: u64) -> Section {
    let corpus = grading_corpus(m, 1, count);
    let (t, peak, invalid) = time(
        opts.runs(1),
        || (),
        |()| {
            let mut invalid = 0u64;
            for (p, text) in &corpus {
                let sub = course_engine::formats::submission::parse(text, "submission");
                if !check::check(p, m, &sub).valid() {
                    invalid += 1;
                }
            }
            invalid
        },
    );
    let rate = if t > 0.0 {
        count as f64 / t
    } else {
        f64::INFINITY
    };
    Section {
        name: "grading".into(),
        title: "Grading throughput (running-block-sized submissions)".into(),
        measurements: vec![Measurement {
            label: "parse+check".into(),
            size: count,
            median_s: t,
            runs: opts.runs(1),
            peak_bytes: peak,
            note: format!("{rate:.0} submissions/s; {invalid} invalid"),
            ..Default::default()
        }],
        fits: Vec::new(),
    }
}

/// The drill whose end-to-end latency is measured.
pub const DRILL_ARGS: &[&str] = &["drill", "list-schedule", "--seed", "4", "--solution"];

/// How long one run of [`DRILL_ARGS`] may take before it is stopped.
const DRILL_CAP: Duration = Duration::from_secs(60);

/// End-to-end latency of `course drill list-schedule --seed 4 --solution`
/// as a process: spawn, run, exit (output discarded), through
/// [`process::run_once`].
pub fn drill_latency(exe: &Path, opts: Options) -> Result<Section, String> {
    let runs = if opts.quick { 5 } else { 51 };
    let mut times = Vec::with_capacity(runs);
    let mut codes = std::collections::BTreeSet::new();
    for _ in 0..runs {
        let run = process::run_once(exe, DRILL_ARGS, DRILL_CAP)?;
        times.push(run.wall_s);
        codes.insert(match (run.stopped, run.code) {
            (true, _) => "stopped".to_string(),
            (false, Some(c)) => c.to_string(),
            (false, None) => "signal".to_string(),
        });
    }
    let codes: Vec<String> = codes.into_iter().collect();
    Ok(Section {
        name: "drill-latency".into(),
        title: format!("End-to-end latency of `course {}`", DRILL_ARGS.join(" ")),
        measurements: vec![Measurement {
            label: "process".into(),
            size: runs as u64,
            median_s: median(&times),
            runs,
            peak_bytes: None,
            note: format!("exit code {}", codes.join("/")),
            ..Default::default()
        }],
        fits: Vec::new(),
    })
}

/// The resources an automaton over the whole machine watches.
pub fn all_resources(m: &Machine) -> Vec<ResourceId> {
    m.resource_ids().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_engine::util::ratio::Ratio;

    #[test]
    fn slope_is_exact_on_power_laws() {
        for p in [0.5, 1.0, 1.2, 2.0, 3.0] {
            let pts: Vec<(f64, f64)> = [1e3, 1e4, 1e5, 1e6]
                .iter()
                .map(|&x: &f64| (x, 7.0 * x.powf(p)))
                .collect();
            let s = loglog_slope(&pts).unwrap();
            assert!((s - p).abs() < 1e-9, "{p} vs {s}");
        }
    }

    #[test]
    fn slope_is_least_squares_on_noisy_points() {
        // ln y = 1, 3, 4 at ln x = 0, 1, 2: least squares slope 1.5.
        let e = std::f64::consts::E;
        let pts = [(1.0, e), (e, e.powi(3)), (e * e, e.powi(4))];
        assert!((loglog_slope(&pts).unwrap() - 1.5).abs() < 1e-9);
        assert_eq!(loglog_slope(&[(10.0, 1.0)]), None);
        assert_eq!(loglog_slope(&[(10.0, 1.0), (10.0, 2.0)]), None);
    }

    #[test]
    fn fit_selects_label_and_range() {
        let mk = |label: &str, size: u64, t: f64| Measurement {
            label: label.into(),
            size,
            median_s: t,
            runs: 1,
            peak_bytes: None,
            note: String::new(),
            ..Default::default()
        };
        let ms = vec![
            mk("a", 10, 1.0),
            mk("a", 100, 10.0),
            mk("a", 1000, 1000.0),
            mk("b", 10, 5.0),
        ];
        let f = fit(&ms, "a", 100, u64::MAX).unwrap();
        assert_eq!((f.from, f.to), (100, 1000));
        assert!((f.slope - 2.0).abs() < 1e-9);
        assert!(fit(&ms, "b", 0, u64::MAX).is_none());
        let d = doubling_factor(&[mk("e", 3, 1.0), mk("e", 5, 4.0)], "e", 6).unwrap();
        assert!((d - 2.0).abs() < 1e-9);
    }

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn workloads_are_deterministic() {
        let m = Machine::toy();
        assert_eq!(random_block(&m, 1, 3000).0, random_block(&m, 1, 3000).0);
        assert_ne!(random_block(&m, 1, 300).0, random_block(&m, 2, 300).0);
        assert_eq!(random_loop(&m, 1, 500).0, random_loop(&m, 1, 500).0);
        assert_eq!(random_block(&m, 1, 3000).1.len(), 3000);
        let a = grading_corpus(&m, 1, 20);
        let b = grading_corpus(&m, 1, 20);
        assert_eq!(
            a.iter().map(|x| &x.1).collect::<Vec<_>>(),
            b.iter().map(|x| &x.1).collect::<Vec<_>>()
        );
        assert_eq!(diamond_ladder(5), diamond_ladder(5));
    }

    #[test]
    fn ladder_has_2_pow_k_circuits_and_howard_matches_enumeration() {
        let m = Machine::toy();
        for k in 1..=8 {
            let p = program::parse(&diamond_ladder(k), "ladder", &m).unwrap();
            assert_eq!(p.len() as u32, 3 * k + 1);
            let e = mii::brute_force_max_ratio(&p, u64::MAX);
            assert!(e.complete);
            assert_eq!(e.circuits, 1u64 << k, "k = {k}");
            // s0 (1) + k × (mul 3 + join 1), over one iteration.
            assert_eq!(e.best, Some(Ratio::int(u64::from(1 + 4 * k))));
            let h = mii::critical_recurrence(&p).unwrap();
            assert_eq!(Some(h.ratio()), e.best, "k = {k}");
            assert_eq!(mii::analyze(&p, &m).rec_mii, u64::from(1 + 4 * k));
        }
    }

    #[test]
    fn grading_corpus_mixes_valid_and_invalid() {
        let m = Machine::toy();
        let corpus = grading_corpus(&m, 1, 30);
        let invalid = corpus
            .iter()
            .filter(|(p, t)| {
                !check::check(
                    p,
                    &m,
                    &course_engine::formats::submission::parse(t, "submission"),
                )
                .valid()
            })
            .count();
        // Every reference schedule is valid; the perturbed ones mostly not.
        assert!(invalid <= 10);
        assert!(invalid >= 5, "{invalid}");
    }

    #[test]
    fn tiny_sections_have_their_shape() {
        let m = Machine::toy();
        let o = Options { quick: true };
        let s = list_schedule_sizes(&m, o, &[50, 100, 200]);
        assert_eq!(
            s.measurements
                .iter()
                .filter(|x| x.label == "schedule")
                .count(),
            3
        );
        assert!(
            s.fits
                .iter()
                .any(|f| f.label == "schedule" && f.from == 50 && f.to == 200)
        );
        let s = mii_random_sizes(&m, o, &[20, 40]);
        assert_eq!(s.measurements.len(), 2);
        let s = mii_ladder_with(&m, o, Duration::ZERO, &[3], 5);
        // The cap is zero: enumeration stops after its first k.
        assert_eq!(
            s.measurements
                .iter()
                .filter(|x| x.label == "enumerate")
                .count(),
            1
        );
        assert_eq!(
            s.measurements
                .iter()
                .filter(|x| x.label == "howard")
                .count(),
            2
        );
        let s = hazard_sizes(o, &[3, 4]);
        assert!(
            s.measurements[1].note.starts_with("16 states"),
            "{}",
            s.measurements[1].note
        );
        let s = grading_count(&m, o, 9);
        assert_eq!(s.measurements[0].size, 9);
        assert!(run("nope", &m, o, Path::new("x"), Path::new("x")).is_err());
    }
}
