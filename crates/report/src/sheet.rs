//! The code-quality marking sheet: written with one row per submission for the markers to
//! fill in, and read back into [`QualityMarks`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crib_lms::{line_at, line_breaks};
use crib_results::{round2, SubmissionResult};

use crate::rubric::Rubric;

/// Why a marking sheet cannot be written or read. Every message names the file, and a bad
/// cell its line and column: the line an editor or a spreadsheet shows (1-based, the header
/// being line 1; blank lines, `\r\n` endings and the line breaks of quoted cells counted).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SheetError {
    /// The sheet exists and overwriting was not asked for.
    #[error("{} exists; pass --force to overwrite it", path.display())]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// The sheet cannot be read or written.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The header lacks a column the rubric needs.
    #[error("{}:1: no column {column:?} (the sheet needs submission, one column per criterion of the {rubric}, and notes)", path.display())]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The column.
        column: String,
        /// Where the rubric came from.
        rubric: String,
    },
    /// A row is bad: not well-formed CSV (e.g. another number of cells than the header), a
    /// submission the results do not have or given twice, a mark that is not a number or is
    /// below 0 or above the criterion's maximum.
    #[error("{}:{line}: {message}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line.
        line: u64,
        /// What is wrong, naming the column.
        message: String,
    },
}

/// One submission's row of a filled sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetRow {
    /// Its line in the sheet.
    pub line: u64,
    /// One mark per criterion, in rubric order; `None` where the cell is blank (not marked
    /// yet, never 0).
    pub marks: Vec<Option<f64>>,
    /// The markers' notes.
    pub notes: String,
}

/// The code-quality marks read from a filled sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct QualityMarks {
    /// The rubric the sheet was read against.
    pub rubric: Rubric,
    /// The rows, by submission name. A submission without a row is not marked yet.
    pub rows: BTreeMap<String, SheetRow>,
}

impl QualityMarks {
    /// Returns submission `name`'s code-quality mark, out of 30: the sum of its criteria,
    /// or `None` while any is blank or it has no row.
    pub fn code_quality(&self, name: &str) -> Option<f64> {
        let row = self.rows.get(name)?;
        row.marks.iter().copied().sum::<Option<f64>>().map(round2)
    }

    /// Returns how many submissions have a complete code-quality mark.
    pub fn complete(&self) -> usize {
        self.rows
            .keys()
            .filter(|name| self.code_quality(name).is_some())
            .count()
    }
}

/// Returns the sheet's header: `submission`, `findings`, one column per criterion, `notes`.
pub fn sheet_columns(rubric: &Rubric) -> Vec<String> {
    let mut columns = vec!["submission".to_string(), "findings".to_string()];
    columns.extend(rubric.criteria.iter().map(|c| c.id.clone()));
    columns.push("notes".into());
    columns
}

/// Writes the empty marking sheet of `reports` to the file `path`, refusing to replace an
/// existing file unless `force`: a header of [`sheet_columns`], then one row per submission
/// sorted by name, with its findings summary ([`crib_results::Summary::line`], or `not
/// linted` for a result without a quality section) and blank marks and notes.
///
/// # Errors
/// [`SheetError::Exists`] if `path` exists and not `force`; [`SheetError::Io`] if it cannot
/// be written.
pub fn write_sheet_file(
    reports: &[SubmissionResult],
    rubric: &Rubric,
    path: &Path,
    force: bool,
) -> Result<(), SheetError> {
    let io = |source| SheetError::Io {
        action: "write",
        path: path.to_path_buf(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let file = options.open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            SheetError::Exists {
                path: path.to_path_buf(),
            }
        } else {
            io(e)
        }
    })?;
    let mut sorted: Vec<&SubmissionResult> = reports.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut writer = csv::Writer::from_writer(std::io::BufWriter::new(file));
    let csv_error = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => io(e),
        other => io(std::io::Error::other(format!("{other:?}"))),
    };
    writer
        .write_record(sheet_columns(rubric))
        .map_err(csv_error)?;
    for r in sorted {
        let findings = r
            .quality
            .as_ref()
            .map_or_else(|| "not linted".to_string(), |q| q.summary.line());
        // Then a blank mark per criterion and blank notes.
        let mut row = vec![r.name.clone(), findings];
        row.resize(rubric.criteria.len() + 3, String::new());
        writer.write_record(row).map_err(csv_error)?;
    }
    writer.flush().map_err(io)
}

