//! Where a batch's children run (`Place`): a crib-child [`Lane`] (the grader's jail, its
//! directory, the submission's staged copy, a lane's scratch and slot), the files to load
//! and the limits. Running one child is the lane's ([`Lane::run`]); its frames are
//! [`crate::protocol::Frame`].

use std::num::NonZeroUsize;
use std::time::Duration;

use crib_child::Lane;

use crate::limits::Limits;

/// Where a check beside or after the tests runs (the marked hand_value check, the deep
/// check): its lane and the submission's files.
pub(crate) struct Place<'a> {
    pub lane: Lane<'a>,
    /// The files to load, relative to the submission.
    pub files: &'a [String],
    pub limits: Limits,
    /// The cores the submission has to itself: how many children the marked hand_value
    /// check runs at once (all in the lane's slot).
    pub cores: NonZeroUsize,
}

/// Returns what a result says when crib could not start a child, try after try (a fork
/// refused, swipl not starting in time): crib's failure, never the submission's.
pub(crate) fn not_started(why: &str) -> String {
    format!("crib could not start a child (crib's failure, not the submission's: grade it again): {why}")
}

/// How many times in a row crib tries to start a child that does not start before it gives
/// up (see [`not_started`]).
const START_TRIES: usize = 3;

/// Returns whether to try starting a child again after `failed` tries in a row failed,
/// having waited a little longer after each (0.2 s, then 0.4 s).
pub(crate) fn start_again(failed: usize) -> bool {
    if failed >= START_TRIES {
        return false;
    }
    std::thread::sleep(Duration::from_millis(200) * failed as u32);
    true
}
