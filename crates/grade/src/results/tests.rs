use crib_isolation::{Isolation, Layer};
use crib_results::{
    gradescope, Area, Diagnostic, HandValueCheck, Load, Marks, Predicate, SelectCredit,
    SubmissionResult, TestResult, TestSource, Verdict, VisibilityPolicy,
};

use crate::protocol::{ItemOutcome, Outcome};
use crate::table::table;

fn test(verdict: Verdict, credit: Option<f64>) -> TestResult {
    TestResult {
        id: "sh:pool-1".into(),
        predicate: Predicate::SelectHand,
        source: TestSource::Pool,
        goal: "g".into(),
        verdict,
        credit,
        time_ms: 1,
        cpu_ms: Some(1),
    }
}

/// The marked hand_value check of a submission that answers `answer(expected)` to every
/// item of the unit tests' test set.
fn hand_value_check(answer: impl Fn(u8) -> ItemOutcome) -> HandValueCheck {
    let items = &crate::test_set().hand_value;
    let answers: Vec<Option<ItemOutcome>> =
        items.iter().map(|i| Some(answer(i.expected))).collect();
    crate::marked_check::judge(items, &answers)
}

#[test]
fn marks_follow_the_assignment() {
    let tests = vec![
        test(Verdict::Pass, Some(1.0)),
        test(
            Verdict::WrongAnswer {
                expected: "a".into(),
                got: "b".into(),
            },
            Some(0.5),
        ),
    ];
    let right = hand_value_check(|v| ItemOutcome::Int(i64::from(v)));
    let marks = Marks::new(&tests, Some(&right));
    assert_eq!(marks.hand_value_share_wrong, 0.0);
    assert_eq!(marks.hand_value, 50.0);
    assert_eq!(marks.select_hand_credit, 0.75);
    assert_eq!(marks.select_hand, 15.0);
    assert_eq!(marks.total, 65.0);
    assert_eq!(marks.code_quality, "not assessed");
    assert_eq!(Marks::new(&[], None).total, 0.0);
    // Off by one on every hand worth 29, 28 or 24: a handful of pairs, a visible loss.
    let rare = hand_value_check(|v| ItemOutcome::Int(i64::from(v) + i64::from(v >= 24)));
    let marks = Marks::new(&tests, Some(&rare));
    assert!(marks.hand_value_share_wrong > 0.0 && marks.hand_value_share_wrong < 0.001);
    assert!(
        marks.hand_value < 50.0 && marks.hand_value > 48.0,
        "{marks:?}"
    );
    // Wrong everywhere: nothing.
    let never = hand_value_check(|_| ItemOutcome::Outcome(Outcome::Fail));
    assert_eq!(never.share_wrong, 1.0);
    assert_eq!(Marks::new(&[], Some(&never)).hand_value, 0.0);
}

#[test]
fn problems_count_verdicts() {
    let tests = vec![
        test(Verdict::NoSolution, Some(0.0)),
        test(Verdict::NoSolution, Some(0.0)),
        test(Verdict::Pass, Some(1.0)),
    ];
    let hand_value = hand_value_check(|v| {
        if v == 0 {
            ItemOutcome::Outcome(Outcome::Fail)
        } else {
            ItemOutcome::Int(i64::from(v))
        }
    });
    let report = SubmissionResult {
        name: "x".into(),
        path: "x.pl".into(),
        content_hash: String::new(),
        test_set: String::new(),
        seed_id: "0123456789abcdef".into(),
        select_credit: SelectCredit::Graded,
        isolation: Isolation::from_layers(&[Layer::Bwrap, Layer::Seccomp]),
        load: Load {
            missing_predicate: vec![crib_results::Predicate::SelectHand],
            ..Load::default()
        },
        marks: Marks::new(&tests, Some(&hand_value)),
        hand_value: Some(hand_value),
        tests,
        children: 1,
        elapsed_ms: 1,
        output: String::new(),
        deep: None,
        quality: None,
        lms: None,
        keep_diagnosis: None,
        produced_by: None,
    };
    let problems: Vec<String> = report.problems().into_iter().map(|p| p.text).collect();
    assert_eq!(
        problems[..2],
        ["missing_predicate select_hand/3", "2 no_solution"]
    );
    assert!(
        problems[2].ends_with(" hand_value no_solution"),
        "{problems:?}"
    );
    let text = table(std::slice::from_ref(&report), true);
    assert!(text.contains("% wrong"), "{text}");
    assert!(text.contains("no integer answer"), "{text}");
    let gs = gradescope(&report, VisibilityPolicy::AllVisible);
    let tests = gs["tests"].as_array().unwrap();
    assert_eq!(tests[0]["name"], "hand_value/3 on every rank pattern");
    assert_eq!(tests[0]["max_score"], 50.0);
    assert_eq!(tests[0]["score"], report.marks.hand_value);
    assert!(tests[0]["output"]
        .as_str()
        .unwrap()
        .contains("What is wrong, rule by rule"));
    // Every area test is worth nothing; the failing hands are in "no integer answer".
    let no_answer = tests
        .iter()
        .find(|t| t["name"] == format!("hand_value/3: {}", Area::NoAnswer.title()))
        .unwrap();
    assert_eq!(no_answer["status"], "failed");
    assert_eq!(no_answer["max_score"], 0.0);
    let select: Vec<&serde_json::Value> = tests
        .iter()
        .filter(|t| t["number"].as_str().unwrap().starts_with("2."))
        .collect();
    assert_eq!(select.len(), 3);
    assert_eq!(select[2]["status"], "passed");
    assert_eq!(select[0]["max_score"], 6.6667);
}

