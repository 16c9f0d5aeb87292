//! The grader's robustness: hostile paths in a submissions folder, an empty folder, grading
//! without namespaces (rlimits only), interrupted and killed runs leaving nothing behind, a
//! memory hog in a small memory cgroup, the marked check beside tests whose children die.
//! Nothing here measures time, so these run beside the other test binaries; the timing tests
//! (timing.rs) run alone.

mod common;

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{corpus_dir, sleeper};
use crib_grade::{Limits, Session};
use crib_isolation::IsolationChoice;
use crib_results::{FailureKind, SubmissionResult, Verdict};
use crib_submission::discover;

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
    let correct = grader.grade(&subs[0], worker(7));
    assert_eq!(correct.marks.total, 70.0);
    assert_eq!(correct.isolation, grader.isolation());
    // Every result says which crib and which SWI-Prolog graded it.
    let producer = correct.produced_by.as_ref().unwrap();
    assert_eq!(producer.crib, env!("CARGO_PKG_VERSION"));
    assert!(!producer.commit.is_empty());
    assert!(
        producer.swipl.starts_with("SWI-Prolog version ")
            && producer.swipl_version().split('.').count() == 3,
        "{producer}"
    );
    let halting = grader.grade(&subs[1], worker(7));
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
    assert!(n.problems().iter().any(|p| p.text == "3 skipped"));
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
/// `shutdown`, a thread calls [`crib_sandbox::shutdown`] once the child runs and exits 143,
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
    if mode == "remove_stale" {
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
            crib_sandbox::shutdown();
            std::process::exit(143);
        });
    }
    grader.grade(&discover(&[path], false).unwrap()[0], worker(0));
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
        .filter(|n| n.starts_with(crib_sandbox::WORK_PREFIX))
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
    let (mut next, next_work) = helper("remove_stale", tmp.path());
    assert!(next.wait().unwrap().success());
    assert!(
        !work.exists(),
        "the next grader did not remove {}",
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

// ---- memory in a small cgroup ----

/// A memory cgroup (v1) of its own for the calling thread, removed on drop; children the
/// thread starts are in it.
struct ThreadCgroup {
    dir: PathBuf,
    parent: PathBuf,
}

impl ThreadCgroup {
    /// Moves the calling thread into a new memory cgroup limited to `bytes`, or returns None
    /// where cgroups cannot be created (not root, cgroup v2 only, read-only mount).
    fn new(bytes: u64) -> Option<ThreadCgroup> {
        let mine = std::fs::read_to_string("/proc/thread-self/cgroup").ok()?;
        let path = mine
            .lines()
            .find_map(|l| l.split_once(":memory:").map(|(_, p)| p.to_string()))?;
        let parent = Path::new("/sys/fs/cgroup/memory").join(path.trim_start_matches('/'));
        let dir = parent.join(format!("crib-grade-test-{}", std::process::id()));
        std::fs::create_dir(&dir).ok()?;
        let group = ThreadCgroup { dir, parent };
        std::fs::write(group.dir.join("memory.limit_in_bytes"), bytes.to_string()).ok()?;
        // SAFETY: gettid only returns the calling thread's id.
        let tid = unsafe { libc::gettid() };
        std::fs::write(group.dir.join("tasks"), tid.to_string()).ok()?;
        Some(group)
    }

    /// Returns how many times the kernel's OOM killer struck in the cgroup.
    fn oom_kills(&self) -> u64 {
        std::fs::read_to_string(self.dir.join("memory.oom_control"))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("oom_kill "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for ThreadCgroup {
    fn drop(&mut self) {
        // SAFETY: as above.
        let tid = unsafe { libc::gettid() };
        let _ = std::fs::write(self.parent.join("tasks"), tid.to_string());
        let _ = std::fs::remove_dir(&self.dir);
    }
}

#[test]
fn a_memory_hog_in_a_small_cgroup_gets_memory_and_the_run_completes() {
    // Smaller than the default child limit (1 GiB), as Gradescope's 768 MB container is.
    let cgroup_bytes: u64 = 512 << 20;
    let real = ThreadCgroup::new(cgroup_bytes);
    let limit = match &real {
        Some(_) => crib_sandbox::memory_limit_in(
            &std::fs::read_to_string("/proc/thread-self/cgroup").unwrap(),
            Path::new("/sys/fs/cgroup"),
        ),
        // Where no cgroup can be made, a simulated memory.max.
        None => {
            eprintln!("no writable memory cgroup here: simulating memory.max");
            let root = tempfile::tempdir().unwrap();
            std::fs::write(root.path().join("memory.max"), cgroup_bytes.to_string()).unwrap();
            crib_sandbox::memory_limit_in("0::/\n", root.path())
        }
    };
    assert_eq!(limit, Some(cgroup_bytes));
    let fit = crib_sandbox::MemoryFit::new(Limits::default().memory, 2, limit);
    assert!(
        fit.reduced && fit.per_child * fit.workers as u64 <= cgroup_bytes / 4 * 3,
        "{fit}"
    );
    let limits = Limits {
        hand_value: Duration::from_secs(8),
        memory: fit.per_child,
        ..Limits::default()
    };
    let grader = common::grader(IsolationChoice::Auto, limits);
    let subs = discover(&[corpus_dir().join("memory_hog.pl")], false).unwrap();
    let r = grader.grade(&subs[0], worker(5));
    let hv = r.hand_value.as_ref().unwrap();
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.items)).collect();
    assert_eq!(
        kinds,
        [(FailureKind::Memory, 2)],
        "the two blow-ups, and nothing else"
    );
    for t in &r.tests {
        assert_eq!(t.verdict, Verdict::Pass, "{}", t.id);
    }
    if let Some(group) = &real {
        assert_eq!(group.oom_kills(), 0, "the cgroup's OOM killer struck");
    }
}

// ---- the marked check beside the tests (issue 41) ----

/// A select_hand/3 that leaves a `sleep` behind and exits on every deal (a halt the child
/// cannot see coming), beside a correct
/// hand_value/3, graded on two cores: the marked hand_value check runs beside the children
/// the tests start one after another, each one's end killing every process of its uid. The
/// check's children, in the worker's second lane, lose nothing (with one uid for both, the
/// check's children die with the tests' leftovers).
#[test]
fn ending_the_tests_leftovers_never_touches_the_check_beside_them() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string(corpus_dir().join("correct.pl")).unwrap();
    let text = correct.replace("select_hand(", "unused_select_hand(")
        + "\nselect_hand(_, _, _) :- catch(shell('sleep 30 &'), _, true), G =.. [halt, 3], call(G).\n";
    let path = dir.path().join("halting_select.pl");
    std::fs::write(&path, text).unwrap();
    // Without namespaces, as on Gradescope: under bubblewrap a child's PID namespace ends
    // its processes, and the uid's are never needed.
    let limits = Limits {
        select_hand_deals: Some(16),
        ..Limits::default()
    };
    let grader = common::grader(IsolationChoice::Rlimits, limits);
    let subs = discover(&[path], false).unwrap();
    let r = grader.grade_on(&subs[0], worker(3), NonZeroUsize::new(2).unwrap());
    assert!(r.load.missing_predicate.is_empty(), "{:?}", r.load);
    let hv = r.hand_value.as_ref().unwrap();
    // One child on the core the tests leave it, and at most one more on the tests' core once
    // they are done; none ended early (with one uid for both lanes: more, each killed child's
    // items asked again by another).
    assert!(hv.children <= 2, "{} children", hv.children);
    assert_eq!(
        (hv.checked, hv.share_wrong, hv.kinds.len()),
        (hv.patterns, 0.0, 0),
        "{:?}",
        hv.kinds
    );
    assert_eq!(r.children, 16, "a child for each deal asked");
    for t in &r.tests[..16] {
        assert!(
            matches!(t.verdict, Verdict::Crashed { .. }),
            "{}: {:?}",
            t.id,
            t.verdict
        );
    }
}

/// The marked check starts with the select_hand tests on two cores, before anyone knows
/// whether the submission loads. When the tests' first child says it does not (here: a
/// directive that never ends, so loading runs out of time), the check is called off: its
/// child loading the same file is ended with it, no other starts, and nothing of it is kept.
/// Left to itself the check would spend two load limits (it tries a second child), so the
/// grading would take twice as long.
#[test]
fn a_check_started_beside_the_tests_is_called_off_when_the_submission_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string(corpus_dir().join("correct.pl")).unwrap();
    let path = dir.path().join("endless_directive.pl");
    std::fs::write(&path, correct + "\n:- repeat, fail.\n").unwrap();
    let limits = Limits {
        load: Duration::from_secs(2),
        select_hand_deals: Some(4),
        ..Limits::default()
    };
    let grader = common::grader(IsolationChoice::Rlimits, limits);
    let subs = discover(&[path], false).unwrap();
    let started = Instant::now();
    let r = grader.grade_on(&subs[0], worker(3), NonZeroUsize::new(2).unwrap());
    let took = started.elapsed();
    assert!(r.load.load_failed.is_some(), "{:?}", r.load);
    assert!(r.hand_value.is_none(), "{:?}", r.hand_value);
    assert_eq!(
        r.children, 1,
        "the tests' one child, which could not load it"
    );
    if crib_sandbox::is_root() {
        // Only with uids of its own can the grader end the check's child before its own
        // load limit (then both limits run side by side: well under two).
        assert!(took < Duration::from_millis(3_500), "took {took:?}");
    }
}

