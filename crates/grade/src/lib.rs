//! Grades student Prolog submissions of "Project 1: Cribbage" against crib-core, safely:
//! each submission runs only in sandboxed `swipl` children, and the grader judges every
//! answer. The crate's README holds its contracts and codemap.
//!
//! # Example
//! ```no_run
//! use crib_grade::{discover, Grader, IsolationChoice, Limits};
//! let tests = crib_grade::Tests::Drawn(crib_grade::Seed::fresh()?);
//! let grader = Grader::new("swipl".as_ref(), IsolationChoice::Auto, Limits::default(), &tests)?;
//! for submission in discover(&["submissions/".into()], false)? {
//!     let report = grader.grade(&submission, 0);
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

/// One submission's result and its parts, from crib-results (re-exported for the grader's
/// callers).
pub use crib_results::{
    escape_name, escape_path, gradescope, gradescope_with, hand_value_credit, percent,
    shown_problems, thousands, Area, AreaCount, Counterexample, DeepHandValue, DeepReport,
    DeepSelectHand, Diagnosis, DiagnosisFinding, Diagnostic, ErrorShape, FailureKind,
    HandValueCheck, KeepDiagnosis, KeepExample, KeepMistake, KeepValue, KeepVerdict, KindCount,
    Literal, Load, Marks, Predicate, Probes, Producer, RuleFinding, RuleMistake, RuleVerdict,
    SelectCredit, SelectExample, Skipped, SubmissionResult, TestResult, TestSource, TestVisibility,
    Verdict, VisibilityPolicy, CODE_QUALITY_MARKS, HAND_VALUE_MARKS, SELECT_HAND_MARKS,
};
/// The sandbox children run in, from crib-sandbox (re-exported for the grader's callers).
pub use crib_sandbox::{
    confine_main, memory_limit, memory_limit_in, shutdown, Isolation, IsolationChoice, Layer,
    MemoryFit, CONFINE_ARG, MAX_WORKERS, MIN_CHILD_MEMORY, SANDBOX_UIDS, TMPFS_BYTES, UID_BLOCK,
    WORK_PREFIX,
};
/// The submissions found on disk and staged, from crib-submission (re-exported for the
/// grader's callers).
pub use crib_submission::{
    discover, survey, Discovery, Staged, Submission, SurveyError, MAX_BYTES, MAX_ENTRIES,
};
/// The test set a grader asks and the seed it is drawn from, from crib-testset (re-exported
/// for the grader's callers).
pub use crib_testset::{Seed, SeedError, TestCase, TestSet, Tests, SEED_BYTES};
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
pub(crate) fn test_set() -> &'static TestSet {
    static SET: std::sync::OnceLock<TestSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| TestSet::new(&Seed::from_bytes([0x5e; 32])))
}
