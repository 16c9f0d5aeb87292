//! Where a child runs (`Place`): the grader's jail, its directory and the submission's
//! staged copy. Running one child is crib-child's [`crib_child::Child`], shared with
//! crib-lint; its frames are [`crate::protocol::Frame`].

use std::num::NonZeroUsize;
use std::path::Path;

use crib_sandbox::Jail;

use crate::limits::Limits;

/// Where a check after the tests runs (the deep check): the grader's sandbox and the submission's copy.
pub(crate) struct Place<'a> {
    /// The sandbox.
    pub jail: &'a Jail,
    /// The grader's directory (the child program and the batch files).
    pub grader: &'a Path,
    /// The submission's work directory (`submission/` inside).
    pub work: &'a Path,
    /// The directory its children write in, the slot's own.
    pub scratch: &'a Path,
    /// The files to load, relative to the submission.
    pub files: &'a [String],
    /// The slot its children run in: the worker's, or its second lane
    /// ([`crib_sandbox::SECOND_LANE`]).
    pub slot: u32,
    /// Memory and per-call limits.
    pub limits: Limits,
    /// The cores the submission has to itself: how many children the marked hand_value
    /// check runs at once (all in the worker's slot).
    pub cores: NonZeroUsize,
}