// ---- graders side by side on one kernel (issue 39) ----

/// Run as a separate process by [`graders_with_their_own_run_never_share_a_uid`]
/// (`CRIB_GRADE_NEIGHBOUR` set), in a mount namespace with a `/run` of its own, as in a
/// container, and a PID namespace of its own: prints `UIDS first end`, then grades without namespaces (each child's end kills
/// every process of its worker's uid). `spawners`: the corpus's process spawners, over and
/// over until the file `$CRIB_GRADE_STOP` exists; `correct`: correct.pl once, printing
/// `TOTAL t`. Without the variable it does nothing.
#[test]
fn helper_neighbour_process() {
    let Ok(mode) = std::env::var("CRIB_GRADE_NEIGHBOUR") else {
        return;
    };
    let limits = Limits {
        select_hand: Duration::from_secs(2),
        ..Limits::default()
    };
    let grader = common::grader(IsolationChoice::Rlimits, limits);
    let uids = grader.sandbox_uids().expect("run as root");
    println!("UIDS {} {}", uids.start, uids.end);
    if mode == "correct" {
        let correct = discover(&[corpus_dir().join("correct.pl")], false).unwrap();
        let r = grader.grade(&correct[0], crib_sandbox::Worker::FIRST);
        println!("TOTAL {:.2} {:?}", r.marks.total, r.problems());
        return;
    }
    let stop = PathBuf::from(std::env::var_os("CRIB_GRADE_STOP").unwrap());
    let spawners: Vec<PathBuf> = ["fork_bomb.pl", "sleeper.pl", "shell_call.pl"]
        .iter()
        .map(|name| corpus_dir().join(name))
        .collect();
    let spawners = discover(&spawners, false).unwrap();
    let mut graded = 0;
    // At most two minutes, should the test that started it be gone without a word.
    let end = std::time::Instant::now() + Duration::from_secs(120);
    while !stop.exists() && std::time::Instant::now() < end {
        grader.grade(&spawners[graded % spawners.len()], worker(0));
        graded += 1;
    }
    println!("GRADED {graded}");
}

