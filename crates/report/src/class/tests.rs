use std::sync::OnceLock;

use super::*;
use crib_core::{cards_text, parse_cards, Breakdown, Card, Hand, Rule, PAIRS};
use crib_isolation::{Isolation, Layer};
use crib_results::{
    Area, AreaCount, Cards, Counterexample, Diagnosis, FailureKind, HandValueCheck, KindCount,
    Load, Marks, SelectCredit, TestResult, PATTERNS,
};
use crib_testset::{Seed, TestSet};

/// Returns the test set of seed `byte` (every byte of it `byte`), built once per seed used
/// here (about 50 ms each).
pub(crate) fn test_set(byte: u8) -> &'static TestSet {
    static SETS: [OnceLock<TestSet>; 2] = [OnceLock::new(), OnceLock::new()];
    SETS[usize::from(byte % 2)].get_or_init(|| TestSet::new(&Seed::from_bytes([byte % 2; 32])))
}

/// Returns a report named `name`, graded under seed 0, with one select_hand result per
/// `(test id, verdict)`: `pass`, `suboptimal` (the second-best total kept), `no_solution`,
/// `timeout`, `not_run`; and a hand_value/3 check that got every pattern right.
pub(crate) fn report(name: &str, tests: &[(&str, &str)]) -> SubmissionResult {
    report_under(0, name, tests)
}

/// Returns [`report`]'s report graded under seed `seed` (0 or 1).
pub(crate) fn report_under(seed: u8, name: &str, tests: &[(&str, &str)]) -> SubmissionResult {
    let set = test_set(seed);
    let tests: Vec<TestResult> = tests
        .iter()
        .map(|(id, kind)| {
            let case = set
                .cases
                .iter()
                .find(|c| c.id == *id)
                .unwrap_or_else(|| panic!("{id} is not a test of seed {seed}"));
            let keeps = &case.keeps;
            let best = keeps[0].total;
            let (verdict, credit) = match *kind {
                "pass" => (Verdict::Pass, 1.0),
                "suboptimal" => {
                    let worse = keeps
                        .iter()
                        .find(|k| k.total < best)
                        .expect("a deal has a worse keep");
                    let best = keeps
                        .iter()
                        .take_while(|k| k.total == best)
                        .map(keep_value)
                        .collect();
                    let verdict = Verdict::Suboptimal {
                        chosen: keep_value(worse),
                        best,
                    };
                    (verdict, SelectCredit::Graded.credit(worse.total, keeps))
                }
                "no_solution" => (Verdict::NoSolution, 0.0),
                "timeout" => (
                    Verdict::Timeout {
                        limit_ms: 4000,
                        killed: false,
                        wall: false,
                    },
                    0.0,
                ),
                "not_run" => (
                    Verdict::NotRun {
                        reason: "did not load".into(),
                    },
                    0.0,
                ),
                other => panic!("no verdict {other} here"),
            };
            TestResult {
                id: case.id.clone(),
                predicate: crib_results::Predicate::SelectHand,
                source: case.source,
                goal: case.goal(),
                verdict,
                credit: Some(credit),
                time_ms: 1,
                cpu_ms: Some(1),
            }
        })
        .collect();
    let hand_value = Some(check(&[]));
    SubmissionResult {
        name: name.into(),
        path: format!("{name}.pl"),
        content_hash: String::new(),
        test_set: set.fingerprint.clone(),
        seed_id: set.seed_id.clone(),
        select_credit: SelectCredit::Graded,
        isolation: Isolation::from_layers(&[Layer::Bwrap, Layer::Seccomp]),
        load: Load::default(),
        marks: Marks::new(&tests, hand_value.as_ref()),
        hand_value,
        tests,
        children: 1,
        deep: None,
        quality: None,
        lms: None,
        keep_diagnosis: None,
        produced_by: None,
        elapsed_ms: 1500,
        output: String::new(),
    }
}

fn keep_value(k: &crib_core::Keep) -> KeepValue {
    KeepValue {
        keep: Cards(k.keep.to_vec()),
        discard: Cards(k.discard().to_vec()),
        total: k.total,
        expected_value: (k.expected_value() * 1e4).round() / 1e4,
    }
}

/// Returns `r` with hand_value/3 check `check` (`None`: not run), its marks recomputed.
pub(crate) fn with_hand_value(
    mut r: SubmissionResult,
    check: Option<HandValueCheck>,
) -> SubmissionResult {
    r.hand_value = check;
    r.marks = Marks::new(&r.tests, r.hand_value.as_ref());
    r
}

