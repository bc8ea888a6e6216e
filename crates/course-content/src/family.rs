//! Machines made from a name and a parameter rather than read from a file:
//! `pathological:D`, the family of Lesson 23.1 §5 whose hazard automaton
//! has `2^D` states. Accepted wherever a built-in machine name is.
//!
//! ```
//! use course_content::family;
//! let m = family::machine("pathological:6").unwrap().unwrap();
//! assert_eq!((m.name(), m.classes().len()), ("pathological-6", 6));
//! assert!(family::machine("toy").is_none());
//! assert!(family::machine("pathological:0").unwrap().is_err());
//! assert!(family::machine("pathological.yaml").is_none());
//! ```

use course_engine::engine::hazard;
use course_engine::model::machine::Machine;

/// The largest `D` of the pathological family: the state of its one
/// resource must fit the automaton's 128-bit state beside the issue slots.
pub const MAX_PATHOLOGICAL: u32 = 64;

/// The machine a family name stands for: `None` when `name` is not a
/// family name, an error when its parameter is out of range.
/// `pathological:D` and `pathological-D` (the name it prints) both work.
/// A name that looks like a path (`pathological.yaml`, `m/pathological-4`:
/// a `.`, `/` or a backslash) is a file, not a family name.
pub fn machine(name: &str) -> Option<Result<Machine, String>> {
    if name.contains(['/', '\\', '.']) {
        return None;
    }
    let rest = name.strip_prefix("pathological")?;
    let usage = || {
        format!(
            "'{name}': write pathological:D with 1 ≤ D ≤ {MAX_PATHOLOGICAL} (Lesson 23.1 §5), e.g. pathological:6"
        )
    };
    let Some(digits) = rest.strip_prefix([':', '-']) else {
        return Some(Err(usage()));
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Some(Err(usage()));
    }
    Some(match digits.parse::<u32>() {
        Ok(d) if (1..=MAX_PATHOLOGICAL).contains(&d) => Ok(hazard::pathological_machine(d)),
        _ => Err(usage()),
    })
}
