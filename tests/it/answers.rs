//! One answer reader: the same answer texts, given to a drill's `--check`
//! and to the quiz's `--answers`, must get the same reading. Each text is a
//! spelling of the expected answer (so a reader that accepts it must call
//! it right) or a malformed one (so both must call it a format error).

use crate::common::{Course, drill_solution};

/// The drill's verdict on an answer file: right, wrong, or a format error.
fn drill_verdict(drill: &str, seed: &str, answer: &str) -> &'static str {
    let j = Course::new([
        "drill", drill, "--seed", seed, "--check", "-", "--format", "json",
    ])
    .stdin(answer)
    .any_code()
    .run()
    .json();
    let mistakes = j["mistakes"].as_array().cloned().unwrap_or_default();
    if mistakes.iter().any(|m| m["kind"] == "format") {
        "format"
    } else if j["correct"] == true {
        "right"
    } else {
        "wrong"
    }
}

/// The quiz's verdict on one question of an answer file.
fn quiz_verdict(id: &str, answer: &str) -> &'static str {
    let j = Course::new(["quiz", "23", "--answers", "-", "--format", "json"])
        .stdin(format!("seed: 0\n{id}: {answer}\n"))
        .any_code()
        .run()
        .json();
    let q = j["questions"]
        .as_array()
        .and_then(|qs| qs.iter().find(|q| q["id"] == id))
        .cloned()
        .unwrap_or_default();
    match q["status"].as_str() {
        Some("format-error") => "format",
        Some("right") => "right",
        _ => "wrong",
    }
}

