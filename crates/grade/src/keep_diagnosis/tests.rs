use super::*;
use crate::test_set;
use crib_testset::strategy::MODELLED_MISTAKES;

/// The test set's deals answered as `strategy` breaking ties by `ties` answers them.
fn answered(strategy: Strategy, ties: TieBreak) -> Vec<Seen> {
    test_set()
        .cases
        .iter()
        .map(|case| {
            let deal = Deal::new(case.cards.clone());
            let keep = deal.choice(strategy, ties);
            let kept = (keep.total < deal.best_total()).then(|| CardSet::of(&keep.keep));
            Seen {
                goal: case.goal(),
                source: case.source,
                kept,
                deal,
            }
        })
        .collect()
}

/// Returns whether two models choose the same keep on every deal of the test set: no
/// answer can tell them apart.
fn same_keeps(a: (Strategy, TieBreak), b: (Strategy, TieBreak)) -> bool {
    test_set().cases.iter().all(|case| {
        let deal = Deal::new(case.cards.clone());
        deal.choice(a.0, a.1).keep == deal.choice(b.0, b.1).keep
    })
}

#[test]
fn the_right_keeps_have_nothing_wrong() {
    for ties in TieBreak::ALL {
        let seen = answered(Strategy::Sum(Starts::NotDealt), ties);
        assert!(seen.iter().all(|s| s.kept.is_none()));
        assert!(diagnose_seen(&seen, &[]).is_none());
    }
}

#[test]
fn each_catalog_mistake_is_diagnosed_as_itself() {
    let mut wrong = Vec::new();
    for m in SELECT_MISTAKES {
        let seen = answered(m.strategy, m.ties);
        let Some((fit, d)) = diagnose_seen(&seen, &[]) else {
            wrong.push(format!("{}: nothing found wrong", m.id));
            continue;
        };
        let expected = keep_mistake(m.strategy).unwrap();
        let Some(fit) = fit else {
            wrong.push(format!("{}: unexplained: {d:?}", m.id));
            continue;
        };
        if fit.mistake != expected && !same_keeps((fit.strategy, fit.ties), (m.strategy, m.ties)) {
            wrong.push(format!("{}: diagnosed as {fit:?}", m.id));
        }
        if d.explained != d.failing || fit.precision < 1.0 {
            wrong.push(format!(
                "{}: explains {} of {}",
                m.id, d.explained, d.failing
            ));
        }
        // The example is a deal the submission failed, valued by crib-core.
        let e = &d.example;
        if e.chosen.total >= e.best.total || e.starts != 46 && e.starts != 47 {
            wrong.push(format!("{}: example {e:?}", m.id));
        }
        println!("{}: {}", m.id, d.lines().join("\n    "));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn select_hand_on_a_wrong_hand_value_is_diagnosed_and_follows_it() {
    let mut wrong = Vec::new();
    for m in MODELLED_MISTAKES {
        let seen = answered(m.strategy, m.ties);
        let expected = keep_mistake(m.strategy).unwrap();
        let KeepMistake::WrongHandValue { rule: Some(rule) } = expected else {
            wrong.push(format!("{}: no words for {:?}", m.id, m.strategy));
            continue;
        };
        if seen.iter().all(|s| s.kept.is_none()) {
            // The test set has no deal this mistake changes the keep of: nothing to say.
            assert!(diagnose_seen(&seen, &[rule]).is_none());
            continue;
        }
        // As graded: hand_value/3's diagnosis found the same mistake.
        let Some((Some(fit), d)) = diagnose_seen(&seen, &[rule]) else {
            wrong.push(format!("{}: not explained", m.id));
            continue;
        };
        if fit.mistake != expected && !same_keeps((fit.strategy, fit.ties), (m.strategy, m.ties)) {
            wrong.push(format!("{}: diagnosed as {fit:?}", m.id));
        }
        if !d.follows_hand_value || !d.words().contains("your hand_value/3") {
            wrong.push(format!("{}: does not say it follows: {}", m.id, d.words()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn keeps_no_model_chooses_are_unexplained_with_the_simplest_deal() {
    // Always the second keep crib-core ranks: no model's rule.
    let seen: Vec<Seen> = test_set()
        .cases
        .iter()
        .map(|case| {
            let deal = Deal::new(case.cards.clone());
            let second = &deal.keeps[1];
            let kept = (second.total < deal.best_total()).then(|| CardSet::of(&second.keep));
            Seen {
                goal: case.goal(),
                source: case.source,
                kept,
                deal,
            }
        })
        .collect();
    let (fit, d) = diagnose_seen(&seen, &[]).expect("some keeps fail");
    assert_eq!(fit, None, "{d:?}");
    assert_eq!(d.verdict, KeepVerdict::Unexplained);
    assert!(d.words().starts_with("the keeps chosen are not the best"));
    assert!(d.example.chosen.expected_value < d.example.best.expected_value);
}

#[test]
fn results_of_a_graded_run_read_back_into_deals() {
    let set = test_set();
    let m = SELECT_MISTAKES
        .iter()
        .find(|m| m.id == "sh-starts-48")
        .unwrap();
    let tests: Vec<TestResult> = set
        .cases
        .iter()
        .map(|case| {
            let deal = Deal::new(case.cards.clone());
            let keep = deal.choice(m.strategy, m.ties);
            let verdict = if keep.total < deal.best_total() {
                Verdict::Suboptimal {
                    chosen: KeepValue::new(keep),
                    best: vec![KeepValue::new(&deal.keeps[0])],
                }
            } else {
                Verdict::Pass
            };
            TestResult {
                id: case.id.clone(),
                predicate: crib_results::Predicate::SelectHand,
                source: case.source,
                goal: case.goal(),
                verdict,
                credit: Some(1.0),
                time_ms: 1,
                cpu_ms: None,
            }
        })
        .collect();
    let d = diagnose(&set.cases, &tests, &[]).expect("sh-starts-48 fails some deals");
    assert_eq!(
        d.verdict,
        KeepVerdict::Mistake(KeepMistake::DiscardsAsStarts)
    );
    assert_eq!(d.passing + d.failing, set.cases.len());
    assert!(d
        .words()
        .starts_with("the cards you discard are counted among the possible start cards"));
    // Other verdicts are left out; a keep that is not four of the dealt cards is too.
    let mut odd = tests.clone();
    odd[0].verdict = Verdict::NoSolution;
    if let Verdict::Suboptimal { chosen, .. } = &mut odd[1].verdict {
        chosen.keep.0.truncate(3);
    }
    let d2 = diagnose(&set.cases, &odd, &[]).unwrap();
    assert!(d2.passing + d2.failing < set.cases.len());
}
