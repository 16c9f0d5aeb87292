//! hand_value/3 counted wrongly rule by rule, item by item: the points each of the show's
//! five rules gives a marked item by the rules and under each of crib-results'
//! [`RuleMistake`]s ([`RulePoints`]), and the catalog's hand_value mistakes as such models
//! ([`HAND_VALUE_MISTAKES`]).
//!
//! Two users: crib-grade's marked check searches these points for the way of counting each
//! rule that explains a submission's answers (its diagnosis in words), and the stability
//! table (crib-lab's `lab/src/bin/tables.rs`) gives each modelled mistake the share of pairs it gets
//! wrong, and so its hand_value marks, under any seed without running Prolog
//! ([`HandValueModel::share_wrong`]: the ratio of weights the marked check takes). The
//! catalog test checks, under its seed, that each model's share is the one its graded
//! submission gets.

use crib_core::{CardSet, Rank};
use crib_results::{Area, RuleMistake};

use super::{keep_points, order_points, rank_index, rule_part, Part};
use crate::patterns::PatternItem;

/// One item's points: by the rules, rule by rule ([`Area::RULES`] order), and as each
/// mistake counts its own rule ([`RuleMistake::ALL`] order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulePoints {
    /// The points of fifteens, pairs, runs, flush and his nob by the rules.
    pub right: [u8; 5],
    /// The points of each mistake's rule as the mistake counts it.
    pub mistaken: [u8; RuleMistake::ALL.len()],
}

impl RulePoints {
    /// Returns the points of rule `rule` (an index of [`Area::RULES`]) counted `way`: by the
    /// rules (`None`) or as a mistake of that rule counts it.
    pub fn of(&self, rule: usize, way: Option<RuleMistake>) -> u8 {
        match way {
            None => self.right[rule],
            Some(m) => self.mistaken[m as usize],
        }
    }

    /// Returns the item's value by the rules (crib-core's).
    pub fn total(&self) -> u32 {
        self.right.iter().map(|&p| u32::from(p)).sum()
    }

    /// Returns the item's value when each rule of `mistakes` is counted as the mistake
    /// counts it (at most one a rule) and the others by the rules.
    pub fn total_with(&self, mistakes: &[RuleMistake]) -> u32 {
        (0..Area::RULES.len())
            .map(|k| {
                let way = mistakes
                    .iter()
                    .copied()
                    .find(|m| rule_index(m.family()) == k);
                u32::from(self.of(k, way))
            })
            .sum()
    }
}

/// Returns the index of a rule area in [`Area::RULES`] (0 for an area that is no rule).
pub fn rule_index(area: Area) -> usize {
    Area::RULES
        .iter()
        .position(|a| *a == area)
        .unwrap_or_default()
}

