//! The one answer reader: every drill's `--check`, the quiz (typed at the
//! prompt or from an `--answers` file) and lab submissions read what a
//! student wrote through these functions, so the same text gets the same
//! reading everywhere.
//!
//! The syntax, in one place:
//!
//! | what | accepted | refused (with a reason) |
//! |---|---|---|
//! | text | UTF-8, an optional BOM, LF or CRLF; `#` starts a comment; blank lines are skipped | |
//! | whole number | `0`, `42`, `+3` | `-1`, `3.0`, `4x` |
//! | number | `3`, `5/2`, `2.5` (exact fractions), each optionally followed by a unit word: `5 cycles`, `2.5 cycles/iteration` ([`UNITS`]) | `2,5`, `1e3`, `5/0`, `-1`, `5 apples`, `0b1111` and `0x1f` (with their decimal value) |
//! | set | `{0, 2}`, `{0 2}`, `[0, 2]`, `0, 2`, `0 2`, `{}`, `[]`, `∅` (any order, repeats ignored) | `{1, 2` · `{0; 2}` · `{a}` · `{0, 2]` · ranges `0..3`, `0-3`, `{0..3}` (the message lists the elements) |
//! | bit vector | `000101`, `0 0 0 1 0 1` (offset 0 first; trailing zeros change nothing), or the set of its ones `{3, 5}`, `[3, 5]` | `10x`, `0,1` (bits or offsets?), `0b101` (a literal is written highest bit first) |
//! | choice | its letter (`b`, `B`, `b)`, `(b)`, `b.`) or its whole text | two letters where one is asked for |
//! | several choices | letters separated by commas, blanks, `;` or `and` (`a, c`, `a c`, `a; c`, `a and c`, `ac`), or texts separated by `;` (mixed with letters too) | a letter that is not a choice |
//! | key and value | `key: value`, `key = value`, `key=value` or `key value`; keys ignore case, `-` and `_` | a key without a value |
//! | row of sets | sets or `-` (none) separated by blanks, a `:` allowed after each: `{0, 2}: - {1}` | `{0 2` · `x` |
//!
//! ```
//! use course_engine::formats::answer;
//! use course_engine::util::ratio::Ratio;
//! assert_eq!(answer::number("5/2"), Ok(Ratio::new(5, 2)));
//! assert_eq!(answer::number("2.5"), Ok(Ratio::new(5, 2)));
//! assert_eq!(answer::set("{2, 0}").unwrap().into_iter().collect::<Vec<_>>(), vec![0, 2]);
//! assert!(answer::set("{1, 2").is_err());
//! let choices = ["Fits".to_string(), "Each pair (r, k) appears once".to_string()];
//! assert_eq!(answer::choice("b)", &choices), Ok(1));
//! assert_eq!(answer::choice("each pair (r, k) appears once", &choices), Ok(1));
//! ```

use std::collections::BTreeSet;

use crate::formats::diagnostic::Diagnostic;
use crate::util::ratio::Ratio;

/// The largest element a set answer may hold.
pub const MAX_SET_ELEMENT: u64 = 1_000_000;

/// The most decimal places a number answer may have.
pub const MAX_DECIMALS: usize = 12;

/// One meaningful line of an answer: its text without the comment and
/// surrounding blanks, where that text starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'t> {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column (in characters) of the first character of `text`.
    pub column: u32,
    /// The text, comment and surrounding whitespace removed; never empty.
    pub text: &'t str,
}

/// The text without a leading byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The part of a line before its `#` comment.
pub fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    }
}

/// The meaningful lines of an answer text: a BOM is dropped, CRLF is
/// accepted, comments and blank lines are skipped.
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    strip_bom(text).lines().enumerate().filter_map(|(i, raw)| {
        let body = strip_comment(raw);
        let trimmed = body.trim();
        if trimmed.is_empty() {
            return None;
        }
        let lead = &body[..body.len() - body.trim_start().len()];
        Some(Line {
            line: i as u32 + 1,
            column: lead.chars().count() as u32 + 1,
            text: trimmed,
        })
    })
}

