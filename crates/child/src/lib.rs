//! One jailed Prolog child: the one way crib runs student code.
//!
//! Every `swipl` child that loads a submission (the grade child's select_hand tests, the
//! deep child's batches, the lint child) is a [`Child`] started from a [`Program`]: a
//! program in the grader's directory, its arguments and the submission's files, in
//! crib-sandbox's [`Jail`] under [`Rlimits`]. [`Child::start`] builds swipl's argv, gives the
//! child a pipe of its own for frames ([`FramePipe`]: what the submission prints cannot
//! reach it), and reads the frames (one JSON object a line, of the caller's type) on a
//! thread of its own, within size bounds; [`Child::next_frame`] waits for the next one
//! under a deadline. [`Child::kill`] stops the child, [`Program::end_leftovers`] ends whatever it
//! left behind, and [`Child::explain`] (on [`ended`]) says in words how it ended.
//!
//! It knows swipl's command line and the frame pipe, and nothing of tests, verdicts or marks.
//!
//! # Example
//! ```no_run
//! use crib_child::{Child, Program, SWIPL_PROBE};
//! use crib_sandbox::{IsolationChoice, Jail, Mounts, Rlimits, WorkDir};
//! use std::time::Duration;
//!
//! #[derive(serde::Deserialize)]
//! #[serde(tag = "type", rename_all = "snake_case")]
//! enum Frame {
//!     Done,
//! }
//!
//! let work = WorkDir::create(&std::env::temp_dir(), crib_sandbox::is_root())?;
//! let jail = Jail::new("swipl".as_ref(), SWIPL_PROBE, IsolationChoice::Auto, work.path())
//!     .map_err(std::io::Error::other)?;
//! let (grader, submission, scratch) = (work.path().join("grader"), work.path().join("s"),
//!                                      work.path().join("scratch"));
//! let mounts = Mounts { grader: &grader, submission: &submission, scratch: &scratch };
//! let program = Program {
//!     jail: &jail, mounts: &mounts, name: "child.pl", args: &[], files: &["a.pl".into()],
//!     rlimits: Rlimits::PROBE, slot: 0,
//! };
//! let mut child: Child<Frame> = Child::start(&program)?;
//! let done = matches!(child.next_frame(Duration::from_secs(5)), Ok(Frame::Done));
//! let status = child.kill();
//! program.end_leftovers();
//! if !done {
//!     eprintln!("{}", child.explain(status, ""));
//! }
//! # Ok::<(), std::io::Error>(())
//! ```

#![deny(missing_docs)]

use std::io::{self, BufRead, BufReader, PipeReader, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub use std::sync::mpsc::RecvTimeoutError;

use crib_sandbox::{Isolation, Jail, Mounts, Rlimits};
use serde::de::DeserializeOwned;

/// How a [`Jail`] checks that swipl starts: it must halt at once with status 0.
pub const SWIPL_PROBE: &[&str] = &["--no-tty", "-q", "-g", "halt"];

/// The most bytes of a child's stdout and stderr kept, each.
pub const MAX_OUTPUT: usize = 4096;
/// About how many bytes of the end of stderr are kept, for [`Child::stderr_tail`].
const TAIL_BYTES: usize = 1024;
/// How often [`Child::next_frame`] looks whether the child has exited.
const POLL: Duration = Duration::from_millis(50);
/// How long after the child exits [`Child::next_frame`] still waits for frames it wrote.
const EXIT_GRACE: Duration = Duration::from_millis(200);
/// The longest frame read from a child; longer lines are dropped.
pub const MAX_FRAME: u64 = 1 << 20;
/// The most frames read ahead of the caller; the reading thread then waits.
const MAX_QUEUED: usize = 256;

/// A swipl child to start: a program in the grader's directory, run in a jail on a
/// submission's files.
#[derive(Debug, Clone)]
pub struct Program<'a> {
    /// The jail the child runs in.
    pub jail: &'a Jail,
    /// What the child sees: `grader` holds the program (and child_lib.pl beside it),
    /// `submission` the staged copy of the submission.
    pub mounts: &'a Mounts<'a>,
    /// The program's file name in `mounts.grader`, e.g. `grade_child.pl`.
    pub name: &'a str,
    /// The program's arguments after the frame pipe's path.
    pub args: &'a [String],
    /// The submission's files to load, relative to `mounts.submission`, given last.
    pub files: &'a [String],
    /// The child's limits; Prolog's stack limit is half of `rlimits.memory`.
    pub rlimits: Rlimits,
    /// The worker's slot: the child runs as its uid when the caller runs as root.
    pub slot: u32,
}

