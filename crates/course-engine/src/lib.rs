//! The instruction-scheduling engine of Lesson 23.1: machine models,
//! reservation tables, hazard automata, list and modulo schedulers, MII
//! bounds and an llvm-mca-style cycle simulator, on exact integers and
//! fractions.
//!
//! The crate computes and nothing else: it reads text it is given, never a
//! file, a terminal or the command line, so the same code runs in a grader,
//! a CLI and a web page (`wasm32-unknown-unknown`).
//!
//! # A first schedule
//!
//! A [`Machine`] comes from YAML (or the built-in toy processor of the
//! lesson); a [`Program`], a block or a loop, comes from lab text through
//! [`parse`] and carries its dependence graph. Every algorithm is a
//! function of the two:
//!
//! ```
//! use course_engine::{Machine, list_schedule, parse, reference};
//!
//! // The toy processor: 2-wide issue, two ALUs, a memory unit, a multiplier.
//! let m = Machine::toy();
//! let block = "block tiny\na: r1 = load [x]\nb: r2 = mul r1, r1\nc: r3 = add r2, 1\n";
//! let p = parse(block, "tiny.txt", &m).expect("valid lab text");
//!
//! // Top-down list scheduling over the global reservation table (Algorithm 23.1.4).
//! let s = list_schedule(&p, &m);
//! assert_eq!(s.cycles, [0, 3, 6]); // load and mul latencies are 3
//! // The reference: the list schedule, and the optimum an exact search proves.
//! assert_eq!(reference(&p, &m).optimum.map(|o| (o.length, o.proven())), Some((7, true)));
//! ```
//!
//! The grader's side and the bounds of a loop (Theorem 23.1.12) take the
//! same two values:
//!
//! ```
//! use course_engine::engine::{check, mii};
//! use course_engine::{Machine, formats::submission, parse};
//!
//! let m = Machine::toy();
//! let p = parse("block t\na: r1 = load [x]\nb: r2 = add r1, 1\n", "t.txt", &m).unwrap();
//! let sub = submission::parse("a 0\nb 3\n", "t.sched");
//! assert!(check::check(&p, &m, &sub).violations.is_empty());
//!
//! let lp = "loop acc\na: r1 = load [x]\nb: r2 = add r2, r1\n";
//! let b = mii::analyze(&parse(lp, "acc.txt", &m).unwrap(), &m);
//! assert_eq!((b.res_mii, b.rec_mii, b.mii), (1, 1, 1));
//! ```
//!
//! # The modules, lowest first
//!
//! | module | what it holds |
//! |---|---|
//! | [`util`] | exact fractions, the seeded random stream ([`util::rng::Rng`], ChaCha8), the column layout of its tables, compact names, stable orders |
//! | [`formats`] | diagnostics with file, line and column; YAML with positions; the answer reader; the submission format |
//! | [`model`] | ids, machines (Definition 23.1.1), programs with their dependence graphs, assembly read ([`model::asm`]) and resolved against LLVM's scheduling models ([`model::mc`]) |
//! | [`engine`] | reservation tables, hazard recognizers, schedulers, bounds, hard checks, the simulator |
//!
//! # Features
//!
//! * `serde` (on by default): `serde::Serialize` for the results a caller
//!   prints as JSON (schedules, bounds, checks, simulation reports,
//!   diagnostics). Without it the crate still reads machine files, which
//!   are YAML read through serde.
//!
//! Invariants the engine keeps:
//!
//! * A machine is validated once, in
//!   [`Machine::from_yaml`](model::machine::Machine::from_yaml); every later
//!   function trusts it. Bad input is a [`formats::diagnostic::Diagnostic`]
//!   naming file, line and column, never a panic.
//! * Randomness comes only from [`util::rng::Rng`]: the same seed gives the
//!   same bytes on every platform.
//! * Work is bounded: parsers cap sizes, exact searches take a budget of
//!   solver conflicts, and everything else costs time polynomial in the
//!   input (circuit enumeration only in the brute-force cross-check).
//!
//! # Lesson 23.1, item by item
//!
//! | lesson | implemented by |
//! |---|---|
//! | Definition 23.1.1 (machine model) | [`model::machine::Machine`], [`model::machine::Class`], [`model::machine::Resource`], the `issue` pseudo-resource [`model::machine::ISSUE`] |
//! | Definition 23.1.2 (reservation table, occupancy, usage) | [`model::machine::Class::offsets`] (`K_r(o)`), [`model::machine::Class::usage`], [`engine::mii::usage`] (`U_r`) |
//! | Definition 23.1.3 (resource-feasible placement) | [`engine::check::resource_violations`], [`engine::rtable::GlobalTable::fits_why`] |
//! | Algorithm 23.1.4 (global reservation table) | [`engine::rtable::GlobalTable`] (`fits`/`place`, plain or modulo), [`engine::rtable::ModuloTable`], [`engine::rtable::WindowTable`] |
//! | Definition 23.1.5 and Lemma 23.1.6 (forbidden latencies, collision vector) | [`engine::hazard::forbidden_latencies`], [`engine::hazard::forbidden_matrix`], [`engine::hazard::collision_vector`] |
//! | Algorithm 23.1.7 (hazard recognizer as an automaton) | [`engine::hazard::Recognizer`], [`engine::hazard::Automaton`], [`engine::hazard::trace`] |
//! | Definition 23.1.8 (LLVM per-operand model) | [`model::mc::Desc`] (a built-in model's descriptor), [`model::machine::Machine::micro_op_buffer_size`], [`model::machine::Class::uops`], [`model::machine::Class::advance`], [`model::machine::Resource::members`], [`model::machine::Machine::memory_form`] |
//! | Proposition 23.1.9 (operand latency) | register edges of [`model::program::parse`]: `max(0, lat − ReadAdvance)` |
//! | Definition 23.1.10 (throughput of a loop body) | [`engine::mii::Bounds::rthroughput`], [`engine::mca::Report::block_rthroughput`] |
//! | Algorithm 23.1.11 (llvm-mca's simulated cycle) | [`engine::mca::simulate`] (lab machines), [`engine::mca::pipeline::simulate`] (llvm-mca's pipeline on a built-in model) |
//! | Theorem 23.1.12 (lower bounds per iteration) | [`engine::mii::Bounds::bound`] from [`engine::mii::analyze`] |
//! | Lemma 23.1.13 (Algorithm 23.1.4 is correct) | [`engine::rtable::GlobalTable`] |
//! | Proposition 23.1.14 (the automaton recognizes feasible sequences) | [`engine::hazard::Automaton`] |
//! | Lesson 23.1 §3 (worked example) | [`engine::reference::reference`], [`engine::hazard::trace`] |
//! | Lesson 23.1 §5 (pathological family) | [`engine::hazard::pathological_machine`] |
//! | Lesson 23.1 §4 and §6 (reverse automata for bottom-up schedulers) | [`model::machine::Machine::mirrored`] |
//!
//! List scheduling ([`engine::list`], with the block's optimum of
//! [`engine::optimum`]), modulo scheduling ([`engine::modulo`], with the
//! exact search of [`engine::modulo::exact`], both on [`engine::timesat`]) and the
//! bounds ResMII, RecMII and MII ([`engine::mii`]) follow the chapter's
//! later lessons, on the same tables.

#![warn(missing_docs)]

pub mod engine;
pub mod formats;
pub mod model;
pub mod util;

// The types and entry points a user starts from.
pub use engine::list::{BlockSchedule, list_schedule};
pub use engine::modulo::{ModuloSchedule, modulo_schedule};
pub use engine::reference::{Schedule, reference};
pub use formats::diagnostic::{Diagnostic, Diagnostics};
pub use model::ids::{ClassId, Cycle, OpId, ResourceId};
pub use model::machine::Machine;
pub use model::program::{Kind, Program, parse};
