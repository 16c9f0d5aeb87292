//! What the class did as a whole: marks, histograms, tests ranked by failures, rules.

use std::collections::HashMap;

use crib_core::{cards_text, Breakdown, Points, Rule};
use crib_grade::{Expected, Input, Report, TestCase, Verdict};

use crate::deep::DeepClass;

/// How many of the commonest wrong answers each test keeps.
pub const TOP_ANSWERS: usize = 4;

/// The class at a glance.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Submissions in the results.
    pub submissions: usize,
    /// Submissions that loaded (no `load_failed`).
    pub loaded: usize,
    /// Submissions with at least one `crashed` test.
    pub crashed: usize,
    /// Submissions with at least one `timeout` test.
    pub timed_out: usize,
    /// Submissions with full marks (70).
    pub full_marks: usize,
    /// Mean and median of the total (out of 70).
    pub total: (f64, f64),
    /// Mean and median of the hand_value marks (out of 50).
    pub hand_value: (f64, f64),
    /// Mean and median of the select_hand marks (out of 20).
    pub select_hand: (f64, f64),
    /// The test-set fingerprints of the results, each with how many results have it; more
    /// than one means the class was not graded against one test set.
    pub test_sets: Vec<(String, usize)>,
    /// The isolation of the results by name (`bwrap+seccomp`, `rlimits only`), each
    /// with how many results have it.
    pub isolation: Vec<(String, usize)>,
    /// The fingerprint of the test set this build of crib grades with, which the expected
    /// answers shown come from.
    pub current_test_set: String,
    /// Sum of the grading times, seconds.
    pub grading_seconds: f64,
}

/// Marks counted into equal bins.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// What is counted, e.g. `total /70`.
    pub title: String,
    /// The marks the bins cover, from 0.
    pub max: f64,
    /// Submissions per bin; bin `i` holds marks in `[i w, (i + 1) w)`, `w = max / len`, and
    /// the last bin also holds `max`.
    pub counts: Vec<usize>,
}

impl Histogram {
    /// Returns the histogram of `marks` over `0..=max` in `bins` bins; marks outside the range
    /// count in the nearest bin.
    pub fn new(title: &str, max: f64, bins: usize, marks: impl Iterator<Item = f64>) -> Histogram {
        let bins = bins.max(1);
        let mut counts = vec![0; bins];
        for mark in marks {
            let bin = (mark / max * bins as f64).floor();
            let bin = if bin.is_nan() { 0.0 } else { bin };
            counts[(bin.max(0.0) as usize).min(bins - 1)] += 1;
        }
        Histogram {
            title: title.to_string(),
            max,
            counts,
        }
    }

    /// Returns the width of a bin, in marks.
    pub fn width(&self) -> f64 {
        self.max / self.counts.len() as f64
    }
}

/// One answer several submissions gave to a test they failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The answer (`got 9`, `kept 5H 5S 5C 2C (expected 11.3913)`) or the verdict when there
    /// is none (`no_solution`, `timeout`).
    pub text: String,
    /// The verdict it got.
    pub verdict: &'static str,
    /// How many submissions gave it.
    pub count: usize,
    /// For a wrong hand_value: the rule whose points the answer lacks exactly (`fifteens`,
    /// `pairs`, `runs`, `flush`, `nob`), if exactly one does.
    pub missing_rule: Option<&'static str>,
}

