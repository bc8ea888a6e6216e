//! The drill registry: the [`Drill`]s in the order `course drill list`
//! shows them, and what tells one from another (its name and summary, its
//! generator parameter file, its number of hints, and how it poses and
//! checks a problem), each a plain `match` over the drill whose arm calls
//! the drill's own module.

use std::borrow::Cow;

use serde::Serialize;

use course_engine::model::machine::Machine;

use super::{
    Problem, Report, automaton, forbidden, hazard, list_schedule, mii, modulo, rthroughput,
};
use crate::generate::GenParams;

/// The drills, in the order `course drill list` shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Drill {
    /// The top-down list schedule of a random block.
    ListSchedule,
    /// ResMII, RecMII and MII of a random loop.
    Mii,
    /// A modulo schedule of a random loop.
    Modulo,
    /// Forbidden latencies and collision vectors of random tables.
    Forbidden,
    /// The hazard recognizer's trace on the multiplier.
    Hazard,
    /// The pipeline automaton of one resource: states and transitions.
    Automaton,
    /// Block RThroughput of a random loop body.
    Rthroughput,
}

/// A drill's name and what it practises (`course drill list`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DrillEntry {
    /// The name on the command line.
    pub name: &'static str,
    /// One line on what it practises.
    pub summary: &'static str,
}

/// Why a drill could not run.
#[derive(Debug, thiserror::Error)]
pub enum DrillError {
    /// The machine lacks what the drill needs.
    #[error("{0}")]
    Machine(String),
    /// The issue attempts of a hazard replay cannot be read.
    #[error("--events: {0}")]
    Events(String),
}

