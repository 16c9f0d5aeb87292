//! Measures grading throughput: 100 copies of tests/submissions/correct.pl graded with the
//! default limits, one worker per core, under the best isolation available, through the
//! same [`Session`] as `crib grade DIR`. The target is at most 2 minutes on a 2-core machine.
//!
//! `cargo bench -p crib-bench --bench hundred` runs it; add `-- worst` to also time the
//! worst submission (every test loops until its limit) against the bound
//! [`Limits::submission_budget`].

use std::time::Instant;

use crib_grade::{discover, Grader, IsolationChoice, Limits, SeedChoice, Session};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let worst = std::env::args().any(|a| a == "worst");
    let correct = crib_bench::repo_path("crates/grade/tests/submissions/correct.pl");
    let dir = tempfile::tempdir()?;
    for i in 0..100 {
        std::fs::copy(&correct, dir.path().join(format!("student{i:03}.pl")))?;
    }
    let session = Session::new(dir.path().join("results"));
    let tests = session.tests(&SeedChoice::default())?;
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Auto,
        Limits::default(),
        &tests,
    )?;
    let subs = session.discover(&[dir.path().to_path_buf()], false)?;
    let jobs = session.jobs;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let started = Instant::now();
    let graded = session.grade(&grader, &subs, &mut ())?;
    let full = graded
        .reports
        .iter()
        .filter(|r| r.marks.total == 70.0)
        .count();
    let took = started.elapsed();
    println!(
        "hundred: {} correct submissions graded in {:.1} s ({} with 70/70), {jobs} workers, \
         isolation {}, load average before: {}",
        subs.len(),
        took.as_secs_f64(),
        full,
        grader.isolation().name(),
        load.trim()
    );
    if worst {
        let path = dir.path().join("worst.pl");
        std::fs::write(
            &path,
            "hand_value(_, _, _) :- loop.\nselect_hand(_, _, _) :- loop.\nloop :- loop.\n",
        )?;
        let sub = discover(&[path], false)?.remove(0);
        let started = Instant::now();
        let report = grader.grade(&sub, 0);
        println!(
            "worst: every test times out: {:.1} s for {} tests (bound {:.1} s), {} children",
            started.elapsed().as_secs_f64(),
            report.tests.len(),
            Limits::default()
                .submission_budget(grader.test_set())
                .as_secs_f64(),
            report.children
        );
    }
    Ok(())
}
