//! One student's feedback: their marks, the lateness line, what went wrong in their words
//! (never verdict codes), each failing test the visibility policy lets them see (goal,
//! expected answer, what they gave), hand_value/3's diagnosis rule by rule (what is wrong
//! with each rule, with the simplest hand showing it), select_hand/3's (which mistake its
//! keeps follow, with the simplest deal showing it), the code-quality findings inline in
//! their source and the markers' notes. A self-contained HTML page readable on a phone, and
//! the same as plain text.

use std::fmt::Write as _;

use maud::{html as page, Markup, PreEscaped, DOCTYPE};

use crib_results::{Finding, KeepDiagnosis, KeepExample, Lint, TestResult, Verdict};
use crib_results::{SubmissionResult, VisibilityPolicy};
use crib_results::{CODE_QUALITY_MARKS, HAND_VALUE_MARKS, SELECT_HAND_MARKS};

use crate::html::quality::{finding_list, review, STYLE as QUALITY_STYLE};
use crate::html::when;
use crate::marks::{before_penalty, graded, out_of, MarksExtras};
use crate::quality::{SourceFile, Sources, SubmissionSource};
use crate::sheet::{QualityMarks, SheetRow};

/// What a feedback file is made from besides the result.
#[derive(Debug, Clone, Copy)]
pub struct FeedbackOptions<'a> {
    /// The assignment's name, as the page's title says it.
    pub assignment: &'a str,
    /// The markers' sheet and the late policy: the marks as the gradebook has them.
    pub extras: MarksExtras<'a>,
    /// The submissions' source, to show the code-quality findings inline.
    pub sources: Option<&'a Sources>,
    /// Which tests the student may see ([`crib_results::gradescope`]'s policy): feedback
    /// is handed back with the marks, so everything not `hidden` is shown.
    pub visibility: VisibilityPolicy,
}

/// At most this many hand_value/3 failing hands are listed (the simplest first).
const MAX_HANDS: usize = 12;

