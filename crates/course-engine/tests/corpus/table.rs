//! One corpus, every reservation table: seeded streams of `Issue`,
//! `Advance` and `Place` events on four machines, run through every
//! implementation of Algorithm 23.1.4 and of the hazard recognizer of
//! Algorithm 23.1.7, which must give the same accept/reject answer at every
//! step.
//!
//! The oracle is a brute-force count written from the definition: the
//! operations placed so far, and for a cell `(r, c)` the number of pairs of
//! their raw reservation lists (repeats included) that land in it, modulo
//! II when there is one. Three kinds of stream:
//!
//! * in order (`Issue` at the current cycle, `Advance`): the global table,
//!   the modulo table with an II too large to wrap, the sliding window, the
//!   recognizer and the pipeline automaton;
//! * with lookahead (also `Place` and queries up to a few cycles ahead, and
//!   placements forced past a refusal): the cycle-indexed tables only, since
//!   a recognizer knows nothing but the current cycle;
//! * small II (placements anywhere, forced ones, removals and evictions): the
//!   sparse and the dense modulo tables (`GlobalTable::modulo`,
//!   `ModuloTable`, with its `first_fit`), where offsets of one class can
//!   share a row.

use course_engine::engine::hazard::{Automaton, Recognizer, pathological_machine};
use course_engine::engine::rtable::{GlobalTable, ModuloTable, WindowTable};
use course_engine::model::ids::{ClassId, Cycle, OpId, ResourceId};
use course_engine::model::machine::Machine;
use course_engine::util::rng::Rng;

/// An II no stream reaches: the modulo table then counts absolute cycles.
const BIG_II: u64 = 1 << 20;

/// How far ahead the lookahead streams place and query.
const LOOKAHEAD: usize = 6;

/// A machine file of the workspace (`rel` from its root): the wide test
/// machine and a lab machine, as the course reads them.
fn machine_file(rel: &str) -> Machine {
    let path = format!("{}/../../{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("machine file readable");
    Machine::from_yaml(&text, &path).expect("valid machine")
}

fn machines() -> Vec<Machine> {
    vec![
        Machine::toy(),
        machine_file("tests/data/wide.yaml"),
        machine_file("labs/ch23-sched/machines/skylake-div.yaml"),
        pathological_machine(6),
    ]
}

/// The definition, counted the slow way.
struct Brute<'m> {
    m: &'m Machine,
    ii: Option<u64>,
    placed: Vec<(OpId, ClassId, Cycle)>,
}

