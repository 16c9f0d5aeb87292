//! The marked hand_value/3 check: every rank pattern asked once, in batches, judged against
//! crib-core, its wrong items weighted into an estimate of the share of all pairs the
//! submission gets wrong (see [`crate::patterns`]), grouped by where the error shows and
//! explained by the deep check's diagnosis.
//!
//! It runs in the grader's sandbox and limits like the tests (1 s of CPU per call), through
//! the batch driver ([`crate::batch`]): one child per core the submission has to itself
//! ([`Place::cores`]) answers its share of the items in the seeded order and reports in
//! chunks; a crash, a hang or an overrun costs only the item it was on. A check limited by
//! [`crate::Limits::hand_value_patterns`] has answered a prefix of the seeded order; one cut
//! short by [`crate::Limits::hand_value_budget`], a prefix of each child's share of it. Either
//! is a uniform sample of the patterns (the order is random), and the share is estimated from
//! it. What is wrong rule by rule, in the student's words, is `rules.rs`'s model search.

use std::time::Instant;

use crib_core::{Points, Rank, PAIRS};
use crib_results::{Area, AreaCount, DeepHandValue, FailureKind, HandValueCheck, Predicate};

use crate::batch::{self, Batch};
use crate::child::Place;
use crate::deep::{self, Asked};
use crate::protocol::ItemOutcome;
use crib_testset::patterns::{self, PatternItem};

/// The file of marked hand_value inputs in the grader's directory.
pub(crate) const FILE: &str = "hand_value.bin";

/// Runs the marked hand_value check of the submission at `place` on `items` (whose batch
/// file is [`FILE`] in the grader's directory), on the place's cores; `beside`: beside other
/// work that holds one of them until it gives it up, and may call the check off.
/// Never fails: what goes wrong is part of the result.
pub(crate) fn check(
    place: &Place<'_>,
    items: &[PatternItem],
    beside: Option<&batch::Beside<'_>>,
) -> HandValueCheck {
    let started = Instant::now();
    let file = place.lane.grader().join(FILE);
    let asked = place
        .limits
        .hand_value_patterns
        .map_or(items.len(), |n| patterns::items_of_first(items, n));
    let batch = Batch::check(
        Predicate::HandValue,
        "the marked hand_value check",
        &file,
        asked,
        place.limits.hand_value,
    );
    let cores = place.cores.get();
    let jobs = if beside.is_some() { cores - 1 } else { cores };
    let mut run = batch::run(
        place,
        &batch,
        jobs.max(1),
        place.limits.hand_value_budget,
        beside,
    );
    // The patterns not asked count as not answered.
    run.answers.resize(items.len(), None);
    let mut check = judge(items, &run.answers);
    check.stopped = run.stop.map(|stop| stop.text(&batch)).or_else(|| {
        (asked < items.len()).then(|| {
            let n = patterns::patterns_in(&items[..asked]);
            format!("asked only the first {n} patterns of the seed's order")
        })
    });
    check.children = run.children;
    check.elapsed_ms = started.elapsed().as_millis() as u64;
    check
}

