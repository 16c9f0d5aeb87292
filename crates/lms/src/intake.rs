//! Reading a download: extraction, the layout, one submission per student, attempts.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::archive::{
    copy_tree, extract_zip, is_zip, tree_names, zip_names, Budget, Destination, DownloadLimits,
};
use crate::error::{EntryError, EntryProblem, LmsError};
use crate::gradescope::{read_metadata, METADATA};
use crate::names::{canvas_name, canvas_original, moodle_name, slug, CanvasName};
use crate::time::parse_time;
use crib_results::{Layout, Record, Student};

/// A download read: its submissions, each in a directory of its own, and what was left out.
#[derive(Debug, Clone, Serialize)]
pub struct Download {
    /// The layout, recognised or as told.
    pub layout: Layout,
    /// The file or folder read.
    pub source: PathBuf,
    /// One submission per student (per group, for a group submission), the latest attempt,
    /// sorted by name. Empty for [`Layout::Plain`], whose submissions are found in
    /// [`Download::root`] as crib finds them in any directory.
    pub submissions: Vec<DownloadedSubmission>,
    /// Earlier attempts of students who have a later one in the download.
    pub set_aside: Vec<SetAside>,
    /// Entries left out because they were unsafe, too big or unreadable.
    pub problems: Vec<EntryError>,
    /// Entries of the download that belong to no submission (not named as the layout names
    /// submissions), past a folder wrapping everything; they are not extracted.
    pub ignored: Vec<String>,
    /// Students on the roster with no submission ([`crate::Roster::apply`]).
    pub missing: Vec<Student>,
    /// Where the submissions are, inside the destination: for [`Layout::Plain`], the
    /// extracted download's top directory; else the directory holding one directory per
    /// submission.
    #[serde(skip)]
    pub root: PathBuf,
}

/// One submission of a download.
#[derive(Debug, Clone, Serialize)]
pub struct DownloadedSubmission {
    /// A name for it, unique in the download and safe as a file name: the student's name
    /// and id as a slug (`smithjane-123456`).
    pub name: String,
    /// Its directory: its files, with the names they were uploaded as, and the contents of
    /// the zips it held.
    #[serde(skip)]
    pub dir: PathBuf,
    /// What the download says about it.
    pub record: Record,
}

/// An earlier attempt, not graded.
#[derive(Debug, Clone, Serialize)]
pub struct SetAside {
    /// The attempt.
    pub record: Record,
    /// The name of the submission kept instead.
    pub kept: String,
}

/// One attempt before grouping: its key (the student), its record and its files, as
/// (path in the download past a wrapping folder, name in the submission).
struct Attempt {
    key: String,
    name: String,
    record: Record,
    files: Vec<(String, String)>,
}

