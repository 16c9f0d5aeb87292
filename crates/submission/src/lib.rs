//! Finding students' submissions on disk and staging them: the submissions under the paths
//! given, by the rule that names results ([`survey`]), and listing or copying one's files,
//! with the hash a result carries ([`Submission::stage`]): regular files only, links never
//! followed, sizes bounded before anything is read. crib-child stages a submission into its
//! sandbox with it, crib-lint reads one, and crib report finds the source of a result with it.
//!
//! It knows nothing of Prolog, LMS downloads or marks: a [`Submission`] carries the LMS's
//! [`Record`](crib_results::Record) when crib-lms found one, and what it leaves out is
//! crib-results' [`Skipped`](crib_results::Skipped).
//!
//! # Example
//! ```
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("alice.pl"), "hand_value(_, _, 0).\n")?;
//! let found = crib_submission::survey(&[dir.path().to_path_buf()], false)?;
//! assert_eq!(found.submissions[0].name, "alice");
//! let staged = found.submissions[0].listing(crib_submission::MAX_BYTES)?;
//! assert_eq!(staged.load, ["alice.pl"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crib_results::{escape_name, escape_path, fnv1a, fnv1a_from, Record, Skipped, FNV_OFFSET};

/// The default for the most bytes a submission's files may total (crib-grade's `Limits`'s
/// `max_bytes`, `crib grade --max-size`): 8 MiB. A bigger submission is not loaded.
pub const MAX_BYTES: u64 = 8 << 20;
/// The most files and directories copied from one submission.
pub const MAX_ENTRIES: usize = 500;

/// One student's submission: a `.pl` file, or a directory whose `.pl` files load together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// The name shown in reports and used for result files; unique within a run.
    pub name: String,
    /// The file or directory given or found.
    pub path: PathBuf,
    /// What an LMS's download says about it (who, when, late), when it came from one
    /// (`crib grade` reads downloads with crib-lms); kept in its
    /// [`crib_results::SubmissionResult`].
    pub lms: Option<Record>,
}

/// A path given to [`survey`] that cannot be surveyed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SurveyError {
    /// A path given, or a submission found in a directory, cannot be read, or is neither a
    /// regular file nor a directory.
    #[error("cannot read {}", escape_path(path))]
    Path {
        /// The path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// Why a submission cannot be staged or listed ([`Submission::stage`]). The message is what
/// a result's `load_failed` says, lowercase.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StageError {
    /// The submission, or a file or directory in it, cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path, escaped ([`escape_path`]): the submission's, or relative to it.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// A file or directory of the submission cannot be copied.
    #[error("cannot copy {path}: {source}")]
    Copy {
        /// The path, relative to the submission.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// The submission given is a file, but not a regular one (a FIFO, a socket, a device).
    #[error("{path} is {kind}, not a regular file")]
    NotRegular {
        /// The path, escaped.
        path: String,
        /// What it is, with its article: `a FIFO`, `a device`...
        kind: &'static str,
    },
    /// The submission given is neither a regular file nor a directory.
    #[error("{path} is {kind}, not a regular file or a directory")]
    NotFileOrDirectory {
        /// The path, escaped.
        path: String,
        /// What it is, with its article.
        kind: &'static str,
    },
    /// Directories nested more than 8 deep.
    #[error("{path}: directories nested too deep")]
    TooDeep {
        /// The directory, relative to the submission.
        path: String,
    },
    /// More than [`MAX_ENTRIES`] files and directories.
    #[error("more than {MAX_ENTRIES} files")]
    TooManyEntries,
    /// The files total more than the limit.
    #[error(
        "too big: its files total more than {}, the most a submission may hold (at {path}; \
         --max-size raises the limit)",
        bytes_text(*max_bytes)
    )]
    TooBig {
        /// The file at which the limit was passed, relative to the submission.
        path: String,
        /// The limit, bytes.
        max_bytes: u64,
    },
}

/// What [`survey`] found under the paths given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// The submissions, in the order given, each directory's entries sorted by name.
    pub submissions: Vec<Submission>,
    /// Entries of the directories given that could have been submissions but were left
    /// out: symbolic links, and FIFOs, sockets and devices named `*.pl`.
    pub skipped: Vec<Skipped>,
    /// Directories given that hold no submission at all.
    pub empty: Vec<PathBuf>,
}