/// One test and how the class did on it.
#[derive(Debug, Clone, PartialEq)]
pub struct TestRow {
    /// The test's id.
    pub id: String,
    /// `hand_value` or `select_hand`.
    pub predicate: String,
    /// The goal as called.
    pub goal: String,
    /// Where the test comes from (`spec/examples.jsonl`, `trap`, `random`...), when the test
    /// set is the current one.
    pub source: Option<&'static str>,
    /// The expected answer, with its rule breakdown for hand_value (`24 = fifteens 8,
    /// pairs 4, runs 12`) or the best keep for select_hand, when the test set is current.
    pub expected: Option<String>,
    /// The points per rule of the expected answer (hand_value, current test set).
    pub points: Option<Points>,
    /// Submissions whose result has the test and ran it (verdict not `not_run`).
    pub ran: usize,
    /// Of those, how many did not pass.
    pub failed: usize,
    /// Verdict names with counts, commonest first (pass included).
    pub verdicts: Vec<(&'static str, usize)>,
    /// The commonest wrong answers, at most [`TOP_ANSWERS`], commonest first.
    pub answers: Vec<Answer>,
}

impl TestRow {
    /// Returns the share of the submissions that ran the test and failed it, in 0..=1.
    pub fn failure_rate(&self) -> f64 {
        share(self.failed, self.ran)
    }
}

/// How hand_value tests that exercise one rule went.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleRow {
    /// The rule: `fifteens`, `pairs`, `runs`, `flush` or `nob`.
    pub rule: &'static str,
    /// hand_value tests whose expected answer scores points for the rule.
    pub tests: usize,
    /// Answers to those tests (one per submission that ran one).
    pub ran: usize,
    /// Of those, how many did not pass.
    pub failed: usize,
    /// Wrong answers (to any test) short by exactly this rule's points, and no other rule's.
    pub missing: usize,
    /// Submissions with at least one such wrong answer.
    pub submissions_missing: usize,
}

impl RuleRow {
    /// Returns the share of the answers to this rule's tests that failed, in 0..=1.
    pub fn failure_rate(&self) -> f64 {
        share(self.failed, self.ran)
    }
}

/// Returns `part / whole`, 0 when `whole` is 0.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Everything the report shows about the class, computed once from the results.
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    /// The class at a glance.
    pub summary: Summary,
    /// Total, hand_value and select_hand marks.
    pub histograms: Vec<Histogram>,
    /// Every test, most failed first (ties in test-set order).
    pub tests: Vec<TestRow>,
    /// The hand_value rules, in spec order.
    pub rules: Vec<RuleRow>,
    /// The deep check of the results that have one (`crib grade --deep`); `None` when none
    /// has.
    pub deep: Option<DeepClass>,
}

/// The current test set's cases by id: position, case, expected points per rule (hand_value).
type Cases<'a> = HashMap<&'a str, (usize, &'a TestCase, Option<Points>)>;

/// Reads one rule's points.
type RulePoints = fn(&Points) -> u8;

/// The rules of hand_value in spec order, with their points.
const RULES: [(&str, RulePoints); 5] = [
    ("fifteens", |p| p.fifteens),
    ("pairs", |p| p.pairs),
    ("runs", |p| p.runs),
    ("flush", |p| p.flush),
    ("nob", |p| p.nob),
];

impl Class {
    /// Returns the statistics of `reports`, one per submission. Expected answers come from
    /// [`crib_grade::test_set`] when a test id is in it.
    pub fn new(reports: &[Report]) -> Class {
        let set = crib_grade::test_set();
        let cases: Cases = set
            .cases
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.as_str(), (i, c, case_points(c))))
            .collect();
        Class {
            summary: summary(reports, &set.fingerprint),
            histograms: vec![
                Histogram::new("total /70", 70.0, 14, reports.iter().map(|r| r.marks.total)),
                Histogram::new(
                    "hand_value /50",
                    50.0,
                    10,
                    reports.iter().map(|r| r.marks.hand_value),
                ),
                Histogram::new(
                    "select_hand /20",
                    20.0,
                    10,
                    reports.iter().map(|r| r.marks.select_hand),
                ),
            ],
            tests: tests(reports, &cases),
            rules: rules(reports, &cases),
            deep: DeepClass::new(reports),
        }
    }
}

