//! The [`Linter`]: runs prolog/lint_child.pl on a submission's files as a crib-child
//! [`Child`] in crib-sandbox's jail (the grader's, on the copy the grader staged, or a
//! [`JailedLinter`]'s own) and turns the facts it sends into findings.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crib_child::{Child, Program, RecvTimeoutError};
use crib_results::{Finding, Lint};
use crib_sandbox::{self as sandbox, Isolation, IsolationChoice, Jail, Mounts, Rlimits, WorkDir};

use crate::check::{findings, LintConfig};
use crate::facts::{Facts, Frame};

/// The child program, built into the linter so that it always matches it. A grader that
/// lints in its own jail ([`Linter::lint_staged`]) writes it as `lint_child.pl` beside
/// [`CHILD_LIB`].
pub const CHILD: &str = include_str!("../../../prolog/lint_child.pl");

/// The Prolog library every child program loads, prolog/child_lib.pl (card notation, message
/// text, the frame writer, loading a submission); written beside each child. crib-grade's
/// children load it too.
pub const CHILD_LIB: &str = include_str!("../../../prolog/child_lib.pl");

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

/// The limits of one lint child: loading runs the submission's directives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LintLimits {
    /// Address space, bytes.
    pub memory: u64,
    /// CPU time.
    pub cpu: Duration,
    /// Wall-clock time, a backstop.
    pub wall: Duration,
}

impl Default for LintLimits {
    fn default() -> LintLimits {
        LintLimits {
            memory: 1 << 30,
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(30),
        }
    }
}

/// Lints submissions staged in a jail it is given ([`Linter::lint_staged`]): the
/// thresholds and ignored rules ([`LintConfig`]) and each child's limits ([`LintLimits`]).
/// A grader lints the copies it staged, in its own jail; [`JailedLinter`] adds a jail of
/// its own, for linting files where they lie.
#[derive(Debug, Clone, Default)]
pub struct Linter {
    config: LintConfig,
    limits: LintLimits,
}

impl Linter {
    /// Returns the linter with `config`'s thresholds and ignored rules.
    pub fn with_config(mut self, config: LintConfig) -> Linter {
        self.config = config;
        self
    }

    /// Returns the linter with `limits` for each child.
    pub fn with_limits(mut self, limits: LintLimits) -> Linter {
        self.limits = limits;
        self
    }

    /// The configuration in force.
    pub fn config(&self) -> &LintConfig {
        &self.config
    }

    /// Lints submission `name` staged by a grader in `jail`: the `.pl` files `files`
    /// (relative to `mounts.submission`, handed over to worker `slot`'s children), with
    /// lint_child.pl and child_lib.pl ([`CHILD`], [`CHILD_LIB`]) in `mounts.grader`. The
    /// child runs as worker `slot` and the slot is swept after it, so no other child of
    /// the slot may be running. Never fails: a child that cannot be started, crashes or
    /// runs out of time gives an `E002` finding.
    pub fn lint_staged(
        &self,
        jail: &Jail,
        mounts: &Mounts<'_>,
        slot: u32,
        name: &str,
        files: &[String],
    ) -> Lint {
        let said = self.run_child(jail, mounts, slot, files);
        self.finish(name, mounts.submission, files, said)
    }

