//! Grades the corpus in tests/submissions/ (and a snooping submission written here, which
//! knows this host's paths) under bubblewrap with short limits, and checks every verdict and
//! that nothing on the host changed; then grades the hostile submissions and a few
//! well-behaved ones again without namespaces (rlimits + seccomp + Landlock), as in
//! Gradescope's containers, and checks the same.

mod common;

use std::collections::BTreeMap;
use std::net::{TcpListener, UdpSocket};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use crib_core::{Card, Rank};
use crib_grade::{
    discover, Area, FailureKind, Grader, Isolation, IsolationChoice, Limits, Report, Session,
    Submission, TestSet, Verdict,
};

/// The canary directory the corpus tries to change (fixed: the submissions name it).
const CANARY: &str = "/tmp/crib-grade-canary";

/// A file the snoop tries to create directly in /tmp.
const TMP_PLANT: &str = "/tmp/crib-grade-snoop-planted.txt";

/// Legitimate submissions graded again without namespaces: each must get identical marks
/// and verdicts in both modes (correct ones, plain bugs, ones that print, write temporary
/// files, use clpfd, read their own directory).
const LEGITIMATE: &[&str] = &[
    "correct",
    "module",
    "broken_runs",
    "broken_nob",
    "several_solutions",
    "exceptions",
    "prints_stdout",
    "tmp_files",
    "uses_clpfd",
    "reads_own_dir",
];

/// Hostile submissions graded again without namespaces: each must get the same kind of
/// verdict in both modes, and leave no process behind.
const HOSTILE: &[&str] = &[
    "snoop",
    "shell_load",
    "shell_call",
    "halt_exit",
    "fork_bomb",
    "sleeper",
    "kill_parent",
];

struct Graded {
    /// Every submission, under bubblewrap (+ seccomp).
    reports: BTreeMap<String, Report>,
    /// [`LEGITIMATE`] and [`HOSTILE`], without namespaces (rlimits + seccomp + Landlock).
    bare: BTreeMap<String, Report>,
    bare_isolation: Isolation,
    /// Processes of the graders' uids found the moment each session returned, by mode.
    leftovers: Vec<(&'static str, Vec<String>)>,
    host_before: Vec<(PathBuf, Vec<u8>)>,
    results_before: Vec<(PathBuf, Vec<u8>)>,
    results_dir: PathBuf,
    snoop_dir: PathBuf,
    _keep: tempfile::TempDir,
    listener: TcpListener,
    udp: UdpSocket,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/submissions")
}

/// Every file under `dir` with its contents.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

fn graded() -> &'static Graded {
    static GRADED: OnceLock<Graded> = OnceLock::new();
    GRADED.get_or_init(|| {
        let _ = std::fs::remove_dir_all(CANARY);
        std::fs::create_dir_all(CANARY).unwrap();
        std::fs::write(Path::new(CANARY).join("victim.txt"), "keep me").unwrap();

        // A submission that knows this host: it tries to read another submission and the
        // grader's own source, write beside them, in the results and in the grader's
        // directory, read the mount table in /proc (readable under bubblewrap alone, not
        // with Landlock), delete the canary and reach ports this test listens on. Its hand_value
        // answers the number of breaches (0 when sandboxed), counted at its first call in each
        // child. Writing in /tmp is not counted
        // (under bubblewrap it is a private tmpfs): the test looks for the file instead.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
        let udp_port = udp.local_addr().unwrap().port();
        let _ = std::fs::remove_file(TMP_PLANT);
        let keep = tempfile::tempdir().unwrap();
        // Stands for an earlier run's results directory: world-writable, so only the
        // sandbox can keep a child out.
        let results_dir = keep.path().join("earlier-results");
        std::fs::create_dir(&results_dir).unwrap();
        std::fs::write(results_dir.join("alice.json"), "{}").unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            for dir in [keep.path(), results_dir.as_path()] {
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
            }
        }
        let snoop_dir = keep.path().join("snoop");
        std::fs::create_dir(&snoop_dir).unwrap();
        let other = corpus_dir().join("correct.pl");
        let grader_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
        let plant = corpus_dir().join("planted.txt");
        std::fs::write(
            snoop_dir.join("snoop.pl"),
            format!(
                "% writes, deletes and reads outside the sandbox, and a tcp connection\n\
                 :- use_module(library(socket)).\n\
                 breach(read_other) :- catch(read_file_to_string('{other}', _, []), _, fail).\n\
                 breach(read_grader) :- catch(read_file_to_string('{grader}', _, []), _, fail).\n\
                 breach(write) :- catch((open('{plant}', write, S), close(S)), _, fail).\n\
                 attempt(write_tmp) :- catch((open('{tmp_plant}', write, S), close(S)), _, true).\n\
                 breach(write_results) :- catch((open('{results}/alice.json', write, S), close(S)), _, fail).\n\
                 breach(tamper) :- catch((open('../../grader/tests.pl', append, S), close(S)), _, fail).\n\
                 breach(udp) :- catch((udp_socket(S), udp_send(S, x, '127.0.0.1':{udp_port}, []), tcp_close_socket(S)), _, fail).\n\
                 breach(proc) :- catch(read_file_to_string('/proc/self/mounts', _, []), _, fail).\n\
                 breach(delete) :- catch(delete_file('{canary}/victim.txt'), _, fail).\n\
                 breach(connect) :- catch(tcp_connect('127.0.0.1':{port}, S, []), _, fail), close(S).\n\
                 breach(shell) :- catch(shell('touch {canary}/shell', 0), _, fail), exists_file('{canary}/shell').\n\
                 :- initialization((attempt(_), forall(breach(_), true))).\n\
                 hand_value(_, _, N) :- nb_current(breaches, N), !.\n\
                 hand_value(_, _, N) :- attempt(_), aggregate_all(count, breach(_), N), nb_setval(breaches, N).\n",
                other = other.display(),
                grader = grader_src.display(),
                plant = plant.display(),
                canary = CANARY,
                tmp_plant = TMP_PLANT,
                results = results_dir.display(),
            ),
        )
        .unwrap();

        let host_before = snapshot(&corpus_dir());
        let limits = Limits {
            hand_value: Duration::from_secs(1),
            select_hand: Duration::from_secs(2),
            load: Duration::from_secs(5),
            grace: Duration::from_millis(500),
            memory: 256 << 20,
            ..Limits::default()
        };
        let mut subs = discover(&[corpus_dir()], false).unwrap();
        subs.extend(discover(std::slice::from_ref(&snoop_dir), true).unwrap());
        let results_before = snapshot(&results_dir);
        let memory_hogs = ["memory_hog", "deep_recursion"];
        let hogs = subs.iter().filter(|s| memory_hogs.contains(&s.name.as_str()));
        assert_eq!(hogs.count(), 2, "the corpus has two memory blow-ups");
        let out = keep.path().join("results");
        let (reports, _, left_bwrap) =
            grade_all(IsolationChoice::Bwrap, limits, subs.clone(), out);
        subs.retain(|s| LEGITIMATE.contains(&s.name.as_str()) || HOSTILE.contains(&s.name.as_str()));
        let out = keep.path().join("results-bare");
        let (bare, bare_isolation, left_bare) =
            grade_all(IsolationChoice::Rlimits, limits, subs, out);
        Graded {
            reports,
            bare,
            bare_isolation,
            leftovers: vec![("bwrap", left_bwrap), ("rlimits", left_bare)],
            host_before,
            results_before,
            results_dir,
            snoop_dir,
            _keep: keep,
            listener,
            udp,
        }
    })
}