impl Drill {
    /// Every drill, in listing order.
    pub const ALL: [Drill; 7] = [
        Drill::ListSchedule,
        Drill::Mii,
        Drill::Modulo,
        Drill::Forbidden,
        Drill::Hazard,
        Drill::Automaton,
        Drill::Rthroughput,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Drill::ListSchedule => "list-schedule",
            Drill::Mii => "mii",
            Drill::Modulo => "modulo",
            Drill::Forbidden => "forbidden",
            Drill::Hazard => "hazard",
            Drill::Automaton => "automaton",
            Drill::Rthroughput => "rthroughput",
        }
    }

    /// One line on what the drill practises.
    pub fn summary(self) -> &'static str {
        match self {
            Drill::ListSchedule => {
                "top-down list scheduling of a random block (heights, Fits, the reservation table)"
            }
            Drill::Mii => {
                "ResMII, RecMII and MII of a random loop (usage from reservation tables, the critical recurrence)"
            }
            Drill::Modulo => {
                "a modulo schedule of a random loop at the smallest II (the modulo reservation table; MII bounds it)"
            }
            Drill::Forbidden => {
                "forbidden latencies and collision vectors of random reservation tables (Definition 23.1.5)"
            }
            Drill::Hazard => {
                "the hazard recognizer's trace on the multiplier (Algorithm 23.1.7, the event table of Lesson 23.1 §3)"
            }
            Drill::Automaton => {
                "the pipeline automaton of one resource: every reachable state and its transitions (Algorithm 23.1.7)"
            }
            Drill::Rthroughput => {
                "Block RThroughput of a random loop body, as llvm-mca prints it (Definition 23.1.10)"
            }
        }
    }

    /// The generator parameter file in the course folder, if the drill has
    /// one: blocks for list-schedule, loops for the loop drills.
    pub fn params_file(self) -> Option<&'static str> {
        match self {
            Drill::ListSchedule => Some("drills/list-schedule.yaml"),
            Drill::Mii | Drill::Modulo | Drill::Rthroughput => Some("drills/mii.yaml"),
            Drill::Forbidden | Drill::Hazard | Drill::Automaton => None,
        }
    }

    /// How many hints the drill has.
    pub fn hint_count(self) -> usize {
        match self {
            Drill::ListSchedule => list_schedule::HINTS,
            Drill::Mii => mii::HINTS,
            Drill::Modulo => modulo::HINTS,
            Drill::Forbidden => forbidden::HINTS,
            Drill::Hazard => hazard::HINTS,
            Drill::Automaton => automaton::HINTS,
            Drill::Rthroughput => rthroughput::HINTS,
        }
    }

    /// The name and summary, for the listing.
    pub fn entry(self) -> DrillEntry {
        DrillEntry {
            name: self.name(),
            summary: self.summary(),
        }
    }

    /// The problem for `seed`, with its solution when `solution` is set.
    /// `params` replaces the built-in generator parameters.
    pub fn problem(
        self,
        m: &Machine,
        params: Option<&GenParams>,
        seed: u64,
        solution: bool,
    ) -> Result<Problem, DrillError> {
        let block = || params_or(params, GenParams::block_default);
        let looped = || params_or(params, GenParams::loop_default);
        Ok(match self {
            Drill::ListSchedule => {
                Problem::ListSchedule(list_schedule::problem(m, &block(), seed, solution))
            }
            Drill::Mii => Problem::Mii(mii::problem(m, &looped(), seed, solution)),
            Drill::Modulo => Problem::Modulo(modulo::problem(m, &looped(), seed, solution)),
            Drill::Forbidden => Problem::Forbidden(forbidden::problem(seed, solution)),
            Drill::Hazard => Problem::Hazard(hazard::problem(m, seed, solution)?),
            Drill::Automaton => Problem::Automaton(automaton::problem(seed, solution)),
            Drill::Rthroughput => {
                Problem::Rthroughput(rthroughput::problem(m, &looped(), seed, solution))
            }
        })
    }

    /// Checks `answer` (the text of the student's file, named `file` in
    /// messages) against the problem for `seed`.
    pub fn check(
        self,
        m: &Machine,
        params: Option<&GenParams>,
        seed: u64,
        answer: &str,
        file: &str,
    ) -> Result<Report, DrillError> {
        let block = || params_or(params, GenParams::block_default);
        let looped = || params_or(params, GenParams::loop_default);
        Ok(match self {
            Drill::ListSchedule => {
                Report::ListSchedule(list_schedule::check(m, &block(), seed, answer, file))
            }
            Drill::Mii => Report::Mii(mii::check(m, &looped(), seed, answer, file)),
            Drill::Modulo => Report::Modulo(modulo::check(m, &looped(), seed, answer, file)),
            Drill::Forbidden => Report::Forbidden(forbidden::check(seed, answer, file)),
            Drill::Hazard => Report::Hazard(hazard::check(m, seed, answer, file)?),
            Drill::Automaton => Report::Automaton(automaton::check(seed, answer, file)),
            Drill::Rthroughput => {
                Report::Rthroughput(rthroughput::check(m, &looped(), seed, answer, file))
            }
        })
    }
}

/// `given`, or the built-in parameters that `default` reads.
fn params_or(given: Option<&GenParams>, default: fn() -> GenParams) -> Cow<'_, GenParams> {
    given.map_or_else(|| Cow::Owned(default()), Cow::Borrowed)
}

/// The listing of `course drill list`.
pub fn list() -> Vec<DrillEntry> {
    Drill::ALL.iter().map(|d| d.entry()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_json_names_and_tell_drills_apart() {
        for (i, d) in Drill::ALL.into_iter().enumerate() {
            assert_eq!(d as usize, i);
            assert_eq!(
                serde_json::to_value(d).unwrap(),
                serde_json::Value::from(d.name())
            );
            let named = |e: &Drill| e.name() == d.name();
            assert_eq!(Drill::ALL.iter().filter(|e| named(e)).count(), 1);
        }
    }

    #[test]
    fn every_solution_checks_as_correct() {
        let m = Machine::toy();
        for d in Drill::ALL {
            for seed in 0..40 {
                let p = d.problem(&m, None, seed, true).unwrap();
                let answer = p.answer().unwrap();
                let r = d.check(&m, None, seed, &answer, "a.txt").unwrap();
                assert!(r.correct(), "{} seed {seed}:\n{answer}", d.name());
                assert!(r.mistakes().is_empty());
            }
        }
    }
}