/// Returns a failing item: `cards` (four hand cards, then the start) answered `got`, with
/// crib-core's value; a `got` that is not an integer is an exception.
pub(crate) fn counterexample(cards: &str, got: &str) -> Counterexample {
    let cards = parse_cards(&cards.split(' ').collect::<Vec<_>>()).expect("cards");
    let hand: [Card; 4] = cards[..4].try_into().expect("four hand cards");
    let b = Breakdown::new(&Hand::new(hand).expect("a hand"), cards[4], Rule::Hand)
        .expect("a breakdown");
    let kind = if got.parse::<i64>().is_ok() {
        FailureKind::WrongAnswer
    } else {
        FailureKind::Exception
    };
    Counterexample {
        kind,
        hand: hand.to_vec(),
        start: cards[4],
        expected: b.points().total(),
        got: got.into(),
        points: b.points(),
        breakdown: format!("{:?}", b.points()),
        goal: format!("hand_value({},{},V)", cards_text(&hand), cards[4]),
    }
}

/// Returns a hand_value/3 check of every pattern whose failing items are `areas`: (area,
/// items, share of all pairs, the simplest item as [`counterexample`] takes it).
pub(crate) fn check(areas: &[(Area, usize, f64, &str, &str)]) -> HandValueCheck {
    let areas: Vec<AreaCount> = areas
        .iter()
        .map(|(area, items, share, cards, got)| AreaCount {
            area: *area,
            items: *items,
            pairs: share * PAIRS as f64,
            simplest: counterexample(cards, got),
        })
        .collect();
    let pairs_wrong: f64 = areas.iter().map(|a| a.pairs).sum();
    let kind = |f: FailureKind| {
        let mine: Vec<&AreaCount> = areas.iter().filter(|a| a.simplest.kind == f).collect();
        (!mine.is_empty()).then(|| KindCount {
            kind: f,
            items: mine.iter().map(|a| a.items).sum(),
            pairs: mine.iter().map(|a| a.pairs.round() as u64).sum(),
        })
    };
    HandValueCheck {
        patterns: PATTERNS,
        checked: PATTERNS,
        pairs_wrong,
        share_wrong: pairs_wrong / PAIRS as f64,
        stopped: None,
        kinds: [FailureKind::WrongAnswer, FailureKind::Exception]
            .into_iter()
            .filter_map(kind)
            .collect(),
        counterexamples: areas.iter().map(|a| a.simplest.clone()).collect(),
        areas,
        diagnosis: Diagnosis {
            summary: "every failing hand scores his nob".into(),
            findings: Vec::new(),
            errors: Vec::new(),
        },
        rules: Vec::new(),
        children: 1,
        elapsed_ms: 2500,
    }
}

#[test]
fn histogram_bins_hold_their_marks() {
    let h = Histogram::new(
        "t",
        70.0,
        14,
        [0.0, 4.99, 5.0, 70.0, 69.9, 75.0, -1.0].into_iter(),
    );
    assert_eq!(h.counts.len(), 14);
    assert_eq!(h.counts[0], 3, "0, 4.99 and -1 (clamped)");
    assert_eq!(h.counts[1], 1);
    assert_eq!(h.counts[13], 3, "69.9, 70 (the top edge) and 75 (clamped)");
    assert_eq!(h.counts.iter().sum::<usize>(), 7);
    assert_eq!(h.width(), 5.0);
}

#[test]
fn mean_and_median() {
    assert_eq!(mean_median(vec![4.0, 1.0, 3.0, 2.0]), (2.5, 2.5));
    assert_eq!(mean_median(vec![70.0, 0.0, 5.0]), (25.0, 5.0));
    assert_eq!(mean_median(vec![]), (0.0, 0.0));
}

#[test]
fn tests_are_ranked_by_failures_with_the_best_keep_from_the_results() {
    let run = "sh:named:keep-the-run";
    let fives = "sh:named:keep-three-fives-and-jack";
    let reports = [
        report("a", &[(fives, "pass"), (run, "suboptimal")]),
        report("b", &[(fives, "pass"), (run, "suboptimal")]),
        report("c", &[(fives, "no_solution"), (run, "timeout")]),
        report("d", &[(fives, "not_run"), (run, "not_run")]),
        report("e", &[(fives, "pass"), (run, "pass")]),
    ];
    let class = Class::new(&reports);
    let ids: Vec<&str> = class.tests.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, [run, fives]);
    let t = &class.tests[0];
    assert_eq!((t.ran, t.failed, t.deals), (4, 3, 1));
    assert_eq!(t.failure_rate(), 0.75);
    assert_eq!(t.source, TestSource::Named);
    let expected = t
        .expected
        .as_deref()
        .expect("a suboptimal verdict has the best");
    assert!(
        expected.starts_with("keep ") && expected.contains("(discard "),
        "{expected}"
    );
    assert!(
        expected.contains("AS") && expected.contains("2D"),
        "{expected}"
    );
    assert_eq!(t.answers.len(), 2);
    assert_eq!(t.answers[0].1, 2);
    assert!(t.answers[0].0.starts_with("kept "), "{:?}", t.answers[0]);
    assert_eq!(t.answers[1].0, "timeout");
    assert_eq!(t.verdicts[0], ("suboptimal", 2));
    assert!(t.credit > 0.25 && t.credit < 0.5, "{}", t.credit);
    let f = &class.tests[1];
    assert_eq!(f.answers[0].0, "no solution");
    assert_eq!(
        f.expected, None,
        "nobody kept a worse hand: no best keep recorded"
    );

    let s = &class.summary;
    assert_eq!(
        (s.submissions, s.loaded, s.crashed, s.timed_out),
        (5, 5, 0, 1)
    );
    assert_eq!(s.seeds, [(test_set(0).seed_id.clone(), 5)]);
    assert_eq!(s.seeds_text(), "1 seed");
    assert_eq!(s.test_sets, [(test_set(0).fingerprint.clone(), 5)]);
    assert_eq!(s.isolation, [("bwrap+seccomp".to_string(), 5)]);
    assert_eq!(s.full_marks, 1, "e got every test and every pattern right");
}

