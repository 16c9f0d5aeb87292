use super::*;

fn sh(script: &str) -> Command {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", script]).process_group(0);
    cmd
}

use std::os::unix::process::CommandExt;

#[test]
fn keeps_the_head_of_stdout_and_the_tail_of_stderr() {
    let pipe = FramePipe::new().unwrap();
    let script = "i=0; while [ $i -lt 2000 ]; do echo line$i; echo err$i >&2; i=$((i+1)); done";
    let mut child = Child::spawn(sh(script), pipe).unwrap();
    // The frame channel closes once the child and the grader's writer are gone.
    assert!(child.frames().recv().is_err());
    let status = child.wait_briefly().expect("sh exits");
    assert!(status.success());
    thread::sleep(Duration::from_millis(100));
    let [(out_name, out), (err_name, _)] = child.output();
    assert_eq!((out_name, err_name), ("stdout", "stderr"));
    assert_eq!(out.len(), MAX_OUTPUT);
    assert!(out.starts_with(b"line0\nline1\n"));
    assert_eq!(child.stderr_tail(), "err1997 / err1998 / err1999");
}

#[test]
fn frames_arrive_on_the_inherited_pipe_and_kill_ends_the_child() {
    let pipe = FramePipe::new().unwrap();
    let path = pipe.path_in_child();
    let fd = pipe.writer().as_raw_fd();
    let mut cmd = sh(&format!(
        "echo '{{\"type\":\"start\",\"test\":2}}' > {path}; exec sleep 60"
    ));
    // SAFETY: between fork and exec only async-signal-safe calls: fcntl.
    unsafe {
        cmd.pre_exec(move || {
            // Keep the frame pipe open across exec, as the sandbox does.
            let flags = libc::fcntl(fd, libc::F_GETFD);
            libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC);
            Ok(())
        });
    }
    let mut child = Child::spawn(cmd, pipe).unwrap();
    let frame = child
        .frames()
        .recv_timeout(Duration::from_secs(10))
        .unwrap();
    assert_eq!(frame, Frame::Start { test: 2 });
    assert_eq!(child.wait_briefly(), None, "sleep is still running");
    let status = child.kill().expect("reaped");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
}
