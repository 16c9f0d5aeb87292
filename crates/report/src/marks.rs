//! The marks file an LMS imports: one row per submission.

use std::io::Write;

use crib_grade::Report;

use crate::sheet::QualityMarks;
use crate::ReportError;

/// The columns of [`marks_csv`], in order:
///
/// * `student`: the submission's name (its file stem or directory name);
/// * `hand_value`: marks for hand_value/3, out of 50, two decimals: 50 × (1 − √share), the
///   share being of all (hand, start) pairs it gets wrong (the page shows the share);
/// * `select_hand`: marks for select_hand/3, out of 20, two decimals;
/// * `total`: their sum, out of 70 (code quality, 30, is left to the markers);
/// * `problems`: what went wrong, `; `-separated (`load_failed: ...`, `2 load errors`,
///   `3 suboptimal`, `120 hand_value wrong_answer`, `hand_value sampled: ...`...), empty
///   when nothing did;
/// * `test_set`: the fingerprint of the test set the submission was graded against; it ends
///   with the id of the seed the tests were drawn from.
pub const MARKS_COLUMNS: [&str; 6] = [
    "student",
    "hand_value",
    "select_hand",
    "total",
    "problems",
    "test_set",
];

/// The columns [`marks_csv_with`] adds when given the markers' sheet:
///
/// * `code_quality`: the markers' marks, out of 30, two decimals; blank while any criterion
///   of the submission's row is blank (or it has none);
/// * `final`: `total` + `code_quality`, out of 100; blank while `code_quality` is.
pub const QUALITY_COLUMNS: [&str; 2] = ["code_quality", "final"];

/// Writes the marks of `reports` as CSV (RFC 4180, a header row of [`MARKS_COLUMNS`]) to `out`,
/// one row per report, sorted by student name, so that the same results always give the same
/// file.
///
/// # Errors
/// [`ReportError::Csv`] if `out` cannot be written.
///
/// # Example
/// ```
/// let mut out = Vec::new();
/// crib_report::marks_csv(&[], &mut out)?;
/// assert_eq!(out, b"student,hand_value,select_hand,total,problems,test_set\n");
/// # Ok::<(), crib_report::ReportError>(())
/// ```
pub fn marks_csv(reports: &[Report], out: impl Write) -> Result<(), ReportError> {
    marks_csv_with(reports, None, out)
}

/// Writes the marks as [`marks_csv`] does and, with the markers' `quality` marks (read from
/// a filled sheet), the [`QUALITY_COLUMNS`] after [`MARKS_COLUMNS`].
///
/// # Errors
/// [`ReportError::Csv`] if `out` cannot be written.
pub fn marks_csv_with(
    reports: &[Report],
    quality: Option<&QualityMarks>,
    out: impl Write,
) -> Result<(), ReportError> {
    let mut sorted: Vec<&Report> = reports.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut writer = csv::Writer::from_writer(out);
    let mut header: Vec<&str> = MARKS_COLUMNS.to_vec();
    if quality.is_some() {
        header.extend(QUALITY_COLUMNS);
    }
    writer.write_record(header)?;
    let cell = |x: Option<f64>| x.map(|x| format!("{x:.2}")).unwrap_or_default();
    for r in sorted {
        let m = &r.marks;
        let mut row = vec![
            r.name.clone(),
            format!("{:.2}", m.hand_value),
            format!("{:.2}", m.select_hand),
            format!("{:.2}", m.total),
            r.problems().join("; "),
            r.test_set.clone(),
        ];
        if let Some(q) = quality {
            row.push(cell(q.code_quality(&r.name)));
            row.push(cell(q.final_mark(r)));
        }
        writer.write_record(row)?;
    }
    writer.flush().map_err(csv::Error::from)?;
    Ok(())
}

#[cfg(test)]
mod tests;
