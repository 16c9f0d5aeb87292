//! The [`Linter`]: runs prolog/lint_child.pl on a submission's files as a crib-child
//! [`Child`] in crib-sandbox's jail (its own, or the grader's on the grader's staged copy)
//! and turns the facts it sends into findings.

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

/// The most bytes of fact fields kept from one child; later facts are dropped.
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

/// A linter's own sandbox: a jail and a private work directory holding the child program.
#[derive(Debug)]
struct Own {
    jail: Jail,
    dir: WorkDir,
}

/// Lints submissions, in a sandbox of its own ([`Linter::new`], for `crib lint`) or in a
/// grader's ([`Linter::for_grader`] and [`Linter::lint_staged`]).
#[derive(Debug)]
pub struct Linter {
    own: Option<Own>,
    config: LintConfig,
    limits: LintLimits,
}

impl Linter {
    /// Returns a linter running `swipl` in a jail of its own, in the isolation chosen, with
    /// the default [`LintConfig`] and [`LintLimits`].
    ///
    /// # Errors
    /// [`LintError::Sandbox`] if swipl does not run in the isolation asked for,
    /// [`LintError::Io`] if the work directory cannot be written.
    pub fn new(swipl: &Path, isolation: IsolationChoice) -> Result<Linter, LintError> {
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
        Ok(Linter {
            own: Some(Own { jail, dir }),
            config: LintConfig::default(),
            limits: LintLimits::default(),
        })
    }

    /// Returns a linter with no sandbox of its own, for a grader that lints the copies it
    /// staged in its own jail ([`Linter::lint_staged`]); its [`Linter::lint`] says that it
    /// has no sandbox (`E002`).
    pub fn for_grader() -> Linter {
        Linter {
            own: None,
            config: LintConfig::default(),
            limits: LintLimits::default(),
        }
    }

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

    /// Adds Landlock under bubblewrap to the linter's own jail, as [`Jail::confine_with`]
    /// does; a linter [`Linter::for_grader`] runs under the grader's layers.
    ///
    /// # Errors
    /// [`LintError::Sandbox`] saying why the layer could not be added; the linter keeps its
    /// isolation as it was.
    pub fn confine_with(&mut self, program: &Path) -> Result<(), LintError> {
        match &mut self.own {
            Some(own) => Ok(own.jail.confine_with(program, own.dir.path())?),
            None => Ok(()),
        }
    }

    /// The isolation of the linter's own jail (none for a linter [`Linter::for_grader`]:
    /// it runs in the grader's).
    pub fn isolation(&self) -> Isolation {
        self.own
            .as_ref()
            .map(|own| own.jail.isolation)
            .unwrap_or_default()
    }

    /// The configuration in force.
    pub fn config(&self) -> &LintConfig {
        &self.config
    }

    /// Lints submission `name`: the `.pl` files `files` (relative to `root`, loaded in that
    /// order) as worker `slot` (each worker of a pool has its own slot), on a copy staged in
    /// the linter's own jail. Never fails: a child that cannot be started, crashes or runs
    /// out of time gives an `E002` finding.
    pub fn lint(&self, slot: u32, name: &str, root: &Path, files: &[String]) -> Lint {
        let said = match &self.own {
            Some(own) => self.stage_and_run(own, slot, root, files),
            None => {
                Err("this linter has no sandbox of its own (it lints a grader's copies)".into())
            }
        };
        self.finish(name, root, files, said)
    }

