//! The deep check (`crib grade --deep`) across the class: submissions grouped by what their
//! hand_value/3 gets wrong, and how the shares of wrong pairs and of deals not optimal spread.
//!
//! A result carries its deep check in [`SubmissionResult::deep`]; results without one (graded without
//! `--deep`) are left out of everything here, and a class without any has no [`DeepClass`].

use std::collections::BTreeMap;

use crib_core::Card;
use crib_results::{Counterexample, DeepHandValue, DeepSelectHand, SubmissionResult};

/// The bins of a share of failing inputs, as the page labels them: none, then by powers of
/// ten, then the majority. [`share_bin`] says which bin a share falls in.
pub const SHARE_BINS: [&str; 6] = [
    "0",
    "<0.1%",
    "0.1\u{2013}1%",
    "1\u{2013}10%",
    "10\u{2013}50%",
    "\u{2265}50%",
];

/// Returns the index in [`SHARE_BINS`] of `share` (in 0..=1): 0 only for exactly 0, then
/// `(0, 0.001)`, `[0.001, 0.01)`, `[0.01, 0.1)`, `[0.1, 0.5)` and `[0.5, 1]`. A share outside
/// 0..=1 or NaN counts in the nearest bin (NaN as 0).
pub fn share_bin(share: f64) -> usize {
    match share {
        s if s.is_nan() || s <= 0.0 => 0,
        s if s < 0.001 => 1,
        s if s < 0.01 => 2,
        s if s < 0.1 => 3,
        s if s < 0.5 => 4,
        _ => 5,
    }
}

/// Submissions counted into `SHARE_BINS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareHistogram {
    /// What is counted, e.g. `hand_value/3: pairs wrong`.
    pub title: String,
    /// What the bins are shares of, for the x axis.
    pub x_desc: String,
    /// Submissions per bin of `SHARE_BINS`.
    pub counts: Vec<usize>,
}

impl ShareHistogram {
    fn new(title: &str, x_desc: &str, shares: impl Iterator<Item = f64>) -> ShareHistogram {
        let mut counts = vec![0; SHARE_BINS.len()];
        for share in shares {
            counts[share_bin(share)] += 1;
        }
        ShareHistogram {
            title: title.into(),
            x_desc: x_desc.into(),
            counts,
        }
    }

    /// Returns how many submissions are counted.
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }
}

/// Submissions whose hand_value/3 deep check has the same top finding.
#[derive(Debug, Clone, PartialEq)]
pub struct FindingGroup {
    /// The top finding in words: the diagnosis's first finding (`every failing hand has a
    /// run with a duplicated rank (a double or triple run), and no passing hand does`), or,
    /// when there is none, why (`every pair checked fails (exception)`).
    pub finding: String,
    /// The submissions, as indices into the reports, in report order.
    pub members: Vec<usize>,
    /// The least and the greatest share of pairs wrong among them.
    pub shares: (f64, f64),
    /// The simplest counterexample among the members' first ones (lowest expected value,
    /// then lowest ranks), with the member it is from.
    pub example: Option<(usize, Counterexample)>,
}

/// The deep check of the class.
#[derive(Debug, Clone, PartialEq)]
pub struct DeepClass {
    /// Submissions with a deep check, as indices into the reports.
    pub checked: Vec<usize>,
    /// Of them, those whose hand_value/3 was not checked (not defined).
    pub hand_value_missing: Vec<usize>,
    /// Those whose hand_value/3 got every pair checked right.
    pub hand_value_clean: Vec<usize>,
    /// Those whose hand_value/3 check stopped before every class in it was answered (the
    /// budget ran out): their counts are of a seeded random sample.
    pub hand_value_partial: Vec<usize>,
    /// Those whose hand_value/3 check covered fewer than all 12,994,800 pairs by request
    /// (`--deep-classes N`).
    pub hand_value_sampled: Vec<usize>,
    /// Those with a failing pair, grouped by top finding, largest group first.
    pub groups: Vec<FindingGroup>,
    /// The share of pairs wrong, over the submissions whose check answered a pair.
    pub wrong_shares: ShareHistogram,
    /// Submissions whose select_hand/3 was checked on at least one deal.
    pub select_checked: Vec<usize>,
    /// Of them, those with an optimal keep on every deal checked.
    pub select_optimal: Vec<usize>,
    /// Those whose select_hand/3 check stopped before every deal was answered.
    pub select_partial: Vec<usize>,
    /// The share of deals not optimal, over `select_checked`.
    pub not_optimal_shares: ShareHistogram,
}

