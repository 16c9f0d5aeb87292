//! Times `crib lint`'s engine: one plain student-style solution (target: <= 0.5 s), and,
//! once, 500 copies of it on two workers (target: 500 in <= 2 min on 2 cores), printed as
//! `lint: 500 submissions on 2 workers in X s`. Each lint starts a sandboxed swipl that
//! loads, reads and cross-references the file.

use std::time::Instant;

use crib_isolation::IsolationChoice;
use crib_lint::{JailedLinter, Linter};
use crib_submission::{Submission, MAX_BYTES};
use criterion::Criterion;

const MANY: usize = 500;

fn solution(name: &str) -> Submission {
    Submission {
        name: name.to_string(),
        path: crate::repo_path("crates/grade/tests/submissions").join("correct.pl"),
        lms: None,
    }
}

/// One lint timed by criterion, then 500 on two workers, once: `cargo bench -p crib-bench
/// --bench lint`.
pub fn benches(c: &mut Criterion) {
    let linter = JailedLinter::new("swipl".as_ref(), IsolationChoice::Auto, Linter::default())
        .expect("swipl runs here");
    let correct = solution("correct");
    let mut group = c.benchmark_group("lint");
    group.sample_size(20);
    group.bench_function("correct.pl", |b| {
        b.iter(|| linter.lint(crib_sandbox::Worker::FIRST, &correct, MAX_BYTES))
    });
    group.finish();
    let copy = solution("copy");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for worker in (0..2).filter_map(crib_sandbox::Worker::new) {
            let (linter, copy, next) = (&linter, &copy, &next);
            scope.spawn(move || {
                while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < MANY {
                    let lint = linter.lint(worker, copy, MAX_BYTES);
                    assert!(!lint.findings.iter().any(|f| f.rule == "E002"));
                }
            });
        }
    });
    println!(
        "lint: {MANY} submissions on 2 workers in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