/// At most 40 characters of untrusted text, control characters escaped, for
/// messages.
pub fn shorten(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(40)
        .flat_map(|c| -> Box<dyn Iterator<Item = char>> {
            if c.is_control() {
                Box::new(c.escape_default())
            } else {
                Box::new(std::iter::once(c))
            }
        })
        .collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A whole number: digits, optionally after `+`.
pub fn whole(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.strip_prefix('+').unwrap_or(t);
    if let Some(rest) = digits.strip_prefix('-')
        && !rest.is_empty()
        && rest.chars().all(|c| c.is_ascii_digit())
    {
        return Err(format!("'{}' is negative", shorten(t)));
    }
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("'{}' is not a whole number", shorten(t)));
    }
    digits
        .parse::<u64>()
        .map_err(|_| format!("'{}' is too large", shorten(t)))
}

/// The unit words a number answer may end with (`5 cycles`), compared
/// ignoring case: they are read and dropped, the same on every question.
pub const UNITS: [&str; 8] = [
    "cycle",
    "cycles",
    "cycles per iteration",
    "cycles/iteration",
    "cycles/iter",
    "state",
    "states",
    "µops",
];

/// `cycles, cycles per iteration, …`: the unit words, for messages.
pub fn unit_list() -> String {
    UNITS.join(", ")
}

/// The value of a `0b`/`0o`/`0x` literal, if `t` is one.
fn prefixed_literal(t: &str) -> Option<(&'static str, Option<u64>)> {
    let lower = t.to_ascii_lowercase();
    let (name, radix) = match lower.get(..2)? {
        "0b" => ("binary", 2),
        "0o" => ("octal", 8),
        "0x" => ("hexadecimal", 16),
        _ => return None,
    };
    let digits = &t[2..];
    if digits.is_empty()
        || !digits
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    Some((
        name,
        u64::from_str_radix(&digits.replace('_', ""), radix).ok(),
    ))
}

/// A non-negative number, exactly: `3`, `5/2` or `2.5`, optionally followed
/// by one of the [`UNITS`] (`5 cycles`, `2.5 cycles/iteration`) or after
/// one (`cycle 11`); a whole number up to twenty may be spelled (`five`,
/// `five cycles`). A `0b`, `0o` or `0x` literal is refused with its
/// decimal value.
pub fn number(s: &str) -> Result<Ratio, String> {
    let t = s.trim();
    // `cycle 11`, `state 3`: a unit word before the number, as in "cycle
    // 11 of the schedule".
    let t = match t.split_once(char::is_whitespace) {
        Some((unit, rest))
            if UNITS.iter().any(|u| u.eq_ignore_ascii_case(unit))
                && rest.trim_start().starts_with(|c: char| c.is_ascii_digit()) =>
        {
            rest.trim_start()
        }
        _ => t,
    };
    if let Some(v) = spelled(t) {
        return Ok(Ratio::int(v));
    }
    if let Some((name, value)) = prefixed_literal(t) {
        let hint = value.map_or(String::new(), |v| format!(" ({v})"));
        return Err(format!(
            "'{}' is a {name} literal; write the number in decimal{hint}, such as 3, 5/2 or 2.5",
            shorten(t)
        ));
    }
    let split = t
        .find(|c: char| c.is_alphabetic() || c == 'µ')
        .filter(|&i| i > 0)
        .unwrap_or(t.len());
    let (value, unit) = t.split_at(split);
    let unit = unit.split_whitespace().collect::<Vec<_>>().join(" ");
    if !unit.is_empty() {
        let value = value.trim();
        let is_unit = UNITS.iter().any(|u| u.eq_ignore_ascii_case(&unit));
        if !is_unit || value.is_empty() {
            return Err(format!(
                "'{}' is not a number (write 5/2 or 2.5; only a unit may follow it: {})",
                shorten(t),
                unit_list()
            ));
        }
        return bare_number(value);
    }
    bare_number(t)
}

/// The spelled numbers read as answers, zero to twenty.
pub const SPELLED: [&str; 21] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// `five`, `Five cycles`: a spelled whole number up to twenty, with or
/// without a unit after it.
fn spelled(t: &str) -> Option<u64> {
    let mut words = t.split_whitespace();
    let w = words.next()?.to_lowercase();
    let unit = words.collect::<Vec<_>>().join(" ");
    if !unit.is_empty() && !UNITS.iter().any(|u| u.eq_ignore_ascii_case(&unit)) {
        return None;
    }
    SPELLED.iter().position(|s| *s == w).map(|i| i as u64)
}

