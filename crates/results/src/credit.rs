//! How much of a select_hand test a keep earns.
//!
//! The assignment marks "the quality of the selections". A keep is judged by its exact total
//! over the possible start cards (crib-core's [`Keep::total`]), relative to the best and the
//! worst keep of the same deal, so the credit means the same on every deal whatever its
//! points.

use crib_core::Keep;
use serde::{Deserialize, Serialize};

/// The credit scale for select_hand tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum SelectCredit {
    /// Full credit for a keep with the best total (any of tied keeps). A worse keep earns
    /// at most half: `0.5 × x⁴`, where `x = (chosen − worst) / (best − worst)` is how much
    /// of the gap between the deal's worst and best keep it closes. A keep one point of
    /// expected value short of the best, on a deal whose keeps span eight points, earns
    /// 0.5 × (7/8)⁴ = 0.29; one halfway between worst and best earns 0.03; the worst keep
    /// earns 0.
    ///
    /// Why: a ratio of expected values gives a keep chosen at random about 80% (every keep of a
    /// deal scores some points), so it cannot tell a strategy from luck; a linear scale between
    /// worst and best still gives random keeps over 40%. Halving and the fourth power put a
    /// random keep under a fifth of the marks while a solution that slips on one test in
    /// twenty keeps over nine tenths. `docs/DESIGN.md` has the table of baselines.
    #[default]
    Graded,
    /// The chosen keep's total divided by the best total (1 when every keep totals 0): the
    /// scale of crib 0.1.
    Ratio,
}

/// The scale's name as in JSON and on the command line: `graded` or `ratio`.
impl std::fmt::Display for SelectCredit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::names::write_json_name(self, f)
    }
}

impl SelectCredit {
    /// Returns the credit, in `0.0..=1.0`, of a keep totalling `chosen` among `keeps`, every
    /// keep of one deal (as [`crib_core::rank_keeps`] gives them).
    ///
    /// # Example
    /// ```
    /// use crib_results::SelectCredit;
    /// let dealt = crib_core::parse_cards(&["5H", "5S", "5C", "JD", "2C", "9H"])?;
    /// let keeps = crib_core::rank_keeps(&dealt)?;
    /// let (best, worst) = (keeps[0].total, keeps[keeps.len() - 1].total);
    /// assert_eq!(SelectCredit::Graded.credit(best, &keeps), 1.0);
    /// assert_eq!(SelectCredit::Graded.credit(worst, &keeps), 0.0);
    /// assert!(SelectCredit::Graded.credit(keeps[1].total, &keeps) <= 0.5);
    /// # Ok::<(), crib_core::CardError>(())
    /// ```
    pub fn credit(self, chosen: u32, keeps: &[Keep]) -> f64 {
        let best = keeps.iter().map(|k| k.total).max().unwrap_or(0);
        let worst = keeps.iter().map(|k| k.total).min().unwrap_or(0);
        if chosen >= best {
            return 1.0;
        }
        match self {
            SelectCredit::Graded => {
                let x = f64::from(chosen.saturating_sub(worst)) / f64::from(best - worst);
                0.5 * x.powi(4)
            }
            SelectCredit::Ratio => f64::from(chosen) / f64::from(best),
        }
    }
}

/// Returns the share of the hand_value marks earned by a submission that gets `share_wrong`
/// (in 0..=1) of the 12,994,800 (hand, start) pairs wrong: `1 − √share_wrong`.
///
/// Why the square root: the marks must follow how much of hand_value is wrong (a mistake
/// wrong on more pairs never loses less), yet a rule missed on rare hands must still cost
/// something a student notices. Linear, missing the five-card flush (0.2% of pairs) would
/// cost 0.1 of 50 marks; with the root it costs 2.2, a forgotten flush rule (1.1%) 5.2, a
/// forgotten nob (7.2%) 13.4, and a hand_value wrong on half the pairs 35.
///
/// # Example
/// ```
/// use crib_results::hand_value_credit;
/// assert_eq!(hand_value_credit(0.0), 1.0);
/// assert_eq!(hand_value_credit(1.0), 0.0);
/// assert!((hand_value_credit(0.01) - 0.9).abs() < 1e-12);
/// ```
pub fn hand_value_credit(share_wrong: f64) -> f64 {
    if share_wrong.is_nan() {
        return 0.0;
    }
    1.0 - share_wrong.clamp(0.0, 1.0).sqrt()
}

#[cfg(test)]
mod tests;
