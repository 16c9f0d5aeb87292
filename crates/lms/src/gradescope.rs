//! Gradescope's `submission_metadata.yml`: who made each submission of an export, and when.
//!
//! Gradescope writes it from Ruby, so keys are symbols (`:submitters:`), and times are
//! `2019-01-15 17:23:11.123456000 -08:00`:
//!
//! ```yaml
//! submission_123:
//!   :submitters:
//!   - :name: Jane Smith
//!     :sid: '1001'
//!     :email: jane@example.edu
//!   :created_at: 2026-09-01 16:59:00.000000000 +10:00
//!   :score: 70.0
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Deserializer};

use crate::error::LmsError;
use crib_results::Student;

/// The metadata file's name, at the root of the export.
pub(crate) const METADATA: &str = "submission_metadata.yml";

/// The most bytes the metadata file may hold (16 MiB: about 40,000 submissions).
const MAX_METADATA: u64 = 16 << 20;

/// One submission's entry.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Meta {
    #[serde(rename = ":submitters", default)]
    pub(crate) submitters: Vec<Submitter>,
    #[serde(rename = ":created_at", default, deserialize_with = "text")]
    pub(crate) created_at: Option<String>,
}

/// One submitter of a submission.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Submitter {
    #[serde(rename = ":name", default, deserialize_with = "text")]
    name: Option<String>,
    #[serde(rename = ":sid", default, deserialize_with = "text")]
    sid: Option<String>,
    #[serde(rename = ":email", default, deserialize_with = "text")]
    email: Option<String>,
}

impl Submitter {
    /// Returns the student: their id is the SID, else the email, else the name.
    pub(crate) fn student(&self) -> Student {
        let id = [&self.sid, &self.email, &self.name]
            .into_iter()
            .flatten()
            .find(|s| !s.is_empty())
            .cloned()
            .unwrap_or_default();
        Student {
            id,
            name: self.name.clone(),
            email: self.email.clone(),
            sis_id: self.sid.clone(),
            ..Student::default()
        }
    }
}

/// Reads `path`, the export's metadata, into one entry per submission folder name.
///
/// # Errors
/// [`LmsError::Io`] if it cannot be read; [`LmsError::Metadata`] if it is too big or not
/// the YAML Gradescope writes (the message gives the line).
pub(crate) fn read_metadata(path: &Path, shown: &Path) -> Result<BTreeMap<String, Meta>, LmsError> {
    let size = std::fs::metadata(path)
        .map_err(LmsError::io("read", shown))?
        .len();
    if size > MAX_METADATA {
        return Err(LmsError::Metadata {
            path: shown.to_path_buf(),
            message: format!("{size} bytes, more than the {MAX_METADATA} it may hold"),
        });
    }
    let text = std::fs::read_to_string(path).map_err(LmsError::io("read", shown))?;
    serde_saphyr::from_str(&text).map_err(|e| {
        // The reader's first line says where and what; a snippet of the file follows.
        let text = e.to_string();
        let first = text.lines().next().unwrap_or_default();
        LmsError::Metadata {
            path: shown.to_path_buf(),
            message: first.strip_prefix("error: ").unwrap_or(first).to_string(),
        }
    })
}

/// Reads a scalar as text, whatever YAML typed it as (`:sid: 1001` is a number).
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Scalar {
        Text(String),
        Int(i64),
        Float(f64),
        Bool(bool),
    }
    Ok(Option::<Scalar>::deserialize(d)?.map(|s| match s {
        Scalar::Text(t) => t,
        Scalar::Int(i) => i.to_string(),
        Scalar::Float(f) => f.to_string(),
        Scalar::Bool(b) => b.to_string(),
    }))
}
