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

use common::{confiner, corpus_dir, four_fives};
use crib_core::{Card, Rank};
use crib_grade::{Grader, Limits, Session};
use crib_isolation::{Isolation, IsolationChoice};
use crib_results::{Area, FailureKind, Predicate, SubmissionResult, Verdict};
use crib_submission::{discover, Submission};
use crib_testset::TestSet;

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
    "redefines_system",
    "shadows_library",
];

/// Submissions whose hand_value/3 is checked on all 23,647 rank patterns: those whose
/// failures are on rare patterns (four fives), and those whose errors are located by area.
/// The rest are checked on the first [`SAMPLE`] patterns of the seed's order, which is all
/// their tests need, and keeps the suite short.
const FULL: &[&str] = &[
    "halt_call",
    "halt_exit",
    "infinite_loop",
    "stubborn_loop",
    "memory_hog",
    "deep_recursion",
    "broken_fifteens",
    "broken_pairs",
    "broken_runs",
    "broken_flush",
    "broken_nob",
];

/// The submissions that take longest to grade: graded first.
const SLOWEST: &[&str] = &["stubborn_loop", "slow", "load_loop", "halt_exit"];

/// How many rank patterns the other submissions are asked.
const SAMPLE: usize = 3_000;

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
    reports: BTreeMap<String, SubmissionResult>,
    /// [`LEGITIMATE`] and [`HOSTILE`], without namespaces (rlimits + seccomp + Landlock).
    bare: BTreeMap<String, SubmissionResult>,
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
                 breach(tamper) :- catch((open('../../grader/select_hand_tests.bin', append, S), close(S)), _, fail).\n\
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
) -> (BTreeMap<String, SubmissionResult>, Isolation, Vec<String>) {
    let mut grader = Grader::new("swipl".as_ref(), choice, limits, &common::tests())
        .expect("these tests need swipl and a working bwrap");
    // Memory blow-ups get more time and less memory, so that a loaded machine cannot
    // turn their `memory` into `timeout`; they go to the roomy grader, after the rest.
    let roomy = Limits {
        hand_value: Duration::from_secs(8),
        memory: 192 << 20,
        ..limits
    };
    let mut roomy = Grader::new("swipl".as_ref(), choice, roomy, &common::tests()).unwrap();
    let sampled = Limits {
        hand_value_patterns: Some(SAMPLE),
        ..limits
    };
    let mut sampled = Grader::new("swipl".as_ref(), choice, sampled, &common::tests()).unwrap();
    // Under bubblewrap, Landlock too, as `crib grade` does it.
    for grader in [&mut grader, &mut roomy, &mut sampled] {
        grader
            .confine_with(&confiner())
            .expect("Landlock under bubblewrap");
    }
    let (memory, rest): (Vec<Submission>, Vec<Submission>) = subs
        .into_iter()
        .partition(|s| ["memory_hog", "deep_recursion"].contains(&s.name.as_str()));
    let (mut full, mut rest): (Vec<Submission>, Vec<Submission>) = rest
        .into_iter()
        .partition(|s| FULL.contains(&s.name.as_str()));
    // The slowest first (a hang each costs seconds of silence), so that none is left to
    // finish alone at the end.
    for subs in [&mut full, &mut rest] {
        subs.sort_by_key(|s| !SLOWEST.contains(&s.name.as_str()));
    }
    // One child at a time per submission on any machine: the tests count children.
    let session = Session {
        jobs: NonZeroUsize::new(3).unwrap(),
        cores: NonZeroUsize::MIN,
        ..Session::new(out)
    };
    let mut reports = BTreeMap::new();
    let mut leftovers = Vec::new();
    for (grader, subs) in [(&grader, full), (&sampled, rest), (&roomy, memory)] {
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

fn report(name: &str) -> &'static SubmissionResult {
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
    ITEMS.get_or_init(|| test_set().hand_value_items())
}

fn test_set() -> &'static TestSet {
    static SET: OnceLock<TestSet> = OnceLock::new();
    SET.get_or_init(|| TestSet::new(&common::seed()))
}

/// The items of the first `patterns` rank patterns of the tests' seed.
fn items_of(patterns: usize) -> &'static [(Vec<Card>, Card, u8)] {
    &items()[..crib_testset::patterns::items_of_first(&test_set().hand_value, patterns)]
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
    let asked = if FULL.contains(&name) {
        hv.patterns
    } else {
        SAMPLE
    };
    assert_eq!(hv.checked, asked, "{name}: {:?}", hv.stopped);
    let odd = items_of(asked)
        .iter()
        .filter(|(h, s, v)| odd_one_out(h, *s, *v))
        .count();
    assert!(odd > 0, "{name}: no item hits the failure");
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.items)).collect();
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
        (SAMPLE, 0.0),
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
    // One child, which the watchdog's timeout does not end; two when a starved machine made
    // the loop meet the wall-clock backstop, and the item was asked again in a child of its
    // own (a wall-clock timeout always is).
    let children = report("infinite_loop")
        .hand_value
        .as_ref()
        .unwrap()
        .children;
    assert!((1..=2).contains(&children), "{children} children");
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
        vec![crib_results::Predicate::SelectHand]
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
        .filter(|t| t.predicate == Predicate::SelectHand)
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

/// A submission's own (broken) versions of what the children call, in `user`, never reach
/// the children's code: system predicates redefined with redefine_system_predicate/1
/// (length/2, msort/2, format/3, ...), and library predicates and hooks (member/2,
/// reverse/2, json_write_dict/3, goal_expansion/2, ...). Both files are correct otherwise:
/// every answer is judged, and right, under bubblewrap and without namespaces.
#[test]
fn what_a_submission_defines_never_reaches_the_children() {
    let g = graded();
    for name in ["redefines_system", "shadows_library"] {
        for (mode, r) in [("bwrap", report(name)), ("rlimits", &g.bare[name])] {
            assert_eq!(r.load.load_failed, None, "{name} ({mode})");
            let hand_value = r.hand_value.as_ref().expect("checked");
            assert!(hand_value.checked > 0, "{name} ({mode}): {hand_value:?}");
            assert_eq!(hand_value.share_wrong, 0.0, "{name} ({mode})");
            assert_eq!(r.marks.hand_value, 50.0, "{name} ({mode})");
            assert!(
                r.tests.iter().all(|t| t.verdict == Verdict::Pass),
                "{name} ({mode}): {:?}",
                r.tests.iter().map(|t| t.verdict.name()).collect::<Vec<_>>()
            );
        }
    }
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
        .filter(|t| t.predicate == Predicate::SelectHand)
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
fn snoop_found_nothing(snoop: &SubmissionResult, mode: &str) {
    let hv = snoop
        .hand_value
        .as_ref()
        .expect("the snoop defines hand_value/3");
    assert_eq!(hv.checked, SAMPLE, "{mode}: snoop: {:?}", hv.stopped);
    let worth_something = items_of(SAMPLE).iter().filter(|(_, _, v)| *v != 0).count();
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.items)).collect();
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
        let kinds = |r: &SubmissionResult| -> Vec<FailureKind> {
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
    let back: SubmissionResult = serde_json::from_value(json).unwrap();
    assert_eq!(&back, report("exceptions"));
    let gs = crib_results::gradescope(
        report("correct"),
        crib_results::VisibilityPolicy::AllVisible,
    );
    assert_eq!(gs["score"], 70.0);
    // The marked hand_value test, one per rule area, one per select_hand test.
    assert_eq!(
        gs["tests"].as_array().unwrap().len(),
        1 + 5 + report("correct").tests.len()
    );
}
