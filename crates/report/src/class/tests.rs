use super::*;
use crib_grade::{Isolation, Layer, Load, Marks, SelectCredit, TestResult};

/// Returns a report named `name` with one result per `(test id, verdict)`: `pass`, `wrong`
/// (got 0), `wrong:N` (got N), `no_solution`, `not_run`; the ids are the current test set's.
pub(crate) fn report(name: &str, tests: &[(&str, &str)]) -> Report {
    let set = crib_grade::test_set();
    let tests: Vec<TestResult> = tests
        .iter()
        .map(|(id, kind)| {
            let case = set
                .cases
                .iter()
                .find(|c| c.id == *id)
                .expect("a real test id");
            let expected = match &case.expected {
                Expected::Value(v) => v.to_string(),
                Expected::Keeps(_) => String::new(),
            };
            let verdict = match *kind {
                "pass" => Verdict::Pass,
                "no_solution" => Verdict::NoSolution,
                "not_run" => Verdict::NotRun {
                    reason: "did not load".into(),
                },
                wrong => Verdict::WrongAnswer {
                    expected,
                    got: wrong.strip_prefix("wrong:").unwrap_or("0").into(),
                },
            };
            TestResult {
                id: case.id.clone(),
                predicate: case.predicate().into(),
                goal: case.goal(),
                verdict,
                credit: (case.predicate() == "select_hand").then_some(1.0),
                time_ms: 1,
                cpu_ms: Some(1),
            }
        })
        .collect();
    Report {
        name: name.into(),
        path: format!("{name}.pl"),
        content_hash: String::new(),
        test_set: set.fingerprint.clone(),
        select_credit: SelectCredit::Graded,
        isolation: Isolation::from_layers(&[Layer::Bwrap, Layer::Seccomp]),
        load: Load::default(),
        marks: Marks::new(&tests),
        tests,
        children: 1,
        deep: None,
        quality: None,
        elapsed_ms: 1500,
        output: String::new(),
    }
}

#[test]
fn histogram_bins_hold_their_marks() {
    let h = Histogram::new(
        "t",
        70.0,
        14,
        [0.0, 4.99, 5.0, 70.0, 69.9, 75.0, -1.0].into_iter(),
    );
    assert_eq!(h.counts.len(), 14);
    assert_eq!(h.counts[0], 3, "0, 4.99 and -1 (clamped)");
    assert_eq!(h.counts[1], 1);
    assert_eq!(h.counts[13], 3, "69.9, 70 (the top edge) and 75 (clamped)");
    assert_eq!(h.counts.iter().sum::<usize>(), 7);
    assert_eq!(h.width(), 5.0);
}

#[test]
fn mean_and_median() {
    assert_eq!(mean_median(vec![4.0, 1.0, 3.0, 2.0]), (2.5, 2.5));
    assert_eq!(mean_median(vec![70.0, 0.0, 5.0]), (25.0, 5.0));
    assert_eq!(mean_median(vec![]), (0.0, 0.0));
}

#[test]
fn a_wrong_answer_is_put_down_to_the_one_rule_it_lacks() {
    let p = Points {
        fifteens: 4,
        pairs: 2,
        runs: 3,
        flush: 0,
        nob: 1,
    };
    assert_eq!(missing_rule(&p, "10", "6"), Some("fifteens"));
    assert_eq!(missing_rule(&p, "10", "8"), Some("pairs"));
    assert_eq!(missing_rule(&p, "10", "9"), Some("nob"));
    assert_eq!(missing_rule(&p, "10", "5"), None, "no rule is worth 5 here");
    assert_eq!(missing_rule(&p, "10", "14"), None, "too many points");
    let tie = Points {
        pairs: 2,
        fifteens: 2,
        ..Points::default()
    };
    assert_eq!(missing_rule(&tie, "4", "2"), None, "two rules are worth 2");
    assert_eq!(missing_rule(&p, "10", "x"), None);
}

#[test]
fn tests_are_ranked_by_failures_with_their_commonest_wrong_answers() {
    // assignment-6 is the 29 hand: fifteens 16, pairs 12, nob 1.
    let six = "hv:spec:assignment-6";
    let one = "hv:spec:assignment-1";
    let reports = [
        report("a", &[(one, "pass"), (six, "wrong:28")]),
        report("b", &[(one, "pass"), (six, "wrong:28")]),
        report("c", &[(one, "no_solution"), (six, "wrong:13")]),
        report("d", &[(one, "not_run"), (six, "not_run")]),
        report("e", &[(one, "pass"), (six, "pass")]),
    ];
    let class = Class::new(&reports);
    let ids: Vec<&str> = class.tests.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, [six, one]);
    let t = &class.tests[0];
    assert_eq!((t.ran, t.failed), (4, 3));
    assert_eq!(t.failure_rate(), 0.75);
    assert_eq!(t.source, Some("spec/examples.jsonl"));
    let expected = t.expected.as_deref().unwrap();
    assert_eq!(expected, "29 = fifteens 16, pairs 12, nob 1");
    assert_eq!(
        t.answers,
        [
            Answer {
                text: "got 28".into(),
                verdict: "wrong_answer",
                count: 2,
                missing_rule: Some("nob"),
            },
            Answer {
                text: "got 13".into(),
                verdict: "wrong_answer",
                count: 1,
                missing_rule: Some("fifteens"),
            },
        ]
    );
    assert_eq!(t.verdicts[0], ("wrong_answer", 3));
    assert_eq!(class.tests[1].answers[0].text, "no solution");

    let s = &class.summary;
    assert_eq!(
        (s.submissions, s.loaded, s.crashed, s.timed_out),
        (5, 5, 0, 0)
    );
    assert_eq!(
        s.test_sets,
        [(crib_grade::test_set().fingerprint.clone(), 5)]
    );
    assert_eq!(s.isolation, [("bwrap+seccomp".to_string(), 5)]);
    assert_eq!(
        s.full_marks, 0,
        "no result has select_hand tests, so none reaches 70"
    );

    let nob = class.rules.iter().find(|r| r.rule == "nob").unwrap();
    assert_eq!((nob.missing, nob.submissions_missing), (2, 2));
    let fifteens = class.rules.iter().find(|r| r.rule == "fifteens").unwrap();
    assert_eq!((fifteens.missing, fifteens.submissions_missing), (1, 1));
    let flush = class.rules.iter().find(|r| r.rule == "flush").unwrap();
    assert_eq!(
        (flush.ran, flush.failed, flush.missing),
        (0, 0, 0),
        "neither test scores a flush"
    );
    assert_eq!(nob.ran, 4, "only assignment-6 scores nob; d did not run it");
    assert_eq!(nob.failed, 3);
}

#[test]
fn a_test_unknown_to_this_test_set_is_still_counted() {
    let mut r = report("a", &[("hv:spec:assignment-1", "wrong:3")]);
    r.tests[0].id = "hv:gone".into();
    r.test_set = "v0-old".into();
    let class = Class::new(&[r]);
    assert_eq!(class.tests[0].id, "hv:gone");
    assert_eq!(
        (class.tests[0].failed, class.tests[0].expected.clone()),
        (1, None)
    );
    assert_eq!(class.tests[0].answers[0].missing_rule, None);
    assert_eq!(class.summary.test_sets, [("v0-old".to_string(), 1)]);
}
