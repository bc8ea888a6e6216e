//! The processor models of `course mca`, generated from LLVM by
//! `scripts/mca-models/generate.py` and embedded compressed: one form table
//! per architecture, shared by the LLVM releases its processors come from
//! (each reading says which processors have it), and a model per processor
//! (`crates/course-content/mca/`, each file opening with the LLVM releases
//! that made it).
//!
//! | name | architecture | LLVM | `-mcpu` |
//! |---|---|---|---|
//! | `skylake` | x86-64 | 22 | `skylake` |
//! | `znver4` | x86-64 | 22 | `znver4` |
//! | `skylake-llvm14` | x86-64 | 14 | `skylake` |
//! | `neoverse-v2` | AArch64 | 22 | `neoverse-v2` |
//! | `apple-m1` | AArch64 | 22 | `apple-m1` |
//! | `cortex-a57` | AArch64 | 14 | `cortex-a57` |
//!
//! A table is named by its file without `.z` (`x86.forms`,
//! `skylake.model`; [`Builtin::tables`]). Every build embeds them but the
//! web page's: with the feature `lazy-mca` on `wasm32`, none is embedded
//! and a table is there once the page has handed it over ([`register`]);
//! until then [`Builtin::missing_tables`] names it and [`Builtin::load`]
//! says it is not loaded. The feature changes nothing on other targets, so
//! a workspace build that turns it on (`cargo test --workspace`) still
//! embeds the tables in the native `course`.

use std::sync::{Mutex, MutexGuard, PoisonError};

use course_engine::model::asm::Dialect;
use course_engine::model::mc::tables::{Forms, Model};

/// A built-in processor model.
#[derive(Debug)]
pub struct Builtin {
    /// The name `-mcpu` and `--machine` take.
    pub name: &'static str,
    /// The assembly it reads.
    pub dialect: Dialect,
    /// The LLVM release its tables come from.
    pub llvm: u32,
    /// The `-mcpu` of that release.
    pub cpu: &'static str,
    /// Its place among the processors of its form table (the bit of its
    /// readings).
    pub index: usize,
    forms: Table,
    model: Table,
}

/// One compressed table: its name and, when the build embeds it, its bytes.
#[derive(Debug)]
struct Table {
    name: &'static str,
    embedded: Option<&'static [u8]>,
}

/// The table `crates/course-content/mca/NAME.z`.
macro_rules! table {
    ($name:literal) => {
        Table {
            name: $name,
            embedded: embedded!($name),
        }
    };
}

/// Its bytes, embedded.
#[cfg(not(all(feature = "lazy-mca", target_arch = "wasm32")))]
macro_rules! embedded {
    ($name:literal) => {
        Some(include_bytes!(concat!("../mca/", $name, ".z")))
    };
}

/// None: the web page registers it when a run needs it.
#[cfg(all(feature = "lazy-mca", target_arch = "wasm32"))]
macro_rules! embedded {
    ($name:literal) => {
        None
    };
}

/// Every built-in model, in the order `-mcpu=help` lists them.
pub static MODELS: &[Builtin] = &[
    Builtin {
        name: "skylake",
        dialect: Dialect::X86,
        llvm: 22,
        cpu: "skylake",
        index: 0,
        forms: table!("x86.forms"),
        model: table!("skylake.model"),
    },
    Builtin {
        name: "znver4",
        dialect: Dialect::X86,
        llvm: 22,
        cpu: "znver4",
        index: 1,
        forms: table!("x86.forms"),
        model: table!("znver4.model"),
    },
    Builtin {
        name: "skylake-llvm14",
        dialect: Dialect::X86,
        llvm: 14,
        cpu: "skylake",
        index: 2,
        forms: table!("x86.forms"),
        model: table!("skylake-llvm14.model"),
    },
    Builtin {
        name: "neoverse-v2",
        dialect: Dialect::AArch64,
        llvm: 22,
        cpu: "neoverse-v2",
        index: 0,
        forms: table!("aarch64.forms"),
        model: table!("neoverse-v2.model"),
    },
    Builtin {
        name: "apple-m1",
        dialect: Dialect::AArch64,
        llvm: 22,
        cpu: "apple-m1",
        index: 1,
        forms: table!("aarch64.forms"),
        model: table!("apple-m1.model"),
    },
    Builtin {
        name: "cortex-a57",
        dialect: Dialect::AArch64,
        llvm: 14,
        cpu: "cortex-a57",
        index: 2,
        forms: table!("aarch64.forms"),
        model: table!("cortex-a57.model"),
    },
];

/// The built-in model called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    MODELS.iter().find(|m| m.name == name)
}

/// A model's tables, read.
pub struct Loaded {
    /// Its release's form table.
    pub forms: Forms,
    /// The processor's tables.
    pub model: Model,
}

impl Builtin {
    /// The names of its tables: its architecture's form table, then its model
    /// (`["x86.forms", "skylake.model"]`).
    pub fn tables(&self) -> [&'static str; 2] {
        [self.forms.name, self.model.name]
    }

