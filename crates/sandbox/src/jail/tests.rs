use super::*;
use crate::{open_up, Worker, FALLBACK_UIDS, SANDBOX_UIDS};
use crib_isolation::Layer;

/// Returns the first lane of worker `index`.
fn first(index: usize) -> Slot {
    Slot::First(Worker::new(index).unwrap())
}
use std::os::unix::process::{CommandExt, ExitStatusExt};

#[test]
fn the_seccomp_filter_compiles_for_bubblewrap() {
    let program = seccomp::program().unwrap();
    let bytes = seccomp::to_bytes(&program);
    assert_eq!(bytes.len(), program.len() * 8);
    eprintln!("the filter: {} instructions", program.len());
    assert!(
        program.len() > DENIED_AT_LEAST,
        "{} instructions",
        program.len()
    );
}

/// Every denied call costs the filter at least one instruction.
const DENIED_AT_LEAST: usize = 20;

#[test]
fn rlimits_mode_takes_every_layer_the_kernel_offers() {
    let jail = rlimits_jail();
    assert!(!jail.isolation.bwrap);
    assert_eq!(jail.isolation.seccomp, seccomp::available());
    assert_eq!(jail.isolation.landlock, landlock::abi());
}

/// Returns a fresh directory for one jail's probe, kept for the test process's life.
///
/// Each call gets a directory of its own: tests run in parallel, and a jail's probe
/// creates and removes files in its directory while another test would walk it.
fn work() -> PathBuf {
    static WORK: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let root = WORK
        .get_or_init(|| {
            let root = tempfile::tempdir().unwrap();
            open_up(root.path()).unwrap();
            root
        })
        .path();
    let dir = tempfile::tempdir_in(root).unwrap().keep();
    open_up(&dir).unwrap();
    dir
}

#[test]
fn each_jail_has_uids_of_its_own() {
    let a = rlimits_jail();
    let b = rlimits_jail();
    if !is_root() {
        assert_eq!((a.uid(first(0)), b.uid(first(0))), (None, None));
        return;
    }
    let (ra, rb) = (
        a.uids.as_ref().unwrap().range(),
        b.uids.as_ref().unwrap().range(),
    );
    assert!(ra.end <= rb.start || rb.end <= ra.start, "{ra:?} {rb:?}");
    for range in [&ra, &rb] {
        assert!(
            SANDBOX_UIDS.contains(&range.start) || FALLBACK_UIDS.contains(&range.start),
            "{range:?} is drawn from the sandbox's ranges"
        );
        assert!(!range.contains(&65534), "nobody is never a sandbox uid");
    }
    assert_eq!(a.uid(first(3)), Some(ra.start + 3));
    let second = Slot::Second(Worker::new(3).unwrap());
    assert_eq!(a.uid(second), Some(ra.start + 3 + crate::SECOND_LANE));
}

/// Runs `goal` in a child of an rlimits-mode jail whose scratch, grader and submission
/// directories are under a fresh directory, and returns whether it succeeded.
fn child_succeeds(jail: &Jail, goal: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let [grader, submission, scratch] =
        ["grader", "submission", "scratch"].map(|d| dir.path().join(d));
    for d in [&grader, &submission, &scratch] {
        std::fs::create_dir(d).unwrap();
    }
    std::fs::write(submission.join("mine.pl"), "x.\n").unwrap();
    open_up(dir.path()).unwrap();
    jail.give_scratch(&scratch, first(9)).unwrap();
    let mounts = Mounts {
        grader: &grader,
        submission: &submission,
        scratch: &scratch,
    };
    let limits = Rlimits::PROBE;
    let goal = goal.replace("SUBMISSION", &submission.display().to_string());
    let args = ["--no-tty", "-q", "-g", &goal, "-t", "halt"].map(String::from);
    let status = jail
        .command(&mounts, &args, limits, first(9), None)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    status.success()
}

