//! The grader's robustness: hostile paths in a submissions folder, an empty folder, grading
//! without namespaces (rlimits only), interrupted and killed runs leaving nothing behind.
//! Nothing here measures time, so these run beside the other test binaries; the timing tests
//! (timing.rs) run alone.

mod common;

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{corpus_dir, sleeper};
use crib_grade::{discover, FailureKind, IsolationChoice, Limits, Session, SubmissionResult};

#[test]
fn rlimits_only_still_grades_and_says_so() {
    let limits = Limits {
        hand_value: Duration::from_secs(1),
        select_hand: Duration::from_secs(2),
        ..Limits::default()
    };
    let grader = common::grader(IsolationChoice::Rlimits, limits);
    assert!(!grader.isolation().bwrap);
    let subs = discover(
        &[
            corpus_dir().join("correct.pl"),
            corpus_dir().join("halt_exit.pl"),
        ],
        false,
    )
    .unwrap();
    let correct = grader.grade(&subs[0], 7);
    assert_eq!(correct.marks.total, 70.0);
    assert_eq!(correct.isolation, grader.isolation());
    let halting = grader.grade(&subs[1], 7);
    let hv = halting.hand_value.as_ref().unwrap();
    assert_eq!(hv.kinds[0].kind, FailureKind::Crashed, "{:?}", hv.kinds);
    assert!(hv.counterexamples[0].got.contains("status 9"));
    assert!(hv.children >= 3);
}

/// Makes `path` a FIFO.
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo only reads the NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// Runs `f` on a thread of its own and returns its value, or fails the test if it takes
/// longer than `secs`: a hang is a failure, not a stuck test run.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("still running after {secs} s: it hangs"))
}

#[test]
fn hostile_paths_never_hang_or_leak() {
    let keep = tempfile::tempdir().unwrap();
    let subs = keep.path().join("subs");
    let outside = keep.path().join("outside");
    std::fs::create_dir_all(&subs).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let correct = corpus_dir().join("correct.pl");
    std::fs::copy(&correct, outside.join("correct.pl")).unwrap();
    std::fs::write(outside.join("secret.pl"), "% SECRET-OUTSIDE\n").unwrap();
    // Top level: a FIFO, links to a host file, to /dev/zero and to a folder outside.
    mkfifo(&subs.join("fifo.pl"));
    std::os::unix::fs::symlink("/etc/passwd", subs.join("passwd.pl")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", subs.join("zero.pl")).unwrap();
    std::os::unix::fs::symlink(&outside, subs.join("linked")).unwrap();
    // Too big: real bytes just over the limit, and a sparse 3 GiB file.
    std::fs::write(subs.join("big.pl"), vec![b'%'; (8 << 20) + 1]).unwrap();
    std::fs::File::create(subs.join("sparse.pl"))
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    // Nested: a correct submission with a link to a file outside and a FIFO beside it.
    let nested = subs.join("nested");
    std::fs::create_dir_all(nested.join("lib")).unwrap();
    std::fs::copy(&correct, nested.join("main.pl")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.pl"), nested.join("lib/secret.pl")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.pl"), nested.join("secret.pl")).unwrap();
    mkfifo(&nested.join("pipe.pl"));
    std::fs::copy(&correct, subs.join("ok.pl")).unwrap();

    let session = Session {
        jobs: NonZeroUsize::new(1).unwrap(),
        ..Session::new(keep.path().join("results"))
    };
    let found = session.survey(std::slice::from_ref(&subs), false).unwrap();
    let names: Vec<&str> = found.submissions.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["big", "nested", "ok", "sparse"]);
    let skipped: Vec<String> = found.skipped.iter().map(|s| s.to_string()).collect();
    for name in ["fifo.pl", "linked", "passwd.pl", "zero.pl"] {
        assert!(
            skipped.iter().any(|s| s.contains(name)),
            "{name} not reported as skipped: {skipped:?}"
        );
    }
    assert!(skipped.iter().any(|s| s.contains("FIFO")), "{skipped:?}");
    let limits = Limits {
        select_hand: Duration::from_secs(2),
        ..Limits::default()
    };
    // -j 1: a FIFO or a device would block every later submission; all must finish.
    let reports = within(300, move || {
        let grader = common::grader(IsolationChoice::Auto, limits);
        let started = std::time::Instant::now();
        let graded = session.grade(&grader, &found.submissions, &mut ()).unwrap();
        (graded.reports, started.elapsed())
    });
    let (reports, elapsed) = reports;
    let by_name: BTreeMap<&str, &SubmissionResult> =
        reports.iter().map(|r| (r.name.as_str(), r)).collect();
    for name in ["big", "sparse"] {
        let why = by_name[name]
            .load
            .load_failed
            .as_deref()
            .unwrap_or_default();
        assert!(
            why.starts_with("too big") && why.contains("8 MiB"),
            "{name}: {why}"
        );
        assert!(by_name[name]
            .tests
            .iter()
            .all(|t| t.verdict.name() == "not_run"));
    }
    assert_eq!(by_name["ok"].marks.total, 70.0);
    let n = by_name["nested"];
    assert_eq!(n.marks.total, 70.0, "{:?}", n.load);
    assert_eq!(n.load.files, ["main.pl"]);
    let skipped: Vec<String> = n.load.skipped.iter().map(|s| s.to_string()).collect();
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    assert!(skipped
        .iter()
        .any(|s| s.starts_with("lib/secret.pl: a symbolic link")));
    assert!(skipped.iter().any(|s| s.starts_with("pipe.pl: a FIFO")));
    assert!(n.problems().contains(&"3 skipped".to_string()));
    for r in &reports {
        assert!(
            !r.output.contains("SECRET-OUTSIDE"),
            "{}: an outside file was read",
            r.name
        );
        assert!(
            !r.output.contains("root:x:0:0"),
            "{}: /etc/passwd was read",
            r.name
        );
    }
    eprintln!("hostile paths graded in {:.1} s", elapsed.as_secs_f64());
}

