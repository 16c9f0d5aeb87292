//! What the class did as a whole: marks, histograms, the seeds it was graded under, the
//! select_hand tests ranked by failures, and where hand_value/3 goes wrong.

use std::collections::HashMap;
use std::hash::Hash;

use crib_results::{KeepValue, Marks, SubmissionResult, TestResult, TestSource, Verdict};

use crate::deep::DeepClass;
use crate::hand_value::HandValueClass;
use crate::stats::mean_median;

/// How many of the commonest wrong answers each test keeps.
pub const TOP_ANSWERS: usize = 4;

/// The class at a glance.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassSummary {
    /// Submissions in the results.
    pub submissions: usize,
    /// Submissions that loaded (no `load_failed`).
    pub loaded: usize,
    /// Submissions with at least one `crashed` select_hand test or hand_value/3 item.
    pub crashed: usize,
    /// Submissions with at least one `timeout` select_hand test or hand_value/3 item.
    pub timed_out: usize,
    /// Submissions with full marks (70).
    pub full_marks: usize,
    /// Mean and median of the total (out of 70).
    pub total: (f64, f64),
    /// Mean and median of the hand_value marks (out of 50).
    pub hand_value: (f64, f64),
    /// Mean and median of the select_hand marks (out of 20).
    pub select_hand: (f64, f64),
    /// The public ids of the seeds the results were graded under, each with how many
    /// results have it, commonest first. One seed for a class graded in one run; one per
    /// submission on Gradescope.
    pub seeds: Vec<(String, usize)>,
    /// The test-set fingerprints of the results (each ends with its seed's id), each with how
    /// many results have it, commonest first.
    pub test_sets: Vec<(String, usize)>,
    /// The isolation of the results by name (`bwrap+seccomp`, `rlimits only`), each
    /// with how many results have it.
    pub isolation: Vec<(String, usize)>,
    /// The crib and SWI-Prolog that graded the results (`crib 0.1.0 (commit …), SWI-Prolog
    /// 9.0.4`, or `not recorded` for results written before crib recorded it), each with how
    /// many results have it, commonest first: more than one means the class was not graded
    /// under one program.
    pub producers: Vec<(String, usize)>,
}