fn bare_number(t: &str) -> Result<Ratio, String> {
    let not = || format!("'{}' is not a number (write 5/2 or 2.5)", shorten(t));
    if t.starts_with('-') {
        return Err(format!("'{}' is negative", shorten(t)));
    }
    if let Some((a, b)) = t.split_once('/') {
        let a = whole(a).map_err(|_| not())?;
        let b = whole(b).map_err(|_| not())?;
        if b == 0 {
            return Err(format!("'{}' divides by zero", shorten(t)));
        }
        return Ok(Ratio::new(a, b));
    }
    if let Some((int, frac)) = t.split_once('.') {
        if frac.is_empty() && int.is_empty() {
            return Err(not());
        }
        if !frac.chars().all(|c| c.is_ascii_digit()) {
            return Err(not());
        }
        if frac.len() > MAX_DECIMALS {
            return Err(format!(
                "'{}' has more than {MAX_DECIMALS} decimal places",
                shorten(t)
            ));
        }
        let i = if int.is_empty() {
            0
        } else {
            whole(int).map_err(|_| not())?
        };
        let f = if frac.is_empty() {
            0
        } else {
            whole(frac).map_err(|_| not())?
        };
        let den = 10u64.pow(frac.len() as u32);
        let num = i
            .checked_mul(den)
            .and_then(|v| v.checked_add(f))
            .ok_or_else(|| format!("'{}' is too large", shorten(t)))?;
        return Ok(Ratio::new(num, den));
    }
    whole(t)
        .map(Ratio::int)
        .map_err(|e| if e.contains("too large") { e } else { not() })
}

/// How a set is written, for messages and prompts.
pub const SET_SYNTAX: &str = "write a set as {0, 2}, [0, 2], 0, 2 or 0 and 2 ({} when empty)";

/// The message for a range such as `0..3` or `0-3`: ranges are refused
/// (is the end in it or not?), and the elements are shown instead.
fn range_refused(whole_text: &str, from: &str, to: &str) -> String {
    let listed = match (whole(from), whole(to)) {
        (Ok(a), Ok(b)) if a <= b && b - a < 16 => set_text((a..=b).collect::<Vec<_>>().iter()),
        (Ok(a), Ok(b)) if a <= b => format!("{{{a}, {}, …, {b}}}", a + 1),
        _ => "{0, 1, 2, 3}".to_string(),
    };
    format!(
        "'{}' is a range, and ranges are not read (is the end in it?); list the elements, such as {listed}",
        shorten(whole_text)
    )
}

/// A set of non-negative integers, any order, repeats ignored: in braces
/// (`{0, 2}`, `{0 2}`), in brackets (`[0, 2]`) or bare (`0, 2`, `0 2`,
/// `0 and 2`);
/// `{}`, `[]` and `∅` are empty. A range (`0..3`, `0-3`) is refused with
/// its elements listed; so is `;` between elements.
pub fn set(s: &str) -> Result<BTreeSet<u64>, String> {
    let t = s.trim();
    if t == "∅" {
        return Ok(BTreeSet::new());
    }
    if t.is_empty() {
        return Err(format!("an empty answer; {SET_SYNTAX}"));
    }
    let inner = match t.chars().next() {
        Some(open @ ('{' | '[')) => {
            let close = if open == '{' { '}' } else { ']' };
            match t[1..].strip_suffix(close) {
                Some(inner) => inner,
                None => {
                    return Err(format!(
                        "'{}' does not end with '{close}'; {SET_SYNTAX}",
                        shorten(t)
                    ));
                }
            }
        }
        _ => t,
    };
    // A range, with or without blanks around its `..` or `-`.
    let squeezed: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
    for sep in ["..", "-", "–"] {
        if let Some((a, b)) = squeezed.split_once(sep) {
            let digits = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit());
            let from = a.rsplit(',').next().unwrap_or(a);
            let to = b.split(',').next().unwrap_or(b);
            if digits(from) && digits(to) {
                return Err(range_refused(t, from, to));
            }
        }
    }
    let mut out = BTreeSet::new();
    for tok in inner.split(|c: char| c == ',' || c.is_whitespace()) {
        // `0 and 1`, `0, 1 & 3`: the words between elements are commas.
        if tok.is_empty() || tok.eq_ignore_ascii_case("and") || tok == "&" {
            continue;
        }
        if tok.contains(';') {
            return Err(format!(
                "'{}' in '{}': separate elements with commas; {SET_SYNTAX}",
                shorten(tok),
                shorten(t)
            ));
        }
        if tok.contains(['{', '}', '[', ']']) {
            return Err(format!(
                "'{}' has unmatched braces or brackets; {SET_SYNTAX}",
                shorten(t)
            ));
        }
        match whole(tok) {
            Ok(v) if v <= MAX_SET_ELEMENT => {
                out.insert(v);
            }
            Ok(_) => return Err(format!("{tok} is larger than {MAX_SET_ELEMENT}")),
            Err(_) => {
                return Err(format!(
                    "'{}' is not a non-negative integer; {SET_SYNTAX}",
                    shorten(tok)
                ));
            }
        }
    }
    let trimmed = inner.trim();
    if inner.split(',').skip(1).any(|part| part.trim().is_empty()) || trimmed.starts_with(',') {
        return Err(format!(
            "'{}' has an empty element; {SET_SYNTAX}",
            shorten(t)
        ));
    }
    Ok(out)
}

