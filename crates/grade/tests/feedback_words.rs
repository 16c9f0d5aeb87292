//! The marked hand_value check says what is wrong rule by rule in the student's words, for
//! catalog mistakes of three rules and for one that breaks four: graded with the library
//! (a real swipl child on every rank pattern, one select_hand deal), the words checked in
//! the result, in Gradescope's results.json and in `crib grade`'s table. And select_hand/3's
//! diagnosis says which mistake its keeps follow, for catalog mistakes of different kinds
//! (the start cards, the value ranked by, a wrong hand value): graded on every deal.

use std::collections::BTreeMap;
use std::path::Path;

mod common;

use crib_grade::{table, Limits, WorkerPool};
use crib_isolation::IsolationChoice;
use crib_results::{
    gradescope, Area, KeepMistake, KeepVerdict, RuleMistake, RuleVerdict, SubmissionResult,
    VisibilityPolicy,
};
use crib_submission::discover;

/// A rule found wrong: the rule, its mistake, and the start of the words the student reads.
type Found = (Area, RuleMistake, &'static str);

/// Each catalog mistake graded here, with the rules it must be found wrong in.
const EXPECTED: &[(&str, &[Found])] = &[
    (
        "fifteens-face-rank-value",
        &[(
            Area::Fifteens,
            RuleMistake::FifteensFacesByRank,
            "a face card counts 11-13 in fifteens",
        )],
    ),
    (
        "flush-needs-five",
        &[(
            Area::Flush,
            RuleMistake::FlushFourMissing,
            "a flush of four in the hand is not counted",
        )],
    ),
    (
        "nob-any-jack",
        &[(
            Area::Nob,
            RuleMistake::NobAnyJack,
            "any jack in the hand scores his nob",
        )],
    ),
    (
        "value-fifteens-only",
        &[
            (
                Area::Pairs,
                RuleMistake::PairsMissing,
                "pairs are never counted",
            ),
            (
                Area::Runs,
                RuleMistake::RunsMissing,
                "runs are never counted",
            ),
            (
                Area::Flush,
                RuleMistake::FlushMissing,
                "flushes are never counted",
            ),
            (
                Area::Nob,
                RuleMistake::NobMissing,
                "his nob is never counted",
            ),
        ],
    ),
];

fn graded() -> BTreeMap<String, SubmissionResult> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mistakes");
    let subs: Vec<_> = discover(&[dir], false)
        .unwrap()
        .into_iter()
        .filter(|s| EXPECTED.iter().any(|(name, _)| *name == s.name))
        .collect();
    assert_eq!(subs.len(), EXPECTED.len());
    let grader = common::grader(
        IsolationChoice::Auto,
        Limits {
            select_hand_deals: Some(1),
            ..Limits::default()
        },
    );
    let reports = WorkerPool::new(2).run(&subs, |worker, sub| grader.grade(sub, worker));
    subs.iter()
        .zip(reports)
        .map(|(s, r)| (s.name.clone(), r.expect("grading does not panic")))
        .collect()
}

