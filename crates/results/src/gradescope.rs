//! Gradescope's results.json for one result ([`gradescope`]), each test shown as a
//! [`VisibilityPolicy`] says.

use std::fmt::Write as _;

use crate::deep::{percent, thousands};
use crate::hand_value::Area;
use crate::lint::Lint;
use crate::result::{
    round4, KeepDiagnosis, ProblemArea, SubmissionResult, HAND_VALUE_MARKS, SELECT_HAND_MARKS,
};
use crate::verdict::Verdict;
use crate::visibility::{TestVisibility, VisibilityPolicy};

/// Returns the code-quality findings as a Gradescope test worth 0 points, numbered `4.1`,
/// with the visibility `policy` gives the tests that are not worked examples: under
/// `hidden` only the staff see it, in the manual grading view where they give the 30 marks.
fn quality_test(lint: &Lint, policy: VisibilityPolicy) -> serde_json::Value {
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
        "visibility": policy.of_test(None),
    })
}

/// Returns the submission's `results.json` in Gradescope's autograder format. hand_value/3
/// is one test worth its 50 marks, numbered `1.1` (its share of pairs wrong, how much was
/// checked, what is wrong rule by rule in the student's words and the simplest failing
/// hands), then one test worth 0 per area where errors show (`1.2` fifteens ... `1.8` no
/// integer answer: what is wrong with that rule and the simplest hand showing it, or for a
/// result without the rule-by-rule diagnosis the count and the simplest failing hand), so
/// hundreds of failing hands never flood the page. Then, when a valid keep was not the best,
/// select_hand/3's diagnosis in words, worth 0, numbered `2.0`; then one entry per
/// select_hand test worth its share of the 20 marks, numbered `2.k` in test-set order. Each
/// test has the `visibility` that `policy` gives it; the top-level `output`, which students
/// see, holds the marks, the seed's id and the load diagnostics; `execution_time` is the
/// grading time in whole seconds, rounded up (0 only for a run that took no time).
pub fn gradescope(report: &SubmissionResult, policy: VisibilityPolicy) -> serde_json::Value {
    let m = &report.marks;
    // Each test with a credit is one of select_hand_total; the rest are worth nothing.
    let per_sh = SELECT_HAND_MARKS / m.select_hand_total.max(1) as f64;
    let mut tests = hand_value_tests(report, policy.of_test(None));
    tests.extend(report.tests.iter().enumerate().map(|(k, t)| {
        // A test the time budget left out is worth nothing either way.
        let (max, score) = t.credit.map_or((0.0, 0.0), |c| (per_sh, per_sh * c));
        let mut text = format!("?- {}\n{}", t.goal, t.verdict.words());
        if let Some(credit) = t.credit.filter(|c| *c < 1.0) {
            let _ = write!(
                text,
                "\ncredit {credit:.3} on the {} scale",
                report.select_credit
            );
        }
        serde_json::json!({
            "name": format!("{} {}", t.predicate, t.id),
            "number": format!("2.{}", k + 1),
            "score": round4(score),
            "max_score": round4(max),
            "status": if t.verdict == Verdict::Pass { "passed" } else { "failed" },
            "output": text,
            "visibility": policy.of_test(Some(t.source)),
        })
    }));
    tests.extend(
        report
            .keep_diagnosis
            .as_ref()
            .map(|d| keep_diagnosis_test(d, policy)),
    );
    tests.extend(report.deep.as_ref().map(|d| d.gradescope_test()));
    tests.extend(report.quality.as_ref().map(|q| quality_test(q, policy)));
    let mut output = format!(
        "hand_value/3: {} wrong ({} of {} rank patterns checked), {:.2}/50\n\
         select_hand/3: mean credit {:.3}, {:.2}/20\n\
         code quality: not assessed (30 marks, given by the markers)\n\
         tests drawn from seed {} (test set {})\nisolation: {}\n",
        share_text(m.hand_value_share_wrong),
        m.hand_value_checked,
        m.hand_value_patterns,
        m.hand_value,
        m.select_hand_credit,
        m.select_hand,
        report.seed_id,
        report.test_set,
        report.isolation.name()
    );
    if let Some(producer) = &report.produced_by {
        let _ = writeln!(output, "graded by {producer}");
    }
    for problem in shown_problems(report, policy) {
        let _ = writeln!(output, "problem: {problem}");
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
    let mut results = serde_json::json!({
        "score": m.total,
        "output": output,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "execution_time": report.elapsed_ms.div_ceil(1000),
        "tests": tests,
    });
    if let Some(producer) = &report.produced_by {
        // Gradescope keeps `extra_data` with the submission, for staff and its API.
        results["extra_data"] = serde_json::json!({ "produced_by": producer });
    }
    results
}

/// Returns select_hand/3's diagnosis as a Gradescope test worth 0, numbered `2.0` (before
/// the tests, `2.1`..): what is wrong with the keeps in words and the simplest deal showing
/// it, visible as its example deal is.
fn keep_diagnosis_test(d: &KeepDiagnosis, policy: VisibilityPolicy) -> serde_json::Value {
    let mut output = String::new();
    for line in d.lines() {
        let _ = writeln!(output, "{line}");
    }
    serde_json::json!({
        "name": "select_hand/3: what is wrong",
        "number": "2.0",
        "score": 0.0,
        "max_score": 0.0,
        "status": "failed",
        "output": output,
        "visibility": policy.of_test(Some(d.example.source)),
    })
}

/// Returns the [problems](SubmissionResult::problems) students may see under `policy`, in
/// their words ([`crate::Problem::words`]): all of them, or under [`VisibilityPolicy::Hidden`]
/// only those about loading (verdict counts would tell how many hidden tests failed).
pub fn shown_problems(report: &SubmissionResult, policy: VisibilityPolicy) -> Vec<String> {
    report
        .problems()
        .into_iter()
        .filter(|problem| {
            policy != VisibilityPolicy::Hidden || problem.about == ProblemArea::Loading
        })
        .map(|problem| problem.words)
        .collect()
}

/// Returns a share of pairs wrong for people: `none`, `<0.1% of pairs`, `1.3% of pairs`.
fn share_text(share: f64) -> String {
    if share <= 0.0 {
        "none".into()
    } else {
        format!("{} of pairs", percent(share))
    }
}

/// Returns the hand_value tests: the marked one (`1.1`) and one worth 0 per area (`1.2`..).
fn hand_value_tests(
    report: &SubmissionResult,
    visibility: TestVisibility,
) -> Vec<serde_json::Value> {
    let m = &report.marks;
    let mut tests = Vec::new();
    let mut text = String::new();
    match &report.hand_value {
        None => {
            let _ = writeln!(
                text,
                "hand_value/3 was not checked: {}",
                report.why_hand_value_unchecked()
            );
        }
        Some(h) => {
            let _ = writeln!(
                text,
                "Asked once for each of the {} rank patterns (the ranks of the four hand cards and \
                 of the start), suits and order drawn at random, flushes and nobs made common. \
                 Marks: 50 x (1 - sqrt(share of all 12,994,800 pairs wrong)).",
                thousands(h.patterns as u64)
            );
            if h.checked < h.patterns {
                let _ = writeln!(
                    text,
                    "Checked {} of {} patterns, a random sample ({}).",
                    thousands(h.checked as u64),
                    thousands(h.patterns as u64),
                    h.stopped.as_deref().unwrap_or("stopped")
                );
            }
            let wrong = h.items_wrong();
            let _ = writeln!(
                text,
                "Wrong on {} of the {} hands asked: about {} of all pairs.",
                thousands(wrong as u64),
                thousands(h.checked as u64),
                if h.share_wrong > 0.0 {
                    percent(h.share_wrong)
                } else {
                    "0%".into()
                }
            );
            if wrong > 0 {
                let _ = writeln!(text);
                for line in h.rule_lines() {
                    let _ = writeln!(text, "{line}");
                }
                if h.rules.is_empty() {
                    for f in h.diagnosis.findings.iter().skip(1).take(2) {
                        let _ = writeln!(text, "Also: {}", f.text);
                    }
                }
                for kind in &h.kinds {
                    let _ = writeln!(
                        text,
                        "hand_value/3 {} on {} hands.",
                        kind.kind.words(),
                        thousands(kind.items as u64)
                    );
                }
                let _ = writeln!(text, "\nThe simplest failing hands:");
                for c in &h.counterexamples {
                    let _ = writeln!(text, "{}", c.words());
                }
            }
        }
    }
    let passed = report
        .hand_value
        .as_ref()
        .is_some_and(|h| h.share_wrong == 0.0);
    tests.push(serde_json::json!({
        "name": "hand_value/3 on every rank pattern",
        "number": "1.1",
        "score": m.hand_value,
        "max_score": HAND_VALUE_MARKS,
        "status": if passed { "passed" } else { "failed" },
        "output": text,
        "visibility": visibility,
    }));
    let Some(h) = &report.hand_value else {
        return tests;
    };
    for (k, area) in Area::ALL.into_iter().enumerate() {
        let found = h.areas.iter().find(|a| a.area == area);
        let always = !matches!(area, Area::NoPoints | Area::NoAnswer);
        let rules: Vec<_> = h.rules.iter().filter(|f| f.rule == area).collect();
        let text = match found {
            _ if !rules.is_empty() => rules
                .iter()
                .map(|f| {
                    format!(
                        "{}.\nThe simplest hand showing it:\n{}",
                        capitalised(&f.words()),
                        f.example_words()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n\n"),
            None if !always => continue,
            None => format!("No wrong answer shows in {}.", area.title()),
            Some(a) => format!(
                "{} wrong hands show the error in {} (about {} of all pairs). The simplest:\n{}",
                thousands(a.items as u64),
                area.title(),
                percent(a.pairs / crib_core::PAIRS as f64),
                a.simplest.words()
            ),
        };
        tests.push(serde_json::json!({
            "name": format!("hand_value/3: {}", area.title()),
            "number": format!("1.{}", k + 2),
            "score": 0.0,
            "max_score": 0.0,
            "status": if found.is_some() || !rules.is_empty() { "failed" } else { "passed" },
            "output": text,
            "visibility": visibility,
        }));
    }
    tests
}

/// Returns `text` with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