/// Returns the points of the item by the rules and under each mistake.
///
/// # Example
/// ```
/// use crib_testset::{rule_points, Seed};
/// use crib_results::RuleMistake;
/// let items = crib_testset::patterns::items(&Seed::from_bytes([3; 32]));
/// let points = rule_points(&items[0]);
/// assert_eq!(points.total(), u32::from(items[0].expected));
/// assert_eq!(points.total_with(&[]), points.total());
/// assert!(points.total_with(&[RuleMistake::PairsDoubled]) >= points.total());
/// ```
pub fn rule_points(item: &PatternItem) -> RulePoints {
    let hand = item.hand();
    let start = item.start();
    let (parts, totals) = keep_points(&hand, CardSet::of(&[start]));
    let part = |p: Part| parts[p.index()] as u8;
    let right = [
        part(Part::Fifteens),
        part(Part::Pairs),
        part(Part::Runs),
        part(Part::Flush),
        part(Part::Nob),
    ];
    let total: u32 = right.iter().map(|&p| u32::from(p)).sum();
    // A rank mistake's total less the other rules' right points: its points for its rule.
    let rank = |m: RuleMistake| {
        let k = rank_index(m).expect("the mistakes valued so are RANK_MISTAKES");
        let own = parts[rule_part(m).index()];
        (totals[k] + own).saturating_sub(total) as u8
    };
    let order = |m: RuleMistake| {
        order_points(m, &hand, CardSet::of(&[start]))
            .expect("the mistakes valued so are ORDER_MISTAKES") as u8
    };
    let [f, p, r, flush, nob] = right;
    let five_card_fifteen = item.cards.iter().map(|c| c.rank().value()).sum::<u8>() == 15;
    let mut mistaken = [0u8; RuleMistake::ALL.len()];
    for m in RuleMistake::ALL {
        use RuleMistake::*;
        mistaken[m as usize] = match m {
            FifteensMissing | PairsMissing | RunsMissing | FlushMissing | NobMissing => 0,
            FifteensDoubled => 2 * f,
            FifteensNoStart => f - part(Part::FifteensWithStart),
            FifteensTwoCardsOnly => f - part(Part::FifteensOfThreePlus),
            FifteensNoFourOrFive => f - part(Part::FifteensOfFourPlus),
            FifteensNoFiveCard => f - 2 * u8::from(five_card_fifteen),
            PairsDoubled => 2 * p,
            PairsNoStart => p - part(Part::PairsWithStart),
            RunsDoubled => 2 * r,
            FlushFourMissing => 5 * u8::from(flush == 5),
            FlushFiveAsFour => flush.min(4),
            FlushFourAsFive => 5 * u8::from(flush > 0),
            FlushThreeAndStart => flush + part(Part::FlushOfThreeAndStart),
            NobTwoPoints => 2 * nob,
            NobAnyJack => u8::from(hand.iter().any(|c| c.rank() == Rank::Jack)),
            NobStartJack => nob + u8::from(start.rank() == Rank::Jack),
            // The rest are RANK_MISTAKES, valued from the ranks, and ORDER_MISTAKES.
            _ if rank_index(m).is_some() => rank(m),
            _ => order(m),
        };
    }
    RulePoints { right, mistaken }
}

/// What a wrong hand_value/3 answers, item by item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandValueModel {
    /// An integer: each rule of these mistakes counted as the mistake counts it (at most one
    /// a rule), the other rules by the rules ([`RulePoints::total_with`]).
    Counts(&'static [RuleMistake]),
    /// No integer (it fails) for every hand where this rule scores nothing, the right value
    /// otherwise.
    FailsWhenNone(Area),
    /// Never an integer (a float, say).
    NoInteger,
}

impl HandValueModel {
    /// Returns whether the model answers the item wrongly, given the item's points.
    pub fn wrong(self, points: &RulePoints) -> bool {
        match self {
            HandValueModel::Counts(mistakes) => points.total_with(mistakes) != points.total(),
            HandValueModel::FailsWhenNone(area) => points.right[rule_index(area)] == 0,
            HandValueModel::NoInteger => true,
        }
    }

    /// Returns the share of pairs the marked check estimates the model gets wrong when it
    /// answers every one of `items` (`points[k]`: [`rule_points`] of `items[k]`): the
    /// summed weight of the items it answers wrongly over that of all the items, summed in
    /// the items' order as the marked check sums them, so that the share is the one a
    /// submission answering as the model does is given.
    pub fn share_wrong(self, items: &[PatternItem], points: &[RulePoints]) -> f64 {
        let answered: f64 = items.iter().map(|i| i.weight).sum();
        let mut wrong = 0.0;
        for (item, points) in items.iter().zip(points) {
            if self.wrong(points) {
                wrong += item.weight;
            }
        }
        let scale = if answered > 0.0 { 1.0 / answered } else { 0.0 };
        (wrong * scale).clamp(0.0, 1.0)
    }
}

/// Returns the probe's share of pairs wrong for each mistake of the catalog, as a fraction,
/// read from the text of its README (crates/grade/tests/mistakes/README.md, whose table
/// crib-lab's `lab/src/bin/probe_mistakes.rs` writes: `| id | area | equivalent |
/// wrong/total | ...`). Lines that are not such rows are skipped.
pub fn probed_shares(readme: &str) -> std::collections::BTreeMap<String, f64> {
    readme
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let (name, wrong) = (cells.get(1)?, cells.get(4)?);
            let (w, n) = wrong.split_once('/')?;
            let (w, n) = (w.parse::<f64>().ok()?, n.parse::<f64>().ok()?);
            Some((name.to_string(), w / n))
        })
        .collect()
}