/// Returns the submissions under `paths`, in the order given, each directory's entries
/// sorted by name; see [`survey`], which also says what it left out.
///
/// # Errors
/// As [`survey`].
pub fn discover(paths: &[PathBuf], single: bool) -> Result<Vec<Submission>, SurveyError> {
    survey(paths, single).map(|found| found.submissions)
}

/// Returns the submissions under `paths` and what was left out.
///
/// A path given is followed if it is a symbolic link (you named it); nothing found inside
/// a directory ever is. A regular file is one submission. A directory holds one submission
/// per regular `.pl` file directly inside it (the extension in any case: `.PL` too) and one
/// per subdirectory (whose `.pl` files are loaded together); with `single`, a directory is
/// itself one submission. Entries whose names start with `.` are passed over, and so are
/// regular files not named `*.pl`; symbolic links, and FIFOs, sockets and devices named
/// `*.pl`, are left out and listed in [`Discovery::skipped`]. Names are file stems or
/// directory names, escaped with [`escape_name`] and made unique with `~2`, `~3`...
///
/// # Errors
/// [`SurveyError::Path`] if a path does not exist, is neither a regular file nor a
/// directory, or cannot be read, or a submission found in a directory cannot be read.
pub fn survey(paths: &[PathBuf], single: bool) -> Result<Discovery, SurveyError> {
    let mut found = Vec::new();
    let mut discovery = Discovery::default();
    let error = |path: &Path, source: io::Error| SurveyError::Path {
        path: path.to_path_buf(),
        source,
    };
    for path in paths {
        let meta = fs::metadata(path).map_err(|e| error(path, e))?;
        if !meta.is_file() && !meta.is_dir() {
            let kind = kind_name(meta.file_type());
            return Err(error(
                path,
                io::Error::other(format!("{kind}, not a regular file or a directory")),
            ));
        }
        readable(path, meta.is_dir()).map_err(|e| error(path, e))?;
        if meta.is_file() || single {
            found.push(path.clone());
            continue;
        }
        let entries = fs::read_dir(path).map_err(|e| error(path, e))?;
        let mut inside: Vec<fs::DirEntry> = entries.filter_map(|e| e.ok()).collect();
        inside.sort_by_key(|e| e.file_name());
        let before = found.len();
        for entry in inside {
            let name = entry.file_name();
            if name.as_bytes().starts_with(b".") {
                continue;
            }
            let entry_path = entry.path();
            let kind = entry.file_type().map_err(|e| error(&entry_path, e))?;
            let skip = |why: String| Skipped {
                path: escape_path(&entry_path),
                why,
            };
            if kind.is_symlink() {
                discovery.skipped.push(skip(LINK.into()));
            } else if kind.is_dir() || kind.is_file() && is_prolog(&name) {
                readable(&entry_path, kind.is_dir()).map_err(|e| error(&entry_path, e))?;
                found.push(entry_path);
            } else if is_prolog(&name) {
                discovery
                    .skipped
                    .push(skip(format!("{}, not a regular file", kind_name(kind))));
            }
        }
        if found.len() == before {
            discovery.empty.push(path.clone());
        }
    }
    for path in found {
        let is_dir = fs::metadata(&path).is_ok_and(|m| m.is_dir());
        let base = match (is_dir, path.file_stem(), path.file_name()) {
            (false, Some(stem), _) => escape_name(stem),
            (_, _, Some(name)) => escape_name(name),
            _ => String::new(),
        };
        let base = if base.is_empty() {
            "submission".to_string()
        } else {
            base
        };
        let mut name = base.clone();
        let mut n = 1;
        while discovery.submissions.iter().any(|s| s.name == name) {
            n += 1;
            name = format!("{base}~{n}");
        }
        discovery.submissions.push(Submission {
            name,
            path,
            lms: None,
        });
    }
    Ok(discovery)
}

/// Why a symbolic link is left out.
const LINK: &str = "a symbolic link (links are never followed)";

/// Returns whether `name` ends in `.pl`, in any case.
fn is_prolog(name: &OsStr) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|x| x.as_bytes().eq_ignore_ascii_case(b"pl"))
}

/// Checks that `path` can be opened for reading, without blocking on a FIFO.
fn readable(path: &Path, dir: bool) -> io::Result<()> {
    if dir {
        fs::read_dir(path).map(drop)
    } else {
        open_file(path, true).map(drop)
    }
}

