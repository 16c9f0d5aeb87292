use super::*;

/// Returns the results in tests/deep_results/, written by `crib grade --deep` (see the
/// README there): correct, flush-three-plus-start (partial), nob-any-jack, runs-sort-dedup.
pub(crate) fn deep_results() -> Vec<SubmissionResult> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/deep_results");
    crate::read_results(&dir).expect("the checked-in deep results read")
}

/// Returns the result named `name`, renamed `as_name`.
pub(crate) fn copy_of(reports: &[SubmissionResult], name: &str, as_name: &str) -> SubmissionResult {
    let mut r = reports
        .iter()
        .find(|r| r.name == name)
        .expect("a checked-in result")
        .clone();
    r.name = as_name.into();
    r
}

fn index(reports: &[SubmissionResult], name: &str) -> usize {
    reports
        .iter()
        .position(|r| r.name == name)
        .expect("a result")
}

#[test]
fn share_bins_split_by_powers_of_ten() {
    let bins: Vec<usize> = [
        0.0,
        f64::NAN,
        -0.5,
        1e-7,
        0.000_99,
        0.001,
        0.009,
        0.01,
        0.048,
        0.1,
        0.49,
        0.5,
        1.0,
        3.0,
    ]
    .into_iter()
    .map(share_bin)
    .collect();
    assert_eq!(bins, [0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5]);
    assert_eq!(SHARE_BINS.len(), 6);
}

#[test]
fn a_class_without_deep_checks_has_no_deep_class() {
    let reports = [crate::class::tests::report(
        "alice",
        &[("sh:named:keep-the-run", "pass")],
    )];
    assert_eq!(DeepClass::new(&reports), None);
    assert_eq!(DeepClass::new(&[]), None);
}

#[test]
fn real_deep_checks_group_by_their_top_finding() {
    let mut reports = deep_results();
    // A second submission with the same mistake, so that one group has two members.
    reports.push(copy_of(
        &reports,
        "runs-sort-dedup",
        "runs-sort-dedup-again",
    ));
    reports.push(crate::class::tests::report(
        "not-deep",
        &[("sh:named:keep-the-run", "pass")],
    ));
    let deep = DeepClass::new(&reports).expect("four results have a deep check");
    assert_eq!(deep.checked.len(), 5, "not-deep is left out");
    assert!(!deep.checked.contains(&index(&reports, "not-deep")));
    assert_eq!(deep.hand_value_clean, [index(&reports, "correct")]);
    assert!(deep.hand_value_missing.is_empty());
    assert_eq!(
        deep.hand_value_partial,
        [index(&reports, "flush-three-plus-start")],
        "its budget ran out"
    );
    assert_eq!(
        deep.hand_value_sampled.len(),
        4,
        "--deep-classes 20000: every check but the partial one covers a sample"
    );

    assert_eq!(deep.groups.len(), 3, "{:#?}", deep.groups);
    let runs = &deep.groups[0];
    assert_eq!(
        runs.members,
        [
            index(&reports, "runs-sort-dedup"),
            index(&reports, "runs-sort-dedup-again")
        ],
        "the largest group comes first"
    );
    assert!(
        runs.finding.contains("a run with a duplicated rank"),
        "{}",
        runs.finding
    );
    assert_eq!(runs.shares.0, runs.shares.1);
    assert!((runs.shares.0 - 19_236.0 / 398_364.0).abs() < 1e-12);
    let (from, example) = runs.example.as_ref().expect("a counterexample");
    assert!(runs.members.contains(from));
    assert_eq!((example.expected, example.got.as_str()), (10, "6"));
    let findings: Vec<&str> = deep.groups[1..]
        .iter()
        .map(|g| g.finding.as_str())
        .collect();
    assert!(
        findings.iter().any(|f| f.contains("jack")),
        "nob-any-jack: {findings:?}"
    );
    assert!(
        findings.iter().any(|f| f.contains("three hand cards")),
        "flush-three-plus-start: {findings:?}"
    );

    assert_eq!(deep.wrong_shares.total(), 5);
    assert_eq!(deep.wrong_shares.counts[0], 1, "correct");
    assert_eq!(
        deep.wrong_shares.counts[3], 3,
        "runs twice and flush: 1-10%"
    );
    assert_eq!(deep.wrong_shares.counts[4], 1, "nob-any-jack: 21%");

    assert_eq!(deep.select_checked.len(), 5);
    assert_eq!(deep.select_optimal, [index(&reports, "correct")]);
    assert_eq!(
        deep.select_partial,
        [index(&reports, "flush-three-plus-start")]
    );
    assert_eq!(deep.not_optimal_shares.total(), 5);
    assert_eq!(deep.not_optimal_shares.counts[0], 1);
}

#[test]
fn the_group_example_is_the_simplest_of_the_members() {
    let reports = deep_results();
    let runs = copy_of(&reports, "runs-sort-dedup", "b");
    let mut simpler = copy_of(&reports, "runs-sort-dedup", "a");
    let hv = simpler
        .deep
        .as_mut()
        .and_then(|d| d.hand_value.as_mut())
        .expect("a hand_value check");
    hv.counterexamples.rotate_left(1);
    hv.counterexamples[0].expected = 4;
    let deep = DeepClass::new(&[runs, simpler]).expect("deep checks");
    let (from, example) = deep.groups[0].example.clone().expect("an example");
    assert_eq!(
        (from, example.expected),
        (1, 4),
        "the lower expected value wins"
    );
}

#[test]
fn checks_without_a_finding_are_still_grouped() {
    let reports = deep_results();
    let mut r = copy_of(&reports, "nob-any-jack", "all-wrong");
    let hv = r
        .deep
        .as_mut()
        .and_then(|d| d.hand_value.as_mut())
        .expect("a hand_value check");
    hv.diagnosis.findings.clear();
    assert_eq!(
        top_finding(hv).as_deref(),
        Some("no feature of the hand separates failing from passing pairs")
    );
    hv.failing_pairs = hv.pairs_checked;
    assert_eq!(
        top_finding(hv).as_deref(),
        Some("every pair checked fails (wrong_answer)")
    );
    hv.classes_checked = 0;
    hv.pairs_checked = 0;
    hv.stopped = Some("the child could not start".into());
    assert_eq!(
        top_finding(hv).as_deref(),
        Some("no pair was answered (the child could not start)")
    );
    assert_eq!(hv.wrong_share(), None);
    let clean = copy_of(&reports, "correct", "c");
    let clean_hv = clean.deep.as_ref().and_then(|d| d.hand_value.as_ref());
    assert_eq!(clean_hv.and_then(top_finding), None);

    let mut missing = copy_of(&reports, "correct", "missing");
    if let Some(d) = missing.deep.as_mut() {
        d.hand_value = None;
    }
    let deep = DeepClass::new(&[r, missing]).expect("deep checks");
    assert_eq!(deep.hand_value_missing, [1]);
    assert_eq!(deep.groups.len(), 1);
    assert_eq!(
        deep.wrong_shares.total(),
        0,
        "no pair answered, none defined"
    );
}