/// Returns the id of the `n`th select_hand test of seed `seed` drawn from the seed (not a
/// named deal).
pub(crate) fn drawn(seed: u8, n: usize) -> &'static str {
    test_set(seed)
        .cases
        .iter()
        .filter(|c| !c.id.starts_with("sh:named:"))
        .nth(n)
        .expect("tests drawn from the seed")
        .id
        .as_str()
}

#[test]
fn results_of_several_seeds_count_the_drawn_tests_together() {
    let named = "sh:named:keep-the-run";
    let (a0, a1, b0) = (drawn(0, 0), drawn(0, 1), drawn(1, 0));
    let reports = [
        report_under(0, "a", &[(named, "pass"), (a0, "suboptimal"), (a1, "pass")]),
        report_under(1, "b", &[(named, "suboptimal"), (b0, "pass")]),
    ];
    assert_ne!(
        reports[0].tests[0].goal, reports[1].tests[0].goal,
        "the named deal's cards are in another order"
    );
    let class = Class::new(&reports);
    let s = &class.summary;
    assert_eq!(s.seeds.len(), 2);
    assert_eq!(
        s.seeds_text(),
        "2 seeds (one per submission, as on Gradescope)"
    );
    assert_eq!(s.test_sets.len(), 2);
    let family = format!("{}*", a0.trim_end_matches(|c: char| c.is_ascii_digit()));
    let ids: Vec<&str> = class.tests.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [named, family.as_str()],
        "a named deal, then the drawn ones"
    );
    let t = &class.tests[0];
    assert_eq!(
        (t.ran, t.failed, t.deals),
        (2, 1, 1),
        "one deal, two orders"
    );
    assert_eq!(t.goal, reports[0].tests[0].goal, "the first result's");
    assert!(t.expected.is_some(), "b's best keep is of the same deal");
    let t = &class.tests[1];
    assert_eq!((t.ran, t.failed, t.deals), (3, 1, 3));
    assert_eq!(t.source, TestSource::Pool);
    assert!(t.expected.is_some(), "a's best keep, of a's first deal");

    let one_seed = Class::new(&reports[..1]);
    let ids: Vec<&str> = one_seed.tests.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, [a0, named, a1], "under one seed, a row per test");
    assert_eq!(one_seed.summary.seeds_text(), "1 seed");
}

#[test]
fn ids_read_as_rows() {
    let pool = TestSource::Pool;
    assert_eq!(row_id("sh:pool-1384", pool, true), "sh:pool-*");
    assert_eq!(row_id("sh:pool-1384", pool, false), "sh:pool-1384");
    assert_eq!(
        row_id("sh:named:keep-the-run", TestSource::Named, true),
        "sh:named:keep-the-run"
    );
    assert_eq!(
        row_id("sh:cover-3:pool-1384", pool, true),
        "sh:cover-3:pool-*"
    );
    assert_eq!(
        deal_of("select_hand([card(5,hearts),card(ace,spades)],H,C)"),
        ["5,hearts", "ace,spades"]
    );
    assert_eq!(
        deal_of("select_hand([card(ace,spades),card(5,hearts)],H,C)"),
        deal_of("select_hand([card(5,hearts),card(ace,spades)],H,C)")
    );
}

#[test]
fn a_crash_or_timeout_in_the_hand_value_check_counts() {
    let mut crashed = check(&[(Area::NoAnswer, 3, 0.001, "AS 2S 3S 4S 5S", "halt")]);
    crashed.kinds[0].kind = FailureKind::Crashed;
    let reports = [
        with_hand_value(report("a", &[]), Some(crashed)),
        with_hand_value(report("b", &[]), None),
    ];
    let s = Class::new(&reports).summary;
    assert_eq!((s.crashed, s.timed_out, s.full_marks), (1, 0, 0));
    assert_eq!(
        reports[1].marks.hand_value, 0.0,
        "not checked earns nothing"
    );
}
