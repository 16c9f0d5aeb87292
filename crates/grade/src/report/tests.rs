use super::*;
use crate::sandbox::Layer;

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