/// Returns the processes (`pid state command`) whose real uid is in `uids`.
fn processes_of(uids: &std::ops::Range<u32>) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let uid = field("Uid:")
            .split_whitespace()
            .next()
            .map(str::parse::<u32>);
        if let Some(Ok(uid)) = uid {
            if uids.contains(&uid) {
                let pid = entry.file_name().to_string_lossy().into_owned();
                found.push(format!("{pid} {} {}", field("State:"), field("Name:")));
            }
        }
    }
    found
}

/// Grades `subs` with 3 workers in the isolation chosen, writing the results in `out`;
/// returns the reports by name, the isolation in force and the processes of the graders'
/// uids that were left the moment each session returned (with no pause).
fn grade_all(
    choice: IsolationChoice,
    limits: Limits,
    subs: Vec<Submission>,
    out: PathBuf,
) -> (BTreeMap<String, Report>, Isolation, Vec<String>) {
    let mut grader = Grader::new("swipl".as_ref(), choice, limits, &common::seed())
        .expect("these tests need swipl and a working bwrap");
    // Memory blow-ups get more time and less memory, so that a loaded machine cannot
    // turn their `memory` into `timeout`; they go to the roomy grader, after the rest.
    let roomy = Limits {
        hand_value: Duration::from_secs(8),
        memory: 192 << 20,
        ..limits
    };
    let mut roomy = Grader::new("swipl".as_ref(), choice, roomy, &common::seed()).unwrap();
    // Under bubblewrap, Landlock too, as `crib grade` does it.
    for grader in [&mut grader, &mut roomy] {
        grader
            .confine_with(&confiner())
            .expect("Landlock under bubblewrap");
    }
    let (memory, rest): (Vec<Submission>, Vec<Submission>) = subs
        .into_iter()
        .partition(|s| ["memory_hog", "deep_recursion"].contains(&s.name.as_str()));
    let session = Session {
        jobs: NonZeroUsize::new(3).unwrap(),
        ..Session::new(out)
    };
    let mut reports = BTreeMap::new();
    let mut leftovers = Vec::new();
    for (grader, subs) in [(&grader, rest), (&roomy, memory)] {
        let graded = session.grade(grader, &subs, &mut ()).unwrap();
        if let Some(uids) = grader.sandbox_uids() {
            leftovers.extend(processes_of(&uids));
        }
        for report in graded.reports {
            reports.insert(report.name.clone(), report);
        }
    }
    (reports, grader.isolation(), leftovers)
}

fn report(name: &str) -> &'static Report {
    graded()
        .reports
        .get(name)
        .unwrap_or_else(|| panic!("no report for {name}"))
}

/// Returns the verdict names of `name`'s tests, counted.
fn verdicts(name: &str) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for t in &report(name).tests {
        *counts.entry(t.verdict.name()).or_default() += 1;
    }
    counts
}

/// The marked hand_value items of the tests' seed: the hand as asked, the start, crib-core's
/// value.
fn items() -> &'static [(Vec<Card>, Card, u8)] {
    static ITEMS: OnceLock<Vec<(Vec<Card>, Card, u8)>> = OnceLock::new();
    ITEMS.get_or_init(|| TestSet::new(&common::seed()).hand_value_items())
}