/// Returns what a check's failures are grouped under, in words (see
/// [`FindingGroup::finding`]); `None` when it answered at least one pair and every answer was
/// right.
pub fn top_finding(check: &DeepHandValue) -> Option<String> {
    if check.classes_checked == 0 {
        return Some(match &check.stopped {
            Some(why) => format!("no pair was answered ({why})"),
            None => "no pair was answered".into(),
        });
    }
    if check.failing_pairs == 0 {
        return None;
    }
    if let Some(f) = check.diagnosis.findings.first() {
        return Some(f.text.clone());
    }
    if check.failing_pairs >= check.pairs_checked {
        let kinds: Vec<String> = check.kinds.iter().map(|k| k.kind.to_string()).collect();
        return Some(format!("every pair checked fails ({})", kinds.join(", ")));
    }
    Some("no feature of the hand separates failing from passing pairs".into())
}

impl DeepClass {
    /// Returns the deep check of the class, or `None` when no report has one.
    pub fn new(reports: &[SubmissionResult]) -> Option<DeepClass> {
        let checked: Vec<usize> = (0..reports.len())
            .filter(|&i| reports[i].deep.is_some())
            .collect();
        if checked.is_empty() {
            return None;
        }
        let hand = |i: usize| reports[i].deep.as_ref().and_then(|d| d.hand_value.as_ref());
        let select = |i: usize| {
            reports[i]
                .deep
                .as_ref()
                .and_then(|d| d.select_hand.as_ref())
                .filter(|s| s.checked > 0)
        };
        let having = |f: &dyn Fn(usize) -> bool| -> Vec<usize> {
            checked.iter().copied().filter(|&i| f(i)).collect()
        };
        let mut groups: BTreeMap<String, FindingGroup> = BTreeMap::new();
        for &i in &checked {
            let Some(check) = hand(i) else { continue };
            let Some(finding) = top_finding(check) else {
                continue;
            };
            let share = check.wrong_share().unwrap_or(0.0);
            let g = groups.entry(finding.clone()).or_insert(FindingGroup {
                finding,
                members: Vec::new(),
                shares: (share, share),
                example: None,
            });
            g.members.push(i);
            g.shares = (g.shares.0.min(share), g.shares.1.max(share));
            if let Some(c) = check.counterexamples.first() {
                let simpler = g
                    .example
                    .as_ref()
                    .is_none_or(|(_, e)| simplicity(c) < simplicity(e));
                if simpler {
                    g.example = Some((i, c.clone()));
                }
            }
        }
        // Largest first; a stable sort keeps the map's order of findings among equals.
        let mut groups: Vec<FindingGroup> = groups.into_values().collect();
        groups.sort_by_key(|g| std::cmp::Reverse(g.members.len()));
        Some(DeepClass {
            hand_value_missing: having(&|i| hand(i).is_none()),
            hand_value_clean: having(&|i| hand(i).is_some_and(|h| top_finding(h).is_none())),
            hand_value_partial: having(&|i| hand(i).is_some_and(DeepHandValue::is_partial)),
            hand_value_sampled: having(&|i| hand(i).is_some_and(DeepHandValue::is_sampled)),
            groups,
            wrong_shares: ShareHistogram::new(
                "hand_value/3: share of pairs wrong",
                "pairs wrong",
                checked
                    .iter()
                    .filter_map(|&i| hand(i).and_then(DeepHandValue::wrong_share)),
            ),
            select_checked: having(&|i| select(i).is_some()),
            select_optimal: having(&|i| select(i).is_some_and(|s| s.optimal == s.checked)),
            select_partial: having(&|i| select(i).is_some_and(|s| s.checked < s.deals)),
            not_optimal_shares: ShareHistogram::new(
                "select_hand/3: share of deals not optimal",
                "deals not optimal",
                checked
                    .iter()
                    .filter_map(|&i| select(i).and_then(DeepSelectHand::not_optimal_share)),
            ),
            checked,
        })
    }
}

/// Orders counterexamples from simplest: lowest expected value, then lowest ranks, then by
/// the cards.
pub(crate) fn simplicity(c: &Counterexample) -> (u8, u32, Vec<u8>) {
    let cards = || c.hand.iter().chain(std::iter::once(&c.start));
    let ranks = cards().map(|card| u32::from(card.rank().number())).sum();
    let mut order: Vec<u8> = cards().map(|card: &Card| card.index()).collect();
    order.sort_unstable();
    (c.expected, ranks, order)
}

#[cfg(test)]
pub(crate) mod tests;
