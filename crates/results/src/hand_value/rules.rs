//! hand_value/3's mistakes rule by rule, in the student's words: which rule is never
//! counted, which is counted wrongly and how, each with the simplest hand that shows it
//! ([`RuleFinding`]). crib-grade's marked check finds them by testing models of mistakes
//! ([`RuleMistake`]) against the submission's answers; crib-testset's select_hand models
//! are built from the same mistakes.

use serde::{Deserialize, Serialize};

use super::Area;
use crate::deep::{percent, Counterexample};

/// A way of counting one rule that differs from the rules: a mistake students make. The one
/// vocabulary of hand_value mistakes: crib-grade's marked check tests each against a
/// submission's answers, and crib-testset builds from them the select_hand models its deals
/// are balanced against (a select_hand that sums such a hand value over the starts) and
/// values each item's rules the way each counts them. Each belongs to one rule
/// ([`RuleMistake::family`]); its serde name is its name in snake case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleMistake {
    /// No fifteen is counted.
    FifteensMissing,
    /// Each fifteen scores 4.
    FifteensDoubled,
    /// Each fifteen scores 1.
    FifteensOnePoint,
    /// 2 points when there is any fifteen, however many there are.
    FifteensOnce,
    /// Jack, queen and king count 11, 12 and 13 towards fifteen.
    FifteensFacesByRank,
    /// The ace counts 11 towards fifteen.
    FifteensAceEleven,
    /// Tens are in no fifteen.
    FifteensTensIgnored,
    /// The fifteens using the start card are not counted.
    FifteensNoStart,
    /// Two cards of the same value are never in one fifteen (values deduplicated, as
    /// `sort/2` does).
    FifteensDistinctValues,
    /// Only fifteens of two cards are counted.
    FifteensTwoCardsOnly,
    /// Fifteens of four or five cards are not counted.
    FifteensNoFourOrFive,
    /// A fifteen of all five cards is not counted.
    FifteensNoFiveCard,
    /// No pair is counted.
    PairsMissing,
    /// Each pair scores 4.
    PairsDoubled,
    /// Each pair scores 1.
    PairsOnePoint,
    /// The pairs with the start card are not counted.
    PairsNoStart,
    /// Only neighbours of the sorted ranks pair: three of a kind makes two pairs.
    PairsAdjacentOnly,
    /// No run is counted.
    RunsMissing,
    /// Runs score twice their points.
    RunsDoubled,
    /// The runs using the start card are not counted: runs among the four hand cards only.
    RunsNoStart,
    /// The ace is low or high in runs, whichever scores more (Q K A is a run, and so is
    /// A 2 3; A 2 3 Q K scores one of them).
    RunsAceHigh,
    /// Jack, queen and king are tens in runs.
    RunsFacesAsTen,
    /// A run scores 1 point, whatever its length.
    RunsOnePointEach,
    /// A run scores its length less one.
    RunsLengthMinusOne,
    /// Runs wrap around from king to ace (K A 2), the ranks turned so the runs score most.
    RunsWrapAround,
    /// Every run of three or more is counted, also those inside a longer run.
    RunsEverySubrun,
    /// Only runs of three are looked for: a longer run scores as the runs of three in it.
    RunsOnlyThree,
    /// A double run (a run with a repeated rank) is counted once: runs of the distinct ranks
    /// (ranks deduplicated, as `sort/2` does).
    RunsDistinctRanks,
    /// A repeated rank breaks a run: the longest run among neighbours of the sorted ranks.
    RunsContiguousOnly,
    /// A run of five scores as two runs of four.
    RunsFiveAsTwoFours,
    /// No flush is counted.
    FlushMissing,
    /// A flush of the four hand cards alone (the start another suit) is not counted.
    FlushFourMissing,
    /// A five-card flush scores 4.
    FlushFiveAsFour,
    /// A flush of the four hand cards scores 5 whatever the start.
    FlushFourAsFive,
    /// Three hand cards and the start card of one suit score a flush of 4.
    FlushThreeAndStart,
    /// The start card is taken as one of the flush's four cards.
    FlushStartAsHandCard,
    /// His nob is never counted.
    NobMissing,
    /// His nob scores 2.
    NobTwoPoints,
    /// Any jack in the hand scores his nob.
    NobAnyJack,
    /// A jack as the start card scores a point.
    NobStartJack,
    /// His nob is the jack of the first hand card's suit.
    NobFirstCardSuit,
}

