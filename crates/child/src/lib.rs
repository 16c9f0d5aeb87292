//! One jailed Prolog child at a time, in a worker's lane: the one way crib runs student code.
//!
//! A [`Lane`] stages a submission ([`Lane::stage`]) and runs a [`Program`] there
//! ([`Lane::run`]): swipl's argv, a frame pipe of the child's own, its frames handed to the
//! caller's [`Reader`] under the reader's deadline, the child killed when it is over or
//! silent and what it left behind ended. It knows swipl's command line and the frame pipe,
//! and nothing of tests, verdicts or marks. The crate's README is its codemap.

#![deny(missing_docs)]

use std::io::{self, BufRead, BufReader, PipeReader, Read};
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crib_isolation::Isolation;
#[cfg(doc)]
use crib_sandbox::Jail;
use serde::de::DeserializeOwned;

mod lane;

pub use lane::{Death, End, Finished, Flow, Lane, Program, Reader, StageFailure, COPY};

/// The Prolog library every child program loads, prolog/child_lib.pl (card notation, message
/// text, the frame writer, loading a submission with halt/0,1 made to raise): written as
/// `child_lib.pl` beside the child programs in the grader's directory.
pub const CHILD_LIB: &str = include_str!("../../../prolog/child_lib.pl");

/// The child that answers a submission's items, prolog/answer_child.pl: every hand_value/3
/// and select_hand/3 question crib-grade asks (the select_hand tests, the marked hand_value
/// check, the deep check), written as `answer_child.pl` in the grader's directory.
pub const ANSWER_CHILD: &str = include_str!("../../../prolog/answer_child.pl");

/// The lint child, prolog/lint_child.pl (the reader and cross-reference facts crib-lint
/// checks), written as `lint_child.pl` in the linter's (or grader's) directory.
pub const LINT_CHILD: &str = include_str!("../../../prolog/lint_child.pl");

/// How a [`Jail`] checks that swipl starts: it must halt at once with status 0.
pub const SWIPL_PROBE: &[&str] = &["--no-tty", "-q", "-g", "halt"];

/// The most bytes of a child's stdout and stderr kept, each.
pub const MAX_OUTPUT: usize = 4096;
/// About how many bytes of the end of stderr are kept, for [`Death::stderr_tail`].
const TAIL_BYTES: usize = 1024;
/// How often the frame loop looks whether the child has exited.
const POLL: Duration = Duration::from_millis(50);
/// How long after the child exits the frame loop still waits for frames it wrote.
const EXIT_GRACE: Duration = Duration::from_millis(200);
/// The longest frame read from a child; longer lines are dropped.
pub const MAX_FRAME: u64 = 1 << 20;
/// The most frames read ahead of the caller; the reading thread then waits.
const MAX_QUEUED: usize = 256;

/// Returns a pipe for a child's frames: the read end, and the write end the child inherits
/// (and opens as `/proc/self/fd/N`, the descriptor keeping its number).
pub(crate) fn frame_pipe() -> io::Result<(PipeReader, OwnedFd)> {
    io::pipe().map(|(reader, writer)| (reader, writer.into()))
}

/// The start and the end of what a child printed on one stream.
#[derive(Debug, Default)]
pub(crate) struct Captured {
    head: Vec<u8>,
    tail: Vec<u8>,
}

/// A running child, the thread reading its frames (of type `F`) and the threads draining
/// its stdout and stderr.
#[derive(Debug)]
pub(crate) struct Child<F> {
    process: std::process::Child,
    frames: Receiver<F>,
    stdout: Arc<Mutex<Captured>>,
    pub(crate) stderr: Arc<Mutex<Captured>>,
    /// When the child was first seen to have exited.
    exited_at: Option<Instant>,
    /// The isolation it runs in, to read its exit status the same way in every mode.
    isolation: Isolation,
}

impl<F: DeserializeOwned + Send + 'static> Child<F> {
    /// Starts `cmd` (which must let the child inherit `pipe`'s write end, start it in a
    /// process group of its own, and run in `isolation`: statuses are read with
    /// [`Isolation::program_status`]) with stdin closed and stdout and stderr drained, then
    /// closes the caller's copy of the write end so that the frames end when the child (and
    /// everything it started) is gone. The child's process group is recorded until the
    /// child is dropped, so that [`crib_sandbox::shutdown`] kills it.
    ///
    /// # Errors
    /// As [`Command::spawn`]; `Interrupted` once [`crib_sandbox::shutdown`] has run.
    pub(crate) fn spawn(
        mut cmd: Command,
        (reader, writer): (PipeReader, OwnedFd),
        isolation: Isolation,
    ) -> io::Result<Child<F>> {
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
    pub(crate) fn next_frame(&mut self, wait: Duration) -> Result<F, RecvTimeoutError> {
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
    pub(crate) fn kill(&mut self) -> Option<ExitStatus> {
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
    pub(crate) fn wait_briefly(&mut self) -> Option<ExitStatus> {
        let end = Instant::now() + Duration::from_secs(1);
        loop {
            match self.process.try_wait() {
                Ok(Some(status)) => return Some(self.isolation.program_status(status)),
                Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Returns the first [`MAX_OUTPUT`] bytes the child printed on stdout and on stderr,
    /// so far.
    pub(crate) fn output(&self) -> [(&'static str, Vec<u8>); 2] {
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

/// Returns the last lines (at most three, 400 characters) of what `stderr` kept, joined with
/// ` / `, after giving the draining thread a moment to read what a dying child wrote last.
fn stderr_tail(stderr: &Mutex<Captured>) -> String {
    thread::sleep(Duration::from_millis(20));
    let bytes = stderr.lock().map(|b| b.tail.clone()).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    let joined = lines[start..].join(" / ");
    joined.chars().take(400).collect()
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
/// `MAX_QUEUED` frames wait, so a child flooding the pipe cannot fill the caller's memory.
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
