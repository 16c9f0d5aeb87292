//! What an LMS says about a submission: who, when, late or not, and its ids. crib-lms reads
//! it from a download; a result keeps it ([`crate::SubmissionResult::lms`]).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The layout of a download: which LMS wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Canvas's bulk download: one flat zip of files named
    /// `<lastfirst>[_LATE]_<userid>_<submissionid>_<original name>`.
    Canvas,
    /// Moodle's "Download all submissions": a folder per participant,
    /// `<Full Name>_<participant id>_assignsubmission_file[_]`, or flat files
    /// `<Full Name>_<participant id>_assignsubmission_file_<original name>`.
    Moodle,
    /// Gradescope's "Export Submissions": `submission_metadata.yml` and a folder
    /// `submission_<id>` per submission.
    Gradescope,
    /// No LMS: one submission per `.pl` file and per folder, as crib grades a directory.
    Plain,
}

/// The name used on the command line and in JSON: `canvas`, `moodle`, `gradescope` or
/// `plain`.
impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::names::write_json_name(self, f)
    }
}

/// A student as the LMS knows them. Only `id` is always there; crib-lms's `Roster` fills in
/// what the download does not say.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Student {
    /// The LMS's id: Canvas's user id, Moodle's participant id (the number in the folder
    /// name, which is not the user id), Gradescope's SID (or the email, when no SID).
    pub id: String,
    /// The name, as the download or the roster writes it (Canvas's file names hold only
    /// `lastfirst`, lowercase; the roster's `Last, First` replaces it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The student information system's id (Canvas's SIS User ID, Moodle's ID number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sis_id: Option<String>,
    /// The SIS login (Canvas's SIS Login ID).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sis_login: Option<String>,
    /// The section (or Moodle's groups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// What the download says about one submission. crib-grade keeps it in the submission's
/// result, so that exports and lateness policies can be computed from the results later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The LMS that wrote the download.
    pub layout: Layout,
    /// Who submitted it: one student, or the members of a group submission (Gradescope),
    /// the submitter first.
    pub students: Vec<Student>,
    /// The LMS's id of the submission, when the download names one: Gradescope's submission
    /// id; for Canvas, whose download names each file by its own attachment id, the highest
    /// attachment id of the files kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submission_id: Option<String>,
    /// When it was submitted, when the download says (Gradescope's `created_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted_at: Option<jiff::Timestamp>,
    /// Whether the LMS marked it late (Canvas's `_LATE`); `None` when the download does not
    /// say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late: Option<bool>,
    /// The download's entries it was made of, as named in the download.
    #[serde(default)]
    pub entries: Vec<String>,
}

impl Record {
    /// Returns the submitter (the first of [`Record::students`]), if the download names one.
    pub fn student(&self) -> Option<&Student> {
        self.students.first()
    }
}
