//! What grading one submission found, its marks, and the ways to show them.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::credit::SelectCredit;
use crate::submission::Skipped;
use crate::verdict::Verdict;
use crib_sandbox::Isolation;

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

/// How loading went.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Load {
    /// The files loaded, relative to the submission.
    pub files: Vec<String>,
    /// Errors and warnings printed while loading (at most [`crate::MAX_DIAGNOSTICS`]).
    pub diagnostics: Vec<Diagnostic>,
    /// `hand_value/3` and/or `select_hand/3` when not defined.
    pub missing_predicate: Vec<String>,
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

/// One test's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    /// The test's id in the test set.
    pub id: String,
    /// `hand_value` or `select_hand`.
    pub predicate: String,
    /// The goal as called.
    pub goal: String,
    /// The verdict and its details.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// select_hand only: the test's credit in 0..=1, on the report's
    /// [`Report::select_credit`] scale (0 for an invalid answer or a failure).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub credit: Option<f64>,
    /// Wall-clock time of the goal, milliseconds, as the grader saw it.
    pub time_ms: u64,
    /// CPU time of the goal, milliseconds, as the child measured it (the child's process,
    /// every thread): the time limit is judged on it. Absent when the child did not answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<u64>,
}

/// The marks of a submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marks {
    /// hand_value tests passed.
    pub hand_value_passed: usize,
    /// hand_value tests.
    pub hand_value_total: usize,
    /// passed / total x 50.
    pub hand_value: f64,
    /// The mean credit of the select_hand tests, in 0..=1.
    pub select_hand_credit: f64,
    /// select_hand tests.
    pub select_hand_total: usize,
    /// mean credit x 20.
    pub select_hand: f64,
    /// hand_value + select_hand, out of 70.
    pub total: f64,
    /// Always `not assessed`: the markers give the last 30.
    pub code_quality: String,
}

impl Marks {
    /// Returns the marks for `tests`.
    pub fn new(tests: &[TestResult]) -> Marks {
        let hv: Vec<&TestResult> = tests
            .iter()
            .filter(|t| t.predicate == "hand_value")
            .collect();
        let sh: Vec<&TestResult> = tests
            .iter()
            .filter(|t| t.predicate == "select_hand")
            .collect();
        let passed = hv.iter().filter(|t| t.verdict == Verdict::Pass).count();
        let hand_value = ratio(passed as f64, hv.len()) * HAND_VALUE_MARKS;
        let credit = ratio(sh.iter().map(|t| t.credit.unwrap_or(0.0)).sum(), sh.len());
        let select_hand = credit * SELECT_HAND_MARKS;
        Marks {
            hand_value_passed: passed,
            hand_value_total: hv.len(),
            hand_value: round2(hand_value),
            select_hand_credit: round4(credit),
            select_hand_total: sh.len(),
            select_hand: round2(select_hand),
            total: round2(hand_value + select_hand),
            code_quality: "not assessed".into(),
        }
    }
}

fn ratio(sum: f64, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round4(x: f64) -> f64 {
    (x * 10000.0).round() / 10000.0
}

/// Everything grading one submission found. Written as JSON to the output directory as soon
/// as the submission is done, and read back by `--resume`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The submission's name.
    pub name: String,
    /// The file or directory graded.
    pub path: String,
    /// A hash of the files graded; `--resume` grades a changed submission again.
    pub content_hash: String,
    /// The test set's fingerprint.
    pub test_set: String,
    /// The credit scale of the select_hand tests.
    #[serde(default)]
    pub select_credit: SelectCredit,
    /// The layers of isolation the children ran in (in JSON, a list of names:
    /// `["bwrap", "seccomp", "landlock-v6"]`).
    pub isolation: Isolation,
    /// How loading went.
    pub load: Load,
    /// One result per test, in test-set order.
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
    pub deep: Option<crate::deep::DeepReport>,
}

