//! The marked hand_value/3 check's section of a result ([`HandValueCheck`]): data only;
//! crib-grade's marked check fills it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::deep::{Counterexample, Diagnosis, KindCount};

mod rules;

pub use rules::{RuleFinding, RuleMistake, RuleVerdict};

/// How many rank patterns there are: (rank multiset of four hand cards, start rank) pairs
/// with no rank five times. The marked hand_value check asks each of them.
pub const PATTERNS: usize = 23_647;

/// hand_value/3 judged on every rank pattern (or, past the time budget, a uniform sample of
/// them): the marked check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandValueCheck {
    /// Rank patterns in the check: all 23,647.
    pub patterns: usize,
    /// Patterns answered (fewer when the time budget ran out: then a uniform sample).
    pub checked: usize,
    /// The estimated number of the 12,994,800 (hand, start) pairs the submission gets wrong:
    /// `share_wrong` x 12,994,800.
    pub pairs_wrong: f64,
    /// The estimated share of all pairs the submission gets wrong, in 0..=1: the weights of
    /// the wrong items over the weights of the items answered (1 when nothing was answered).
    pub share_wrong: f64,
    /// Why the check stopped before every pattern was answered, if it did.
    pub stopped: Option<String>,
    /// The failing items by kind, most pairs first (`KindCount::items`, `classes` in JSON).
    pub kinds: Vec<KindCount>,
    /// The failing items by where the error shows, most pairs first.
    pub areas: Vec<AreaCount>,
    /// The simplest failing items, a few per kind.
    pub counterexamples: Vec<Counterexample>,
    /// What the failing items share: a statistic of features, for staff.
    pub diagnosis: Diagnosis,
    /// What is wrong rule by rule, in the student's words, most wrong answers explained
    /// first: each rule's mistake with the simplest hand showing it, then what no model
    /// explains. Empty when nothing is wrong, and in results written before crib diagnosed
    /// rule by rule (which read back with it empty).
    #[serde(default)]
    pub rules: Vec<RuleFinding>,
    /// Children started.
    pub children: usize,
    /// Wall-clock time, milliseconds.
    pub elapsed_ms: u64,
}

/// Where a wrong hand_value answer shows: among the rules whose points could explain the
/// error (too few: a rule scoring at least the shortfall; too many: a rule that scores, the
/// flush with three cards of a suit, his nob with a jack dealt), the one most of the
/// submission's wrong hands share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// Fifteens.
    Fifteens,
    /// Pairs.
    Pairs,
    /// Runs.
    Runs,
    /// The flush.
    Flush,
    /// His nob.
    Nob,
    /// A hand worth nothing, given points by no rule's error.
    NoPoints,
    /// No integer at all: a failure, an exception, a timeout, a crash, another term.
    NoAnswer,
}

impl HandValueCheck {
    /// Returns how many of the items answered were wrong, of every kind.
    pub fn items_wrong(&self) -> usize {
        self.kinds.iter().map(|k| k.items).sum()
    }
}

impl Area {
    /// The five rules of the show, in the order they are shown.
    pub const RULES: [Area; 5] = [
        Area::Fifteens,
        Area::Pairs,
        Area::Runs,
        Area::Flush,
        Area::Nob,
    ];

    /// Every area, in the order they are shown.
    pub const ALL: [Area; 7] = [
        Area::Fifteens,
        Area::Pairs,
        Area::Runs,
        Area::Flush,
        Area::Nob,
        Area::NoPoints,
        Area::NoAnswer,
    ];

    /// Returns a title for people: `hands with runs`.
    pub fn title(self) -> &'static str {
        match self {
            Area::Fifteens => "fifteens",
            Area::Pairs => "pairs",
            Area::Runs => "runs",
            Area::Flush => "flush",
            Area::Nob => "his nob",
            Area::NoPoints => "hands worth nothing",
            Area::NoAnswer => "no integer answer",
        }
    }
}

/// The area's name, as in JSON: `no_points`.
impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::names::write_json_name(self, f)
    }
}

/// The failing items of one area.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AreaCount {
    /// The area.
    pub area: Area,
    /// Failing items.
    pub items: usize,
    /// The pairs they stand for (estimated, as `pairs_wrong`).
    pub pairs: f64,
    /// The simplest of them.
    pub simplest: Counterexample,
}