impl Program<'_> {
    /// Returns swipl's arguments for this program writing its frames to `pipe`:
    /// `--stack-limit=Nk --no-tty -q PROGRAM PIPE ARGS... FILES...`, paths as the child
    /// sees them.
    pub fn argv(&self, pipe: &FramePipe) -> Vec<String> {
        let inside = |path: &Path| self.jail.inside(self.mounts, path).display().to_string();
        let submission = self.submission_dir();
        let mut argv = vec![
            format!("--stack-limit={}k", self.rlimits.memory / 2 / 1024),
            "--no-tty".to_string(),
            "-q".to_string(),
            inside(&self.mounts.grader.join(self.name)),
            pipe.path_in_child(),
        ];
        argv.extend(self.args.iter().cloned());
        argv.extend(
            self.files
                .iter()
                .map(|f| submission.join(f).display().to_string()),
        );
        argv
    }

    /// Returns the directory holding the submission's copy, as the child sees it (the
    /// prefix to take out of the paths it reports).
    pub fn submission_dir(&self) -> PathBuf {
        self.jail.submission_dir(self.mounts)
    }

    /// Ends whatever a child of this program's slot left behind ([`Jail::end_leftovers`]): call it
    /// once no child of the slot is running, never while a sibling still works.
    pub fn end_leftovers(&self) -> bool {
        self.jail.end_leftovers(self.slot)
    }
}

/// The pipe a child writes its frames on, before the child starts.
#[derive(Debug)]
pub struct FramePipe {
    reader: PipeReader,
    writer: OwnedFd,
}

impl FramePipe {
    /// Returns a new pipe.
    ///
    /// # Errors
    /// As `pipe(2)`.
    pub fn new() -> io::Result<FramePipe> {
        let (reader, writer) = io::pipe()?;
        Ok(FramePipe {
            reader,
            writer: writer.into(),
        })
    }

    /// Returns the write end, to be inherited by the child.
    pub fn writer(&self) -> &OwnedFd {
        &self.writer
    }

    /// Returns the path the child opens to write frames: `/proc/self/fd/N`, valid in the
    /// child because it inherits the descriptor under the same number.
    pub fn path_in_child(&self) -> String {
        format!("/proc/self/fd/{}", self.writer.as_raw_fd())
    }
}

/// The start and the end of what a child printed on one stream.
#[derive(Debug, Default)]
struct Captured {
    head: Vec<u8>,
    tail: Vec<u8>,
}

/// A running child, the thread reading its frames (of type `F`) and the threads draining
/// its stdout and stderr.
#[derive(Debug)]
pub struct Child<F> {
    process: std::process::Child,
    frames: Receiver<F>,
    stdout: Arc<Mutex<Captured>>,
    stderr: Arc<Mutex<Captured>>,
    /// When the child was first seen to have exited.
    exited_at: Option<Instant>,
    /// The isolation it runs in, to read its exit status the same way in every mode.
    isolation: Isolation,
}