/// Whether `hand` is four fives: the corpus's trigger (12 items under every seed).
fn four_fives(hand: &[Card]) -> bool {
    hand.iter().filter(|c| c.rank() == Rank::Five).count() == 4
}

/// Whether the hand is four fives and the start one of `ranks`.
fn fives_and(ranks: &'static [Rank]) -> impl Fn(&[Card], Card, u8) -> bool {
    move |hand, start, _| four_fives(hand) && ranks.contains(&start.rank())
}

/// Asserts that `name`'s hand_value check failed exactly the items `odd_one_out` picks, in
/// the way `kind` names, with the simplest of them answered as `got` accepts; and that every
/// select_hand test passes (unless `select_broken`).
fn hand_value_fails(
    name: &str,
    select_broken: bool,
    odd_one_out: impl Fn(&[Card], Card, u8) -> bool,
    kind: FailureKind,
    got: impl Fn(&str) -> bool,
) {
    let r = report(name);
    let hv = r
        .hand_value
        .as_ref()
        .unwrap_or_else(|| panic!("{name}: no hand_value check"));
    assert_eq!(hv.checked, hv.patterns, "{name}: {:?}", hv.stopped);
    let odd = items()
        .iter()
        .filter(|(h, s, v)| odd_one_out(h, *s, *v))
        .count();
    assert!(odd > 0, "{name}: no item hits the failure");
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.classes)).collect();
    assert_eq!(kinds, [(kind, odd)], "{name}");
    for c in &hv.counterexamples {
        assert!(odd_one_out(&c.hand, c.start, c.expected), "{name}: {c:?}");
        assert!(got(&c.got), "{name}: got {}", c.got);
    }
    if !select_broken {
        for t in &r.tests {
            assert_eq!(t.verdict, Verdict::Pass, "{name} {}", t.id);
        }
    }
}

fn all_pass(name: &str) {
    let r = report(name);
    for t in &r.tests {
        assert_eq!(t.verdict, Verdict::Pass, "{name} {}", t.id);
    }
    let hv = r.hand_value.as_ref().unwrap();
    assert_eq!(
        (hv.checked, hv.share_wrong),
        (hv.patterns, 0.0),
        "{name}: {:?}",
        hv.kinds
    );
    assert_eq!(r.marks.total, 70.0, "{name}");
}

#[test]
fn correct_and_module_submissions_get_full_marks() {
    for name in [
        "correct",
        "module",
        "module_unexported",
        "tmp_files",
        "uses_clpfd",
        "reads_own_dir",
    ] {
        all_pass(name);
        let r = report(name);
        assert!(
            r.load.diagnostics.is_empty(),
            "{name}: {:?}",
            r.load.diagnostics
        );
        assert_eq!(r.children, 1, "{name}");
        assert_eq!(r.hand_value.as_ref().unwrap().children, 1, "{name}");
    }
    assert_eq!(report("correct").marks.code_quality, "not assessed");
}

#[test]
fn each_broken_rule_loses_marks_where_it_shows() {
    let cases = [
        ("broken_fifteens", Area::Fifteens),
        ("broken_pairs", Area::Pairs),
        ("broken_runs", Area::Runs),
        ("broken_flush", Area::Flush),
        ("broken_nob", Area::Nob),
    ];
    for (name, area) in cases {
        let r = report(name);
        let hv = r.hand_value.as_ref().unwrap();
        assert_eq!(hv.areas[0].area, area, "{name}: {:?}", hv.areas);
        assert!(r.marks.hand_value < 50.0, "{name}");
        // select_hand/3 calls the broken hand_value/3, so some keeps may be suboptimal.
        let others = verdicts(name);
        assert!(
            others
                .keys()
                .all(|v| ["pass", "wrong_answer", "suboptimal"].contains(v)),
            "{name}: only pass, wrong_answer and suboptimal: {others:?}"
        );
    }
}

#[test]
fn halt_at_load_costs_nothing_and_is_reported() {
    all_pass("halt_load");
    let d = &report("halt_load").load.diagnostics;
    assert!(
        d.iter()
            .any(|d| d.file == "halt_load.pl" && d.line == 4 && d.message.contains("halt")),
        "{d:?}"
    );
}

#[test]
fn halt_in_a_call_costs_only_that_item() {
    hand_value_fails(
        "halt_call",
        false,
        |h, _, _| four_fives(h),
        FailureKind::Crashed,
        |got| got.contains("halt(7)"),
    );
    assert_eq!(report("halt_call").hand_value.as_ref().unwrap().children, 1);
    hand_value_fails(
        "halt_exit",
        false,
        fives_and(&[Rank::Jack, Rank::Queen, Rank::King]),
        FailureKind::Crashed,
        |got| got.contains("status 9"),
    );
    assert!(report("halt_exit").hand_value.as_ref().unwrap().children >= 3);
}

#[test]
fn loops_time_out_alone() {
    // Stopped by the child's watchdog on CPU time, or, on a machine so busy that the child
    // gets less than a third of a core, at the wall-clock backstop.
    hand_value_fails(
        "infinite_loop",
        false,
        fives_and(&[Rank::Jack]),
        FailureKind::Timeout,
        |_| true,
    );
    assert_eq!(
        report("infinite_loop")
            .hand_value
            .as_ref()
            .unwrap()
            .children,
        1
    );
    hand_value_fails(
        "stubborn_loop",
        false,
        fives_and(&[Rank::Queen]),
        FailureKind::Timeout,
        |_| true,
    );
    assert!(
        report("stubborn_loop")
            .hand_value
            .as_ref()
            .unwrap()
            .children
            >= 2
    );
}

