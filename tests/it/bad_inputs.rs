//! Bad inputs of every kind: one clear message naming the file, line and
//! column (or the field, for machines), exit code 2, never a panic.

use crate::common;

fn fails(args: &[&str], expect: &str) {
    let o = common::course(args, "");
    assert_eq!(
        o.code, 2,
        "course {args:?}: exit {}\n{}{}",
        o.code, o.stdout, o.stderr
    );
    assert!(
        o.stderr.contains(expect),
        "course {args:?}: expected {expect:?} in\n{}",
        o.stderr
    );
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert!(o.stdout.is_empty());
}

#[test]
fn lab_inputs() {
    let cases = [
        ("empty.txt", "empty.txt:1:1: empty input"),
        (
            "unknown-opcode.txt",
            "unknown-opcode.txt:2:9: unknown opcode 'frob'",
        ),
        (
            "redefined-register.txt",
            "redefined-register.txt:3:4: register r1 is already defined by a",
        ),
        (
            "duplicate-label.txt",
            "duplicate-label.txt:3:1: label 'a' is already used on line 2",
        ),
        (
            "zero-distance-cycle.txt",
            "zero-distance-cycle.txt:2:1: zero-distance dependence cycle a → b → a",
        ),
        (
            "malformed-memory.txt",
            "malformed-memory.txt:2:16: expected '+' or ']'",
        ),
        (
            "two-symbols.txt",
            "two-symbols.txt:2:19: 'y' is a second symbol",
        ),
        (
            "missing-colon.txt",
            "missing-colon.txt:2:3: expected ':' after the label",
        ),
        (
            "bad-header.txt",
            "bad-header.txt:1:1: expected the header 'block NAME' or 'loop NAME'",
        ),
        (
            "distance-zero.txt",
            "distance-zero.txt:2:16: a distance r@k needs 1 ≤ k",
        ),
        (
            "distance-in-block.txt",
            "distance-in-block.txt:2:13: 'r1@k' reads an earlier iteration",
        ),
        (
            "huge-immediate.txt",
            "huge-immediate.txt:2:12: integer does not fit in 64 bits",
        ),
        (
            "missing-comma.txt",
            "missing-comma.txt:2:14: expected ',' between operands",
        ),
        ("binary.txt", "binary.txt: not UTF-8 text"),
    ];
    for (file, expect) in cases {
        let path = format!("tests/data/bad/{file}");
        for cmd in ["schedule", "analyze"] {
            fails(
                &[cmd, &path],
                &format!("tests/data/bad/{expect}")
                    .replace("tests/data/bad/binary.txt: not", "binary.txt: not"),
            );
        }
    }
    fails(
        &["schedule", "tests/data/bad/no-such-file.txt"],
        "no-such-file.txt: no such file",
    );
}

#[test]
fn machine_files() {
    let cases = [
        (
            "occupancy.yaml",
            "classes[0].occupancy: occupancy 4 exceeds latency 3",
        ),
        ("capacity-zero.yaml", "resources[0].capacity"),
        (
            "unknown-resource.yaml",
            "classes[0].reservation[0]: unknown resource 'fpu'",
        ),
        (
            "negative-offset.yaml",
            "classes[0].reservation[0]: offset must be between 0 and 4096, got -1",
        ),
        (
            "duplicate-names.yaml",
            "resources[1].name: duplicate resource name 'alu'",
        ),
        ("syntax.yaml", "syntax.yaml:1:14: issue_width: invalid type"),
    ];
    for (file, expect) in cases {
        let path = format!("tests/data/bad/{file}");
        fails(&["machine", &path], expect);
        fails(
            &[
                "--machine",
                &path,
                "schedule",
                "labs/ch23-sched/inputs/running.txt",
            ],
            expect,
        );
    }
}

#[test]
fn usage_errors() {
    fails(&["drill", "nope", "--seed", "1"], "unknown drill 'nope'");
    fails(
        &["gen", "block", "--ops", "0", "--seed", "1"],
        "--ops must be between 1",
    );
    let o = common::course(&["frobnicate"], "");
    assert_eq!(o.code, 2);
    let o = common::course(&["schedule", "-"], "block b\na: r1 = frob 1\n");
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("<stdin>:2:9: unknown opcode"),
        "{}",
        o.stderr
    );
}

#[test]
fn several_problems_in_one_file_are_all_reported() {
    let o = common::course(
        &["analyze", "-"],
        "block b\na: r1 = frob 1\nb: r2 = add r1\nc r3 = li 2\n",
    );
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("<stdin>:2:9"), "{}", o.stderr);
    assert!(o.stderr.contains("<stdin>:4:3"), "{}", o.stderr);
}
