//! What grading one submission found ([`SubmissionResult`]): how it loaded, its tests, its
//! marks.

use serde::{Deserialize, Serialize};

use crib_isolation::Isolation;

use crate::credit::{hand_value_credit, SelectCredit};
use crate::deep::DeepReport;
use crate::hand_value::HandValueCheck;
use crate::lint::Lint;
use crate::verdict::Verdict;

mod select_hand;

pub use select_hand::{KeepDiagnosis, KeepExample, KeepMistake, KeepVerdict};

/// Marks for hand_value/3 correctness.
pub const HAND_VALUE_MARKS: f64 = 50.0;
/// Marks for the quality of select_hand/3's choices.
pub const SELECT_HAND_MARKS: f64 = 20.0;
/// Marks for code quality, given by human markers.
pub const CODE_QUALITY_MARKS: f64 = 30.0;

/// A message SWI-Prolog printed while loading the submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// `error` or `warning`.
    pub kind: String,
    /// The file, relative to the submission (empty if unknown).
    pub file: String,
    /// The line, 1-based (0 if unknown).
    pub line: u64,
    /// The message.
    pub message: String,
}

/// Something left out, and why: a symbolic link (never followed), a FIFO, a socket or a
/// device. Paths are written with [`crate::escape_path`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// The entry: relative to the submission in a result, as found in crib-submission's
    /// `Discovery`.
    pub path: String,
    /// Why it was left out, e.g. `a symbolic link (links are never followed)`.
    pub why: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.why)
    }
}

/// How loading went.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Load {
    /// The files loaded, relative to the submission.
    pub files: Vec<String>,
    /// Errors and warnings printed while loading (at most crib-grade's `MAX_DIAGNOSTICS`).
    pub diagnostics: Vec<Diagnostic>,
    /// The predicates not defined (in JSON, their indicators: `["hand_value/3"]`).
    #[serde(with = "indicators")]
    pub missing_predicate: Vec<Predicate>,
    /// Why nothing usable loaded, if so.
    pub load_failed: Option<String>,
    /// What was not copied from the submission, and why: symbolic links (never followed),
    /// FIFOs, sockets and devices.
    #[serde(default)]
    pub skipped: Vec<Skipped>,
}

impl Load {
    /// Returns how many of the diagnostics are errors (the rest are warnings).
    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.kind == "error")
            .count()
    }
}

/// A predicate of the assignment that the tests call. In JSON, its name: `"hand_value"` or
/// `"select_hand"`.
///
/// # Example
/// ```
/// use crib_results::Predicate;
/// assert_eq!(Predicate::SelectHand.to_string(), "select_hand");
/// assert_eq!(serde_json::to_string(&Predicate::HandValue)?, r#""hand_value""#);
/// assert!(serde_json::from_str::<Predicate>(r#""hand_values""#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Predicate {
    /// `hand_value(Hand, Start, Value)`: the points of a hand with a start card.
    HandValue,
    /// `select_hand(Cards, Hand, Cribcards)`: which four of five or six dealt cards to keep.
    SelectHand,
}

impl Predicate {
    /// Both predicates, in the assignment's order.
    pub const ALL: [Predicate; 2] = [Predicate::HandValue, Predicate::SelectHand];

    /// Returns its indicator, name and arity: `hand_value/3` or `select_hand/3`.
    pub fn indicator(self) -> &'static str {
        match self {
            Predicate::HandValue => "hand_value/3",
            Predicate::SelectHand => "select_hand/3",
        }
    }
}

/// [`Load::missing_predicate`] in JSON: a list of indicators (`"hand_value/3"`), as results
/// have always written it.
mod indicators {
    use super::Predicate;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(predicates: &[Predicate], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(predicates.iter().map(|p| p.indicator()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Predicate>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|text| {
                Predicate::ALL
                    .into_iter()
                    .find(|p| p.indicator() == text)
                    .ok_or_else(|| {
                        serde::de::Error::custom(format!(
                            "unknown predicate {text:?} (expected hand_value/3 or select_hand/3)"
                        ))
                    })
            })
            .collect()
    }
}

/// The predicate's name, as in JSON: `hand_value` or `select_hand`.
impl std::fmt::Display for Predicate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::names::write_json_name(self, f)
    }
}

/// Where a select_hand test's deal comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestSource {
    /// One of the assignment's named deals, its hints: the same cards under every seed.
    Named,
    /// A deal drawn from the seed (the pool of seeded deals; in results of earlier designs,
    /// their drawn deals and hand_value tests too).
    Pool,
}

