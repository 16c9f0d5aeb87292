//! `crib grade` on an LMS's download: each PATH that is a zip, or a folder in an LMS's
//! layout, is read with crib-lms into a private work directory; what it found and left out
//! is said on stderr and kept in the results directory as `lms/intake.json` (in a folder
//! of its own: `crib report` reads every `*.json` directly in the results directory as a
//! result, and a submission may be named `intake`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use crib_lms::{Download, DownloadLimits, Roster};
use crib_results::Layout;
use serde_json::json;

/// The file in the results directory that records what the downloads held.
pub(crate) const INTAKE_FILE: &str = "lms/intake.json";

/// What the PATHs given came to.
#[derive(Default)]
pub(crate) struct Intake {
    /// PATHs to grade as crib always has: files, plain folders, and plain downloads'
    /// extracted folders.
    pub(crate) plain: Vec<PathBuf>,
    /// The downloads' submissions, each with its LMS record.
    pub(crate) submissions: Vec<crib_submission::Submission>,
    /// The downloads read.
    downloads: Vec<Download>,
    /// Downloads that could not be read at all, with why.
    pub(crate) unreadable: Vec<(PathBuf, String)>,
    /// Roster students with no submission in any download.
    missing: Vec<crib_results::Student>,
    /// The roster read, if any.
    roster: Option<PathBuf>,
    /// Where the downloads are extracted; removed on drop (and by a signal's clean-up).
    _work: Option<crib_sandbox::WorkDir>,
}

/// Returns whether `path` is to be read as a download: a zip, or a folder whose layout
/// (`layout`, or recognised) is an LMS's.
pub(crate) fn is_download(path: &Path, layout: Option<Layout>) -> bool {
    if path.is_file() {
        return path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("zip"));
    }
    path.is_dir()
        && layout
            .or_else(|| crib_lms::detect(path).ok())
            .is_some_and(|l| l != Layout::Plain)
}

/// Reads the downloads among `paths` (all of them plain when `single`), applies the
/// roster, and, when `announce` (crib grade, not crib report reading the download again
/// for its source), says on stderr what was set aside, left out or missing.
///
/// # Errors
/// If the work directory cannot be made or the roster cannot be read. A download that
/// cannot be read at all is left out (said when `announce`, and in
/// [`Intake::unreadable`]); the others are read.
pub(crate) fn take_in(
    paths: &[PathBuf],
    layout: Option<Layout>,
    roster: Option<&Path>,
    single: bool,
    announce: bool,
) -> Result<Intake> {
    let roster = roster
        .map(Roster::read)
        .transpose()
        .context("cannot use the roster")?;
    let mut intake = Intake {
        roster: roster.as_ref().map(|r| r.path.clone()),
        ..Intake::default()
    };
    for path in paths {
        if single || !is_download(path, layout) {
            intake.plain.push(path.clone());
            continue;
        }
        if intake._work.is_none() {
            let work = crib_sandbox::WorkDir::create(&std::env::temp_dir(), false)
                .context("cannot create a work directory for the downloads")?;
            intake._work = Some(work);
        }
        let work = intake._work.as_ref().map_or(Path::new(""), |w| w.path());
        // Numbered by every download tried, read or not: one left unreadable must not
        // give its folder's name to the next.
        let tried = intake.downloads.len() + intake.unreadable.len();
        let dest = work.join(format!("download-{}", tried + 1));
        std::fs::create_dir(&dest).with_context(|| format!("cannot create {}", dest.display()))?;
        match crib_lms::read(path, layout, &dest, &DownloadLimits::default()) {
            Ok(download) => intake.downloads.push(download),
            Err(e) => {
                if announce {
                    eprintln!("crib: warning: {e}; its submissions are not graded");
                }
                intake.unreadable.push((path.clone(), e.to_string()));
            }
        }
    }
    if let Some(roster) = &roster {
        for download in &mut intake.downloads {
            roster.apply(download);
        }
        // Missing from every download read.
        let mut missing: Vec<crib_results::Student> =
            roster.students.iter().map(|(_, s)| s.clone()).collect();
        for download in &intake.downloads {
            let here: BTreeSet<&str> = download.missing.iter().map(|s| s.id.as_str()).collect();
            missing.retain(|s| here.contains(s.id.as_str()));
        }
        if intake.downloads.is_empty() {
            if announce {
                eprintln!("crib: warning: --roster is for LMS downloads, and no PATH is one");
            }
            missing.clear();
        }
        intake.missing = missing;
    }
    for download in &intake.downloads {
        if announce {
            say(download);
        }
        if download.layout == Layout::Plain {
            intake.plain.push(download.root.clone());
        }
        for sub in &download.submissions {
            intake.submissions.push(crib_submission::Submission {
                name: sub.name.clone(),
                path: sub.dir.clone(),
                lms: Some(sub.record.clone()),
            });
        }
    }
    for student in intake.missing.iter().filter(|_| announce) {
        eprintln!(
            "crib: warning: on the roster with no submission: {}",
            who(student)
        );
    }
    Ok(intake)
}

