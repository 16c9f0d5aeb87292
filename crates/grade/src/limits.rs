//! How long and how much a submission's children may take: [`Limits`], and the rlimits of
//! a child that answers tests.

use std::time::Duration;

use crib_sandbox::Rlimits;
use crib_submission::MAX_BYTES;

use crib_testset::draw::TestSet;

/// Time, memory and size limits. A test's limit is the child's CPU time, with a wall-clock
/// backstop `wall_factor` times it and a `grace` for a goal that ignores being stopped (the
/// crate README's "Timing"); loading is limited in wall-clock time, and one submission in all
/// by [`Limits::budget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU time per hand_value test (default 1 s).
    pub hand_value: Duration,
    /// Wall-clock time for the marked hand_value check of one submission, every rank
    /// pattern (default 120 s): past it the check is a uniform sample of the patterns, as
    /// large as the time allowed, and says so. A plain solution needs 1 to 3 s; one at 5 ms
    /// a call still answers every pattern.
    pub hand_value_budget: Duration,
    /// Ask hand_value/3 only the first this many rank patterns of the seed's order (default
    /// `None`: all 23,647): a uniform sample, said so in the result. For quick trial runs and
    /// for tests that judge select_hand/3 alone.
    pub hand_value_patterns: Option<usize>,
    /// Ask select_hand/3 only the first this many deals of the test set (default `None`:
    /// all of them; at least one is asked, as the first child also loads the submission):
    /// the rest are left out of the marks (`not_run`, no credit), said so in the result. For
    /// quick trial runs and for tests that judge hand_value/3 alone.
    pub select_hand_deals: Option<usize>,
    /// CPU time per select_hand test (default 4 s).
    pub select_hand: Duration,
    /// Wall-clock time for all of one submission's select_hand tests (default 240 s): past
    /// it the tests not yet asked are left out of the marks (`not_run`, no credit), so the
    /// mark is the mean over a uniform sample of the deals, and a correct solution too slow
    /// for every deal keeps its marks.
    pub select_hand_budget: Duration,
    /// Wall clock for starting a child and loading the submission (default 10 s).
    pub load: Duration,
    /// How long past a test's limit (CPU time, or wall-clock time past the backstop) a goal
    /// that ignores being stopped runs before the child is killed (default 0.5 s).
    pub grace: Duration,
    /// The wall-clock backstop of a test, in multiples of its limit (default 3): it stops a
    /// goal that waits rather than computes, or that a busy machine starves.
    pub wall_factor: u32,
    /// Address space of each child, bytes (default 1 GiB); Prolog's stacks get half.
    pub memory: u64,
    /// The most bytes a submission's files may total (default [`MAX_BYTES`], 8 MiB): checked
    /// from the files' metadata and by a bounded read, before anything is copied; a bigger
    /// submission fails to load.
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            hand_value: Duration::from_secs(1),
            hand_value_budget: Duration::from_secs(120),
            hand_value_patterns: None,
            select_hand_deals: None,
            select_hand: Duration::from_secs(4),
            select_hand_budget: Duration::from_secs(240),
            load: Duration::from_secs(10),
            grace: Duration::from_millis(500),
            wall_factor: 3,
            memory: 1 << 30,
            max_bytes: MAX_BYTES,
        }
    }
}

impl Limits {
    /// Returns the most wall-clock time one submission's select_hand tests can take: the load
    /// limit plus the least of `select_hand_budget` and, for each test, one and a half times
    /// its limit plus the grace (with the defaults 10 + min(240, 48 x 6.5) = 250 s). Past it,
    /// the tests not yet asked are left out of the marks (`not_run`).
    pub fn budget(&self, tests: &TestSet) -> Duration {
        let each = (self.select_hand * 3 / 2 + self.grace) * self.deals_asked(tests) as u32;
        each.min(self.select_hand_budget) + self.load
    }

    /// Returns how many of `tests`' select_hand deals are asked: all of them, or the first
    /// [`Limits::select_hand_deals`] (at least one).
    pub fn deals_asked(&self, tests: &TestSet) -> usize {
        let all = tests.cases.len();
        self.select_hand_deals.map_or(all, |n| n.max(1).min(all))
    }

    /// Returns the most wall-clock time grading one submission can take: [`Limits::budget`]
    /// for the select_hand tests plus the marked hand_value check's load and budget (with the
    /// defaults 250 + 10 + 120 = 380 s, inside Gradescope's 10 minutes with room for the
    /// linter). A bound: on two cores or more the check runs beside the tests.
    pub fn submission_budget(&self, tests: &TestSet) -> Duration {
        self.budget(tests) + self.load + self.hand_value_budget
    }
}

/// Returns the limits of a child that answers tests (or deep-check batches) for at most
/// `work` of CPU time after loading: `memory` of address space, CPU for the load limit
/// `load`, `work` and 2 s of slack, files of at most 16 MiB, 256 processes.
pub(crate) fn answering(memory: u64, load: Duration, work: Duration) -> Rlimits {
    Rlimits {
        memory,
        cpu: work + load + Duration::from_secs(2),
        file_size: 16 << 20,
        processes: 256,
    }
}
