//! The [`Linter`]: runs prolog/lint_child.pl on a submission's files in a crib-child
//! [`Lane`] (the grader's, on the copy the grader staged, or a [`JailedLinter`]'s own)
//! and turns the facts it sends into findings.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crib_child::{End, Flow, Lane, Program, Reader, CHILD_LIB, LINT_CHILD};
use crib_isolation::IsolationChoice;
use crib_results::{Finding, Lint};
use crib_sandbox::{self as sandbox, Jail, Rlimits, Slot, WorkDir, Worker};
use crib_submission::Submission;

use crate::check::{findings, LintConfig};
use crate::facts::{Facts, Frame};

/// The most bytes of facts (as JSON) kept from one child; later facts are dropped.
const MAX_FACT_BYTES: usize = 8 << 20;

/// What stops a linter from being made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LintError {
    /// The sandbox cannot run swipl as asked.
    #[error(transparent)]
    Sandbox(#[from] sandbox::SandboxError),
    /// The linter's work directory cannot be written.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

/// The limits of one lint child (loading runs the submission's directives): address space,
/// CPU time, and wall-clock time as a backstop.
const MEMORY: u64 = 1 << 30;
const CPU: Duration = Duration::from_secs(10);
const WALL: Duration = Duration::from_secs(30);

/// Lints submissions staged in a jail it is given ([`Linter::lint_staged`]) with the
/// thresholds and ignored rules of its [`LintConfig`].
/// A grader lints the copies it staged, in its own jail; [`JailedLinter`] adds a jail of
/// its own, for linting files where they lie.
#[derive(Debug, Clone, Default)]
pub struct Linter {
    config: LintConfig,
}

impl Linter {
    /// Returns the linter with `config`'s thresholds and ignored rules.
    pub fn with_config(mut self, config: LintConfig) -> Linter {
        self.config = config;
        self
    }

    /// Lints submission `name` staged by a grader in `session`: the `.pl` files `files`
    /// (relative to the session's copy), with lint_child.pl and child_lib.pl (crib-child's
    /// [`LINT_CHILD`] and [`CHILD_LIB`]) in its grader's directory. The child runs in the
    /// session's slot and the slot is swept after it, so no other child of the slot may be
    /// running. Never fails: a child that cannot be started, crashes or runs out of time
    /// gives an `E002` finding.
    pub fn lint_staged(&self, session: &Lane<'_>, name: &str, files: &[String]) -> Lint {
        let said = self.run_child(session, files);
        let mut texts = Vec::new();
        for file in files {
            let text = fs::read(session.copy().join(file)).unwrap_or_default();
            texts.push((file.clone(), String::from_utf8_lossy(&text).into_owned()));
        }
        let e002 =
            |why: &str| Finding::not_checked(files.first().cloned().unwrap_or_default(), why);
        let mut found = match said {
            Ok(said) => {
                let mut found = findings(&said.facts, &texts, &self.config);
                if !said.done {
                    // The child ended early: the submission halted while it loaded. What
                    // it said before still holds.
                    found.push(e002("loading it ended the program before the check was done (halt in a directive?)"));
                }
                found
            }
            Err(why) => vec![e002(&why.to_string())],
        };
        found.retain(|f| !self.config.ignore.contains(&f.rule));
        Lint::new(name, found)
    }

    /// Runs the child on the staged files until it ends or [`WALL`] has passed, then ends
    /// the slot's leftovers; returns the facts it sent (the child takes the submission's
    /// directory, as it sees it, out of their paths), or why there are none worth reading.
    fn run_child(&self, session: &Lane<'_>, files: &[String]) -> Result<Said, Unread> {
        let prefix = [format!("{}/", session.submission_dir().display())];
        let program = Program {
            name: "lint_child.pl",
            args: &prefix,
            files,
            rlimits: Rlimits {
                memory: MEMORY,
                cpu: CPU,
                file_size: 1 << 20,
                processes: 64,
            },
            siblings: false,
        };
        let mut reader = Listener {
            deadline: Instant::now() + WALL,
            said: Said::default(),
            bytes: 0,
        };
        session
            .run(&program, &mut reader)
            .map_err(Unread::Start)?
            .output
    }
}

/// Reads a lint child's facts until it ends (after `done`) or the wall-clock limit passes.
struct Listener {
    deadline: Instant,
    said: Said,
    /// The bytes of facts (as JSON) read so far.
    bytes: usize,
}

impl Reader<Frame> for Listener {
    type Output = Result<Said, Unread>;

    fn deadline(&self) -> Instant {
        self.deadline
    }

    fn frame(&mut self, frame: Frame) -> Flow<Self::Output> {
        match frame {
            // The child exits after `done`: its end says whether it exited cleanly.
            Frame::Done => self.said.done = true,
            fact => {
                self.said.read |= matches!(fact, Frame::Term(_));
                self.bytes += serde_json::to_vec(&fact).map_or(0, |v| v.len());
                if self.bytes <= MAX_FACT_BYTES {
                    self.said.facts.add(fact);
                }
            }
        }
        Flow::Read
    }

    fn end(&mut self, end: End<'_>) -> Self::Output {
        let said = std::mem::take(&mut self.said);
        match end {
            End::Silent => Err(Unread::Timeout(WALL)),
            End::Exited(death) => match death.status() {
                Some(s) if s.success() => Ok(said),
                // Read, but halted or crashed afterwards (e.g. `halt` in a directive while
                // the cross-reference ran): the facts so far still hold.
                _ if said.read => Ok(said),
                status => Err(Unread::Ended(status)),
            },
        }
    }
}

/// A [`Linter`] with a jail and a private work directory of its own (holding the child
/// program), for linting submissions where they lie (`crib lint`): each is staged into the
/// jail first.
#[derive(Debug)]
pub struct JailedLinter {
    linter: Linter,
    jail: Jail,
    dir: WorkDir,
}

impl JailedLinter {
    /// Returns `linter` running `swipl` in a jail of its own, in the isolation chosen.
    ///
    /// # Errors
    /// [`LintError::Sandbox`] if swipl does not run in the isolation asked for,
    /// [`LintError::Io`] if the work directory cannot be written.
    pub fn new(
        swipl: &Path,
        isolation: IsolationChoice,
        linter: Linter,
    ) -> Result<JailedLinter, LintError> {
        let io = |what: &str| {
            let what = what.to_string();
            move |source| LintError::Io { what, source }
        };
        let dir = WorkDir::create(&std::env::temp_dir(), sandbox::is_root())
            .map_err(io("creating the work directory"))?;
        let jail = Jail::new(swipl, crib_child::SWIPL_PROBE, isolation, dir.path())?;
        let grader = dir.path().join("linter");
        fs::create_dir(&grader).map_err(io("creating the work directory"))?;
        fs::write(grader.join("lint_child.pl"), LINT_CHILD).map_err(io("writing lint_child.pl"))?;
        fs::write(grader.join("child_lib.pl"), CHILD_LIB).map_err(io("writing child_lib.pl"))?;
        sandbox::open_up(&grader).map_err(io("opening the linter's files"))?;
        Ok(JailedLinter { linter, jail, dir })
    }

    /// Adds Landlock under bubblewrap to the linter's jail, as [`Jail::confine_with`] does.
    ///
    /// # Errors
    /// [`LintError::Sandbox`] saying why the layer could not be added; the linter keeps its
    /// isolation as it was.
    pub fn confine_with(&mut self, program: &Path) -> Result<(), LintError> {
        Ok(self.jail.confine_with(program, self.dir.path())?)
    }

    /// Lints `submission` as `worker` (in its first lane; each worker of a pool has its own), on a
    /// copy staged in the linter's jail by crib-child's [`Lane::stage`] (crib-results'
    /// `Submission::stage`: regular files only, links never followed, at most `max_bytes`),
    /// its `.pl` files loaded in the order staged. Never fails: a copy that cannot be
    /// staged gives an `E002` finding on no file saying so, and a child that cannot be
    /// started, crashes or runs out of time an `E002` finding on its first file.
    pub fn lint(&self, worker: Worker, submission: &Submission, max_bytes: u64) -> Lint {
        let work = self.dir.path().join(format!("slot-{}", worker.index()));
        let not_read = |why: String| {
            let why = format!("the submission could not be read: {why}");
            Lint::new(
                &submission.name,
                vec![Finding::not_checked(String::new(), &why)],
            )
        };
        let grader = self.dir.path().join("linter");
        let session = Lane::new(&self.jail, &grader, &work, "scratch", Slot::First(worker));
        let cleared = if work.exists() {
            fs::remove_dir_all(&work)
        } else {
            Ok(())
        };
        let lint = match cleared.map(|()| session.stage(submission, max_bytes, &[])) {
            Err(e) => not_read(format!("cannot clear {}: {e}", work.display())),
            Ok(Ok(staged)) => self
                .linter
                .lint_staged(&session, &submission.name, &staged.load),
            Ok(Err(why)) => not_read(why.to_string()),
        };
        let _ = fs::remove_dir_all(&work);
        lint
    }
}

/// Why a lint child said nothing worth reading: the text of its `E002` finding.
#[derive(Debug, thiserror::Error)]
enum Unread {
    /// swipl could not be started.
    #[error("cannot start swipl: {0}")]
    Start(std::io::Error),
    /// Loading went on past the wall-clock limit.
    #[error("loading it did not finish within {} s", .0.as_secs())]
    Timeout(Duration),
    /// The child ended before it had read the files.
    #[error("{} before reading the file", crib_child::ended(*.0))]
    Ended(Option<std::process::ExitStatus>),
}

/// What a lint child said.
#[derive(Debug, Default)]
struct Said {
    facts: Facts,
    /// It sent `done`: everything was said.
    done: bool,
    /// It sent a `term` fact: the files were read.
    read: bool,
}
