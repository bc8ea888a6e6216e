//! The layer rule of `src/lib.rs`, checked on the source: a module may use
//! its own layer and the layers below it, never one above.
//!
//! Every `.rs` file under `src/` belongs to the layer of its folder
//! (`src/<layer>/…`); `src/lib.rs` declares the layers and is exempt, and
//! the binary (`src/main.rs`, `src/cli/`) may use everything. A file refers
//! to a layer by `crate::<layer>` or `course::<layer>` (also as the first
//! segments of a `crate::{…}` group), or by a `super::` chain that climbs
//! to the crate root. Only code counts: comments (doc comments too, whose
//! examples compile as a separate crate against the public API), string
//! and character literals are blanked first. Code under `#[cfg(test)]` is
//! code and counts.

use std::path::Path;

use crate::common;

/// The layers, lowest first.
const LAYERS: &[&str] = &[
    "util", "formats", "model", "engine", "content", "view", "host", "bench", "api",
];

/// The upward references that exist today, as (file, higher layer it
/// uses). The list may only shrink: the test fails when an entry is no
/// longer needed, so remove it when the reference is gone.
const ALLOWED: &[(&str, &str)] = &[];

/// One reference from a file to a layer above its own.
#[derive(Debug, PartialEq)]
struct Violation {
    file: String,
    line: usize,
    layer: &'static str,
    higher: &'static str,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: layer {} uses the higher layer {}",
            self.file, self.line, self.layer, self.higher
        )
    }
}

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == layer)
}

/// `src` with comments, string literals and character literals replaced
/// by spaces; line breaks stay, so line numbers do too.
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        // Line comment (`//`, `///`, `//!`).
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
            continue;
        }
        // Block comment, nested.
        if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            continue;
        }
        // Raw string: r"…", r#"…"#, br"…" (not a raw identifier r#name).
        let starts_word = |k: usize| k == 0 || !ident(c[k - 1]);
        if c[i] == 'r' && (starts_word(i) || (c[i - 1] == 'b' && starts_word(i - 1))) {
            let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
            if c.get(i + 1 + hashes) == Some(&'"') {
                let close: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let mut j = i + 2 + hashes;
                while j < c.len() && !c[j..].starts_with(&close) {
                    j += 1;
                }
                let end = (j + close.len()).min(c.len());
                for &ch in &c[i..end] {
                    blank(&mut out, ch);
                }
                i = end;
                continue;
            }
        }
        // String (and byte string): up to the closing unescaped quote.
        if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(c.len());
            for &ch in &c[i..end] {
                blank(&mut out, ch);
            }
            i = end;
            continue;
        }
        // Character literal ('x', '\n', '\u{1b}', '\''); a lifetime stays.
        if c[i] == '\'' {
            let end = if next == Some('\\') {
                let mut j = i + 3;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                Some(j + 1)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            if let Some(end) = end {
                let end = end.min(c.len());
                for &ch in &c[i..end] {
                    blank(&mut out, ch);
                }
                i = end;
                continue;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// A token of blanked code and its line: an identifier, `::`, or one
/// other character.
fn tokens(code: &str) -> Vec<(usize, String)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((line, c[start..i].iter().collect()));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((line, "::".into()));
            i += 2;
        } else {
            out.push((line, ch.to_string()));
            i += 1;
        }
    }
    out
}

/// The first segment after `tokens[at]` (which follows a `::`): an
/// identifier, or each first segment of a `{…}` group.
fn first_segments(tokens: &[(usize, String)], at: usize) -> Vec<(usize, String)> {
    let Some((line, tok)) = tokens.get(at) else {
        return Vec::new();
    };
    if tok != "{" {
        return vec![(*line, tok.clone())];
    }
    let mut found = Vec::new();
    let mut depth = 0;
    let mut expect_item = true;
    for (line, tok) in &tokens[at..] {
        match tok.as_str() {
            "{" => {
                depth += 1;
                expect_item = depth == 1;
            }
            "}" => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            "," if depth == 1 => expect_item = true,
            _ if depth == 1 && expect_item => {
                found.push((*line, tok.clone()));
                expect_item = false;
            }
            _ => {}
        }
    }
    found
}

