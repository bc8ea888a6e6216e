//! Bank and deck validation (`--check-bank`): seeded instructor mistakes are
//! each reported at their file:line:col; and every question and card is
//! reachable through some `--tag`.

use std::collections::BTreeSet;

use course_content::quiz::Bank;

use crate::common::{self, Course};

/// A bank with one mistake per question (and two clean questions).
const BAD_BANK: &str = r#"# seeded mistakes
questions:
  - id: fine
    kind: number
    tags: [t]
    prompt: ok
    answer: 1
    explanation: ok
  - id: fine
    kind: number
    tags: [t]
    prompt: duplicate id above
    answer: 2
    explanation: ok
  - id: no-answer
    kind: number
    tags: [t]
    prompt: where is the answer
    explanation: ok
  - id: bad-choice
    kind: single
    tags: [t]
    prompt: pick
    choices: [red, green]
    answer: blue
    explanation: ok
  - id: bad-gen
    kind: number
    tags: [t]
    generator: loop-rthroughputs
    prompt: generated
    explanation: ok
  - id: bad-kind
    kind: essay
    tags: [t]
    prompt: write
    explanation: ok
  - id: empty-prompt
    kind: number
    tags: [t]
    prompt: "  "
    answer: 3
    explanation: ok
  - id: no-explanation
    kind: number
    tags: [t]
    prompt: why
    answer: 3
  - id: no-tags
    kind: number
    prompt: tagless
    answer: 3
    explanation: ok
  - id: bad-set
    kind: set
    tags: [t]
    prompt: set
    answer:
      - 0
      - two
    explanation: ok
  - id: bad-number
    kind: number
    tags: [t]
    prompt: n
    answer: eleventy
    explanation: ok
  - id: two-singles
    kind: single
    tags: [t]
    prompt: s
    choices: [x, y]
    answer: [a, b]
    explanation: ok
  - id: gen-with-answer
    kind: number
    tags: [t]
    generator: operand-latency
    prompt: p
    answer: 4
    explanation: ok
  - id: gen-wrong-kind
    kind: set
    tags: [t]
    generator: operand-latency
    prompt: p
    explanation: ok
  - id: seed
    kind: number
    tags: [t]
    prompt: reserved
    answer: 1
    explanation: ok
  - id: dup-choice
    kind: multiple
    tags: [t]
    prompt: m
    choices: [same, Same]
    answer: [a]
    explanation: ok
  - kind: number
    tags: [t]
    prompt: no id
    answer: 1
    explanation: ok
  - id: tol-on-find
    kind: find
    tags: [t]
    prompt: f
    answer: x
    tolerance: 0.5
    explanation: ok
  - id: also-fine
    kind: find
    tags: [t]
    prompt: f
    answer: x
    explanation: ok
"#;

/// (a unique substring of the line the mistake should point at, the column,
/// a piece of the message).
const EXPECTED: &[(&str, usize, &str)] = &[
    (
        "  - id: fine\n    kind: number\n    tags: [t]\n    prompt: duplicate",
        5,
        "duplicate id `fine` (first used at bad.yaml:3:5)",
    ),
    ("- id: no-answer", 3, "no-answer: missing answer"),
    ("answer: blue", 5, "answer `blue` is not among the choices"),
    (
        "generator: loop-rthroughputs",
        5,
        "unknown generator `loop-rthroughputs`",
    ),
    ("kind: essay", 5, "unknown kind `essay`"),
    ("prompt: \"  \"", 5, "empty-prompt: empty prompt"),
    (
        "- id: no-explanation",
        3,
        "no-explanation: missing explanation",
    ),
    ("- id: no-tags", 3, "no-tags: no tags"),
    (
        "- two",
        7,
        "set element `two` is not a non-negative integer",
    ),
    ("answer: eleventy", 5, "answer `eleventy` is not a number"),
    ("answer: [a, b]", 5, "exactly one answer"),
    ("answer: 4", 5, "a generated question computes its answer"),
    (
        "kind: set\n    tags: [t]\n    generator: operand-latency",
        5,
        "makes number questions, not set",
    ),
    ("- id: seed", 5, "id `seed` is reserved"),
    ("choices: [same, Same]", 5, "choice `Same` appears twice"),
    ("- kind: number", 3, "question 17 has no id"),
    (
        "tolerance: 0.5",
        5,
        "tolerance only applies to number questions",
    ),
];

fn line_of(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the bank"));
    text[..at].matches('\n').count() + 1
}

