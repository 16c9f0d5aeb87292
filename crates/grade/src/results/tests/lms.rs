//! The `lms` section of a result: absent in old results, which still read back, and
//! kept whole when present.

use super::*;
use crib_results::{Layout, Record, Student};

#[test]
fn a_result_keeps_its_lms_record_and_old_results_still_load() {
    let report = policy_report(10);
    let json = serde_json::to_value(&report).unwrap();
    assert!(json.get("lms").is_none(), "{json}");
    let back: SubmissionResult = serde_json::from_value(json).unwrap();
    assert_eq!(back.lms, None);
    let mut report = policy_report(10);
    report.lms = Some(Record {
        layout: Layout::Canvas,
        students: vec![Student {
            id: "1001".into(),
            name: Some("Smith, Jane".into()),
            section: Some("Lab 1".into()),
            ..Student::default()
        }],
        submission_id: Some("5001".into()),
        submitted_at: Some("2026-09-01T07:10:00Z".parse().unwrap()),
        late: Some(true),
        entries: vec!["smithjane_LATE_1001_5001_cribbage.pl".into()],
    });
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["lms"]["layout"], "canvas");
    assert_eq!(json["lms"]["students"][0]["id"], "1001");
    assert_eq!(json["lms"]["submitted_at"], "2026-09-01T07:10:00Z");
    assert_eq!(json["lms"]["late"], true);
    let back: SubmissionResult = serde_json::from_value(json).unwrap();
    assert_eq!(back, report);
}
