//! `course gen`: a seeded random block or loop in lab format, drawn with
//! the drill parameters (built in, or from `--course-dir`).

use serde::Serialize;

use course_content::data::Source;
use course_content::generate::{self, GenParams};
use course_engine::model::machine::Machine;
use course_engine::model::program::Kind;

/// A seeded random block or loop. Fields are declared in alphabetical order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GenOutput {
    pub kind: Kind,
    /// The seed that reproduces it.
    pub seed: u64,
    /// The input in lab format, with a header comment naming the seed.
    pub text: String,
}

/// The parameter file of each kind: the drill that uses such inputs.
fn params_path(kind: Kind) -> &'static str {
    match kind {
        Kind::Block => "drills/list-schedule.yaml",
        Kind::Loop => "drills/mii.yaml",
    }
}

/// The generator parameters of `kind`: the file from a course folder, else
/// the built-in ones.
pub fn params(source: &Source, kind: Kind) -> Result<GenParams, String> {
    match source {
        Source::Dir(_) => {
            let path = params_path(kind);
            GenParams::from_yaml(&source.read(path)?, path)
        }
        Source::Embedded => Ok(match kind {
            Kind::Block => GenParams::block_default(),
            Kind::Loop => GenParams::loop_default(),
        }),
    }
}

/// A `kind` input from `seed`, with `ops` operations (default: the
/// parameters' range).
pub fn run(
    source: &Source,
    kind: Kind,
    ops: Option<u64>,
    seed: u64,
    m: &Machine,
) -> Result<GenOutput, String> {
    let params = params(source, kind)?;
    if let Some(n) = ops
        && (n == 0 || n > generate::MAX_OPS)
    {
        return Err(format!("--ops must be between 1 and {}", generate::MAX_OPS));
    }
    let text = match kind {
        Kind::Block => generate::block(m, &params, seed, ops),
        Kind::Loop => generate::loop_body(m, &params, seed, ops),
    };
    Ok(GenOutput { kind, seed, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_loop() {
        let m = Machine::toy();
        let a = run(&Source::Embedded, Kind::Loop, Some(12), 7, &m).unwrap();
        assert_eq!(
            a,
            run(&Source::Embedded, Kind::Loop, Some(12), 7, &m).unwrap()
        );
        assert!(a.text.contains(&format!(
            "loop {}\n",
            course_content::generate::name(7, Kind::Loop)
        )));
        assert!(course_engine::model::program::parse(&a.text, "g", &m).is_ok());
        let e = run(&Source::Embedded, Kind::Block, Some(0), 7, &m).unwrap_err();
        assert!(e.starts_with("--ops must be between 1 and"), "{e}");
    }
}