/// How a bit vector is written, for messages and prompts.
pub const BITS_SYNTAX: &str = "write bits such as 0101, offset 0 first and no 0b (or the set of the offsets holding 1, {1, 3})";

/// A bit vector written offset 0 first (`000101`, blanks between bits
/// allowed), or the set of its ones (`{3, 5}`, `[3, 5]`): the offsets
/// whose bit is 1. A `0b` literal is refused (it is written highest bit
/// first), and so is a bare list with commas (bits or offsets?).
pub fn bits(s: &str) -> Result<BTreeSet<u64>, String> {
    let t = s.trim();
    if t.starts_with(['{', '[']) || t == "∅" {
        return set(t);
    }
    if t.is_empty() {
        return Err(format!("an empty answer; {BITS_SYNTAX}"));
    }
    if t.len() > 2 && t.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0b")) {
        return Err(format!(
            "'{}' is a binary literal, written highest bit first; {BITS_SYNTAX}",
            shorten(t)
        ));
    }
    let mut out = BTreeSet::new();
    let mut k: u64 = 0;
    for c in t.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '0' => {}
            '1' => {
                out.insert(k);
            }
            _ => {
                return Err(format!(
                    "'{}' is not a bit vector; {BITS_SYNTAX}",
                    shorten(t)
                ));
            }
        }
        k += 1;
        if k > MAX_SET_ELEMENT + 1 {
            return Err(format!(
                "'{}' has more than {} bits",
                shorten(t),
                MAX_SET_ELEMENT + 1
            ));
        }
    }
    Ok(out)
}

/// The longest bit string [`bits_text`] writes; a set reaching further is
/// written as a set.
pub const MAX_BITS_TEXT: u64 = 64;

/// `000101`: the bits of a set of offsets, offset 0 first, as long as its
/// largest element needs (`0` when empty). A set with an element of
/// [`MAX_BITS_TEXT`] or more is written `{…}` instead, so the text stays
/// as small as the set.
pub fn bits_text(ones: &BTreeSet<u64>) -> String {
    match ones.last() {
        None => "0".to_string(),
        Some(&last) if last >= MAX_BITS_TEXT => set_text(ones),
        Some(&last) => (0..=last)
            .map(|k| if ones.contains(&k) { '1' } else { '0' })
            .collect(),
    }
}

/// `{0, 1, 2}`, or `{}` when empty: how sets are written back.
pub fn set_text<'a>(items: impl IntoIterator<Item = &'a u64>) -> String {
    let v: Vec<String> = items.into_iter().map(u64::to_string).collect();
    format!("{{{}}}", v.join(", "))
}