#[test]
fn each_mistake_is_told_rule_by_rule_in_words() {
    let reports = graded();
    let mut wrong = Vec::new();
    for (name, expected) in EXPECTED {
        let report = &reports[*name];
        let hv = report.hand_value.as_ref().expect("hand_value/3 is checked");
        let found: Vec<(Area, RuleVerdict)> =
            hv.rules.iter().map(|f| (f.rule, f.verdict)).collect();
        let want: Vec<(Area, RuleVerdict)> = expected
            .iter()
            .map(|(a, m, _)| (*a, RuleVerdict::Mistake(*m)))
            .collect();
        if found != want {
            wrong.push(format!("{name}: found {found:?}, expected {want:?}"));
            continue;
        }
        let explained: f64 = hv.rules.iter().map(|f| f.explains).sum();
        if explained < 0.99 {
            wrong.push(format!("{name}: the findings explain only {explained}"));
        }
        // The student's outputs say it in words; the verdict codes stay for staff.
        let results = gradescope(report, VisibilityPolicy::AllVisible);
        let hand_value_test = results["tests"][0]["output"].as_str().unwrap_or_default();
        let top = results["output"].as_str().unwrap_or_default();
        let grade_table = table(std::slice::from_ref(report), false);
        for (area, _, words) in *expected {
            let finding = hv
                .rules
                .iter()
                .find(|f| f.rule == *area)
                .expect("found above");
            if !finding.words().starts_with(words) {
                wrong.push(format!("{name}: {area} says {:?}", finding.words()));
            }
            // The example shows the rule alone: the submission counts every other rule right.
            let example = &finding.example;
            if example.got.parse::<i64>().ok()
                != Some(
                    i64::from(example.expected) - i64::from(finding.expected_points.unwrap_or(0))
                        + i64::from(finding.got_points.unwrap_or(0)),
                )
            {
                wrong.push(format!("{name}: {area}'s example mixes rules: {example:?}"));
            }
            for (output, text) in [
                ("Gradescope", hand_value_test),
                ("crib grade", grade_table.as_str()),
            ] {
                if !text.contains(words) {
                    wrong.push(format!("{name}: {output} does not say {words:?}:\n{text}"));
                }
            }
            if !hand_value_test.contains(&finding.example.goal) {
                wrong.push(format!("{name}: Gradescope does not show the example"));
            }
        }
        if top.contains("wrong_answer") || hand_value_test.contains("wrong_answer") {
            wrong.push(format!("{name}: the student reads a verdict code:\n{top}"));
        }
        if !grade_table.contains("hand_value wrong_answer") {
            wrong.push(format!("{name}: the staff's problems lost their codes"));
        }
        println!("{name}:\n{}\n", hv.rule_lines().join("\n"));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Each catalog mistake whose select_hand/3 keeps are diagnosed here: its mistake, the start
/// of the words the student reads, and whether they say it follows from hand_value/3's.
const KEEPS: &[(&str, KeepMistake, &str, bool)] = &[
    (
        "sh-starts-48",
        KeepMistake::DiscardsAsStarts,
        "the cards you discard are counted among the possible start cards",
        false,
    ),
    (
        "sh-ignore-start",
        KeepMistake::FourCardsAlone,
        "the start card is ignored: keeps are ranked by the four cards alone",
        false,
    ),
    (
        "fifteens-face-rank-value",
        KeepMistake::WrongHandValue {
            rule: Some(RuleMistake::FifteensFacesByRank),
        },
        "select_hand/3 ranks keeps with a hand value in which a face card counts 11-13",
        true,
    ),
];

#[test]
fn select_hands_mistake_is_told_in_words() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mistakes");
    let subs: Vec<_> = discover(&[dir], false)
        .unwrap()
        .into_iter()
        .filter(|s| KEEPS.iter().any(|k| k.0 == s.name))
        .collect();
    assert_eq!(subs.len(), KEEPS.len());
    // Every deal; hand_value/3 on a uniform sample of the patterns, enough for its rules.
    let grader = common::grader(
        IsolationChoice::Auto,
        Limits {
            hand_value_patterns: Some(4000),
            ..Limits::default()
        },
    );
    let reports = WorkerPool::new(2).run(&subs, |worker, sub| grader.grade(sub, worker));
    let mut wrong = Vec::new();
    for (sub, report) in subs.iter().zip(reports) {
        let report = report.expect("grading does not panic");
        let &(name, mistake, words, follows) =
            KEEPS.iter().find(|k| k.0 == sub.name).expect("filtered");
        let Some(d) = &report.keep_diagnosis else {
            wrong.push(format!("{name}: no diagnosis"));
            continue;
        };
        if d.verdict != KeepVerdict::Mistake(mistake) {
            wrong.push(format!("{name}: diagnosed {:?}", d.verdict));
            continue;
        }
        if d.explained != d.failing || d.follows_hand_value != follows {
            wrong.push(format!("{name}: {d:?}"));
        }
        // The example is a failing test of the submission, valued by crib-core.
        let example_test = report.tests.iter().find(|t| t.goal == d.example.goal);
        if example_test.is_none_or(|t| t.verdict.name() != "suboptimal")
            || d.example.chosen.expected_value >= d.example.best.expected_value
        {
            wrong.push(format!("{name}: example {:?}", d.example));
        }
        let results = gradescope(&report, VisibilityPolicy::AllVisible);
        let tests = results["tests"].as_array().cloned().unwrap_or_default();
        let diagnosis_test = tests
            .iter()
            .find(|t| t["number"] == "2.0")
            .and_then(|t| t["output"].as_str())
            .unwrap_or_default()
            .to_string();
        let grade_table = table(std::slice::from_ref(&report), false);
        // The table, for staff, leaves out the predicate's name it is under.
        for (output, text, words) in [
            ("Gradescope", diagnosis_test.as_str(), words),
            (
                "crib grade",
                grade_table.as_str(),
                words.trim_start_matches("select_hand/3 "),
            ),
        ] {
            if !text.contains(words) {
                wrong.push(format!("{name}: {output} does not say {words:?}:\n{text}"));
            }
        }
        if follows && !diagnosis_test.contains("follow from the mistake found in your hand_value/3")
        {
            wrong.push(format!(
                "{name}: does not say it follows:\n{diagnosis_test}"
            ));
        }
        if !diagnosis_test.contains(&d.example.goal) {
            wrong.push(format!("{name}: Gradescope does not show the example"));
        }
        // Students read words; the staff's problems keep the code; the marks are the tests'.
        let student: Vec<&str> = tests
            .iter()
            .filter(|t| t["number"].as_str().is_some_and(|n| n.starts_with("2.")))
            .filter_map(|t| t["output"].as_str())
            .collect();
        if student.iter().any(|o| o.contains("suboptimal")) {
            wrong.push(format!("{name}: the student reads a verdict code"));
        }
        if !grade_table.contains(" suboptimal") {
            wrong.push(format!("{name}: the staff's problems lost their codes"));
        }
        if report.marks != crib_results::Marks::new(&report.tests, report.hand_value.as_ref()) {
            wrong.push(format!("{name}: the marks are not the tests'"));
        }
        println!("{name}:\n{}\n", d.lines().join("\n"));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