    /// Returns the findings on what the child said (or `E002` with why it said nothing).
    fn finish(
        &self,
        name: &str,
        root: &Path,
        files: &[String],
        said: Result<Said, Unread>,
    ) -> Lint {
        let mut texts = Vec::new();
        for file in files {
            let text = fs::read(root.join(file)).unwrap_or_default();
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

    /// Runs the child on the staged files until it ends or [`LintLimits::wall`] has
    /// passed, then ends the slot's leftovers; returns the facts it sent (with the paths it saw
    /// turned back into the names in `files`: the child takes its submission directory
    /// out), or why there are none worth reading.
    fn run_child(
        &self,
        jail: &Jail,
        mounts: &Mounts<'_>,
        slot: u32,
        files: &[String],
    ) -> Result<Said, Unread> {
        // The child takes the submission's directory, as it sees it, out of the facts.
        let prefix = [format!("{}/", jail.submission_dir(mounts).display())];
        let program = Program {
            jail,
            mounts,
            name: "lint_child.pl",
            args: &prefix,
            files,
            rlimits: Rlimits {
                memory: self.limits.memory,
                cpu: self.limits.cpu,
                file_size: 1 << 20,
                processes: 64,
            },
            slot,
        };
        let mut child: Child<Frame> = Child::start(&program).map_err(Unread::Start)?;
        let deadline = Instant::now() + self.limits.wall;
        let mut said = Said::default();
        let mut bytes = 0;
        let status = loop {
            match child.next_frame(deadline.saturating_duration_since(Instant::now())) {
                Ok(Frame::Done) => said.done = true,
                Ok(fact) => {
                    said.read |= matches!(fact, Frame::Term(_));
                    bytes += serde_json::to_vec(&fact).map_or(0, |v| v.len());
                    if bytes <= MAX_FACT_BYTES {
                        said.facts.add(fact);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    break None;
                }
                Err(RecvTimeoutError::Disconnected) => break Some(child.ended()),
            }
        };
        let _ = child.kill();
        program.end_leftovers();
        match status {
            None => Err(Unread::Timeout(self.limits.wall)),
            Some(Some(s)) if s.success() => Ok(said),
            // Read, but halted or crashed afterwards (e.g. `halt` in a directive while the
            // cross-reference ran): the facts so far still hold.
            Some(_) if said.read => Ok(said),
            Some(status) => Err(Unread::Ended(status)),
        }
    }
}

/// A [`Linter`] with a jail and a private work directory of its own (holding the child
/// program), for linting files where they lie (`crib lint`): each is copied into the jail
/// first.
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
        fs::write(grader.join("lint_child.pl"), CHILD).map_err(io("writing lint_child.pl"))?;
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

    /// The isolation of the linter's jail.
    pub fn isolation(&self) -> Isolation {
        self.jail.isolation
    }

    /// Lints submission `name`: the `.pl` files `files` (relative to `root`, loaded in that
    /// order) as worker `slot` (each worker of a pool has its own slot), on a copy staged in
    /// the linter's jail. Never fails: a copy that cannot be staged, or a child that cannot
    /// be started, crashes or runs out of time, gives an `E002` finding.
    pub fn lint(&self, slot: u32, name: &str, root: &Path, files: &[String]) -> Lint {
        let said = self.stage_and_run(slot, root, files);
        self.linter.finish(name, root, files, said)
    }

    /// Copies the files into a work directory of the jail and runs the child on them.
    fn stage_and_run(&self, slot: u32, root: &Path, files: &[String]) -> Result<Said, Unread> {
        let work = self.dir.path().join(format!("slot-{slot}"));
        let copy = work.join("submission");
        let scratch = work.join("scratch");
        let stage = |what: String| move |source| Unread::Stage { what, source };
        if work.exists() {
            fs::remove_dir_all(&work).map_err(stage(format!("clear {}", work.display())))?;
        }
        for dir in [&copy, &scratch] {
            fs::create_dir_all(dir).map_err(stage(format!("create {}", dir.display())))?;
        }
        for file in files {
            let to = copy.join(file);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)
                    .map_err(stage(format!("create {}", parent.display())))?;
            }
            fs::copy(root.join(file), &to).map_err(stage(format!("copy {file}")))?;
        }
        self.jail
            .hand_over(&work, slot)
            .map_err(stage("hand the copy over to the sandbox".into()))?;
        self.jail
            .give_scratch(&scratch, slot)
            .map_err(stage("give the scratch directory away".into()))?;
        let grader = self.dir.path().join("linter");
        let mounts = Mounts {
            grader: &grader,
            submission: &copy,
            scratch: &scratch,
        };
        let said = self.linter.run_child(&self.jail, &mounts, slot, files);
        let _ = fs::remove_dir_all(&work);
        said
    }
}

/// Why a lint child said nothing worth reading: the text of its `E002` finding.
#[derive(Debug, thiserror::Error)]
enum Unread {
    /// The copy could not be staged in the linter's own jail.
    #[error("cannot {what}: {source}")]
    Stage {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
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