#[test]
fn memory_blowups_cost_only_their_item() {
    hand_value_fails(
        "memory_hog",
        false,
        fives_and(&[Rank::Ace, Rank::Two]),
        FailureKind::Memory,
        |_| true,
    );
    hand_value_fails(
        "deep_recursion",
        false,
        fives_and(&[Rank::King]),
        FailureKind::Memory,
        |_| true,
    );
}

#[test]
fn load_problems_are_diagnosed() {
    let syntax = report("syntax_error");
    let d = &syntax.load.diagnostics;
    assert!(
        d.iter()
            .any(|d| d.kind == "error" && d.file == "syntax_error.pl" && d.line == 6),
        "{d:?}"
    );
    assert!(
        d.iter()
            .any(|d| d.kind == "warning" && d.file == "syntax_error.pl" && d.line == 8),
        "{d:?}"
    );
    all_pass("syntax_error");
    for name in ["binary_garbage", "empty"] {
        let r = report(name);
        assert!(r.load.load_failed.is_some(), "{name}");
        assert_eq!(r.marks.total, 0.0, "{name}");
    }
    let missing = report("missing_predicate");
    assert_eq!(
        missing.load.missing_predicate,
        vec!["select_hand/3".to_string()]
    );
    assert_eq!(missing.marks.hand_value, 50.0);
    assert_eq!(missing.marks.select_hand, 0.0);
}

#[test]
fn printing_cannot_forge_answers() {
    hand_value_fails(
        "prints_stdout",
        false,
        |_, _, v| v != 0,
        FailureKind::WrongAnswer,
        |got| got == "0",
    );
    assert!(report("prints_stdout").output.contains("\"done\""));
}

#[test]
fn first_solution_counts_and_credit_is_partial() {
    let r = report("several_solutions");
    assert_eq!(r.marks.hand_value, 50.0);
    assert!(r.marks.select_hand_credit < 1.0 && r.marks.select_hand_credit > 0.0);
    assert!(r
        .tests
        .iter()
        .any(|t| matches!(t.verdict, Verdict::Suboptimal { .. }) && t.credit.unwrap() < 1.0));
}

#[test]
fn failing_goals_have_no_solution() {
    hand_value_fails(
        "no_solution",
        true,
        |_, _, v| v > 20,
        FailureKind::NoSolution,
        |_| true,
    );
    for t in report("no_solution")
        .tests
        .iter()
        .filter(|t| t.predicate == "select_hand")
    {
        assert_eq!(t.verdict, Verdict::NoSolution);
        assert_eq!(t.credit, Some(0.0));
    }
}

#[test]
fn a_load_that_never_ends_fails_the_load() {
    let r = report("load_loop");
    let why = r.load.load_failed.as_deref().unwrap_or_default();
    assert!(why.contains("loading took longer than 5 s"), "{why}");
    assert_eq!(
        verdicts("load_loop"),
        BTreeMap::from([("not_run", r.tests.len())])
    );
    assert!(r.hand_value.is_none());
    assert_eq!(r.marks.total, 0.0);
}

#[test]
fn wrong_types_are_named() {
    hand_value_fails(
        "wrong_types",
        true,
        |_, _, _| true,
        FailureKind::WrongType,
        |got| got.contains("value("),
    );
    for t in &report("wrong_types").tests {
        assert!(
            matches!(t.verdict, Verdict::WrongType { .. }),
            "{}: {:?}",
            t.id,
            t.verdict
        );
    }
}

#[test]
fn redefined_builtins_do_not_break_the_grader() {
    let r = report("redefined_builtins");
    assert!(r.load.diagnostics.iter().any(|d| d
        .message
        .contains("No permission to modify static procedure")));
    // Its own msort/2 breaks its answers, but the grader (in a module of its own) still
    // reads every one of them.
    let counts = verdicts("redefined_builtins");
    assert!(
        counts
            .keys()
            .all(|v| ["pass", "wrong_answer", "suboptimal"].contains(v)),
        "{counts:?}"
    );
    assert_eq!(r.children, 1);
}

#[test]
fn exceptions_carry_their_message() {
    hand_value_fails(
        "exceptions",
        true,
        |_, _, v| v % 2 == 1,
        FailureKind::Exception,
        // The child sends the message of the first 20 exceptions only.
        |got| got.contains("odd") || got == "an exception",
    );
    for t in report("exceptions")
        .tests
        .iter()
        .filter(|t| t.predicate == "select_hand")
    {
        assert!(
            matches!(&t.verdict, Verdict::Exception { message } if message.contains("instantiated")),
            "{:?}",
            t.verdict
        );
    }
}

#[test]
fn slow_tests_time_out_and_the_rest_pass() {
    let r = report("slow");
    assert_eq!(r.marks.hand_value, 50.0);
    let slow = r
        .tests
        .iter()
        .find(|t| t.id == "sh:named:keep-three-fives-and-jack")
        .unwrap();
    assert!(
        matches!(slow.verdict, Verdict::Timeout { .. }),
        "{:?}",
        slow.verdict
    );
    assert_eq!(verdicts("slow").get("timeout"), Some(&1));
}

