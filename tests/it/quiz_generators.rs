//! For 200 seeds, every parametrised quiz question's engine answer equals an
//! independent computation done here from the prompt's own data:
//! RThroughput by counting operations per unit (Definition 23.1.10), forbidden
//! latencies straight from the offsets (Lemma 23.1.6), operand latency by
//! Proposition 23.1.9.

use std::collections::BTreeSet;

use course_content::quiz::{Bank, Expected, Variant};
use course_engine::util::ratio::Ratio;

fn bank() -> Bank {
    Bank::parse(course_content::data::QUIZ_CH23_YAML, "quizzes/ch23.yaml").expect("bank is valid")
}

/// The opcode of one lab-format line (`a: r1 = load [x]`, `h: store [w], r2`).
fn opcode(line: &str) -> Option<String> {
    let (_, rest) = line.split_once(':')?;
    let rhs = match rest.split_once('=') {
        Some((_, r)) => r,
        None => rest,
    };
    rhs.split_whitespace().next().map(str::to_string)
}

/// RThr on the toy machine by direct counting: W = 2, alu x2, mem x1 (loads
/// and stores), mul x1 (mul 1 cycle, div 4 cycles).
fn toy_rthroughput(body: &str) -> Ratio {
    let (mut n, mut alu, mut mem, mut mul) = (0u64, 0u64, 0u64, 0u64);
    for l in body.lines() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("loop ") {
            continue;
        }
        let op = opcode(t).unwrap_or_else(|| panic!("no opcode in `{t}`"));
        n += 1;
        match op.as_str() {
            "load" | "store" => mem += 1,
            "mul" => mul += 1,
            "div" => mul += 4,
            _ => alu += 1,
        }
    }
    // max(n/2, alu/2, mem/1, mul/1) = max(n, alu, 2 mem, 2 mul) / 2.
    Ratio::new(n.max(alu).max(2 * mem).max(2 * mul), 2)
}

/// The X/. grid rows of a forbidden-latency prompt, by row name.
fn grid_row(prompt: &str, name: &str) -> Vec<u32> {
    let line = prompt
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name) && l.contains(['X', '.']))
        .unwrap_or_else(|| panic!("no row {name} in\n{prompt}"));
    line.split_whitespace()
        .skip(1)
        .enumerate()
        .filter(|(_, c)| *c == "X")
        .map(|(k, _)| k as u32)
        .collect()
}

/// Lemma 23.1.6: d is forbidden iff some k in K1 equals d + k' for k' in K2.
fn lemma_forbidden(k1: &[u32], k2: &[u32]) -> BTreeSet<u64> {
    let max = k1.iter().copied().max().unwrap_or(0);
    (0..=max)
        .filter(|&d| k1.iter().any(|&k| k2.iter().any(|&k2| k == d + k2)))
        .map(u64::from)
        .collect()
}

#[test]
fn mca_rthroughput_matches_direct_counting() {
    let b = bank();
    let q = b.question("mca-rthroughput").unwrap();
    let mut values = BTreeSet::new();
    for seed in 0..200 {
        let inst = q.instantiate(seed);
        let Variant::Loop { text } = &inst.variant else {
            panic!("seed {seed}: not a loop")
        };
        let Expected::Number { value: r, .. } = inst.expected else {
            panic!()
        };
        let want = toy_rthroughput(text);
        assert_eq!(r, want, "seed {seed}:\n{text}");
        // The student sees exactly the operations that were counted.
        for l in text
            .lines()
            .filter(|l| l.contains(':') && !l.trim_start().starts_with('#'))
        {
            assert!(
                inst.prompt.contains(l.trim()),
                "seed {seed}: `{l}` missing from the prompt"
            );
        }
        assert!(inst.grade(&want.fraction_string()).unwrap().correct());
        assert!(inst.grade(&format!("{}", want.to_f64())).unwrap().correct());
        values.insert(want);
    }
    assert!(
        values.len() >= 3,
        "the generator should vary the answer: {values:?}"
    );
}

#[test]
fn forbidden_latencies_match_lemma_23_1_6() {
    let b = bank();
    let q = b.question("forbidden-latencies").unwrap();
    for seed in 0..200 {
        let inst = q.instantiate(seed);
        let Variant::Tables {
            first,
            second,
            k_first,
            k_second,
        } = &inst.variant
        else {
            panic!()
        };
        assert_eq!(&grid_row(&inst.prompt, first), k_first, "seed {seed}");
        assert_eq!(&grid_row(&inst.prompt, second), k_second, "seed {seed}");
        let Expected::Set(got) = &inst.expected else {
            panic!()
        };
        let want = lemma_forbidden(k_first, k_second);
        assert_eq!(got, &want, "seed {seed}: K1 {k_first:?} K2 {k_second:?}");
        assert!(!want.is_empty());
        let text = format!("{want:?}");
        assert!(
            inst.grade(&text).unwrap().correct(),
            "seed {seed}: `{text}`"
        );
    }
}

#[test]
fn operand_latency_matches_prop_23_1_9() {
    let b = bank();
    let q = b.question("operand-latency").unwrap();
    let mut zero = 0;
    for seed in 0..200 {
        let inst = q.instantiate(seed);
        let Variant::Operand {
            latency, advance, ..
        } = inst.variant
        else {
            panic!()
        };
        assert!(inst.prompt.contains(&format!("latency {latency}")));
        assert!(inst.prompt.contains(&format!("ReadAdvance {advance}")));
        let want = i64::from(latency) - i64::from(advance);
        let want = want.max(0) as u64;
        zero += u32::from(want == 0);
        let Expected::Number { value: r, .. } = inst.expected else {
            panic!()
        };
        assert_eq!(r, Ratio::int(want), "seed {seed}");
        assert!(!inst.grade(&(want + 1).to_string()).unwrap().correct());
    }
    assert!(zero > 0, "some variants should clamp at 0");
}

#[test]
fn a_question_variant_depends_only_on_seed_and_id() {
    let full = bank();
    // A bank holding only one generated question, plus a new one in front.
    let small = "questions:\n  - id: new-one\n    kind: number\n    tags: [x]\n    prompt: p\n    answer: 1\n    explanation: e\n  - id: forbidden-latencies\n    kind: set\n    tags: [reservation-tables]\n    generator: forbidden-latencies\n    prompt: Two operation classes share one non-pipelined resource.\n    explanation: e\n";
    let small = Bank::parse(small, "small.yaml").unwrap();
    for seed in [0, 1, 99, 12345] {
        let a = full
            .question("forbidden-latencies")
            .unwrap()
            .instantiate(seed);
        let b = small
            .question("forbidden-latencies")
            .unwrap()
            .instantiate(seed);
        assert_eq!(a.variant, b.variant);
        assert_eq!(a.expected, b.expected);
    }
}
