//! The class's rules, the sources found for the page, and the page's code-review view.

use super::*;
use crate::class::tests::report;
use crib_results::{Finding, Lint};

/// Returns the lint of `name` with one finding in `name.pl` per (rule, line).
pub(crate) fn linted(name: &str, findings: &[(&str, u32)]) -> Lint {
    let findings = findings
        .iter()
        .map(|(rule, line)| Finding {
            rule: (*rule).into(),
            file: format!("{name}.pl"),
            line: *line,
            column: None,
            predicate: Some("hand_value/3".into()),
            message: format!("{rule} <here> & there"),
        })
        .collect();
    Lint::new(name, findings)
}

fn class() -> Vec<SubmissionResult> {
    let mut reports: Vec<SubmissionResult> = ["ann", "ben", "cat", "dan"]
        .iter()
        .map(|n| report(n, &[]))
        .collect();
    reports[0].quality = Some(linted("ann", &[("D102", 2), ("L401", 3), ("L401", 40)]));
    reports[1].quality = Some(linted("ben", &[("L401", 1)]));
    reports[2].quality = Some(linted("cat", &[]));
    reports
}

#[test]
fn the_class_counts_submissions_per_rule() {
    let unlinted = [report("x", &[])];
    assert_eq!(QualityClass::new(&unlinted), None);
    let page = crate::html(&crate::Class::new(&unlinted), &unlinted, Default::default());
    assert!(
        !page.contains("id=\"quality\""),
        "no section without a quality section"
    );
    assert!(!page.contains("quality findings"), "nor a column");
    let q = QualityClass::new(&class()).unwrap();
    assert_eq!((q.linted, q.clean), (3, 1));
    let rows: Vec<(&str, usize, usize)> = q
        .rules
        .iter()
        .map(|r| (r.rule.as_str(), r.submissions, r.findings))
        .collect();
    assert_eq!(rows, [("L401", 2, 3), ("D102", 1, 1)]);
}

#[test]
fn sources_follow_grades_naming_and_a_missing_one_is_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ann.pl"), "% ann\nfoo.\nbar :- foo.\n").unwrap();
    std::fs::create_dir(dir.path().join("ben")).unwrap();
    std::fs::write(dir.path().join("ben/ben.pl"), "baz.\n").unwrap();
    std::fs::write(dir.path().join("ben/notes.txt"), "not prolog").unwrap();
    let sources = Sources::read(dir.path(), &class()).unwrap();
    let ann = sources.by_name.get("ann").unwrap();
    assert!(
        matches!(ann, SubmissionSource::Found(f) if f.len() == 1 && f[0].file == "ann.pl" && f[0].text.starts_with("% ann")),
        "{ann:?}"
    );
    let ben = sources.by_name.get("ben").unwrap();
    assert!(
        matches!(ben, SubmissionSource::Found(f) if f.len() == 1 && f[0].file == "ben.pl"),
        "{ben:?}"
    );
    let cat = sources.by_name.get("cat").unwrap();
    assert_eq!(
        cat,
        &SubmissionSource::Missing(format!(
            "no submission named \"cat\" in {}",
            dir.path().display()
        ))
    );
    let err = Sources::read(&dir.path().join("nowhere"), &class()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot find the submissions in "),
        "{err}"
    );

    // The page shows each finding under its line, escaped, and the rest in a list.
    let reports = class();
    let page = crate::html(
        &crate::Class::new(&reports),
        &reports,
        crate::PageExtras {
            sources: Some(&sources),
            ..Default::default()
        },
    );
    assert!(page.contains("<h2 id=\"quality\">Code quality</h2>"));
    assert!(page.contains("<table id=\"quality-rules\">"));
    assert!(page.contains("data-rules=\"2\""));
    let line2 = "<span class=\"ln\">2</span><span class=\"hit\">foo.</span>\n<span class=\"fx\">\
                 <span class=\"rule\">D102</span> [hand_value/3] D102 &lt;here&gt; &amp; there</span>";
    assert!(page.contains(line2), "finding under line 2");
    assert!(page.contains("<span class=\"ln\">1</span>% ann\n<span class=\"ln\">2</span>"));
    assert!(
        page.contains("findings outside the lines shown:"),
        "line 40 of a 3-line file"
    );
    assert!(
        page.contains("source not shown: no submission named &quot;cat&quot;"),
        "cat is reported, not fatal"
    );
    assert!(page.contains("<a href=\"#quality\">Code quality</a>"));
}
