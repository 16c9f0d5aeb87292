use super::*;
use crate::marked_check::tests::{answers, items};
use crate::protocol::{ItemOutcome, Outcome};
use crib_core::Points;

/// The findings' rules and verdicts.
fn verdicts(findings: &[RuleFinding]) -> Vec<(Area, RuleVerdict)> {
    findings.iter().map(|f| (f.rule, f.verdict)).collect()
}

#[test]
fn a_right_hand_value_has_nothing_wrong() {
    assert!(diagnose(items(), &answers(|i, _| i64::from(i.expected))).is_empty());
}

#[test]
fn counting_only_fifteens_is_four_rules_never_counted() {
    let found = diagnose(items(), &answers(|_, p| i64::from(p.fifteens)));
    assert_eq!(
        verdicts(&found),
        [
            (Area::Pairs, RuleVerdict::Mistake(RuleMistake::PairsMissing)),
            (Area::Runs, RuleVerdict::Mistake(RuleMistake::RunsMissing)),
            (Area::Flush, RuleVerdict::Mistake(RuleMistake::FlushMissing)),
            (Area::Nob, RuleVerdict::Mistake(RuleMistake::NobMissing)),
        ],
        "{found:#?}"
    );
    for f in &found {
        // Each example shows its rule alone: the other rules score nothing there.
        let p = f.example.points;
        let others = p.total() - p.fifteens;
        assert_eq!(Some(others), f.expected_points, "{f:#?}");
        assert_eq!(f.got_points, Some(0));
    }
    assert_eq!(found[1].words(), "runs are never counted");
    let explained: f64 = found.iter().map(|f| f.explains).sum();
    assert!(explained > 0.99, "{explained}");
}

#[test]
fn two_mistakes_in_two_rules_are_both_named() {
    // Faces worth 11-13 in fifteens, and a flush of four in the hand not counted.
    let found = diagnose(
        items(),
        &answers(|i, p: Points| {
            let ranks = i.cards.map(|c| c.rank().number());
            let faces = 2 * crib_core::fifteen_sets(ranks).count() as i64;
            let flush = if p.flush == 4 { 0 } else { i64::from(p.flush) };
            i64::from(p.pairs + p.runs + p.nob) + faces + flush
        }),
    );
    assert_eq!(
        verdicts(&found),
        [
            (
                Area::Fifteens,
                RuleVerdict::Mistake(RuleMistake::FifteensFacesByRank)
            ),
            (
                Area::Flush,
                RuleVerdict::Mistake(RuleMistake::FlushFourMissing)
            ),
        ],
        "{found:#?}"
    );
    assert_eq!(
        found[1].words(),
        "a flush of four in the hand is not counted (the start card need not match)"
    );
}

#[test]
fn failing_where_a_rule_scores_nothing_is_named() {
    let found = diagnose(
        items(),
        &items()
            .iter()
            .map(|i| {
                Some(if deep::points_of(&i.cards).runs == 0 {
                    ItemOutcome::Outcome(Outcome::Fail)
                } else {
                    ItemOutcome::Int(i64::from(i.expected))
                })
            })
            .collect::<Vec<_>>(),
    );
    assert_eq!(
        verdicts(&found),
        [(Area::Runs, RuleVerdict::FailsWhenNone)],
        "{found:#?}"
    );
    assert!(found[0].words().contains("with no run"));
}

#[test]
fn noise_is_unexplained_not_a_mistake() {
    // One off on hands worth exactly 7: no model says so.
    let found = diagnose(
        items(),
        &answers(|i, _| i64::from(i.expected) + i64::from(i.expected == 7)),
    );
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|f| f.verdict == RuleVerdict::Unexplained),
        "{found:#?}"
    );
}
