use super::*;
use crate::class::tests::report;

#[test]
fn one_row_per_submission_sorted_by_name() {
    let mut bob = report("bob, the \"second\"", &[("hv:spec:assignment-1", "pass")]);
    bob.load.load_failed = Some("nothing usable loaded".into());
    let alice = report("alice", &[("hv:spec:assignment-1", "wrong")]);
    let mut out = Vec::new();
    marks_csv(&[bob, alice], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], MARKS_COLUMNS.join(","));
    assert!(
        lines[1].starts_with("alice,0.00,0.00,0.00,1 wrong_answer,"),
        "{text}"
    );
    assert!(
        lines[2].starts_with(
            "\"bob, the \"\"second\"\"\",50.00,0.00,50.00,load_failed: nothing usable loaded,"
        ),
        "{text}"
    );
    assert!(
        lines[2].ends_with(&crib_grade::test_set().fingerprint),
        "{text}"
    );
    assert_eq!(lines.len(), 3);
}
