//! What can go wrong when asking Prolog.

use std::path::PathBuf;

/// Why the Prolog reference could not load, or could not answer a question.
///
/// The variants for a call name the goal as Prolog would read it, with the cards written as
/// `card(Rank, Suit)` terms, so a message can be pasted into `swipl` to reproduce it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OracleError {
    /// The file is missing, or printed errors while loading (syntax errors, directives that
    /// raised).
    #[error("cannot load {}: {message}", path.display())]
    Load {
        /// The file.
        path: PathBuf,
        /// Prolog's messages (or the operating system's), one a line.
        message: String,
    },
    /// The file loaded but does not define a predicate the oracle calls.
    #[error("{} does not define {}", path.display(), predicates.join(", "))]
    Missing {
        /// The file.
        path: PathBuf,
        /// The missing predicates, as `name/arity`.
        predicates: Vec<String>,
    },
    /// This process loaded another Prolog file already. SWI-Prolog keeps one database per
    /// process, and two implementations of module `cribbage` cannot share it.
    #[error(
        "cannot load {}: this process already loaded {} (one Prolog file per process)",
        requested.display(),
        loaded.display()
    )]
    AlreadyLoaded {
        /// The file loaded first.
        loaded: PathBuf,
        /// The file asked for now.
        requested: PathBuf,
    },
    /// The goal raised an exception.
    #[error("{goal} raised an error: {message}")]
    Raised {
        /// The goal, as Prolog reads it.
        goal: String,
        /// Prolog's message for the exception.
        message: String,
    },
    /// The goal failed.
    #[error("{goal} failed")]
    Failed {
        /// The goal, as Prolog reads it.
        goal: String,
    },
    /// The goal succeeded with an answer that is not of the expected kind.
    #[error("{goal} answered {answer}, which is not {expected}")]
    Answer {
        /// The goal, as Prolog reads it.
        goal: String,
        /// The answer, as `writeq/1` writes it.
        answer: String,
        /// What the answer should have been.
        expected: &'static str,
    },
    /// The oracle was made on another thread; SWI-Prolog ties an engine to the C stack of the
    /// thread that created it.
    #[error("a Prolog oracle was called from a thread other than the one that made it")]
    WrongThread,
    /// This thread already has a Prolog engine active (one engine per thread at a time).
    #[error("a Prolog engine is already active on this thread")]
    EngineBusy,
}
