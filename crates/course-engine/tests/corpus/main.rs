//! The engine's corpora, linked as one test executable
//! (`cargo test -p course-engine`): every reservation table and hazard
//! recognizer against a brute-force count on seeded event streams
//! (`table`, `hazard`), and the simulator of Algorithm 23.1.11 on the
//! kernels of `tests/data/mca-corpus/` (`mca_extrapolate`, `mca_bottleneck`).
//! The same kernels are compared with llvm-mca-14 by the root crate's
//! `tests/it/mca_corpus.rs`, through the `course mca` command.

// Test tables read best whole; the 100-line limit is for the sources.
#![allow(clippy::too_many_lines)]

mod hazard;
mod kernels;
mod mca_bottleneck;
mod mca_extrapolate;
mod table;