/// Its name, as in JSON: `named` or `pool`.
impl std::fmt::Display for TestSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::names::write_json_name(self, f)
    }
}

/// One test's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "StoredTestResult")]
pub struct TestResult {
    /// The test's id in the test set.
    pub id: String,
    /// The predicate the test calls.
    pub predicate: Predicate,
    /// Where the test's deal comes from.
    pub source: TestSource,
    /// The goal as called.
    pub goal: String,
    /// The verdict and its details.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// select_hand only: the test's credit in 0..=1, on the report's
    /// [`SubmissionResult::select_credit`] scale (0 for an invalid answer or a failure); `None` for a
    /// test not asked because the select_hand time budget ran out, which the marks leave
    /// out.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub credit: Option<f64>,
    /// Wall-clock time of the goal, milliseconds, as the grader saw it.
    pub time_ms: u64,
    /// CPU time of the goal, milliseconds, as the child measured it (the child's process,
    /// every thread): the time limit is judged on it. Absent when the child did not answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<u64>,
}

/// A [`TestResult`] as results hold it: written before crib recorded a test's source, a
/// result names it only in the test's id (`sh:named:...` for a named deal), read here once.
#[derive(Deserialize)]
struct StoredTestResult {
    id: String,
    predicate: Predicate,
    #[serde(default)]
    source: Option<TestSource>,
    goal: String,
    #[serde(flatten)]
    verdict: Verdict,
    #[serde(default)]
    credit: Option<f64>,
    time_ms: u64,
    #[serde(default)]
    cpu_ms: Option<u64>,
}

impl From<StoredTestResult> for TestResult {
    fn from(t: StoredTestResult) -> TestResult {
        let source = t.source.unwrap_or(if t.id.starts_with("sh:named:") {
            TestSource::Named
        } else {
            TestSource::Pool
        });
        TestResult {
            id: t.id,
            predicate: t.predicate,
            source,
            goal: t.goal,
            verdict: t.verdict,
            credit: t.credit,
            time_ms: t.time_ms,
            cpu_ms: t.cpu_ms,
        }
    }
}

/// The marks of a submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marks {
    /// Rank patterns the marked hand_value check answered.
    pub hand_value_checked: usize,
    /// Rank patterns in the check (23,647).
    pub hand_value_patterns: usize,
    /// The estimated share of the 12,994,800 (hand, start) pairs hand_value/3 gets wrong
    /// (1 when it was not checked).
    pub hand_value_share_wrong: f64,
    /// `(1 − √share_wrong) × 50` ([`crate::hand_value_credit`]).
    pub hand_value: f64,
    /// The mean credit of the select_hand tests, in 0..=1.
    pub select_hand_credit: f64,
    /// select_hand tests asked (all of them unless the time budget ran out).
    pub select_hand_total: usize,
    /// mean credit x 20.
    pub select_hand: f64,
    /// hand_value + select_hand, out of 70.
    pub total: f64,
    /// Always `not assessed`: the markers give the last 30.
    pub code_quality: String,
}

impl Marks {
    /// Returns the marks for the select_hand `tests` and the marked hand_value check
    /// (`None`: not run, which earns nothing).
    pub fn new(tests: &[TestResult], hand_value: Option<&HandValueCheck>) -> Marks {
        // The tests asked: the budget may leave some out, and the mean is over the rest.
        let sh: Vec<&TestResult> = tests
            .iter()
            .filter(|t| t.predicate == Predicate::SelectHand && t.credit.is_some())
            .collect();
        let share_wrong = hand_value.map_or(1.0, |h| h.share_wrong);
        let hand_value_marks = hand_value_credit(share_wrong) * HAND_VALUE_MARKS;
        let credit =
            sh.iter().map(|t| t.credit.unwrap_or(0.0)).sum::<f64>() / sh.len().max(1) as f64;
        let select_hand = credit * SELECT_HAND_MARKS;
        Marks {
            hand_value_checked: hand_value.map_or(0, |h| h.checked),
            hand_value_patterns: hand_value.map_or(0, |h| h.patterns),
            hand_value_share_wrong: share_wrong,
            hand_value: round2(hand_value_marks),
            select_hand_credit: round4(credit),
            select_hand_total: sh.len(),
            select_hand: round2(select_hand),
            total: round2(hand_value_marks + select_hand),
            code_quality: "not assessed".into(),
        }
    }
}

/// Returns `x` rounded to hundredths, as every mark is stored and shown.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub(crate) fn round4(x: f64) -> f64 {
    (x * 10000.0).round() / 10000.0
}

