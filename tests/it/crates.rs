//! The rules of the workspace that cargo cannot see. Cargo already refuses
//! an upward `use` (a crate cannot name a crate above it: course-engine <
//! course-content < course-host < course); these tests hold what a
//! dependency list does not say:
//!
//! - course-engine and course-content compute and nothing else: no file
//!   system, process, environment, network or terminal outside their tests
//!   (one exception, the `--course-dir` reader of `content::data`);
//! - course-engine depends on no command-line, terminal or OS crate, and
//!   embeds only files inside its own folder, so it publishes alone;
//! - its copy of the toy machine is the lab's.

use std::path::Path;

use crate::common::root;

/// What only `course-host`, `course-bench` and the binaries may do: the
/// modules of the standard library that reach outside, then the calls and
/// macros that talk to the terminal.
const OUTSIDE_MODULES: &[&str] = &["fs", "env", "process", "net"];
const OUTSIDE_CALLS: &[&str] = &[
    "stdin()",
    "stdout()",
    "stderr()",
    "print!(",
    "println!(",
    "eprint!(",
    "eprintln!(",
];

/// The one tolerated reach outside: `Source::Dir`, the `--course-dir` folder.
const ALLOWED: &[(&str, &str)] = &[("crates/course-content/src/data.rs", "std::fs")];

/// Every `.rs` file under `dir`, relative to the repository root, sorted.
fn rust_files(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(
                p.strip_prefix(root())
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
            );
        }
    }
}

/// The lines of `src` before its `#[cfg(test)]` module, each without a
/// trailing `//` comment, numbered from 1.
fn code_lines(src: &str) -> Vec<(usize, &str)> {
    src.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .map(|(i, l)| {
            let code = match l.find("//") {
                Some(at) if l[..at].matches('"').count() % 2 == 0 => &l[..at],
                _ => l,
            };
            (i + 1, code)
        })
        .collect()
}

/// The first segment of each item of a `std::{…}` group, given the text
/// after its `{` and the lines that follow: `io` and `fs` of
/// `std::{io::{self, Write}, fs as f}`.
fn grouped_modules<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut item, mut top) = (1, String::new(), true);
    for c in lines.flat_map(str::chars) {
        match c {
            // `fs as f`: the item is the part before the space.
            _ if c.is_whitespace() => top &= item.is_empty(),
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                if !item.is_empty() {
                    items.push(std::mem::take(&mut item));
                }
                top = true;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            ':' if depth == 1 => top = false,
            _ if depth == 1 && top => item.push(c),
            _ => {}
        }
    }
    items
}

/// `file:line: uses X` for every use of the outside world in `src`: a path
/// `std::fs…` (spaces between its parts too), an item of a `use std::{…}`
/// group, or a terminal call.
fn outside_uses(file: &str, src: &str) -> Vec<String> {
    let lines = code_lines(src);
    let mut found = Vec::new();
    let mut report = |line: usize, what: String| {
        if !ALLOWED.contains(&(file, what.as_str())) {
            found.push(format!("{file}:{line}: uses {what}"));
        }
    };
    for (k, &(line, code)) in lines.iter().enumerate() {
        // `std :: fs` as `std::fs`.
        let compact = code
            .split("::")
            .map(str::trim)
            .collect::<Vec<_>>()
            .join("::");
        for m in OUTSIDE_MODULES {
            let path = format!("std::{m}");
            let named = compact.match_indices(&path).any(|(at, _)| {
                let next = compact[at + path.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if named {
                report(line, path);
            }
        }
        if let Some(at) = compact.find("std::{") {
            let rest =
                std::iter::once(&compact[at + 6..]).chain(lines[k + 1..].iter().map(|&(_, l)| l));
            for m in grouped_modules(rest) {
                if OUTSIDE_MODULES.contains(&m.as_str()) {
                    report(line, format!("std::{m}"));
                }
            }
        }
        for pat in OUTSIDE_CALLS {
            if code.contains(pat) {
                report(line, (*pat).to_string());
            }
        }
    }
    found
}

#[test]
fn engine_and_content_touch_nothing_outside() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/course-engine/src"), &mut files);
    rust_files(&root().join("crates/course-content/src"), &mut files);
    assert!(files.len() > 40, "{files:?}");
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| outside_uses(f, &std::fs::read_to_string(root().join(f)).unwrap()))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    for (file, _) in ALLOWED {
        assert!(
            files.iter().any(|f| f == file),
            "ALLOWED names a missing file: {file}"
        );
    }
}

#[test]
fn the_scan_finds_the_outside_world_in_a_fake_source() {
    let src = "use std::fs;\n// std::process in a comment\nlet s = \"a//b\"; std::env::var(\"X\");\n#[cfg(test)]\nmod tests { fn f() { println!(); } }\n";
    assert_eq!(
        outside_uses("fake.rs", src),
        ["fake.rs:1: uses std::fs", "fake.rs:3: uses std::env"]
    );
    // Spaced paths and grouped imports, on one line or several; modules
    // that only share a prefix (`std::fmt`, `std::envy`) are not the world.
    let src = "use std :: fs;\nuse std::{io::{self, Write}, process::Command};\nuse std::{\n    fmt,\n    net as n,\n};\nuse std::envy;\nuse std::env as e;\nuse std::{ fmt as f, env };\n";
    assert_eq!(
        outside_uses("fake.rs", src),
        [
            "fake.rs:1: uses std::fs",
            "fake.rs:2: uses std::process",
            "fake.rs:3: uses std::net",
            "fake.rs:8: uses std::env",
            "fake.rs:9: uses std::env"
        ]
    );
}

#[test]
fn the_engine_depends_on_no_cli_terminal_or_os_crate() {
    let manifest = std::fs::read_to_string(root().join("crates/course-engine/Cargo.toml")).unwrap();
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .expect("a [dependencies] table");
    let deps = deps.split("\n[").next().unwrap_or(deps);
    for name in deps
        .lines()
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|n| !n.is_empty())
    {
        assert!(
            [
                "batsat",
                "rand",
                "rand_chacha",
                "rustc-hash",
                "serde",
                "serde_json",
                "serde_yaml",
                "thiserror"
            ]
            .contains(&name),
            "course-engine depends on {name}"
        );
    }
    assert!(
        !manifest.contains("[target."),
        "course-engine has platform dependencies"
    );
}

#[test]
fn the_engine_embeds_only_its_own_files() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/course-engine/src"), &mut files);
    for f in &files {
        let src = std::fs::read_to_string(root().join(f)).unwrap();
        for (line, code) in code_lines(&src) {
            if let Some(at) = code.find("include_str!(\"") {
                let rel = code[at + 14..].split('"').next().unwrap();
                let target = root().join(f).parent().unwrap().join(rel);
                let target = target.canonicalize().unwrap();
                let own = root().join("crates/course-engine").canonicalize().unwrap();
                assert!(
                    target.starts_with(&own),
                    "{f}:{line}: embeds {rel}, outside the crate"
                );
            }
        }
    }
    let copy =
        std::fs::read_to_string(root().join("crates/course-engine/machines/toy.yaml")).unwrap();
    let lab = std::fs::read_to_string(root().join("labs/ch23-sched/machines/toy.yaml")).unwrap();
    assert_eq!(
        copy, lab,
        "crates/course-engine/machines/toy.yaml differs from the lab's toy.yaml"
    );
}
