use super::*;
use crate::class::tests::report;

fn page(reports: &[Report]) -> String {
    html(&Class::new(reports), reports)
}

#[test]
fn the_page_stands_alone() {
    let reports = [
        report("alice", &[("hv:spec:assignment-1", "pass")]),
        report("bob", &[("hv:spec:assignment-1", "wrong:2")]),
    ];
    let text = page(&reports);
    assert!(text.starts_with("<!DOCTYPE html>"));
    for outside in ["<link", " src=", "href=\"http", "url(", "@import"] {
        assert!(!text.contains(outside), "the page loads nothing: {outside}");
    }
    assert_eq!(text.matches("<svg").count(), 3, "three histograms");
    assert_eq!(text.matches("<script>").count(), 1);
    for i in 0..reports.len() {
        assert!(text.contains(&format!("href=\"#s{i}\"")));
        assert!(text.contains(&format!("id=\"s{i}\"")));
    }
    assert!(text.contains("got 2"), "bob's wrong answer is listed");
    assert!(
        text.contains("expected: <b>0</b>"),
        "with the expected answer"
    );
}

#[test]
fn names_and_messages_are_escaped() {
    let mut r = report(
        "<script>alert(1)</script>",
        &[("hv:spec:assignment-1", "pass")],
    );
    r.load.diagnostics.push(crib_grade::Diagnostic {
        kind: "error".into(),
        file: "a&b.pl".into(),
        line: 2,
        message: "</pre><img>".into(),
    });
    let text = page(&[r]);
    assert!(!text.contains("<script>alert"), "the name is escaped");
    assert!(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(text.contains("a&amp;b.pl:2"));
    assert!(!text.contains("<img>"));
}

#[test]
fn every_verdict_has_a_symbol_and_a_colour() {
    for (name, symbol) in VERDICTS {
        assert!(!symbol.is_empty());
        assert!(
            STYLE.contains(&format!(".v-{name} ")),
            "{name} has a colour"
        );
    }
    let text = badge("timeout", Some(3)).into_string();
    assert!(text.contains("v-timeout") && text.contains("timeout") && text.contains("<b>3</b>"));
}
