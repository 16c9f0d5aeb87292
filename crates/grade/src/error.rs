//! [`GradeError`]: what stops the grader from grading at all.

/// What stops the grader from grading at all. Problems with a submission are never errors:
/// they are part of its [`SubmissionResult`](crib_results::SubmissionResult).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GradeError {
    /// The sandbox cannot be made: SWI-Prolog does not run, or the isolation asked for is
    /// not possible here.
    #[error(transparent)]
    Sandbox(#[from] crib_sandbox::SandboxError),
    /// The SWI-Prolog found is older than [`crate::OLDEST_SWIPL`].
    #[error("{0}")]
    SwiplTooOld(String),
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
    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> GradeError {
        GradeError::Io {
            what: what.into(),
            source,
        }
    }
}
