//! Finding submissions under the paths given, and copying one into its sandbox.

use std::fs;
use std::path::{Path, PathBuf};

use crate::hash::{fnv1a, fnv1a_from, FNV_OFFSET};
use crate::GradeError;

/// The most bytes copied from one submission; a bigger one is not loaded.
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
}

/// Returns the submissions under `paths`, in the order given, each directory's entries
/// sorted by name.
///
/// A file is one submission. A directory holds one submission per `.pl` file directly
/// inside it and one per subdirectory (whose `.pl` files are loaded together); with
/// `single`, a directory is itself one submission. Entries whose names start with `.` are
/// skipped. Names are file stems or directory names, made unique with `~2`, `~3`...
///
/// # Errors
/// [`GradeError::Path`] if a path does not exist or a directory cannot be read.
pub fn discover(paths: &[PathBuf], single: bool) -> Result<Vec<Submission>, GradeError> {
    let mut found = Vec::new();
    for path in paths {
        let meta = fs::metadata(path).map_err(|source| GradeError::Path {
            path: path.clone(),
            source,
        })?;
        if meta.is_file() || single {
            found.push(path.clone());
            continue;
        }
        let entries = fs::read_dir(path).map_err(|source| GradeError::Path {
            path: path.clone(),
            source,
        })?;
        let mut inside: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                let visible = !file_name(p).starts_with('.');
                visible && (p.is_dir() || p.extension().is_some_and(|x| x == "pl"))
            })
            .collect();
        inside.sort();
        found.extend(inside);
    }
    let mut subs: Vec<Submission> = Vec::new();
    for path in found {
        let base = if path.is_dir() {
            file_name(&path)
        } else {
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| file_name(&path))
        };
        let base = if base.is_empty() {
            "submission".to_string()
        } else {
            base
        };
        let mut name = base.clone();
        let mut n = 1;
        while subs.iter().any(|s| s.name == name) {
            n += 1;
            name = format!("{base}~{n}");
        }
        subs.push(Submission { name, path });
    }
    Ok(subs)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A submission copied into a directory of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staged {
    /// The files to load, relative to the copy, sorted.
    pub load: Vec<String>,
    /// Every file copied, relative to the copy.
    pub files: Vec<String>,
    /// A hash of the names and contents copied: a changed submission is graded again.
    pub hash: String,
    /// Symbolic links and special files that were not copied.
    pub skipped: Vec<String>,
}

impl Submission {
    /// Copies the submission into `into` (an existing, empty directory) and returns what was
    /// copied. A directory is copied with its subdirectories; symbolic links inside it are
    /// never followed (the path given may be one), so a submission cannot smuggle in a host
    /// file.
    ///
    /// # Errors
    /// A message, lowercase, if the submission cannot be read or is bigger than
    /// [`MAX_BYTES`] or [`MAX_ENTRIES`]; the submission then fails to load.
    pub fn stage(&self, into: &Path) -> Result<Staged, String> {
        let mut staged = Staged {
            load: Vec::new(),
            files: Vec::new(),
            hash: String::new(),
            skipped: Vec::new(),
        };
        let mut budget = Budget {
            bytes: 0,
            entries: 0,
            hash: FNV_OFFSET,
        };
        let meta = fs::metadata(&self.path)
            .map_err(|e| format!("cannot read {}: {e}", self.path.display()))?;
        if meta.is_dir() {
            copy_dir(&self.path, into, "", &mut staged, &mut budget, 0)?;
            staged.load = staged
                .files
                .iter()
                .filter(|f| !f.contains('/') && f.ends_with(".pl"))
                .cloned()
                .collect();
        } else {
            let name = file_name(&self.path);
            let name = if name.ends_with(".pl") {
                name
            } else {
                format!("{name}.pl")
            };
            copy_file(&self.path, into, &name, &mut staged, &mut budget)?;
            staged.load = vec![name];
        }
        staged.load.sort();
        staged.hash = format!("{:016x}", budget.hash);
        Ok(staged)
    }
}

impl Submission {
    /// Returns the hash [`Submission::stage`] would record, by staging into a throwaway
    /// directory.
    ///
    /// # Errors
    /// As [`Submission::stage`].
    pub fn content_hash(&self) -> Result<String, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("cannot create a directory: {e}"))?;
        self.stage(dir.path()).map(|staged| staged.hash)
    }
}

struct Budget {
    bytes: u64,
    entries: usize,
    hash: u64,
}

fn copy_dir(
    from: &Path,
    into: &Path,
    rel: &str,
    staged: &mut Staged,
    budget: &mut Budget,
    depth: usize,
) -> Result<(), String> {
    if depth > 8 {
        return Err(format!("{rel}: directories nested too deep"));
    }
    let entries = fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel_name = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        budget.entries += 1;
        if budget.entries > MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} files"));
        }
        let kind = entry
            .file_type()
            .map_err(|e| format!("cannot read {rel_name}: {e}"))?;
        if kind.is_dir() {
            let sub = into.join(&name);
            fs::create_dir(&sub).map_err(|e| format!("cannot copy {rel_name}: {e}"))?;
            copy_dir(&entry.path(), &sub, &rel_name, staged, budget, depth + 1)?;
        } else if kind.is_file() {
            copy_file(&entry.path(), into, &name, staged, budget)?;
            let last = staged.files.len() - 1;
            staged.files[last] = rel_name;
        } else {
            staged.skipped.push(rel_name);
        }
    }
    Ok(())
}

fn copy_file(
    from: &Path,
    into: &Path,
    name: &str,
    staged: &mut Staged,
    budget: &mut Budget,
) -> Result<(), String> {
    let bytes = fs::read(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    budget.bytes += bytes.len() as u64;
    if budget.bytes > MAX_BYTES {
        return Err(format!("bigger than {} MiB", MAX_BYTES >> 20));
    }
    budget.hash = fnv1a_more(budget.hash, name.as_bytes());
    budget.hash = fnv1a_more(budget.hash, &bytes);
    let to = into.join(name);
    fs::write(&to, &bytes).map_err(|e| format!("cannot copy {name}: {e}"))?;
    staged.files.push(name.to_string());
    Ok(())
}

/// Feeds `bytes` to the hash, then mixes in their length, so that moving bytes from a name
/// to its contents changes the hash.
fn fnv1a_more(seed: u64, bytes: &[u8]) -> u64 {
    fnv1a_from(seed, bytes) ^ fnv1a(&(bytes.len() as u64).to_le_bytes())
}

#[cfg(test)]
mod tests;