impl RuleMistake {
    /// Every mistake, rule by rule, in the order they are tried and shown.
    pub const ALL: [RuleMistake; 41] = [
        RuleMistake::FifteensMissing,
        RuleMistake::FifteensDoubled,
        RuleMistake::FifteensOnePoint,
        RuleMistake::FifteensOnce,
        RuleMistake::FifteensFacesByRank,
        RuleMistake::FifteensAceEleven,
        RuleMistake::FifteensTensIgnored,
        RuleMistake::FifteensNoStart,
        RuleMistake::FifteensDistinctValues,
        RuleMistake::FifteensTwoCardsOnly,
        RuleMistake::FifteensNoFourOrFive,
        RuleMistake::FifteensNoFiveCard,
        RuleMistake::PairsMissing,
        RuleMistake::PairsDoubled,
        RuleMistake::PairsOnePoint,
        RuleMistake::PairsNoStart,
        RuleMistake::PairsAdjacentOnly,
        RuleMistake::RunsMissing,
        RuleMistake::RunsDoubled,
        RuleMistake::RunsNoStart,
        RuleMistake::RunsAceHigh,
        RuleMistake::RunsFacesAsTen,
        RuleMistake::RunsOnePointEach,
        RuleMistake::RunsLengthMinusOne,
        RuleMistake::RunsWrapAround,
        RuleMistake::RunsEverySubrun,
        RuleMistake::RunsOnlyThree,
        RuleMistake::RunsDistinctRanks,
        RuleMistake::RunsContiguousOnly,
        RuleMistake::RunsFiveAsTwoFours,
        RuleMistake::FlushMissing,
        RuleMistake::FlushFourMissing,
        RuleMistake::FlushFiveAsFour,
        RuleMistake::FlushFourAsFive,
        RuleMistake::FlushThreeAndStart,
        RuleMistake::FlushStartAsHandCard,
        RuleMistake::NobMissing,
        RuleMistake::NobTwoPoints,
        RuleMistake::NobAnyJack,
        RuleMistake::NobStartJack,
        RuleMistake::NobFirstCardSuit,
    ];

    /// Returns the rule the mistake counts its own way: one of [`Area::RULES`].
    pub const fn family(self) -> Area {
        use RuleMistake::*;
        match self {
            FifteensMissing
            | FifteensDoubled
            | FifteensOnePoint
            | FifteensOnce
            | FifteensFacesByRank
            | FifteensAceEleven
            | FifteensTensIgnored
            | FifteensNoStart
            | FifteensDistinctValues
            | FifteensTwoCardsOnly
            | FifteensNoFourOrFive
            | FifteensNoFiveCard => Area::Fifteens,
            PairsMissing | PairsDoubled | PairsOnePoint | PairsNoStart | PairsAdjacentOnly => {
                Area::Pairs
            }
            RunsMissing | RunsDoubled | RunsNoStart | RunsAceHigh | RunsFacesAsTen
            | RunsOnePointEach | RunsLengthMinusOne | RunsWrapAround | RunsEverySubrun
            | RunsOnlyThree | RunsDistinctRanks | RunsContiguousOnly | RunsFiveAsTwoFours => {
                Area::Runs
            }
            FlushMissing | FlushFourMissing | FlushFiveAsFour | FlushFourAsFive
            | FlushThreeAndStart | FlushStartAsHandCard => Area::Flush,
            NobMissing | NobTwoPoints | NobAnyJack | NobStartJack | NobFirstCardSuit => Area::Nob,
        }
    }

