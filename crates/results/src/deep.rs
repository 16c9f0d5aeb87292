//! The deep check's section of a result (`crib grade --deep`, [`DeepReport`]): data, and
//! the check in words (`text.rs`); crib-grade's deep check fills it.

mod text;

pub use text::{kinds_text, percent, thousands};

use std::fmt;

use crib_core::{Card, Points};
use serde::{Deserialize, Serialize};

use crate::visibility::TestVisibility;

/// The deep check of one submission: a section of its result, not marked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeepReport {
    /// hand_value/3 over every class of pairs (or the classes asked for); `None` when the
    /// predicate is missing.
    pub hand_value: Option<DeepHandValue>,
    /// select_hand/3 over the seeded deals; `None` when not asked for or missing.
    pub select_hand: Option<DeepSelectHand>,
    /// Who sees it on Gradescope.
    pub visibility: TestVisibility,
    /// Wall-clock time of the whole deep check, milliseconds.
    pub elapsed_ms: u64,
}

/// hand_value/3 checked class by class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeepHandValue {
    /// Classes in the check: all 652,353, or as many as asked for.
    pub classes: usize,
    /// Classes answered.
    pub classes_checked: usize,
    /// Pairs the classes in the check stand for (12,994,800 for all).
    pub pairs: u64,
    /// Pairs the classes answered stand for.
    pub pairs_checked: u64,
    /// Why the check stopped before every class was answered, if it did.
    pub stopped: Option<String>,
    /// Pairs (weighted) whose answer was anything but right.
    pub failing_pairs: u64,
    /// Classes whose answer was anything but right.
    pub failing_classes: usize,
    /// The failing ones by kind, most first.
    pub kinds: Vec<KindCount>,
    /// The second asking of some classes under another relabelling and card order.
    pub probes: Probes,
    /// The simplest failing pairs, a few per kind.
    pub counterexamples: Vec<Counterexample>,
    /// What the failing pairs share.
    pub diagnosis: Diagnosis,
    /// Children started.
    pub children: usize,
    /// Wall-clock time, milliseconds.
    pub elapsed_ms: u64,
}

/// A kind of failure in the deep check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// An integer other than the expected one (or, for select_hand, a keep that is not
    /// optimal).
    WrongAnswer,
    /// Not an integer (or not a split of the dealt cards).
    WrongType,
    /// The goal failed.
    NoSolution,
    /// An exception.
    Exception,
    /// Over the per-call limit.
    Timeout,
    /// A resource error.
    Memory,
    /// halt, or the child died.
    Crashed,
}

impl FailureKind {
    /// Returns what a predicate did on goals failing this way, in a student's words:
    /// `gives a wrong value`.
    pub fn words(self) -> &'static str {
        match self {
            FailureKind::WrongAnswer => "gives a wrong value",
            FailureKind::WrongType => "gives something that is not an integer",
            FailureKind::NoSolution => "fails (gives no value)",
            FailureKind::Exception => "raises an exception",
            FailureKind::Timeout => "runs over the time limit",
            FailureKind::Memory => "runs out of memory",
            FailureKind::Crashed => "stops the program (halt or a crash)",
        }
    }
}

/// The kind's name, as in JSON: `wrong_answer`.
impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::names::write_json_name(self, f)
    }
}

/// How many failed in one way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCount {
    /// The way.
    pub kind: FailureKind,
    /// Items that failed so: suit classes (the deep check's hand_value/3), rank pattern
    /// items (the marked check) or deals (select_hand/3). `classes` in JSON, as always.
    #[serde(rename = "classes")]
    pub items: usize,
    /// Pairs they stand for (for select_hand: deals).
    pub pairs: u64,
}

/// Classes asked twice, to see whether answers depend on suit names or card order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probes {
    /// Classes asked twice (and answered both times).
    pub asked: usize,
    /// Of them, those answered differently.
    pub differed: usize,
    /// One that differed: both askings and both answers.
    pub example: Option<String>,
}

/// One failing pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counterexample {
    /// How it failed.
    pub kind: FailureKind,
    /// The hand as sent, in that order.
    pub hand: Vec<Card>,
    /// The start card.
    pub start: Card,
    /// crib-core's value.
    pub expected: u8,
    /// What the submission gave: an integer, a term, or what happened.
    pub got: String,
    /// crib-core's points per rule.
    pub points: Points,
    /// crib-core's breakdown of the expected value, in words.
    pub breakdown: String,
    /// The goal, as a student would type it.
    pub goal: String,
}

impl Counterexample {
    /// Returns the failing hand in words: the goal, the expected value with crib-core's
    /// breakdown, and what the submission gave.
    pub fn words(&self) -> String {
        format!(
            "?- {}\n   expected {} ({}), got {}",
            self.goal, self.expected, self.breakdown, self.got
        )
    }
}

/// What the failing pairs share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// One sentence: the best finding and the shape of the errors.
    pub summary: String,
    /// The features, or pairs of features, that best separate failing from passing pairs,
    /// best first.
    pub findings: Vec<DiagnosisFinding>,
    /// How wrong integers differ from the expected ones.
    pub errors: Vec<ErrorShape>,
}

/// A feature, or two, of the failing pairs (not a lint [`crate::Finding`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagnosisFinding {
    /// The features, each present or absent.
    pub features: Vec<Literal>,
    /// In words.
    pub text: String,
    /// Of the pairs with it, the share that fail (weighted).
    pub precision: f64,
    /// Of the failing pairs, the share with it (weighted).
    pub recall: f64,
    /// Failing pairs with it.
    pub failing_pairs: u64,
    /// Passing pairs with it.
    pub passing_pairs: u64,
}

/// A feature, present or absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Literal {
    /// The feature's id, e.g. `pair_outside_run`.
    pub feature: String,
    /// Whether the pairs have it (or lack it).
    pub present: bool,
}

/// A pattern in got − expected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorShape {
    /// In words.
    pub text: String,
    /// The share of the wrong integers (weighted) it describes.
    pub share: f64,
    /// The pairs it describes.
    pub pairs: u64,
}

/// select_hand/3 checked on seeded deals.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DeepSelectHand {
    /// Deals in the check (alternately six and five cards).
    pub deals: usize,
    /// Deals answered.
    pub checked: usize,
    /// Why the check stopped early, if it did.
    pub stopped: Option<String>,
    /// Deals answered with an optimal keep (any of tied best keeps).
    pub optimal: usize,
    /// Deals answered otherwise, by kind (`wrong_answer`: a valid keep that is not optimal).
    pub kinds: Vec<KindCount>,
    /// The greatest loss of expected hand value over the valid keeps, points.
    pub worst_regret: f64,
    /// The mean loss over the deals answered with a valid keep, points.
    pub mean_regret: f64,
    /// The simplest deal answered with a keep that is not optimal.
    pub simplest: Option<SelectExample>,
    /// The deal with the worst loss.
    pub worst: Option<SelectExample>,
    /// The first deal with an invalid answer, a failure or an error.
    pub first_failure: Option<SelectExample>,
    /// Children started.
    pub children: usize,
    /// Wall-clock time, milliseconds.
    pub elapsed_ms: u64,
}

/// One deal and what the submission kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectExample {
    /// How it failed.
    pub kind: FailureKind,
    /// The cards dealt.
    pub dealt: Vec<Card>,
    /// What the submission answered.
    pub got: String,
    /// The expected value of its keep, if valid.
    pub got_value: Option<f64>,
    /// A best keep.
    pub best: Vec<Card>,
    /// Its expected value.
    pub best_value: f64,
}
