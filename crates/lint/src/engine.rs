//! The [`Linter`]: runs prolog/lint_child.pl on a submission's files in crib-sandbox's jail
//! and turns what it says into findings.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crib_results::{Finding, Lint};
use crib_sandbox::{self as sandbox, Isolation, IsolationChoice, Jail, Mounts, Rlimits, WorkDir};

use crate::check::{findings, LintConfig};
use crate::facts::Facts;

/// The child program, built into the linter so that it always matches it.
pub const CHILD: &str = include_str!("../../../prolog/lint_child.pl");

/// The Prolog library every child program loads, prolog/child_lib.pl (card notation, message
/// text, the frame writer, loading a submission); written beside each child. crib-grade's
/// children load it too.
pub const CHILD_LIB: &str = include_str!("../../../prolog/child_lib.pl");

/// The most output read from a child (facts and whatever the submission printed).
const MAX_OUTPUT: u64 = 8 << 20;

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

/// Lints submissions: owns a sandbox and a private work directory with the child program.
#[derive(Debug)]
pub struct Linter {
    jail: Jail,
    dir: WorkDir,
    config: LintConfig,
    limits: LintLimits,
}

impl Linter {
    /// Returns a linter running `swipl` in the isolation chosen, with the default
    /// [`LintConfig`] and [`LintLimits`].
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
            jail,
            dir,
            config: LintConfig::default(),
            limits: LintLimits::default(),
        })
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

    /// Adds Landlock under bubblewrap, as [`Jail::confine_with`] does.
    ///
    /// # Errors
    /// [`LintError::Sandbox`] saying why the layer could not be added; the linter keeps its
    /// isolation as it was.
    pub fn confine_with(&mut self, program: &Path) -> Result<(), LintError> {
        Ok(self.jail.confine_with(program, self.dir.path())?)
    }

    /// The isolation in force.
    pub fn isolation(&self) -> Isolation {
        self.jail.isolation
    }

    /// The configuration in force.
    pub fn config(&self) -> &LintConfig {
        &self.config
    }

    /// Lints submission `name`: the `.pl` files `files` (relative to `root`, loaded in that
    /// order) as worker `slot` (each worker of a pool has its own slot). Never fails: a
    /// child that cannot be started, crashes or runs out of time gives an `E002` finding.
    pub fn lint(&self, slot: u32, name: &str, root: &Path, files: &[String]) -> Lint {
        let mut texts = Vec::new();
        for file in files {
            let text = fs::read(root.join(file)).unwrap_or_default();
            texts.push((file.clone(), String::from_utf8_lossy(&text).into_owned()));
        }
        let e002 =
            |why: String| Finding::not_checked(files.first().cloned().unwrap_or_default(), &why);
        let mut found = match self.run_child(slot, root, files) {
            Ok(output) => {
                let mut found = findings(&Facts::parse(&output), &texts, &self.config);
                if !output.lines().any(|l| l == "done") {
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

    /// Runs the child on a copy of the files; returns what it printed, with the paths it
    /// saw turned back into the names in `files`.
    fn run_child(&self, slot: u32, root: &Path, files: &[String]) -> Result<String, String> {
        let work = self.dir.path().join(format!("slot-{slot}"));
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
        self.jail
            .hand_over(&work, slot)
            .map_err(|e| format!("cannot hand the copy over to the sandbox: {e}"))?;
        self.jail
            .give_scratch(&scratch, slot)
            .map_err(|e| format!("cannot give the scratch directory away: {e}"))?;
        let grader = self.dir.path().join("linter");
        let mounts = Mounts {
            grader: &grader,
            submission: &copy,
            scratch: &scratch,
        };
        let inside = self.jail.submission_dir(&mounts);
        let mut args = vec![
            format!("--stack-limit={}k", self.limits.memory / 2 / 1024),
            "--no-tty".into(),
            "-q".into(),
            self.jail
                .inside(&mounts, &grader.join("lint_child.pl"))
                .display()
                .to_string(),
            "--".into(),
        ];
        args.extend(files.iter().map(|f| inside.join(f).display().to_string()));
        let rlimits = Rlimits {
            memory: self.limits.memory,
            cpu: self.limits.cpu,
            file_size: 1 << 20,
            processes: 64,
        };
        let mut cmd = self.jail.command(&mounts, &args, rlimits, slot, None);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let result = run(cmd, self.limits.wall, self.jail.isolation);
        self.jail.sweep(slot);
        let _ = fs::remove_dir_all(&work);
        let output = result?;
        Ok(output.replace(&format!("{}/", inside.display()), ""))
    }
}

/// Runs `cmd` (in a process group of its own) to its end or until `wall` has passed;
/// returns its output, or why there is none worth reading.
fn run(
    mut cmd: std::process::Command,
    wall: Duration,
    isolation: Isolation,
) -> Result<String, String> {
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start swipl: {e}"))?;
    let pid = child.id() as i32;
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(s) = stdout {
            let _ = s.take(MAX_OUTPUT).read_to_end(&mut out);
        }
        out
    });
    let deadline = Instant::now() + wall;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    if status.is_none() {
        // SAFETY: kill only sends a signal, to the child's own process group.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = child.wait();
    }
    let out = reader.join().unwrap_or_default();
    let output = String::from_utf8_lossy(&out).into_owned();
    match status.map(|s| isolation.program_status(s)) {
        None => Err(format!(
            "loading it did not finish within {} s",
            wall.as_secs()
        )),
        Some(s) if s.success() => Ok(output),
        Some(s) if output.lines().any(|l| l.starts_with("term\t")) => {
            // Read, but halted or crashed afterwards (e.g. `halt` in a directive while
            // the cross-reference ran): the facts so far still hold.
            let _ = s;
            Ok(output)
        }
        Some(s) => Err(format!("swipl ended with {s} before reading the file")),
    }
}
