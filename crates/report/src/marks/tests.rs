use super::*;
use crate::class::tests::{check, report, test_set, with_hand_value};
use crate::lateness::tests::{deadline, with_lms};
use crib_results::Area;

#[test]
fn one_row_per_submission_sorted_by_name() {
    let mut bob = report("bob, the \"second\"", &[("sh:named:keep-the-run", "pass")]);
    bob.load.load_failed = Some("nothing usable loaded".into());
    let alice = with_hand_value(
        report("alice", &[("sh:named:keep-the-run", "no_solution")]),
        Some(check(&[(Area::Nob, 40, 0.01, "JH 2C 4D 8S 9H", "2")])),
    );
    let mut out = Vec::new();
    marks_csv(&[bob, alice], MarksExtras::default(), &mut out).unwrap();
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

#[test]
fn a_deadline_adds_lateness_penalty_and_final() {
    let two_days = with_lms("two_days", "1", Some("2026-09-02T08:00Z"), None);
    let on_time = with_lms("on_time", "2", Some("2026-09-01T06:00Z"), None);
    let flagged = with_lms("flagged", "3", None, Some(true));
    let deadline = deadline();
    let mut out = Vec::new();
    let extras = MarksExtras {
        quality: None,
        deadline: Some(&deadline),
    };
    marks_csv(&[two_days, on_time, flagged], extras, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "student,hand_value,select_hand,total,problems,test_set,lateness,late_penalty,final"
    );
    // report() with no select_hand tests gives 50 of 70: 2 days late at 10% a day is 10.
    assert!(
        lines[1].starts_with("flagged,") && lines[1].ends_with(",,,"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("on_time,") && lines[2].ends_with(",0,0.00,50.00"),
        "{text}"
    );
    assert!(lines[3].ends_with(",2,10.00,40.00"), "{text}");
}
