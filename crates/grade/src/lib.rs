//! Grades student Prolog submissions of "Project 1: Cribbage" against crib-core, safely.
//!
//! Each submission runs in `swipl` child processes, never in the grader's process: a child
//! (prolog/answer_child.pl, built into crib-child) loads the submission in a sandbox
//! ([`crib_isolation::Isolation`]), answers the [`crib_testset::TestSet`] drawn from the run's
//! secret [`crib_testset::Seed`] over a pipe of its own, and the grader judges every answer
//! against crib-core ([`crib_results::Verdict`]), so expected answers never enter the child. hand_value/3 is asked on every one of the 23,647 rank patterns, once
//! from ordinary suits and for about a third once more from flush or nob suits: about 27,900
//! items in batches ([`crib_results::HandValueCheck`]); select_hand/3 on 48 deals. A test that
//! crashes, halts, times out or exhausts memory costs only itself: the rest run in a fresh
//! child. [`crib_results::Marks`]: hand_value
//! `(1 − √share of pairs wrong) × 50`, select_hand mean credit x 20, code quality (30) left
//! to the markers. A [`Session`] grades many submissions on a pool of workers, saving each
//! result as it is done.
//!
//! # Example
//! ```no_run
//! use crib_grade::{Grader, Limits};
//! use crib_isolation::IsolationChoice;
//! use crib_submission::discover;
//! use crib_testset::{Seed, Tests};
//! let tests = Tests::Drawn(Seed::fresh()?);
//! let grader = Grader::new("swipl".as_ref(), IsolationChoice::Auto, Limits::default(), &tests)?;
//! for submission in discover(&["submissions/".into()], false)? {
//!     let report = grader.grade(&submission, crib_sandbox::Worker::FIRST);
//!     println!("{}: {}/70", report.name, report.marks.total);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod batch;
mod child;
mod deep;
mod error;
mod keep_diagnosis;
mod limits;
mod marked_check;
mod pool;
mod protocol;
mod results;
mod runner;
mod session;
mod swipl;
mod table;
mod verdict;

pub use deep::DeepOptions;
pub use error::GradeError;
pub use limits::Limits;
pub use pool::{Panicked, WorkerPool};
pub use runner::{Grader, MAX_DIAGNOSTICS};
pub use session::{
    Graded, SeedChoice, Session, SessionError, SessionProgress, SEEDS_DIR, SEED_FILE,
};
pub use swipl::{swipl_support, SwiplSupport, OLDEST_SWIPL, PROVEN_SWIPL};
pub use table::table;

/// A test set for unit tests (the seed crib-testset's own unit tests use); grading never uses
/// this seed.
#[cfg(test)]
pub(crate) fn test_set() -> &'static crib_testset::TestSet {
    use crib_testset::{Seed, TestSet};
    static SET: std::sync::OnceLock<TestSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| TestSet::new(&Seed::from_bytes([0x5e; 32])))
}
