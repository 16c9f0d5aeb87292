//! The select_hand sample: Prolog's choice on seeded deals must be a split of the deal whose
//! keep has the greatest expected value crib-core finds; crib-core's own choice likewise.

use crib_core::{cards_text, judge_keep, select_hand, Card, KeepJudgement};
use crib_oracle::{Choice, OracleError, Pool};
use rayon::prelude::*;

use crate::progress::Progress;
use crate::FIRST;

/// A deal on which a choice is wrong; serialized as the JSON summary shows it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct DealDiff {
    #[serde(skip)]
    order: u64,
    /// "prolog" or "rust": whose choice is wrong.
    who: &'static str,
    dealt: Vec<Card>,
    hand: Vec<Card>,
    crib: Vec<Card>,
    /// What is wrong with the choice.
    problem: String,
}

/// What the sample found.
#[derive(Debug, Default)]
pub struct DealReport {
    pub deals: u64,
    pub five: u64,
    pub six: u64,
    pub differences: u64,
    pub first: Vec<DealDiff>,
}

impl DealReport {
    fn merge(mut self, other: DealReport) -> DealReport {
        self.deals += other.deals;
        self.five += other.five;
        self.six += other.six;
        self.differences += other.differences;
        self.first.extend(other.first);
        self.first.sort();
        self.first.truncate(FIRST);
        self
    }
}

/// Returns deal `index` of the sample: six cards for even indices, five for odd ones.
pub fn deal(seed: u64, index: u64) -> Vec<Card> {
    let size = if index & 1 == 0 { 6 } else { 5 };
    // Offset the stream so deals and sampled hands do not share draws.
    crib_core::Dealer::for_item(seed ^ 0x5EED_DEA1, index).deal(size)
}

/// Checks `deals` seeded deals in parallel.
///
/// # Errors
/// The first error Prolog gave; the check stops there.
pub fn check(
    pool: &Pool,
    deals: u64,
    seed: u64,
    progress: &Progress,
) -> Result<DealReport, OracleError> {
    (0..deals)
        .into_par_iter()
        .map(|index| {
            let dealt = deal(seed, index);
            let prolog = pool.with(|oracle| oracle.select_hand(&dealt))?;
            let rust = select_hand(&dealt).expect("a deal is 5 or 6 distinct cards");
            let rust = Choice {
                hand: rust.best.keep.to_vec(),
                crib: rust.best.discard().to_vec(),
            };
            let mut report = DealReport {
                deals: 1,
                five: u64::from(dealt.len() == 5),
                six: u64::from(dealt.len() == 6),
                ..DealReport::default()
            };
            for (who, choice) in [("prolog", prolog), ("rust", rust)] {
                if let Err(problem) = judge(&dealt, &choice) {
                    report.differences += 1;
                    report.first.push(DealDiff {
                        order: index,
                        who,
                        dealt: dealt.clone(),
                        hand: choice.hand,
                        crib: choice.crib,
                        problem,
                    });
                }
            }
            progress.add(1);
            Ok(report)
        })
        .try_reduce(DealReport::default, |a, b| Ok(a.merge(b)))
}

/// Checks that `choice` splits `dealt` into four kept cards and the rest, and that its keep's
/// total over the start cards not dealt is the greatest.
fn judge(dealt: &[Card], choice: &Choice) -> Result<(), String> {
    match judge_keep(dealt, &choice.hand, &choice.crib).expect("a deal is 5 or 6 distinct cards") {
        KeepJudgement::Wrong(fault) => Err(fault.to_string()),
        KeepJudgement::Keep {
            keep, best_total, ..
        } if keep.total != best_total => Err(format!(
            "its keep totals {} over the {} start cards, the best totals {best_total}",
            keep.total, keep.starts
        )),
        KeepJudgement::Keep { .. } => Ok(()),
    }
}

impl DealDiff {
    /// One line for people.
    pub fn line(&self) -> String {
        format!(
            "dealt {}: {} keeps {} and gives {}: {}",
            cards_text(&self.dealt),
            self.who,
            cards_text(&self.hand),
            cards_text(&self.crib),
            self.problem
        )
    }
}
