use super::*;
use crate::class::tests::{check, report, test_set, with_hand_value};
use crib_grade::Area;

#[test]
fn one_row_per_submission_sorted_by_name() {
    let mut bob = report("bob, the \"second\"", &[("sh:named:keep-the-run", "pass")]);
    bob.load.load_failed = Some("nothing usable loaded".into());
    let alice = with_hand_value(
        report("alice", &[("sh:named:keep-the-run", "no_solution")]),
        Some(check(&[(Area::Nob, 40, 0.01, "JH 2C 4D 8S 9H", "2")])),
    );
    let mut out = Vec::new();
    marks_csv(&[bob, alice], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], MARKS_COLUMNS.join(","));
    assert!(
        lines[1].starts_with("alice,45.00,0.00,45.00,1 no_solution; 40 hand_value wrong_answer,"),
        "1% of pairs wrong costs 50 x 0.1: {text}"
    );
    assert!(
        lines[2].starts_with(
            "\"bob, the \"\"second\"\"\",50.00,20.00,70.00,load_failed: nothing usable loaded,"
        ),
        "{text}"
    );
    assert!(lines[2].ends_with(&test_set(0).fingerprint), "{text}");
    assert!(lines[2].ends_with(&test_set(0).seed_id), "{text}");
    assert_eq!(lines.len(), 3);
}
