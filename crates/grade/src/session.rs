//! Grading many submissions: a pool of workers, results saved as each is done, `--resume`,
//! and Gradescope's results.json files.

use std::fs;
use std::io;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use crib_results::{fnv1a, gradescope, SubmissionResult, VisibilityPolicy};
use crib_submission::{survey, Discovery, Submission, SurveyError};

use crate::pool::WorkerPool;
use crate::runner::Grader;
use crib_testset::seed::{Seed, SeedError};
use crib_testset::Tests;

/// A grading session: where results go and how submissions are graded.
///
/// # Example
/// ```no_run
/// use crib_grade::{Grader, Limits, SeedChoice, Session};
/// use crib_isolation::IsolationChoice;
/// let session = Session::new("crib-grade-results");
/// let submissions = session.survey(&["submissions/".into()], false)?.submissions;
/// let tests = session.tests(&SeedChoice::default())?;
/// let grader = Grader::new("swipl".as_ref(), IsolationChoice::Auto, Limits::default(), &tests)?;
/// let graded = session.grade(&grader, &submissions, &mut ())?;
/// println!("{} graded, {} resumed", graded.reports.len(), graded.resumed);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The directory each submission's result is written to (as `<name>.json`), as soon as
    /// it is done.
    pub out: PathBuf,
    /// Submissions graded at once (at most [`crib_sandbox::MAX_WORKERS`]); each worker has a
    /// [`crib_sandbox::Worker`] of its own (see [`crate::WorkerPool`]).
    pub jobs: NonZeroUsize,
    /// Children that may run at once in all (default: one per core). With fewer submissions
    /// than that, each submission's marked hand_value check runs several
    /// ([`Grader::grade_on`]): `cores / workers` each.
    pub cores: NonZeroUsize,
    /// Whether a result already in [`Session::out`] is reused when it is for the same files
    /// (content hash) and the same test set (fingerprint).
    pub resume: bool,
    /// Where to also write `<name>/results.json` in Gradescope's format, if anywhere.
    pub gradescope: Option<PathBuf>,
    /// Which tests students see in the Gradescope files.
    pub gradescope_visibility: VisibilityPolicy,
}

/// What a session graded.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    /// One report per submission, in the order the submissions were given.
    pub reports: Vec<SubmissionResult>,
    /// How many of them were reused from an earlier run rather than graded.
    pub resumed: usize,
}

/// Hears how a session is going; called on the thread that called [`Session::grade`].
/// Both methods do nothing unless implemented; `()` hears nothing.
pub trait SessionProgress {
    /// Grading starts: `to_grade` submissions will be graded (the resumed ones are not
    /// counted).
    fn start(&mut self, _to_grade: usize) {}

    /// `report`'s submission has been graded (and its result saved, or tried).
    fn graded(&mut self, _report: &SubmissionResult) {}
}

impl SessionProgress for () {}

/// What stops a session, or spoils its results.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The submissions could not be found.
    #[error(transparent)]
    Survey(#[from] SurveyError),
    /// A directory for results cannot be created.
    #[error("cannot create {}", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A result file cannot be written. Grading went on and every other result was written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The seed could not be read, made or kept.
    #[error(transparent)]
    Seed(#[from] SeedError),
    /// Grading a submission panicked: a bug in crib. Grading went on and every other result
    /// was written.
    #[error("grading {name} panicked: {message}")]
    Panicked {
        /// The submission's name.
        name: String,
        /// What the panic said.
        message: String,
    },
}

/// Where a run's seed comes from, and where its drawn tests are kept ([`Session::tests`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeedChoice {
    /// A seed file staff keep (`--seed-file`); else, when resuming, the seed of the results
    /// directory's last run; else a fresh seed.
    pub file: Option<PathBuf>,
    /// Text the run's seed is derived with (`--seed-salt`, e.g. a Gradescope submission's
    /// id): each salt gets tests of its own, the same salt the same tests.
    pub salt: Option<String>,
    /// Where a seed file's drawn tests are kept (`--kept-dir`): its whole test set, or with a
    /// salt the part every salt shares. Without it, or without a seed file: the results
    /// directory's [`SEEDS_DIR`].
    pub kept_dir: Option<PathBuf>,
}

/// The file in the results directory that holds the seed of its last run.
pub const SEED_FILE: &str = "seed";
/// The directory in the results directory that keeps every run's seed, as `<id>.seed`.
pub const SEEDS_DIR: &str = "seeds";

impl Session {
    /// Returns a session writing to `out`, one worker per core, not resuming, no Gradescope
    /// files.
    pub fn new(out: impl Into<PathBuf>) -> Session {
        Session {
            out: out.into(),
            jobs: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
            cores: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
            resume: false,
            gradescope: None,
            gradescope_visibility: VisibilityPolicy::AllVisible,
        }
    }