/// Asserts that every breach the snoop tried failed, as it counted them: it answered 0 to
/// every item (so exactly the items worth something are wrong, every one with 0).
fn snoop_found_nothing(snoop: &Report, mode: &str) {
    let hv = snoop
        .hand_value
        .as_ref()
        .expect("the snoop defines hand_value/3");
    let worth_something = items().iter().filter(|(_, _, v)| *v != 0).count();
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.classes)).collect();
    assert_eq!(
        kinds,
        [(FailureKind::WrongAnswer, worth_something)],
        "{mode}: snoop: a breach succeeded, or it did not answer"
    );
    for c in &hv.counterexamples {
        assert_eq!(c.got, "0", "{mode}: snoop: a breach succeeded");
    }
}

#[test]
fn the_host_is_untouched() {
    let g = graded();
    for name in ["shell_load", "shell_call"] {
        all_pass(name);
    }
    snoop_found_nothing(report("snoop"), "bwrap");
    snoop_found_nothing(&g.bare["snoop"], "rlimits");
    // No TCP connection and no datagram reached the host, in either mode (the snoop tried
    // at load time in each child and at the first hand_value call of the check's child).
    g.listener.set_nonblocking(true).unwrap();
    assert!(
        g.listener.accept().is_err(),
        "a TCP connection reached the host"
    );
    g.udp.set_nonblocking(true).unwrap();
    assert!(
        g.udp.recv(&mut [0u8; 16]).is_err(),
        "a datagram reached the host"
    );
    let canary: Vec<_> = std::fs::read_dir(CANARY)
        .expect("the canary directory survives")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(canary, vec!["victim.txt".to_string()]);
    assert_eq!(
        std::fs::read_to_string(Path::new(CANARY).join("victim.txt")).unwrap(),
        "keep me"
    );
    assert!(!Path::new(TMP_PLANT).exists(), "a file appeared in /tmp");
    assert_eq!(
        snapshot(&g.results_dir),
        g.results_before,
        "the results changed"
    );
    assert_eq!(snapshot(&corpus_dir()), g.host_before, "the corpus changed");
    // shell_load.pl starts `sleep 311 &`: it must have died with its sandbox.
    let sleeping = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .any(|cmd| cmd == b"sleep\x00311\x00");
    assert!(
        !sleeping,
        "a process the submission started outlived the grading"
    );
    assert_eq!(
        snapshot(&g.snoop_dir).len(),
        1,
        "the snoop wrote beside itself"
    );
}

#[test]
fn without_namespaces_seccomp_and_landlock_are_in_force_and_verdicts_agree() {
    let g = graded();
    let bwrap = report("correct").isolation;
    let bare = g.bare_isolation;
    assert!(
        !bare.bwrap && bare.seccomp && bare.landlock.is_some_and(|abi| abi >= 4),
        "this test needs a kernel with seccomp and Landlock ABI 4 or later: {}",
        bare.name()
    );
    assert!(
        bwrap.bwrap && bwrap.seccomp && bwrap.landlock == bare.landlock,
        "under bubblewrap too, every layer: {}",
        bwrap.name()
    );
    for name in LEGITIMATE.iter().chain(HOSTILE) {
        assert_eq!(g.bare[*name].isolation, bare, "{name}");
    }
}

/// What a verdict says, less what depends on where the files are: its name, and for a
/// crash its status or signal.
fn verdict_kind(v: &Verdict) -> String {
    match v {
        Verdict::Crashed { code, signal, .. } => format!("crashed {code:?} {signal:?}"),
        other => other.name().to_string(),
    }
}