impl<F: DeserializeOwned + Send + 'static> Child<F> {
    /// Starts `program` in its jail with a frame pipe of its own ([`Program::argv`]).
    ///
    /// # Errors
    /// As `pipe(2)` and [`Child::spawn`].
    pub fn start(program: &Program<'_>) -> io::Result<Child<F>> {
        let pipe = FramePipe::new()?;
        let argv = program.argv(&pipe);
        let cmd = program.jail.command(
            program.mounts,
            &argv,
            program.rlimits,
            program.slot,
            Some(pipe.writer()),
        );
        Child::spawn(cmd, pipe, program.jail.isolation)
    }

    /// Starts `cmd` (which must let the child inherit `pipe`'s writer, start it in a
    /// process group of its own, and run in `isolation`: statuses are read with
    /// [`Isolation::program_status`]) with stdin closed and stdout and stderr drained, then
    /// closes the caller's copy of the writer so that the frames end when the child (and
    /// everything it started) is gone. The child's process group is recorded until the
    /// child is dropped, so that [`crib_sandbox::shutdown`] kills it.
    ///
    /// # Errors
    /// As [`Command::spawn`]; `Interrupted` once [`crib_sandbox::shutdown`] has run.
    pub fn spawn(mut cmd: Command, pipe: FramePipe, isolation: Isolation) -> io::Result<Child<F>> {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut process = cmd.spawn()?;
        let group = i32::try_from(process.id()).unwrap_or(0);
        if !crib_sandbox::add_group(group) {
            // SAFETY: kill only sends a signal, to the group just started.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
            let _ = process.kill();
            let _ = process.wait();
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "the grader is shutting down",
            ));
        }
        let FramePipe { reader, writer } = pipe;
        drop(writer);
        let frames = read_frames(reader);
        let stdout = drain(process.stdout.take());
        let stderr = drain(process.stderr.take());
        Ok(Child {
            process,
            frames,
            stdout,
            stderr,
            exited_at: None,
            isolation,
        })
    }
}

impl<F> Child<F> {
    /// Returns the next frame the child writes, waiting at most `wait`.
    ///
    /// # Errors
    /// `Timeout` when none came within `wait`; `Disconnected` when the pipe is closed, or
    /// when the child has exited and [`EXIT_GRACE`] passed with no frame: a process it left
    /// behind may hold the pipe open, and must not keep the caller waiting.
    pub fn next_frame(&mut self, wait: Duration) -> Result<F, RecvTimeoutError> {
        let end = Instant::now() + wait;
        loop {
            let slice = end.saturating_duration_since(Instant::now()).min(POLL);
            match self.frames.recv_timeout(slice) {
                Err(RecvTimeoutError::Timeout) => {}
                received => return received,
            }
            match self.exited_at {
                Some(at) if at.elapsed() >= EXIT_GRACE => {
                    return Err(RecvTimeoutError::Disconnected)
                }
                Some(_) => {}
                None => {
                    if matches!(self.process.try_wait(), Ok(Some(_))) {
                        self.exited_at = Some(Instant::now());
                    }
                }
            }
            if Instant::now() >= end {
                return Err(RecvTimeoutError::Timeout);
            }
        }
    }