    /// Returns the mistake in the student's words, one clause that starts with the rule and
    /// says what the right count is where that is not plain: `runs are never counted`.
    pub const fn words(self) -> &'static str {
        use RuleMistake::*;
        match self {
            FifteensMissing => "fifteens are never counted",
            FifteensDoubled => "each fifteen is counted twice (4 points instead of 2)",
            FifteensOnePoint => "a fifteen scores 1 point instead of 2",
            FifteensOnce => "fifteens score 2 points however many there are (each fifteen scores 2)",
            FifteensFacesByRank => {
                "a face card counts 11-13 in fifteens (jack, queen and king count 10)"
            }
            FifteensAceEleven => "an ace counts 11 in fifteens (it counts 1)",
            FifteensTensIgnored => "a ten is never part of a fifteen (it counts 10)",
            FifteensNoStart => "fifteens that use the start card are not counted",
            FifteensDistinctValues => {
                "two cards of the same value are never in one fifteen (as when sort/2 removes \
                 repeated values)"
            }
            FifteensTwoCardsOnly => {
                "only fifteens of two cards are counted (three, four or five cards can make 15 too)"
            }
            FifteensNoFourOrFive => "fifteens of four or five cards are not counted",
            FifteensNoFiveCard => "a fifteen made of all five cards is not counted",
            PairsMissing => "pairs are never counted",
            PairsDoubled => "each pair is counted twice (4 points instead of 2)",
            PairsOnePoint => "a pair scores 1 point instead of 2",
            PairsNoStart => "pairs with the start card are not counted",
            PairsAdjacentOnly => {
                "three of a kind counts as two pairs (it is three pairs: every two cards of a rank)"
            }
            RunsMissing => "runs are never counted",
            RunsDoubled => "runs are counted twice",
            RunsNoStart => "runs that use the start card are not counted",
            RunsAceHigh => "the ace is counted high in runs (Q-K-A is not a run: the ace is low)",
            RunsFacesAsTen => {
                "jack, queen and king count as 10 in runs (in runs they are 11, 12 and 13)"
            }
            RunsOnePointEach => "a run scores 1 point instead of 1 per card",
            RunsLengthMinusOne => "a run scores one point less than its number of cards",
            RunsWrapAround => "runs wrap around from king to ace (K-A-2 is not a run)",
            RunsEverySubrun => {
                "the runs of three inside a longer run are counted too (only the longest run counts)"
            }
            RunsOnlyThree => "a run of four or five is scored as runs of three",
            RunsDistinctRanks => {
                "a double run (a run with a repeated rank, like 3-3-4-5) is counted once"
            }
            RunsContiguousOnly => {
                "a repeated rank breaks a run (3-3-4-5 is two runs of three, 3-4-5 twice)"
            }
            RunsFiveAsTwoFours => "a run of five is scored as two runs of four",
            FlushMissing => "flushes are never counted",
            FlushFourMissing => {
                "a flush of four in the hand is not counted (the start card need not match)"
            }
            FlushFiveAsFour => "a five-card flush scores 4 instead of 5",
            FlushFourAsFive => {
                "a flush of four in the hand scores 5 even when the start card is another suit"
            }
            FlushThreeAndStart => {
                "three hand cards and the start card of one suit are counted as a flush (the \
                 four hand cards must share the suit)"
            }
            FlushStartAsHandCard => "the start card is counted as one of the flush's four cards",
            NobMissing => "his nob is never counted",
            NobTwoPoints => "his nob scores 2 points instead of 1",
            NobAnyJack => {
                "any jack in the hand scores his nob (only the jack of the start card's suit does)"
            }
            NobStartJack => "a jack as the start card scores a point (his nob is a jack in the hand)",
            NobFirstCardSuit => {
                "his nob is taken as the jack of the first hand card's suit (it is the jack of \
                 the start card's suit)"
            }
        }
    }
}

/// What one [`RuleFinding`] says of its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", content = "mistake")]
pub enum RuleVerdict {
    /// A modelled mistake explains the answers.
    Mistake(RuleMistake),
    /// hand_value/3 gives no integer exactly when the rule scores nothing (a predicate for
    /// the rule with no clause for 0 points).
    FailsWhenNone,
    /// The rule's points are wrong in a way no model explains.
    Unexplained,
}

