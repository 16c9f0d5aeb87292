//! `crib grade --deep`: the reference is right on all 12,994,800 pairs, a plain correct
//! submission on a seeded sample, and every broken rule of the corpus gets a diagnosis that
//! names its cause (the catalog's hand_value mistakes get theirs in `catalog.rs`).

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

use crib_grade::{DeepOptions, Grader, Limits, Session};
use crib_isolation::IsolationChoice;
use crib_results::{DeepHandValue, SubmissionResult};
use crib_submission::Submission;

/// Classes in the sampled checks: a seeded tenth-of-a-percent-level sample is too thin for
/// rare features (five-card runs), so 15,000 of 652,353.
const SAMPLE: usize = 15_000;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn grader(options: DeepOptions) -> Grader {
    Grader::new(
        Path::new("swipl"),
        IsolationChoice::Auto,
        Limits::default(),
        &common::tests(),
    )
    .and_then(|g| g.with_deep(options))
    .expect("swipl runs here")
}

fn sampled(deals: usize) -> DeepOptions {
    DeepOptions {
        budget: Duration::from_secs(300),
        classes: Some(SAMPLE),
        select_deals: deals,
        select_budget: Duration::from_secs(300),
        children: NonZeroUsize::MIN,
        ..DeepOptions::default()
    }
}

/// Grades `paths` (one submission each) two at a time.
fn grade(grader: &Grader, paths: &[PathBuf]) -> BTreeMap<String, SubmissionResult> {
    let out = tempfile::tempdir().expect("a temporary directory");
    let mut session = Session::new(out.path());
    session.jobs = NonZeroUsize::new(2).expect("two");
    let submissions: Vec<Submission> = session
        .survey(paths, false)
        .expect("the submissions are readable")
        .submissions;
    let graded = session
        .grade(grader, &submissions, &mut ())
        .expect("results are written");
    graded
        .reports
        .into_iter()
        .map(|r| (r.name.clone(), r))
        .collect()
}

fn hand_value(report: &SubmissionResult) -> &DeepHandValue {
    report
        .deep
        .as_ref()
        .and_then(|d| d.hand_value.as_ref())
        .unwrap_or_else(|| panic!("{}: no deep hand_value check", report.name))
}

#[test]
fn the_reference_is_right_on_every_pair() {
    let options = DeepOptions {
        budget: Duration::from_secs(600),
        select_deals: 100,
        ..DeepOptions::default()
    };
    let reference = crate_dir().join("../../prolog/cribbage.pl");
    let reports = grade(&grader(options), &[reference]);
    let report = &reports["cribbage"];
    let hv = hand_value(report);
    assert_eq!(hv.classes_checked, 652_353, "{:?}", hv.stopped);
    assert_eq!(hv.pairs_checked, 12_994_800);
    assert_eq!(hv.failing_pairs, 0, "{:?}", hv.counterexamples);
    assert_eq!(hv.probes.differed, 0);
    let lines = report.deep.as_ref().map(|d| d.lines()).unwrap_or_default();
    assert!(
        lines[0].starts_with("deep hand_value/3: 0 of 12,994,800 pairs wrong"),
        "{}",
        lines[0]
    );
    let sh = report.deep.as_ref().and_then(|d| d.select_hand.as_ref());
    let sh = sh.expect("select_hand is checked");
    assert_eq!((sh.checked, sh.optimal), (100, 100));
}

/// The feature each broken rule's diagnosis must name in its first finding. The catalog's
/// hand_value mistakes (tests/mistakes/) get the same check in `catalog.rs`, where they are
/// graded once for their marks and their deep check together.
const CAUSES: &[common::Cause] = &[
    ("broken_fifteens", "fifteen", true),
    ("broken_pairs", "pair", true),
    ("broken_runs", "double_run", true),
    ("broken_flush", "three_plus_start_suit", true),
    ("broken_nob", "hand_jack_other_suit", true),
];

#[test]
fn every_broken_rule_gets_a_diagnosis_naming_its_cause() {
    let corpus = crate_dir().join("tests/submissions");
    let paths: Vec<PathBuf> = ["correct", "broken_fifteens", "broken_pairs", "broken_runs"]
        .iter()
        .chain(&["broken_flush", "broken_nob"])
        .map(|n| corpus.join(format!("{n}.pl")))
        .collect();
    let reports = grade(&grader(sampled(0)), &paths);

    let correct = hand_value(&reports["correct"]);
    assert_eq!(correct.classes_checked, SAMPLE, "{:?}", correct.stopped);
    assert_eq!(correct.failing_pairs, 0, "{:?}", correct.counterexamples);
    assert_eq!(correct.diagnosis.summary, "no failing hand");

    let mut wrong = Vec::new();
    for (name, report) in &reports {
        if name == "correct" {
            continue;
        }
        if !CAUSES.iter().any(|c| c.0 == name) {
            wrong.push(format!("{name}: no cause listed"));
        }
        let hv = hand_value(report);
        wrong.extend(common::diagnosis_problem(
            name,
            hv.failing_pairs,
            &hv.diagnosis,
            CAUSES,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn select_hand_is_checked_on_seeded_deals() {
    let corpus = crate_dir().join("tests/submissions");
    let mut paths = vec![corpus.join("correct.pl"), corpus.join("broken_runs.pl")];
    let first_keep = crate_dir().join("tests/mistakes/sh-first-keep.pl");
    if first_keep.exists() {
        paths.push(first_keep);
    }
    let options = DeepOptions {
        classes: Some(100),
        ..sampled(40)
    };
    let reports = grade(&grader(options), &paths);
    let select = |name: &str| {
        reports[name]
            .deep
            .as_ref()
            .and_then(|d| d.select_hand.clone())
            .unwrap_or_else(|| panic!("{name}: no deep select_hand check"))
    };
    let correct = select("correct");
    assert_eq!((correct.checked, correct.optimal), (40, 40));
    assert_eq!(correct.worst_regret, 0.0);
    // A keep valued with a wrong hand_value is sometimes not optimal.
    let runs = select("broken_runs");
    assert_eq!(runs.checked, 40);
    assert!(runs.optimal < 40 && runs.simplest.is_some() && runs.worst_regret > 0.0);
    if reports.contains_key("sh-first-keep") {
        let first = select("sh-first-keep");
        assert!(first.optimal < first.checked / 2, "{first:?}");
    }
}