/// The top-level modules that code of module `module` (its path below the
/// crate root, e.g. `["engine", "mii"]`) names, with their lines.
fn top_level_references(code: &str, module: &[&str]) -> Vec<(usize, String)> {
    let toks = tokens(code);
    let mut refs = Vec::new();
    // Inline modules (`mod tests { … }`) deepen the path for `super::`.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0;
    for (k, (_, tok)) in toks.iter().enumerate() {
        let after = |n: usize| toks.get(k + n).map(|(_, t)| t.as_str());
        let path_start = k == 0 || toks[k - 1].1 != "::";
        match tok.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                inline.retain(|&d| d <= depth);
            }
            "mod" if after(2) == Some("{") => inline.push(depth + 1),
            "crate" | "course" if path_start && after(1) == Some("::") => {
                refs.extend(first_segments(&toks, k + 2));
            }
            "super" if path_start && after(1) == Some("::") => {
                let mut up = 1;
                while after(2 * up) == Some("super") && after(2 * up + 1) == Some("::") {
                    up += 1;
                }
                let here = module.len() + inline.len();
                // Only a chain that reaches the crate root leaves the layer.
                if up == here {
                    refs.extend(first_segments(&toks, k + 2 * up));
                }
            }
            _ => {}
        }
    }
    refs
}

/// The module path of a file under `src/` (`engine/mii.rs` → `engine::mii`).
fn module_path(rel: &str) -> Vec<&str> {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<&str> = rel.split('/').collect();
    if parts.last() == Some(&"mod") {
        parts.pop();
    }
    parts
}

/// The upward references of one file, `file` being its path from the
/// repository root (`src/engine/mii.rs`).
fn scan(file: &str, src: &str) -> Vec<Violation> {
    let rel = file.strip_prefix("src/").expect("a file under src/");
    let module = module_path(rel);
    let layer = LAYERS
        .iter()
        .copied()
        .find(|l| *l == module[0])
        .unwrap_or_else(|| panic!("{file} is in no layer folder"));
    let own = rank(layer).unwrap();
    let mut found = Vec::new();
    for (line, target) in top_level_references(&code_only(src), &module) {
        let Some(higher) = LAYERS.iter().copied().find(|l| *l == target) else {
            continue;
        };
        if rank(higher).unwrap() > own {
            found.push(Violation {
                file: file.to_string(),
                line,
                layer,
                higher,
            });
        }
    }
    found
}

/// Every `.rs` file under `dir`, as paths relative to the repository root.
fn rust_files(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(common::root()).unwrap();
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn no_layer_uses_a_higher_one() {
    let mut files = Vec::new();
    rust_files(&common::root().join("src"), &mut files);
    files.sort();
    let library: Vec<&String> = files
        .iter()
        .filter(|f| !matches!(f.as_str(), "src/lib.rs" | "src/main.rs"))
        .filter(|f| !f.starts_with("src/cli/"))
        .collect();
    assert!(library.len() > 20, "{library:?}");
    let mut problems = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for file in library {
        let src = std::fs::read_to_string(common::root().join(file)).unwrap();
        for v in scan(file, &src) {
            match ALLOWED
                .iter()
                .position(|&(f, l)| f == v.file && l == v.higher)
            {
                Some(i) => used[i] = true,
                None => problems.push(v.to_string()),
            }
        }
    }
    for (&(file, higher), used) in ALLOWED.iter().zip(used) {
        if !used {
            problems.push(format!(
                "ALLOWED has ({file:?}, {higher:?}), which is no longer needed: remove it"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_scanner_finds_an_upward_use_in_a_fake_source() {
    let src = r##"//! Doc text naming crate::api is not code.
use crate::{util::rng::Rng, view::report};
use super::sched;
use super::super::host::files;

/// An example: `course_bench::run()`.
fn f() -> &'static str {
    let _c = ['"', '{'];
    let _s = "crate::api";
    let _r = r#"course::bench"#;
    crate::model::ids::OpId::from_index(0);
    crate::api::run()
}

#[cfg(test)]
mod tests {
    use super::super::rtable;
    use super::super::super::bench::Bench;
}
"##;
    let found: Vec<(usize, &str)> = scan("src/engine/fake.rs", src)
        .iter()
        .map(|v| (v.line, v.higher))
        .collect();
    assert_eq!(
        found,
        [(2, "view"), (4, "host"), (12, "api"), (18, "bench")]
    );
    let v = &scan("src/engine/fake.rs", src)[0];
    assert_eq!(
        v.to_string(),
        "src/engine/fake.rs:2: layer engine uses the higher layer view"
    );
    // The same text one layer up is fine where it names only lower layers.
    assert!(scan("src/api/fake.rs", "use crate::{engine::x, view::y};\n").is_empty());
}
