//! Grades student Prolog submissions of "Project 1: Cribbage" against crib-core, safely:
//! each submission runs only in sandboxed `swipl` children, and the grader judges every
//! answer. The crate's README holds its contracts and codemap.
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