/// Starts [`helper_neighbour_process`] in `mode` in mount and PID namespaces of its own
/// (`unshare`), with a tmpfs on `/run`: it sees neither the other's lock files nor its
/// processes, only the kernel's per-uid counts are shared; returns the process and what it printed, read on a thread of its own.
fn neighbour(mode: &str, stop: &Path) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::BufRead;
    let mut child = std::process::Command::new("unshare")
        .args([
            "--mount",
            "--pid",
            "--fork",
            "--mount-proc",
            "--propagation",
            "private",
        ])
        .args(["--", "sh", "-c"])
        .arg("mount -t tmpfs crib-test-run /run && exec \"$@\"")
        .arg("sh")
        .arg(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "helper_neighbour_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CRIB_GRADE_NEIGHBOUR", mode)
        .env("CRIB_GRADE_STOP", stop)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("unshare (util-linux) runs");
    let lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    (child, receive)
}

/// Returns what follows `prefix` in the first line from `lines` that has it (the test
/// harness writes its own words before the first line a test prints).
fn line_after(lines: &std::sync::mpsc::Receiver<String>, prefix: &str) -> String {
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|e| panic!("no {prefix} line: {e}"));
        if let Some((_, rest)) = line.split_once(prefix) {
            return rest.trim().to_string();
        }
    }
}