/// Reads the download at `source` (a zip, or a folder) into `dest`, an existing empty
/// directory the caller keeps private and removes: the layout as given or recognised, one
/// directory per submission, the latest attempt of each student, and what was left out.
/// Only the files of the submissions kept are extracted (each once, straight to its
/// place); attempts set aside and entries ignored are not.
///
/// The layout is recognised from the names at the download's top (past a single folder
/// wrapping everything): Gradescope's has `submission_metadata.yml`; Canvas's files and
/// Moodle's folders or files are named as [`canvas_name`] and
/// [`moodle_name`] read, and the layout that names most of them wins; else it is
/// [`Layout::Plain`]. Files named `.*` and `__MACOSX/` are passed over. A student's
/// files are one submission; of several attempts (submission ids) of one student the
/// latest is kept (by submission time where the download gives it, else the higher
/// submission id) and the others are [`Download::set_aside`]. Canvas names each file by
/// its own attachment id, so a Canvas student's files are one submission, and only two
/// files under one name are attempts (the higher attachment id kept). Canvas's rename of a
/// re-uploaded file (`cribbage-1.pl`) is undone when no other file of the submission has
/// the name. Zips in a submission are extracted in its place (one level deep: a zip in
/// one of those is left closed), their contents moved up past a single wrapping folder.
///
/// # Errors
/// [`LmsError::Io`] if `source` or `dest` cannot be read or written, and the errors of
/// extraction that stop the whole download: not a zip, too many entries, too many bytes
/// in all (see [`DownloadLimits`]); [`LmsError::Metadata`] if Gradescope's metadata cannot be
/// read. One bad entry is not an error: it is in [`Download::problems`].
pub fn read(
    source: &Path,
    layout: Option<Layout>,
    dest: &Path,
    limits: &DownloadLimits,
) -> Result<Download, LmsError> {
    let io = LmsError::io;
    let shown = source.display().to_string();
    // The names first: the layout and the submissions come from them, and each entry is
    // then extracted straight to its place, once.
    let (is_dir, names) = list(source, &shown, dest, limits)?;
    let (prefix, files) = past_top(&names);
    let layout = layout.unwrap_or_else(|| detect_names(&files));
    let mut budget = Budget::default();
    let extract = |place: Destination<'_>, budget: &mut Budget| {
        if is_dir {
            copy_tree(source, &shown, dest, place, limits, budget)
        } else {
            extract_zip(source, &shown, place, limits, budget)
        }
    };
    let raw = dest.join("download");
    fs::create_dir(&raw).map_err(io("create", &raw))?;
    let mut ignored = Vec::new();
    let attempts = match layout {
        Layout::Canvas => canvas(&files, &mut ignored),
        Layout::Moodle => moodle(&files, &mut ignored),
        Layout::Gradescope => {
            // The metadata alone first (what this pass finds wrong, the next says again).
            let wanted = format!("{prefix}{METADATA}");
            let to = raw.join(METADATA);
            extract(
                &|rel: &str| (rel == wanted).then(|| to.clone()),
                &mut budget,
            )?;
            let shown_meta = source.join(&prefix).join(METADATA);
            gradescope(&to, &shown_meta, &files, &mut ignored)?
        }
        Layout::Plain => Vec::new(),
    };
    let (kept, set_aside) = latest(attempts);
    let mut submissions = Vec::new();
    let (root, mut problems) = if layout == Layout::Plain {
        // As crib finds submissions in a directory, but without a Mac's __MACOSX/ (whose
        // `._name.pl` files would be graded as a submission).
        let out = extract(
            &|rel: &str| (!hidden(rel)).then(|| raw.join(rel)),
            &mut budget,
        )?;
        (raw.join(prefix.trim_end_matches('/')), out.problems)
    } else {
        let subs = dest.join("submissions");
        fs::create_dir(&subs).map_err(io("create", &subs))?;
        let mut places: HashMap<String, PathBuf> = HashMap::new();
        for attempt in &kept {
            let dir = subs.join(&attempt.name);
            fs::create_dir(&dir).map_err(io("create", &dir))?;
            for (from, to) in &attempt.files {
                places.insert(format!("{prefix}{from}"), dir.join(to));
            }
        }
        let out = extract(&|rel: &str| places.get(rel).cloned(), &mut budget)?;
        (subs, out.problems)
    };
    for attempt in kept {
        let dir = root.join(&attempt.name);
        for (from, to) in &attempt.files {
            if to.to_ascii_lowercase().ends_with(".zip") && dir.join(to).is_file() {
                let zip = dir.join(to);
                open_zip(&zip, (&shown, from), limits, &mut budget, &mut problems)?;
            }
        }
        submissions.push(DownloadedSubmission {
            name: attempt.name,
            dir,
            record: attempt.record,
        });
    }
    Ok(Download {
        layout,
        source: source.to_path_buf(),
        submissions,
        set_aside,
        problems,
        ignored,
        missing: Vec::new(),
        root,
    })
}

/// Returns the layout [`read`] would recognise in the download at `source`, reading only
/// names: a zip's central directory, or a folder's names (links not followed).
///
/// # Errors
/// [`LmsError::Io`] if `source` cannot be read; [`LmsError::NotZip`] if it is a file but
/// not a zip; [`LmsError::TooManyEntries`] for more than [`DownloadLimits::max_entries`]
/// entries, which [`read`] refuses too.
pub fn detect(source: &Path) -> Result<Layout, LmsError> {
    let shown = source.display().to_string();
    let (_, names) = list(source, &shown, source, &DownloadLimits::default())?;
    Ok(detect_names(&past_top(&names).1))
}

/// Returns whether `source` is a folder, and the names of its files as [`read`] extracts
/// them (`dest` passed over).
fn list(
    source: &Path,
    shown: &str,
    dest: &Path,
    limits: &DownloadLimits,
) -> Result<(bool, Vec<String>), LmsError> {
    if fs::metadata(source)
        .map_err(LmsError::io("read", source))?
        .is_dir()
    {
        Ok((true, tree_names(source, shown, dest, limits)?))
    } else if is_zip(source) {
        Ok((false, zip_names(source, shown, limits)?))
    } else {
        Err(LmsError::NotZip {
            path: source.to_path_buf(),
            message: "a download is a zip archive or a folder".into(),
        })
    }
}

