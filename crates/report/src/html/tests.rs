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

#[test]
fn a_class_without_deep_checks_has_no_deep_section() {
    let text = page(&[report("alice", &[("hv:spec:assignment-1", "pass")])]);
    for deep in [
        "id=\"deep\"",
        "href=\"#deep\"",
        "Deep check",
        "deep: pairs wrong",
    ] {
        assert!(!text.contains(deep), "{deep}");
    }
}

#[test]
fn real_deep_checks_are_shown_for_the_class_and_each_submission() {
    let mut reports = crate::deep::tests::deep_results();
    let again = crate::deep::tests::copy_of(&reports, "runs-sort-dedup", "runs-sort-dedup-again");
    reports.push(again);
    let text = page(&reports);
    assert!(text.contains("<h2 id=\"deep\">Deep check (not marked)</h2>"));
    assert!(text.contains("href=\"#deep\""), "the nav leads to it");
    assert!(text.contains("5 of 5 submissions were deep-checked"));
    for outside in ["<link", " src=", "href=\"http", "url(", "@import"] {
        assert!(!text.contains(outside), "the page loads nothing: {outside}");
    }
    // Three mark histograms and the two share histograms.
    assert_eq!(text.matches("<svg").count(), 5);
    assert!(text.contains("share of pairs wrong") && text.contains("share of deals not optimal"));
    assert!(
        text.contains("1\u{2013}10%") && text.contains("\u{2265}50%"),
        "share bins"
    );

    // The groups, largest first, each with its members and a counterexample.
    let groups = text
        .split("<table id=\"deep-groups\">")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .expect("the table of groups");
    let rows: Vec<&str> = groups.split("<tr class=\"deep-group\">").skip(1).collect();
    assert_eq!(rows.len(), 3);
    assert!(
        rows[0].starts_with("<td class=\"n\"><b>2</b>"),
        "{}",
        rows[0]
    );
    assert!(rows[0].contains("a run with a duplicated rank"));
    assert!(
        rows[0].contains(">runs-sort-dedup</a>") && rows[0].contains(">runs-sort-dedup-again</a>")
    );
    assert!(rows[0].contains("expected <b>10</b>") && rows[0].contains("got <b>6</b>"));
    assert!(rows[0].contains("pairs 2 ("), "with the breakdown");
    assert!(
        groups.contains("(partial)"),
        "flush-three-plus-start's budget ran out"
    );
    assert!(text.contains("every pair checked right: <a href=\"#s0\">correct</a>"));
    assert!(text.contains("<b>Partial: </b>1 hand_value/3 check stopped"));
    assert!(text.contains("<b>Partial: </b>1 select_hand/3 check stopped"));
    assert!(text.contains("<b>Sampled: </b>4 hand_value/3 checks"));
    assert!(text.contains("select_hand/3: </b>1 of 5 submissions kept an optimal hand"));

    // Each submission's section: the headline, the diagnosis, the counterexamples.
    let runs = text
        .split("<section class=\"sub\" id=\"s3\">")
        .nth(1)
        .and_then(|t| t.split("</section>").next())
        .expect("runs-sort-dedup's section");
    assert!(runs.contains("<h3>runs-sort-dedup "), "{runs}");
    assert!(runs.contains("19,236 of 398,364 pairs wrong (4.8%), 960 of 20,000 classes"));
    assert!(runs.contains("<b>diagnosis: </b>every failing hand has a run with a duplicated rank"));
    assert!(runs.contains("the runs points are halved"));
    let counterexamples = runs
        .split("<table class=\"counterexamples\">")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .expect("the counterexamples");
    assert_eq!(counterexamples.matches("v-wrong_answer").count(), 3);
    assert!(counterexamples.contains("<code>AS 4S 3C 2H + AD</code>"));
    assert!(runs.contains("A sample: 20,000 of 652,353 classes"));
    assert!(runs.contains("5 of 50 deals not optimal (10.0%)"));
    assert!(runs.contains("worst loss 2.913 points"));
    let flush = text
        .split("<section class=\"sub\" id=\"s1\">")
        .nth(1)
        .and_then(|t| t.split("</section>").next())
        .expect("flush-three-plus-start's section");
    assert!(flush.contains("<b>Partial: </b>checked 30,000 of 652,353 classes"));
    assert!(flush.contains("time budget for hand_value/3 ran out"));
    assert!(flush.contains("<b>Partial: </b>checked 13 of 50 deals"));

    // The table of submissions sorts by the share of pairs wrong.
    assert!(text.contains("<th class=\"n\">deep: pairs wrong</th>"));
    assert!(text.contains(
        "<td class=\"n\" data-v=\"0.048287\">4.8% <span class=\"muted\">(sample)</span>"
    ));
}

#[test]
fn a_class_of_other_reports_does_not_panic() {
    let reports = crate::deep::tests::deep_results();
    let class = Class::new(&reports);
    let text = html(&class, &reports[..1]);
    assert!(text.contains("<h2 id=\"deep\">"));
    assert!(
        !text.contains("href=\"#s3\""),
        "no link to a report not given"
    );
}
