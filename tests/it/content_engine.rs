//! The course text checked against the engine: every quiz explanation,
//! answer and flashcard that states a rule the engine implements is run on
//! its own example through the engine (Algorithm 23.1.7's automaton and
//! recognizer, Definition 23.1.5's forbidden latencies and collision
//! vectors, Definition 23.1.1's latency), so the bank cannot drift from
//! the code again.

use std::collections::BTreeSet;

use course_content::flash::Deck;
use course_content::quiz::{Bank, Expected};
use course_engine::engine::hazard::{self, Automaton, Recognizer};
use course_engine::model::ids::ClassId;
use course_engine::model::machine::Machine;
use course_engine::util::ratio::Ratio;

fn bank() -> Bank {
    Bank::parse(course_content::data::QUIZ_CH23_YAML, "quizzes/ch23.yaml").expect("bank is valid")
}

fn deck() -> Deck {
    Deck::parse(
        course_content::data::FLASH_CH23_YAML,
        "quizzes/ch23-flash.yaml",
    )
    .expect("deck is valid")
}

fn explanation(id: &str) -> String {
    bank()
        .question(id)
        .unwrap_or_else(|| panic!("no question {id}"))
        .explanation
        .clone()
}

fn back(id: &str) -> String {
    deck()
        .cards
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no card {id}"))
        .back
        .clone()
}

/// Every `{…}` set of small numbers in `text`, in order; "the empty set"
/// and `{}` read as the empty set.
fn sets_in(text: &str) -> Vec<BTreeSet<u32>> {
    let flat = text.replace('\n', " ");
    let mut out = Vec::new();
    let mut rest = flat.as_str();
    loop {
        let brace = rest.find('{');
        let empty = rest.find("empty set");
        match (brace, empty) {
            (Some(b), e) if e.is_none_or(|e| b < e) => {
                let Some(end) = rest[b..].find('}') else {
                    break;
                };
                let inner = &rest[b + 1..b + end];
                let set: Option<BTreeSet<u32>> = inner
                    .split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().ok())
                    .collect();
                if let Some(set) = set {
                    out.push(set);
                }
                rest = &rest[b + end + 1..];
            }
            (_, Some(e)) => {
                out.push(BTreeSet::new());
                rest = &rest[e + "empty set".len()..];
            }
            _ => break,
        }
    }
    out
}

/// The toy machine's multiplier, mul and div.
fn toy_mul() -> (Machine, course_engine::model::ids::ResourceId) {
    let m = Machine::toy();
    let r = m.resource_by_name("mul").expect("toy has mul");
    (m, r)
}

/// Every state of the toy multiplier's automaton, as offset sets.
fn toy_mul_states() -> BTreeSet<BTreeSet<u32>> {
    let (m, r) = toy_mul();
    let a = Automaton::build(&m, &[r]).expect("small automaton");
    (0..a.len() as u32)
        .map(|s| a.state(s)[0].offsets().into_iter().collect())
        .collect()
}

/// Algorithm 23.1.7's Advance, as the engine's automaton does it, from the
/// state `from` of the toy multiplier.
fn engine_advance(from: &BTreeSet<u32>) -> BTreeSet<u32> {
    let (m, r) = toy_mul();
    let a = Automaton::build(&m, &[r]).expect("small automaton");
    let s = (0..a.len() as u32)
        .find(|&s| a.state(s)[0].offsets().into_iter().collect::<BTreeSet<_>>() == *from)
        .unwrap_or_else(|| panic!("{from:?} is not a state of the toy multiplier"));
    a.state(a.advance(s))[0].offsets().into_iter().collect()
}