impl ClassSummary {
    /// Returns how the class's seeds read on the page: `1 seed`, or `N seeds (one per
    /// submission, as on Gradescope)` when every result has its own, or `N seeds`.
    ///
    /// # Example
    /// ```
    /// let reports: [crib_results::SubmissionResult; 0] = [];
    /// let mut summary = crib_report::Class::new(&reports).summary;
    /// summary.submissions = 3;
    /// summary.seeds = vec![("a".into(), 1), ("b".into(), 1), ("c".into(), 1)];
    /// assert_eq!(summary.seeds_text(), "3 seeds (one per submission, as on Gradescope)");
    /// ```
    pub fn seeds_text(&self) -> String {
        match self.seeds.len() {
            0 => "no seed".into(),
            1 => "1 seed".into(),
            n if n == self.submissions => {
                format!("{n} seeds (one per submission, as on Gradescope)")
            }
            n => format!("{n} seeds"),
        }
    }
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
            // `as` saturates: a negative or NaN bin is 0.
            counts[((mark / max * bins as f64).floor() as usize).min(bins - 1)] += 1;
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

/// One select_hand test, or under several seeds one kind of test ([`TestRow::id`]), and how
/// the class did on it. Each seed draws its own deals: only a named deal is the same test for
/// every result, so a row of the tests drawn from several seeds shows its first result's goal
/// and best keep, and [`TestRow::deals`] says how many deals it counts.
#[derive(Debug, Clone, PartialEq)]
pub struct TestRow {
    /// The test's id (`sh:named:keep-the-run`, `sh:pool-1384`) or, under several seeds, the
    /// starred id of the tests drawn from the seed (`sh:pool-*`).
    pub id: String,
    /// The goal as called, in the first result counted.
    pub goal: String,
    /// How many different deals (sets of cards dealt) the row counts: 1 for a test under one
    /// seed or a named deal.
    pub deals: usize,
    /// Where the test's deal comes from.
    pub source: TestSource,
    /// The best keep of [`TestRow::goal`]'s deal (`keep 5H 5S 5C JD (discard 2C 9H,
    /// expected 16.6522)`, and how many keeps tie), taken from a result that kept a worse
    /// one; `None` when every result with that deal passed or gave no valid keep.
    pub expected: Option<String>,
    /// Submissions whose result has the test and ran it (verdict not `not_run`).
    pub ran: usize,
    /// Of those, how many did not pass.
    pub failed: usize,
    /// The mean credit of the results that ran it, in 0..=1.
    pub credit: f64,
    /// Verdict names with counts, commonest first (pass included).
    pub verdicts: Vec<(&'static str, usize)>,
    /// The commonest wrong answers, at most `TOP_ANSWERS`, commonest first, with how many
    /// submissions gave each: the answer (`kept 5H 5S 5C 2C (expected 11.3913)`) or the
    /// verdict when there is none (`no solution`, `timeout`).
    pub answers: Vec<(String, usize)>,
}

impl TestRow {
    /// Returns the share of the submissions that ran the test and failed it, in 0..=1.
    pub fn failure_rate(&self) -> f64 {
        self.failed as f64 / self.ran.max(1) as f64
    }
}

/// Everything the report shows about the class, computed once from the results (each
/// carrying its own expected answers, whatever its seed).
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    /// The class at a glance.
    pub summary: ClassSummary,
    /// Total, hand_value and select_hand marks.
    pub histograms: Vec<Histogram>,
    /// Every select_hand test (see [`TestRow`] for a class of several seeds), the greatest
    /// share failed first, then the most failed (ties in the order first seen, which is
    /// test-set order).
    pub tests: Vec<TestRow>,
    /// The marked hand_value/3 check across the class: where the errors show.
    pub hand_value: HandValueClass,
    /// The deep check of the results that have one (`crib grade --deep`); `None` when none
    /// has.
    pub deep: Option<DeepClass>,
}

/// The histograms of the marks: title, most marks, bins, and the mark.
const MARKS: [(&str, f64, usize, MarkOf); 3] = [
    ("total /70", 70.0, 14, |m| m.total),
    ("hand_value /50", 50.0, 10, |m| m.hand_value),
    ("select_hand /20", 20.0, 10, |m| m.select_hand),
];

type MarkOf = fn(&Marks) -> f64;

impl Class {
    /// Returns the statistics of `reports`, one per submission.
    pub fn new(reports: &[SubmissionResult]) -> Class {
        Class {
            summary: summary(reports),
            histograms: MARKS
                .iter()
                .map(|&(title, max, bins, mark)| {
                    Histogram::new(title, max, bins, reports.iter().map(|r| mark(&r.marks)))
                })
                .collect(),
            tests: tests(reports),
            hand_value: HandValueClass::new(reports),
            deep: DeepClass::new(reports),
        }
    }
}

fn summary(reports: &[SubmissionResult]) -> ClassSummary {
    // A select_hand test or a hand_value/3 item that ended so.
    let has = |r: &SubmissionResult, name: &str| {
        r.tests.iter().any(|t| t.verdict.name() == name)
            || r.hand_value
                .as_ref()
                .is_some_and(|h| h.kinds.iter().any(|k| k.kind.to_string() == name))
    };
    let count = |f: &dyn Fn(&SubmissionResult) -> bool| reports.iter().filter(|r| f(r)).count();
    let marks = |f: fn(&SubmissionResult) -> f64| mean_median(reports.iter().map(f).collect());
    ClassSummary {
        submissions: reports.len(),
        loaded: count(&|r| r.load.load_failed.is_none()),
        crashed: count(&|r| has(r, "crashed")),
        timed_out: count(&|r| has(r, "timeout")),
        full_marks: count(&|r| r.marks.total >= 70.0),
        total: marks(|r| r.marks.total),
        hand_value: marks(|r| r.marks.hand_value),
        select_hand: marks(|r| r.marks.select_hand),
        seeds: tally(reports.iter().map(|r| r.seed_id.clone())),
        test_sets: tally(reports.iter().map(|r| r.test_set.clone())),
        isolation: tally(reports.iter().map(|r| r.isolation.name())),
        producers: tally(reports.iter().map(|r| {
            r.produced_by
                .as_ref()
                .map_or_else(|| "not recorded".to_string(), |p| p.to_string())
        })),
    }
}

/// Returns the distinct values with their counts, commonest first, then by value.
fn tally<T: Hash + Ord>(values: impl IntoIterator<Item = T>) -> Vec<(T, usize)> {
    let mut counts: HashMap<T, usize> = HashMap::new();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    let mut out: Vec<(T, usize)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// Returns the row a test belongs to: its id under one seed or for a named deal; under
/// `several` seeds, for a test drawn from the seed, its id with the final number starred
/// (`sh:pool-1384`: `sh:pool-*`).
fn row_id(id: &str, source: TestSource, several: bool) -> String {
    if !several || source == TestSource::Named {
        return id.to_string();
    }
    let stem = id.trim_end_matches(|c: char| c.is_ascii_digit());
    if stem.len() == id.len() {
        id.to_string()
    } else {
        format!("{stem}*")
    }
}

/// Returns the cards dealt in a select_hand goal, sorted: two goals with the same cards in
/// another order are the same deal.
fn deal_of(goal: &str) -> Vec<&str> {
    let mut cards: Vec<&str> = goal
        .split("card(")
        .skip(1)
        .filter_map(|c| c.split(')').next())
        .collect();
    cards.sort_unstable();
    cards
}

/// Returns the expected answer a verdict reveals, as the page shows it: the best keep of a
/// `suboptimal` one (with its ties), crib-core's value of a `wrong_answer` one.
fn expected_text(verdict: &Verdict) -> Option<String> {
    match verdict {
        Verdict::WrongAnswer { expected, .. } => Some(expected.clone()),
        Verdict::Suboptimal { best, .. } => {
            let first: &KeepValue = best.first()?;
            let ties = match best.len() {
                1 => String::new(),
                n => format!(", or any of {} tied keeps", n - 1),
            };
            Some(format!("keep {}{ties}", first.describe()))
        }
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

fn tests(reports: &[SubmissionResult]) -> Vec<TestRow> {
    let several = reports
        .iter()
        .any(|r| reports.first().is_some_and(|f| f.seed_id != r.seed_id));
    // The results' tests by row, rows in the order first seen (test-set order for the first
    // result).
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<(String, Vec<&TestResult>)> = Vec::new();
    for t in reports.iter().flat_map(|r| &r.tests) {
        let id = row_id(&t.id, t.source, several);
        let k = *index.entry(id.clone()).or_insert_with(|| {
            groups.push((id, Vec::new()));
            groups.len() - 1
        });
        groups[k].1.push(t);
    }
    let mut rows: Vec<TestRow> = groups
        .into_iter()
        .map(|(id, tests)| {
            let first = tests[0];
            let ran: Vec<&TestResult> = (tests.iter().copied())
                .filter(|t| !matches!(t.verdict, Verdict::NotRun { .. }))
                .collect();
            let failed = ran.iter().filter(|t| t.verdict != Verdict::Pass);
            let mut deals: Vec<Vec<&str>> = tests.iter().map(|t| deal_of(&t.goal)).collect();
            deals.sort_unstable();
            deals.dedup();
            let credit = ran.iter().fold(0.0, |sum, t| sum + t.credit.unwrap_or(0.0));
            TestRow {
                id,
                goal: first.goal.clone(),
                deals: deals.len(),
                source: first.source,
                expected: (tests.iter())
                    .filter(|t| deal_of(&t.goal) == deal_of(&first.goal))
                    .find_map(|t| expected_text(&t.verdict)),
                ran: ran.len(),
                failed: failed.clone().count(),
                credit: credit / ran.len().max(1) as f64,
                verdicts: tally(tests.iter().map(|t| t.verdict.name())),
                answers: (tally(failed.map(|t| answer_text(&t.verdict))).into_iter())
                    .take(TOP_ANSWERS)
                    .collect(),
            }
        })
        .collect();
    // A stable sort: ties stay in the order first seen.
    rows.sort_by(|a, b| {
        b.failure_rate()
            .total_cmp(&a.failure_rate())
            .then_with(|| b.failed.cmp(&a.failed))
    });
    rows
}

#[cfg(test)]
pub(crate) mod tests;