    /// Kills the child's process group (bubblewrap takes its namespace down with it) and
    /// reaps the child; returns its status, if it could be reaped. Calling it again returns
    /// the same status.
    pub fn kill(&mut self) -> Option<ExitStatus> {
        if let Ok(pid) = i32::try_from(self.process.id()) {
            // SAFETY: kill only sends a signal; the group is the child's own
            // (process_group(0)).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.process.kill();
        let status = self.process.wait().ok()?;
        Some(self.isolation.program_status(status))
    }

    /// Waits up to a second for a child whose pipe closed; `None` if it is still running.
    pub fn wait_briefly(&mut self) -> Option<ExitStatus> {
        let end = Instant::now() + Duration::from_secs(1);
        loop {
            match self.process.try_wait() {
                Ok(Some(status)) => return Some(self.isolation.program_status(status)),
                Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Returns the status of a child whose pipe closed: it is waited for briefly, then
    /// killed ([`Child::wait_briefly`], [`Child::kill`]).
    pub fn ended(&mut self) -> Option<ExitStatus> {
        self.wait_briefly().or_else(|| self.kill())
    }

    /// Returns how the child ended, in words: [`ended`]'s text for `status`, then `when`
    /// (e.g. `" while loading"`), then the last lines it printed on stderr
    /// ([`Child::stderr_tail`]) after `": "` if it printed any.
    pub fn explain(&self, status: Option<ExitStatus>, when: &str) -> String {
        let how = format!("{}{when}", ended(status));
        let tail = self.stderr_tail();
        if tail.is_empty() {
            how
        } else {
            format!("{how}: {tail}")
        }
    }

    /// Returns the last lines (at most three, 400 characters) the child printed on stderr,
    /// joined with ` / `.
    pub fn stderr_tail(&self) -> String {
        // Give the draining thread a moment to read what a dying child wrote last.
        thread::sleep(Duration::from_millis(20));
        let bytes = self
            .stderr
            .lock()
            .map(|b| b.tail.clone())
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let start = lines.len().saturating_sub(3);
        let joined = lines[start..].join(" / ");
        joined.chars().take(400).collect()
    }

    /// Returns the first [`MAX_OUTPUT`] bytes the child printed on stdout and on stderr,
    /// so far.
    pub fn output(&self) -> [(&'static str, Vec<u8>); 2] {
        let head =
            |kept: &Arc<Mutex<Captured>>| kept.lock().map(|b| b.head.clone()).unwrap_or_default();
        [
            ("stdout", head(&self.stdout)),
            ("stderr", head(&self.stderr)),
        ]
    }
}

impl<F> Drop for Child<F> {
    fn drop(&mut self) {
        if let Ok(group) = i32::try_from(self.process.id()) {
            crib_sandbox::remove_group(group);
        }
    }
}

/// Returns how a swipl child ended, in words: `swipl exited with status N`, `swipl was
/// killed by signal N`, or `swipl ended` when the status says neither or is unknown
/// (`None`). Read `status` as the jail does ([`Isolation::program_status`]).
///
/// # Example
/// ```
/// use std::os::unix::process::ExitStatusExt;
/// use std::process::ExitStatus;
/// assert_eq!(crib_child::ended(Some(ExitStatus::from_raw(9))), "swipl was killed by signal 9");
/// assert_eq!(crib_child::ended(Some(ExitStatus::from_raw(1 << 8))), "swipl exited with status 1");
/// assert_eq!(crib_child::ended(None), "swipl ended");
/// ```
pub fn ended(status: Option<ExitStatus>) -> String {
    match status.map(|s| (s.code(), s.signal())) {
        Some((Some(code), _)) => format!("swipl exited with status {code}"),
        Some((_, Some(signal))) => format!("swipl was killed by signal {signal}"),
        _ => "swipl ended".to_string(),
    }
}

/// Reads frames of type `F` (one JSON object a line) on a thread of its own. The channel
/// closes at end of file (or on a read error); lines that are not a frame are dropped,
/// lines longer than [`MAX_FRAME`] are cut and so dropped as not JSON, and at most
/// [`MAX_QUEUED`] frames wait, so a child flooding the pipe cannot fill the caller's memory.
pub fn read_frames<F: DeserializeOwned + Send + 'static>(
    reader: impl Read + Send + 'static,
) -> Receiver<F> {
    let (tx, rx) = mpsc::sync_channel(MAX_QUEUED);
    thread::spawn(move || {
        let mut reader = BufReader::new(reader);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.by_ref().take(MAX_FRAME).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if let Ok(frame) = serde_json::from_slice::<F>(&line) {
                        if tx.send(frame).is_err() {
                            break;
                        }
                    }
                }
            }
        }
    });
    rx
}

/// Reads a stream to its end on a thread of its own, keeping the first [`MAX_OUTPUT`] bytes
/// and the last [`TAIL_BYTES`] or so.
fn drain(stream: Option<impl Read + Send + 'static>) -> Arc<Mutex<Captured>> {
    let kept = Arc::new(Mutex::new(Captured::default()));
    if let Some(mut stream) = stream {
        let kept = Arc::clone(&kept);
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut kept) = kept.lock() {
                    let room = MAX_OUTPUT.saturating_sub(kept.head.len());
                    kept.head.extend_from_slice(&buf[..n.min(room)]);
                    kept.tail.extend_from_slice(&buf[..n]);
                    let excess = kept.tail.len().saturating_sub(TAIL_BYTES);
                    kept.tail.drain(..excess);
                }
            }
        });
    }
    kept
}

#[cfg(test)]
mod tests;