/// Everything grading one submission found. Written as JSON to the output directory as soon
/// as the submission is done, and read back by `--resume`. The optional sections after
/// `output` are absent when they do not apply, and in results written before crib had them,
/// which read back as `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    /// The submission's name.
    pub name: String,
    /// The file or directory graded.
    pub path: String,
    /// A hash of the files graded; `--resume` grades a changed submission again.
    pub content_hash: String,
    /// The test set's fingerprint (its last part is the seed's id).
    pub test_set: String,
    /// The public id of the seed the tests were drawn from (crib-grade's `Seed::id`): it
    /// tells runs apart and reveals nothing of the seed.
    pub seed_id: String,
    /// The credit scale of the select_hand tests.
    #[serde(default)]
    pub select_credit: SelectCredit,
    /// The layers of isolation the children ran in (in JSON, a list of names:
    /// `["bwrap", "seccomp", "landlock-v6"]`).
    pub isolation: Isolation,
    /// How loading went.
    pub load: Load,
    /// hand_value/3 on every rank pattern, the marked check; `None` when it did not run
    /// (nothing loaded, or hand_value/3 is missing).
    pub hand_value: Option<HandValueCheck>,
    /// One result per select_hand test, in test-set order.
    pub tests: Vec<TestResult>,
    /// The marks.
    pub marks: Marks,
    /// How many child processes were started.
    pub children: usize,
    /// Wall-clock time grading the submission, milliseconds.
    pub elapsed_ms: u64,
    /// The start of what the submission printed on stdout and stderr.
    pub output: String,
    /// The deep check (`crib grade --deep`), if it ran; never part of the marks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep: Option<DeepReport>,
    /// Code-quality findings (`crib lint`), if the linter ran: evidence for the markers who
    /// give the last 30 marks, never part of the marks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<Lint>,
    /// What the LMS's download says about the submission (student id, name, email,
    /// submission id, time, late flag), when it came from one (crib-submission's
    /// `Submission::lms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lms: Option<crate::Record>,
    /// What is wrong with select_hand/3's keeps, in the student's words, when a valid keep
    /// was not the best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_diagnosis: Option<KeepDiagnosis>,
    /// Which crib and which SWI-Prolog graded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub produced_by: Option<crate::Producer>,
}

impl SubmissionResult {
    /// Why the marked hand_value/3 check did not run (when `hand_value` is `None`): the
    /// load failure, or else that hand_value/3 is not defined.
    pub fn why_hand_value_unchecked(&self) -> &str {
        self.load
            .load_failed
            .as_deref()
            .unwrap_or("hand_value/3 is not defined")
    }

    /// Returns the problems worth a column: load failure (or else missing predicates),
    /// diagnostics, files not copied, and every verdict other than pass, counted. Each has
    /// the staff's short text with verdict codes (`3 suboptimal`, `1656 hand_value
    /// wrong_answer`) and the student's words.
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut push = |about: ProblemArea, text: String, words: String| {
            problems.push(Problem { about, text, words })
        };
        use ProblemArea::{Loading, Tests};
        if let Some(why) = &self.load.load_failed {
            push(
                Loading,
                format!("load_failed: {why}"),
                format!("your files could not be loaded: {why}"),
            );
        } else {
            for pred in &self.load.missing_predicate {
                push(
                    Loading,
                    format!("missing_predicate {}", pred.indicator()),
                    format!("{} is not defined", pred.indicator()),
                );
            }
        }
        let errors = self.load.error_count();
        let warnings = self.load.diagnostics.len() - errors;
        if errors > 0 {
            let text = format!("{errors} load error{}", plural(errors));
            push(Loading, text.clone(), format!("{text} (listed below)"));
        }
        if warnings > 0 {
            let text = format!("{warnings} warning{}", plural(warnings));
            push(
                Loading,
                text.clone(),
                format!("{text} while loading (listed below)"),
            );
        }
        let skipped = self.load.skipped.len();
        if skipped > 0 {
            push(
                Loading,
                format!("{skipped} skipped"),
                format!(
                    "{skipped} file{} not graded (listed below)",
                    plural(skipped)
                ),
            );
        }
        let mut counts: Vec<(&Verdict, Predicate, usize)> = Vec::new();
        for test in &self.tests {
            if test.verdict == Verdict::Pass {
                continue;
            }
            match counts
                .iter_mut()
                .find(|(v, p, _)| v.name() == test.verdict.name() && *p == test.predicate)
            {
                Some((_, _, c)) => *c += 1,
                None => counts.push((&test.verdict, test.predicate, 1)),
            }
        }
        for (verdict, predicate, count) in counts {
            push(
                Tests,
                format!("{count} {}", verdict.name()),
                format!(
                    "{}: {count} test{} {}",
                    predicate.indicator(),
                    plural(count),
                    verdict_words(verdict)
                ),
            );
        }
        if let Some(h) = &self.hand_value {
            for kind in &h.kinds {
                push(
                    Tests,
                    format!("{} hand_value {}", kind.items, kind.kind),
                    format!(
                        "hand_value/3 {} on {} of the {} hands asked",
                        kind.kind.words(),
                        crate::thousands(kind.items as u64),
                        crate::thousands(h.checked as u64),
                    ),
                );
            }
            if h.checked < h.patterns {
                push(
                    Tests,
                    format!(
                        "hand_value sampled: {} of {} patterns",
                        h.checked, h.patterns
                    ),
                    format!(
                        "hand_value/3 was asked only {} of the {} hands (time ran out)",
                        crate::thousands(h.checked as u64),
                        crate::thousands(h.patterns as u64),
                    ),
                );
            }
        }
        problems
    }
}