/// Opens `path` for reading without blocking (a FIFO opens at once) and, unless `follow`,
/// without following a symbolic link.
fn open_file(path: &Path, follow: bool) -> io::Result<File> {
    let flags = libc::O_NONBLOCK | if follow { 0 } else { libc::O_NOFOLLOW };
    OpenOptions::new().read(true).custom_flags(flags).open(path)
}

/// Returns what kind of file `kind` is, with its article: `a FIFO`, `a socket`...
fn kind_name(kind: fs::FileType) -> &'static str {
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "an unknown kind of file"
    }
}

/// A submission copied into a directory of its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Staged {
    /// The files to load, relative to the copy, sorted.
    pub load: Vec<String>,
    /// Every file copied, relative to the copy.
    pub files: Vec<String>,
    /// A hash of the names and contents copied: a changed submission is graded again.
    pub hash: String,
    /// Symbolic links and special files that were not copied.
    pub skipped: Vec<Skipped>,
}

impl Staged {
    /// Returns the Prolog files copied (`.pl` in any case), nested ones included, in the
    /// order of [`Staged::files`].
    pub fn prolog_files(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .map(String::as_str)
            .filter(|f| is_prolog(OsStr::new(f)))
    }
}

impl Submission {
    /// Copies the submission into `into` (an existing, empty directory) and returns what was
    /// copied. A directory is copied with its subdirectories; only regular files and
    /// directories are copied: symbolic links inside it are never followed (the path given
    /// may be one) and FIFOs, sockets and devices are never opened for long, so a
    /// submission can neither smuggle in a host file nor hang the grader. Sizes are checked
    /// from each file's metadata before it is read, and reads stop at the limit. Names are
    /// written with [`escape_name`].
    ///
    /// # Errors
    /// [`StageError`] if the submission cannot be read, is neither a regular file nor a
    /// directory, its files total more than `max_bytes`, or it holds more than
    /// [`MAX_ENTRIES`] entries; the submission then fails to load.
    pub fn stage(&self, into: &Path, max_bytes: u64) -> Result<Staged, StageError> {
        self.walk(Some(into), max_bytes)
    }

    /// Returns what [`Submission::stage`] would copy (the files, those loaded, the hash),
    /// reading the files without copying them.
    ///
    /// # Errors
    /// As [`Submission::stage`].
    pub fn listing(&self, max_bytes: u64) -> Result<Staged, StageError> {
        self.walk(None, max_bytes)
    }

    fn walk(&self, into: Option<&Path>, max_bytes: u64) -> Result<Staged, StageError> {
        let mut staged = Staged::default();
        let mut budget = Budget {
            bytes: 0,
            max_bytes,
            entries: 0,
            hash: FNV_OFFSET,
        };
        let shown = escape_path(&self.path);
        let meta = fs::metadata(&self.path).map_err(|source| StageError::Read {
            path: shown.clone(),
            source,
        })?;
        if meta.is_dir() {
            copy_dir(&self.path, into, "", &mut staged, &mut budget, 0)?;
            staged.load = staged
                .files
                .iter()
                .filter(|f| !f.contains('/') && is_prolog(OsStr::new(f)))
                .cloned()
                .collect();
        } else if meta.is_file() {
            let name = self.path.file_name().map(escape_name).unwrap_or_default();
            let name = if is_prolog(OsStr::new(&name)) {
                name
            } else {
                format!("{name}.pl")
            };
            let to = into.map(|d| d.join(&name));
            match copy_file(&self.path, to, &name, &name, &mut budget, true)? {
                Copied::Yes => staged.files.push(name.clone()),
                Copied::No(kind) => {
                    return Err(StageError::NotRegular { path: shown, kind });
                }
            }
            staged.load = vec![name];
        } else {
            let kind = kind_name(meta.file_type());
            return Err(StageError::NotFileOrDirectory { path: shown, kind });
        }
        staged.load.sort();
        staged.hash = format!("{:016x}", budget.hash);
        Ok(staged)
    }
}

struct Budget {
    bytes: u64,
    max_bytes: u64,
    entries: usize,
    hash: u64,
}

impl Budget {
    /// The error for a submission over the size limit, found at `rel`.
    fn too_big(&self, rel: &str) -> StageError {
        StageError::TooBig {
            path: rel.to_string(),
            max_bytes: self.max_bytes,
        }
    }
}