/// Returns the prefix of the download's top directory in `names` (empty, or ending in `/`):
/// past folders that wrap everything (a zip of a folder), as long as they are not a
/// submission's own; and the names past it, but for those to pass over ([`hidden`]).
fn past_top(names: &[String]) -> (String, Vec<String>) {
    let mut prefix = String::new();
    loop {
        let files: Vec<String> = names
            .iter()
            .filter_map(|f| f.strip_prefix(&prefix))
            .filter(|f| !hidden(f))
            .map(str::to_string)
            .collect();
        let mut tops = files.iter().map(|f| f.split_once('/').map(|(d, _)| d));
        match tops.next().flatten() {
            Some(first)
                if tops.all(|d| d == Some(first))
                    && moodle_name(first).is_none()
                    && !first.starts_with("submission_") =>
            {
                prefix = format!("{prefix}{first}/");
            }
            _ => return (prefix, files),
        }
    }
}

/// Returns whether a path is one to pass over: a name starting with `.` or `__MACOSX`.
fn hidden(path: &str) -> bool {
    path.split('/')
        .any(|part| part.starts_with('.') || part == "__MACOSX")
}

/// Returns the layout whose names most of the download's top entries have.
fn detect_names(files: &[String]) -> Layout {
    if files.iter().any(|f| f == METADATA) {
        return Layout::Gradescope;
    }
    let mut tops: Vec<&str> = files
        .iter()
        .map(|f| f.split_once('/').map_or(f.as_str(), |(d, _)| d))
        .collect();
    tops.dedup();
    let canvas = tops.iter().filter(|t| canvas_name(t).is_some()).count();
    let moodle = tops.iter().filter(|t| moodle_name(t).is_some()).count();
    let best = canvas.max(moodle);
    if best == 0 || best * 2 < tops.len() {
        Layout::Plain
    } else if moodle >= canvas {
        Layout::Moodle
    } else {
        Layout::Canvas
    }
}

/// Canvas: a flat list of files, `<lastfirst>[_LATE]_<user id>_<attachment id>_<name>`, a
/// student's files one submission ([`read`]) whose `submission_id` is the highest
/// attachment id kept.
fn canvas(files: &[String], ignored: &mut Vec<String>) -> Vec<Attempt> {
    let mut by_user: BTreeMap<String, Vec<(String, CanvasName)>> = BTreeMap::new();
    for file in files {
        let parsed = (!file.contains('/')).then(|| canvas_name(file)).flatten();
        let Some(n) = parsed else {
            ignored.push(file.clone());
            continue;
        };
        by_user
            .entry(n.user_id.clone())
            .or_default()
            .push((file.clone(), n));
    }
    // Attachment ids compare as numbers.
    let id = |n: &CanvasName| (n.submission_id.len(), n.submission_id.clone());
    let attempt = |user: &str, n: &CanvasName| Attempt {
        key: user.to_string(),
        name: format!("{}-{user}", slug(&n.lastfirst)),
        record: Record {
            layout: Layout::Canvas,
            students: vec![Student {
                id: user.to_string(),
                name: Some(n.lastfirst.clone()),
                ..Student::default()
            }],
            submission_id: Some(n.submission_id.clone()),
            submitted_at: None,
            late: Some(false),
            entries: Vec::new(),
        },
        files: Vec::new(),
    };
    let mut attempts: Vec<Attempt> = Vec::new();
    for (user, list) in by_user {
        // Under each name, the highest attachment id; the others set aside.
        let mut best: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, (_, n)) in list.iter().enumerate() {
            let slot = best.entry(n.original.as_str()).or_insert(i);
            if id(n) > id(&list[*slot].1) {
                *slot = i;
            }
        }
        let Some(top) = best.values().map(|&i| &list[i].1).max_by_key(|n| id(n)) else {
            continue;
        };
        let mut kept = attempt(&user, top);
        for (i, (file, n)) in list.iter().enumerate() {
            let target = if best.get(n.original.as_str()) == Some(&i) {
                &mut kept
            } else {
                attempts.push(attempt(&user, n));
                attempts.last_mut().expect("just pushed")
            };
            target.record.late = Some(target.record.late == Some(true) || n.late);
            target.record.entries.push(file.clone());
            target.files.push((file.clone(), n.original.clone()));
        }
        attempts.push(kept);
    }
    for attempt in &mut attempts {
        let names: Vec<String> = attempt.files.iter().map(|(_, to)| to.clone()).collect();
        for (_, to) in &mut attempt.files {
            if let Some(original) = canvas_original(to) {
                let taken = names.contains(&original);
                let twice = names
                    .iter()
                    .filter(|n| canvas_original(n).as_ref() == Some(&original))
                    .count()
                    > 1;
                if !taken && !twice {
                    *to = original;
                }
            }
        }
    }
    attempts
}

