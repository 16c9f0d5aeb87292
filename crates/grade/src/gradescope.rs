//! Gradescope's results.json for one report, and who sees which test
//! ([`VisibilityPolicy`]).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::report::{round4, Report, TestVisibility, HAND_VALUE_MARKS, SELECT_HAND_MARKS};
use crate::verdict::Verdict;

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

/// Returns the code-quality findings as a Gradescope test worth 0 points, numbered `4.1`,
/// with the visibility `policy` gives the tests that are not worked examples: under
/// `hidden` only the staff see it, in the manual grading view where they give the 30 marks.
fn quality_test(lint: &crib_lint::Lint, policy: VisibilityPolicy) -> serde_json::Value {
    let mut output = String::from(
        "Not marked: notes for the markers, who give the 30 marks for code quality. Each \
         line is file:line: RULE [predicate] message; `crib lint --explain RULE` says why the \
         rule exists.\n",
    );
    if lint.findings.is_empty() {
        output.push_str("No findings.\n");
    }
    for finding in &lint.findings {
        let _ = writeln!(output, "{}", finding);
    }
    serde_json::json!({
        "name": "Code quality notes",
        "number": "4.1",
        "score": 0.0,
        "max_score": 0.0,
        // Informational: findings are evidence for a marker, not a verdict, so the test never
        // shows as failed (a red test would read as lost marks).
        "status": "passed",
        "output": output,
        "visibility": policy.of_test(None).name(),
    })
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
    tests.extend(report.quality.as_ref().map(|q| quality_test(q, policy)));
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