#[test]
fn an_empty_folder_has_no_submission() {
    let keep = tempfile::tempdir().unwrap();
    let empty = keep.path().join("empty");
    let notes = keep.path().join("notes");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::create_dir_all(&notes).unwrap();
    std::fs::write(notes.join("README.txt"), "no prolog here").unwrap();
    let session = Session::new(keep.path().join("results"));
    let found = session
        .survey(&[empty.clone(), notes.clone()], false)
        .unwrap();
    assert!(found.submissions.is_empty());
    assert_eq!(found.empty, [empty, notes]);
}

/// Run as a separate process by the tests below (`CRIB_GRADE_HELPER` set): grades a
/// submission that sleeps 30 s in its hand_value calls with four fives, printing its work directory first; with
/// `shutdown`, a thread calls [`crib_grade::shutdown`] once the child runs and exits 143,
/// as `crib grade` does on SIGTERM. Without the variable it does nothing.
#[test]
fn helper_grader_process() {
    let Ok(mode) = std::env::var("CRIB_GRADE_HELPER") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sleeper.pl");
    std::fs::write(&path, sleeper(30.0)).unwrap();
    let limits = Limits {
        hand_value: Duration::from_secs(60),
        ..Limits::default()
    };
    let grader = common::grader(IsolationChoice::Rlimits, limits);
    println!("WORK {}", grader.work_dir().display());
    if mode == "sweep" {
        return;
    }
    if mode == "shutdown" {
        let work = grader.work_dir().to_path_buf();
        std::thread::spawn(move || {
            // Once the child has its directory, as a signal could come at any time.
            while std::fs::read_dir(&work).map_or(0, |d| d.count()) < 3 {
                std::thread::sleep(Duration::from_millis(50));
            }
            std::thread::sleep(Duration::from_millis(500));
            crib_grade::shutdown();
            std::process::exit(143);
        });
    }
    grader.grade(&discover(&[path], false).unwrap()[0], 0);
}

/// Starts [`helper_grader_process`] in `mode` with its temporary directory in `tmp`;
/// returns the process and its work directory.
fn helper(mode: &str, tmp: &Path) -> (std::process::Child, PathBuf) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "helper_grader_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CRIB_GRADE_HELPER", mode)
        .env("TMPDIR", tmp)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let work = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.split_once("WORK ").map(|(_, w)| PathBuf::from(w)))
        .expect("the helper prints its work directory");
    // Read the rest, so the helper never writes to a closed pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, work)
}

/// Returns the work directories in `tmp`.
fn work_dirs(tmp: &Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(crib_grade::WORK_PREFIX))
        .collect()
}

#[test]
fn interrupted_runs_leave_no_work_dir() {
    let tmp = tempfile::tempdir().unwrap();
    {
        // Children of another uid pass through the temporary directory, as through /tmp.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    }
    // The signal path: shutdown() kills the child and removes the directory.
    let (mut child, work) = helper("shutdown", tmp.path());
    let status = within(60, move || child.wait().unwrap());
    assert_eq!(status.code(), Some(143));
    assert!(!work.exists(), "shutdown left {}", work.display());
    assert!(
        work_dirs(tmp.path()).is_empty(),
        "{:?}",
        work_dirs(tmp.path())
    );
    // SIGKILL: nothing can clean up; the next grader does.
    let (mut child, work) = helper("grade", tmp.path());
    while std::fs::read_dir(&work).map_or(0, |d| d.count()) < 3 {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        work.exists(),
        "the killed grader's directory stays until the next run"
    );
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&work).unwrap().permissions().mode() & 0o777;
        assert!(mode == 0o700 || mode == 0o711, "{mode:o}");
    }
    let (mut next, next_work) = helper("sweep", tmp.path());
    assert!(next.wait().unwrap().success());
    assert!(
        !work.exists(),
        "the next grader did not sweep {}",
        work.display()
    );
    assert!(!next_work.exists());
    assert!(
        work_dirs(tmp.path()).is_empty(),
        "{:?}",
        work_dirs(tmp.path())
    );
    // The sleeping children died with their graders.
    let sleeping = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .any(|cmd| {
            cmd.windows(work.as_os_str().len())
                .any(|w| w == work.as_os_str().as_encoded_bytes())
        });
    assert!(!sleeping, "a child outlived its grader");
}
