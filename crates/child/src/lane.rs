//! [`Lane`]: where a submission's children run (its staged copy, a scratch directory and
//! a slot in a jail) and the one loop that runs a child there, reading its frames with the
//! caller's [`Reader`] under the reader's deadline.

use std::fs;
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crib_sandbox::{Jail, Mounts, Rlimits, Slot};
use crib_submission::{StageError, Staged, Submission};
use serde::de::DeserializeOwned;

use crate::{ended, frame_pipe, stderr_tail, Captured, Child};

/// The directory of a work directory that holds the submission's staged copy.
pub const COPY: &str = "submission";

/// Where one submission's children run, in one lane: a jail, the grader's directory (the
/// child programs and their inputs, read-only to children), the submission's copy
/// (`WORK/submission`, read-only), a scratch directory of the lane's own (`WORK/SCRATCH`,
/// writable by its children alone) and the slot its children run as.
#[derive(Debug, Clone)]
pub struct Lane<'a> {
    jail: &'a Jail,
    grader: PathBuf,
    work: PathBuf,
    copy: PathBuf,
    scratch: PathBuf,
    slot: Slot,
}

/// Why a submission could not be staged for its children ([`Lane::stage`]). The
/// messages are what a result's `load_failed` says.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StageFailure {
    /// A directory could not be made.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The submission could not be copied ([`Submission::stage`]'s checks).
    #[error(transparent)]
    Stage(#[from] StageError),
    /// The copy could not be handed over to the slot's group.
    #[error("cannot hand the copy over to the sandbox: {0}")]
    HandOver(io::Error),
    /// A scratch directory could not be given to its lane.
    #[error("cannot give the scratch directory away: {0}")]
    Scratch(io::Error),
}

impl<'a> Lane<'a> {
    /// Returns the session of `slot`'s children in `jail`, with the child programs in
    /// `grader`, the submission's copy in `work`/[`COPY`] and `work`/`scratch` to write in.
    pub fn new(jail: &'a Jail, grader: &Path, work: &Path, scratch: &str, slot: Slot) -> Self {
        Lane {
            jail,
            grader: grader.to_path_buf(),
            work: work.to_path_buf(),
            copy: work.join(COPY),
            scratch: work.join(scratch),
            slot,
        }
    }