#[test]
fn mul_automaton_states_explanation_follows_algorithm_23_1_7() {
    let b = bank();
    let q = b.question("mul-automaton-states").expect("question");
    let states = toy_mul_states();
    assert_eq!(
        q.expected,
        Some(Expected::Number {
            value: Ratio::int(states.len() as u64),
            tolerance: q.tolerance
        })
    );
    // The explanation walks the chain: the div's state, then one Advance
    // per set; each step must be what the engine's Advance does.
    let text = explanation("mul-automaton-states");
    let sets = sets_in(&text);
    let (m, r) = toy_mul();
    let div = m.class_by_opcode("div").expect("div");
    let k_div: BTreeSet<u32> = m.class(div).offsets(r).collect();
    let start = sets
        .iter()
        .position(|s| *s == k_div)
        .unwrap_or_else(|| panic!("the explanation never shows K(div):\n{text}"));
    let chain: Vec<&BTreeSet<u32>> = sets[start..]
        .iter()
        .take_while(|s| s.len() < 4 || **s == k_div)
        .collect();
    assert!(chain.len() >= 5, "the chain is cut short: {chain:?}");
    for w in chain.windows(2).take(4) {
        assert_eq!(
            engine_advance(w[0]),
            *w[1],
            "Advance from {:?} in the explanation:\n{text}",
            w[0]
        );
    }
    // The rule in words is the engine's: offsets move down, none is
    // "dropped first" (the old wording, which gives {1,2,3}).
    assert!(text.contains("takes one from every offset"), "{text}");
    assert!(!text.contains("smallest"), "{text}");
    // Every set it names is a reachable state.
    for s in &sets {
        assert!(states.contains(s), "{s:?} is not reachable:\n{text}");
    }
}

#[test]
fn the_states_card_lists_the_engine_states() {
    let listed: BTreeSet<BTreeSet<u32>> = sets_in(&back("toy-mul-states")).into_iter().collect();
    assert_eq!(listed, toy_mul_states());
}

#[test]
fn the_recognizer_card_examples_are_engine_advances() {
    // `{0,1,2,3} -> {0,1,2} and {0} -> {}`: each arrow is one Advance.
    let text = back("recognizer-events");
    let mut pairs = 0;
    for part in text.split(" and ") {
        let Some((a, b)) = part.split_once("->") else {
            continue;
        };
        let (Some(from), Some(to)) = (sets_in(a).pop(), sets_in(b).first().cloned()) else {
            continue;
        };
        assert_eq!(engine_advance(&from), to, "{part}");
        pairs += 1;
    }
    assert_eq!(pairs, 2, "{text}");
    // The recognizer itself agrees: a div, then one Advance.
    let (m, r) = toy_mul();
    let mut rec = Recognizer::new(&m, &[r]);
    assert!(rec.issue(m.class_by_opcode("div").expect("div")));
    rec.advance();
    assert_eq!(rec.states()[0].offsets(), vec![0, 1, 2]);
}

#[test]
fn forbidden_answers_and_card_match_definition_23_1_5() {
    let b = bank();
    let (m, r) = toy_mul();
    let div = m.class_by_opcode("div").expect("div");
    let mul = m.class_by_opcode("mul").expect("mul");
    let f = |a, c| -> BTreeSet<u64> {
        hazard::forbidden_latencies(&m, r, a, c)
            .into_iter()
            .map(u64::from)
            .collect()
    };
    for (id, want) in [
        ("div-mul-forbidden", f(div, mul)),
        ("mul-div-forbidden", f(mul, div)),
    ] {
        assert_eq!(
            b.question(id).and_then(|q| q.expected.clone()),
            Some(Expected::Set(want)),
            "{id}"
        );
    }
    // F(div, mul), F(mul, div), F(mul, mul), in the card's order.
    let card: Vec<BTreeSet<u64>> = sets_in(&back("toy-forbidden"))
        .into_iter()
        .map(|s| s.into_iter().map(u64::from).collect())
        .collect();
    assert_eq!(card, vec![f(div, mul), f(mul, div), f(mul, mul)]);
}

#[test]
fn collision_vectors_match_the_engine() {
    let b = bank();
    let (m, r) = toy_mul();
    let div = m.class_by_opcode("div").expect("div");
    let cv = hazard::collision_vector(&m, r, div);
    let q = b.question("div-collision-vector").expect("question");
    assert_eq!(q.expected.as_ref().map(Expected::text), Some(cv.clone()));
    let card = back("collision-vector");
    assert!(card.contains(&format!("{cv} for the toy div")), "{card}");
    assert!(card.contains(&format!("{} for K = {{3,5}}", hazard::bits(&[3, 5]))));
    // And not F(o, o) as bits: the card's contrast holds.
    assert_eq!(hazard::forbidden_between(&[3, 5], &[3, 5]), vec![0, 2]);
}

