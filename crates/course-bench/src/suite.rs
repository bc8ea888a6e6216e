//! The whole suite: the scale benchmarks of [`crate`], all or one.

use std::path::Path;

use crate::{NAMES, Options, Section};
use course_engine::model::machine::Machine;

use crate::report::BenchOutput;

/// Runs the benchmark `only` (else every one, in [`NAMES`] order) on
/// `m`; `quick` uses small sizes. `exe` is the `course` binary (for the
/// drill-latency benchmark and the inputs of the process benchmark),
/// `measured` the binary the process benchmark times. `each` sees every
/// section as it completes.
pub fn run(
    only: Option<&str>,
    quick: bool,
    m: &Machine,
    exe: &Path,
    measured: &Path,
    mut each: impl FnMut(&Section),
) -> Result<BenchOutput, String> {
    let names: Vec<&str> = match only {
        Some(n) if NAMES.contains(&n) => vec![n],
        Some(n) => {
            return Err(format!(
                "unknown benchmark '{n}' (expected one of: {})",
                NAMES.join(", ")
            ));
        }
        None => NAMES.to_vec(),
    };
    let opts = Options { quick };
    let mut sections = Vec::new();
    for name in names {
        let s = crate::run(name, m, opts, exe, measured)?;
        each(&s);
        sections.push(s);
    }
    Ok(BenchOutput { sections })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_quick_section_and_unknown_names() {
        let m = Machine::toy();
        let mut seen = Vec::new();
        let course = Path::new("course");
        let out = run(Some("hazard"), true, &m, course, course, |s| {
            seen.push(s.name.clone())
        })
        .unwrap();
        assert_eq!(seen, ["hazard"]);
        assert_eq!(out.sections.len(), 1);
        let e = run(Some("nope"), true, &m, course, course, |_| {}).unwrap_err();
        assert!(e.starts_with("unknown benchmark 'nope'"), "{e}");
    }
}
