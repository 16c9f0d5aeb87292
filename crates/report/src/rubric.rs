//! The rubric of the markers' code-quality marks: criteria, each with an id, a description
//! and its maximum, totalling [`CODE_QUALITY_MARKS`].

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crib_results::CODE_QUALITY_MARKS;

/// The default rubric of this assignment (`crates/report/rubric.toml`): `documentation`,
/// `readability` and `design`, 10 marks each.
pub const DEFAULT_RUBRIC: &str = include_str!("../rubric.toml");

/// The sheet's columns that are not criteria; no criterion may take their names.
pub(crate) const RESERVED: [&str; 3] = ["submission", "findings", "notes"];

/// One thing the markers mark: a column of the marking sheet.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Criterion {
    /// The column name on the sheet: lower-case letters, digits and `_`.
    pub id: String,
    /// What the markers look for.
    pub description: String,
    /// The most marks it gives (> 0).
    pub max: f64,
}

/// The criteria of the code-quality marks, in sheet order.
#[derive(Debug, Clone, PartialEq)]
pub struct Rubric {
    /// The criteria, in the order of the file.
    pub criteria: Vec<Criterion>,
    /// Where the rubric came from: a file, or `default rubric` for [`DEFAULT_RUBRIC`].
    pub source: String,
}

/// Why a rubric file is refused. Every message names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RubricError {
    /// The file cannot be read.
    #[error("cannot read the rubric {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not TOML of the rubric's shape, has no `[[criterion]]`, a criterion's id
    /// is empty, not lower-case letters, digits and `_`, reserved for another column of the
    /// sheet or given twice, its maximum is not a positive number, or the maxima do not total
    /// [`CODE_QUALITY_MARKS`].
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the criterion.
        message: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    criterion: Vec<Criterion>,
}

impl Rubric {
    /// Returns the default rubric ([`DEFAULT_RUBRIC`]).
    pub fn default_rubric() -> Rubric {
        // Checked by this crate's tests; a failure here is a bug in rubric.toml.
        Rubric::parse(DEFAULT_RUBRIC, Path::new("default rubric"))
            .expect("the embedded rubric.toml is valid")
    }

    /// Returns the rubric in the TOML file `path`.
    ///
    /// # Errors
    /// [`RubricError::Read`] if it cannot be read, else as [`Rubric::parse`].
    pub fn read(path: &Path) -> Result<Rubric, RubricError> {
        let text = std::fs::read_to_string(path).map_err(|source| RubricError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Rubric::parse(&text, path)
    }

    /// Returns the rubric in `text`, TOML read from `path`: one `[[criterion]]` table per
    /// criterion with `id`, `description` and `max`.
    ///
    /// # Errors
    /// A [`RubricError`] naming `path` when the text is not such TOML, has no criterion, an
    /// id is bad or repeated, a maximum is not positive, or the maxima do not total
    /// [`CODE_QUALITY_MARKS`].
    pub fn parse(text: &str, path: &Path) -> Result<Rubric, RubricError> {
        let invalid = |message: String| RubricError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let file: File = toml::from_str(text).map_err(|e| {
            let why = e.to_string().trim_end().replace('\n', " ");
            invalid(format!("not a rubric: {why}"))
        })?;
        if file.criterion.is_empty() {
            return Err(invalid("no [[criterion]] in the rubric".into()));
        }
        for (i, c) in file.criterion.iter().enumerate() {
            let bad_id = |why: &str| Err(invalid(format!("criterion id {:?}: {why}", c.id)));
            let well_formed = !c.id.is_empty()
                && c.id
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_');
            if !well_formed {
                return bad_id("use lower-case letters, digits and _");
            }
            if RESERVED.contains(&c.id.as_str()) {
                return bad_id("the sheet has that column already");
            }
            if file.criterion[..i].iter().any(|d| d.id == c.id) {
                return bad_id("given twice");
            }
            if !(c.max.is_finite() && c.max > 0.0) {
                let (id, max) = (&c.id, c.max);
                let why = format!("criterion {id:?}: max {max} is not a positive number of marks");
                return Err(invalid(why));
            }
        }
        let total: f64 = file.criterion.iter().map(|c| c.max).sum();
        if (total - CODE_QUALITY_MARKS).abs() > 1e-9 {
            return Err(invalid(format!(
                "the criteria's maxima total {total}, not {CODE_QUALITY_MARKS} (the marks for code quality)"
            )));
        }
        Ok(Rubric {
            criteria: file.criterion,
            source: path.display().to_string(),
        })
    }
}

#[cfg(test)]
mod tests;