fn summary(reports: &[Report], current: &str) -> Summary {
    let has = |r: &Report, name: &str| r.tests.iter().any(|t| t.verdict.name() == name);
    let count = |f: &dyn Fn(&Report) -> bool| reports.iter().filter(|r| f(r)).count();
    let marks = |f: fn(&Report) -> f64| mean_median(reports.iter().map(f).collect());
    Summary {
        submissions: reports.len(),
        loaded: count(&|r| r.load.load_failed.is_none()),
        crashed: count(&|r| has(r, "crashed")),
        timed_out: count(&|r| has(r, "timeout")),
        full_marks: count(&|r| r.marks.total >= 70.0),
        total: marks(|r| r.marks.total),
        hand_value: marks(|r| r.marks.hand_value),
        select_hand: marks(|r| r.marks.select_hand),
        test_sets: tally(reports.iter().map(|r| r.test_set.clone())),
        isolation: tally(reports.iter().map(|r| r.isolation.name())),
        current_test_set: current.to_string(),
        grading_seconds: reports.iter().map(|r| r.elapsed_ms as f64 / 1000.0).sum(),
    }
}

/// Returns the distinct values with their counts, commonest first, then by value.
fn tally(values: impl Iterator<Item = String>) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    let mut out: Vec<(String, usize)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// Returns (mean, median) of `values`, (0, 0) when empty.
fn mean_median(mut values: Vec<f64>) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let mean = values.iter().sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    (mean, median)
}

/// Returns the expected points per rule of a hand_value case.
fn case_points(case: &TestCase) -> Option<Points> {
    let Input::HandValue { hand, start } = &case.input else {
        return None;
    };
    Breakdown::new(hand, *start, Rule::Hand)
        .ok()
        .map(|b| b.points())
}

/// Returns the expected answer as the report shows it.
fn expected_text(case: &TestCase) -> String {
    match &case.expected {
        Expected::Value(v) => {
            let parts: Vec<String> = case_points(case)
                .map(|p| {
                    RULES
                        .iter()
                        .filter(|(_, f)| f(&p) > 0)
                        .map(|(name, f)| format!("{name} {}", f(&p)))
                        .collect()
                })
                .unwrap_or_default();
            if parts.is_empty() {
                format!("{v}")
            } else {
                format!("{v} = {}", parts.join(", "))
            }
        }
        Expected::Keeps(keeps) => match keeps.first() {
            Some(best) => {
                let ties = keeps.iter().filter(|k| k.total == best.total).count();
                format!(
                    "keep {} (discard {}, expected {:.4}){}",
                    cards_text(&best.keep),
                    cards_text(best.discard()),
                    best.expected_value(),
                    if ties > 1 {
                        format!(", or any of {} tied keeps", ties - 1)
                    } else {
                        String::new()
                    }
                )
            }
            None => "-".into(),
        },
    }
}

/// Returns the rule that `got` lacks exactly, if exactly one rule's points fit.
fn missing_rule(points: &Points, expected: &str, got: &str) -> Option<&'static str> {
    let (expected, got) = (expected.parse::<i64>().ok()?, got.parse::<i64>().ok()?);
    let short = expected - got;
    let fits: Vec<&'static str> = RULES
        .iter()
        .filter(|(_, f)| f(points) > 0 && i64::from(f(points)) == short)
        .map(|(name, _)| *name)
        .collect();
    match fits.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// Returns the answer a failed test is grouped under.
fn answer_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::WrongAnswer { got, .. } => format!("got {got}"),
        Verdict::Suboptimal { chosen, .. } => format!(
            "kept {} (expected {:.4})",
            chosen.keep, chosen.expected_value
        ),
        Verdict::WrongType { got, reason } => {
            let got: String = got.chars().take(80).collect();
            format!("{reason}: {got}")
        }
        other => other.name().replace('_', " "),
    }
}

