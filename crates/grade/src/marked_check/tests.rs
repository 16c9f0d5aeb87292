use super::*;
use crate::protocol::Outcome;
use crib_core::{Breakdown, Hand, Rule};
use crib_testset::seed::Seed;

pub(super) fn items() -> &'static [PatternItem] {
    &crate::test_set().hand_value
}

fn points(item: &PatternItem) -> Points {
    let hand = Hand::new(item.hand()).unwrap();
    Breakdown::new(&hand, item.start(), Rule::Hand)
        .unwrap()
        .points()
}

/// The answers of a hand_value that scores the rules as `score` does from crib-core's
/// points and the item.
pub(super) fn answers(score: impl Fn(&PatternItem, Points) -> i64) -> Vec<Option<ItemOutcome>> {
    items()
        .iter()
        .map(|i| Some(ItemOutcome::Int(score(i, points(i)))))
        .collect()
}

#[test]
fn a_right_hand_value_loses_nothing() {
    let check = judge(items(), &answers(|i, _| i64::from(i.expected)));
    assert_eq!(check.checked, crib_results::PATTERNS);
    assert_eq!((check.pairs_wrong, check.share_wrong), (0.0, 0.0));
    assert!(check.areas.is_empty() && check.kinds.is_empty());
}

#[test]
fn each_mistake_lands_in_its_area_with_its_share() {
    // Runs counted twice: wrong exactly on the hands with runs (about 22% of pairs).
    let runs = judge(
        items(),
        &answers(|i, p| i64::from(i.expected) + i64::from(p.runs)),
    );
    assert_eq!(runs.areas.len(), 1, "{:?}", runs.areas);
    assert_eq!(runs.areas[0].area, Area::Runs);
    assert!(
        (runs.share_wrong - 0.222).abs() < 0.01,
        "{}",
        runs.share_wrong
    );
    // Any jack scores his nob: about 21% of pairs, all in the nob area.
    let nob = judge(
        items(),
        &answers(|i, p| {
            let jack = i.hand().iter().any(|c| c.rank() == Rank::Jack);
            i64::from(i.expected) - i64::from(p.nob) + i64::from(jack)
        }),
    );
    assert_eq!(nob.areas.len(), 1, "{:?}", nob.areas);
    assert_eq!(nob.areas[0].area, Area::Nob);
    assert!(
        (nob.share_wrong - 0.209).abs() < 0.01,
        "{}",
        nob.share_wrong
    );
    // A five-card flush scored as four: 0.2% of pairs, all in the flush area.
    let five = judge(
        items(),
        &answers(|i, p| i64::from(i.expected) - i64::from(p.flush == 5)),
    );
    assert_eq!(five.areas.len(), 1, "{:?}", five.areas);
    assert_eq!(five.areas[0].area, Area::Flush);
    assert!(five.share_wrong > 0.001 && five.share_wrong < 0.003);
    assert!(five.areas[0].simplest.breakdown.contains("flush 5"));
    // Failures are no answer at all.
    let fails = judge(
        items(),
        &items()
            .iter()
            .map(|i| {
                Some(if i.expected == 0 {
                    ItemOutcome::Outcome(Outcome::Fail)
                } else {
                    ItemOutcome::Int(i64::from(i.expected))
                })
            })
            .collect::<Vec<_>>(),
    );
    assert_eq!(fails.areas[0].area, Area::NoAnswer);
}

#[test]
fn a_sample_is_scaled_up_and_nothing_answered_is_all_wrong() {
    let mut partial = answers(|i, p| i64::from(i.expected) + i64::from(p.runs));
    let half = partial.len() / 2;
    for answer in &mut partial[half..] {
        *answer = None;
    }
    let check = judge(items(), &partial);
    assert_eq!(check.checked, patterns::patterns_in(&items()[..half]));
    assert!(
        (check.share_wrong - 0.222).abs() < 0.02,
        "{}",
        check.share_wrong
    );
    let none = judge(items(), &vec![None; items().len()]);
    assert_eq!((none.checked, none.share_wrong), (0, 1.0));
}

/// Marks of a rank-only mistake barely move with the seed: every pattern is asked, only
/// the weights of the suits drawn differ.
#[test]
fn shares_hardly_depend_on_the_seed() {
    let shares: Vec<f64> = (1..=5u8)
        .map(|k| {
            let items = crib_testset::patterns::items(&Seed::from_bytes([k; 32]));
            let answers: Vec<Option<ItemOutcome>> = items
                .iter()
                .map(|i| {
                    Some(ItemOutcome::Int(
                        i64::from(i.expected) + i64::from(points(i).pairs / 2),
                    ))
                })
                .collect();
            judge(&items, &answers).share_wrong
        })
        .collect();
    let (lo, hi) = shares
        .iter()
        .fold((1.0f64, 0.0f64), |(lo, hi), s| (lo.min(*s), hi.max(*s)));
    let marks = |s: f64| crib_results::hand_value_credit(s) * 50.0;
    assert!(marks(lo) - marks(hi) < 0.5, "{shares:?}");
}
