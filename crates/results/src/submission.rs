//! What was left out of a submission, and why ([`Skipped`]).

use serde::{Deserialize, Serialize};

/// Something left out, and why: a symbolic link (never followed), a FIFO, a socket or a
/// device. Paths are written as crib-grade's `escape_path` writes them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// The entry: relative to the submission in a result, as found in crib-grade's
    /// `Discovery`.
    pub path: String,
    /// Why it was left out, e.g. `a symbolic link (links are never followed)`.
    pub why: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.why)
    }
}
