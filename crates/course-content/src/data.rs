//! Course data embedded at compile time, so an installed `course` works from
//! any folder. `--course-dir DIR` reads the same files from a folder instead.

use std::path::{Path, PathBuf};

pub const LIST_SCHEDULE_YAML: &str = include_str!("../../../drills/list-schedule.yaml");
pub const MII_YAML: &str = include_str!("../../../drills/mii.yaml");
pub const RUNNING_TXT: &str = include_str!("../../../labs/ch23-sched/inputs/running.txt");
/// The chapter 23 quiz bank (`course quiz 23`).
pub const QUIZ_CH23_YAML: &str = include_str!("../../../quizzes/ch23.yaml");
/// The chapter 23 flashcard deck (`course flash 23`).
pub const FLASH_CH23_YAML: &str = include_str!("../../../quizzes/ch23-flash.yaml");

/// Where course data comes from.
#[derive(Clone, Debug, Default)]
pub enum Source {
    /// The files built into the binary.
    #[default]
    Embedded,
    /// A course folder laid out like the repository.
    Dir(PathBuf),
}

/// The embedded copy of a course file, by its path in the repository.
pub fn embedded(path: &str) -> Option<&'static str> {
    Some(match path {
        "drills/list-schedule.yaml" => LIST_SCHEDULE_YAML,
        "drills/mii.yaml" => MII_YAML,
        "labs/ch23-sched/inputs/running.txt" => RUNNING_TXT,
        "labs/ch23-sched/machines/toy.yaml" => course_engine::model::machine::TOY_YAML,
        _ => return EMBEDDED_EXTRA.iter().find(|(p, _)| *p == path).map(|e| e.1),
    })
}

/// Further embedded files (quizzes, lab inputs, machines), by path.
pub static EMBEDDED_EXTRA: &[(&str, &str)] = &[
    ("quizzes/ch23.yaml", QUIZ_CH23_YAML),
    ("quizzes/ch23-flash.yaml", FLASH_CH23_YAML),
    (
        "labs/ch23-sched/lab.yaml",
        include_str!("../../../labs/ch23-sched/lab.yaml"),
    ),
    (
        "labs/ch23-sched/inputs/divide.txt",
        include_str!("../../../labs/ch23-sched/inputs/divide.txt"),
    ),
    (
        "labs/ch23-sched/inputs/alias.txt",
        include_str!("../../../labs/ch23-sched/inputs/alias.txt"),
    ),
    (
        "labs/ch23-sched/inputs/wide.txt",
        include_str!("../../../labs/ch23-sched/inputs/wide.txt"),
    ),
    (
        "labs/ch23-sched/inputs/dot.txt",
        include_str!("../../../labs/ch23-sched/inputs/dot.txt"),
    ),
    (
        "labs/ch23-sched/inputs/stream.txt",
        include_str!("../../../labs/ch23-sched/inputs/stream.txt"),
    ),
    (
        "labs/ch23-sched/inputs/fib.txt",
        include_str!("../../../labs/ch23-sched/inputs/fib.txt"),
    ),
    (
        "labs/ch23-sched/inputs/chase.txt",
        include_str!("../../../labs/ch23-sched/inputs/chase.txt"),
    ),
    (
        "labs/ch23-sched/machines/skylake-div.yaml",
        include_str!("../../../labs/ch23-sched/machines/skylake-div.yaml"),
    ),
    (
        "labs/ch23-sched/machines/dot-fma.yaml",
        include_str!("../../../labs/ch23-sched/machines/dot-fma.yaml"),
    ),
    (
        "labs/ch23-sched/machines/neoverse-v2.yaml",
        include_str!("../../../labs/ch23-sched/machines/neoverse-v2.yaml"),
    ),
    (
        "labs/ch23-sched/machines/apple-m1.yaml",
        include_str!("../../../labs/ch23-sched/machines/apple-m1.yaml"),
    ),
    (
        "labs/ch23-sched/inputs/mca/dot-a64.txt",
        include_str!("../../../labs/ch23-sched/inputs/mca/dot-a64.txt"),
    ),
    (
        "labs/ch23-sched/machines/znver4.yaml",
        include_str!("../../../labs/ch23-sched/machines/znver4.yaml"),
    ),
    (
        "labs/ch23-sched/machines/skylake-llvm14.yaml",
        include_str!("../../../labs/ch23-sched/machines/skylake-llvm14.yaml"),
    ),
    (
        "labs/ch23-sched/machines/skylake.yaml",
        include_str!("../../../labs/ch23-sched/machines/skylake.yaml"),
    ),
    (
        "labs/ch23-sched/machines/cortex-a57.yaml",
        include_str!("../../../labs/ch23-sched/machines/cortex-a57.yaml"),
    ),
    (
        "labs/ch23-sched/inputs/mca/div.txt",
        include_str!("../../../labs/ch23-sched/inputs/mca/div.txt"),
    ),
    (
        "labs/ch23-sched/inputs/mca/model.txt",
        include_str!("../../../labs/ch23-sched/inputs/mca/model.txt"),
    ),
    (
        "labs/ch23-sched/inputs/mca/dot-x86.txt",
        include_str!("../../../labs/ch23-sched/inputs/mca/dot-x86.txt"),
    ),
    (
        "labs/ch23-sched/inputs/mca/div.s",
        include_str!("../../../labs/ch23-sched/inputs/mca/div.s"),
    ),
    (
        "labs/ch23-sched/inputs/mca/model.s",
        include_str!("../../../labs/ch23-sched/inputs/mca/model.s"),
    ),
    (
        "labs/ch23-sched/inputs/mca/dot-x86.s",
        include_str!("../../../labs/ch23-sched/inputs/mca/dot-x86.s"),
    ),
    (
        "labs/ch23-sched/inputs/mca/dot-a64.s",
        include_str!("../../../labs/ch23-sched/inputs/mca/dot-a64.s"),
    ),
];

impl Source {
    /// Reads a course file (`drills/mii.yaml`, …).
    pub fn read(&self, path: &str) -> Result<String, String> {
        match self {
            Source::Embedded => embedded(path)
                .map(str::to_string)
                .ok_or_else(|| format!("{path}: not a built-in course file")),
            Source::Dir(dir) => {
                let full: PathBuf = Path::new(dir).join(path);
                std::fs::read_to_string(&full).map_err(|e| format!("{}: {e}", full.display()))
            }
        }
    }
}

/// Where the built-in machine files live in the course data.
const MACHINES_DIR: &str = "labs/ch23-sched/machines/";

/// A built-in machine file by name (`toy`, …).
pub fn builtin_machine(name: &str) -> Option<&'static str> {
    embedded(&format!("{MACHINES_DIR}{name}.yaml"))
}

/// The names of the built-in machines: `toy` first, then the others in the
/// order they are embedded.
pub fn builtin_machine_names() -> Vec<&'static str> {
    let others = EMBEDDED_EXTRA.iter().filter_map(|(path, _)| {
        path.strip_prefix(MACHINES_DIR)?
            .strip_suffix(".yaml")
            .filter(|n| *n != "toy")
    });
    std::iter::once("toy").chain(others).collect()
}