/// A report of one named and one pool select_hand test, the second one failed, a
/// hand_value check wrong on the hands worth 2, with a load warning.
fn policy_report(elapsed_ms: u64) -> SubmissionResult {
    let set = crate::test_set();
    let named = set
        .cases
        .iter()
        .find(|c| c.source == TestSource::Named)
        .unwrap();
    let pool = set
        .cases
        .iter()
        .find(|c| c.source == TestSource::Pool)
        .unwrap();
    let mk = |c: &crib_testset::TestCase, verdict: Verdict, credit: Option<f64>| TestResult {
        id: c.id.clone(),
        predicate: crib_results::Predicate::SelectHand,
        source: c.source,
        goal: c.goal(),
        verdict,
        credit,
        time_ms: 1,
        cpu_ms: Some(1),
    };
    let tests = vec![
        mk(named, Verdict::Pass, Some(1.0)),
        mk(
            pool,
            Verdict::WrongAnswer {
                expected: "4".into(),
                got: "8".into(),
            },
            Some(0.0),
        ),
    ];
    let hand_value = hand_value_check(|v| ItemOutcome::Int(i64::from(v) + i64::from(v == 2)));
    SubmissionResult {
        name: "x".into(),
        path: "x.pl".into(),
        content_hash: String::new(),
        test_set: set.fingerprint.clone(),
        seed_id: set.seed_id.clone(),
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
        marks: Marks::new(&tests, Some(&hand_value)),
        hand_value: Some(hand_value),
        tests,
        children: 1,
        deep: None,
        quality: None,
        lms: None,
        keep_diagnosis: None,
        produced_by: None,
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
    // The hand_value tests (1.x), then the named deal and the pool deal.
    let expect = [
        (VisibilityPolicy::AllVisible, "visible", "visible"),
        (
            VisibilityPolicy::ExamplesVisible,
            "after_published",
            "visible",
        ),
        (VisibilityPolicy::AfterDueDate, "after_due_date", "visible"),
        (VisibilityPolicy::Hidden, "hidden", "hidden"),
    ];
    for (policy, rest, named) in expect {
        let gs = gradescope(&report, policy);
        let seen = visibilities(&gs);
        let (last, hand_value) = seen.split_last().unwrap();
        let (named_seen, hand_value) = hand_value.split_last().unwrap();
        assert_eq!(*last, rest, "{}", policy);
        assert_eq!(*named_seen, named, "{}", policy);
        assert!(
            hand_value.iter().all(|v| *v == rest),
            "{}: {seen:?}",
            policy
        );
        assert_eq!(gs["visibility"], "visible", "{}", policy);
        assert_eq!(gs["score"], report.marks.total);
        let output = gs["output"].as_str().unwrap();
        assert!(
            output.contains("x.pl:3: warning: Singleton variables: [X]"),
            "{}: the load diagnostics are shown: {output}",
            policy
        );
        assert!(output.contains(&report.seed_id), "{output}");
        assert_eq!(
            output.contains("select_hand/3: 1 test gave a wrong answer"),
            policy != VisibilityPolicy::Hidden,
            "{}: verdict counts only when tests are not hidden: {output}",
            policy
        );
    }
}

#[test]
fn execution_time_rounds_up_and_numbers_are_stable() {
    let times: Vec<u64> = [0, 1, 400, 1000, 1001]
        .iter()
        .map(|ms| {
            gradescope(&policy_report(*ms), VisibilityPolicy::AllVisible)["execution_time"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(times, [0, 1, 1, 1, 2]);
    let gs = gradescope(&policy_report(1), VisibilityPolicy::AllVisible);
    let numbers: Vec<&str> = gs["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["number"].as_str().unwrap())
        .collect();
    assert_eq!(
        numbers,
        ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "2.1", "2.2"]
    );
    assert_eq!(
        gs,
        gradescope(&policy_report(1), VisibilityPolicy::AllVisible)
    );
}

mod lms;
mod quality;
