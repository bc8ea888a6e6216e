//! `course`: the engine behind the Chapter 23 (instruction scheduling) drills,
//! quizzes, lab grader and analyses.
//!
//! The workspace is a stack of crates; each uses only the crates below it,
//! and cargo holds the rule (`crates/`):
//!
//! | crate | what it holds | here as |
//! |---|---|---|
//! | `course-engine` | exact fractions, the seeded stream, formats, machines (Definition 23.1.1), programs, and the engine: reservation tables, hazard automata, schedulers, bounds, checks, the simulator | [`util`], [`formats`], [`model`], [`engine`] |
//! | `course-content` | embedded course data, generators, drills, the quiz, flashcards, lab grading | [`content`] |
//! | `course-host` | the file system and processes: class folders, state files, the sandbox; rosters and gradebook CSV, the Gradescope bundle's zip | [`host`] |
//! | `course` (this crate) | one entry point per command returning a typed result ([`api`]), the renderings of those results ([`view`]), the command line | |
//! | `course-bench` | the scale benchmarks and their counting allocator (the `course-bench` binary) | |
//!
//! The library does no terminal I/O: the `course` binary parses arguments,
//! makes one [`api`] call, renders the result with [`view`] and prints it.
//! The lower crates are re-exported under their layer names, so
//! `course::model::machine::Machine` is `course_engine::model::machine::Machine`.
//!
//! # How data flows
//!
//! ```text
//! machine YAML ── Machine::from_yaml ──▶ Machine ─┐
//! lab text ────── program::parse ──────▶ Program ─┼─▶ engine ─▶ typed result ─▶ view ─▶ CLI / web
//! seed ─▶ Rng ─▶ gen ─▶ lab text ─▶ parse ────────┘   (schedules, bounds,       (text, JSON,
//!                                                      checks, simulation)       CSV, DOT)
//! ```
//!
//! * A machine file becomes a [`model::machine::Machine`] through
//!   [`model::machine::Machine::from_yaml`], validated once; the engine then
//!   trusts it.
//! * Lab text becomes a [`model::program::Program`] (operations and the
//!   dependence graph) through [`model::program::parse`].
//! * A seed starts a [`util::rng::Rng`], the only source of randomness;
//!   [`content::generate`] turns it into lab text, which is parsed like any input.
//!   Drills, quiz questions and benchmarks are all built this way.
//! * The [`engine`] computes schedules, bounds, checks and simulations; an
//!   [`api`] entry point wraps them into a typed result, which [`view`]
//!   renders as text/CSV/DOT or serde prints as JSON. The CLI (and the web
//!   page of product.md, which calls the same [`api`]) only prints.
//!
//! # Lesson 23.1, item by item
//!
//! | lesson | implemented by | checked by |
//! |---|---|---|
//! | Definition 23.1.1 (machine model) | [`model::machine::Machine`], [`model::machine::Class`], [`model::machine::Resource`], the `issue` pseudo-resource [`model::machine::ISSUE`] | unit tests in `model/machine/` |
//! | Definition 23.1.2 (reservation table, occupancy, usage) | [`model::machine::Class::offsets`] (`K_r(o)`), [`model::machine::Class::usage`], [`engine::mii::usage`] (`U_r`); `occ ≤ lat` in [`model::machine::Machine::from_file`] | `tests/data/bad/occupancy.yaml` |
//! | Definition 23.1.3 (resource-feasible placement) | [`engine::check::resource_violations`], [`engine::rtable::GlobalTable::fits_why`] | `tests/it/grade_properties.rs`, `tests/it/table_corpus.rs` |
//! | Algorithm 23.1.4 (global reservation table) | [`engine::rtable::GlobalTable`] (`fits`/`place`, plain or modulo), [`engine::rtable::ModuloTable`] (dense modulo rows for the modulo scheduler), [`engine::rtable::WindowTable`] (its ring form for list scheduling) | `tests/it/table_corpus.rs` |
//! | Definition 23.1.5 (forbidden latencies, collision vector) | [`engine::hazard::forbidden_latencies`], [`engine::hazard::forbidden_matrix`], [`engine::hazard::collision_vector`]; drill [`content::drill::forbidden`] | `tests/it/worked_example.rs` |
//! | Lemma 23.1.6 (forbidden latencies) | [`engine::hazard::forbidden_latencies`] | `tests/it/quiz_generators.rs`, `tests/it/worked_example.rs` |
//! | Algorithm 23.1.7 (hazard recognizer as an automaton) | [`engine::hazard::Recognizer`], [`engine::hazard::Automaton`], [`engine::hazard::trace`]; drills [`content::drill::hazard`], [`content::drill::automaton`] | `tests/it/hazard_corpus.rs` |
//! | Definition 23.1.8 (LLVM per-operand model) | [`model::machine::Machine::micro_op_buffer_size`], [`model::machine::Class::uops`], [`model::machine::Class::advance`], [`model::machine::Resource::members`] (groups), [`model::machine::Machine::memory_form`] (folded loads); the models in `labs/ch23-sched/machines/`; a built-in model's descriptors [`model::mc::Desc`], generated from LLVM | `tests/it/mca.rs`, `tests/it/mca_corpus.rs`, `tests/it/mca_real.rs` |
//! | Proposition 23.1.9 (operand latency) | register edges of [`model::program::parse`]: `max(0, lat − ReadAdvance)` | `tests/it/quiz_generators.rs` |
//! | Definition 23.1.10 (throughput of a loop body) | [`engine::mii::Bounds::rthroughput`], [`engine::mca::Report::block_rthroughput`]; drill [`content::drill::rthroughput`] | `tests/it/quiz_generators.rs`, `tests/it/mca_props.rs` |
//! | Algorithm 23.1.11 (llvm-mca's simulated cycle) | [`engine::mca::simulate`] (lab machines), [`engine::mca::pipeline::simulate`] (llvm-mca's pipeline on a built-in model, [`api::mca::llvm::run`]) | `tests/it/mca.rs`, `tests/it/mca_props.rs`, `tests/it/mca_real.rs`, `tests/it/mca_lesson.rs` |
//! | Theorem 23.1.12 (lower bounds per iteration) | [`engine::mii::Bounds::bound`] from [`engine::mii::analyze`] | `tests/it/mca_props.rs` |
//! | Lemma 23.1.13 (Algorithm 23.1.4 is correct) | [`engine::rtable::GlobalTable`] | `tests/it/table_corpus.rs` (against a brute-force count) |
//! | Proposition 23.1.14 (the automaton recognizes feasible sequences) | [`engine::hazard::Automaton`] | `tests/it/hazard_corpus.rs`, `tests/it/table_corpus.rs` |
//! | Lesson 23.1 §3 (worked example) | [`engine::reference::reference`] on `labs/ch23-sched/inputs/running.txt`, [`view::report::reservation_table`], the event table of [`engine::hazard::trace`] | `tests/it/worked_example.rs` |
//! | Lesson 23.1 §5 (pathological family) | [`engine::hazard::pathological_machine`], the machine name `pathological:D` ([`content::family`]) | `tests/it/hazard_corpus.rs`, `tests/it/worked_example.rs`, `tests/it/practice.rs` |
//! | Lesson 23.1 §4 and §6 (reverse automata for bottom-up schedulers) | [`model::machine::Machine::mirrored`], `course machine --reverse` | `tests/it/practice.rs` (against Algorithm 23.1.4 run backwards) |

pub mod api;
pub mod view;

pub use course_content as content;
pub use course_engine::{engine, formats, model, util};
pub use course_host as host;
