//! The kernels of `tests/data/mca-corpus/`: one folder per processor model,
//! each kernel in the lab format (`NAME.txt`) and as assembly (`NAME.s`),
//! beside a lab machine with LLVM 14's numbers for that model.

use std::path::{Path, PathBuf};

use course_engine::Machine;

/// The model folders of the corpus.
pub const MODELS: [&str; 3] = ["skylake-llvm14", "apple-m1", "cortex-a57"];

/// The corpus folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mca-corpus")
}

/// The lab machine of a model folder.
pub fn machine(model: &str) -> Machine {
    let file = match model {
        "apple-m1" => "apple-m1-llvm14.yaml".to_string(),
        m => format!("{m}.yaml"),
    };
    let path = root().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    Machine::from_yaml(&text, model).unwrap()
}

/// The lab-format kernels of a model folder, sorted.
pub fn lab_files(model: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(model))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

/// A note written past the test harness's capture, so a passing run shows it.
pub fn note(msg: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{msg}");
}
