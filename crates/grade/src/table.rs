//! The table `crib grade` prints: one row per submission, and with `verbose` every
//! diagnostic and test under its row.

use std::fmt::Write as _;

use crate::report::Report;

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
