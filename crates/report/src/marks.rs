//! The marks file an LMS imports: one row per submission.

use std::io::Write;

use crib_grade::Report;

use crate::ReportError;

/// The columns of [`marks_csv`], in order:
///
/// * `student`: the submission's name (its file stem or directory name);
/// * `hand_value`: marks for hand_value/3, out of 50, two decimals;
/// * `select_hand`: marks for select_hand/3, out of 20, two decimals;
/// * `total`: their sum, out of 70 (code quality, 30, is left to the markers);
/// * `problems`: what went wrong, `; `-separated (`load_failed: ...`, `2 load errors`,
///   `3 wrong_answer`...), empty when nothing did;
/// * `test_set`: the fingerprint of the test set the submission was graded against.
pub const MARKS_COLUMNS: [&str; 6] = [
    "student",
    "hand_value",
    "select_hand",
    "total",
    "problems",
    "test_set",
];

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
    let mut sorted: Vec<&Report> = reports.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(MARKS_COLUMNS)?;
    for r in sorted {
        let m = &r.marks;
        writer.write_record([
            r.name.clone(),
            format!("{:.2}", m.hand_value),
            format!("{:.2}", m.select_hand),
            format!("{:.2}", m.total),
            r.problems().join("; "),
            r.test_set.clone(),
        ])?;
    }
    writer.flush().map_err(csv::Error::from)?;
    Ok(())
}

#[cfg(test)]
mod tests;
