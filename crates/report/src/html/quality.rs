//! The code-quality parts of the class report page: the class's rules, and each
//! submission's source with its findings inline, like a code review.

use std::collections::BTreeMap;

use maud::{html as page, Markup, PreEscaped};

use crib_results::Finding;
use crib_results::SubmissionResult;

use crate::plot::rules_svg;
use crate::quality::{QualityClass, SourceFile, Sources, SubmissionSource};
use crate::sheet::QualityMarks;

/// The page's CSS for these parts.
pub(crate) const STYLE: &str = r#"
pre.src { max-height: 40em; padding: 0; line-height: 1.35; white-space: pre; }
pre.src .ln { display: inline-block; width: 4.5em; padding-right: 8px; text-align: right; color: var(--muted);
  border-right: 1px solid var(--line); margin-right: 8px; user-select: none; }
pre.src .hit { background: #fff3cd; }
pre.src .fx { display: block; white-space: pre-wrap; margin: 0 0 2px 5.5em; padding: 1px 6px; border-left: 3px solid #d55e00;
  background: #fdf0e6; font-family: system-ui, sans-serif; font-size: 12px; }
.rule { font-weight: bold; font-family: ui-monospace, Menlo, Consolas, monospace; }
div.quality { border-left: 3px solid #d55e00; padding-left: 10px; margin: 10px 0; }
"#;

/// Returns the class section: how many submissions break each rule, as a bar chart and a
/// table, and the markers' progress when their sheet was read.
pub(crate) fn class_section(
    quality: &QualityClass,
    reports: &[SubmissionResult],
    marks: Option<&QualityMarks>,
) -> Markup {
    page! {
        h2 #quality { "Code quality" }
        p.muted {
            "Findings of " code { "crib lint" } " on " (quality.linted) " of " (reports.len())
            " submissions (" (quality.clean) " with none): evidence for the markers who give the 30 \
             marks for code quality, never marks themselves. "
            code { "crib lint --explain RULE" } " says why a rule exists."
        }
        @if let Some(m) = marks {
            p {
                "Marking sheet (rubric: " (m.rubric.source) "): " b { (m.complete()) }
                " of " (reports.len()) " submissions have a complete code-quality mark; "
                @for (i, c) in m.rubric.criteria.iter().enumerate() {
                    @if i > 0 { ", " }
                    code title=(c.description) { (c.id) } " /" (super::fmt_mark(c.max))
                }
                "."
            }
        }
        @if quality.rules.is_empty() {
            p { "No submission has a finding." }
        } @else {
            div.plots {
                figure.plot data-rules=(quality.rules.len()) {
                    // 56 pixels a rule past 14, so that each code stays legible.
                    (PreEscaped(rules_svg(&quality.rules, (quality.rules.len() as u32 * 56).max(820), 260)))
                    figcaption { "submissions with at least one finding of each rule" }
                }
            }
            table #quality-rules {
                thead { tr {
                    th { "rule" } th.n { "submissions" } th.n { "share of linted" } th.n { "findings" }
                } }
                tbody {
                    @for r in &quality.rules {
                        @let share = r.submissions as f64 / quality.linted.max(1) as f64;
                        tr {
                            td { span.rule { (r.rule) } }
                            td.n { (r.submissions) }
                            td.n { (super::pct(share)) span.bar style=(super::bar_width(share)) {} }
                            td.n { (r.findings) }
                        }
                    }
                }
            }
        }
    }
}

/// Returns a submission's code-quality part: its marks from the sheet, then its findings,
/// inline in its source when `sources` has it, else as a list.
pub(crate) fn submission_section(
    report: &SubmissionResult,
    sources: Option<&Sources>,
    marks: Option<&QualityMarks>,
) -> Markup {
    page! {
        @if report.quality.is_some() || marks.is_some() {
            div.quality {
                h4 { "Code quality" }
                @if let Some(m) = marks {
                    @if let Some(row) = m.rows.get(&report.name) {
                        p {
                            @for (i, (c, mark)) in m.rubric.criteria.iter().zip(&row.marks).enumerate() {
                                @if i > 0 { "; " }
                                (c.id) " " b { (mark.map_or_else(|| "-".to_string(), super::fmt_mark)) }
                                "/" (super::fmt_mark(c.max))
                            }
                            @match m.code_quality(&report.name) {
                                Some(q) => { ": code quality " b { (format!("{q:.2}")) } "/30" }
                                None => { ": not fully marked yet" }
                            }
                        }
                        @if !row.notes.is_empty() { p { b { "notes: " } (row.notes) } }
                    } @else {
                        p.muted { "Not on the marking sheet yet." }
                    }
                }
                @if let Some(lint) = &report.quality {
                    p.muted { "findings: " (lint.summary.line()) }
                    @match sources.and_then(|s| s.by_name.get(&report.name)) {
                        Some(SubmissionSource::Found(files)) => (review(files, &lint.findings)),
                        Some(SubmissionSource::Missing(why)) => {
                            p.warn { "source not shown: " (why) }
                            (finding_list(&lint.findings.iter().collect::<Vec<_>>()))
                        }
                        None => (finding_list(&lint.findings.iter().collect::<Vec<_>>())),
                    }
                }
            }
        }
    }
}

/// Returns each file with line numbers and its findings under their lines, then the
/// findings no line shown holds.
pub(crate) fn review(files: &[SourceFile], findings: &[Finding]) -> Markup {
    let mut placed = vec![false; findings.len()];
    let mut parts = Vec::new();
    for file in files {
        let lines: Vec<&str> = file.text.lines().collect();
        let mut by_line: BTreeMap<usize, Vec<&Finding>> = BTreeMap::new();
        for (i, f) in findings.iter().enumerate() {
            let line = f.line as usize;
            if f.file == file.file && line >= 1 && line <= lines.len() {
                by_line.entry(line).or_default().push(f);
                placed[i] = true;
            }
        }
        parts.push(page! {
            details open[!by_line.is_empty()] {
                summary { code { (file.file) } " \u{2014} " (lines.len()) " lines, "
                    (by_line.values().map(Vec::len).sum::<usize>()) " findings"
                    @if file.truncated { " (cut at 256 KiB)" } }
                pre.src {
                    @for (i, text) in lines.iter().enumerate() {
                        @let here = by_line.get(&(i + 1));
                        span.ln { (i + 1) }
                        @if here.is_some() { span.hit { (text) } } @else { (text) }
                        "\n"
                        @for f in here.into_iter().flatten() {
                            span.fx { (finding_text(f)) }
                        }
                    }
                }
            }
        });
    }
    let rest: Vec<&Finding> = findings
        .iter()
        .zip(&placed)
        .filter(|(_, p)| !**p)
        .map(|(f, _)| f)
        .collect();
    page! {
        @for part in parts { (part) }
        @if !rest.is_empty() {
            p.muted { "findings outside the lines shown:" }
            (finding_list(&rest))
        }
    }
}

pub(crate) fn finding_list(findings: &[&Finding]) -> Markup {
    page! {
        @if findings.is_empty() {
            p { "No findings." }
        } @else {
            ul.answers {
                @for f in findings { li { code { (f.file) ":" (f.line) } " " (finding_text(f)) } }
            }
        }
    }
}

/// Returns `RULE [name/arity] message`.
fn finding_text(f: &Finding) -> Markup {
    page! {
        span.rule { (f.rule) }
        @if let Some(p) = &f.predicate { " [" (p) "]" }
        " " (f.message)
    }
}
