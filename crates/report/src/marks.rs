//! The marks file an LMS imports: one row per submission.

use std::io::Write;

use crib_results::{round2, SubmissionResult};

use crate::lateness::Deadline;
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

/// The columns [`marks_csv`] adds when given the markers' sheet:
///
/// * `code_quality`: the markers' marks, out of 30, two decimals; blank while any criterion
///   of the submission's row is blank (or it has none);
/// * `final`: `total` + `code_quality`, out of 100; blank while `code_quality` is.
pub const QUALITY_COLUMNS: [&str; 2] = ["code_quality", "final"];

/// The columns [`marks_csv`] adds under a lateness policy, before `final`:
///
/// * `lateness`: whole days late (any part of a day counting as one; 0 when on time or
///   within the grace period); blank when the submission's time is unknown (no time in the
///   results or `--times`, or only Canvas's `_LATE` flag);
/// * `late_penalty`: the marks taken off, two decimals: the policy's share of the mark
///   before the penalty (`total`, or `total` + `code_quality` with the markers' sheet);
///   blank when `lateness` is, or while `code_quality` is;
///
/// then `final`: the mark before the penalty less `late_penalty` (out of 70, or of 100 with
/// the sheet); blank when `late_penalty` is.
pub const LATENESS_COLUMNS: [&str; 2] = ["lateness", "late_penalty"];

/// What [`marks_csv`] adds to the marks of the results.
#[derive(Debug, Clone, Copy, Default)]
pub struct MarksExtras<'a> {
    /// The markers' code-quality marks, read from a filled sheet.
    pub quality: Option<&'a QualityMarks>,
    /// The due date and late policy: each submission's penalty, computed now.
    pub deadline: Option<&'a Deadline>,
}

/// Returns `report`'s mark before any late penalty: `total`, or `total` + `code_quality`
/// (out of 100) with the markers' sheet (`None` while that is incomplete).
pub(crate) fn before_penalty(
    report: &SubmissionResult,
    quality: Option<&QualityMarks>,
) -> Option<f64> {
    match quality {
        Some(q) => q
            .code_quality(&report.name)
            .map(|c| round2(report.marks.total + c)),
        None => Some(report.marks.total),
    }
}

/// Returns `report`'s mark as the gradebook takes it: the mark before any penalty
/// ([`before_penalty`]) less the late penalty under a deadline. `None` while the markers'
/// sheet is incomplete for it or, under a deadline, while its lateness is unknown. The one
/// place marks.csv's `final` and every export's grade come from.
pub(crate) fn graded(report: &SubmissionResult, extras: MarksExtras<'_>) -> Option<f64> {
    let before = before_penalty(report, extras.quality)?;
    match extras.deadline {
        Some(deadline) => deadline.assess(report).after(before),
        None => Some(before),
    }
}

/// Returns the most a mark can be: 70, or 100 with the markers' sheet.
pub(crate) fn out_of(quality: Option<&QualityMarks>) -> f64 {
    let tests = crib_results::HAND_VALUE_MARKS + crib_results::SELECT_HAND_MARKS;
    match quality {
        Some(_) => tests + crib_results::CODE_QUALITY_MARKS,
        None => tests,
    }
}

/// Writes the marks of `reports` as CSV (RFC 4180, a header row of [`MARKS_COLUMNS`]) to `out`,
/// one row per report, sorted by student name, so that the same results always give the same
/// file; then the [`QUALITY_COLUMNS`]' `code_quality` with the markers' sheet, the
/// [`LATENESS_COLUMNS`] with a deadline, and `final` with either. Penalties are computed from
/// the dates now; nothing of them is stored.
///
/// # Errors
/// [`ReportError::Csv`] if `out` cannot be written.
///
/// # Example
/// ```
/// let mut out = Vec::new();
/// crib_report::marks_csv(&[], crib_report::MarksExtras::default(), &mut out)?;
/// assert_eq!(out, b"student,hand_value,select_hand,total,problems,test_set\n");
/// # Ok::<(), crib_report::ReportError>(())
/// ```
pub fn marks_csv(
    reports: &[SubmissionResult],
    extras: MarksExtras<'_>,
    out: impl Write,
) -> Result<(), ReportError> {
    Ok(write_marks(reports, extras, out)?)
}

/// Writes what [`marks_csv`] writes.
pub(crate) fn write_marks(
    reports: &[SubmissionResult],
    extras: MarksExtras<'_>,
    out: impl Write,
) -> Result<(), csv::Error> {
    let quality = extras.quality;
    let mut sorted: Vec<&SubmissionResult> = reports.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut writer = csv::Writer::from_writer(out);
    let mut header: Vec<&str> = MARKS_COLUMNS.to_vec();
    if quality.is_some() {
        header.push(QUALITY_COLUMNS[0]);
    }
    if extras.deadline.is_some() {
        header.extend(LATENESS_COLUMNS);
    }
    if quality.is_some() || extras.deadline.is_some() {
        header.push(QUALITY_COLUMNS[1]);
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
            crib_results::problems_text(&r.problems(), "; "),
            r.test_set.clone(),
        ];
        if let Some(q) = quality {
            row.push(cell(q.code_quality(&r.name)));
        }
        if let Some(deadline) = extras.deadline {
            let a = deadline.assess(r);
            row.push(a.days.map(|d| d.to_string()).unwrap_or_default());
            row.push(cell(before_penalty(r, quality).and_then(|b| a.penalty(b))));
        }
        if quality.is_some() || extras.deadline.is_some() {
            row.push(cell(graded(r, extras)));
        }
        writer.write_record(row)?;
    }
    Ok(writer.flush()?)
}

#[cfg(test)]
mod tests;