    /// Returns the run's tests, as `choice` says, and keeps the run's seed in the results
    /// directory (created if need be): `out/seed` (the last run's, which `--resume` reads)
    /// and `out/seeds/<id>.seed` (every run's, so any result's `seed_id` finds its seed).
    /// Both are readable by their owner only. The seed file, if any, is read once, here.
    ///
    /// A seed's tests are kept ([`Tests::Kept`]) in [`SeedChoice::kept_dir`] or the seeds
    /// directory: a course's seed draws the same tests on every run. A seed file with a salt
    /// (one per Gradescope submission) keeps the part its draw shares with every salt
    /// ([`Tests::Salted`]), its own tests drawn from that in milliseconds. A salt without a
    /// seed file salts a fresh seed, which nothing kept would serve again ([`Tests::Drawn`]).
    ///
    /// # Errors
    /// [`SessionError::Seed`] if the seed file cannot be read (or, when resuming, the
    /// results directory has none), or the seed cannot be kept; [`SessionError::CreateDir`]
    /// if the results directory cannot be created.
    pub fn tests(&self, choice: &SeedChoice) -> Result<Tests, SessionError> {
        let kept = self.out.join(SEED_FILE);
        let mut last = None;
        let base = match &choice.file {
            Some(file) => Seed::read(file)?,
            None if self.resume && kept.exists() => *last.insert(Seed::read(&kept)?),
            None => Seed::fresh()?,
        };
        let dir = match (&choice.file, &choice.kept_dir) {
            (Some(_), Some(dir)) => dir.clone(),
            _ => self.seeds_dir(),
        };
        let tests = match (&choice.file, &choice.salt) {
            (_, None) => Tests::Kept { seed: base, dir },
            (Some(_), Some(salt)) => Tests::Salted {
                course: base,
                salt: salt.clone(),
                dir,
            },
            (None, Some(salt)) => Tests::Drawn(base.derive(salt)),
        };
        let seed = tests.seed();
        create_dir(&self.seeds_dir())?;
        let archived = self.seeds_dir().join(format!("{}.seed", seed.id()));
        if !archived.exists() {
            seed.write_new(&archived)?;
        }
        if last.or_else(|| Seed::read(&kept).ok()) != Some(seed) {
            let tmp = self.out.join(format!("{SEED_FILE}.tmp"));
            let _ = fs::remove_file(&tmp);
            seed.write_new(&tmp)?;
            fs::rename(&tmp, &kept).map_err(|source| SessionError::Write {
                path: kept.clone(),
                source,
            })?;
        }
        Ok(tests)
    }

    /// Returns the directory that keeps every run's seed ([`SEEDS_DIR`] in the results
    /// directory; each file in it readable by its owner only), where a run's drawn tests are
    /// kept too unless a `--kept-dir` is given ([`Session::tests`]).
    pub fn seeds_dir(&self) -> PathBuf {
        self.out.join(SEEDS_DIR)
    }

    /// Creates [`Session::out`] and returns what [`survey`] finds under `paths`, leaving out
    /// the session's own output directories (`out` and `gradescope`), even when a path given
    /// holds them (a directory given that held only those is listed as empty).
    ///
    /// # Errors
    /// [`SessionError::CreateDir`] if `out` cannot be created; [`SessionError::Survey`] as
    /// [`survey`].
    pub fn survey(&self, paths: &[PathBuf], single: bool) -> Result<Discovery, SessionError> {
        create_dir(&self.out)?;
        let ours: Vec<PathBuf> = [Some(&self.out), self.gradescope.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|p| p.canonicalize().ok())
            .collect();
        let mut found = survey(paths, single)?;
        let before = found.submissions.len();
        found
            .submissions
            .retain(|s| !s.path.canonicalize().is_ok_and(|p| ours.contains(&p)));
        if found.submissions.is_empty() && before > 0 {
            found.empty = paths.to_vec();
        }
        Ok(found)
    }