/// Reads the filled sheet in the file `path` against `reports` and `rubric`. Columns are
/// found by their header, in any order; other columns (such as `findings`) are ignored.
/// Cells are trimmed; a blank mark is not marked yet.
///
/// # Errors
/// [`SheetError::Io`] if it cannot be read; else a [`SheetError`] naming `path`, the line
/// and the column: a column of the rubric (or `submission` or `notes`) missing, malformed
/// CSV, a submission the results do not have or given twice, a mark that is not a number or
/// is outside 0 to the criterion's maximum.
pub fn read_sheet(
    path: &Path,
    reports: &[SubmissionResult],
    rubric: &Rubric,
) -> Result<QualityMarks, SheetError> {
    let text = std::fs::read(path).map_err(|source| SheetError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    parse_sheet(&text, path, reports, rubric)
}

/// Reads a filled sheet, `text` read from `path`, as [`read_sheet`] says.
fn parse_sheet(
    text: &[u8],
    path: &Path,
    reports: &[SubmissionResult],
    rubric: &Rubric,
) -> Result<QualityMarks, SheetError> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let at = |line, message: String| SheetError::Line {
        path: path.to_path_buf(),
        line,
        message,
    };
    let csv_error = |e: csv::Error| {
        let why = match e.kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => format!("{len} cells where the header has {expected_len}"),
            _ => e.to_string(),
        };
        let line = e.position().map_or(1, |p| line_at(text, p.byte()));
        at(line, format!("not a marking sheet: {why}"))
    };
    let mut reader = csv::ReaderBuilder::new().from_reader(text);
    let header = reader.headers().map_err(csv_error)?.clone();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| SheetError::MissingColumn {
                path: path.to_path_buf(),
                column: name.to_string(),
                rubric: rubric.source.clone(),
            })
    };
    let submission = column("submission")?;
    let criteria = rubric
        .criteria
        .iter()
        .map(|c| column(&c.id))
        .collect::<Result<Vec<usize>, SheetError>>()?;
    let notes = column("notes")?;
    let mut rows: BTreeMap<String, SheetRow> = BTreeMap::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, |p| line_at(text, p.byte()));
        let cell = |i: usize| record.get(i).unwrap_or("").trim();
        let name = cell(submission);
        if name.is_empty() && record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let column = "column \"submission\"";
        if !reports.iter().any(|r| r.name == name) {
            let why = format!("{column}: {name:?} is not a submission of these results");
            return Err(at(line, why));
        }
        if let Some(first) = rows.get(name) {
            let first = first.line;
            return Err(at(
                line,
                format!("{column}: {name:?} has a row already, on line {first}"),
            ));
        }
        let mut marks = Vec::with_capacity(criteria.len());
        for (criterion, &i) in rubric.criteria.iter().zip(&criteria) {
            let mark = mark(cell(i), criterion).map_err(|why| {
                let column = &criterion.id;
                at(
                    cell_line(line, &record, i),
                    format!("column {column:?}: {why}"),
                )
            })?;
            marks.push(mark);
        }
        let row = SheetRow {
            line,
            marks,
            notes: cell(notes).to_string(),
        };
        rows.insert(name.to_string(), row);
    }
    Ok(QualityMarks {
        rubric: rubric.clone(),
        rows,
    })
}

/// Returns the line of cell `i` of `record`, which starts on line `line`: a quoted cell
/// before it may hold line breaks (the markers' notes often do), and a cell's text keeps
/// every break its quoted text had.
fn cell_line(line: u64, record: &csv::StringRecord, i: usize) -> u64 {
    line + record
        .iter()
        .take(i)
        .map(|cell| line_breaks(cell.as_bytes()))
        .sum::<u64>()
}

/// Returns the mark in `text` for `criterion`: `None` when blank.
///
/// # Errors
/// Why, when `text` is not a number from 0 to the criterion's maximum.
fn mark(text: &str, criterion: &crate::rubric::Criterion) -> Result<Option<f64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    let not_a_number = "is not a number (leave the cell blank if not marked yet)";
    match text.parse::<f64>() {
        Ok(mark) if (0.0..=criterion.max).contains(&mark) => Ok(Some(mark)),
        Ok(mark) if mark.is_finite() => Err(format!(
            "{mark} is outside 0..={}, the criterion's marks",
            criterion.max
        )),
        _ => Err(format!("{text:?} {not_a_number}")),
    }
}

#[cfg(test)]
mod tests;