/// A one-class machine whose class holds one capacity-1 unit `u` at the
/// offsets `k`.
fn one_class_machine(k: &[u32]) -> (Machine, course_engine::model::ids::ResourceId, ClassId) {
    let pairs: Vec<String> = k.iter().map(|o| format!("[u, {o}]")).collect();
    let yaml = format!(
        "name: one\nissue_width: 1\nresources:\n  - {{ name: u, capacity: 1 }}\n\
         classes:\n  - {{ name: c, latency: 1, opcodes: [op], reservation: [{}] }}\n",
        pairs.join(", ")
    );
    let m = Machine::from_yaml(&yaml, "one.yaml").expect("valid one-class machine");
    let r = m.resource_by_name("u").expect("u");
    let c = m.class_by_opcode("op").expect("op");
    (m, r, c)
}

/// The collision vector after one issue is K itself as bits; it equals
/// F(o, o) as bits only when K starts at 0 and has no gap (Definition
/// 23.1.5). The question's explanation must say both conditions.
#[test]
fn collision_vector_equals_f_only_for_k_from_zero_without_gap() {
    let f_and_cv = |k: &[u32]| {
        let (m, r, c) = one_class_machine(k);
        (
            hazard::forbidden_latencies(&m, r, c, c),
            hazard::collision_vector(&m, r, c),
        )
    };
    // The question's own case: K = {0,1,2,3}, F = K, the same bits.
    assert_eq!(
        f_and_cv(&[0, 1, 2, 3]),
        (vec![0, 1, 2, 3], "1111".to_string())
    );
    let (m, r) = toy_mul();
    let div = m.class_by_opcode("div").expect("div");
    assert_eq!(
        m.class(div).offsets(r).collect::<Vec<_>>(),
        vec![0, 1, 2, 3],
        "the question's K(div)"
    );
    assert_eq!(hazard::collision_vector(&m, r, div), "1111");
    // No gap, but not from 0: the state is 011, F = {0, 1} (110 as bits).
    assert_eq!(f_and_cv(&[1, 2]), (vec![0, 1], "011".to_string()));
    // A gap: 000101 against F = {0, 2}.
    assert_eq!(f_and_cv(&[3, 5]), (vec![0, 2], "000101".to_string()));
    // The engine on every K within 0..6: K from 0 without a gap always
    // gives CV == bits(F); in general they agree exactly when K holds 0 and
    // every difference of its offsets ({0, 2} does, {0, 1, 3} does not).
    for mask in 1u32..(1 << 6) {
        let k: Vec<u32> = (0..6).filter(|b| mask & (1 << b) != 0).collect();
        let (f, cv) = f_and_cv(&k);
        let same = cv == hazard::bits(&f);
        let prefix = k.iter().enumerate().all(|(i, &o)| o == i as u32);
        let closed = k.contains(&0)
            && k.iter()
                .all(|&a| k.iter().all(|&b| a < b || k.contains(&(a - b))));
        assert!(!prefix || same, "K = {k:?}: F = {f:?}, CV = {cv}");
        assert_eq!(same, closed, "K = {k:?}: F = {f:?}, CV = {cv}");
    }
    assert_eq!(f_and_cv(&[0, 2]), (vec![0, 2], "101".to_string()));
    // The explanation states the condition and the counterexample.
    let e = explanation("div-collision-vector").replace('\n', " ");
    let e = e.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "starts at offset 0",
        "has no gap",
        "K = {1, 2}",
        "the state 011",
        "F = {0, 1}",
        "contains 0 and every difference",
    ] {
        assert!(e.contains(part), "explanation lacks '{part}': {e}");
    }
    assert!(sets_in(&e).contains(&BTreeSet::from([0, 1, 2, 3])));
}

#[test]
fn the_toy_div_facts_come_from_the_machine() {
    let m = Machine::toy();
    let div = m.class(m.class_by_opcode("div").expect("div"));
    let r = m.resource_by_name("mul").expect("mul");
    let occ = div.offsets(r).count() as u64;
    let q = bank();
    let q = q.question("div-issued-at-5").expect("question");
    assert_eq!(
        q.expected,
        Some(Expected::Number {
            value: Ratio::int(5 + u64::from(div.latency)),
            tolerance: q.tolerance
        })
    );
    let card = back("toy-div");
    assert!(
        card.contains(&format!("cycles 5-{}", 5 + occ - 1)),
        "{card}"
    );
    assert!(
        card.contains(&format!("visible from {}", 5 + u64::from(div.latency))),
        "{card}"
    );
}