/// Lower case, whitespace collapsed, surrounding quotes or backticks and a
/// final full stop dropped: the form free-text answers are compared in.
pub fn normalize(s: &str) -> String {
    let t = s.trim().trim_end_matches('.').trim();
    let t = t.trim_matches(|c| c == '`' || c == '"' || c == '\'');
    t.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The letter of choice `i`: `a`, `b`, …
pub fn letter(i: usize) -> char {
    (b'a' + (i % 26) as u8) as char
}

fn letter_index(tok: &str, n: usize) -> Option<usize> {
    let t = tok.trim();
    let t = t.strip_prefix('(').unwrap_or(t);
    let t = t.strip_suffix([')', '.']).unwrap_or(t);
    let mut it = t.chars();
    let c = it.next()?.to_ascii_lowercase();
    if it.next().is_some() || !c.is_ascii_lowercase() {
        return None;
    }
    let i = (c as u8 - b'a') as usize;
    (i < n).then_some(i)
}

/// `a–d`: the letters of `n` choices.
pub fn choice_range(n: usize) -> String {
    format!("a–{}", letter(n.saturating_sub(1)))
}

/// A choice's text in the form replies are matched in: [`normalize`]d,
/// with hyphens as blanks (`in-order` is `in order`).
fn words(s: &str) -> String {
    normalize(&s.replace(['-', '–'], " "))
}

/// The choice `s` names by its words: the whole text, or (at least four
/// characters of) the opening words of exactly one choice.
fn by_words(s: &str, choices: &[String]) -> Option<usize> {
    let w = words(s);
    if let Some(i) = choices.iter().position(|c| words(c) == w) {
        return Some(i);
    }
    if w.chars().count() < 4 {
        return None;
    }
    let mut starts = choices.iter().enumerate().filter(|(_, c)| {
        let c = words(c);
        c.starts_with(&w) && c[w.len()..].starts_with([' ', ',', ';', ':', '('])
    });
    match (starts.next(), starts.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// One choice: its letter (`b`, `B`, `b)`, `(b)`, `b.`), its whole text
/// (case, spacing, hyphens and a final full stop ignored) or the opening
/// words of one choice (`O(1) per query` for a longer text).
pub fn choice(s: &str, choices: &[String]) -> Result<usize, String> {
    let n = normalize(s);
    if let Some(i) = choices.iter().position(|c| normalize(c) == n) {
        return Ok(i);
    }
    if let Some(i) = letter_index(s, choices.len()) {
        return Ok(i);
    }
    if let Some(i) = by_words(s, choices) {
        return Ok(i);
    }
    if let Ok(several) = self::choices(s, choices)
        && several.len() > 1
    {
        return Err(format!(
            "'{}' names {} choices; this question takes one letter {} (or the text of a choice)",
            shorten(s.trim()),
            several.len(),
            choice_range(choices.len())
        ));
    }
    Err(format!(
        "'{}' is neither a letter {} nor the text of a choice",
        shorten(s.trim()),
        choice_range(choices.len())
    ))
}

/// How several choices are written, for messages and prompts.
pub const CHOICES_SYNTAX: &str = "letters separated by commas, blanks, ';' or 'and' (a, c · a c · a; c · a and c · ac), or choice texts separated by ';'";

/// Letters of one `;`-separated part of a several-choices answer.
fn letters_into(part: &str, n: usize, out: &mut BTreeSet<usize>) -> Result<(), String> {
    for tok in part.split(|c: char| c == ',' || c.is_whitespace()) {
        if tok.is_empty() || tok.eq_ignore_ascii_case("and") || tok == "&" {
            continue;
        }
        if let Some(i) = letter_index(tok, n) {
            out.insert(i);
            continue;
        }
        // `ac` is shorthand for `a, c` when every letter is a choice.
        let run: Option<Vec<usize>> = tok
            .chars()
            .map(|c| letter_index(&c.to_string(), n))
            .collect();
        match run {
            Some(v) if tok.chars().all(|c| c.is_ascii_alphabetic()) => out.extend(v),
            _ => {
                return Err(format!(
                    "'{}' is neither letters {} nor the text of a choice; write {CHOICES_SYNTAX}",
                    shorten(tok),
                    choice_range(n)
                ));
            }
        }
    }
    Ok(())
}

/// Several choices: letters separated by commas, blanks, `;` or the word
/// `and` (`a, c`, `a c`, `a; c`, `a and c`, `ac`), or choice texts
/// separated by `;` (letters and texts may be mixed between `;`s).
pub fn choices(s: &str, choices: &[String]) -> Result<BTreeSet<usize>, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err(format!("an empty answer; write {CHOICES_SYNTAX}"));
    }
    let by_text = |part: &str| {
        let n = normalize(part);
        choices
            .iter()
            .position(|c| normalize(c) == n)
            .or_else(|| by_words(part, choices))
    };
    if let Some(i) = by_text(t) {
        return Ok(BTreeSet::from([i]));
    }
    let mut out = BTreeSet::new();
    for part in t.split(';') {
        if part.trim().is_empty() {
            continue;
        }
        match by_text(part) {
            Some(i) => {
                out.insert(i);
            }
            None => letters_into(part, choices.len(), &mut out)?,
        }
    }
    if out.is_empty() {
        return Err(format!("no choice given; write {CHOICES_SYNTAX}"));
    }
    Ok(out)
}

/// A `key: value` line of an answer file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue<'t> {
    /// The key as written.
    pub key: &'t str,
    /// The value, trimmed; never empty.
    pub value: &'t str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column of the value.
    pub column: u32,
    /// 1-based column of the key.
    pub key_column: u32,
}

