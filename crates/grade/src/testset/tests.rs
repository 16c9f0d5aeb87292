use super::*;

#[test]
fn ids_are_unique_and_inputs_valid() {
    let set = test_set();
    let mut ids: Vec<&str> = set.cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "duplicate test ids");
    for case in &set.cases {
        if let Input::SelectHand { cards } = &case.input {
            assert!((5..=6).contains(&cards.len()), "{}", case.id);
        }
    }
}

#[test]
fn covers_the_traps_the_issue_names() {
    let set = test_set();
    let value = |id: &str| match set.cases.iter().find(|c| c.id == id).map(|c| &c.expected) {
        Some(Expected::Value(v)) => *v,
        other => panic!("{id}: {other:?}"),
    };
    assert_eq!(value("hv:spec:assignment-6"), 29);
    assert_eq!(value("hv:spec:zero-all-even"), 0);
    assert_eq!(value("hv:spec:flush-four"), 4);
    assert_eq!(value("hv:spec:flush-five"), 5);
    assert_eq!(value("hv:spec:flush-three-plus-start"), 0);
    assert_eq!(value("hv:trap:flush-start-only"), 0);
    assert_eq!(value("hv:spec:jack-of-another-suit"), 0);
    assert_eq!(value("hv:trap:double-run"), 8);
    assert_eq!(value("hv:spec:double-double-run"), 20);
    assert!(set.count("select_hand") >= 12);
    assert!(set
        .cases
        .iter()
        .any(|c| matches!(&c.input, Input::SelectHand { cards } if cards.len() == 5)));
    assert!(!set.cases.iter().any(|c| c.id.contains("crib")));
}

/// Pins the test set: any change to it (inputs, order, count) must update these values,
/// deliberately, together with the README's figures.
#[test]
fn the_test_set_is_pinned() {
    let set = test_set();
    assert_eq!(set.fingerprint, "v2-d2e72d5d7bc3123a");
    assert_eq!(set.count("hand_value"), 78);
    assert_eq!(set.count("select_hand"), 24);
    assert_eq!(set.cases.len(), 78 + 24);
    let from = |source: &str| set.cases.iter().filter(|c| c.source == source).count();
    assert_eq!(from("cover"), 5);
    assert_eq!(from("named"), 3);
}

#[test]
fn goal_is_the_prolog_call() {
    let case = &test_set().cases[0];
    assert!(
        case.goal().starts_with("hand_value([card("),
        "{}",
        case.goal()
    );
    assert!(case.goal().ends_with(",Value)"));
}