    /// Copies `submission` into the session's work directory with [`Submission::stage`]
    /// (regular files only, links never followed, at most `max_bytes`), makes the scratch
    /// directory of this session and of each of `lanes` (other sessions on the same work
    /// directory), and hands them over: the copy readable by every lane's children, each
    /// scratch writable by its own lane's alone.
    ///
    /// # Errors
    /// [`StageFailure`] saying which step failed; nothing may then be run.
    pub fn stage(
        &self,
        submission: &Submission,
        max_bytes: u64,
        lanes: &[&Lane<'_>],
    ) -> Result<Staged, StageFailure> {
        let scratch: Vec<(&Path, Slot)> = std::iter::once(self)
            .chain(lanes.iter().copied())
            .map(|s| (s.scratch.as_path(), s.slot))
            .collect();
        for dir in std::iter::once(self.copy.as_path()).chain(scratch.iter().map(|(d, _)| *d)) {
            fs::create_dir_all(dir).map_err(|source| StageFailure::Create {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let staged = submission.stage(&self.copy, max_bytes)?;
        self.jail
            .hand_over(&self.work, self.slot)
            .map_err(StageFailure::HandOver)?;
        for (dir, slot) in scratch {
            self.jail
                .give_scratch(dir, slot)
                .map_err(StageFailure::Scratch)?;
        }
        Ok(staged)
    }

    /// Returns the grader's directory.
    pub fn grader(&self) -> &Path {
        &self.grader
    }

    /// Returns the submission's copy (`WORK/submission`).
    pub fn copy(&self) -> &Path {
        &self.copy
    }

    /// Returns what the children see: the grader's directory, the copy and the scratch.
    pub fn mounts(&self) -> Mounts<'_> {
        Mounts {
            grader: &self.grader,
            submission: &self.copy,
            scratch: &self.scratch,
        }
    }

    /// Returns `path` (in the grader's directory or the copy) as the children see it.
    pub fn inside(&self, path: &Path) -> PathBuf {
        self.jail.inside(&self.mounts(), path)
    }

    /// Returns the directory holding the submission's copy, as the children see it (the
    /// prefix to take out of the paths they report).
    pub fn submission_dir(&self) -> PathBuf {
        self.jail.submission_dir(&self.mounts())
    }

    /// Ends whatever a child of this session's slot left behind ([`Jail::end_leftovers`]):
    /// call it once no child of the slot is running, never while a sibling still works.
    pub fn end_leftovers(&self) -> bool {
        self.jail.end_leftovers(self.slot)
    }

    /// Returns swipl's arguments for `program` writing its frames to the file `pipe`:
    /// `--stack-limit=Nk --no-tty -q PROGRAM PIPE ARGS... FILES...`, paths as the child
    /// sees them; the stack limit is half of `program.rlimits.memory`.
    pub(crate) fn argv(&self, program: &Program<'_>, pipe: &str) -> Vec<String> {
        let submission = self.submission_dir();
        let mut argv = vec![
            format!("--stack-limit={}k", program.rlimits.memory / 2 / 1024),
            "--no-tty".to_string(),
            "-q".to_string(),
            self.inside(&self.grader.join(program.name))
                .display()
                .to_string(),
            pipe.to_string(),
        ];
        argv.extend(program.args.iter().cloned());
        argv.extend(
            program
                .files
                .iter()
                .map(|f| submission.join(f).display().to_string()),
        );
        argv
    }

    /// Runs one child of `program` from start to end: starts it in the jail with a frame
    /// pipe of its own, gives each frame (of type `F`) to `reader` as it comes, waiting for
    /// the next until [`Reader::deadline`], and ends when the reader says so
    /// ([`Flow::Stop`], [`Flow::Finish`]), when nothing came by the deadline (the child is
    /// killed, then [`Reader::end`] is told [`End::Silent`]) or when the child ended on its
    /// own ([`End::Exited`], with its [`Death`]). The child is then killed if it lingers,
    /// and, unless `program.siblings`, the slot's leftovers are ended (with siblings, the
    /// zombies of a child that died or went silent are reaped).
    ///
    /// # Errors
    /// When the child cannot be started: as `pipe(2)` and [`std::process::Command::spawn`];
    /// `Interrupted` once [`crib_sandbox::shutdown`] has run.
    pub fn run<F, R>(
        &self,
        program: &Program<'_>,
        reader: &mut R,
    ) -> io::Result<Finished<R::Output>>
    where
        F: DeserializeOwned + Send + 'static,
        R: Reader<F>,
    {
        let pipe = frame_pipe()?;
        let argv = self.argv(program, &format!("/proc/self/fd/{}", pipe.1.as_raw_fd()));
        let cmd = self.jail.command(
            &self.mounts(),
            &argv,
            program.rlimits,
            self.slot,
            Some(&pipe.1),
        );
        let mut child: Child<F> = Child::spawn(cmd, pipe, self.jail.isolation)?;
        reader.started();
        // It ended other than as its reader asked (it died, or went silent and was killed).
        let mut exited = false;
        let output = loop {
            let wait = reader.deadline().saturating_duration_since(Instant::now());
            match child.next_frame(wait) {
                Ok(frame) => match reader.frame(frame) {
                    Flow::Read => {}
                    Flow::Stop(output) => break output,
                    Flow::Finish(output) => {
                        // Let it exit on its own; the kill below is for a child that lingers.
                        let _ = child.wait_briefly();
                        break output;
                    }
                },
                Err(RecvTimeoutError::Timeout) => {
                    exited = true;
                    let _ = child.kill();
                    break reader.end(End::Silent);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    exited = true;
                    // Waited for briefly, then killed.
                    let status = child.wait_briefly().or_else(|| child.kill());
                    break reader.end(End::Exited(Death {
                        status,
                        stderr: &child.stderr,
                    }));
                }
            }
        };
        let _ = child.kill();
        if !program.siblings {
            self.end_leftovers();
        } else if exited {
            // Its leftovers wait for its siblings, but not its zombies: a child that dies (or
            // hangs) on every item would otherwise leave one per child, up to the process
            // limit.
            self.jail.reap_adopted(self.slot);
        }
        Ok(Finished {
            output,
            printed: child.output(),
        })
    }
}

/// A child program to run in a [`Lane`].
#[derive(Debug, Clone)]
pub struct Program<'a> {
    /// The program's file name in the grader's directory, e.g. `answer_child.pl`.
    pub name: &'a str,
    /// The program's arguments after the frame pipe's path.
    pub args: &'a [String],
    /// The submission's files to load, relative to the copy, given last.
    pub files: &'a [String],
    /// The child's limits; Prolog's stack limit is half of `rlimits.memory`.
    pub rlimits: Rlimits,
    /// Other children of the session's slot may be running beside it: the slot's leftovers
    /// are not ended after it, and the caller ends them ([`Lane::end_leftovers`]) once
    /// every sibling is done.
    pub siblings: bool,
}

/// What a [`Reader`] says after a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flow<T> {
    /// Read on, until the reader's deadline.
    Read,
    /// The session is over: the child is killed now.
    Stop(T),
    /// The child said it is done: it is given a moment to exit, then killed if it lingers.
    Finish(T),
}

/// How a child's frames ended when its reader did not end them.
#[derive(Debug)]
pub enum End<'c> {
    /// No frame came by the reader's deadline: the session killed the child.
    Silent,
    /// The child ended on its own (its frame pipe closed).
    Exited(Death<'c>),
}

/// How a child that ended on its own ended: its status and what it said last on stderr.
#[derive(Debug)]
pub struct Death<'c> {
    status: Option<ExitStatus>,
    stderr: &'c Arc<Mutex<Captured>>,
}