impl KeyValue<'_> {
    /// True when the key names `name`, ignoring case, `-` and `_`
    /// (`ResMII`, `res_mii` and `res-mii` are one key).
    pub fn is(&self, name: &str) -> bool {
        key_form(self.key) == key_form(name)
    }
}

/// A key in the form keys are compared in.
pub fn key_form(k: &str) -> String {
    k.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Splits one line into key and value: `key: value`, `key = value` or
/// `key value`.
pub fn key_value(l: Line<'_>) -> Result<KeyValue<'_>, String> {
    let t = l.text;
    let end = t
        .find(|c: char| c == ':' || c == '=' || c.is_whitespace())
        .unwrap_or(t.len());
    let key = &t[..end];
    let mut rest = t[end..].trim_start();
    if let Some(r) = rest.strip_prefix([':', '=']) {
        rest = r.trim_start();
    }
    if key.is_empty() || rest.is_empty() {
        return Err(format!("expected 'KEY: VALUE', found '{}'", shorten(t)));
    }
    let value_start = t.len() - rest.len();
    Ok(KeyValue {
        key,
        value: rest,
        line: l.line,
        column: l.column + t[..value_start].chars().count() as u32,
        key_column: l.column,
    })
}

/// Every `key: value` line of `text`, and a diagnostic (in `file`) for each
/// line that is not one.
pub fn key_values<'t>(text: &'t str, file: &str) -> (Vec<KeyValue<'t>>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for l in lines(text) {
        match key_value(l) {
            Ok(kv) => out.push(kv),
            Err(message) => errors.push(Diagnostic::new(file, l.line, l.column, message)),
        }
    }
    (out, errors)
}

/// One item of a row of sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowItem {
    /// Where it starts, in characters from the start of the text (0-based).
    pub offset: usize,
    /// The set, or `None` for `-`.
    pub set: Option<BTreeSet<u64>>,
}