const STYLE: &str = r#"
:root { --fg:#1b1b1b; --muted:#5b5b5b; --line:#d0d0d0; --head:#f3f3f3; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0 auto; padding: 12px 16px 40px; max-width: 860px; overflow-wrap: anywhere; }
h1 { font-size: 21px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 24px 0 8px; border-bottom: 2px solid var(--fg); }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
td.n { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.final td { font-weight: bold; border-top: 2px solid var(--fg); }
pre, code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
pre { background: var(--head); padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; overflow-x: auto; }
ul.tests { padding-left: 0; list-style: none; }
ul.tests li code { word-break: break-all; }
ul.tests li { border-left: 3px solid #d55e00; padding: 4px 8px; margin: 6px 0; background: #fdf0e6; }
ul.answers { padding-left: 18px; }
h3 { font-size: 15px; margin: 16px 0 4px; }
ul.rules { padding-left: 0; list-style: none; }
ul.rules li { border-left: 3px solid #0072b2; padding: 6px 8px; margin: 8px 0; background: #eef5fb; }
ul.rules li code { word-break: break-all; }
.late { border-left: 3px solid #0072b2; padding-left: 8px; }
pre.src { max-height: none; white-space: pre-wrap; }
"#;

/// Returns the feedback page of `report`: one self-contained HTML document (no script, no
/// external file) with a viewport for phones.
pub fn feedback_html(report: &SubmissionResult, options: FeedbackOptions<'_>) -> String {
    let who = student_name(report);
    let title = format!("{}: feedback for {who}", options.assignment);
    let shown = Shown::of(report, options);
    let markup = page! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                // The code review's style first: this page's rules (wrapping its source, no
                // scrolling box) win.
                style { (PreEscaped(QUALITY_STYLE)) (PreEscaped(STYLE)) }
            }
            body {
                h1 { (title) }
                p.muted {
                    "Submission " code { (report.name) } "; tests drawn from seed "
                    code { (report.seed_id) } "."
                }
                (marks_section(report, options))
                (loading_section(report, options.visibility))
                @if shown.whole {
                    (hand_value_section(report))
                }
                (select_hand_section(report, &shown))
                @if !shown.whole {
                    p.muted { "The tests themselves are not shown (the course's policy)." }
                }
                (quality_section(&shown))
            }
        }
    };
    markup.into_string()
}

/// Returns the student's name as the LMS has it, else the submission's name.
pub(crate) fn student_name(report: &SubmissionResult) -> String {
    report
        .lms
        .as_ref()
        .and_then(|r| r.student())
        .and_then(|s| s.name.clone())
        .unwrap_or_else(|| report.name.clone())
}

/// What of a result its student may see under the visibility policy: the same for the page
/// and the text.
struct Shown<'a> {
    /// Whether what speaks of every test is shown: the hand_value check, both diagnoses and
    /// crib lint's findings.
    whole: bool,
    /// The select_hand tests shown.
    tests: Vec<&'a TestResult>,
    /// Those of them not passed.
    failed: Vec<&'a TestResult>,
    /// select_hand/3's diagnosis, and its example when its deal is shown.
    keep: Option<(&'a KeepDiagnosis, Option<&'a KeepExample>)>,
    /// The rubric and the student's row of the markers' sheet.
    row: Option<(&'a QualityMarks, &'a SheetRow)>,
    /// crib lint's findings.
    lint: Option<&'a Lint>,
    /// The student's source, when found.
    files: Option<&'a [SourceFile]>,
}

impl<'a> Shown<'a> {
    fn of(report: &'a SubmissionResult, options: FeedbackOptions<'a>) -> Shown<'a> {
        let seen = |source| options.visibility.of_test(source).shown_when_published();
        let whole = seen(None);
        let tests: Vec<&TestResult> = report
            .tests
            .iter()
            .filter(|t| seen(Some(t.source)))
            .collect();
        let failed = tests.iter().copied().filter(|t| t.verdict != Verdict::Pass);
        let keep = report.keep_diagnosis.as_ref().filter(|_| whole);
        let files = match options.sources.and_then(|s| s.by_name.get(&report.name)) {
            Some(SubmissionSource::Found(files)) => Some(files.as_slice()),
            _ => None,
        };
        Shown {
            whole,
            failed: failed.collect(),
            tests,
            keep: keep.map(|d| (d, Some(&d.example).filter(|e| seen(Some(e.source))))),
            row: (options.extras.quality)
                .and_then(|q| q.rows.get(&report.name).map(|row| (q, row))),
            lint: report.quality.as_ref().filter(|_| whole),
            files,
        }
    }
}

fn mark(x: f64) -> String {
    format!("{x:.2}")
}

/// The rows of the marks table: what, the mark, out of what.
fn mark_rows(report: &SubmissionResult, options: FeedbackOptions<'_>) -> Vec<(String, String)> {
    let m = &report.marks;
    let quality = options.extras.quality;
    let of = |x: f64, most: f64| format!("{} / {most}", mark(x));
    let final_of = |x: Option<f64>, most| x.map_or_else(|| "not final yet".into(), |x| of(x, most));
    let mut rows = vec![
        ("hand_value/3".into(), of(m.hand_value, HAND_VALUE_MARKS)),
        ("select_hand/3".into(), of(m.select_hand, SELECT_HAND_MARKS)),
    ];
    if let Some(q) = quality {
        let x = q.code_quality(&report.name);
        let cell = x.map_or_else(|| "not marked yet".into(), |x| of(x, CODE_QUALITY_MARKS));
        rows.push(("code quality".into(), cell));
    }
    let out = out_of(quality);
    if let Some(deadline) = options.extras.deadline {
        let a = deadline.assess(report);
        let before = before_penalty(report, quality);
        rows.push(("before any late penalty".into(), final_of(before, out)));
        let penalty = before.and_then(|b| a.penalty(b));
        let cell = penalty.map_or_else(String::new, |p| format!("\u{2212}{}", mark(p)));
        rows.push((format!("lateness: {}", a.describe()), cell));
    }
    rows.push(("mark".into(), final_of(graded(report, options.extras), out)));
    rows
}