/// Returns a student as messages name them: `Smith, Jane (1001)`.
fn who(student: &crib_results::Student) -> String {
    match &student.name {
        Some(name) => format!("{name} ({})", student.id),
        None => student.id.clone(),
    }
}

/// Says on stderr what `download` held and left out.
fn say(download: &Download) {
    let (source, n) = (download.source.display(), download.submissions.len());
    eprintln!(
        "crib: {source}: a {} download, {n} submission{}",
        download.layout,
        if n == 1 { "" } else { "s" }
    );
    for problem in &download.problems {
        eprintln!("crib: warning: {problem}; left out");
    }
    for aside in &download.set_aside {
        let student = aside.record.student().map_or_else(|| "?".into(), who);
        let id = aside.record.submission_id.as_deref().unwrap_or("?");
        eprintln!(
            "crib: warning: set aside an earlier attempt of {student} (submission {id}, {}): {} is graded",
            aside.record.entries.join(", "),
            aside.kept
        );
    }
    for entry in &download.ignored {
        eprintln!(
            "crib: warning: {source}: {entry}: not named as a {} download names submissions; not graded",
            download.layout
        );
    }
}

impl Intake {
    /// Returns whether any download was read or given.
    pub(crate) fn any(&self) -> bool {
        !self.downloads.is_empty() || !self.unreadable.is_empty()
    }

    /// Writes `out/lms/intake.json`: each download's layout, submissions with their records,
    /// attempts set aside, entries left out and ignored, downloads unreadable, and the
    /// roster's students with no submission. `names` maps each download submission's name
    /// to the name it was graded under.
    pub(crate) fn write(&self, out: &Path, graded: &[crib_submission::Submission]) -> Result<()> {
        let name_of = |dir: &Path| {
            graded
                .iter()
                .find(|s| s.path == dir)
                .map(|s| s.name.clone())
        };
        let downloads: Vec<serde_json::Value> = self
            .downloads
            .iter()
            .map(|d| {
                json!({
                    "source": d.source.display().to_string(),
                    "layout": d.layout,
                    "submissions": d.submissions.iter().map(|s| json!({
                        "name": name_of(&s.dir).unwrap_or_else(|| s.name.clone()),
                        "record": s.record,
                    })).collect::<Vec<_>>(),
                    "set_aside": d.set_aside,
                    "problems": d.problems.iter().map(|p| json!({
                        "archive": p.archive,
                        "entry": p.entry,
                        "problem": p.problem,
                        "message": p.to_string(),
                    })).collect::<Vec<_>>(),
                    "ignored": d.ignored,
                })
            })
            .collect();
        let summary = json!({
            "downloads": downloads,
            "unreadable": self.unreadable.iter().map(|(p, why)| json!({
                "source": p.display().to_string(),
                "message": why,
            })).collect::<Vec<_>>(),
            "roster": self.roster.as_ref().map(|p| p.display().to_string()),
            "missing": self.missing,
        });
        let path = out.join(INTAKE_FILE);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(&summary)? + "\n";
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }
}