#[test]
fn landlock_and_seccomp_confine_a_child_without_namespaces() {
    let jail = rlimits_jail();
    let isolation = jail.isolation;
    assert!(
        isolation.seccomp && isolation.landlock.is_some(),
        "this test needs a kernel with seccomp and Landlock: {}",
        isolation.name()
    );
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let outside = tempfile::tempdir().unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        let everyone = std::fs::Permissions::from_mode(0o777);
        std::fs::set_permissions(outside.path(), everyone).unwrap();
    }
    let outside_dir = outside.path().display().to_string();
    // A process outside the child's Landlock domain, of the uid the child runs as: only
    // Landlock's signal scope keeps the child from killing it (as the grader).
    let start_victim = || {
        let mut cmd = Command::new("sleep");
        cmd.arg("60");
        if let Some(uid) = jail.uid(first(9)) {
            cmd.uid(uid).gid(uid);
        }
        cmd.spawn().unwrap()
    };
    let mut victim = start_victim();
    // What a child may do.
    assert!(child_succeeds(
        &jail,
        "read_file_to_string('SUBMISSION/mine.pl', _, [])"
    ));
    assert!(child_succeeds(
        &jail,
        "open(here, write, S), close(S), delete_file(here)"
    ));
    assert!(child_succeeds(
        &jail,
        "open('/dev/null', write, S), close(S)"
    ));
    // What it may not.
    let breaches = [
        format!("use_module(library(socket)), tcp_connect('127.0.0.1':{port}, S, []), close(S)"),
        "use_module(library(socket)), udp_socket(S), tcp_close_socket(S)".to_string(),
        format!("open('{outside_dir}/planted', write, S), close(S)"),
        format!(
            "read_file_to_string('{}/src/jail/tests.rs', _, [])",
            env!("CARGO_MANIFEST_DIR")
        ),
        "read_file_to_string('/etc/passwd', _, [])".to_string(),
        "use_module(library(process)), process_kill(VICTIM, kill)".to_string(),
    ];
    let goal_for =
        |goal: &str, victim: &std::process::Child| goal.replace("VICTIM", &victim.id().to_string());
    for goal in &breaches {
        let goal = goal_for(goal, &victim);
        assert!(!child_succeeds(&jail, &goal), "a child could: {goal}");
    }
    assert!(victim.try_wait().unwrap().is_none(), "the victim died");
    victim.kill().unwrap();
    victim.wait().unwrap();
    let mut victim = start_victim();
    listener.set_nonblocking(true).unwrap();
    assert!(listener.accept().is_err(), "a connection reached the host");
    assert!(!outside.path().join("planted").exists());
    // The control: without the two layers, every one of these succeeds.
    let mut open = jail.clone();
    open.isolation = Isolation::default();
    open.seccomp = None;
    for goal in &breaches {
        let goal = goal_for(goal, &victim);
        assert!(
            child_succeeds(&open, &goal),
            "even without the layers: {goal}"
        );
    }
    assert!(outside.path().join("planted").exists());
    assert_eq!(victim.wait().unwrap().signal(), Some(libc::SIGKILL));
}

#[test]
fn strict_refuses_unless_network_and_files_are_closed() {
    let mut jail = rlimits_jail();
    let cases = [
        (Isolation::default(), false),
        (Isolation::from_layers(&[Layer::Seccomp]), false),
        (Isolation::from_layers(&[Layer::Landlock(6)]), false),
        (
            Isolation::from_layers(&[Layer::Seccomp, Layer::Landlock(4)]),
            true,
        ),
        (Isolation::from_layers(&[Layer::Bwrap]), true),
    ];
    for (isolation, ok) in cases {
        jail.isolation = isolation;
        assert_eq!(
            jail.clone().check(IsolationChoice::Strict).is_ok(),
            ok,
            "{}",
            isolation.name()
        );
        assert!(jail.clone().check(IsolationChoice::Auto).is_ok());
    }
    jail.isolation = Isolation::from_layers(&[Layer::Seccomp]);
    let err = jail
        .check(IsolationChoice::Strict)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("no Landlock"), "{err}");
}

/// The probe of a swipl jail.
const PROBE_ARGS: &[&str] = &["--no-tty", "-q", "-g", "halt"];

/// Returns a swipl jail without namespaces (rlimits, seccomp and Landlock where the kernel
/// has them), its uids drawn when root.
fn rlimits_jail() -> Jail {
    Jail::new(
        Path::new("swipl"),
        PROBE_ARGS,
        IsolationChoice::Rlimits,
        &work(),
    )
    .unwrap()
}

