//! The grader's timing under load, graded one test at a time and alone (`cargo xtask test`
//! runs this binary after the others): CPU-time limits fair under load, the wall-clock
//! backstop, budgets and sampling, two graders at once. (Memory in a small cgroup measures
//! no time: it is in robustness.rs, which runs beside the other binaries.)

mod common;

use std::num::NonZeroUsize;
use std::time::Duration;

use common::{corpus_dir, correct_base, four_fives, sleeper};
use crib_core::Rank;
use crib_grade::{Limits, Session};
use crib_isolation::IsolationChoice;
use crib_results::{FailureKind, Verdict};
use crib_submission::discover;

// ---- fair timing under load (issue 15) ----

/// Taken by every test here that grades whole submissions, so that they run one at a time:
/// the load they measure is the one they make.
fn heavy() -> std::sync::MutexGuard<'static, ()> {
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
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
    let grader = common::grader(IsolationChoice::Auto, limits);
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
        let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.items)).collect();
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
    let grader = common::grader(IsolationChoice::Auto, limits);
    let r = grader.grade(
        &discover(&[path], false).unwrap()[0],
        crib_sandbox::Worker::FIRST,
    );
    let hv = r.hand_value.as_ref().unwrap();
    let kinds: Vec<(FailureKind, usize)> = hv.kinds.iter().map(|k| (k.kind, k.items)).collect();
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
    let a = common::grader(IsolationChoice::Rlimits, limits);
    let b = common::grader(IsolationChoice::Rlimits, limits);
    let slow = discover(&[slow], false).unwrap();
    let quick = discover(&[corpus_dir().join("correct.pl")], false).unwrap();
    let done = std::sync::atomic::AtomicBool::new(false);
    let (slow_report, endings) = std::thread::scope(|scope| {
        let other = scope.spawn(|| {
            // Grader b, same worker slot, grades and ends its leftovers over and over meanwhile.
            let mut endings = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let r = b.grade(&quick[0], crib_sandbox::Worker::FIRST);
                assert_eq!(r.marks.total, 70.0, "{:?}", r.problems());
                endings += r.children;
            }
            endings
        });
        let r = a.grade(&slow[0], crib_sandbox::Worker::FIRST);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (r, other.join().unwrap())
    });
    assert!(
        endings >= 2,
        "the other grader ended its leftovers only {endings} times"
    );
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
        hand_value_budget: Duration::from_secs(3),
        select_hand: Duration::from_secs(2),
        select_hand_budget: Duration::from_secs(2),
        load: Duration::from_secs(3),
        ..Limits::default()
    };
    let grader = common::grader(IsolationChoice::Auto, limits);
    let r = grader.grade(
        &discover(&[path], false).unwrap()[0],
        crib_sandbox::Worker::FIRST,
    );
    let hv = r.hand_value.as_ref().unwrap();
    assert!(
        hv.checked >= 10 && hv.checked < hv.patterns / 10,
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
            .any(|p| p.text.starts_with("hand_value sampled")),
        "{:?}",
        r.problems()
    );
    // The budget (2 s, and the load limit's 3 s) / 0.3 s deals asked, all right; the rest
    // left out of the marks.
    let asked = r.tests.iter().filter(|t| t.credit.is_some()).count();
    assert!(asked >= 3 && asked < r.tests.len(), "{asked} deals asked");
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