impl Death<'_> {
    /// Returns its exit status, read as the jail does, if it could be reaped.
    pub fn status(&self) -> Option<ExitStatus> {
        self.status
    }

    /// Returns the last lines (at most three, 400 characters) it printed on stderr, joined
    /// with ` / `.
    pub fn stderr_tail(&self) -> String {
        stderr_tail(self.stderr)
    }

    /// Returns how it ended, in words: [`ended`]'s text, then `when` (e.g. `" while
    /// loading"`), then the last lines it printed on stderr ([`Death::stderr_tail`]) after
    /// `": "` if it printed any.
    pub fn explain(&self, when: &str) -> String {
        let how = format!("{}{when}", ended(self.status));
        let tail = self.stderr_tail();
        if tail.is_empty() {
            how
        } else {
            format!("{how}: {tail}")
        }
    }
}

/// How a session's caller reads its child: what it waits for, what each frame means, and
/// what an end it did not ask for means.
pub trait Reader<F> {
    /// What the session gives back.
    type Output;

    /// Notes that the child has started (before any frame is read): deadlines count from
    /// here.
    fn started(&mut self) {}

    /// Returns when the next frame must come by; asked before each wait.
    fn deadline(&self) -> Instant;

    /// Reads one frame and says whether to read on.
    fn frame(&mut self, frame: F) -> Flow<Self::Output>;

    /// Returns the session's output when the child went silent past the deadline or ended
    /// on its own.
    fn end(&mut self, end: End<'_>) -> Self::Output;
}

/// What one child session gave.
#[derive(Debug)]
pub struct Finished<T> {
    /// The reader's output.
    pub output: T,
    /// The first [`crate::MAX_OUTPUT`] bytes the child printed on stdout and on stderr.
    pub printed: [(&'static str, Vec<u8>); 2],
}

#[cfg(test)]
mod tests;