/// One memory operation of a problem's listing: is it a store, its plain
/// symbol, whether its address has a register.
struct MemOp {
    store: bool,
    symbol: String,
    with_reg: bool,
}

fn mem_op(line: &str) -> Option<MemOp> {
    let (_, rest) = line.split_once(':')?;
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    let inner = &rest[open + 1..close];
    let is_reg = |t: &str| t.starts_with('r') && t[1..].chars().all(|c| c.is_ascii_digit());
    let toks: Vec<&str> = inner
        .split(|c: char| c == '+' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    Some(MemOp {
        store: rest.trim_start().starts_with("store"),
        symbol: toks
            .iter()
            .find(|t| !is_reg(t) && !t.chars().all(|c| c.is_ascii_digit()))
            .map_or(String::new(), |t| t.to_string()),
        with_reg: toks.iter().any(|t| is_reg(t)),
    })
}

/// The mii and modulo prompts state the memory order within and across
/// iterations; applying the stated rules to the listing gives exactly the
/// checker's memory edges (a register edge on the same pair may carry a
/// larger ℓ and hide one), for seeds 1–50.
#[test]
fn loop_prompts_state_the_memory_order_the_checker_applies() {
    use course::view::drill::problem_text;
    use course_content::drill::{Drill, Problem};
    use course_engine::model::program::EdgeKind;
    let m = Machine::toy();
    for drill in [Drill::Mii, Drill::Modulo] {
        for seed in 1..=50 {
            let p = drill.problem(&m, None, seed, false).expect("problem");
            let text = problem_text(&p);
            for rule in [
                "Memory order in an iteration",
                "ℓ = lat(store) from a store",
                "ℓ = 0 from a load to a store",
                "Memory order across iterations",
                "iteration k + 1 (d = 1",
            ] {
                assert!(text.contains(rule), "{} {seed}: no '{rule}'", drill.name());
            }
            let program = match &p {
                Problem::Mii(p) => p.program.clone(),
                Problem::Modulo(p) => p.program.clone(),
                _ => unreachable!(),
            };
            let listing: Vec<&str> = text
                .lines()
                .skip_while(|l| !l.starts_with("loop "))
                .skip(1)
                .take_while(|l| !l.is_empty())
                .collect();
            assert_eq!(listing.len(), program.len());
            let ops: Vec<Option<MemOp>> = listing.iter().map(|l| mem_op(l)).collect();
            let lat = |i: usize| {
                let o = course_engine::model::ids::OpId::from_index(i);
                m.class(program.op(o).class).latency
            };
            let mut stated = BTreeSet::new();
            for (j, b) in ops.iter().enumerate() {
                let Some(b) = b else { continue };
                for (i, a) in ops.iter().enumerate() {
                    let Some(a) = a else { continue };
                    if !(a.store || b.store) {
                        continue;
                    }
                    let l = if a.store { lat(i) } else { 0 };
                    let alias = a.symbol == b.symbol || a.with_reg || b.with_reg;
                    if i < j && alias {
                        stated.insert((i, j, 0, l));
                    }
                    if i >= j && a.symbol == b.symbol && !a.with_reg && !b.with_reg {
                        stated.insert((i, j, 1, l));
                    }
                }
            }
            let edges = program.edges();
            for &(i, j, d, l) in &stated {
                assert!(
                    edges
                        .iter()
                        .any(|e| (e.from.index(), e.to.index(), e.distance) == (i, j, d)
                            && e.latency >= l),
                    "{} {seed}: the stated edge {i}→{j} d={d} ℓ={l} is missing",
                    drill.name()
                );
            }
            for e in edges.iter().filter(|e| e.kind == EdgeKind::Mem) {
                let key = (e.from.index(), e.to.index(), e.distance, e.latency);
                assert!(
                    stated.contains(&key),
                    "{} {seed}: the checker's memory edge {key:?} is not stated",
                    drill.name()
                );
            }
        }
    }
}