#[test]
fn a_workers_second_lane_reads_its_files_and_is_ended_apart() {
    let jail = rlimits_jail();
    if !is_root() {
        return;
    }
    let worker = Worker::new(4).unwrap();
    let (first, second) = (Slot::First(worker), Slot::Second(worker));
    assert_ne!(jail.uid(first), jail.uid(second));
    assert_eq!(jail.gid(first), jail.gid(second));
    assert_eq!(jail.gid(first), jail.uid(first));
    let dir = tempfile::tempdir().unwrap();
    let [grader, work_dir] = ["grader", "work"].map(|d| dir.path().join(d));
    let [submission, scratch, check_scratch] =
        ["submission", "scratch", "scratch-check"].map(|d| work_dir.join(d));
    for d in [&grader, &submission, &scratch, &check_scratch] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(submission.join("mine.pl"), "x.\n").unwrap();
    open_up(dir.path()).unwrap();
    jail.hand_over(&work_dir, first).unwrap();
    jail.give_scratch(&scratch, first).unwrap();
    jail.give_scratch(&check_scratch, second).unwrap();
    let succeeds = |slot: Slot, own: &Path, goal: &str| {
        let mounts = Mounts {
            grader: &grader,
            submission: &submission,
            scratch: own,
        };
        let goal = goal
            .replace("SUBMISSION", &submission.display().to_string())
            .replace("FIRST", &scratch.display().to_string());
        let args = ["--no-tty", "-q", "-g", &goal, "-t", "halt"].map(String::from);
        jail.command(&mounts, &args, Rlimits::PROBE, slot, None)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    let read = "read_file_to_string('SUBMISSION/mine.pl', _, [])";
    let write_own = "open(here, write, S), close(S), delete_file(here)";
    let write_first = "open('FIRST/planted', write, S), close(S)";
    assert!(succeeds(first, &scratch, read));
    assert!(
        succeeds(second, &check_scratch, read),
        "the second lane reads the copy"
    );
    assert!(succeeds(second, &check_scratch, write_own));
    assert!(succeeds(first, &scratch, write_first), "the control");
    std::fs::remove_file(scratch.join("planted")).unwrap();
    assert!(
        !succeeds(second, &check_scratch, write_first),
        "the second lane writes in the first's scratch"
    );
    // A process of the first lane outlives the end of the second's leftovers, not its own.
    let mut sleeper = Command::new("sleep");
    sleeper.arg("60");
    if let (Some(uid), Some(gid)) = (jail.uid(first), jail.gid(first)) {
        sleeper.uid(uid).gid(gid);
    }
    let mut sleeper = sleeper.spawn().unwrap();
    assert!(jail.end_leftovers(second));
    assert!(
        sleeper.try_wait().unwrap().is_none(),
        "ended with the other lane"
    );
    assert!(jail.end_leftovers(first));
    // Killed and reaped by end_leftovers (it reaps what no one waits for).
    let pid = sleeper.id();
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "{pid} is left"
    );
}

/// Returns the zombies of `uid` whose parent is this process.
fn adopted_zombies(uid: u32) -> Vec<i32> {
    // SAFETY: getpid cannot fail.
    let me = unsafe { libc::getpid() };
    crate::reap::processes_of(uid)
        .into_iter()
        .filter(|p| p.zombie && p.parent == me)
        .map(|p| p.pid)
        .collect()
}

/// A child that exits leaves bubblewrap's init to this process (a subreaper) as a zombie:
/// `reap_adopted` reaps it and kills nothing, so children that die one after another never
/// fill the uid's process limit.
#[test]
fn a_dead_childs_zombie_is_reaped_and_nothing_else_is_touched() {
    if !is_root() {
        return;
    }
    let Ok(jail) = Jail::new(
        Path::new("swipl"),
        PROBE_ARGS,
        IsolationChoice::Bwrap,
        &work(),
    ) else {
        eprintln!("no bubblewrap here: nothing to reap");
        return;
    };
    let slot = first(7);
    let uid = jail.uid(slot).unwrap();
    let mut sleeper = Command::new("sleep");
    sleeper.arg("60").uid(uid).gid(jail.gid(slot).unwrap());
    let mut sleeper = sleeper.spawn().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let [grader, submission, scratch] =
        ["grader", "submission", "scratch"].map(|d| dir.path().join(d));
    for d in [&grader, &submission, &scratch] {
        std::fs::create_dir(d).unwrap();
    }
    open_up(dir.path()).unwrap();
    jail.give_scratch(&scratch, slot).unwrap();
    let mounts = Mounts {
        grader: &grader,
        submission: &submission,
        scratch: &scratch,
    };
    let args = ["--no-tty", "-q", "-g", "halt(3)"].map(String::from);
    for _ in 0..3 {
        let status = jail
            .command(&mounts, &args, Rlimits::PROBE, slot, None)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success());
    }
    let end = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while adopted_zombies(uid).is_empty() && std::time::Instant::now() < end {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        !adopted_zombies(uid).is_empty(),
        "the test needs the zombies it reaps"
    );
    jail.reap_adopted(slot);
    assert_eq!(adopted_zombies(uid), Vec::<i32>::new());
    assert!(
        sleeper.try_wait().unwrap().is_none(),
        "the sleeper was ended"
    );
    assert!(jail.end_leftovers(slot));
}
