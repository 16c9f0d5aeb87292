//! Grades student Prolog submissions of "Project 1: Cribbage" against crib-core, safely.
//!
//! Each submission runs in `swipl` child processes, never in the grader's process: a child
//! (prolog/grade_child.pl, built in) loads the submission in a sandbox ([`Isolation`]),
//! answers the fixed [`test_set`] over a pipe of its own, and the grader judges every answer
//! against crib-core ([`Verdict`]), so expected answers never enter the child. A test that
//! crashes, halts, times out or exhausts memory costs only itself: the remaining tests run
//! in a fresh child. [`Marks`] follow the assignment: hand_value passed/total x 50,
//! select_hand mean quality x 20, code quality (30) left to the markers. A [`Session`] grades
//! many submissions on a pool of workers, saving each result as it is done.
//!
//! # Example
//! ```no_run
//! use crib_grade::{discover, Grader, IsolationChoice, Limits};
//! let grader = Grader::new("swipl".as_ref(), IsolationChoice::Auto, Limits::default())?;
//! for submission in discover(&["submissions/".into()], false)? {
//!     let report = grader.grade(&submission, 0);
//!     println!("{}: {}/70", report.name, report.marks.total);
//! }
//! # Ok::<(), crib_grade::GradeError>(())
//! ```

#![deny(missing_docs)]

mod cgroup;
mod child;
mod credit;
mod deep;
mod hash;
mod protocol;
mod report;
mod runner;
mod sandbox;
mod session;
mod strategy;
mod submission;
mod testset;
mod verdict;
mod workdir;

use std::path::PathBuf;

pub use cgroup::{memory_limit, memory_limit_in, MemoryFit, MIN_CHILD_MEMORY};
pub use credit::SelectCredit;
pub use deep::{
    percent, thousands, Counterexample, DeepHandValue, DeepOptions, DeepReport, DeepSelectHand,
    Diagnosis, ErrorShape, FailureKind, Finding, KindCount, Literal, Probes, SelectExample,
};
pub use report::{
    gradescope, gradescope_with, table, Diagnostic, Load, Marks, Report, TestResult,
    TestVisibility, VisibilityPolicy, CODE_QUALITY_MARKS, HAND_VALUE_MARKS, SELECT_HAND_MARKS,
};
pub use runner::{Grader, Limits, MAX_DIAGNOSTICS};
pub use sandbox::{
    confine_main, Isolation, IsolationChoice, Layer, CONFINE_ARG, SANDBOX_UID, TMPFS_BYTES,
    UID_BLOCK,
};
pub use session::{Graded, Progress, Session, SessionError};
pub use strategy::{Deal, Starts, Strategy, SELECT_MISTAKES};
pub use submission::{
    discover, escape_name, escape_path, survey, Discovery, Skipped, Staged, Submission, MAX_BYTES,
    MAX_ENTRIES,
};
pub use testset::{
    test_set, Expected, Input, TestCase, TestSet, RANDOM_FIVE, RANDOM_HAND_VALUE, RANDOM_SIX, SEED,
};
pub use verdict::{KeepValue, Verdict};
pub use workdir::{shutdown, WORK_PREFIX};

/// What stops the grader from grading at all. Problems with a submission are never errors:
/// they are part of its [`Report`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GradeError {
    /// A path given cannot be read, or is neither a regular file nor a directory.
    #[error("cannot read {}", crate::submission::escape_path(path))]
    Path {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// SWI-Prolog does not run.
    #[error("cannot run swipl at {path}: {message}")]
    Swipl {
        /// The program tried.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// bubblewrap was required and cannot start a sandbox here.
    #[error("bubblewrap cannot sandbox here: {0}")]
    Bwrap(String),
    /// Strict isolation was required and the network or the host's files stay open here.
    #[error("strict isolation is not possible here: {0}")]
    Isolation(String),
    /// Landlock could not be added under bubblewrap ([`Grader::confine_with`]).
    #[error("Landlock cannot be added under bubblewrap: {0}")]
    Confine(String),
    /// The grader's own files cannot be written.
    #[error("{what}")]
    Io {
        /// What the grader was doing.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

impl GradeError {
    fn io(what: impl Into<String>, source: std::io::Error) -> GradeError {
        GradeError::Io {
            what: what.into(),
            source,
        }
    }
}
