use super::*;

/// Returns a checked-in result of the corpus: three suboptimal pool tests, hand_value/3
/// wrong on runs, crib lint's findings.
pub(crate) fn broken_runs() -> SubmissionResult {
    serde_json::from_str(include_str!("../../tests/results/broken_runs.json")).unwrap()
}

fn options(visibility: VisibilityPolicy) -> FeedbackOptions<'static> {
    FeedbackOptions {
        assignment: "Project 1",
        extras: MarksExtras::default(),
        sources: None,
        visibility,
    }
}

#[test]
fn hidden_tests_are_not_shown_nor_counted() {
    let report = broken_runs();
    for policy in [VisibilityPolicy::Hidden] {
        let page = feedback_html(&report, options(policy));
        let text = feedback_text(&report, options(policy));
        for out in [&page, &text] {
            assert!(!out.contains("?- "), "no goal under {policy}");
            assert!(!out.contains("suboptimal"), "no verdict count");
            assert!(out.contains("57.84 / 70"), "the marks are always shown");
            assert!(out.contains("not shown (the course's policy)"));
        }
    }
    // Under examples-visible the other tests are shown once the marks are published, which
    // is when feedback goes back.
    let text = feedback_text(&report, options(VisibilityPolicy::ExamplesVisible));
    assert!(text.contains("?- select_hand(") && text.contains("44 of 48 tests passed"));
}

/// broken_runs with the rule-by-rule diagnosis a result of this crib carries: a double run
/// counted once, shown on its simplest failing hand (a double run of four, half counted).
fn broken_runs_by_rule() -> SubmissionResult {
    let mut report = broken_runs();
    let hv = report.hand_value.as_mut().unwrap();
    let example = hv.counterexamples[0].clone();
    hv.rules = vec![crib_results::RuleFinding {
        rule: crib_results::Area::Runs,
        verdict: crib_results::RuleVerdict::Mistake(crib_results::RuleMistake::RunsDistinctRanks),
        explains: 1.0,
        expected_points: Some(example.points.runs),
        got_points: Some(example.points.runs / 2),
        example,
    }];
    report
}

#[test]
fn the_student_reads_each_rule_in_words_and_no_verdict_code() {
    let report = broken_runs_by_rule();
    let page = feedback_html(&report, options(VisibilityPolicy::AllVisible));
    let text = feedback_text(&report, options(VisibilityPolicy::AllVisible));
    let words = "a double run (a run with a repeated rank, like 3-3-4-5) is counted once";
    for out in [&page, &text] {
        assert!(out.contains(words), "{out}");
        assert!(out.contains("rule by rule"), "{out}");
        assert!(!out.contains("hand_value wrong_answer"), "{out}");
        assert!(
            !out.contains("every failing hand has a run"),
            "the staff's statistic"
        );
    }
    assert!(
        text.contains("hand_value/3 gives a wrong value on ")
            && text.contains("select_hand/3: 4 tests kept a hand that is not the best"),
        "{text}"
    );
    assert!(
        text.contains("runs: 8 points by the rules, 4 as counted"),
        "{text}"
    );
    // The staff's report keeps the codes.
    let staff: Vec<String> = report.problems().into_iter().map(|p| p.text).collect();
    assert!(
        staff.iter().any(|p| p.ends_with("hand_value wrong_answer")),
        "{staff:?}"
    );
}

/// broken_runs with select_hand/3's diagnosis: the discards counted as starts, shown on the
/// first of its failing tests.
fn with_keep_diagnosis() -> SubmissionResult {
    let mut report = broken_runs();
    let (goal, chosen, best) = report
        .tests
        .iter()
        .find_map(|t| match &t.verdict {
            crib_results::Verdict::Suboptimal { chosen, best } => {
                Some((t.goal.clone(), chosen.clone(), best[0].clone()))
            }
            _ => None,
        })
        .expect("broken_runs has a keep that is not the best");
    report.keep_diagnosis = Some(crib_results::KeepDiagnosis {
        verdict: crib_results::KeepVerdict::Mistake(crib_results::KeepMistake::DiscardsAsStarts),
        failing: 4,
        explained: 4,
        passing: 44,
        follows_hand_value: false,
        example: crib_results::KeepExample {
            goal,
            source: crib_results::TestSource::Pool,
            dealt: String::new(),
            starts: 46,
            chosen,
            best,
        },
    });
    report
}

#[test]
fn select_hands_mistake_is_told_in_words_with_its_deal() {
    let report = with_keep_diagnosis();
    let words = "he cards you discard are counted among the possible start cards";
    let page = feedback_html(&report, options(VisibilityPolicy::AllVisible));
    let text = feedback_text(&report, options(VisibilityPolicy::AllVisible));
    for out in [&page, &text] {
        assert!(out.contains(words), "{out}");
        assert!(out.contains("4 of the 4 deals where your keep is not the best"));
        assert!(out.contains("on average over the 46 possible start cards"));
        assert!(!out.contains("suboptimal"), "no verdict code");
    }
    // Hidden: neither the words nor the deal.
    for out in [
        feedback_html(&report, options(VisibilityPolicy::Hidden)),
        feedback_text(&report, options(VisibilityPolicy::Hidden)),
    ] {
        assert!(!out.contains(words) && !out.contains("?- "));
    }
    // A result written before crib diagnosed keeps reads back without it.
    let json = serde_json::to_value(broken_runs()).unwrap();
    assert!(json.get("keep_diagnosis").is_none());
    let back: SubmissionResult =
        serde_json::from_value(serde_json::to_value(&report).unwrap()).unwrap();
    assert_eq!(back, report);
}