#[test]
fn legitimate_submissions_get_the_same_marks_and_verdicts_in_every_mode() {
    let g = graded();
    let mut differ = Vec::new();
    for name in LEGITIMATE {
        let (a, b) = (report(name), &g.bare[*name]);
        // A loaded machine can time a test out in one run; it is the only excuse, and it
        // must stay rare.
        let timeout = |v: &Verdict| matches!(v, Verdict::Timeout { .. });
        let timeouts = a.tests.iter().zip(&b.tests);
        let timeouts = timeouts.filter(|(x, y)| timeout(&x.verdict) || timeout(&y.verdict));
        let timeouts = timeouts.count();
        assert!(timeouts <= 3, "{name}: {timeouts} timeouts");
        if timeouts == 0 && a.marks != b.marks {
            differ.push(format!("{name}: marks {:?} and {:?}", a.marks, b.marks));
        }
        if a.load != b.load {
            differ.push(format!("{name}: load {:?} and {:?}", a.load, b.load));
        }
        for (x, y) in a.tests.iter().zip(&b.tests) {
            if !timeout(&x.verdict) && !timeout(&y.verdict) && x.verdict != y.verdict {
                differ.push(format!(
                    "{name} {}: {:?} and {:?}",
                    x.id, x.verdict, y.verdict
                ));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "bwrap and rlimits differ:\n{}",
        differ.join("\n")
    );
}

#[test]
fn hostile_submissions_get_the_same_kind_of_verdict_in_every_mode() {
    let g = graded();
    let mut differ = Vec::new();
    for name in HOSTILE {
        let (a, b) = (report(name), &g.bare[*name]);
        if a.load.load_failed.is_some() != b.load.load_failed.is_some() {
            differ.push(format!("{name}: load {:?} and {:?}", a.load, b.load));
        }
        for (x, y) in a.tests.iter().zip(&b.tests) {
            let timeout = |v: &Verdict| matches!(v, Verdict::Timeout { .. });
            let (p, q) = (verdict_kind(&x.verdict), verdict_kind(&y.verdict));
            if !timeout(&x.verdict) && !timeout(&y.verdict) && p != q {
                differ.push(format!("{name} {}: {p} and {q}", x.id));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "bwrap and rlimits differ:\n{}",
        differ.join("\n")
    );
    for name in HOSTILE {
        let kinds = |r: &Report| -> Vec<FailureKind> {
            r.hand_value
                .iter()
                .flat_map(|h| h.kinds.iter().map(|k| k.kind))
                .collect()
        };
        let (a, b) = (report(name), &g.bare[*name]);
        if kinds(a) != kinds(b) {
            differ.push(format!(
                "{name}: hand_value {:?} and {:?}",
                kinds(a),
                kinds(b)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "bwrap and rlimits differ:\n{}",
        differ.join("\n")
    );
    // What they do: the fork bomb and the sleeper load and answer 0, the parent killer
    // never loads.
    for name in ["fork_bomb", "sleeper"] {
        hand_value_fails(
            name,
            true,
            |_, _, v| v != 0,
            FailureKind::WrongAnswer,
            |got| got == "0",
        );
    }
    let load = &report("kill_parent").load.load_failed;
    assert!(
        load.as_deref().is_some_and(|l| l.contains("signal 9")),
        "{load:?}"
    );
}

#[test]
fn nothing_the_submissions_started_is_left_when_grading_returns() {
    let g = graded();
    assert!(is_root_here(), "this test needs the sandbox uids of root");
    for (mode, left) in &g.leftovers {
        assert!(left.is_empty(), "{mode}: left running: {left:?}");
    }
}

fn is_root_here() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn reports_serialize_with_the_verdict_names() {
    let json = serde_json::to_value(report("exceptions")).unwrap();
    let names: Vec<&str> = json["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["verdict"].as_str().unwrap())
        .collect();
    assert!(names.iter().all(|n| *n == "exception"), "{names:?}");
    assert_eq!(json["hand_value"]["kinds"][0]["kind"], "exception");
    let back: Report = serde_json::from_value(json).unwrap();
    assert_eq!(&back, report("exceptions"));
    let gs = crib_grade::gradescope(report("correct"));
    assert_eq!(gs["score"], 70.0);
    // The marked hand_value test, one per rule area, one per select_hand test.
    assert_eq!(
        gs["tests"].as_array().unwrap().len(),
        1 + 5 + report("correct").tests.len()
    );
}

#[test]
fn rlimits_only_still_grades_and_says_so() {
    let _heavy = heavy();
    let limits = Limits {
        hand_value: Duration::from_secs(1),
        select_hand: Duration::from_secs(2),
        ..Limits::default()
    };
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Rlimits,
        limits,
        &common::seed(),
    )
    .unwrap();
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
    let _heavy = heavy();
    // Smaller than the default child limit (1 GiB), as Gradescope's 768 MB container is.
    let cgroup_bytes: u64 = 512 << 20;
    let real = ThreadCgroup::new(cgroup_bytes);
    let limit = match &real {
        Some(_) => crib_grade::memory_limit_in(
            &std::fs::read_to_string("/proc/thread-self/cgroup").unwrap(),
            Path::new("/sys/fs/cgroup"),
        ),
        // Where no cgroup can be made, a simulated memory.max.
        None => {
            eprintln!("no writable memory cgroup here: simulating memory.max");
            let root = tempfile::tempdir().unwrap();
            std::fs::write(root.path().join("memory.max"), cgroup_bytes.to_string()).unwrap();
            crib_grade::memory_limit_in("0::/\n", root.path())
        }
    };
    assert_eq!(limit, Some(cgroup_bytes));
    let fit = crib_grade::MemoryFit::new(Limits::default().memory, 2, limit);
    assert!(
        fit.reduced && fit.per_child * fit.workers as u64 <= cgroup_bytes / 4 * 3,
        "{fit}"
    );
    let limits = Limits {
        hand_value: Duration::from_secs(8),
        memory: fit.per_child,
        ..Limits::default()
    };
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Auto,
        limits,
        &common::seed(),
    )
    .unwrap();
    let subs = discover(&[corpus_dir().join("memory_hog.pl")], false).unwrap();
    let r = grader.grade(&subs[0], 5);
    let hv = r.hand_value.as_ref().unwrap();
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.classes)).collect();
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

// ---- robustness: hostile paths, fair timing, nothing left behind (issue 15) ----

/// Taken by the tests below that grade whole submissions, so that they run one at a time
/// after the corpus: the load they measure is the one they make, not the whole test run's.
fn heavy() -> std::sync::MutexGuard<'static, ()> {
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    graded();
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Returns infinite_loop.pl's correct base (base_value/3, base_select/3), for submissions
/// written here to wrap.
fn correct_base() -> String {
    let text = std::fs::read_to_string(corpus_dir().join("infinite_loop.pl")).unwrap();
    let at = text.find("% ---- the correct base").unwrap();
    text[at..].to_string()
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
    let _heavy = heavy();
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
        let grader = Grader::new(
            "swipl".as_ref(),
            IsolationChoice::Auto,
            limits,
            &common::seed(),
        )
        .unwrap();
        let started = std::time::Instant::now();
        let graded = session.grade(&grader, &found.submissions, &mut ()).unwrap();
        (graded.reports, started.elapsed())
    });
    let (reports, elapsed) = reports;
    let by_name: BTreeMap<&str, &Report> = reports.iter().map(|r| (r.name.as_str(), r)).collect();
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

/// A submission that spends 0.6 s of CPU time in each hand_value call with four fives (12
/// items), then loops forever when the start is a jack, and is otherwise correct.
fn cpu_burner() -> String {
    format!(
        "% 0.6 s of CPU per hand_value call with four fives; then a loop if the start is a jack.\n\
         hand_value(Hand, Start, Value) :-\n\
         \x20   base_value(Hand, Start, Value),\n\
         \x20   (   four_fives(Hand) -> burn(0.6) ; true ),\n\
         \x20   (   four_fives(Hand), Start = card(jack, _) -> loop ; true ).\n\
         four_fives(Hand) :- include(is_five, Hand, [_, _, _, _]).\n\
         is_five(card(5, _)).\n\
         burn(Secs) :- statistics(cputime, T0), End is T0 + Secs, spin(End).\n\
         spin(End) :- statistics(cputime, T), ( T >= End -> true ; spin(End) ).\n\
         loop :- loop.\n\
         select_hand(Cards, Hand, Crib) :- base_select(Cards, Hand, Crib).\n\n{}",
        correct_base()
    )
}

#[test]
fn timeouts_are_fair_under_load() {
    let _heavy = heavy();
    let keep = tempfile::tempdir().unwrap();
    let dir = keep.path().join("subs");
    std::fs::create_dir(&dir).unwrap();
    for name in ["burner_a.pl", "burner_b.pl"] {
        std::fs::write(dir.join(name), cpu_burner()).unwrap();
    }
    let subs = discover(&[dir], false).unwrap();
    let session = Session {
        jobs: NonZeroUsize::new(2).unwrap(),
        ..Session::new(keep.path().join("results"))
    };
    let limits = Limits {
        select_hand: Duration::from_secs(2),
        ..Limits::default()
    };
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Auto,
        limits,
        &common::seed(),
    )
    .unwrap();
    // A competing CPU hog, one busy thread, for as long as the grading lasts: with the two
    // workers, more runnable threads than this machine's two cores.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hogs: Vec<_> = (0..1)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let graded = session.grade(&grader, &subs, &mut ());
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for hog in hogs {
        hog.join().unwrap();
    }
    let reports = graded.unwrap().reports;
    assert_eq!(reports.len(), 2);
    for r in &reports {
        // Only the loop is stopped (by the watchdog on CPU time, or at the backstop if the
        // machine starves it); the eleven calls of 0.6 s of CPU each all pass, however long
        // the loaded machine makes them in wall-clock time.
        let hv = r.hand_value.as_ref().unwrap();
        let kinds: Vec<(FailureKind, usize)> =
            hv.kinds.iter().map(|k| (k.kind, k.classes)).collect();
        assert_eq!(kinds, [(FailureKind::Timeout, 1)], "{}", r.name);
        let c = &hv.counterexamples[0];
        assert!(four_fives(&c.hand) && c.start.rank() == Rank::Jack, "{c:?}");
        for t in &r.tests {
            assert_eq!(t.verdict, Verdict::Pass, "{} {}", r.name, t.id);
        }
        eprintln!(
            "{}: 11 calls of 0.6 s CPU all passed under load; hand_value took {} ms",
            r.name, hv.elapsed_ms
        );
    }
}

/// A submission whose hand_value calls with four fives (12 items) sleep `secs` (no CPU),
/// otherwise correct.
fn sleeper(secs: f64) -> String {
    format!(
        "hand_value(Hand, Start, Value) :-\n\
         \x20   (   include(is_five, Hand, [_, _, _, _]) -> sleep({secs}) ; true ),\n\
         \x20   base_value(Hand, Start, Value).\n\
         is_five(card(5, _)).\n\
         select_hand(Cards, Hand, Crib) :- base_select(Cards, Hand, Crib).\n\n{}",
        correct_base()
    )
}

#[test]
fn a_goal_that_sleeps_meets_the_wall_clock_backstop() {
    let _heavy = heavy();
    let keep = tempfile::tempdir().unwrap();
    let path = keep.path().join("sleepy.pl");
    std::fs::write(
        &path,
        format!(
            "hand_value(Hand, Start, Value) :- base_value(Hand, Start, Value),\n\
             \x20   ( include(is_five, Hand, [_, _, _, _]), Start = card(jack, _) -> sleep(60) ; true ).\n\
             is_five(card(5, _)).\n\
             select_hand(Cards, Hand, Crib) :- base_select(Cards, Hand, Crib).\n\n{}",
            correct_base()
        ),
    )
    .unwrap();
    let limits = Limits {
        hand_value: Duration::from_millis(500),
        select_hand: Duration::from_secs(2),
        ..Limits::default()
    };
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Auto,
        limits,
        &common::seed(),
    )
    .unwrap();
    let r = grader.grade(&discover(&[path], false).unwrap()[0], 0);
    let hv = r.hand_value.as_ref().unwrap();
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.classes)).collect();
    assert_eq!(kinds, [(FailureKind::Timeout, 1)]);
    // Stopped at the backstop, three times the limit in wall-clock time: sleeping uses no
    // CPU, so the CPU-time limit never fires.
    assert!(
        hv.counterexamples[0].got.contains("wall-clock backstop"),
        "{}",
        hv.counterexamples[0].got
    );
    for t in &r.tests {
        assert_eq!(t.verdict, Verdict::Pass, "{}", t.id);
    }
}