#[test]
fn seeded_mistakes_are_each_reported_at_their_location() {
    let err = Bank::parse(BAD_BANK, "bad.yaml").expect_err("the bank is bad");
    let shown: Vec<String> = err.0.iter().map(ToString::to_string).collect();
    assert!(EXPECTED.len() >= 12);
    for (needle, col, msg) in EXPECTED {
        let line = line_of(BAD_BANK, needle);
        let hit = shown
            .iter()
            .find(|d| d.contains(msg))
            .unwrap_or_else(|| panic!("no `{msg}` in {shown:#?}"));
        assert!(
            hit.starts_with(&format!("bad.yaml:{line}:{col}: ")),
            "`{msg}` at {hit}, want line {line} col {col}"
        );
    }
    // The clean questions produce nothing.
    assert!(!shown.iter().any(|d| d.contains("also-fine")));
    assert_eq!(shown.len(), EXPECTED.len(), "{shown:#?}");
}

#[test]
fn yaml_and_field_mistakes_have_locations_too() {
    let e = Bank::parse(
        "questions:\n  - id: a\n    kind: number\n    answr: 3\n",
        "f.yaml",
    )
    .unwrap_err();
    assert_eq!(e.0.len(), 1);
    let d = e.0[0].to_string();
    assert!(
        d.starts_with("f.yaml:4:") && d.contains("unknown field `answr`"),
        "{d}"
    );
    let e = Bank::parse("questions:\n  - id: a\n   kind: [\n", "g.yaml").unwrap_err();
    assert!(e.0[0].to_string().starts_with("g.yaml:3:"), "{}", e.0[0]);
    let e = Bank::parse("questions: []\n", "h.yaml").unwrap_err();
    assert!(e.0[0].message.contains("no questions"));
}

#[test]
fn check_bank_command_reports_and_exits_1() {
    let dir = common::tempdir();
    let f = dir.path().join("bad.yaml");
    std::fs::write(&f, BAD_BANK).unwrap();
    let fs = f.display().to_string();
    let out = Course::new(["quiz", "--check-bank", &fs])
        .code(1)
        .run()
        .stdout;
    assert_eq!(
        out.lines().filter(|l| l.starts_with(&fs)).count(),
        EXPECTED.len() + 1
    );
    common::snapshot!("check_bank_bad", out.replace(&fs, "bad.yaml"));
    let out = common::ok(["quiz", "--check-bank"]);
    assert!(
        out.starts_with("quizzes/ch23.yaml: ok, 30 questions (3 generated)"),
        "{out}"
    );
    common::ok(["quiz", "--check-bank", "quizzes/ch23.yaml"]);
    Course::new(["quiz", "--check-bank", "/nonexistent.yaml"])
        .code(2)
        .stderr_has("no such file")
        .run();

    let deck = "cards:\n  - id: a\n    tags: [t]\n    front: f\n    back: b\n  - id: a\n    tags: [t]\n    front: f\n    back: \"\"\n  - id: c\n    front: f\n    back: b\n";
    let d = dir.path().join("deck.yaml");
    std::fs::write(&d, deck).unwrap();
    let ds = d.display().to_string();
    let out = Course::new(["flash", "--check-bank", &ds])
        .code(1)
        .run()
        .stdout
        .replace(&ds, "deck.yaml");
    assert!(
        out.contains("deck.yaml:6:5: duplicate id `a` (first used at deck.yaml:2:5)"),
        "{out}"
    );
    assert!(out.contains("deck.yaml:9:5: a: empty back"), "{out}");
    assert!(out.contains("deck.yaml:10:3: c: no tags"), "{out}");
    common::ok(["flash", "--check-bank"]);
}

fn ids(listing: &str) -> BTreeSet<String> {
    listing
        .lines()
        .filter(|l| !l.ends_with("questions") && !l.contains(" cards, "))
        .filter_map(|l| {
            l.trim_start_matches(['*', ' '])
                .split_whitespace()
                .next()
                .map(String::from)
        })
        .collect()
}

#[test]
fn every_question_and_card_is_reachable_by_a_tag() {
    let all = ids(&common::ok(["quiz", "23", "--list"]));
    assert!(all.len() >= 20);
    let mut reached = BTreeSet::new();
    for tag in course_content::quiz::TECHNIQUE_TAGS {
        let got = ids(&common::ok(["quiz", "23", "--list", "--tag", tag]));
        assert!(got.len() >= 5, "{tag}: {got:?}");
        reached.extend(got);
    }
    assert_eq!(reached, all);

    let dir = common::tempdir();
    let state = dir.path().join("state.json");
    let st = state.display().to_string();
    let all = ids(&common::ok(["flash", "23", "--list", "--state", &st]));
    assert!(all.len() >= 30, "{all:?}");
    let mut reached = BTreeSet::new();
    for tag in course_content::quiz::TECHNIQUE_TAGS {
        reached.extend(ids(&common::ok([
            "flash", "23", "--list", "--tag", tag, "--state", &st,
        ])));
    }
    assert_eq!(reached, all);
    assert!(!state.exists(), "listing must not create a state file");
}