impl Report {
    /// Returns the problems worth a column: load failure (or else missing predicates),
    /// diagnostics, and every verdict other than pass, counted.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(why) = &self.load.load_failed {
            problems.push(format!("load_failed: {why}"));
        }
        if self.load.load_failed.is_none() {
            for pred in &self.load.missing_predicate {
                problems.push(format!("missing_predicate {pred}"));
            }
        }
        let errors = self.load.error_count();
        let warnings = self.load.diagnostics.len() - errors;
        if errors > 0 {
            problems.push(format!("{errors} load error{}", plural(errors)));
        }
        if warnings > 0 {
            problems.push(format!("{warnings} warning{}", plural(warnings)));
        }
        let skipped = self.load.skipped.len();
        if skipped > 0 {
            problems.push(format!("{skipped} skipped"));
        }
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for test in &self.tests {
            let name = test.verdict.name();
            if name == "pass" {
                continue;
            }
            match counts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => *c += 1,
                None => counts.push((name, 1)),
            }
        }
        for (name, count) in counts {
            problems.push(format!("{count} {name}"));
        }
        problems
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Returns the terminal table: one row per submission, and with `verbose` every
/// diagnostic and test beneath it.
pub fn table(reports: &[Report], verbose: bool) -> String {
    let width = reports
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:>10}  {:>11}  {:>8}  problems",
        "submission", "hand_value", "select_hand", "marks/70"
    );
    for r in reports {
        let m = &r.marks;
        let problems = r.problems();
        let _ = writeln!(
            out,
            "{:<width$}  {:>10}  {:>10.1}%  {:>8.2}  {}",
            r.name,
            format!("{}/{}", m.hand_value_passed, m.hand_value_total),
            m.select_hand_credit * 100.0,
            m.total,
            if problems.is_empty() {
                "-".to_string()
            } else {
                problems.join(", ")
            }
        );
        if let Some(deep) = &r.deep {
            for line in deep.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        if verbose {
            for s in &r.load.skipped {
                let _ = writeln!(out, "    skipped {s}");
            }
            for d in &r.load.diagnostics {
                let _ = writeln!(
                    out,
                    "    {}:{}: {}: {}",
                    d.file,
                    d.line,
                    d.kind,
                    one_line(&d.message)
                );
            }
            for t in &r.tests {
                let credit = t
                    .credit
                    .map(|q| format!(" credit {:.3}", q))
                    .unwrap_or_default();
                let cpu = t
                    .cpu_ms
                    .map(|ms| ms.to_string())
                    .unwrap_or_else(|| "-".into());
                let _ = writeln!(
                    out,
                    "    {:<36} {:>5} ms cpu {:>5} ms wall  {}{credit}",
                    t.id,
                    cpu,
                    t.time_ms,
                    one_line(&t.verdict.describe())
                );
            }
        }
    }
    out
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Who sees what on Gradescope: a course policy, mapped onto Gradescope's per-test
/// `visibility` values (`visible`, `hidden`, `after_due_date`, `after_published`). Whatever
/// the policy, the top-level result is `visible`: students always see their total, the marks
/// of each part and the load diagnostics (the top-level `output`).
///
/// # Example
/// ```
/// use crib_grade::VisibilityPolicy;
/// assert_eq!("examples-visible".parse::<VisibilityPolicy>(), Ok(VisibilityPolicy::ExamplesVisible));
/// assert_eq!(VisibilityPolicy::Hidden.name(), "hidden");
/// assert!("public".parse::<VisibilityPolicy>().is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum VisibilityPolicy {
    /// Every test `visible` as soon as the submission is graded (crib 0.1).
    #[default]
    AllVisible,
    /// The worked examples of spec/examples.jsonl (those the assignment and spec publish)
    /// `visible`; every other test `after_published`, shown when the staff publish the marks.
    ExamplesVisible,
    /// The worked examples `visible`; every other test `after_due_date`, shown once the
    /// (late) due date has passed.
    AfterDueDate,
    /// Every test `hidden`: students see only the total, the marks of each part and the load
    /// diagnostics, never a test, not even how many tests failed.
    Hidden,
}

impl VisibilityPolicy {
    /// Every policy, in the order `--help` lists them.
    pub const ALL: [VisibilityPolicy; 4] = [
        VisibilityPolicy::AllVisible,
        VisibilityPolicy::ExamplesVisible,
        VisibilityPolicy::AfterDueDate,
        VisibilityPolicy::Hidden,
    ];

    /// Returns the policy's name on the command line and in `CRIB_GRADESCOPE_VISIBILITY`:
    /// `all-visible`, `examples-visible`, `after-due-date` or `hidden`.
    pub fn name(self) -> &'static str {
        match self {
            VisibilityPolicy::AllVisible => "all-visible",
            VisibilityPolicy::ExamplesVisible => "examples-visible",
            VisibilityPolicy::AfterDueDate => "after-due-date",
            VisibilityPolicy::Hidden => "hidden",
        }
    }

    /// Returns Gradescope's `visibility` for a test from `source` (a [`crate::TestCase`]'s
    /// source; `spec/examples.jsonl` for the worked examples).
    pub fn of_test(self, source: Option<&str>) -> TestVisibility {
        let example = source == Some("spec/examples.jsonl");
        match self {
            VisibilityPolicy::AllVisible => TestVisibility::Visible,
            VisibilityPolicy::ExamplesVisible if example => TestVisibility::Visible,
            VisibilityPolicy::ExamplesVisible => TestVisibility::AfterPublished,
            VisibilityPolicy::AfterDueDate if example => TestVisibility::Visible,
            VisibilityPolicy::AfterDueDate => TestVisibility::AfterDueDate,
            VisibilityPolicy::Hidden => TestVisibility::Hidden,
        }
    }
}

/// Gradescope's visibility of one test: who sees it and when.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestVisibility {
    /// Only the course staff.
    Hidden,
    /// Students, after the due date.
    AfterDueDate,
    /// Students, once the grades are published.
    AfterPublished,
    /// Students, at once.
    #[default]
    Visible,
}

