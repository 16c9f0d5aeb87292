//! The course staff's view of a graded class: it reads `crib grade`'s results directory back
//! ([`read_results`]), computes what the class did as a whole ([`Class`]) and renders it:
//! [`html`], one self-contained page, and [`marks_csv`], the marks an LMS imports. Code
//! quality is the markers' 30 marks: [`write_sheet_file`] writes their sheet, one column per
//! criterion of the [`Rubric`], and [`read_sheet`] reads it back filled ([`QualityMarks`]).
//! [`export`] hands the marks and each student's feedback back to an LMS.
//!
//! Every expected answer comes from the results themselves, never from a test set built
//! here: each result was graded under its own seed ([`SubmissionResult::seed_id`]).
//!
//! # Example
//! ```no_run
//! let reports = crib_report::read_results("crib-grade-results".as_ref())?;
//! let class = crib_report::Class::new(&reports);
//! let extras = crib_report::PageExtras::default();
//! std::fs::write("report.html", crib_report::html(&class, &reports, extras))?;
//! let mut csv = Vec::new();
//! crib_report::marks_csv(&reports, extras.marks, &mut csv)?;
//! std::fs::write("marks.csv", csv)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod anonymous;
mod class;
mod deep;
mod export;
mod feedback;
mod hand_value;
mod html;
mod lateness;
mod marks;
mod plot;
mod quality;
mod rubric;
mod sheet;
mod similar;
mod stats;

use std::path::{Path, PathBuf};

use crib_results::SubmissionResult;

pub use anonymous::{AnonymousError, Key, Pseudonyms, Scrubber, KEY_BYTES, PSEUDONYM_PREFIX};
pub use class::{Class, ClassSummary, Histogram, TestRow};
pub use deep::{DeepClass, FindingGroup, ShareHistogram};
pub use export::{
    export, moodle_folder, ExportError, Exported, GradebookFormat, GradebookFormatError,
    DEFAULT_ASSIGNMENT,
};
pub use feedback::{feedback_html, feedback_text, FeedbackOptions};
pub use hand_value::{AreaRow, HandValueClass};
pub use html::{html, PageExtras};
pub use lateness::{
    parse_due, parse_grace, Assessment, Deadline, Extension, Extensions, Keyed, KeyedFile,
    LatenessError, Policy, TimeSource, Times,
};
pub use marks::{marks_csv, MarksExtras, LATENESS_COLUMNS, MARKS_COLUMNS, QUALITY_COLUMNS};
pub use quality::{QualityClass, RuleCount, SourceFile, Sources, SubmissionSource};
pub use rubric::{Criterion, Rubric, RubricError, DEFAULT_RUBRIC};
pub use sheet::{read_sheet, sheet_columns, write_sheet_file, QualityMarks, SheetError, SheetRow};
pub use similar::{SimilarPairs, TOP_PAIRS};

/// What stops a report from being made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// The results directory or one of its files cannot be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The directory or file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A result file is not a grading result.
    #[error("{}:{line}:{column}: not a crib grade result: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line of the first problem, 1-based.
        line: usize,
        /// Its column, 1-based.
        column: usize,
        /// What serde_json says.
        message: String,
    },
    /// The directory holds no result file.
    #[error("no results (*.json) in {}", path.display())]
    Empty {
        /// The directory.
        path: PathBuf,
    },
    /// The submissions directory (`--submissions`) cannot be surveyed.
    #[error("cannot find the submissions in {}", path.display())]
    Submissions {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: crib_submission::SurveyError,
    },
    /// The marks CSV cannot be written.
    #[error("cannot write the marks csv")]
    Csv(#[from] csv::Error),
}

/// Returns every result in `dir` (each `*.json` file directly inside, as `crib grade --out`
/// writes them), sorted by submission name. Fields a result has that [`SubmissionResult`] does not
/// know are ignored.
///
/// # Errors
/// [`ReportError::Read`] if `dir` or a file cannot be read, [`ReportError::Parse`] (with the
/// file, line and column) if a `.json` file is not a result, and [`ReportError::Empty`] if
/// there is none.
pub fn read_results(dir: &Path) -> Result<Vec<SubmissionResult>, ReportError> {
    let read_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Read { path, source }
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read_err(dir))? {
        let path = entry.map_err(read_err(dir))?.path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(ReportError::Empty {
            path: dir.to_path_buf(),
        });
    }
    let mut reports = Vec::with_capacity(files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).map_err(read_err(&path))?;
        let report: SubmissionResult =
            serde_json::from_str(&text).map_err(|e| ReportError::Parse {
                line: e.line(),
                column: e.column(),
                message: without_location(&e.to_string()),
                path: path.clone(),
            })?;
        reports.push(report);
    }
    reports.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(reports)
}

/// Returns serde_json's message without its ` at line L column C` suffix, which the error
/// says first.
fn without_location(message: &str) -> String {
    let head = message
        .rsplit_once(" at line ")
        .map_or(message, |(head, _)| head);
    head.to_string()
}

#[cfg(test)]
mod tests;