/// Moodle: a folder (or flat files) per participant.
fn moodle(files: &[String], ignored: &mut Vec<String>) -> Vec<Attempt> {
    let mut attempts: BTreeMap<String, Attempt> = BTreeMap::new();
    for file in files {
        let (top, inside) = match file.split_once('/') {
            Some((top, inside)) => (top, Some(inside)),
            None => (file.as_str(), None),
        };
        let Some(n) = moodle_name(top) else {
            ignored.push(file.clone());
            continue;
        };
        // Only the file submission plugin's files are code; online text and comments are
        // not graded.
        let to = match (inside, &n.original) {
            (Some(inside), _) if n.plugin == "file" => inside.to_string(),
            (None, Some(original)) if n.plugin == "file" => original.clone(),
            _ => {
                ignored.push(file.clone());
                continue;
            }
        };
        let id = n.participant_id.clone();
        let attempt = attempts.entry(id.clone()).or_insert_with(|| Attempt {
            key: id.clone(),
            name: format!("{}-{id}", slug(n.name.as_deref().unwrap_or("participant"))),
            record: Record {
                layout: Layout::Moodle,
                students: vec![Student {
                    id: id.clone(),
                    name: n.name.clone(),
                    ..Student::default()
                }],
                submission_id: None,
                submitted_at: None,
                late: None,
                entries: Vec::new(),
            },
            files: Vec::new(),
        });
        let entry = if inside.is_some() {
            format!("{top}/")
        } else {
            file.clone()
        };
        if !attempt.record.entries.contains(&entry) {
            attempt.record.entries.push(entry);
        }
        attempt.files.push((file.clone(), to));
    }
    attempts.into_values().collect()
}

/// Gradescope: `submission_metadata.yml` and a folder per submission.
fn gradescope(
    metadata: &Path,
    shown: &Path,
    files: &[String],
    ignored: &mut Vec<String>,
) -> Result<Vec<Attempt>, LmsError> {
    let meta = read_metadata(metadata, shown)?;
    let mut attempts: BTreeMap<String, Attempt> = BTreeMap::new();
    for file in files {
        if file == METADATA {
            continue;
        }
        let Some((top, inside)) = file.split_once('/') else {
            ignored.push(file.clone());
            continue;
        };
        let Some(id) = top.strip_prefix("submission_") else {
            ignored.push(file.clone());
            continue;
        };
        let attempt = attempts.entry(top.to_string()).or_insert_with(|| {
            let m = meta.get(top);
            let students: Vec<Student> = m
                .map(|m| m.submitters.iter().map(|s| s.student()).collect())
                .unwrap_or_default();
            // A group is one submitter: the members, sorted.
            let mut key: Vec<&str> = students.iter().map(|s| s.id.as_str()).collect();
            key.sort_unstable();
            let key = if key.is_empty() {
                top.to_string()
            } else {
                key.join("+")
            };
            let who = students
                .first()
                .map(|s| {
                    format!(
                        "{}-{}",
                        slug(s.name.as_deref().unwrap_or("student")),
                        slug(&s.id)
                    )
                })
                .unwrap_or_else(|| top.to_string());
            Attempt {
                key,
                name: who,
                record: Record {
                    layout: Layout::Gradescope,
                    students,
                    submission_id: Some(id.to_string()),
                    submitted_at: m.and_then(|m| m.created_at.as_deref()).and_then(parse_time),
                    late: None,
                    entries: vec![format!("{top}/")],
                },
                files: Vec::new(),
            }
        });
        attempt.files.push((file.clone(), inside.to_string()));
    }
    Ok(attempts.into_values().collect())
}

