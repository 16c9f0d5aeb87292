use super::*;
use crate::class::tests::{check, report, with_hand_value};
use crib_results::PATTERNS;

/// Returns a class: a clean check, two with nob errors (one also fifteens), one that
/// answered nothing, one sampled with pairs errors, and one not checked.
pub(crate) fn class() -> Vec<SubmissionResult> {
    let nob_a = check(&[(Area::Nob, 40, 0.02, "JH 2C 4D 6S 9H", "0")]);
    let nob_b = check(&[
        (Area::Fifteens, 200, 0.3, "5C 5D TS KH 3C", "4"),
        (Area::Nob, 10, 0.04, "JH 2C 4D 8S 9H", "0"),
    ]);
    let mut none = check(&[(Area::NoAnswer, PATTERNS, 1.0, "AS 2S 3S 4S 6D", "exception")]);
    none.kinds[0].kind = crib_results::FailureKind::Exception;
    let mut sampled = check(&[(Area::Pairs, 5, 0.01, "2C 2D 9S KH 4C", "0")]);
    sampled.checked = 1000;
    sampled.stopped = Some("the time budget for hand_value/3 ran out".into());
    vec![
        report("clean", &[]),
        with_hand_value(report("nob-a", &[]), Some(nob_a)),
        with_hand_value(report("nob-b", &[]), Some(nob_b)),
        with_hand_value(report("none", &[]), Some(none)),
        with_hand_value(report("sampled", &[]), Some(sampled)),
        with_hand_value(report("missing", &[]), None),
    ]
}

#[test]
fn each_area_counts_its_submissions_their_median_share_and_the_simplest_hand() {
    let reports = class();
    let hv = HandValueClass::new(&reports);
    assert_eq!(hv.checked, [0, 1, 2, 3, 4]);
    assert_eq!(hv.not_checked, [5]);
    assert_eq!(hv.clean, [0]);
    assert_eq!(hv.sampled, [4]);
    let areas: Vec<Area> = hv.areas.iter().map(|a| a.area).collect();
    assert_eq!(areas, Area::ALL, "every area, in order");
    let row = |area: Area| hv.areas.iter().find(|a| a.area == area).expect("a row");

    let nob = row(Area::Nob);
    assert_eq!(nob.members, [1, 2]);
    assert!(
        (nob.median_share - 0.03).abs() < 1e-9,
        "{}",
        nob.median_share
    );
    let (from, example) = nob.example.as_ref().expect("an example");
    assert_eq!(
        *from, 2,
        "JH 2C 4D 8S + 9H (3 points) is simpler than JH 2C 4D 6S + 9H (5)"
    );
    assert_eq!(example.expected, 3);

    let fifteens = row(Area::Fifteens);
    assert_eq!(fifteens.members, [2]);
    assert!((fifteens.median_share - 0.3).abs() < 1e-9);
    assert_eq!(row(Area::NoAnswer).members, [3]);
    assert_eq!(row(Area::NoAnswer).median_share, 1.0);
    assert_eq!(row(Area::Pairs).members, [4]);
    let runs = row(Area::Runs);
    assert!(runs.members.is_empty() && runs.example.is_none());
    assert_eq!(runs.median_share, 0.0);
}

#[test]
fn shares_are_of_all_pairs_and_a_sample_is_a_partial_answer() {
    assert_eq!(area_share(0.0), 0.0);
    assert_eq!(area_share(PAIRS as f64 * 2.0), 1.0);
    let mut h = check(&[]);
    assert!(!is_sample(&h));
    h.checked -= 1;
    assert!(is_sample(&h));
    assert_eq!(HandValueClass::new(&[]).areas.len(), Area::ALL.len());
}