/// Returns `bytes` as `8 MiB` when a whole number of MiB, else `1234 bytes`.
pub(crate) fn bytes_text(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

fn copy_dir(
    from: &Path,
    into: Option<&Path>,
    rel: &str,
    staged: &mut Staged,
    budget: &mut Budget,
    depth: usize,
) -> Result<(), StageError> {
    if depth > 8 {
        return Err(StageError::TooDeep {
            path: rel.to_string(),
        });
    }
    let entries = fs::read_dir(from).map_err(|source| StageError::Read {
        path: escape_path(from),
        source,
    })?;
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = escape_name(&entry.file_name());
        let rel_name = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        budget.entries += 1;
        if budget.entries > MAX_ENTRIES {
            return Err(StageError::TooManyEntries);
        }
        let kind = entry.file_type().map_err(|source| StageError::Read {
            path: rel_name.clone(),
            source,
        })?;
        let skip = |why: String| Skipped {
            path: rel_name.clone(),
            why,
        };
        if kind.is_dir() {
            let sub = into.map(|d| d.join(&name));
            if let Some(sub) = &sub {
                fs::create_dir(sub).map_err(|source| StageError::Copy {
                    path: rel_name.clone(),
                    source,
                })?;
            }
            copy_dir(
                &entry.path(),
                sub.as_deref(),
                &rel_name,
                staged,
                budget,
                depth + 1,
            )?;
        } else if kind.is_file() {
            let to = into.map(|d| d.join(&name));
            match copy_file(&entry.path(), to, &name, &rel_name, budget, false)? {
                Copied::Yes => staged.files.push(rel_name),
                Copied::No(kind) => staged
                    .skipped
                    .push(skip(format!("{kind}, not a regular file"))),
            }
        } else if kind.is_symlink() {
            staged.skipped.push(skip(LINK.into()));
        } else {
            staged
                .skipped
                .push(skip(format!("{}, not a regular file", kind_name(kind))));
        }
    }
    Ok(())
}

/// Whether [`copy_file`] copied the file, or found it was not a regular file (of this kind).
enum Copied {
    Yes,
    No(&'static str),
}

/// Copies the regular file `from` to `to` (or only reads it, when `to` is `None`), adding
/// `name` and its contents to the hash; `rel` names it in errors. The file is opened
/// without blocking and, unless `follow`, without following a link; its size is checked
/// from its metadata before it is read, and the read stops past the limit.
fn copy_file(
    from: &Path,
    to: Option<PathBuf>,
    name: &str,
    rel: &str,
    budget: &mut Budget,
    follow: bool,
) -> Result<Copied, StageError> {
    let read = |source| StageError::Read {
        path: rel.to_string(),
        source,
    };
    let copy = |source| StageError::Copy {
        path: rel.to_string(),
        source,
    };
    let mut file = match open_file(from, follow) {
        Ok(file) => file,
        // O_NOFOLLOW: it became a link since it was listed.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Ok(Copied::No("a symbolic link"))
        }
        Err(source) => return Err(read(source)),
    };
    let meta = file.metadata().map_err(read)?;
    if !meta.is_file() {
        return Ok(Copied::No(kind_name(meta.file_type())));
    }
    let room = budget.max_bytes.saturating_sub(budget.bytes);
    if meta.len() > room {
        return Err(budget.too_big(rel));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    (&mut file)
        .take(room + 1)
        .read_to_end(&mut bytes)
        .map_err(read)?;
    if bytes.len() as u64 > room {
        return Err(budget.too_big(rel));
    }
    budget.bytes += bytes.len() as u64;
    budget.hash = fnv1a_more(budget.hash, name.as_bytes());
    budget.hash = fnv1a_more(budget.hash, &bytes);
    if let Some(to) = to {
        let mut out = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&to)
            .map_err(copy)?;
        out.write_all(&bytes).map_err(copy)?;
    }
    Ok(Copied::Yes)
}

/// Feeds `bytes` to the hash, then mixes in their length, so that moving bytes from a name
/// to its contents changes the hash.
fn fnv1a_more(seed: u64, bytes: &[u8]) -> u64 {
    fnv1a_from(seed, bytes) ^ fnv1a(&(bytes.len() as u64).to_le_bytes())
}

#[cfg(test)]
mod tests;
