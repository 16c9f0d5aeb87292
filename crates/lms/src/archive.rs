//! Safe extraction: a zip (or a folder) copied into a directory of the caller's, entry by
//! entry, with nothing written outside it, no links, and limits on sizes, entry count and
//! compression ratio.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::error::{EntryError, EntryProblem, LmsError};

/// Limits on what a download may hold. Every zip in it, the download and those students
/// uploaded, counts towards the same total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DownloadLimits {
    /// The most entries one archive may hold (default 50,000).
    pub max_entries: usize,
    /// The most bytes all the files extracted may total (default 2 GiB).
    pub max_bytes: u64,
    /// The most bytes one file may hold (default 256 MiB).
    pub max_entry_bytes: u64,
    /// The most an entry may inflate, as a multiple of its compressed size (default 200:
    /// source code compresses about 5 times, a zip bomb thousands of times).
    pub max_ratio: u64,
    /// Entries that inflate to at most this many bytes are not held to
    /// [`DownloadLimits::max_ratio`] (default 1 MiB: a small file of blanks may compress well).
    pub ratio_floor: u64,
}

impl Default for DownloadLimits {
    fn default() -> DownloadLimits {
        DownloadLimits {
            max_entries: 50_000,
            max_bytes: 2 << 30,
            max_entry_bytes: 256 << 20,
            max_ratio: 200,
            ratio_floor: 1 << 20,
        }
    }
}

/// The bytes extracted so far, against [`DownloadLimits::max_bytes`].
#[derive(Debug, Default)]
pub(crate) struct Budget {
    pub(crate) bytes: u64,
}

/// What [`extract_zip`] or [`copy_tree`] wrote.
#[derive(Debug, Default)]
pub(crate) struct Extracted {
    /// The files written, as the archive names them (relative, `/`-separated), in archive
    /// order.
    pub(crate) files: Vec<String>,
    /// The entries left out, and why.
    pub(crate) problems: Vec<EntryError>,
}

/// Returns whether the file at `path` starts as a zip archive does.
pub(crate) fn is_zip(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && (magic == *b"PK\x03\x04" || magic == *b"PK\x05\x06")
}

/// Where each entry goes: the path a file (or directory) named `rel` in the archive
/// (relative, `/`-separated, already checked safe) is written to, or `None` to leave it.
pub(crate) type Destination<'a> = &'a dyn Fn(&str) -> Option<PathBuf>;

/// Extracts the zip at `path` (called `shown` in messages), entry by entry, each where
/// `place` says (directories are created as needed). An entry that is unsafe (`..`, an absolute path, a link),
/// too big, inflates too much or cannot be read is left out and listed; the others are
/// extracted. Files are created new, owner-only, never through a link.
///
/// # Errors
/// [`LmsError::NotZip`] if `path` is not a zip; [`LmsError::TooManyEntries`] if it holds
/// more than [`DownloadLimits::max_entries`]; [`LmsError::TooBig`] once the files extracted (with
/// `budget`'s) total more than [`DownloadLimits::max_bytes`]; [`LmsError::Io`] if it cannot be read.
pub(crate) fn extract_zip(
    path: &Path,
    shown: &str,
    place: Destination<'_>,
    limits: &DownloadLimits,
    budget: &mut Budget,
) -> Result<Extracted, LmsError> {
    let mut zip = open_zip(path, shown, limits)?;
    let mut out = Extracted::default();
    for i in 0..zip.len() {
        let listed = zip
            .name_for_index(i)
            .and_then(Result::ok)
            .map_or_else(|| format!("entry {}", i + 1), |n| n.to_string());
        let mut entry = match zip.by_index(i) {
            Ok(entry) => entry,
            Err(e) => {
                out.problems
                    .push(EntryError::new(shown, &listed, unreadable(e)));
                continue;
            }
        };
        let name = match entry.name() {
            Ok(name) => name.to_string(),
            Err(e) => {
                let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
                out.problems
                    .push(EntryError::new(shown, &name, unreadable(e)));
                continue;
            }
        };
        let rel = match safe_path(&name) {
            Ok(Some(rel)) => rel,
            Ok(None) => continue,
            Err(p) => {
                out.problems.push(EntryError::new(shown, &name, p));
                continue;
            }
        };
        if entry
            .unix_mode()
            .is_some_and(|mode| mode & 0o170000 == 0o120000)
        {
            let what = "a symbolic link".to_string();
            out.problems
                .push(EntryError::new(shown, &name, EntryProblem::Link { what }));
            continue;
        }
        let Some(to) = place(&rel) else { continue };
        if entry.is_dir() {
            if let Err(e) = fs::create_dir_all(&to) {
                out.problems
                    .push(EntryError::new(shown, &name, unreadable(e)));
            }
            continue;
        }
        let compressed = entry.compressed_size();
        match write_entry(&mut entry, &to, compressed, limits, budget) {
            Ok(()) => out.files.push(rel),
            Err(Written::Problem(p)) => out.problems.push(EntryError::new(shown, &name, p)),
            Err(Written::OverBudget) => {
                return Err(LmsError::TooBig {
                    archive: shown.to_string(),
                    entry: name,
                    max: limits.max_bytes,
                })
            }
        }
    }
    Ok(out)
}