impl<'m> Brute<'m> {
    fn new(m: &'m Machine, ii: Option<u64>) -> Brute<'m> {
        Brute {
            m,
            ii,
            placed: Vec::new(),
        }
    }

    fn row(&self, c: Cycle) -> Cycle {
        match self.ii {
            Some(ii) => c.rem_euclid(ii as i64),
            None => c,
        }
    }

    /// Pairs of `RT(o)` issued at `t` that land in `(r, row)`.
    fn pairs_in(&self, o: ClassId, t: Cycle, r: ResourceId, row: Cycle) -> u32 {
        self.m
            .class(o)
            .reservation
            .iter()
            .filter(|&&(r2, k)| r2 == r && self.row(t + i64::from(k)) == row)
            .count() as u32
    }

    fn count(&self, r: ResourceId, row: Cycle) -> u32 {
        self.placed
            .iter()
            .map(|&(_, o, t)| self.pairs_in(o, t, r, row))
            .sum()
    }

    /// The operations holding `(r, row)`, sorted.
    fn holders(&self, r: ResourceId, row: Cycle) -> Vec<OpId> {
        let mut v: Vec<OpId> = self
            .placed
            .iter()
            .filter(|&&(_, o, t)| self.pairs_in(o, t, r, row) > 0)
            .map(|&(x, _, _)| x)
            .collect();
        v.sort();
        v
    }

    /// Every cell `o` at `t` touches would stay within capacity.
    fn fits(&self, o: ClassId, t: Cycle) -> bool {
        self.m.class(o).reservation.iter().all(|&(r, k)| {
            let row = self.row(t + i64::from(k));
            self.count(r, row) + self.pairs_in(o, t, r, row) <= self.m.resource(r).capacity
        })
    }

    fn place(&mut self, x: OpId, o: ClassId, t: Cycle) {
        self.placed.push((x, o, t));
    }

    fn remove(&mut self, x: OpId) -> Option<(ClassId, Cycle)> {
        let i = self.placed.iter().position(|&(y, _, _)| y == x)?;
        let (_, o, t) = self.placed.swap_remove(i);
        Some((o, t))
    }

    /// Drops operations that cannot reach cycle `now` or later (absolute
    /// cycles only), to keep the oracle cheap on long streams.
    fn forget_before(&mut self, now: Cycle) {
        if self.ii.is_none() {
            let d = i64::from(self.m.max_offset());
            self.placed.retain(|&(_, _, t)| t + d >= now);
        }
    }
}

/// `fits_why` must agree with `fits` and describe a real overflow.
fn check_why(t: &GlobalTable, b: &Brute, o: ClassId, c: Cycle, what: &str) {
    let why = t.fits_why(b.m, o, c);
    assert_eq!(why.is_none(), t.fits(b.m, o, c), "{what}: fits_why vs fits");
    if let Some(w) = why {
        assert_eq!(w.capacity, b.m.resource(w.resource).capacity, "{what}");
        let total = b.count(w.resource, w.cycle) + b.pairs_in(o, c, w.resource, w.cycle);
        assert!(w.needed > w.capacity && total >= w.needed, "{what}: {w:?}");
        let mut owners = w.owners.clone();
        owners.sort();
        assert_eq!(owners, b.holders(w.resource, w.cycle), "{what}: owners");
    }
}

/// The pipeline automata a machine allows: one over every resource when it
/// can be built, else one per resource that can (`None` when some resource
/// has none, so that the product would not answer for the whole machine).
fn automata(m: &Machine) -> Option<Vec<Automaton>> {
    let all: Vec<ResourceId> = m.resource_ids().collect();
    if let Ok(a) = Automaton::build(m, &all) {
        return Some(vec![a]);
    }
    all.iter()
        .map(|&r| Automaton::build(m, &[r]).ok())
        .collect()
}

fn random_class(rng: &mut Rng, m: &Machine) -> ClassId {
    ClassId::from_index(rng.below(m.classes().len() as u64) as usize)
}

/// Mostly one cycle, now and then far enough to empty the window.
fn random_advance(rng: &mut Rng, m: &Machine) -> i64 {
    if rng.percent(85) {
        1
    } else {
        rng.range(2, u64::from(m.max_offset()) + 20) as i64
    }
}

/// `Issue`/`Advance` at the current cycle through every implementation.
fn in_order(m: &Machine, seed: u64, steps: usize) -> (usize, usize) {
    let resources: Vec<ResourceId> = m.resource_ids().collect();
    let mut rng = Rng::derived(seed, "table-corpus/in-order");
    let mut global = GlobalTable::new();
    let mut wide_mod = GlobalTable::modulo(BIG_II);
    let mut window = WindowTable::new(m);
    let mut rec = Recognizer::new(m, &resources);
    let autos = automata(m);
    let mut states: Vec<u32> = autos.iter().flatten().map(|a| a.start()).collect();
    let mut brute = Brute::new(m, None);
    let mut now: Cycle = 0;
    let (mut accepted, mut refused) = (0, 0);
    for step in 0..steps {
        let what = format!("{} in-order seed {seed} step {step}", m.name());
        if rng.percent(30) {
            let k = random_advance(&mut rng, m);
            for _ in 0..k {
                rec.advance();
            }
            if let Some(autos) = &autos {
                for (a, s) in autos.iter().zip(states.iter_mut()) {
                    for _ in 0..k {
                        *s = a.advance(*s);
                    }
                }
            }
            now += k;
            window.advance_to(now);
            brute.forget_before(now);
            continue;
        }
        let o = random_class(&mut rng, m);
        let expect = brute.fits(o, now);
        assert_eq!(global.fits(m, o, now), expect, "{what}: global table");
        assert_eq!(wide_mod.fits(m, o, now), expect, "{what}: modulo, large II");
        assert_eq!(window.fits(m, o, now), expect, "{what}: window");
        check_why(&global, &brute, o, now, &what);
        let next: Option<Vec<u32>> = autos.as_ref().map(|autos| {
            autos
                .iter()
                .zip(&states)
                .filter_map(|(a, &s)| a.issue(s, o))
                .collect()
        });
        if let Some(next) = &next {
            let all = next.len() == states.len();
            assert_eq!(all, expect, "{what}: automaton");
        }
        assert_eq!(rec.issue(o), expect, "{what}: recognizer");
        if expect {
            let x = OpId::new(step as u32);
            global.place(m, o, now, Some(x));
            wide_mod.place(m, o, now, Some(x));
            window.place(m, o, now);
            brute.place(x, o, now);
            if let Some(next) = next {
                states = next;
            }
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    (accepted, refused)
}

/// Queries and placements up to [`LOOKAHEAD`] cycles ahead, some forced past
/// a refusal, through the cycle-indexed tables.
fn with_lookahead(m: &Machine, seed: u64, steps: usize) -> (usize, usize) {
    let mut rng = Rng::derived(seed, "table-corpus/lookahead");
    let mut global = GlobalTable::new();
    let mut wide_mod = GlobalTable::modulo(BIG_II);
    let mut window = WindowTable::with_lookahead(m, LOOKAHEAD);
    let mut brute = Brute::new(m, None);
    let horizon = LOOKAHEAD as i64 + i64::from(m.max_offset());
    let mut now: Cycle = 0;
    let (mut accepted, mut refused) = (0, 0);
    for step in 0..steps {
        let what = format!("{} lookahead seed {seed} step {step}", m.name());
        let event = rng.weighted(&[25, 45, 15, 15]);
        if event == 0 {
            now += random_advance(&mut rng, m);
            window.advance_to(now);
            brute.forget_before(now);
            continue;
        }
        let o = random_class(&mut rng, m);
        let c = now + rng.below(LOOKAHEAD as u64 + 1) as i64;
        let expect = brute.fits(o, c);
        assert_eq!(global.fits(m, o, c), expect, "{what}: global table");
        assert_eq!(wide_mod.fits(m, o, c), expect, "{what}: modulo, large II");
        assert_eq!(window.fits(m, o, c), expect, "{what}: window");
        check_why(&global, &brute, o, c, &what);
        // 1: place when it fits; 2: query only; 3: place regardless.
        if (event == 1 && expect) || event == 3 {
            let x = OpId::new(step as u32);
            global.place(m, o, c, Some(x));
            wide_mod.place(m, o, c, Some(x));
            window.place(m, o, c);
            brute.place(x, o, c);
        }
        if expect {
            accepted += 1;
        } else {
            refused += 1;
        }
        let r = ResourceId::from_index(rng.below(m.resources().len() as u64) as usize);
        let at = now + rng.below(horizon as u64 + 1) as i64;
        let used = brute.count(r, at);
        assert_eq!(global.used(r, at), used, "{what}: used({r}, {at})");
        assert_eq!(wide_mod.used(r, at), used, "{what}: modulo used({r}, {at})");
    }
    (accepted, refused)
}

/// A small II, placements anywhere, removals and evictions, against the
/// brute-force count modulo II.
fn small_ii(m: &Machine, seed: u64, steps: usize) -> (usize, usize) {
    let mut rng = Rng::derived(seed, "table-corpus/small-ii");
    let ii = rng.range(1, u64::from(m.max_offset()) + 3);
    let span = 4 * ii as i64;
    let mut table = GlobalTable::modulo(ii);
    // The modulo scheduler's dense table, fed the same events.
    let mut dense = ModuloTable::new(m, ii);
    let mut brute = Brute::new(m, Some(ii));
    let (mut accepted, mut refused) = (0, 0);
    for step in 0..steps {
        let what = format!("{} ii {ii} seed {seed} step {step}", m.name());
        let x = OpId::new(step as u32);
        let o = random_class(&mut rng, m);
        let c = rng.below(3 * span as u64) as i64 - span;
        let expect = brute.fits(o, c);
        assert_eq!(table.fits(m, o, c), expect, "{what}: modulo table");
        assert_eq!(dense.fits(m, o, c), expect, "{what}: dense modulo table");
        let first = (c..c + ii as i64).find(|&t| brute.fits(o, t));
        assert_eq!(dense.first_fit(m, o, c), first, "{what}: first fit");
        check_why(&table, &brute, o, c, &what);
        if expect {
            accepted += 1;
        } else {
            refused += 1;
        }
        match rng.weighted(&[40, 15, 20, 25]) {
            // Place when it fits.
            0 if expect => {
                table.place(m, o, c, Some(x));
                dense.place(m, o, c, Some(x));
                brute.place(x, o, c);
            }
            // Place regardless.
            1 => {
                table.place(m, o, c, Some(x));
                dense.place(m, o, c, Some(x));
                brute.place(x, o, c);
            }
            // Take a placed operation back out.
            2 if !brute.placed.is_empty() => {
                let i = rng.below(brute.placed.len() as u64) as usize;
                let y = brute.placed[i].0;
                let (yo, yc) = brute.remove(y).expect("placed");
                table.remove(m, yo, yc, y);
                dense.remove(m, yo, yc, y);
            }
            // Evict what collides, as the modulo scheduler does, then force.
            3 => {
                let out = table.conflicts(m, o, c);
                assert_eq!(dense.conflicts(m, o, c), out, "{what}: dense evicts");
                let alone = GlobalTable::modulo(ii).fits(m, o, c);
                if expect {
                    assert!(out.is_empty(), "{what}: evicts {out:?} for a fit");
                } else if alone {
                    assert!(!out.is_empty(), "{what}: evicts nothing for a misfit");
                }
                for &y in &out {
                    let (yo, yc) = brute
                        .remove(y)
                        .unwrap_or_else(|| panic!("{what}: evicts {y}, not placed"));
                    table.remove(m, yo, yc, y);
                    dense.remove(m, yo, yc, y);
                }
                assert!(
                    table.fits(m, o, c) || !alone,
                    "{what}: still no room after evicting {out:?}"
                );
                table.place(m, o, c, Some(x));
                dense.place(m, o, c, Some(x));
                brute.place(x, o, c);
            }
            _ => {}
        }
        for r in m.resource_ids() {
            for row in 0..ii as i64 {
                let what = format!("{what}: used({r}, {row})");
                assert_eq!(table.used(r, row), brute.count(r, row), "{what}");
                assert_eq!(
                    table.used(r, row + ii as i64),
                    brute.count(r, row),
                    "{what}"
                );
            }
        }
    }
    (accepted, refused)
}

type Stream = fn(&Machine, u64, usize) -> (usize, usize);

/// Runs a stream over seeds and checks that it both accepts and refuses.
fn corpus(stream: Stream, name: &str, seeds: u64, steps: usize) {
    for m in machines() {
        let (mut a, mut r) = (0, 0);
        for seed in 0..seeds {
            let (x, y) = stream(&m, seed, steps);
            a += x;
            r += y;
        }
        let least = (seeds as usize * steps) / 20;
        assert!(
            a > least && r > least,
            "{} {name}: {a} accepted, {r} refused",
            m.name()
        );
    }
}

#[test]
fn in_order_streams_agree_everywhere() {
    corpus(in_order, "in order", 24, 400);
}

#[test]
fn lookahead_streams_agree_on_every_table() {
    corpus(with_lookahead, "lookahead", 24, 400);
}

#[test]
fn small_ii_agrees_with_a_brute_force_count() {
    corpus(small_ii, "small II", 24, 250);
}

#[test]
fn every_machine_has_an_automaton_for_the_corpus() {
    for m in machines() {
        assert!(automata(&m).is_some(), "{}: no automaton", m.name());
    }
}
