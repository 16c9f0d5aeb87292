//! Times the class report of 500 submissions: reading the results directory, the class
//! statistics, the HTML page and the marks CSV (target: 500 results in <= 1 s). The 500
//! results are the corpus's real results (tests/results/) copied under new names.
//!
//! `class_of_500_quality` times the same with code quality: each result has a `quality`
//! section (findings spread over its source's lines), the page shows the findings inline
//! in each submission's source (`--submissions`: the corpus's real sources copied under the
//! new names), and the markers' sheet, filled, is read back into the page and marks.csv.

use crib_results::{Finding, Lint};
use criterion::Criterion;

const CLASS: usize = 500;

/// Rules and messages of the shape crib lint gives.
const RULES: [(&str, &str); 7] = [
    (
        "D101",
        "no header comment saying what the file is and who wrote it",
    ),
    ("D102", "no comment before its first clause"),
    ("W201", "singleton variable Hand"),
    ("L401", "line of 93 characters (at most 80)"),
    ("L402", "tab character"),
    (
        "I503",
        "findall/3 then length/2: aggregate_all(count, ...) counts without the list",
    ),
    ("X301", "unreachable from hand_value/3 and select_hand/3"),
];

/// The results directory, and with `quality` a submissions directory and a filled sheet.
struct ClassDirs {
    results: tempfile::TempDir,
    submissions: tempfile::TempDir,
}

fn class_dirs(quality: bool) -> ClassDirs {
    let corpus = crate::repo_path("crates/report/tests/results");
    let sources = crate::repo_path("crates/grade/tests/submissions");
    let reports = crib_report::read_results(&corpus).expect("the checked-in results read");
    let dirs = ClassDirs {
        results: tempfile::tempdir().expect("a temporary directory"),
        submissions: tempfile::tempdir().expect("a temporary directory"),
    };
    let mut sheet = String::from("submission,documentation,readability,design,notes\n");
    for i in 0..CLASS {
        let mut report = reports[i % reports.len()].clone();
        let original = report.name.clone();
        report.name = format!("student{i:03}-{}", report.name);
        let source = sources.join(format!("{original}.pl"));
        if quality && source.is_file() {
            let text = std::fs::read(&source).expect("a corpus source reads");
            let lines = text.iter().filter(|b| **b == b'\n').count().max(1) as u32;
            let file = format!("{}.pl", report.name);
            std::fs::write(dirs.submissions.path().join(&file), text)
                .expect("the temporary directory is writable");
            let findings = (0..(i % 13) as u32)
                .map(|k| {
                    let (rule, message) = RULES[(i + k as usize * 3) % RULES.len()];
                    Finding {
                        rule: rule.into(),
                        file: file.clone(),
                        line: 1 + (k * 7 + i as u32) % lines,
                        column: None,
                        predicate: Some("hand_value/3".into()),
                        message: message.into(),
                    }
                })
                .collect();
            report.quality = Some(Lint::new(report.name.clone(), findings));
            if i % 4 != 0 {
                sheet.push_str(&format!("{},{},{},{},ok\n", report.name, i % 11, 7, 8));
            }
        }
        let text = serde_json::to_string_pretty(&report).expect("a report serializes");
        std::fs::write(
            dirs.results.path().join(format!("{}.json", report.name)),
            text,
        )
        .expect("the temporary directory is writable");
    }
    std::fs::write(dirs.submissions.path().join("sheet.csv.txt"), sheet)
        .expect("the temporary directory is writable");
    dirs
}

/// The class report of 500 results: `cargo bench -p crib-bench --bench report`.
pub fn benches(c: &mut Criterion) {
    let dirs = class_dirs(false);
    let quality = class_dirs(true);
    let mut group = c.benchmark_group("report");
    group.sample_size(10);
    group.bench_function("class_of_500", |b| {
        b.iter(|| {
            let reports = crib_report::read_results(dirs.results.path()).expect("results read");
            let class = crib_report::Class::new(&reports);
            let page = crib_report::html(&class, &reports, Default::default());
            let mut csv = Vec::new();
            crib_report::marks_csv(&reports, Default::default(), &mut csv).expect("csv in memory");
            (page.len(), csv.len())
        })
    });
    let sheet = quality.submissions.path().join("sheet.csv.txt");
    let rubric = crib_report::Rubric::default_rubric();
    let with_quality = || {
        let reports = crib_report::read_results(quality.results.path()).expect("results read");
        let sources = crib_report::Sources::read(quality.submissions.path(), &reports)
            .expect("submissions found");
        let marks = crib_report::read_sheet(&sheet, &reports, &rubric).expect("the sheet reads");
        let class = crib_report::Class::new(&reports);
        let similar = crib_report::SimilarPairs::new(&sources, "similar.html");
        let extras = crib_report::PageExtras {
            sources: Some(&sources),
            similar: Some(&similar),
            marks: crib_report::MarksExtras {
                quality: Some(&marks),
                deadline: None,
            },
        };
        let page = crib_report::html(&class, &reports, extras);
        let mut csv = Vec::new();
        crib_report::marks_csv(&reports, extras.marks, &mut csv).expect("csv in memory");
        (page, csv.len())
    };
    group.bench_function("class_of_500_quality", |b| b.iter(with_quality));
    group.finish();
    let reports = crib_report::read_results(dirs.results.path()).expect("results read");
    let page = crib_report::html(
        &crib_report::Class::new(&reports),
        &reports,
        Default::default(),
    );
    eprintln!(
        "report: page of {CLASS} results is {} KiB; with code quality inline in the source, {} KiB",
        page.len().div_ceil(1024),
        with_quality().0.len().div_ceil(1024)
    );
}