/// The expected answer of one quiz question for seed 0.
fn quiz_expected(id: &str) -> String {
    // Every question blank: --reveal shows what each expects.
    let j = Course::new([
        "quiz",
        "23",
        "--answers",
        "-",
        "--format",
        "json",
        "--reveal",
    ])
    .stdin("seed: 0\n")
    .any_code()
    .run()
    .json();
    j["questions"]
        .as_array()
        .and_then(|qs| qs.iter().find(|q| q["id"] == id))
        .and_then(|q| q["expected"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// Spellings of a set `{a, b, …}`: good ones and malformed ones.
fn set_spellings(items: &[u64]) -> Vec<(String, &'static str)> {
    let list = |sep: &str| {
        items
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(sep)
    };
    let mut rev: Vec<u64> = items.to_vec();
    rev.reverse();
    let rev = rev.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    let mut v = vec![
        (format!("{{{}}}", list(", ")), "right"),
        (format!("{{ {} }}", list(",")), "right"),
        (format!("{{{rev}}}"), "right"),
        (format!("{{{}, {}}}", list(", "), items[0]), "right"),
        (format!("{{{}", list(", ")), "format"),
        // Bare lists and brackets are sets too; a range is refused.
        (list(", "), "right"),
        (list(" "), "right"),
        (list(" and "), "right"),
        (format!("[{}]", list(", ")), "right"),
        (format!("[{}}}", list(", ")), "format"),
        (
            format!("{{{}..{}}}", items[0], items[items.len() - 1]),
            "format",
        ),
        (format!("{}-{}", items[0], items[items.len() - 1]), "format"),
        (format!("{{{}; x}}", items[0]), "format"),
        ("{a}".to_string(), "format"),
    ];
    if items.len() > 1 {
        v.push((format!("{{{}}}", list("; ")), "format"));
        v.push((format!("{{{}}}", list(",, ")), "format"));
    }
    v
}

/// Spellings of a whole number `n`.
fn number_spellings(n: u64) -> Vec<(String, &'static str)> {
    vec![
        (n.to_string(), "right"),
        (format!("{n}.0"), "right"),
        (format!("{}/2", 2 * n), "right"),
        (format!("+{n}"), "right"),
        (format!("{n} cycles"), "right"),
        (format!("{n} Cycles"), "right"),
        (format!("cycle {n}"), "right"),
        (format!("{n} apples"), "format"),
        (format!("0b{n:b}"), "format"),
        (format!("{n},0"), "format"),
        (format!("{n}/0"), "format"),
        (format!("-{n}"), "format"),
        (format!("{n}e0"), "format"),
        ("abc".to_string(), "format"),
    ]
}

#[test]
fn sets_read_the_same_in_the_forbidden_drill_and_the_quiz() {
    // The forbidden drill's F(A,B) for seed 1 and the quiz's
    // forbidden-latencies for seed 0 are both answered in every spelling.
    let sol = drill_solution("forbidden", 1);
    let forbidden = sol["solution"]["forbidden"].as_object().unwrap().clone();
    let quiz_set = quiz_expected("forbidden-latencies");
    let quiz_items: Vec<u64> = quiz_set
        .trim_matches(['{', '}'])
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    assert!(!quiz_items.is_empty(), "{quiz_set}");
    // F(A,B) = {0, 3} for seed 1; the other pairs are given right.
    assert_eq!(forbidden["F(A,B)"], serde_json::json!([0, 3]));
    for (drill_text, want) in set_spellings(&[0, 3]) {
        let mut answer = String::new();
        for (k, v) in &forbidden {
            let v: Vec<String> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.to_string())
                .collect();
            if k == "F(A,B)" {
                answer.push_str(&format!("{k} = {drill_text}\n"));
            } else {
                answer.push_str(&format!("{k} = {{{}}}\n", v.join(", ")));
            }
        }
        // The collision vectors, given right.
        for (class, bits) in sol["solution"]["collision_vectors"].as_object().unwrap() {
            answer.push_str(&format!("CV({class}) = {}\n", bits.as_str().unwrap()));
        }
        assert_eq!(
            drill_verdict("forbidden", "1", &answer),
            want,
            "drill: {drill_text}"
        );
    }
    for (text, want) in set_spellings(&quiz_items) {
        assert_eq!(
            quiz_verdict("forbidden-latencies", &text),
            want,
            "quiz: {text}"
        );
    }
}

#[test]
fn numbers_read_the_same_in_the_rthroughput_drill_and_the_quiz() {
    let sol = drill_solution("rthroughput", 1);
    let drill_value: u64 = sol["solution"]["rthroughput"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let quiz_value: u64 = quiz_expected("mca-rthroughput").parse().unwrap();
    for (text, want) in number_spellings(drill_value) {
        assert_eq!(
            drill_verdict("rthroughput", "1", &text),
            want,
            "drill: {text}"
        );
    }
    for (text, want) in number_spellings(quiz_value) {
        assert_eq!(quiz_verdict("mca-rthroughput", &text), want, "quiz: {text}");
    }
}

/// Spellings of the bit vector `bits` (offset 0 first).
fn bit_spellings(bits: &str) -> Vec<(String, &'static str)> {
    let ones: Vec<String> = bits
        .char_indices()
        .filter(|&(_, c)| c == '1')
        .map(|(k, _)| k.to_string())
        .collect();
    let spaced: Vec<String> = bits.chars().map(String::from).collect();
    vec![
        (bits.to_string(), "right"),
        (spaced.join(" "), "right"),
        (format!("{bits}00"), "right"),
        (format!("{{{}}}", ones.join(", ")), "right"),
        (format!("[{}]", ones.join(",")), "right"),
        (format!("0b{bits}"), "format"),
        (format!("{bits}x"), "format"),
        (format!("{},", ones.join(",")), "format"),
    ]
}

#[test]
fn bit_vectors_read_the_same_in_the_forbidden_drill_and_the_quiz() {
    let sol = drill_solution("forbidden", 1);
    let forbidden = sol["solution"]["forbidden"].as_object().unwrap().clone();
    let vectors = sol["solution"]["collision_vectors"]
        .as_object()
        .unwrap()
        .clone();
    let first = vectors.keys().next().unwrap().clone();
    let bits = vectors[&first].as_str().unwrap().to_string();
    for (text, want) in bit_spellings(&bits) {
        let mut answer = String::new();
        for (k, v) in &forbidden {
            let v: Vec<String> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.to_string())
                .collect();
            answer.push_str(&format!("{k} = {{{}}}\n", v.join(", ")));
        }
        for (class, b) in &vectors {
            let b = if *class == first {
                text.clone()
            } else {
                b.as_str().unwrap().to_string()
            };
            answer.push_str(&format!("CV({class}) = {b}\n"));
        }
        assert_eq!(
            drill_verdict("forbidden", "1", &answer),
            want,
            "drill: {text}"
        );
    }
    for (text, want) in bit_spellings("1111") {
        assert_eq!(
            quiz_verdict("div-collision-vector", &text),
            want,
            "quiz: {text}"
        );
    }
}