/// A row of sets separated by blanks, such as `{0, 2}: - {0,1,2} {1}`:
/// each item is a set as [`set`] reads it in braces or brackets (`{…}`,
/// `[…]`, `{}`, `∅`) or `-` for
/// none, and a `:` may follow an item. A mistake comes with the character
/// offset of the item it is in.
///
/// ```
/// use course_engine::formats::answer::set_row;
/// let row = set_row("{0, 2}: - ∅ {1}").unwrap();
/// let sets: Vec<Option<Vec<u64>>> = row.iter().map(|i| i.set.as_ref().map(|s| s.iter().copied().collect())).collect();
/// assert_eq!(sets, vec![Some(vec![0, 2]), None, Some(vec![]), Some(vec![1])]);
/// assert_eq!(row[3].offset, 12);
/// assert_eq!(set_row("{1} x").unwrap_err().0, 4);
/// ```
pub fn set_row(s: &str) -> Result<Vec<RowItem>, (usize, String)> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (byte, c) = chars[i];
        let c0 = c;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let end = match c {
            '{' | '[' => match chars[i..]
                .iter()
                .position(|&(_, c)| c == if c0 == '{' { '}' } else { ']' })
            {
                Some(k) => i + k + 1,
                None => chars.len(),
            },
            _ => chars[i..]
                .iter()
                .position(|&(_, c)| c.is_whitespace() || c == ':')
                .map_or(chars.len(), |k| i + k),
        };
        let to = chars.get(end).map_or(s.len(), |&(b, _)| b);
        let item = &s[byte..to];
        let set = match item {
            "-" => None,
            _ if c == '{' || c == '[' || c == '∅' => Some(set(item).map_err(|e| (i, e))?),
            _ => {
                return Err((
                    i,
                    format!(
                        "'{}' is neither a set ({{0, 2}}, {{}} or ∅) nor '-'",
                        shorten(item)
                    ),
                ));
            }
        };
        out.push(RowItem { offset: i, set });
        i = end;
        if chars.get(i).is_some_and(|&(_, c)| c == ':') {
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every reader over every string of up to four pieces among digits,
    /// brackets, separators, a combining accent, an emoji, a
    /// right-to-left mark, a byte-order mark and a `0b` prefix: each
    /// returns, none panics (a combining accent after one character once
    /// made `bits` slice inside a character).
    #[test]
    fn no_reader_panics_on_marks_emoji_or_accents() {
        const PIECES: &[&str] = &[
            "0", "1", "{", "}", ",", " ", ":", "=", "\u{301}", "é", "🙂", "\u{200f}", "\u{feff}",
            "0b", "e", "a",
        ];
        let options = vec!["in order".to_string(), "out of order".to_string()];
        let mut word = Vec::new();
        let mut n = 0usize;
        let mut check = |t: &str| {
            let _ = whole(t);
            let _ = number(t);
            let _ = set(t);
            let _ = bits(t);
            let _ = choice(t, &options);
            let _ = choices(t, &options);
            let _ = set_row(t);
            let _ = shorten(t);
            let _ = normalize(t);
            let _ = key_values(t, "answer.txt");
            for l in lines(t) {
                let _ = key_value(l);
            }
            n += 1;
        };
        fn each(word: &mut Vec<&'static str>, depth: usize, f: &mut dyn FnMut(&str)) {
            f(&word.concat());
            if depth == 0 {
                return;
            }
            for p in PIECES {
                word.push(p);
                each(word, depth - 1, f);
                word.pop();
            }
        }
        each(&mut word, 4, &mut check);
        assert!(n > 60_000, "{n}");
        // The case that crashed, and a prefix with a multi-byte character.
        assert!(bits("e\u{301} 00001").is_err());
        assert!(bits("é1").is_err());
    }

    #[test]
    fn answers_read_as_students_write_them() {
        assert_eq!(number("cycle 11"), Ok(Ratio::int(11)));
        assert_eq!(number("Cycles 3"), Ok(Ratio::int(3)));
        assert_eq!(number("five"), Ok(Ratio::int(5)));
        assert_eq!(number("Five cycles"), Ok(Ratio::int(5)));
        assert_eq!(number("zero"), Ok(Ratio::int(0)));
        assert!(number("fivish").is_err());
        assert!(number("cycle eleven-ish").is_err());
        let two: BTreeSet<u64> = [0, 1].into_iter().collect();
        assert_eq!(set("0 and 1"), Ok(two.clone()));
        assert_eq!(set("{0 and 1}"), Ok(two.clone()));
        assert_eq!(set("0 & 1"), Ok(two));
        let c = vec![
            "in-order issue, one operation a cycle".to_string(),
            "out-of-order issue".to_string(),
            "O(1) per query, after O(n) to build".to_string(),
        ];
        assert_eq!(choice("in order issue, one operation a cycle", &c), Ok(0));
        assert_eq!(choice("in-order", &c), Ok(0));
        assert_eq!(choice("Out of order issue.", &c), Ok(1));
        assert_eq!(choice("O(1) per query", &c), Ok(2));
        // Too short or shared by two choices: not a choice.
        assert!(choice("o", &c).is_err());
        assert!(choice("issue", &c).is_err());
        assert_eq!(
            choices("in-order; O(1) per query", &c),
            Ok(BTreeSet::from([0, 2]))
        );
    }

    #[test]
    fn bit_strings_stay_as_small_as_their_set() {
        let small: BTreeSet<u64> = [0, 2].into_iter().collect();
        assert_eq!(bits_text(&small), "101");
        assert_eq!(bits_text(&BTreeSet::new()), "0");
        let far: BTreeSet<u64> = [1, 1_000_000].into_iter().collect();
        assert_eq!(bits_text(&far), "{1, 1000000}");
        let edge: BTreeSet<u64> = [MAX_BITS_TEXT - 1].into_iter().collect();
        assert_eq!(bits_text(&edge).len() as u64, MAX_BITS_TEXT);
    }

    #[test]
    fn lines_skip_comments_bom_and_crlf() {
        let v: Vec<Line> = lines("\u{feff}# hi\r\n  a 1 # x\r\n\r\nb 2").collect();
        assert_eq!(
            v,
            vec![
                Line {
                    line: 2,
                    column: 3,
                    text: "a 1"
                },
                Line {
                    line: 4,
                    column: 1,
                    text: "b 2"
                }
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(number("5/2"), Ok(Ratio::new(5, 2)));
        assert_eq!(number(" 2.5 "), Ok(Ratio::new(5, 2)));
        assert_eq!(number("3"), Ok(Ratio::int(3)));
        assert_eq!(number(".5"), Ok(Ratio::new(1, 2)));
        assert_eq!(number("3."), Ok(Ratio::int(3)));
        for bad in ["x", "2,5", "1e3", "5/0", "-1", "", ".", "1/2/3", "4x"] {
            assert!(number(bad).is_err(), "{bad}");
        }
        assert_eq!(whole("+4"), Ok(4));
        assert!(whole("-4").unwrap_err().contains("negative"));
        assert!(whole("99999999999999999999").unwrap_err().contains("large"));
    }

    #[test]
    fn numbers_take_one_unit_word_and_refuse_literals() {
        for (text, want) in [
            ("5 cycles", Ratio::int(5)),
            ("5cycles", Ratio::int(5)),
            ("8 Cycles", Ratio::int(8)),
            ("1 cycle", Ratio::int(1)),
            ("5/2 cycles per iteration", Ratio::new(5, 2)),
            ("2.5 cycles/iteration", Ratio::new(5, 2)),
            ("3  states", Ratio::int(3)),
        ] {
            assert_eq!(number(text), Ok(want), "{text}");
        }
        for bad in ["cycles", "fives cycles"] {
            assert!(
                number(bad).unwrap_err().contains("is not a number"),
                "{bad}"
            );
        }
        for bad in ["5 apples", "5 cycles cycles", "1e3"] {
            let e = number(bad).unwrap_err();
            assert!(
                e.contains("only a unit may follow it: cycle, cycles"),
                "{bad}: {e}"
            );
        }
        let e = number("0b1111").unwrap_err();
        assert_eq!(
            e,
            "'0b1111' is a binary literal; write the number in decimal (15), such as 3, 5/2 or 2.5"
        );
        assert!(
            number("0x1F")
                .unwrap_err()
                .contains("hexadecimal literal; write the number in decimal (31)")
        );
    }

    #[test]
    fn one_set_reader_for_braces_brackets_and_bare_lists() {
        let s = |t: &str| set(t).map(|s| s.into_iter().collect::<Vec<_>>());
        for ok in [
            "{0, 1,2, 3}",
            "{3 2 1 0}",
            "[0,1,2,3]",
            "[ 0, 1, 2, 3 ]",
            "0, 1, 2, 3",
            "0 1 2 3",
            "3,2,1,0,0",
        ] {
            assert_eq!(s(ok), Ok(vec![0, 1, 2, 3]), "{ok}");
        }
        assert_eq!(s("7"), Ok(vec![7]));
        for empty in ["∅", "{}", "{ }", "[]"] {
            assert_eq!(s(empty), Ok(vec![]), "{empty}");
        }
        // Ranges are refused, and the message lists the elements.
        for range in ["0..3", "{0..3}", "0-3", "[0 - 3]", "{0–3}", "{5, 0..3}"] {
            let e = set(range).unwrap_err();
            assert!(
                e.contains("is a range, and ranges are not read") && e.ends_with("{0, 1, 2, 3}"),
                "{range}: {e}"
            );
        }
        assert!(set("0..100").unwrap_err().ends_with("{0, 1, …, 100}"));
        for (bad, why) in [
            ("{1, 2", "does not end with '}'"),
            ("[1, 2", "does not end with ']'"),
            ("{0, 2]", "does not end with '}'"),
            ("0, 2}", "unmatched braces or brackets"),
            ("{0; 2}", "separate elements with commas"),
            ("{a}", "'a' is not a non-negative integer"),
            ("{-1}", "'-1' is not a non-negative integer"),
            ("", "an empty answer"),
            ("{1,,2}", "an empty element"),
            ("{,1}", "an empty element"),
            ("1, 2,", "an empty element"),
        ] {
            let e = set(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
            assert!(e.ends_with(SET_SYNTAX), "{bad}: {e}");
        }
    }

    #[test]
    fn key_values_in_three_spellings() {
        let (kv, errs) = key_values("ResMII = 3\nrec-mii: 4\nmii 4\nbroken\n", "a.txt");
        assert_eq!(kv.len(), 3);
        assert!(kv[0].is("res_mii") && kv[1].is("rec_mii") && kv[2].is("mii"));
        assert_eq!((kv[0].value, kv[0].column), ("3", 10));
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "a.txt:4:1: expected 'KEY: VALUE', found 'broken'"
        );
    }
}