#[test]
fn two_graders_at_once_do_not_kill_each_other_children() {
    let _heavy = heavy();
    let keep = tempfile::tempdir().unwrap();
    let slow = keep.path().join("slow_sleeper.pl");
    std::fs::write(&slow, sleeper(0.4)).unwrap();
    let limits = Limits {
        select_hand: Duration::from_secs(2),
        ..Limits::default()
    };
    // Without namespaces: each child's end kills every process of its worker's uid.
    let a = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Rlimits,
        limits,
        &common::seed(),
    )
    .unwrap();
    let b = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Rlimits,
        limits,
        &common::seed(),
    )
    .unwrap();
    let slow = discover(&[slow], false).unwrap();
    let quick = discover(&[corpus_dir().join("correct.pl")], false).unwrap();
    let done = std::sync::atomic::AtomicBool::new(false);
    let (slow_report, sweeps) = std::thread::scope(|scope| {
        let other = scope.spawn(|| {
            // Grader b, same worker slot, grades and sweeps over and over meanwhile.
            let mut sweeps = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let r = b.grade(&quick[0], 0);
                assert_eq!(r.marks.total, 70.0, "{:?}", r.problems());
                sweeps += r.children;
            }
            sweeps
        });
        let r = a.grade(&slow[0], 0);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (r, other.join().unwrap())
    });
    assert!(sweeps >= 2, "the other grader swept only {sweeps} times");
    assert_eq!(
        (
            slow_report.children,
            slow_report.hand_value.as_ref().unwrap().children
        ),
        (1, 1),
        "a child was lost: {:?}",
        slow_report.problems()
    );
    assert_eq!(
        slow_report.marks.total,
        70.0,
        "{:?}",
        slow_report.problems()
    );
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
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Rlimits,
        limits,
        &common::seed(),
    )
    .unwrap();
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
    let _heavy = heavy();
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

