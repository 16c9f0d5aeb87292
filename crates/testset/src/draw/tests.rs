use super::*;

/// A test set for unit tests; grading never uses this seed.
pub(crate) fn test_set() -> &'static TestSet {
    static SET: std::sync::OnceLock<TestSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| TestSet::new(&Seed::from_bytes([0x5e; 32])))
}

#[test]
fn ids_are_unique_and_inputs_valid() {
    let set = test_set();
    let mut ids: Vec<&str> = set.cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "duplicate test ids");
    for case in &set.cases {
        assert!((5..=6).contains(&case.cards.len()), "{}", case.id);
        assert!(
            crib_core::check_distinct(&case.cards).is_ok(),
            "{}",
            case.id
        );
    }
}

#[test]
fn the_set_has_its_parts() {
    let set = test_set();
    let from = |source: TestSource| set.cases.iter().filter(|c| c.source == source).count();
    assert_eq!(from(TestSource::Named), NAMED_DEALS.len());
    assert_eq!(from(TestSource::Pool), POOL_DEALS);
    assert_eq!(set.cases.len(), NAMED_DEALS.len() + POOL_DEALS);
    assert_eq!(crate::patterns::patterns_in(&set.hand_value), PATTERNS);
    let five = set.cases.iter().filter(|c| c.cards.len() == 5).count();
    // Balanced at the pool's share of five-card deals, one in two.
    assert!(five.abs_diff(set.cases.len() / 2) <= 3, "{five}");
    assert!(set.fingerprint.starts_with("v8-"));
    assert!(set.fingerprint.ends_with(&set.seed_id));
}

#[test]
fn keeping_the_first_four_cards_shown_is_never_best() {
    for case in &test_set().cases {
        let TestCase { cards, keeps, .. } = case;
        let best = keeps[0].total;
        let first: Vec<Card> = cards[..4].to_vec();
        let first_total = keeps
            .iter()
            .find(|k| k.keep.iter().all(|c| first.contains(c)))
            .map(|k| k.total);
        assert!(first_total < Some(best), "{}", case.id);
    }
}

#[test]
fn each_seed_draws_other_tests_and_the_same_seed_the_same() {
    let a = TestSet::new(&Seed::from_bytes([1; 32]));
    let b = TestSet::new(&Seed::from_bytes([2; 32]));
    let again = TestSet::new(&Seed::from_bytes([1; 32]));
    assert_eq!(a.fingerprint, again.fingerprint);
    assert_ne!(a.fingerprint, b.fingerprint);
    let goals = |s: &TestSet| -> Vec<String> { s.cases.iter().map(TestCase::goal).collect() };
    let shared = goals(&a).iter().filter(|g| goals(&b).contains(g)).count();
    assert_eq!(shared, 0, "no select_hand goal is shared by two seeds");
    let same_items = a
        .hand_value
        .iter()
        .filter(|i| b.hand_value.iter().any(|j| j.cards == i.cards))
        .count();
    assert!(same_items < 200, "{same_items} hand_value items shared");
}

#[test]
fn goal_is_the_prolog_call() {
    let case = &test_set().cases[0];
    assert!(
        case.goal().starts_with("select_hand([card("),
        "{}",
        case.goal()
    );
    assert!(case.goal().ends_with(",Hand,Cribcards)"));
}

#[test]
fn the_calibrated_targets_name_every_balance_feature_in_order() {
    let table: Vec<String> = targets::parse(targets::TABLE)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(
        table,
        balance_feature_names(),
        "crates/testset/src/draw/targets.tsv is out of date: make it again with \
         `cargo run --release -p crib-lab --bin balance_targets > \
         crates/testset/src/draw/targets.tsv`"
    );
    assert!(targets::calibrated().iter().all(Option::is_some));
    let deals = (NAMED_DEALS.len() + POOL_DEALS) as f64;
    for (name, target) in targets::parse(targets::TABLE) {
        assert!((0.0..=deals).contains(&target), "{name}: {target}");
    }
}

#[test]
fn the_balance_aims_every_seed_at_the_calibrated_targets() {
    // The sums over every case of a seed's test set land near the targets: within one
    // deal's credit for every feature, and 0.5 in root mean square (0.29 for this seed; deals
    // drawn without the balance miss by several deals' credit).
    let set = test_set();
    let names = balance_feature_names();
    let mut sums = vec![0.0; names.len()];
    for case in &set.cases {
        for (s, v) in sums
            .iter_mut()
            .zip(balance_features(&Deal::new(case.cards.clone())).0)
        {
            *s += v;
        }
    }
    let mut squares = 0.0;
    for ((name, sum), target) in names.iter().zip(&sums).zip(targets::calibrated()) {
        let target = target.expect("the table names every feature");
        assert!(
            (sum - target).abs() <= 1.0,
            "{name}: {sum:.2} against {target:.2}"
        );
        squares += (sum - target).powi(2);
    }
    let rms = (squares / names.len() as f64).sqrt();
    assert!(rms <= 0.5, "{rms:.2} in root mean square");
}

#[test]
fn the_calibrated_targets_are_the_calibrations_values() {
    // The table is the mean over 40 calibration seeds of what two rounds of balancing
    // achieve (`balance_targets`, 80 balances). The same calibration on four of those seeds
    // (8 balances, about 2.5 s) lands near every target: its means differ from the forty's
    // by what four seeds' draws do (0.25 in root mean square, 0.64 at most, when the table
    // was last made). A target that a changed model or constant moved by a deal's credit or
    // more fails here; the names alone are checked by the test above.
    let seeds: Vec<Seed> = (100..104u8).map(|k| Seed::from_bytes([k; 32])).collect();
    let made = targets::calibrate(&seeds, 2);
    let table = targets::parse(targets::TABLE);
    assert_eq!(made.len(), table.len());
    let mut squares = 0.0;
    let mut worst = (0.0f64, String::new());
    for ((name, got), (_, want)) in made.iter().zip(&table) {
        let gap = (got - want).abs();
        squares += gap * gap;
        if gap > worst.0 {
            worst = (gap, name.clone());
        }
    }
    let rms = (squares / made.len() as f64).sqrt();
    let remake = "make crates/testset/src/draw/targets.tsv again: `cargo run --release -p \
                  crib-lab --bin balance_targets > crates/testset/src/draw/targets.tsv`";
    assert!(
        worst.0 <= 1.0,
        "{}: {:.2} from its target; {remake}",
        worst.1,
        worst.0
    );
    assert!(
        rms <= 0.4,
        "{rms:.2} from the targets in root mean square; {remake}"
    );
}