    /// Grades `submissions` with `grader` on [`Session::jobs`] workers (never more than there
    /// are submissions to grade), each with [`Session::cores_each`] cores, reusing current
    /// results when resuming. Each result is saved atomically to [`Session::result_path`] as
    /// soon as it is done; once all are done, the Gradescope files are written, if asked for.
    ///
    /// # Errors
    /// [`SessionError::CreateDir`] or [`SessionError::Write`] if a directory or a file
    /// cannot be written; [`SessionError::Panicked`] if grading a submission panicked. A
    /// result that cannot be saved or made does not stop the others: the first such error is
    /// returned once every submission is graded and every other result saved (the Gradescope
    /// files are then not written).
    pub fn grade(
        &self,
        grader: &Grader,
        submissions: &[Submission],
        progress: &mut dyn SessionProgress,
    ) -> Result<Graded, SessionError> {
        create_dir(&self.out)?;
        let mut reports: Vec<Option<SubmissionResult>> = vec![None; submissions.len()];
        let mut todo = Vec::new();
        for (i, sub) in submissions.iter().enumerate() {
            match self.resume.then(|| self.previous(sub, grader)).flatten() {
                Some(report) => reports[i] = Some(report),
                None => todo.push(i),
            }
        }
        let resumed = submissions.len() - todo.len();
        progress.start(todo.len());
        let mut failure = None;
        let cores = self.cores_each(todo.len());
        let graded = WorkerPool::new(self.jobs.get().min(crib_sandbox::MAX_WORKERS as usize))
            .run_each(
                &todo,
                |slot, &i| grader.grade_on(&submissions[i], slot, cores),
                |k, result| match result {
                    Ok(report) => {
                        if let Err(e) = self.save(report) {
                            failure.get_or_insert(e);
                        }
                        progress.graded(report);
                    }
                    Err(panic) => {
                        failure.get_or_insert(SessionError::Panicked {
                            name: submissions[todo[k]].name.clone(),
                            message: panic.message.clone(),
                        });
                    }
                },
            );
        for (&i, result) in todo.iter().zip(graded) {
            reports[i] = result.ok();
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let reports: Vec<SubmissionResult> = reports.into_iter().flatten().collect();
        if let Some(dir) = &self.gradescope {
            for report in &reports {
                let sub_dir = dir.join(file_stem(&report.name));
                create_dir(&sub_dir)?;
                let results = gradescope(report, self.gradescope_visibility);
                write_json(&sub_dir.join("results.json"), &results)?;
            }
        }
        Ok(Graded { reports, resumed })
    }

    /// Returns the cores each submission has to itself when `count` are to be graded: the
    /// [`Session::cores`] shared among the workers that grade at once (at least one).
    pub fn cores_each(&self, count: usize) -> NonZeroUsize {
        let workers = self.jobs.get().min(count).max(1);
        NonZeroUsize::new(self.cores.get() / workers).unwrap_or(NonZeroUsize::MIN)
    }

    /// Returns where the result of the submission named `name` is written: `out/<stem>.json`,
    /// where the stem is `name` if it is a safe file name and otherwise `name` made safe
    /// with a hash suffix, so that two names never share a file.
    pub fn result_path(&self, name: &str) -> PathBuf {
        self.out.join(format!("{}.json", file_stem(name)))
    }

    /// Returns the report of an earlier run if it is for the same files, test set and
    /// credit scale as `grader` would grade now.
    fn previous(&self, sub: &Submission, grader: &Grader) -> Option<SubmissionResult> {
        let text = fs::read_to_string(self.result_path(&sub.name)).ok()?;
        let mut report: SubmissionResult = serde_json::from_str(&text).ok()?;
        let current = sub.listing(grader.limits().max_bytes).ok()?.hash;
        let fingerprint = &grader.test_set().fingerprint;
        (&report.test_set == fingerprint
            && report.content_hash == current
            && report.select_credit == grader.select_credit()
            // A result without the deep check does not do when it is asked for.
            && (grader.deep().is_none() || report.deep.is_some())
            // Nor one without the lint when results are to have it.
            && (!grader.lints() || report.quality.is_some()))
        .then(|| {
            // The download's record as read now (a roster may have been added since).
            report.lms.clone_from(&sub.lms);
            report
        })
    }

    /// Writes the report where a resuming session finds it, atomically (a temporary file,
    /// then a rename).
    fn save(&self, report: &SubmissionResult) -> Result<(), SessionError> {
        let path = self.result_path(&report.name);
        let tmp = path.with_extension("json.tmp");
        write_json(&tmp, report)?;
        fs::rename(&tmp, &path).map_err(|source| SessionError::Write { path, source })
    }
}

fn create_dir(path: &Path) -> Result<(), SessionError> {
    fs::create_dir_all(path).map_err(|source| SessionError::CreateDir {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `value` to `path` as pretty JSON with a final newline.
fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), SessionError> {
    let text = serde_json::to_string_pretty(value).map_err(io::Error::other);
    text.and_then(|text| fs::write(path, text + "\n"))
        .map_err(|source| SessionError::Write {
            path: path.to_path_buf(),
            source,
        })
}

/// Returns `name` made safe as a file name; a name that had to change gets a hash suffix so
/// two names never share a file.
pub(crate) fn file_stem(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._~-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe == name && !safe.starts_with('.') {
        return safe;
    }
    let hash = fnv1a(name.as_bytes());
    format!("_{}-{:08x}", safe.trim_start_matches('.'), hash as u32)
}

#[cfg(test)]
mod tests;
