use super::*;
use crate::gradescope::{gradescope, gradescope_with, VisibilityPolicy};
use crate::table::table;
use crib_sandbox::Layer;

fn test(predicate: &str, verdict: Verdict, credit: Option<f64>) -> TestResult {
    TestResult {
        id: "t".into(),
        predicate: predicate.into(),
        goal: "g".into(),
        verdict,
        credit,
        time_ms: 1,
        cpu_ms: Some(1),
    }
}

#[test]
fn marks_follow_the_assignment() {
    let tests = vec![
        test("hand_value", Verdict::Pass, None),
        test("hand_value", Verdict::Pass, None),
        test("hand_value", Verdict::NoSolution, None),
        test("hand_value", Verdict::Pass, None),
        test("select_hand", Verdict::Pass, Some(1.0)),
        test(
            "select_hand",
            Verdict::WrongAnswer {
                expected: "a".into(),
                got: "b".into(),
            },
            Some(0.5),
        ),
    ];
    let marks = Marks::new(&tests);
    assert_eq!((marks.hand_value_passed, marks.hand_value_total), (3, 4));
    assert_eq!(marks.hand_value, 37.5);
    assert_eq!(marks.select_hand_credit, 0.75);
    assert_eq!(marks.select_hand, 15.0);
    assert_eq!(marks.total, 52.5);
    assert_eq!(marks.code_quality, "not assessed");
    assert_eq!(Marks::new(&[]).total, 0.0);
}

#[test]
fn problems_count_verdicts() {
    let tests = vec![
        test("hand_value", Verdict::NoSolution, None),
        test("hand_value", Verdict::NoSolution, None),
        test("hand_value", Verdict::Pass, None),
    ];
    let report = Report {
        name: "x".into(),
        path: "x.pl".into(),
        content_hash: String::new(),
        test_set: String::new(),
        select_credit: SelectCredit::Graded,
        isolation: Isolation::from_layers(&[Layer::Bwrap, Layer::Seccomp]),
        load: Load {
            missing_predicate: vec!["select_hand/3".into()],
            ..Load::default()
        },
        marks: Marks::new(&tests),
        tests,
        children: 1,
        elapsed_ms: 1,
        output: String::new(),
        deep: None,
        quality: None,
    };
    assert_eq!(
        report.problems(),
        ["missing_predicate select_hand/3", "2 no_solution"]
    );
    let text = table(std::slice::from_ref(&report), true);
    assert!(text.contains("1/3"), "{text}");
    assert!(text.contains("no solution"), "{text}");
    let gs = gradescope(&report);
    assert_eq!(gs["tests"][2]["status"], "passed");
    assert_eq!(gs["tests"][0]["max_score"], 16.6667);
}

/// A report of the first two hand_value tests of the test set (a worked example and
/// whatever follows) and the first select_hand test, the second one failed, with a load
/// warning.
fn policy_report(elapsed_ms: u64) -> Report {
    let set = crate::testset::test_set();
    let hv: Vec<&crate::TestCase> = set
        .cases
        .iter()
        .filter(|c| c.predicate() == "hand_value")
        .collect();
    let sh = set
        .cases
        .iter()
        .find(|c| c.predicate() == "select_hand")
        .unwrap();
    let trap = set.cases.iter().find(|c| c.source == "trap").unwrap();
    let mk = |c: &crate::TestCase, verdict: Verdict, credit: Option<f64>| TestResult {
        id: c.id.clone(),
        predicate: c.predicate().into(),
        goal: c.goal(),
        verdict,
        credit,
        time_ms: 1,
        cpu_ms: Some(1),
    };
    let tests = vec![
        mk(hv[0], Verdict::Pass, None),
        mk(
            trap,
            Verdict::WrongAnswer {
                expected: "4".into(),
                got: "8".into(),
            },
            None,
        ),
        mk(sh, Verdict::Pass, Some(1.0)),
    ];
    Report {
        name: "x".into(),
        path: "x.pl".into(),
        content_hash: String::new(),
        test_set: set.fingerprint.clone(),
        select_credit: SelectCredit::Graded,
        isolation: Isolation::from_layers(&[Layer::Bwrap, Layer::Seccomp]),
        load: Load {
            files: vec!["x.pl".into()],
            diagnostics: vec![Diagnostic {
                kind: "warning".into(),
                file: "x.pl".into(),
                line: 3,
                message: "Singleton variables: [X]".into(),
            }],
            ..Load::default()
        },
        marks: Marks::new(&tests),
        tests,
        children: 1,
        deep: None,
        quality: None,
        elapsed_ms,
        output: String::new(),
    }
}

fn visibilities(gs: &serde_json::Value) -> Vec<&str> {
    gs["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["visibility"].as_str().unwrap())
        .collect()
}

#[test]
fn each_visibility_policy_gives_its_json() {
    let report = policy_report(400);
    let expect = [
        (
            VisibilityPolicy::AllVisible,
            ["visible", "visible", "visible"],
        ),
        (
            VisibilityPolicy::ExamplesVisible,
            ["visible", "after_published", "after_published"],
        ),
        (
            VisibilityPolicy::AfterDueDate,
            ["visible", "after_due_date", "after_due_date"],
        ),
        (VisibilityPolicy::Hidden, ["hidden", "hidden", "hidden"]),
    ];
    for (policy, want) in expect {
        let gs = gradescope_with(&report, policy);
        assert_eq!(visibilities(&gs), want, "{}", policy.name());
        assert_eq!(gs["visibility"], "visible", "{}", policy.name());
        assert_eq!(gs["score"], report.marks.total);
        let output = gs["output"].as_str().unwrap();
        assert!(
            output.contains("x.pl:3: warning: Singleton variables: [X]"),
            "{}: the load diagnostics are shown: {output}",
            policy.name()
        );
        assert_eq!(
            output.contains("1 wrong_answer"),
            policy != VisibilityPolicy::Hidden,
            "{}: verdict counts only when tests are not hidden: {output}",
            policy.name()
        );
    }
    assert_eq!(
        gradescope(&report),
        gradescope_with(&report, VisibilityPolicy::AllVisible)
    );
}

#[test]
fn visibility_policies_parse_by_name() {
    for policy in VisibilityPolicy::ALL {
        assert_eq!(policy.name().parse::<VisibilityPolicy>(), Ok(policy));
    }
    let err = "public".parse::<VisibilityPolicy>().unwrap_err();
    assert!(
        err.contains("\"public\"") && err.contains("examples-visible"),
        "{err}"
    );
    assert_eq!(VisibilityPolicy::default(), VisibilityPolicy::AllVisible);
}

#[test]
fn execution_time_rounds_up_and_numbers_are_stable() {
    let times: Vec<u64> = [0, 1, 400, 1000, 1001]
        .iter()
        .map(|ms| {
            gradescope(&policy_report(*ms))["execution_time"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(times, [0, 1, 1, 1, 2]);
    let gs = gradescope(&policy_report(1));
    let numbers: Vec<&str> = gs["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["number"].as_str().unwrap())
        .collect();
    assert_eq!(numbers, ["1.1", "1.2", "2.1"]);
    assert_eq!(gs, gradescope(&policy_report(1)));
}

mod quality;