    /// Lints submission `name` staged by a grader in `jail`: the `.pl` files `files`
    /// (relative to `mounts.submission`, handed over to worker `slot`'s children), with
    /// lint_child.pl and child_lib.pl ([`CHILD`], [`CHILD_LIB`]) in `mounts.grader`. The
    /// child runs as worker `slot` and the slot is swept after it, so no other child of
    /// the slot may be running. Never fails, as [`Linter::lint`].
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
        said: Result<Said, String>,
    ) -> Lint {
        let mut texts = Vec::new();
        for file in files {
            let text = fs::read(root.join(file)).unwrap_or_default();
            texts.push((file.clone(), String::from_utf8_lossy(&text).into_owned()));
        }
        let e002 =
            |why: String| Finding::not_checked(files.first().cloned().unwrap_or_default(), &why);
        let mut found = match said {
            Ok(said) => {
                let mut found = findings(&said.facts, &texts, &self.config);
                if !said.done {
                    // The child ended early: the submission halted while it loaded. What
                    // it said before still holds.
                    found.push(e002("loading it ended the program before the check was done (halt in a directive?)".into()));
                }
                found
            }
            Err(why) => vec![e002(why)],
        };
        found.retain(|f| !self.config.ignore.contains(&f.rule));
        Lint::new(name, found)
    }

    /// Copies the files into a work directory of the linter's own jail and runs the child
    /// on them.
    fn stage_and_run(
        &self,
        own: &Own,
        slot: u32,
        root: &Path,
        files: &[String],
    ) -> Result<Said, String> {
        let work = own.dir.path().join(format!("slot-{slot}"));
        let copy = work.join("submission");
        let scratch = work.join("scratch");
        if work.exists() {
            fs::remove_dir_all(&work)
                .map_err(|e| format!("cannot clear {}: {e}", work.display()))?;
        }
        for dir in [&copy, &scratch] {
            fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        for file in files {
            let to = copy.join(file);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            }
            fs::copy(root.join(file), &to).map_err(|e| format!("cannot copy {file}: {e}"))?;
        }
        own.jail
            .hand_over(&work, slot)
            .map_err(|e| format!("cannot hand the copy over to the sandbox: {e}"))?;
        own.jail
            .give_scratch(&scratch, slot)
            .map_err(|e| format!("cannot give the scratch directory away: {e}"))?;
        let grader = own.dir.path().join("linter");
        let mounts = Mounts {
            grader: &grader,
            submission: &copy,
            scratch: &scratch,
        };
        let said = self.run_child(&own.jail, &mounts, slot, files);
        let _ = fs::remove_dir_all(&work);
        said
    }

    /// Runs the child on the staged files until it ends or [`LintLimits::wall`] has
    /// passed, then sweeps the slot; returns the facts it sent, with the paths it saw
    /// turned back into the names in `files`, or why there are none worth reading.
    fn run_child(
        &self,
        jail: &Jail,
        mounts: &Mounts<'_>,
        slot: u32,
        files: &[String],
    ) -> Result<Said, String> {
        let program = Program {
            jail,
            mounts,
            name: "lint_child.pl",
            args: &[],
            files,
            rlimits: Rlimits {
                memory: self.limits.memory,
                cpu: self.limits.cpu,
                file_size: 1 << 20,
                processes: 64,
            },
            slot,
        };
        let prefix = format!("{}/", program.submission_dir().display());
        let mut child: Child<Frame> =
            Child::start(&program).map_err(|e| format!("cannot start swipl: {e}"))?;
        let deadline = Instant::now() + self.limits.wall;
        let mut said = Said::default();
        let mut bytes = 0;
        let status = loop {
            match child.next_frame(deadline.saturating_duration_since(Instant::now())) {
                Ok(Frame::Fact { fields }) => {
                    said.read |= fields.first().is_some_and(|f| f == "term");
                    bytes += fields.iter().map(String::len).sum::<usize>();
                    if bytes <= MAX_FACT_BYTES {
                        let fields: Vec<String> =
                            fields.iter().map(|f| f.replace(&prefix, "")).collect();
                        said.facts.add(&fields);
                    }
                }
                Ok(Frame::Done) => said.done = true,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    break None;
                }
                Err(RecvTimeoutError::Disconnected) => break Some(child.ended()),
            }
        };
        let _ = child.kill();
        program.sweep();
        match status {
            None => Err(format!(
                "loading it did not finish within {} s",
                self.limits.wall.as_secs()
            )),
            Some(Some(s)) if s.success() => Ok(said),
            // Read, but halted or crashed afterwards (e.g. `halt` in a directive while the
            // cross-reference ran): the facts so far still hold.
            Some(_) if said.read => Ok(said),
            Some(s) => Err(format!("{} before reading the file", crib_child::ended(s))),
        }
    }
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