impl TestVisibility {
    /// Returns the name Gradescope and the command line use: `hidden`, `after_due_date`,
    /// `after_published` or `visible`.
    pub fn name(self) -> &'static str {
        match self {
            TestVisibility::Hidden => "hidden",
            TestVisibility::AfterDueDate => "after_due_date",
            TestVisibility::AfterPublished => "after_published",
            TestVisibility::Visible => "visible",
        }
    }
}

impl std::str::FromStr for VisibilityPolicy {
    type Err = String;

    /// Parses a policy's [`VisibilityPolicy::name`].
    ///
    /// # Errors
    /// Returns a message quoting `text` and listing the names when it is none of them.
    fn from_str(text: &str) -> Result<VisibilityPolicy, String> {
        VisibilityPolicy::ALL
            .into_iter()
            .find(|v| v.name() == text.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = VisibilityPolicy::ALL.iter().map(|v| v.name()).collect();
                format!(
                    "unknown visibility policy {text:?}: expected one of {}",
                    names.join(", ")
                )
            })
    }
}

/// Returns the submission's `results.json` in Gradescope's autograder format with every test
/// visible: [`gradescope_with`] under [`VisibilityPolicy::AllVisible`].
pub fn gradescope(report: &Report) -> serde_json::Value {
    gradescope_with(report, VisibilityPolicy::AllVisible)
}

/// Returns the submission's `results.json` in Gradescope's autograder format: one entry per
/// test worth its share of the 70 marks, numbered `1.k` for the k-th hand_value test and
/// `2.k` for the k-th select_hand test in test-set order (stable across runs of one test
/// set), each with the `visibility` that `policy` gives it; the top-level `output`, which
/// students see, holds the marks and the load diagnostics; `execution_time` is the grading
/// time in whole seconds, rounded up (0 only for a run that took no time).
pub fn gradescope_with(report: &Report, policy: VisibilityPolicy) -> serde_json::Value {
    let m = &report.marks;
    let per_hv = if m.hand_value_total == 0 {
        0.0
    } else {
        HAND_VALUE_MARKS / m.hand_value_total as f64
    };
    let per_sh = if m.select_hand_total == 0 {
        0.0
    } else {
        SELECT_HAND_MARKS / m.select_hand_total as f64
    };
    let set = crate::testset::test_set();
    let source = |id: &str| set.cases.iter().find(|c| c.id == id).map(|c| c.source);
    let (mut hv_k, mut sh_k) = (0, 0);
    let mut tests: Vec<serde_json::Value> = report
        .tests
        .iter()
        .map(|t| {
            let number = if t.predicate == "hand_value" {
                hv_k += 1;
                format!("1.{hv_k}")
            } else {
                sh_k += 1;
                format!("2.{sh_k}")
            };
            let (max, score) = if t.predicate == "hand_value" {
                let pass = t.verdict == Verdict::Pass;
                (per_hv, if pass { per_hv } else { 0.0 })
            } else {
                (per_sh, per_sh * t.credit.unwrap_or(0.0))
            };
            let mut text = format!("?- {}\n{}", t.goal, t.verdict.describe());
            if let Some(credit) = t.credit.filter(|c| *c < 1.0) {
                let _ = write!(
                    text,
                    "\ncredit {credit:.3} on the {} scale",
                    report.select_credit.name()
                );
            }
            serde_json::json!({
                "name": format!("{} {}", t.predicate, t.id),
                "number": number,
                "score": round4(score),
                "max_score": round4(max),
                "status": if t.verdict == Verdict::Pass { "passed" } else { "failed" },
                "output": text,
                "visibility": policy.of_test(source(&t.id)).name(),
            })
        })
        .collect();
    tests.extend(report.deep.as_ref().map(|d| d.gradescope_test()));
    let mut output = format!(
        "hand_value/3: {}/{} tests passed, {:.2}/50\nselect_hand/3: mean credit {:.3}, \
         {:.2}/20\ncode quality: not assessed (30 marks, given by the markers)\n\
         isolation: {}\n",
        m.hand_value_passed,
        m.hand_value_total,
        m.hand_value,
        m.select_hand_credit,
        m.select_hand,
        report.isolation.name()
    );
    for problem in report.problems() {
        // Under `hidden`, verdict counts would tell how many hidden tests failed.
        let about_loading = problem.starts_with("load_failed")
            || problem.starts_with("missing_predicate")
            || problem.contains("load error")
            || problem.contains("warning");
        if policy != VisibilityPolicy::Hidden || about_loading {
            let _ = writeln!(output, "problem: {problem}");
        }
    }
    if !report.load.diagnostics.is_empty() {
        let _ = writeln!(output, "\nwhile loading your files, SWI-Prolog printed:");
    }
    for s in &report.load.skipped {
        let _ = writeln!(output, "skipped {s}");
    }
    for d in &report.load.diagnostics {
        let _ = writeln!(output, "{}:{}: {}: {}", d.file, d.line, d.kind, d.message);
    }
    serde_json::json!({
        "score": m.total,
        "output": output,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "execution_time": report.elapsed_ms.div_ceil(1000),
        "tests": tests,
    })
}

#[cfg(test)]
mod tests;