/// Why [`write_entry`] wrote nothing.
enum Written {
    Problem(EntryProblem),
    OverBudget,
}

/// Writes `from` to the new file `to`, stopping (and removing it) as soon as it is over a
/// limit: its size, the ratio to `compressed`, or the budget.
fn write_entry(
    from: &mut impl Read,
    to: &Path,
    compressed: u64,
    limits: &DownloadLimits,
    budget: &mut Budget,
) -> Result<(), Written> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(|e| Written::Problem(unreadable(e)))?;
    }
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(to)
        .map_err(|e| {
            Written::Problem(if e.kind() == io::ErrorKind::AlreadyExists {
                EntryProblem::Unreadable {
                    message: "a second entry of the same name (the first is kept)".into(),
                }
            } else {
                unreadable(e)
            })
        })?;
    let mut buf = vec![0u8; 64 << 10];
    let mut written: u64 = 0;
    let result = loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => break Err(Written::Problem(unreadable(e))),
        };
        written += n as u64;
        if written > limits.max_entry_bytes {
            break Err(Written::Problem(EntryProblem::TooBig {
                max: limits.max_entry_bytes,
            }));
        }
        if written > limits.ratio_floor && written > compressed.saturating_mul(limits.max_ratio) {
            break Err(Written::Problem(EntryProblem::Ratio {
                compressed,
                max_ratio: limits.max_ratio,
            }));
        }
        if budget.bytes + written > limits.max_bytes {
            break Err(Written::OverBudget);
        }
        if let Err(e) = file.write_all(&buf[..n]) {
            break Err(Written::Problem(unreadable(e)));
        }
    };
    match result {
        Ok(()) => {
            budget.bytes += written;
            Ok(())
        }
        Err(e) => {
            drop(file);
            let _ = fs::remove_file(to);
            Err(e)
        }
    }
}

/// Copies the regular files under the folder `from` (called `shown` in messages) where
/// `place` says, as [`extract_zip`] extracts a zip: symbolic links and special files are
/// left out and listed, never followed or opened; the same limits hold. `dest` is passed
/// over when it is inside `from`.
///
/// # Errors
/// As [`extract_zip`]; [`LmsError::Io`] if a directory cannot be read.
pub(crate) fn copy_tree(
    from: &Path,
    shown: &str,
    dest: &Path,
    place: Destination<'_>,
    limits: &DownloadLimits,
    budget: &mut Budget,
) -> Result<Extracted, LmsError> {
    use std::os::unix::fs::MetadataExt;
    let mut out = Extracted::default();
    // The destination may be inside the folder: it is not read.
    let dest_id = fs::metadata(dest).map(|m| (m.dev(), m.ino())).ok();
    let mut stack: Vec<(PathBuf, String)> = vec![(from.to_path_buf(), String::new())];
    let mut entries = 0usize;
    while let Some((dir, rel)) = stack.pop() {
        let read = fs::read_dir(&dir).map_err(LmsError::io("read", &dir))?;
        let mut inside: Vec<fs::DirEntry> = read.filter_map(Result::ok).collect();
        inside.sort_by_key(|e| e.file_name());
        for entry in inside.into_iter().rev() {
            entries += 1;
            if entries > limits.max_entries {
                return Err(LmsError::TooManyEntries {
                    archive: shown.to_string(),
                    entries,
                    max: limits.max_entries,
                });
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel_name = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let kind = match entry.file_type() {
                Ok(kind) => kind,
                Err(e) => {
                    out.problems
                        .push(EntryError::new(shown, &rel_name, unreadable(e)));
                    continue;
                }
            };
            if kind.is_dir() {
                let id = entry.metadata().map(|m| (m.dev(), m.ino())).ok();
                if id.is_none() || id != dest_id {
                    stack.push((entry.path(), rel_name));
                }
            } else if kind.is_file() {
                let Some(to) = place(&rel_name) else { continue };
                match link_or_copy(&entry.path(), &to, limits, budget) {
                    Ok(()) => out.files.push(rel_name),
                    Err(Written::Problem(p)) => {
                        out.problems.push(EntryError::new(shown, &rel_name, p))
                    }
                    Err(Written::OverBudget) => {
                        return Err(LmsError::TooBig {
                            archive: shown.to_string(),
                            entry: rel_name,
                            max: limits.max_bytes,
                        })
                    }
                }
            } else {
                let what = if kind.is_symlink() {
                    "a symbolic link"
                } else if kind.is_fifo() {
                    "a FIFO"
                } else if kind.is_socket() {
                    "a socket"
                } else {
                    "a device"
                };
                let what = what.to_string();
                out.problems.push(EntryError::new(
                    shown,
                    &rel_name,
                    EntryProblem::Link { what },
                ));
            }
        }
    }
    out.files.sort();
    Ok(out)
}

/// Puts the regular file `from` at `to`: a hard link when the file system allows (no byte
/// copied), else a copy. Neither follows a link: a file swapped for a link since it was
/// listed is refused. Sizes are held to the limits as [`write_entry`] holds them.
fn link_or_copy(
    from: &Path,
    to: &Path,
    limits: &DownloadLimits,
    budget: &mut Budget,
) -> Result<(), Written> {
    use std::os::unix::fs::MetadataExt;
    let changed = || {
        Written::Problem(EntryProblem::Link {
            what: "a file replaced by something else while it was read".into(),
        })
    };
    let listed = fs::symlink_metadata(from).map_err(|e| Written::Problem(unreadable(e)))?;
    if !listed.is_file() {
        return Err(changed());
    }
    if listed.len() > limits.max_entry_bytes {
        return Err(Written::Problem(EntryProblem::TooBig {
            max: limits.max_entry_bytes,
        }));
    }
    if budget.bytes + listed.len() > limits.max_bytes {
        return Err(Written::OverBudget);
    }
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(|e| Written::Problem(unreadable(e)))?;
    }
    // link(2) does not follow a link at `from`: what is linked is checked to be the file
    // listed.
    if fs::hard_link(from, to).is_ok() {
        let linked = fs::symlink_metadata(to);
        let same =
            linked.is_ok_and(|m| m.is_file() && m.ino() == listed.ino() && m.dev() == listed.dev());
        if !same {
            let _ = fs::remove_file(to);
            return Err(changed());
        }
        budget.bytes += listed.len();
        return Ok(());
    }
    // O_NOFOLLOW: never through a link; O_NONBLOCK: a FIFO swapped in does not hang.
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(from)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                changed()
            } else {
                Written::Problem(unreadable(e))
            }
        })?;
    let opened = file
        .metadata()
        .map_err(|e| Written::Problem(unreadable(e)))?;
    if !opened.is_file() {
        return Err(changed());
    }
    // Not compressed: the ratio limit does not apply.
    write_entry(&mut file, to, opened.len().max(1), limits, budget)
}

