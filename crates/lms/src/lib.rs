//! Reads a learning management system's download of submissions as it comes (a Canvas bulk
//! download, a Moodle "Download all submissions" or Gradescope "Export Submissions" zip, or
//! the same unpacked into a folder). [`read`] extracts it safely into a private directory the
//! caller gives (no path outside it, no links, limits on size, entry count and compression
//! ratio), one directory per student with their latest attempt and its [`crib_results::Record`]; a
//! [`Roster`] fills in names, emails, sections and SIS ids, and names who submitted nothing.
//! A bad entry costs only itself: it is listed in [`Download::problems`].
//!
//! # Example
//! ```no_run
//! use crib_lms::{read, DownloadLimits};
//! let dest = tempfile::tempdir()?;
//! let download = read("submissions.zip".as_ref(), None, dest.path(), &DownloadLimits::default())?;
//! for sub in &download.submissions {
//!     println!("{} ({}) in {}", sub.name, sub.record.students[0].id, sub.dir.display());
//! }
//! for problem in &download.problems {
//!     eprintln!("{problem}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This crate knows nothing of Prolog, tests or marks: crib-grade grades the directories.

#![deny(missing_docs)]

mod archive;
mod error;
mod gradescope;
mod intake;
mod names;
mod roster;
mod time;

#[cfg(test)]
mod testing;

pub use archive::DownloadLimits;
pub use error::{EntryError, EntryProblem, LmsError, RosterError};
pub use intake::{detect, read, Download, DownloadedSubmission, SetAside};
pub use roster::{line_at, line_breaks, Roster};
pub use time::parse_time;