fn marks_section(report: &SubmissionResult, options: FeedbackOptions<'_>) -> Markup {
    let rows = mark_rows(report, options);
    let last = rows.len() - 1;
    page! {
        h2 { "Marks" }
        table {
            @for (i, (what, value)) in rows.iter().enumerate() {
                tr.final[i == last] { td { (what) } td.n { (value) } }
            }
        }
        @if let Some(d) = options.extras.deadline {
            @let a = d.assess(report);
            p.late.muted {
                "Due " (when(a.due)) @if a.extended { " (extended)" }
                @if let Some(t) = a.submitted { "; submitted " (when(t)) }
                "; late policy: " (d.policy.to_string()) "."
            }
        }
    }
}

fn loading_section(report: &SubmissionResult, policy: VisibilityPolicy) -> Markup {
    let load = &report.load;
    let problems = crib_results::shown_problems(report, policy);
    page! {
        @if !problems.is_empty() || !load.diagnostics.is_empty() || !load.skipped.is_empty() {
            h2 { "What went wrong" }
            @if !problems.is_empty() {
                ul.answers { @for p in &problems { li { (p) } } }
            }
            @if !load.diagnostics.is_empty() || !load.skipped.is_empty() {
                p { "While loading your files, SWI-Prolog printed:" }
                pre {
                    @for s in &load.skipped { "skipped " (s.to_string()) "\n" }
                    @for d in &load.diagnostics {
                        (d.file) ":" (d.line) ": " (d.kind) ": " (d.message) "\n"
                    }
                }
            }
        }
    }
}

