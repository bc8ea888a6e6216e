//! `course`: the engine behind the Chapter 23 (instruction scheduling) drills,
//! quizzes, lab grader and analyses.
//!
//! The workspace is a stack of crates; each uses only the crates below it,
//! and cargo holds the rule (`crates/`):
//!
//! | crate | what it holds | modules |
//! |---|---|---|
//! | `course-engine` | exact fractions, the seeded stream, formats, machines (Definition 23.1.1), programs, and the engine: reservation tables, hazard automata, schedulers, bounds, checks, the simulator | [`course_engine::util`], [`course_engine::formats`], [`course_engine::model`], [`course_engine::engine`] |
//! | `course-content` | embedded course data, generators, drills, the quiz, flashcards, lab grading | [`course_content`] |
//! | `course-host` | the file system and processes: class folders, state files, the sandbox; rosters and gradebook CSV, the Gradescope bundle's zip | [`course_host`] |
//! | `course` (this crate) | one entry point per command returning a typed result ([`api`]), the renderings of those results ([`view`]), the command line | |
//! | `course-bench` | the scale benchmarks and their counting allocator (the `course-bench` binary) | |
//!
//! The library does no terminal I/O: the `course` binary parses arguments,
//! makes one [`api`] call, renders the result with [`view`] and prints it.
//! The lower crates are used under their own names (`course_engine::…`,
//! `course_content::…`, `course_host::…`); this crate adds [`api`] and
//! [`view`] on top of them.
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
//! * A machine file becomes a [`course_engine::model::machine::Machine`] through
//!   [`course_engine::model::machine::Machine::from_yaml`], validated once; the engine then
//!   trusts it.
//! * Lab text becomes a [`course_engine::model::program::Program`] (operations and the
//!   dependence graph) through [`course_engine::model::program::parse`].
//! * A seed starts a [`course_engine::util::rng::Rng`], the only source of randomness;
//!   [`course_content::generate`] turns it into lab text, which is parsed like any input.
//!   Drills, quiz questions and benchmarks are all built this way.
//! * The [`course_engine::engine`] computes schedules, bounds, checks and simulations; an
//!   [`api`] entry point wraps them into a typed result, which [`view`]
//!   renders as text/CSV/DOT or serde prints as JSON. The CLI (and the web
//!   page of product.md, which calls the same [`api`]) only prints.
//!
//! # Lesson 23.1, item by item
//!
//! | lesson | implemented by | checked by |
//! |---|---|---|
//! | Definition 23.1.1 (machine model) | [`course_engine::model::machine::Machine`], [`course_engine::model::machine::Class`], [`course_engine::model::machine::Resource`], the `issue` pseudo-resource [`course_engine::model::machine::ISSUE`] | unit tests in `model/machine/` |
//! | Definition 23.1.2 (reservation table, occupancy, usage) | [`course_engine::model::machine::Class::offsets`] (`K_r(o)`), [`course_engine::model::machine::Class::usage`], [`course_engine::engine::mii::usage`] (`U_r`); `occ ≤ lat` in [`course_engine::model::machine::Machine::from_file`] | `tests/data/bad/occupancy.yaml` |
//! | Definition 23.1.3 (resource-feasible placement) | [`course_engine::engine::check::resource_violations`], [`course_engine::engine::rtable::GlobalTable::fits_why`] | `tests/it/grade_properties.rs`, `crates/course-engine/tests/corpus/table.rs` |
//! | Algorithm 23.1.4 (global reservation table) | [`course_engine::engine::rtable::GlobalTable`] (`fits`/`place`, plain or modulo), [`course_engine::engine::rtable::ModuloTable`] (dense modulo rows for the modulo scheduler), [`course_engine::engine::rtable::WindowTable`] (its ring form for list scheduling) | `crates/course-engine/tests/corpus/table.rs` |
//! | Definition 23.1.5 (forbidden latencies, collision vector) | [`course_engine::engine::hazard::forbidden_latencies`], [`course_engine::engine::hazard::forbidden_matrix`], [`course_engine::engine::hazard::collision_vector`]; drill [`course_content::drill::forbidden`] | `tests/it/worked_example.rs` |
//! | Lemma 23.1.6 (forbidden latencies) | [`course_engine::engine::hazard::forbidden_latencies`] | `tests/it/quiz_generators.rs`, `tests/it/worked_example.rs` |
//! | Algorithm 23.1.7 (hazard recognizer as an automaton) | [`course_engine::engine::hazard::Recognizer`], [`course_engine::engine::hazard::Automaton`], [`course_engine::engine::hazard::trace`]; drills [`course_content::drill::hazard`], [`course_content::drill::automaton`] | `crates/course-engine/tests/corpus/hazard.rs` |
//! | Definition 23.1.8 (LLVM per-operand model) | [`course_engine::model::machine::Machine::micro_op_buffer_size`], [`course_engine::model::machine::Class::uops`], [`course_engine::model::machine::Class::advance`], [`course_engine::model::machine::Resource::members`] (groups), [`course_engine::model::machine::Machine::memory_form`] (folded loads); the models in `labs/ch23-sched/machines/`; a built-in model's descriptors [`course_engine::model::mc::Desc`], generated from LLVM | `tests/it/mca.rs`, `tests/it/mca_corpus.rs`, `tests/it/mca_real.rs` |
//! | Proposition 23.1.9 (operand latency) | register edges of [`course_engine::model::program::parse`]: `max(0, lat − ReadAdvance)` | `tests/it/quiz_generators.rs` |
//! | Definition 23.1.10 (throughput of a loop body) | [`course_engine::engine::mii::Bounds::rthroughput`], [`course_engine::engine::mca::Report::block_rthroughput`]; drill [`course_content::drill::rthroughput`] | `tests/it/quiz_generators.rs`, `tests/it/mca_props.rs` |
//! | Algorithm 23.1.11 (llvm-mca's simulated cycle) | [`course_engine::engine::mca::simulate`] (lab machines), [`course_engine::engine::mca::pipeline::simulate`] (llvm-mca's pipeline on a built-in model, [`api::mca::llvm::run`]) | `tests/it/mca.rs`, `tests/it/mca_props.rs`, `tests/it/mca_real.rs`, `tests/it/mca_lesson.rs` |
//! | Theorem 23.1.12 (lower bounds per iteration) | [`course_engine::engine::mii::Bounds::bound`] from [`course_engine::engine::mii::analyze`] | `tests/it/mca_props.rs` |
//! | Lemma 23.1.13 (Algorithm 23.1.4 is correct) | [`course_engine::engine::rtable::GlobalTable`] | `crates/course-engine/tests/corpus/table.rs` (against a brute-force count) |
//! | Proposition 23.1.14 (the automaton recognizes feasible sequences) | [`course_engine::engine::hazard::Automaton`] | `crates/course-engine/tests/corpus/hazard.rs`, `crates/course-engine/tests/corpus/table.rs` |
//! | Lesson 23.1 §3 (worked example) | [`course_engine::engine::reference::reference`] on `labs/ch23-sched/inputs/running.txt`, [`view::report::reservation_table`], the event table of [`course_engine::engine::hazard::trace`] | `tests/it/worked_example.rs` |
//! | Lesson 23.1 §5 (pathological family) | [`course_engine::engine::hazard::pathological_machine`], the machine name `pathological:D` ([`course_content::family`]) | `crates/course-engine/tests/corpus/hazard.rs`, `tests/it/worked_example.rs`, `tests/it/practice.rs` |
//! | Lesson 23.1 §4 and §6 (reverse automata for bottom-up schedulers) | [`course_engine::model::machine::Machine::mirrored`], `course machine --reverse` | `tests/it/practice.rs` (against Algorithm 23.1.4 run backwards) |

pub mod api;
pub mod view;