    /// Those of its tables this build has neither embedded nor been handed
    /// ([`register`]); empty but in the web page.
    pub fn missing_tables(&self) -> Vec<&'static str> {
        let registry = registry();
        [&self.forms, &self.model]
            .into_iter()
            .filter(|t| t.embedded.is_none() && !registry.iter().any(|(n, _)| *n == t.name))
            .map(|t| t.name)
            .collect()
    }

    /// Decompresses and reads the tables (a few milliseconds; only `course
    /// mca` on assembly needs them).
    pub fn load(&self) -> Result<Loaded, String> {
        let text = |table: &Table, what: &str| {
            let (name, model) = (table.name, self.name);
            match table.text() {
                Some(text) => {
                    text.map_err(|e| format!("the built-in {what} table `{name}` of {model}: {e}"))
                }
                None => Err(format!(
                    "the built-in {what} table `{name}` of {model} is not loaded (this build \
                     leaves the tables out until they are handed over)"
                )),
            }
        };
        let forms_text = text(&self.forms, "form")?;
        let forms = Forms::parse(&forms_text, self.name, self.llvm).map_err(|e| e.to_string())?;
        let model_text = text(&self.model, "model")?;
        let model = Model::parse(&model_text, self.name, &forms).map_err(|e| e.to_string())?;
        Ok(Loaded { forms, model })
    }
}

impl Table {
    /// Its text: the embedded bytes or the registered ones, decompressed
    /// (`None`: neither is there).
    fn text(&self) -> Option<Result<String, String>> {
        if let Some(bytes) = self.embedded {
            return Some(inflate(bytes));
        }
        let registry = registry();
        let (_, bytes) = registry.iter().find(|(n, _)| *n == self.name)?;
        Some(inflate(bytes))
    }
}

/// The tables handed over at run time ([`register`]), by name.
static REGISTRY: Mutex<Vec<(&'static str, Vec<u8>)>> = Mutex::new(Vec::new());

/// The registry, locked (a panic elsewhere while it was held leaves it as
/// it was: every change is one push or one assignment).
fn registry() -> MutexGuard<'static, Vec<(&'static str, Vec<u8>)>> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Every table's name, once, in the order of [`MODELS`].
pub fn table_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for t in MODELS.iter().flat_map(Builtin::tables) {
        if !names.contains(&t) {
            names.push(t);
        }
    }
    names
}

/// Hands over the table `name` (its `.z` file's bytes), for a build that
/// does not embed it (the web page); a table handed over again replaces
/// the first. An embedded table is read from the build, never from here.
/// The bytes are checked when a model is loaded ([`Builtin::load`]).
pub fn register(name: &str, bytes: &[u8]) -> Result<(), String> {
    let names = table_names();
    let Some(&table) = names.iter().find(|t| **t == name) else {
        return Err(format!(
            "`{name}`: not a table of a built-in processor model (they are {})",
            names.join(", ")
        ));
    };
    let mut registry = registry();
    match registry.iter_mut().find(|(n, _)| *n == table) {
        Some((_, old)) => *old = bytes.to_vec(),
        None => registry.push((table, bytes.to_vec())),
    }
    Ok(())
}

/// The text of a table as the generator compresses it (zlib).
fn inflate(bytes: &[u8]) -> Result<String, String> {
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(bytes, 64 << 20)
        .map_err(|e| format!("does not decompress ({:?})", e.status))?;
    String::from_utf8(raw).map_err(|_| "is not UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_names_two_tables_and_only_those_register() {
        let names = table_names();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n} twice");
        }
        assert!(
            MODELS
                .iter()
                .flat_map(Builtin::tables)
                .all(|t| names.contains(&t))
        );
        assert_eq!(
            find("skylake").unwrap().tables(),
            ["x86.forms", "skylake.model"]
        );
        assert!(find("skylake").unwrap().missing_tables().is_empty());
        let e = register("vax.model", b"").unwrap_err();
        assert!(
            e.starts_with("`vax.model`: not a table of a built-in processor model"),
            "{e}"
        );
    }

    #[test]
    fn a_table_not_embedded_is_read_once_registered_and_a_clear_error_before() {
        // A model as the web page's build has it: its model table not
        // embedded (nothing else registers this one).
        let cortex = Builtin {
            forms: table!("aarch64.forms"),
            model: Table {
                name: "cortex-a57.model",
                embedded: None,
            },
            ..*find("cortex-a57").unwrap()
        };
        assert!(cortex.model.text().is_none());
        assert_eq!(cortex.missing_tables(), ["cortex-a57.model"]);
        let e = cortex.load().err().unwrap();
        assert_eq!(
            e,
            "the built-in model table `cortex-a57.model` of cortex-a57 is not loaded (this \
             build leaves the tables out until they are handed over)"
        );
        register("cortex-a57.model", b"not zlib").unwrap();
        assert!(cortex.missing_tables().is_empty());
        let e = cortex.load().err().unwrap();
        assert!(
            e.contains("`cortex-a57.model` of cortex-a57: does not decompress"),
            "{e}"
        );
        let bytes = include_bytes!("../mca/cortex-a57.model.z");
        register("cortex-a57.model", bytes).unwrap();
        assert_eq!(cortex.model.text().unwrap(), inflate(bytes));
        assert!(cortex.load().is_ok());
    }
}
