//! The report of a real graded class: tests/results/ holds what `crib grade` wrote for the
//! grader's corpus (crates/grade/tests/submissions); `cargo xtask report --regrade` grades
//! it again.

use std::path::Path;

fn results() -> Vec<crib_results::SubmissionResult> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/results");
    crib_report::read_results(&dir).expect("the checked-in results read")
}

#[test]
fn the_corpus_report_shows_every_submission() {
    let reports = results();
    let class = crib_report::Class::new(&reports);
    assert_eq!(class.summary.submissions, reports.len());
    assert!(
        reports.len() >= 20,
        "the corpus is graded: {}",
        reports.len()
    );
    let correct = reports.iter().find(|r| r.name == "correct").unwrap();
    assert_eq!(correct.marks.total, 70.0);
    assert!(
        class.summary.loaded < reports.len(),
        "some submissions do not load"
    );
    assert!(class.summary.crashed > 0 && class.summary.timed_out > 0);
    for h in &class.histograms {
        assert_eq!(h.counts.iter().sum::<usize>(), reports.len(), "{}", h.title);
    }
    assert!(class.tests[0].failed > 0);
    assert!(
        class.tests.windows(2).all(|w| w[0].failed >= w[1].failed),
        "most failed first"
    );
    assert_eq!(
        class.summary.seeds.len(),
        1,
        "the corpus is graded in one run"
    );
    assert!(class.summary.test_sets[0].0.ends_with(&correct.seed_id));
    assert_eq!(
        correct.hand_value.as_ref().map(|h| h.share_wrong),
        Some(0.0)
    );

    // Each broken_RULE submission errs where its rule scores, and the rows say so.
    let hv = &class.hand_value;
    assert!(!hv.not_checked.is_empty(), "some submissions do not load");
    assert!(hv.clean.iter().any(|&i| reports[i].name == "correct"));
    for (area, name) in [
        (crib_results::Area::Fifteens, "broken_fifteens"),
        (crib_results::Area::Pairs, "broken_pairs"),
        (crib_results::Area::Runs, "broken_runs"),
        (crib_results::Area::Flush, "broken_flush"),
        (crib_results::Area::Nob, "broken_nob"),
    ] {
        let row = hv.areas.iter().find(|a| a.area == area).unwrap();
        assert!(
            row.members.iter().any(|&i| reports[i].name == name),
            "{name} errs in {area}"
        );
        assert!(row.median_share > 0.0 && row.example.is_some(), "{area}");
    }
    assert!(class.deep.is_none(), "the corpus is graded without --deep");
    let page = crib_report::html(&class, &reports, Default::default());
    assert!(
        !page.contains("id=\"deep\""),
        "so the page has no deep section"
    );
    assert!(page.contains("<table id=\"hand-value-areas\">"));
    for r in &reports {
        assert!(page.contains(&r.name), "{} is on the page", r.name);
    }
    assert!(
        page.matches("fill=\"#0072B2\"").count() >= 3,
        "the plots have bars"
    );

    let mut csv = Vec::new();
    crib_report::marks_csv(&reports, Default::default(), &mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().count(), reports.len() + 1);
    assert!(csv.contains("\ncorrect,50.00,20.00,70.00,,"), "{csv}");
}

/// The results the export test hands back, in the order of `tests/export/records.json`.
const EXPORTED: [&str; 3] = ["broken_runs", "correct", "exceptions"];

/// Returns the files below `dir`, relative to it, sorted.
fn files_below(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    files
}

/// Returns the zip's entries: one line each, its name and size, and checks that each is the
/// feedback file of that student.
fn zip_listing(zip: &[u8], out: &Path) -> String {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let mut listing = String::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        let name = entry.name().unwrap().to_string();
        let mut body = String::new();
        std::io::Read::read_to_string(&mut entry, &mut body).unwrap();
        listing.push_str(&format!("{name}\t{}\n", body.len()));
        let ext = name.rsplit('.').next().unwrap();
        let same = EXPORTED.iter().any(|n| {
            std::fs::read_to_string(out.join(format!("feedback/{n}.{ext}"))).unwrap() == body
        });
        assert!(same, "{name} is a student's feedback file");
    }
    listing
}

/// Issue 27, part 2: each format's export of three graded submissions, checked file by file
/// against tests/export/<format>/ (UPDATE_EXPECT=1 rewrites them).
#[test]
fn each_export_writes_the_expected_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/export");
    let reports: Vec<crib_results::SubmissionResult> = results()
        .into_iter()
        .filter(|r| EXPORTED.contains(&r.name.as_str()))
        .collect();
    assert_eq!(reports.len(), EXPORTED.len());
    let records: std::collections::BTreeMap<
        String,
        std::collections::BTreeMap<String, crib_results::Record>,
    > = serde_json::from_str(&std::fs::read_to_string(root.join("records.json")).unwrap()).unwrap();
    let rubric = crib_report::Rubric::default_rubric();
    let quality = crib_report::read_sheet(&root.join("sheet.csv"), &reports, &rubric).unwrap();
    let due = crib_report::parse_due("2026-09-01T17:00+10:00").unwrap();
    let policy = crib_report::Policy::parse("10% per day, at most 5 days, then 0").unwrap();
    let mut deadline = crib_report::Deadline::new(due, policy);
    deadline.times = crib_report::Times::read(&root.join("times.csv")).unwrap();
    let submissions = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grade/tests/submissions");
    let sources = crib_report::Sources::read(&submissions, &reports).unwrap();
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    for format in crib_report::GradebookFormat::ALL {
        let mut reports = reports.clone();
        for r in &mut reports {
            r.lms = records
                .get(format.name())
                .and_then(|by_name| by_name.get(&r.name))
                .cloned();
        }
        let tmp = tempfile::tempdir().unwrap();
        let feedback = crib_report::FeedbackOptions {
            assignment: "Project 1 (81)",
            extras: crib_report::MarksExtras {
                quality: Some(&quality),
                deadline: Some(&deadline),
            },
            sources: Some(&sources),
            visibility: crib_results::VisibilityPolicy::AllVisible,
        };
        let exported = crib_report::export(&reports, format, feedback, tmp.path()).unwrap();
        let mut got: Vec<(std::path::PathBuf, Vec<u8>)> = Vec::new();
        for file in &exported.files {
            let bytes = std::fs::read(tmp.path().join(file)).unwrap();
            if file.extension().is_some_and(|x| x == "zip") {
                let listing = zip_listing(&bytes, tmp.path());
                got.push((file.with_extension("zip.txt"), listing.into_bytes()));
            } else {
                got.push((file.clone(), bytes));
            }
        }
        let missing: String = exported.missing.iter().map(|m| format!("{m}\n")).collect();
        got.push(("missing.txt".into(), missing.into_bytes()));
        got.sort();
        let expected_dir = root.join(format.name());
        if update {
            let _ = std::fs::remove_dir_all(&expected_dir);
            for (file, bytes) in &got {
                let path = expected_dir.join(file);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, bytes).unwrap();
            }
            continue;
        }
        let names: Vec<_> = got.iter().map(|(f, _)| f.clone()).collect();
        assert_eq!(
            files_below(&expected_dir),
            names,
            "{format}: the files written (UPDATE_EXPECT=1 rewrites tests/export)"
        );
        for (file, bytes) in &got {
            let want = std::fs::read(expected_dir.join(file)).unwrap();
            assert!(
                want == *bytes,
                "{format}: {} differs from tests/export/{format}/{} \
                 (UPDATE_EXPECT=1 rewrites it):\n{}",
                file.display(),
                file.display(),
                String::from_utf8_lossy(bytes)
            );
        }
    }
}
