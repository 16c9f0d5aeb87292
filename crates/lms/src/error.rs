//! What goes wrong reading a download: the whole of it ([`LmsError`]), one entry of it
//! ([`EntryError`], which costs only that entry), or the roster ([`RosterError`]).

use std::io;
use std::path::{Path, PathBuf};

/// Why a download cannot be read at all. Every message names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LmsError {
    /// A file or directory cannot be read or written.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done: `read`, `write`, `create`...
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file given is not a zip archive (or its central directory is damaged).
    #[error("{}: not a zip archive: {message}", path.display())]
    NotZip {
        /// The file.
        path: PathBuf,
        /// The zip reader's words.
        message: String,
    },
    /// The archive holds more entries than [`crate::DownloadLimits::max_entries`].
    #[error("{archive}: {entries} entries, more than the {max} a download may hold")]
    TooManyEntries {
        /// The archive.
        archive: String,
        /// Its entries.
        entries: usize,
        /// The limit.
        max: usize,
    },
    /// The files extracted total more than [`crate::DownloadLimits::max_bytes`].
    #[error("{archive}: {entry}: the download's files total more than {max} bytes, the most it may hold")]
    TooBig {
        /// The archive.
        archive: String,
        /// The entry that went over.
        entry: String,
        /// The limit.
        max: u64,
    },
    /// Gradescope's `submission_metadata.yml` cannot be read.
    #[error("{}: {message}", path.display())]
    Metadata {
        /// The file, as found in the download.
        path: PathBuf,
        /// What is wrong, with the line where the YAML reader says.
        message: String,
    },
}

impl LmsError {
    /// Returns a function making [`LmsError::Io`] of an error doing `action` on `path`.
    pub(crate) fn io(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> LmsError {
        let path = path.to_path_buf();
        move |source| LmsError::Io {
            action,
            path,
            source,
        }
    }
}

/// One entry of a download that was not extracted, and why; the rest of the download is
/// read. The message names the archive and the entry: `download.zip: ../evil.pl: a path
/// outside the destination`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("{archive}: {entry}: {problem}")]
pub struct EntryError {
    /// The archive (or folder) the entry is in; a zip inside a download is named
    /// `download.zip: entry.zip`.
    pub archive: String,
    /// The entry, as the archive names it.
    pub entry: String,
    /// What is wrong with it.
    pub problem: EntryProblem,
}

impl EntryError {
    pub(crate) fn new(archive: &str, entry: &str, problem: EntryProblem) -> EntryError {
        EntryError {
            archive: archive.to_string(),
            entry: entry.to_string(),
            problem,
        }
    }
}

/// What is wrong with one entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum EntryProblem {
    /// A `..` in its path: it would be written outside the destination.
    #[error("a path outside the destination (`..`)")]
    Escapes,
    /// An absolute path (`/etc/passwd`, `C:\...`).
    #[error("an absolute path")]
    Absolute,
    /// A symbolic link (never extracted or followed), or in a folder a FIFO, socket or
    /// device.
    #[error("{what} (links and special files are never extracted)")]
    Link {
        /// `a symbolic link`, `a FIFO`...
        what: String,
    },
    /// It inflates to more than [`crate::DownloadLimits::max_ratio`] times its compressed size.
    #[error(
        "inflates more than {max_ratio} times its {compressed} compressed bytes (a zip bomb?)"
    )]
    Ratio {
        /// Its compressed size.
        compressed: u64,
        /// The limit.
        max_ratio: u64,
    },
    /// It is bigger than [`crate::DownloadLimits::max_entry_bytes`].
    #[error("bigger than {max} bytes, the most one file may hold")]
    TooBig {
        /// The limit.
        max: u64,
    },
    /// A zip inside a zip inside the download: zips are opened one level deep.
    #[error("a zip inside a zip a student uploaded: zips are opened one level deep, so it is left closed")]
    TooDeep,
    /// A zip a student uploaded that cannot be opened at all.
    #[error("not a zip archive: {message}")]
    NotZip {
        /// The zip reader's words.
        message: String,
    },
    /// A zip a student uploaded with more entries than [`crate::DownloadLimits::max_entries`].
    #[error("{entries} entries, more than the {max} a download may hold")]
    TooManyEntries {
        /// Its entries.
        entries: usize,
        /// The limit.
        max: usize,
    },
    /// It cannot be read or written: a damaged entry, an unsupported compression method, a
    /// name given twice.
    #[error("{message}")]
    Unreadable {
        /// Why.
        message: String,
    },
}

/// Why a roster cannot be read. Every message names the file, and a bad row its line (the
/// line an editor shows).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RosterError {
    /// The file cannot be read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Malformed CSV.
    #[error("{}:{line}: {message}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// No column the roster's students can be told apart by.
    #[error("{}:1: not a class list: no column of ids (ID, Identifier, SID, Student ID, ID number) or emails", path.display())]
    NoIdColumn {
        /// The file.
        path: PathBuf,
    },
}
