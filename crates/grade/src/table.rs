//! The table `crib grade` prints: one row per submission, and with `verbose` every
//! diagnostic, code-quality finding and test under its row.

use std::fmt::Write as _;

use crib_results::{percent, thousands, HandValueCheck, Marks, SubmissionResult};

/// Returns the terminal table: one row per submission (its problems with verdict codes),
/// under a row whose hand_value/3 is wrong one line saying what is wrong rule by rule in
/// words, under a row with a valid keep that is not the best one line saying which mistake
/// select_hand/3's keeps follow (with how many failing deals it explains), and with `verbose` instead each rule's simplest hand, every diagnostic,
/// code-quality finding (`file:line: RULE [name/arity] message`) and test beneath it. When any report has a `quality` section, a `quality` column shows its
/// summary line (`none`, or e.g. `7: D102x3 L401x4`; `-` for a report without one).
pub fn table(reports: &[SubmissionResult], verbose: bool) -> String {
    let quality = reports.iter().any(|r| r.quality.is_some());
    let quality_cell =
        |r: &SubmissionResult| r.quality.as_ref().map_or("-".into(), |q| q.summary.line());
    let quality_width = reports
        .iter()
        .map(|r| quality_cell(r).chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let width = reports
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    let mut out = String::new();
    let _ = write!(
        out,
        "{:<width$}  {:>12}  {:>11}  {:>8}  ",
        "submission", "hand_value", "select_hand", "marks/70"
    );
    if quality {
        let _ = write!(out, "{:<quality_width$}  ", "quality");
    }
    let _ = writeln!(out, "problems");
    for r in reports {
        let m = &r.marks;
        let problems = r.problems();
        let _ = write!(
            out,
            "{:<width$}  {:>12}  {:>10.1}%  {:>8.2}  ",
            r.name,
            hand_value_cell(m),
            m.select_hand_credit * 100.0,
            m.total,
        );
        if quality {
            let _ = write!(out, "{:<quality_width$}  ", quality_cell(r));
        }
        let _ = writeln!(
            out,
            "{}",
            if problems.is_empty() {
                "-".to_string()
            } else {
                crib_results::problems_text(&problems, ", ")
            }
        );
        if let Some(h) = r
            .hand_value
            .as_ref()
            .filter(|h| !verbose && !h.rules.is_empty())
        {
            let words: Vec<String> = h.rules.iter().map(|f| f.words()).collect();
            let _ = writeln!(out, "    hand_value/3: {}", words.join("; "));
        }
        if let Some(d) = &r.keep_diagnosis {
            let (words, share) = match d.verdict {
                crib_results::KeepVerdict::Mistake(m) => {
                    let words = m.words();
                    let words = words.strip_prefix("select_hand/3 ").unwrap_or(&words);
                    let follows = if d.follows_hand_value {
                        ", as hand_value/3"
                    } else {
                        ""
                    };
                    (format!("{words}{follows}"), format!("{} of ", d.explained))
                }
                crib_results::KeepVerdict::Unexplained => (
                    "keeps not the best, as no model chooses".into(),
                    String::new(),
                ),
            };
            let _ = writeln!(
                out,
                "    select_hand/3: {words} ({share}{} failing deals)",
                d.failing
            );
        }
        if let Some(deep) = &r.deep {
            for line in deep.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        if verbose {
            if let Some(h) = &r.hand_value {
                for line in hand_value_lines(h) {
                    let _ = writeln!(out, "    {line}");
                }
            }
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
            for f in r.quality.iter().flat_map(|q| &q.findings) {
                let _ = writeln!(out, "    {}", f);
            }
            for t in &r.tests {
                let credit = t.credit.map_or("".into(), |q| format!(" credit {q:.3}"));
                let cpu = t.cpu_ms.map_or("-".into(), |ms| ms.to_string());
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

/// Returns the hand_value column: `right`, or the estimated share of pairs wrong, with `*`
/// when only a sample of the patterns was checked.
fn hand_value_cell(m: &Marks) -> String {
    let sample = if m.hand_value_checked < m.hand_value_patterns {
        "*"
    } else {
        ""
    };
    if m.hand_value_patterns == 0 {
        "-".into()
    } else if m.hand_value_share_wrong == 0.0 {
        format!("right{sample}")
    } else {
        format!("{} wrong{sample}", percent(m.hand_value_share_wrong))
    }
}

/// Returns the marked hand_value check in a few lines, for `--verbose`.
fn hand_value_lines(h: &HandValueCheck) -> Vec<String> {
    let wrong = h.items_wrong();
    let sample = if h.checked < h.patterns {
        format!(
            "; a sample: {} of {} patterns asked{}",
            thousands(h.checked as u64),
            thousands(h.patterns as u64),
            h.stopped
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default()
        )
    } else {
        String::new()
    };
    let mut lines = vec![format!(
        "hand_value/3: {} of {} rank patterns wrong (about {} of all pairs){sample}",
        thousands(wrong as u64),
        thousands(h.checked as u64),
        percent(h.share_wrong),
    )];
    if wrong > 0 {
        lines.extend(h.rule_lines());
        lines.push(format!("features: {}", h.diagnosis.summary));
        for a in &h.areas {
            lines.push(format!(
                "{}: {} wrong, simplest {} + {}: expected {}, got {}",
                a.area.title(),
                thousands(a.items as u64),
                crib_core::cards_text(&a.simplest.hand),
                a.simplest.start,
                a.simplest.expected,
                a.simplest.got
            ));
        }
    }
    lines
}
