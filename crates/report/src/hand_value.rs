//! The marked hand_value/3 check across the class: where the errors show ([`Area`]), how
//! many submissions err there and how much, and the simplest failing hand of each area.
//! Each result carries its own check ([`SubmissionResult::hand_value`]).

use crib_core::PAIRS;
use crib_results::{Area, AreaCount, Counterexample, HandValueCheck, SubmissionResult};

use crate::deep::simplicity;
use crate::stats::mean_median;

/// How the submissions whose hand_value/3 errs in one area do there.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaRow {
    /// The area.
    pub area: Area,
    /// The submissions with a failing item in the area, as indices into the reports, in
    /// report order.
    pub members: Vec<usize>,
    /// The median, over the members, of the share of all 12,994,800 pairs their failing
    /// items in the area stand for (`area_share`); 0 without members.
    pub median_share: f64,
    /// The simplest of the members' simplest failing items in the area (lowest expected
    /// value, then lowest ranks), with the member it is from.
    pub example: Option<(usize, Counterexample)>,
}

/// The marked hand_value/3 check of the class.
#[derive(Debug, Clone, PartialEq)]
pub struct HandValueClass {
    /// Submissions whose check ran, as indices into the reports.
    pub checked: Vec<usize>,
    /// Submissions whose check did not run (nothing loaded, or hand_value/3 is missing):
    /// they earn no hand_value marks.
    pub not_checked: Vec<usize>,
    /// Submissions whose check answered every pattern and got every one right.
    pub clean: Vec<usize>,
    /// Submissions whose check answered only a sample of the patterns (the time budget ran
    /// out): their shares are estimates scaled up from it.
    pub sampled: Vec<usize>,
    /// One row per area, in [`Area::ALL`] order, those without members included.
    pub areas: Vec<AreaRow>,
}

/// Returns whether `check` answered only some of its patterns: the time budget ran out, and
/// its share of pairs wrong is estimated from a uniform sample.
pub fn is_sample(check: &HandValueCheck) -> bool {
    check.checked < check.patterns
}

/// Returns the share of all 12,994,800 (hand, start) pairs that the failing items counted in
/// `pairs` stand for, in 0..=1.
pub fn area_share(pairs: f64) -> f64 {
    (pairs / PAIRS as f64).clamp(0.0, 1.0)
}

impl HandValueClass {
    /// Returns the hand_value/3 check of the class of `reports`.
    pub fn new(reports: &[SubmissionResult]) -> HandValueClass {
        let check = |i: usize| reports[i].hand_value.as_ref();
        let all = 0..reports.len();
        let checked: Vec<usize> = all.clone().filter(|&i| check(i).is_some()).collect();
        let having = |f: &dyn Fn(&HandValueCheck) -> bool| -> Vec<usize> {
            checked
                .iter()
                .copied()
                .filter(|&i| check(i).is_some_and(f))
                .collect()
        };
        let areas = Area::ALL
            .iter()
            .map(|&area| {
                let counts: Vec<(usize, &AreaCount)> = (checked.iter())
                    .filter_map(|&i| {
                        let areas = &check(i)?.areas;
                        Some((i, areas.iter().find(|a| a.area == area && a.items > 0)?))
                    })
                    .collect();
                let shares = counts.iter().map(|(_, c)| area_share(c.pairs)).collect();
                AreaRow {
                    area,
                    members: counts.iter().map(|&(i, _)| i).collect(),
                    median_share: mean_median(shares).1,
                    // The first of the simplest.
                    example: (counts.iter())
                        .min_by_key(|(_, c)| simplicity(&c.simplest))
                        .map(|&(i, c)| (i, c.simplest.clone())),
                }
            })
            .collect();
        HandValueClass {
            not_checked: all.filter(|&i| check(i).is_none()).collect(),
            clean: having(&|h| !is_sample(h) && h.pairs_wrong == 0.0 && h.kinds.is_empty()),
            sampled: having(&is_sample),
            areas,
            checked,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