/// Opens the zip at `path` (`shown` as the user knows it) and checks its entry count.
fn open_zip(
    path: &Path,
    shown: &str,
    limits: &DownloadLimits,
) -> Result<zip::ZipArchive<BufReader<File>>, LmsError> {
    let file = File::open(path).map_err(LmsError::io("read", path))?;
    let zip = zip::ZipArchive::new(BufReader::new(file)).map_err(|e| LmsError::NotZip {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    if zip.len() > limits.max_entries {
        return Err(LmsError::TooManyEntries {
            archive: shown.to_string(),
            entries: zip.len(),
            max: limits.max_entries,
        });
    }
    Ok(zip)
}

/// Returns the files of the zip at `path` as [`extract_zip`] names them (relative,
/// `/`-separated, safe; unsafe names are left for extraction to report), in archive order.
///
/// # Errors
/// As [`extract_zip`], but for [`LmsError::TooBig`].
pub(crate) fn zip_names(
    path: &Path,
    shown: &str,
    limits: &DownloadLimits,
) -> Result<Vec<String>, LmsError> {
    let zip = open_zip(path, shown, limits)?;
    Ok(zip
        .file_names()
        .filter_map(Result::ok)
        .filter(|n| !n.ends_with('/') && !n.ends_with('\\'))
        .filter_map(|n| safe_path(&n).ok().flatten())
        .collect())
}

/// Returns the regular files under the folder `from` as [`copy_tree`] names them, sorted;
/// `dest` is passed over when it is inside `from`, and links are not followed.
///
/// # Errors
/// [`LmsError::Io`] if a directory cannot be read; [`LmsError::TooManyEntries`] past
/// [`DownloadLimits::max_entries`].
pub(crate) fn tree_names(
    from: &Path,
    shown: &str,
    dest: &Path,
    limits: &DownloadLimits,
) -> Result<Vec<String>, LmsError> {
    let names = std::cell::RefCell::new(Vec::new());
    let place = |rel: &str| {
        names.borrow_mut().push(rel.to_string());
        None
    };
    copy_tree(from, shown, dest, &place, limits, &mut Budget::default())?;
    let mut names = names.into_inner();
    names.sort();
    Ok(names)
}

/// Returns the path an entry named `name` is extracted to, relative and `/`-separated
/// (`None` for the archive's root itself), or why it may not be.
fn safe_path(name: &str) -> Result<Option<String>, EntryProblem> {
    if name.contains('\0') {
        return Err(EntryProblem::Unreadable {
            message: "a NUL byte in its name".into(),
        });
    }
    let name = name.replace('\\', "/");
    let bytes = name.as_bytes();
    if name.starts_with('/')
        || bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic()
    {
        return Err(EntryProblem::Absolute);
    }
    let mut parts = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(EntryProblem::Escapes),
            part => parts.push(part),
        }
    }
    Ok((!parts.is_empty()).then(|| parts.join("/")))
}

fn unreadable(e: impl std::fmt::Display) -> EntryProblem {
    EntryProblem::Unreadable {
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests;