fn hand_value_section(report: &SubmissionResult) -> Markup {
    page! {
        h2 { "hand_value/3" }
        @match &report.hand_value {
            None => p {
                "Not checked: "
                (report.why_hand_value_unchecked())
            },
            Some(h) => {
                p {
                    "Asked on " (h.checked) " of the " (h.patterns) " rank patterns"
                    @if h.checked < h.patterns { " (a random sample: " (h.stopped.as_deref().unwrap_or("stopped")) ")" }
                    "; wrong on about " (share(h.share_wrong)) " of all (hand, start) pairs."
                }
                @if !h.rules.is_empty() {
                    h3 { "What is wrong, rule by rule" }
                    ul.rules {
                        @for f in &h.rules {
                            li {
                                b { (f.rule.title()) ": " } (f.words())
                                span.muted { " (" (f.share_words()) " of your wrong answers)" }
                                br;
                                span.muted { "The simplest hand showing it:" } br;
                                code { "?- " (f.example.goal) } br;
                                "expected " b { (f.example.expected) } " (" (f.example.breakdown) "), got " b { (f.example.got) }
                                @if let (Some(e), Some(g)) = (f.expected_points, f.got_points) {
                                    br;
                                    (f.rule.title()) ": " b { (e) } " by the rules, " b { (g) } " as counted"
                                }
                            }
                        }
                    }
                } @else if !h.counterexamples.is_empty() {
                    p { b { "Diagnosis: " } (h.diagnosis.summary) }
                    @for f in h.diagnosis.findings.iter().skip(1).take(2) {
                        p.muted { "Also: " (f.text) }
                    }
                }
                @if !h.counterexamples.is_empty() {
                    p { "The simplest failing hands:" }
                    ul.tests {
                        @for c in h.counterexamples.iter().take(MAX_HANDS) {
                            li {
                                code { "?- " (c.goal) } br;
                                "expected " b { (c.expected) } " (" (c.breakdown) "), got " b { (c.got) }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn share(x: f64) -> String {
    if x <= 0.0 {
        "0%".into()
    } else if x < 0.001 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", x * 100.0)
    }
}

fn select_hand_section(report: &SubmissionResult, shown: &Shown<'_>) -> Markup {
    let (tests, failed) = (&shown.tests, &shown.failed);
    page! {
        @if !tests.is_empty() {
            h2 { "select_hand/3" }
            p {
                (tests.len() - failed.len()) " of " (tests.len()) " tests passed; mean credit "
                (format!("{:.3}", report.marks.select_hand_credit)) "."
            }
            @if let Some((d, example)) = shown.keep {
                h3 { "What is wrong" }
                ul.rules {
                    li {
                        b { (capitalised(&d.words())) }
                        @if let crib_results::KeepVerdict::Mistake(_) = d.verdict {
                            span.muted {
                                " (" (d.explained) " of the " (d.failing)
                                " deals where your keep is not the best)"
                            }
                        }
                        @if let Some(e) = example {
                            br;
                            span.muted { "The simplest deal showing it:" } br;
                            code { "?- " (e.goal) } br;
                            "you kept " b { (e.chosen.keep) } " (discarding " (e.chosen.discard) "): worth "
                            b { (format!("{:.4}", e.chosen.expected_value)) }
                            " on average over the " (e.starts) " possible start cards" br;
                            "the best is " b { (e.best.keep) } " (discarding " (e.best.discard) "): worth "
                            b { (format!("{:.4}", e.best.expected_value)) }
                        }
                    }
                }
            }
            @if !failed.is_empty() {
                @if shown.keep.is_some() { p { "The tests that failed:" } }
                ul.tests {
                    @for t in failed {
                        li {
                            code { "?- " (t.goal) } br;
                            (t.verdict.words())
                            @if let Some(c) = t.credit.filter(|c| *c < 1.0) {
                                span.muted { " (credit " (format!("{c:.3}")) ")" }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Returns `text` with its first letter a capital, unless it starts with a predicate's name
/// (`select_hand/3 ranks ...`), which keeps its case.
fn capitalised(text: &str) -> String {
    if text.split(' ').next().is_some_and(|w| w.contains('/')) {
        return text.to_string();
    }
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn quality_section(shown: &Shown<'_>) -> Markup {
    let (row, lint) = (shown.row, shown.lint);
    page! {
        @if row.is_some() || lint.is_some() {
            h2 { "Code quality" }
            @if let Some((q, row)) = row {
                table {
                    @for (c, m) in q.rubric.criteria.iter().zip(&row.marks) {
                        tr {
                            td { (c.id) br; span.muted { (c.description) } }
                            td.n { (m.map_or_else(|| "-".to_string(), mark)) " / " (crate::html::fmt_mark(c.max)) }
                        }
                    }
                }
                @if !row.notes.is_empty() { p { b { "Markers' notes: " } (row.notes) } }
            }
            @if let Some(lint) = lint {
                p.muted {
                    "What crib lint found (evidence for the markers, not marks in itself): "
                    (lint.summary.line())
                }
                @match shown.files {
                    Some(files) => (review(files, &lint.findings)),
                    None => (finding_list(&lint.findings.iter().collect::<Vec<_>>())),
                }
            }
        }
    }
}

/// Returns the feedback of `report` as plain text: what [`feedback_html`] shows, for an LMS
/// that wants text (and for a terminal).
pub fn feedback_text(report: &SubmissionResult, options: FeedbackOptions<'_>) -> String {
    let mut out = String::new();
    let title = format!(
        "{}: feedback for {}",
        options.assignment,
        student_name(report)
    );
    let _ = writeln!(out, "{title}\n{}", "=".repeat(title.chars().count()));
    let _ = writeln!(
        out,
        "Submission {}; tests drawn from seed {}.\n\nMarks",
        report.name, report.seed_id
    );
    for (what, value) in mark_rows(report, options) {
        let _ = writeln!(out, "  {what:<40} {value}");
    }
    if let Some(d) = options.extras.deadline {
        let a = d.assess(report);
        let _ = write!(out, "  due {}", when(a.due));
        if let Some(t) = a.submitted {
            let _ = write!(out, "; submitted {}", when(t));
        }
        let _ = writeln!(out, "; late policy: {}", d.policy);
    }
    let problems = crib_results::shown_problems(report, options.visibility);
    if !problems.is_empty() || !report.load.diagnostics.is_empty() {
        let _ = writeln!(out, "\nWhat went wrong");
        for p in &problems {
            let _ = writeln!(out, "  {p}");
        }
        for d in &report.load.diagnostics {
            let _ = writeln!(out, "  {}:{}: {}: {}", d.file, d.line, d.kind, d.message);
        }
    }
    let shown = Shown::of(report, options);
    if shown.whole {
        let _ = writeln!(out, "\nhand_value/3");
        match &report.hand_value {
            None => {
                let _ = writeln!(out, "  not checked: {}", report.why_hand_value_unchecked());
            }
            Some(h) => {
                let _ = writeln!(
                    out,
                    "  asked on {} of the {} rank patterns; wrong on about {} of all pairs",
                    h.checked,
                    h.patterns,
                    share(h.share_wrong)
                );
                for line in h.rule_lines() {
                    let _ = writeln!(out, "  {line}");
                }
                if !h.counterexamples.is_empty() {
                    let _ = writeln!(out, "  The simplest failing hands:");
                    for c in h.counterexamples.iter().take(MAX_HANDS) {
                        let _ = writeln!(
                            out,
                            "  ?- {}\n     expected {} ({}), got {}",
                            c.goal, c.expected, c.breakdown, c.got
                        );
                    }
                }
            }
        }
    }
    let (tests, failed) = (&shown.tests, &shown.failed);
    if !tests.is_empty() {
        let passed = tests.len() - failed.len();
        let _ = writeln!(
            out,
            "\nselect_hand/3\n  {passed} of {} tests passed",
            tests.len()
        );
        if let Some((d, example)) = shown.keep {
            let lines = d.lines();
            for line in lines
                .iter()
                .take(if example.is_some() { lines.len() } else { 1 })
            {
                let _ = writeln!(out, "  {line}");
            }
            let _ = writeln!(out, "  The tests that failed:");
        }
        for t in failed {
            let _ = writeln!(out, "  ?- {}\n     {}", t.goal, t.verdict.words());
        }
    }
    if !shown.whole {
        let _ = writeln!(
            out,
            "\nThe tests themselves are not shown (the course's policy)."
        );
    }
    if shown.row.is_none() && shown.lint.is_none() {
        return out;
    }
    let _ = writeln!(out, "\nCode quality");
    if let Some((q, row)) = shown.row {
        for (c, m) in q.rubric.criteria.iter().zip(&row.marks) {
            let m = m.map_or_else(|| "-".to_string(), mark);
            let _ = writeln!(out, "  {:<40} {m} / {}", c.id, crate::html::fmt_mark(c.max));
        }
        if !row.notes.is_empty() {
            let _ = writeln!(out, "  markers' notes: {}", row.notes);
        }
    }
    if let Some(lint) = shown.lint {
        let _ = writeln!(out, "  crib lint: {}", lint.summary.line());
        for f in &lint.findings {
            let _ = writeln!(out, "  {}", finding_line(f));
            if let Some(line) = source_line(shown.files.unwrap_or_default(), f) {
                let _ = writeln!(out, "      | {line}");
            }
        }
    }
    out
}

fn finding_line(f: &Finding) -> String {
    let mut s = format!("{}:{}: {}", f.file, f.line, f.rule);
    if let Some(p) = &f.predicate {
        let _ = write!(s, " [{p}]");
    }
    let _ = write!(s, " {}", f.message);
    s
}

/// Returns the source line a finding names, when the file is shown.
fn source_line<'a>(files: &'a [SourceFile], f: &Finding) -> Option<&'a str> {
    let file = files.iter().find(|s| s.file == f.file)?;
    let n = usize::try_from(f.line).ok()?.checked_sub(1)?;
    file.text.lines().nth(n).map(str::trim_end)
}

#[cfg(test)]
pub(crate) mod tests;
