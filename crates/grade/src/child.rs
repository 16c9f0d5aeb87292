//! One running child: its frame pipe, its stdout and stderr drained on threads of their own,
//! and killing and reaping it.

use std::io::{self, PipeReader, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crib_sandbox::{Isolation, Jail};
use std::path::Path;

use crate::limits::Limits;

use crate::protocol::{read_frames, Frame};

/// The most bytes of a child's stdout and stderr kept, each.
pub(crate) const MAX_OUTPUT: usize = 4096;
/// About how many bytes of the end of stderr are kept, for [`Child::stderr_tail`].
const TAIL_BYTES: usize = 1024;
/// How often [`Child::next_frame`] looks whether the child has exited.
const POLL: Duration = Duration::from_millis(50);
/// How long after the child exits [`Child::next_frame`] still waits for frames it wrote.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// The pipe a child writes its frames on, before the child starts.
pub(crate) struct FramePipe {
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

/// A running child and the threads reading its pipes.
pub(crate) struct Child {
    process: std::process::Child,
    frames: Receiver<Frame>,
    stdout: Arc<Mutex<Captured>>,
    stderr: Arc<Mutex<Captured>>,
    /// When the child was first seen to have exited.
    exited_at: Option<Instant>,
    /// The isolation it runs in, to read its exit status the same way in every mode.
    isolation: Isolation,
}

impl Child {
    /// Starts `cmd` (which must let the child inherit `pipe`'s writer, and runs in
    /// `isolation`: statuses are read with [`Isolation::program_status`]) with stdin closed and
    /// stdout and stderr drained, then closes the grader's copy of the writer so that the
    /// frames end when the child (and everything it started) is gone. The child's process
    /// group is recorded until the child is dropped, so that [`crate::shutdown`] kills it.
    ///
    /// # Errors
    /// As [`Command::spawn`]; `Interrupted` once [`crate::shutdown`] has run.
    pub fn spawn(mut cmd: Command, pipe: FramePipe, isolation: Isolation) -> io::Result<Child> {
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

    /// Returns the next frame the child writes, waiting at most `wait`.
    ///
    /// # Errors
    /// `Timeout` when none came within `wait`; `Disconnected` when the pipe is closed, or
    /// when the child has exited and [`EXIT_GRACE`] passed with no frame: a process it left
    /// behind may hold the pipe open, and must not keep the grader waiting.
    pub fn next_frame(&mut self, wait: Duration) -> Result<Frame, RecvTimeoutError> {
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
    /// reaps the child; returns its status, if it could be reaped.
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

impl Drop for Child {
    fn drop(&mut self) {
        if let Ok(group) = i32::try_from(self.process.id()) {
            crib_sandbox::remove_group(group);
        }
    }
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

/// Where a check after the tests runs (the deep check): the grader's sandbox and the submission's copy.
pub(crate) struct Place<'a> {
    /// The sandbox.
    pub jail: &'a Jail,
    /// The grader's directory (the child program and the batch files).
    pub grader: &'a Path,
    /// The submission's work directory (`submission/` and `scratch/` inside).
    pub work: &'a Path,
    /// The files to load, relative to the submission.
    pub files: &'a [String],
    /// The worker's slot.
    pub slot: u32,
    /// Memory and per-call limits.
    pub limits: Limits,
}

#[cfg(test)]
mod tests;
