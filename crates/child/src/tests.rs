use super::*;

use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;

/// The frames of these tests.
#[derive(Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Frame {
    Start { test: usize },
}

fn sh(script: &str) -> Command {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", script]).process_group(0);
    cmd
}

/// Returns `sh(script)` keeping the frame pipe's writer `fd` open across exec, as the
/// sandbox does.
fn sh_with_pipe(script: &str, fd: i32) -> Command {
    let mut cmd = sh(script);
    // SAFETY: between fork and exec only async-signal-safe calls: fcntl.
    unsafe {
        cmd.pre_exec(move || {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC);
            Ok(())
        });
    }
    cmd
}

#[test]
fn keeps_the_head_of_stdout_and_the_tail_of_stderr() {
    let pipe = frame_pipe().unwrap();
    let script = "i=0; while [ $i -lt 2000 ]; do echo line$i; echo err$i >&2; i=$((i+1)); done";
    let mut child: Child<Frame> = Child::spawn(sh(script), pipe, Isolation::default()).unwrap();
    // The frame channel closes once the child and the grader's writer are gone.
    assert_eq!(
        child.next_frame(Duration::from_secs(10)),
        Err(RecvTimeoutError::Disconnected)
    );
    let status = child.wait_briefly().expect("sh exits");
    assert!(status.success());
    thread::sleep(Duration::from_millis(100));
    let [(out_name, out), (err_name, _)] = child.output();
    assert_eq!((out_name, err_name), ("stdout", "stderr"));
    assert_eq!(out.len(), MAX_OUTPUT);
    assert!(out.starts_with(b"line0\nline1\n"));
    assert_eq!(stderr_tail(&child.stderr), "err1997 / err1998 / err1999");
}

#[test]
fn frames_arrive_on_the_inherited_pipe_and_kill_ends_the_child() {
    let pipe = frame_pipe().unwrap();
    let fd = pipe.1.as_raw_fd();
    let path = format!("/proc/self/fd/{fd}");
    let cmd = sh_with_pipe(
        &format!("echo '{{\"type\":\"start\",\"test\":2}}' > {path}; exec sleep 60"),
        fd,
    );
    let mut child: Child<Frame> = Child::spawn(cmd, pipe, Isolation::default()).unwrap();
    let frame = child.next_frame(Duration::from_secs(10)).unwrap();
    assert_eq!(frame, Frame::Start { test: 2 });
    assert_eq!(child.wait_briefly(), None, "sleep is still running");
    let status = child.kill().expect("reaped");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
}

#[test]
fn a_leftover_holding_the_pipe_does_not_keep_the_grader_waiting() {
    let pipe = frame_pipe().unwrap();
    let fd = pipe.1.as_raw_fd();
    // The child exits at once; the sleep it leaves behind inherits the frame pipe.
    let cmd = sh_with_pipe("sleep 30 & exit 3", fd);
    let mut child: Child<Frame> = Child::spawn(cmd, pipe, Isolation::default()).unwrap();
    let asked = Instant::now();
    assert_eq!(
        child.next_frame(Duration::from_secs(20)),
        Err(RecvTimeoutError::Disconnected)
    );
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(child.wait_briefly().and_then(|s| s.code()), Some(3));
    let group = i32::try_from(child.process.id()).unwrap();
    // SAFETY: kill only sends a signal, to the sleep's group (the child's own).
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}