/// Returns crib-sandbox's confiner, `crib-confine`, built beside this test binary (`cargo
/// test --workspace` builds it for crib-sandbox's own tests).
fn confiner() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("crib-confine"))
        .unwrap();
    assert!(
        path.is_file(),
        "{} is missing: build it with `cargo build -p crib-sandbox --bin crib-confine`",
        path.display()
    );
    path
}

/// A correct solution too slow to answer every rank pattern within the hand_value budget,
/// or every deal within the select_hand budget, is checked on the uniform sample the budgets
/// allow, keeps its 70 marks, and says how much was covered.
#[test]
fn a_slow_correct_solution_is_sampled_within_its_budget() {
    let _heavy = heavy();
    let keep = tempfile::tempdir().unwrap();
    let path = keep.path().join("slow_correct.pl");
    std::fs::write(
        &path,
        format!(
            "% 50 ms of CPU in every hand_value call, 0.3 s in every select_hand call,\n\
             % otherwise correct.\n\
             hand_value(Hand, Start, Value) :- burn(0.05), base_value(Hand, Start, Value).\n\
             burn(Secs) :- statistics(cputime, T0), End is T0 + Secs, spin(End).\n\
             spin(End) :- statistics(cputime, T), ( T >= End -> true ; spin(End) ).\n\
             select_hand(Cards, Hand, Crib) :- burn(0.3), base_select(Cards, Hand, Crib).\n\n{}",
            correct_base()
        ),
    )
    .unwrap();
    let limits = Limits {
        hand_value_budget: Duration::from_secs(6),
        select_hand: Duration::from_secs(2),
        select_hand_budget: Duration::from_secs(5),
        ..Limits::default()
    };
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Auto,
        limits,
        &common::seed(),
    )
    .unwrap();
    let r = grader.grade(&discover(&[path], false).unwrap()[0], 0);
    let hv = r.hand_value.as_ref().unwrap();
    assert!(
        hv.checked >= 20 && hv.checked < hv.patterns / 10,
        "checked {} of {}",
        hv.checked,
        hv.patterns
    );
    assert!(
        hv.stopped.as_deref().is_some_and(|s| s.contains("budget")),
        "{:?}",
        hv.stopped
    );
    assert_eq!(r.marks.total, 70.0, "{:?}", r.problems());
    assert!(
        r.problems()
            .iter()
            .any(|p| p.starts_with("hand_value sampled")),
        "{:?}",
        r.problems()
    );
    // About 5 s / 0.3 s deals asked, all right; the rest left out of the marks.
    let asked = r.tests.iter().filter(|t| t.credit.is_some()).count();
    assert!((5..30).contains(&asked), "{asked} deals asked");
    assert_eq!(r.marks.select_hand_total, asked);
    for t in &r.tests {
        match t.credit {
            Some(_) => assert_eq!(t.verdict, Verdict::Pass, "{}", t.id),
            None => assert!(
                matches!(&t.verdict, Verdict::NotRun { reason } if reason.contains("budget")),
                "{}: {:?}",
                t.id,
                t.verdict
            ),
        }
    }
}