fn tests(reports: &[Report], cases: &Cases) -> Vec<TestRow> {
    // Tests in the order first seen, which is test-set order for results of one test set.
    let mut order: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    struct Acc {
        predicate: String,
        goal: String,
        ran: usize,
        failed: usize,
        verdicts: HashMap<&'static str, usize>,
        answers: HashMap<String, (&'static str, usize, Option<&'static str>)>,
    }
    let mut accs: Vec<Acc> = Vec::new();
    for report in reports {
        for t in &report.tests {
            let k = *index.entry(t.id.clone()).or_insert_with(|| {
                order.push(t.id.clone());
                accs.push(Acc {
                    predicate: t.predicate.clone(),
                    goal: t.goal.clone(),
                    ran: 0,
                    failed: 0,
                    verdicts: HashMap::new(),
                    answers: HashMap::new(),
                });
                accs.len() - 1
            });
            let acc = &mut accs[k];
            let name = t.verdict.name();
            *acc.verdicts.entry(name).or_default() += 1;
            if matches!(t.verdict, Verdict::NotRun { .. }) {
                continue;
            }
            acc.ran += 1;
            if t.verdict == Verdict::Pass {
                continue;
            }
            acc.failed += 1;
            let missing = match (&t.verdict, cases.get(t.id.as_str())) {
                (Verdict::WrongAnswer { expected, got }, Some((_, _, Some(p)))) => {
                    missing_rule(p, expected, got)
                }
                _ => None,
            };
            let entry = acc
                .answers
                .entry(answer_text(&t.verdict))
                .or_insert((name, 0, missing));
            entry.1 += 1;
        }
    }
    let mut rows: Vec<((usize, usize), TestRow)> = order
        .into_iter()
        .zip(accs)
        .enumerate()
        .map(|(seen, (id, acc))| {
            let known = cases.get(id.as_str());
            let case = known.map(|(_, c, _)| *c);
            let position = known.map_or(usize::MAX, |(i, _, _)| *i);
            let mut verdicts: Vec<(&'static str, usize)> = acc.verdicts.into_iter().collect();
            verdicts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
            let mut answers: Vec<Answer> = acc
                .answers
                .into_iter()
                .map(|(text, (verdict, count, missing_rule))| Answer {
                    text,
                    verdict,
                    count,
                    missing_rule,
                })
                .collect();
            answers.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.text.cmp(&b.text)));
            answers.truncate(TOP_ANSWERS);
            let row = TestRow {
                source: case.map(|c| c.source),
                expected: case.map(expected_text),
                points: known.and_then(|(_, _, p)| *p),
                id,
                predicate: acc.predicate,
                goal: acc.goal,
                ran: acc.ran,
                failed: acc.failed,
                verdicts,
                answers,
            };
            ((position, seen), row)
        })
        .collect();
    rows.sort_by(|(pa, a), (pb, b)| {
        b.failed
            .cmp(&a.failed)
            .then_with(|| b.failure_rate().total_cmp(&a.failure_rate()))
            .then_with(|| pa.cmp(pb))
    });
    rows.into_iter().map(|(_, row)| row).collect()
}

fn rules(reports: &[Report], cases: &Cases) -> Vec<RuleRow> {
    RULES
        .iter()
        .map(|(rule, points_of)| {
            let exercises = |id: &str| {
                cases
                    .get(id)
                    .and_then(|(_, _, p)| p.as_ref())
                    .is_some_and(|p| points_of(p) > 0)
            };
            let tests = cases
                .values()
                .filter(|(_, _, p)| p.as_ref().is_some_and(|p| points_of(p) > 0))
                .count();
            let (mut ran, mut failed, mut missing, mut submissions_missing) = (0, 0, 0, 0);
            for report in reports {
                let mut missed_here = false;
                for t in &report.tests {
                    if t.predicate != "hand_value" || matches!(t.verdict, Verdict::NotRun { .. }) {
                        continue;
                    }
                    if exercises(&t.id) {
                        ran += 1;
                        failed += usize::from(t.verdict != Verdict::Pass);
                    }
                    if let (Verdict::WrongAnswer { expected, got }, Some((_, _, Some(p)))) =
                        (&t.verdict, cases.get(t.id.as_str()))
                    {
                        if missing_rule(p, expected, got) == Some(*rule) {
                            missing += 1;
                            missed_here = true;
                        }
                    }
                }
                submissions_missing += usize::from(missed_here);
            }
            RuleRow {
                rule,
                tests,
                ran,
                failed,
                missing,
                submissions_missing,
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests;