/// Returns the uids in `range` that some process has.
fn processes_with_uid_in(range: &std::ops::Range<u32>) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let uid = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().next()?.parse::<u32>().ok());
        if uid.is_some_and(|u| range.contains(&u)) {
            found.push(format!("{:?} uid {uid:?}", entry.file_name()));
        }
    }
    found
}

/// Two graders on one kernel, each with its own `/run` (where the uid blocks' locks live)
/// and its own PID namespace, as two containers are: one grades the corpus's process spawners over and over, the other
/// a correct solution. They must take different uids, or the spawners use up the correct
/// one's process count and each ending of leftovers ends the other's children: the correct solution
/// keeps its 70.00, and nothing of either is left running. (With the first free block
/// taken in order, both took 64256-64511 and the correct one lost marks.)
#[test]
fn graders_with_their_own_run_never_share_a_uid() {
    assert!(
        crib_sandbox::is_root(),
        "this test needs the sandbox uids of root"
    );
    let tmp = tempfile::tempdir().unwrap();
    let stop = tmp.path().join("stop");
    /// Ends the neighbours however the test ends: a failed assertion must leave nothing.
    struct Stop(PathBuf, Vec<u32>);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = std::fs::write(&self.0, "");
            for pid in &self.1 {
                // SAFETY: kill sends a signal to one of this test's own children.
                unsafe { libc::kill(*pid as i32, libc::SIGKILL) };
            }
        }
    }
    let mut guard = Stop(stop.clone(), Vec::new());
    let (mut spawners, spawner_lines) = neighbour("spawners", &stop);
    guard.1.push(spawners.id());
    let spawner_uids = line_after(&spawner_lines, "UIDS ");
    // Give the spawners' first child time to start its shells.
    std::thread::sleep(Duration::from_secs(2));
    let (mut correct, correct_lines) = neighbour("correct", &stop);
    guard.1.push(correct.id());
    let correct_uids = line_after(&correct_lines, "UIDS ");
    let total = line_after(&correct_lines, "TOTAL ");
    std::fs::write(&stop, "").unwrap();
    let graded = line_after(&spawner_lines, "GRADED ");
    assert!(correct.wait().unwrap().success());
    assert!(spawners.wait().unwrap().success());
    assert!(
        total.starts_with("70.00 "),
        "the correct solution got {total}"
    );
    assert_ne!(spawner_uids, correct_uids);
    assert!(graded.parse::<usize>().unwrap() >= 1, "{graded}");
    for uids in [&spawner_uids, &correct_uids] {
        let (start, end) = uids.split_once(' ').unwrap();
        let range = start.parse().unwrap()..end.parse().unwrap();
        let left = processes_with_uid_in(&range);
        assert!(left.is_empty(), "left running: {left:?}");
    }
}

/// Returns worker `index` of a grader.
fn worker(index: usize) -> crib_sandbox::Worker {
    crib_sandbox::Worker::new(index).unwrap()
}
