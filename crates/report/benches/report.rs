//! Times the class report of 500 submissions: reading the results directory, the class
//! statistics, the HTML page and the marks CSV (target: 500 results in <= 1 s). The 500
//! results are the corpus's real results (tests/results/) copied under new names.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};

const CLASS: usize = 500;

fn class_dir() -> tempfile::TempDir {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/results");
    let reports = crib_report::read_results(&corpus).expect("the checked-in results read");
    let dir = tempfile::tempdir().expect("a temporary directory");
    for i in 0..CLASS {
        let mut report = reports[i % reports.len()].clone();
        report.name = format!("student{i:03}-{}", report.name);
        let text = serde_json::to_string_pretty(&report).expect("a report serializes");
        std::fs::write(dir.path().join(format!("{}.json", report.name)), text)
            .expect("the temporary directory is writable");
    }
    dir
}

fn report(c: &mut Criterion) {
    let dir = class_dir();
    // The test set is built once per process, by `crib report` too; build it outside.
    let _ = crib_grade::test_set();
    let mut group = c.benchmark_group("report");
    group.sample_size(10);
    group.bench_function("class_of_500", |b| {
        b.iter(|| {
            let reports = crib_report::read_results(dir.path()).expect("results read");
            let class = crib_report::Class::new(&reports);
            let page = crib_report::html(&class, &reports);
            let mut csv = Vec::new();
            crib_report::marks_csv(&reports, &mut csv).expect("csv in memory");
            (page.len(), csv.len())
        })
    });
    group.finish();
    let reports = crib_report::read_results(dir.path()).expect("results read");
    let page = crib_report::html(&crib_report::Class::new(&reports), &reports);
    eprintln!(
        "report: page of {CLASS} results is {} KiB",
        page.len().div_ceil(1024)
    );
}

criterion_group!(benches, report);
criterion_main!(benches);