/// Returns each student's latest attempt, their names made unique, and the others set
/// aside (with the name of the one kept).
fn latest(attempts: Vec<Attempt>) -> (Vec<Attempt>, Vec<SetAside>) {
    let mut by_student: BTreeMap<String, Vec<Attempt>> = BTreeMap::new();
    for attempt in attempts {
        by_student
            .entry(attempt.key.clone())
            .or_default()
            .push(attempt);
    }
    let mut kept = Vec::new();
    let mut earlier: Vec<(String, Record)> = Vec::new();
    for (key, mut tries) in by_student {
        // Latest last: by time (an attempt without one counts as earliest), then by
        // submission id, as a number.
        tries.sort_by(|a, b| {
            let id = |t: &Attempt| {
                let id = t.record.submission_id.clone().unwrap_or_default();
                (id.len(), id)
            };
            a.record
                .submitted_at
                .cmp(&b.record.submitted_at)
                .then_with(|| id(a).cmp(&id(b)))
        });
        let Some(last) = tries.pop() else { continue };
        earlier.extend(tries.into_iter().map(|t| (key.clone(), t.record)));
        kept.push(last);
    }
    kept.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.key.cmp(&b.key)));
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for attempt in &mut kept {
        let n = seen.entry(attempt.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            attempt.name = format!("{}~{n}", attempt.name);
        }
    }
    let set_aside = earlier
        .into_iter()
        .map(|(key, record)| SetAside {
            record,
            kept: kept
                .iter()
                .find(|k| k.key == key)
                .map(|k| k.name.clone())
                .unwrap_or_default(),
        })
        .collect();
    (kept, set_aside)
}

/// Extracts `zip`, a file of a submission (`entry` of `archive`, as messages name it), in its place: its
/// contents moved up past a single wrapping folder when no name is taken, else left in a
/// folder named for it. One level deep: a zip in it is left closed and listed. A zip that
/// cannot be opened stays as it is, listed.
///
/// # Errors
/// [`LmsError::TooBig`] once the download's files total more than [`DownloadLimits::max_bytes`];
/// [`LmsError::Io`] if a directory cannot be created.
fn open_zip(
    zip: &Path,
    (archive, entry): (&str, &str),
    limits: &DownloadLimits,
    budget: &mut Budget,
    problems: &mut Vec<EntryError>,
) -> Result<(), LmsError> {
    let into = zip.with_extension("zip.d");
    fs::create_dir(&into).map_err(LmsError::io("create", &into))?;
    let shown = format!("{archive}: {entry}");
    let place = |rel: &str| Some(into.join(rel));
    let out = match extract_zip(zip, &shown, &place, limits, budget) {
        Ok(out) => out,
        Err(e) => {
            let problem = match e {
                LmsError::NotZip { message, .. } => EntryProblem::NotZip { message },
                LmsError::TooManyEntries { entries, max, .. } => {
                    EntryProblem::TooManyEntries { entries, max }
                }
                e => return Err(e),
            };
            problems.push(EntryError::new(archive, entry, problem));
            let _ = fs::remove_dir_all(&into);
            return Ok(());
        }
    };
    problems.extend(out.problems);
    for inner in out
        .files
        .iter()
        .filter(|f| f.to_ascii_lowercase().ends_with(".zip"))
    {
        problems.push(EntryError::new(&shown, inner, EntryProblem::TooDeep));
    }
    let _ = fs::remove_file(zip);
    let parent = zip.parent().unwrap_or(Path::new("."));
    if hoist(&into, parent) {
        let _ = fs::remove_dir_all(&into);
    } else {
        let stem = zip.with_extension("");
        if !stem.exists() {
            let _ = fs::rename(&into, stem);
        }
    }
    Ok(())
}

/// Moves what `from` holds into `to`, past a single wrapping folder, and returns `true`,
/// unless a name is taken in `to`: then it leaves it where it is and returns `false`.
fn hoist(from: &Path, to: &Path) -> bool {
    let _ = fs::remove_dir_all(from.join("__MACOSX"));
    let mut from = from.to_path_buf();
    loop {
        let entries: Vec<PathBuf> = match fs::read_dir(&from) {
            Ok(read) => read.filter_map(Result::ok).map(|e| e.path()).collect(),
            Err(_) => return false,
        };
        if let [only] = entries.as_slice() {
            if only.is_dir() && !only.is_symlink() {
                from = only.clone();
                continue;
            }
        }
        let taken = entries
            .iter()
            .any(|e| e.file_name().is_some_and(|n| to.join(n).exists()));
        if taken {
            return false;
        }
        for e in &entries {
            if let Some(name) = e.file_name() {
                let _ = fs::rename(e, to.join(name));
            }
        }
        return true;
    }
}

#[cfg(test)]
mod tests;