/// One rule's mistake, as found in a submission's answers: what is wrong in words, how much
/// of the wrong answers it explains, and the simplest hand showing it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleFinding {
    /// The rule: one of [`Area::RULES`], or [`Area::NoAnswer`] for answers that are no
    /// integer with no rule to blame.
    pub rule: Area,
    /// What is wrong with it.
    pub verdict: RuleVerdict,
    /// The share (0..=1, weighted by pairs) of the submission's wrong answers this finding
    /// accounts for.
    pub explains: f64,
    /// The simplest hand that shows it: where possible, one whose every other rule the
    /// submission counts right.
    pub example: Counterexample,
    /// The rule's points in the example by the rules (`None` for [`Area::NoAnswer`]).
    pub expected_points: Option<u8>,
    /// The rule's points in the example as the mistake counts them, when a model says.
    pub got_points: Option<u8>,
}

impl RuleFinding {
    /// Returns the finding in the student's words, one sentence without the example:
    /// `runs are never counted`.
    pub fn words(&self) -> String {
        match (self.verdict, self.rule) {
            (RuleVerdict::Mistake(m), _) => m.words().to_string(),
            (RuleVerdict::FailsWhenNone, rule) => format!(
                "hand_value/3 fails (gives no value) on hands {} (that rule scores 0 there)",
                match rule {
                    Area::Fifteens => "with no fifteen",
                    Area::Pairs => "with no pair",
                    Area::Runs => "with no run",
                    Area::Flush => "with no flush",
                    Area::Nob => "without his nob",
                    Area::NoPoints | Area::NoAnswer => "of some kind",
                }
            ),
            (RuleVerdict::Unexplained, Area::NoAnswer) => {
                "hand_value/3 gives no integer on some hands".to_string()
            }
            (RuleVerdict::Unexplained, Area::NoPoints) => {
                "hands worth nothing are given points".to_string()
            }
            (RuleVerdict::Unexplained, Area::Flush) => {
                "the flush is counted wrongly on some hands".to_string()
            }
            (RuleVerdict::Unexplained, Area::Nob) => {
                "his nob is counted wrongly on some hands".to_string()
            }
            (RuleVerdict::Unexplained, rule) => {
                format!("{} are counted wrongly on some hands", rule.title())
            }
        }
    }

    /// Returns the example in words: the goal, the expected total with crib-core's
    /// breakdown, what the submission gave and, when known, the rule's points both ways.
    pub fn example_words(&self) -> String {
        let mut out = self.example.words();
        if let (Some(e), Some(g)) = (self.expected_points, self.got_points) {
            out.push_str(&format!(
                "\n   {}: {} point{} by the rules, {g} as counted",
                self.rule.title(),
                e,
                if e == 1 { "" } else { "s" }
            ));
        }
        out
    }

    /// Returns the share of the wrong answers it accounts for, for people: `84.2%`.
    pub fn share_words(&self) -> String {
        percent(self.explains)
    }
}

impl super::HandValueCheck {
    /// Returns what is wrong rule by rule in lines of a student's text, without
    /// indentation: per finding, `rule: what is wrong (share of the wrong answers)`, the
    /// simplest hand's goal and what was expected and given. Falls back to the feature
    /// diagnosis's summary for a result written before crib diagnosed rule by rule; empty
    /// when nothing is wrong.
    pub fn rule_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.rules.is_empty() {
            if !self.counterexamples.is_empty() {
                lines.push(format!("Diagnosis: {}", self.diagnosis.summary));
            }
            return lines;
        }
        lines.push("What is wrong, rule by rule (with the simplest hand showing it):".into());
        for f in &self.rules {
            lines.push(format!(
                "- {}: {} ({} of your wrong answers)",
                f.rule.title(),
                f.words(),
                f.share_words()
            ));
            for line in f.example_words().lines() {
                lines.push(format!("    {line}"));
            }
        }
        lines
    }
}