/// Returns what tests with `verdict` did, in a student's words: `kept a hand that is not
/// the best`; for tests not run, why (the first such test's reason).
fn verdict_words(verdict: &Verdict) -> String {
    let words = match verdict {
        Verdict::Pass => "passed",
        Verdict::WrongAnswer { .. } => "gave a wrong answer",
        Verdict::Suboptimal { .. } => "kept a hand that is not the best",
        Verdict::WrongType { .. } => {
            "answered with something that is not a split of the dealt cards"
        }
        Verdict::NoSolution => "failed (gave no answer)",
        Verdict::Exception { .. } => "raised an exception",
        Verdict::Timeout { .. } => "ran over the time limit",
        Verdict::Memory { .. } => "ran out of memory",
        Verdict::Crashed { .. } => "stopped the program (halt or a crash)",
        Verdict::NotRun { reason } => return format!("did not run ({reason})"),
    };
    words.to_string()
}

/// One problem of a result, in words (`3 suboptimal`, `missing_predicate select_hand/3`),
/// and what it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What the problem is about.
    pub about: ProblemArea,
    /// The problem in the staff's short words, with verdict codes: `3 suboptimal`.
    pub text: String,
    /// The problem in a student's words: `select_hand/3: 3 tests kept a hand that is not
    /// the best`.
    pub words: String,
}

/// What a [`Problem`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemArea {
    /// How the submission loaded: a load failure, a missing predicate, load errors and
    /// warnings, files not copied. Students see these under every policy.
    Loading,
    /// How its tests went: verdicts counted, hand_value's failures, a sampled check.
    Tests,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Returns `problems` in words, separated by `separator`.
pub fn problems_text(problems: &[Problem], separator: &str) -> String {
    problems
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join(separator)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_predicates_read_and_write_as_indicators() {
        let load: Load = serde_json::from_str(
            r#"{"files": [], "diagnostics": [], "missing_predicate": ["select_hand/3"],
                "load_failed": null}"#,
        )
        .unwrap();
        assert_eq!(load.missing_predicate, [Predicate::SelectHand]);
        let json = serde_json::to_value(&load).unwrap();
        assert_eq!(
            json["missing_predicate"],
            serde_json::json!(["select_hand/3"])
        );
        let wrong = serde_json::from_str::<Load>(
            r#"{"files": [], "diagnostics": [], "missing_predicate": ["hand_value/4"],
                "load_failed": null}"#,
        )
        .unwrap_err();
        assert!(
            wrong
                .to_string()
                .contains("unknown predicate \"hand_value/4\""),
            "{wrong}"
        );
    }

    #[test]
    fn a_test_keeps_its_source_and_older_results_read_it_from_the_id() {
        let old = |id: &str| {
            serde_json::from_str::<TestResult>(&format!(
                r#"{{"id": "{id}", "predicate": "select_hand", "goal": "g",
                    "verdict": "pass", "credit": 1.0, "time_ms": 3}}"#
            ))
            .unwrap()
        };
        assert_eq!(old("sh:named:keep-the-run").source, TestSource::Named);
        assert_eq!(old("sh:pool-12").source, TestSource::Pool);
        assert_eq!(old("sh:random6-2").source, TestSource::Pool);
        let mut t = old("sh:pool-12");
        t.source = TestSource::Named;
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(json["source"], "named");
        let back: TestResult = serde_json::from_value(json).unwrap();
        assert_eq!(back, t, "the field wins over the id");
    }
}
