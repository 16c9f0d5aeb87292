//! The `quality` section of a result: read back when absent, shown in the table and on
//! Gradescope when present.

use super::*;
use crib_results::{Finding, Lint};

fn finding(rule: &str, line: u32, predicate: Option<&str>, message: &str) -> Finding {
    Finding {
        rule: rule.into(),
        file: "x.pl".into(),
        line,
        column: None,
        predicate: predicate.map(Into::into),
        message: message.into(),
    }
}

fn with_quality() -> SubmissionResult {
    let mut report = policy_report(1200);
    report.quality = Some(Lint::new(
        "x",
        vec![
            finding("L401", 12, None, "line of 93 characters (at most 80)"),
            finding(
                "D102",
                3,
                Some("hand_value/3"),
                "no comment before its first clause",
            ),
        ],
    ));
    report
}

#[test]
fn a_result_without_quality_reads_back_and_writes_no_key() {
    let report = policy_report(10);
    let mut json = serde_json::to_value(&report).unwrap();
    assert!(json.get("quality").is_none(), "{json}");
    json.as_object_mut().unwrap().remove("quality");
    let back: SubmissionResult = serde_json::from_value(json).unwrap();
    assert_eq!(back.quality, None);
    let report = with_quality();
    let back: SubmissionResult =
        serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(back, report);
}

#[test]
fn the_table_has_a_quality_column_only_when_a_report_has_quality() {
    let plain = table(&[policy_report(1)], false);
    assert!(!plain.contains("quality"), "{plain}");
    let mut other = policy_report(1);
    other.name = "y".into();
    let text = table(&[with_quality(), other], false);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("quality"), "{text}");
    assert!(lines[1].contains("2: D102x1 L401x1"), "{text}");
    // The report without a quality section shows a dash in the column (each row followed by
    // what is wrong with hand_value/3 in words).
    let y = lines.iter().find(|l| l.starts_with("y ")).unwrap();
    assert!(y.contains("  -  "), "{text}");
    assert!(!text.contains("hand_value/3]"), "not verbose: {text}");
    let verbose = table(&[with_quality()], true);
    assert!(
        verbose.contains("    x.pl:3: D102 [hand_value/3] no comment before its first clause\n"),
        "{verbose}"
    );
    assert!(
        verbose.contains("    x.pl:12: L401 line of 93 characters (at most 80)\n"),
        "{verbose}"
    );
}

#[test]
fn gradescope_gets_a_zero_point_quality_test_following_the_policy() {
    let report = with_quality();
    assert!(
        gradescope(&policy_report(1), VisibilityPolicy::AllVisible)["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["name"] != "Code quality notes")
    );
    for (policy, visibility) in [
        (VisibilityPolicy::AllVisible, "visible"),
        (VisibilityPolicy::ExamplesVisible, "after_published"),
        (VisibilityPolicy::AfterDueDate, "after_due_date"),
        (VisibilityPolicy::Hidden, "hidden"),
    ] {
        let gs = gradescope(&report, policy);
        let tests = gs["tests"].as_array().unwrap();
        let notes = tests.last().unwrap();
        assert_eq!(notes["name"], "Code quality notes");
        assert_eq!(notes["number"], "4.1");
        assert_eq!(notes["score"], 0.0);
        assert_eq!(notes["max_score"], 0.0);
        assert_eq!(notes["status"], "passed");
        assert_eq!(notes["visibility"], visibility, "{policy:?}");
        let output = notes["output"].as_str().unwrap();
        assert!(
            output.contains("x.pl:3: D102 [hand_value/3] no comment before its first clause"),
            "{output}"
        );
        // The quality notes never change the score.
        assert_eq!(gs["score"], report.marks.total);
    }
    let mut clean = policy_report(1);
    clean.quality = Some(Lint::new("x", vec![]));
    let gs = gradescope(&clean, VisibilityPolicy::AllVisible);
    let notes = gs["tests"].as_array().unwrap().last().unwrap().clone();
    assert!(notes["output"].as_str().unwrap().contains("No findings."));
}
