//! The report of a real graded class: tests/results/ holds what `crib grade` wrote for the
//! grader's corpus (crates/grade/tests/submissions); `cargo xtask report --regrade` grades
//! it again.

use std::path::Path;

fn results() -> Vec<crib_report::Report> {
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
        (crib_grade::Area::Fifteens, "broken_fifteens"),
        (crib_grade::Area::Pairs, "broken_pairs"),
        (crib_grade::Area::Runs, "broken_runs"),
        (crib_grade::Area::Flush, "broken_flush"),
        (crib_grade::Area::Nob, "broken_nob"),
    ] {
        let row = hv.areas.iter().find(|a| a.area == area).unwrap();
        assert!(
            row.members.iter().any(|&i| reports[i].name == name),
            "{name} errs in {area}"
        );
        assert!(row.median_share > 0.0 && row.example.is_some(), "{area}");
    }
    assert!(class.deep.is_none(), "the corpus is graded without --deep");
    let page = crib_report::html(&class, &reports);
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
    crib_report::marks_csv(&reports, &mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().count(), reports.len() + 1);
    assert!(csv.contains("\ncorrect,50.00,20.00,70.00,,"), "{csv}");
}