/// Judges the answers to `items` (`None`: not answered).
pub(crate) fn judge(items: &[PatternItem], answers: &[Option<ItemOutcome>]) -> HandValueCheck {
    let asked: Vec<Asked> = items
        .iter()
        .map(|i| Asked {
            cards: i.cards,
            weight: i.weight.round() as u64,
            expected: i.expected,
        })
        .collect();
    let DeepHandValue {
        classes_checked: items_answered,
        kinds,
        counterexamples,
        diagnosis,
        ..
    } = deep::judge(&asked, answers);
    // The share is a ratio of exact weights: the failing items' over the answered items'
    // (so a sample needs no scaling, and wrong everywhere is exactly 1).
    let answered: f64 = items
        .iter()
        .zip(answers)
        .filter(|(_, got)| got.is_some())
        .map(|(item, _)| item.weight)
        .sum();
    let scale = if answered > 0.0 { 1.0 / answered } else { 0.0 };
    // Each failing item's candidate areas; each then goes to the candidate most failing
    // pairs share, so one mistake's hands land together.
    let mut failing: Vec<(usize, f64, Vec<Area>)> = Vec::new();
    let mut wrong = 0.0;
    for (k, (item, got)) in items.iter().zip(answers).enumerate() {
        let Some(got) = got else { continue };
        let Some(kind) = deep::failure(got, item.expected) else {
            continue;
        };
        // A share of the pairs answered.
        let weight = item.weight * scale;
        wrong += item.weight;
        failing.push((k, weight, candidates(kind, got, item)));
    }
    let support = support(
        failing
            .iter()
            .map(|(_, weight, areas)| (*weight, &areas[..])),
    );
    // (area, items, pairs, the simplest item's simplicity, its index)
    type Tally = (Area, usize, f64, (u32, u32, [u8; 5]), usize);
    let mut areas: Vec<Tally> = Vec::new();
    for (k, weight, candidates) in &failing {
        let area = likeliest(candidates, &support);
        let simplicity = deep::simplicity(&items[*k].cards);
        match areas.iter_mut().find(|a| a.0 == area) {
            Some(a) => {
                a.1 += 1;
                a.2 += weight;
                if simplicity < a.3 {
                    (a.3, a.4) = (simplicity, *k);
                }
            }
            None => areas.push((area, 1, *weight, simplicity, *k)),
        }
    }
    areas.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    let areas = areas
        .into_iter()
        .map(|(area, n, pairs, _, k)| {
            let got = answers[k].as_ref().expect("a failing item was answered");
            let kind = deep::failure(got, items[k].expected).expect("it failed");
            AreaCount {
                area,
                items: n,
                pairs: pairs * PAIRS as f64,
                simplest: deep::counterexample(kind, &items[k].cards, got),
            }
        })
        .collect();
    let share_wrong = if items_answered == 0 {
        1.0
    } else {
        (wrong * scale).clamp(0.0, 1.0)
    };
    HandValueCheck {
        patterns: patterns::patterns_in(items),
        checked: patterns::patterns_answered(items, answers),
        pairs_wrong: share_wrong * PAIRS as f64,
        share_wrong,
        stopped: None,
        kinds,
        areas,
        counterexamples,
        diagnosis,
        rules: rules::diagnose(items, answers),
        children: 0,
        elapsed_ms: 0,
    }
}

/// Returns each area's support: the summed weight of the failing items (each given with
/// its weight and the areas that could explain it) that it could explain.
pub(crate) fn support<'a>(
    failing: impl Iterator<Item = (f64, &'a [Area])>,
) -> [f64; Area::ALL.len()] {
    let mut support = [0.0f64; Area::ALL.len()];
    for (weight, areas) in failing {
        for area in areas {
            support[*area as usize] += weight;
        }
    }
    support
}

/// Returns the area of a failing item: of the `candidates` that could explain it, the one
/// with the most [`support`] (ties to the first in [`Area::ALL`]; `NoPoints` for none).
pub(crate) fn likeliest(candidates: &[Area], support: &[f64; Area::ALL.len()]) -> Area {
    candidates
        .iter()
        .copied()
        .max_by(|a, b| {
            support[*a as usize]
                .total_cmp(&support[*b as usize])
                .then(b.cmp(a))
        })
        .unwrap_or(Area::NoPoints)
}

/// Returns the areas where a failing answer's error could show. No integer: no answer. Too
/// few points: each rule scoring at least the shortfall (else every rule that scores). Too
/// many: every rule that scores, the flush when three or more hand cards share a suit, his
/// nob when a jack is dealt; a hand worth nothing given points by none of them: no points.
fn candidates(kind: FailureKind, got: &ItemOutcome, item: &PatternItem) -> Vec<Area> {
    let (Some(value), FailureKind::WrongAnswer) = (got.int(), kind) else {
        return vec![Area::NoAnswer];
    };
    let d = value - i64::from(item.expected);
    let Points {
        fifteens,
        pairs,
        runs,
        flush,
        nob,
    } = deep::points_of(&item.cards);
    let scoring: Vec<(Area, i64)> = [
        (Area::Fifteens, fifteens),
        (Area::Pairs, pairs),
        (Area::Runs, runs),
        (Area::Flush, flush),
        (Area::Nob, nob),
    ]
    .into_iter()
    .filter(|(_, p)| *p > 0)
    .map(|(a, p)| (a, i64::from(p)))
    .collect();
    let mut out: Vec<Area> = scoring
        .iter()
        .filter(|(_, p)| d < 0 && *p >= -d)
        .map(|(a, _)| *a)
        .collect();
    if out.is_empty() {
        out = scoring.iter().map(|(a, _)| *a).collect();
    }
    if d > 0 {
        let hand = item.hand();
        let most_of_a_suit = hand
            .iter()
            .map(|c| hand.iter().filter(|h| h.suit() == c.suit()).count())
            .max()
            .unwrap_or(0);
        if most_of_a_suit >= 3 && !out.contains(&Area::Flush) {
            out.push(Area::Flush);
        }
        let jack = item.cards.iter().any(|c| c.rank() == Rank::Jack);
        if jack && !out.contains(&Area::Nob) {
            out.push(Area::Nob);
        }
    }
    if out.is_empty() {
        out.push(Area::NoPoints);
    }
    out
}

mod rules;

#[cfg(test)]
mod tests;