/// A hand_value mistake of the catalog whose hand_value/3 is modelled: its submission's id
/// and its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandValueMistake {
    /// The id of its submission in `crates/grade/tests/mistakes/`.
    pub id: &'static str,
    /// What its hand_value/3 answers.
    pub model: HandValueModel,
}

/// The hand_value mistakes of the catalog, each with the model its hand_value/3 answers as.
/// The catalog test (`the_hand_value_models_mark_as_their_submissions_do` in
/// crates/grade/tests/catalog.rs) grades each submission on every item of its seed and
/// checks that the model gets exactly the submission's share of pairs wrong.
pub const HAND_VALUE_MISTAKES: &[HandValueMistake] = {
    use HandValueModel::{Counts, FailsWhenNone, NoInteger};
    use RuleMistake::*;
    const fn m(id: &'static str, model: HandValueModel) -> HandValueMistake {
        HandValueMistake { id, model }
    }
    &[
        m("fifteens-ace-eleven", Counts(&[FifteensAceEleven])),
        m("fifteens-face-rank-value", Counts(&[FifteensFacesByRank])),
        m("fifteens-no-five-card", Counts(&[FifteensNoFiveCard])),
        m("fifteens-no-start", Counts(&[FifteensNoStart])),
        m("fifteens-once", Counts(&[FifteensOnce])),
        m("fifteens-one-point", Counts(&[FifteensOnePoint])),
        m("fifteens-pairs-only", Counts(&[FifteensTwoCardsOnly])),
        m(
            "fifteens-sort-drops-values",
            Counts(&[FifteensDistinctValues]),
        ),
        m("fifteens-tens-ignored", Counts(&[FifteensTensIgnored])),
        m(
            "fifteens-two-and-three-only",
            Counts(&[FifteensNoFourOrFive]),
        ),
        m("flush-any-four-of-five", Counts(&[FlushThreeAndStart])),
        m("flush-five-scores-four", Counts(&[FlushFiveAsFour])),
        m("flush-four-always-five", Counts(&[FlushFourAsFive])),
        m("flush-needs-five", Counts(&[FlushFourMissing])),
        m("flush-none", Counts(&[FlushMissing])),
        m("flush-start-as-hand-card", Counts(&[FlushStartAsHandCard])),
        m("flush-three-plus-start", Counts(&[FlushThreeAndStart])),
        m("nob-any-jack", Counts(&[NobAnyJack])),
        m("nob-fails-when-none", FailsWhenNone(Area::Nob)),
        m("nob-first-card-suit", Counts(&[NobFirstCardSuit])),
        m("nob-none", Counts(&[NobMissing])),
        m("nob-start-jack", Counts(&[NobStartJack])),
        m("nob-two-points", Counts(&[NobTwoPoints])),
        m("pairs-adjacent-only", Counts(&[PairsAdjacentOnly])),
        m("pairs-no-start", Counts(&[PairsNoStart])),
        m("pairs-one-point", Counts(&[PairsOnePoint])),
        m("pairs-ordered-twice", Counts(&[PairsDoubled])),
        m("pairs-sort-dedup", Counts(&[PairsMissing])),
        m("runs-ace-high", Counts(&[RunsAceHigh])),
        m("runs-contiguous-only", Counts(&[RunsContiguousOnly])),
        m("runs-every-subrun", Counts(&[RunsEverySubrun])),
        m("runs-faces-rank-ten", Counts(&[RunsFacesAsTen])),
        m("runs-fail-when-none", FailsWhenNone(Area::Runs)),
        m("runs-five-missed", Counts(&[RunsFiveAsTwoFours])),
        m("runs-length-minus-one", Counts(&[RunsLengthMinusOne])),
        m("runs-no-start", Counts(&[RunsNoStart])),
        m("runs-one-point-each", Counts(&[RunsOnePointEach])),
        m("runs-only-three", Counts(&[RunsOnlyThree])),
        m("runs-sort-dedup", Counts(&[RunsDistinctRanks])),
        m("runs-wrap-around", Counts(&[RunsWrapAround])),
        m(
            "value-fifteens-only",
            Counts(&[PairsMissing, RunsMissing, FlushMissing, NobMissing]),
        ),
        m("value-float", NoInteger),
    ]
};

#[cfg(test)]
mod tests;
