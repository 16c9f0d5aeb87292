use super::*;
use crate::class::tests::report;

/// Returns the part of `text` after `start`, up to `end`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let after = text.split_once(start).expect(start).1;
    after.split_once(end).map_or(after, |(inside, _)| inside)
}

fn page(reports: &[SubmissionResult]) -> String {
    html(&Class::new(reports), reports, PageExtras::default())
}

#[test]
fn the_page_stands_alone() {
    let reports = [
        report("alice", &[("sh:named:keep-the-run", "pass")]),
        report("bob", &[("sh:named:keep-the-run", "suboptimal")]),
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
    assert!(text.contains("<li>kept "), "bob's keep is listed");
    assert!(
        text.contains("best: <b>keep "),
        "with the best keep, from bob's verdict"
    );
    let seed = &reports[0].seed_id;
    assert!(
        text.contains(&format!("graded by crib under 1 seed <code>{seed}</code>")),
        "the seed is named"
    );
    assert!(!text.contains("class=\"warn\""), "nothing to warn of");
}

#[test]
fn the_hand_value_section_shows_each_area_and_each_submission_its_check() {
    let reports = crate::hand_value::tests::class();
    let text = page(&reports);
    assert!(text.contains("<h2 id=\"hand-value\">"));
    assert!(text.contains("href=\"#hand-value\""), "the nav leads to it");
    let areas = between(&text, "<table id=\"hand-value-areas\">", "</table>");
    let rows: Vec<&str> = areas.split("<tr class=\"area\">").skip(1).collect();
    assert_eq!(rows.len(), 7, "one row per area");
    let nob = rows
        .iter()
        .find(|r| r.contains("<b>his nob</b>"))
        .expect("a nob row");
    assert!(nob.contains("<td class=\"n\">2 of 5"), "{nob}");
    assert!(nob.contains(">3.0%</td>"), "the median share: {nob}");
    assert!(
        nob.contains("<code>JH 2C 4D 8S + 9H</code>") && nob.contains("got <b>0</b>"),
        "{nob}"
    );
    assert!(nob.contains("from <a href=\"#s2\">nob-b</a>"), "{nob}");
    assert!(nob.contains("<details><summary>who</summary>"), "{nob}");
    let runs = rows
        .iter()
        .find(|r| r.contains("<b>runs</b>"))
        .expect("runs");
    assert!(
        runs.contains("<td class=\"n\">-</td>"),
        "no median without members: {runs}"
    );
    assert!(text.contains("<b>Sampled: </b>1 check stopped"));
    assert!(text.contains("Not checked (nothing loaded"));
    assert!(text.contains("<a href=\"#s5\">missing</a>"));

    // The submission table: the marks and the share of pairs wrong, `*` for a sample.
    assert!(text.contains("45.00<br><span class=\"muted\" title=\"share of the (hand, start) pairs wrong\">1.0%* wrong"));
    assert!(text.contains(">0% wrong</span>"), "clean");
    assert!(text.contains(">not checked</span>"), "missing");
    assert!(text.contains("<p class=\"muted\">*: the time budget ran out"));

    // Each submission's section: the headline, the diagnosis, the areas and counterexamples.
    let nob_b = between(&text, "<section class=\"sub\" id=\"s2\">", "</section>");
    assert!(nob_b.contains("about 4,418,232 of 12,994,800 pairs wrong (34.0%); 210 of 23,647 rank patterns answered wrong (210 wrong_answer)"), "{nob_b}");
    assert!(nob_b.contains("<b>diagnosis: </b>every failing hand scores his nob"));
    let areas = between(nob_b, "<table class=\"areas\">", "</table>");
    assert!(
        areas.contains("<td>fifteens</td><td class=\"n\">200</td><td class=\"n\">30.0%</td>"),
        "{areas}"
    );
    let counterexamples = between(nob_b, "<table class=\"counterexamples\">", "</table>");
    assert_eq!(counterexamples.matches("v-wrong_answer").count(), 2);
    assert!(counterexamples.contains("<code>5C 5D TS KH + 3C</code>"));
    let sampled = between(&text, "<section class=\"sub\" id=\"s4\">", "</section>");
    assert!(
        sampled.contains("<b>Sample: </b>answered 1,000 of 23,647 rank patterns (the time budget")
    );
    let clean = between(&text, "<section class=\"sub\" id=\"s0\">", "</section>");
    assert!(clean.contains("about 0 of 12,994,800 pairs wrong (0%); 0 of 23,647"));
    assert!(!clean.contains("diagnosis"));
}

#[test]
fn a_class_of_several_seeds_says_so() {
    use crate::class::tests::{drawn, report_under};
    let reports = [
        report_under(0, "a", &[(drawn(0, 0), "pass")]),
        report_under(1, "b", &[(drawn(1, 0), "suboptimal")]),
    ];
    let text = page(&reports);
    assert!(text.contains("graded by crib under 2 seeds (one per submission, as on Gradescope);"));
    assert!(text.contains("the first of 2 deals counted here"));
    assert!(text.contains("<code>sh:pool-*</code>"));
    assert!(text.contains(&format!("seed <code>{}</code>", reports[1].seed_id)));
    assert!(!text.contains("class=\"warn\""), "one test set per seed");

    let mut again = reports[0].clone();
    again.name = "c".into();
    again.test_set = "v2-0123456789abcdef".into();
    let text = page(&[reports[0].clone(), again]);
    assert!(text.contains("graded by crib under 1 seed <code>"));
    assert!(text.contains(
        "The results hold 2 test sets under 1 seed: some were graded by another version"
    ));
}

#[test]
fn names_and_messages_are_escaped() {
    let mut r = report(
        "<script>alert(1)</script>",
        &[("sh:named:keep-the-run", "pass")],
    );
    r.load.diagnostics.push(crib_results::Diagnostic {
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
    let text = page(&[report("alice", &[("sh:named:keep-the-run", "pass")])]);
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
    // Three mark histograms, the two share histograms and the code-quality rules' chart
    // (`crib grade` lints what it grades).
    assert_eq!(text.matches("<svg").count(), 6);
    assert!(text.contains("share of pairs wrong") && text.contains("share of deals not optimal"));
    assert!(
        text.contains("1\u{2013}10%") && text.contains("\u{2265}50%"),
        "share bins"
    );

    // The groups, largest first, each with its members and a counterexample.
    let groups = between(&text, "<table id=\"deep-groups\">", "</table>");
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
    let runs = between(&text, "<section class=\"sub\" id=\"s3\">", "</section>");
    assert!(runs.contains("<h3>runs-sort-dedup "), "{runs}");
    assert!(runs.contains("19,236 of 398,364 pairs wrong (4.8%), 960 of 20,000 classes"));
    assert!(runs.contains("<b>diagnosis: </b>every failing hand has a run with a duplicated rank"));
    assert!(runs.contains("the runs points are halved"));
    let (marked, deep) = runs
        .split_once("<div class=\"deep\">")
        .expect("the deep check after the marked one");
    assert!(
        marked.contains("<div class=\"hv\">") && marked.contains("<code>AD AC 4C 2D + 3D</code>"),
        "the marked hand_value/3 check has its own counterexamples: {marked}"
    );
    let counterexamples = between(deep, "<table class=\"counterexamples\">", "</table>");
    assert_eq!(counterexamples.matches("v-wrong_answer").count(), 3);
    assert!(counterexamples.contains("<code>AS 4S 3C 2H + AD</code>"));
    assert!(runs.contains("A sample: 20,000 of 652,353 classes"));
    assert!(runs.contains("5 of 50 deals not optimal (10.0%)"));
    assert!(runs.contains("worst loss 2.913 points"));
    let flush = between(&text, "<section class=\"sub\" id=\"s1\">", "</section>");
    assert!(flush.contains("<b>Partial: </b>checked 25,000 of 652,353 classes"));
    assert!(flush.contains("time budget for hand_value/3 ran out"));
    assert!(flush.contains("<b>Partial: </b>checked 17 of 50 deals"));

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
    let text = html(&class, &reports[..1], PageExtras::default());
    assert!(text.contains("<h2 id=\"deep\">"));
    assert!(
        !text.contains("href=\"#s3\""),
        "no link to a report not given"
    );
}

#[test]
fn a_deadline_shows_each_submission_its_penalty_line() {
    let late = crate::lateness::tests::with_lms("late_one", "1", Some("2026-09-02T08:00Z"), None);
    let plain = crate::class::tests::report("no_time", &[]);
    let deadline = crate::lateness::tests::deadline();
    let reports = [late, plain];
    let extras = PageExtras {
        marks: MarksExtras {
            quality: None,
            deadline: Some(&deadline),
        },
        ..Default::default()
    };
    let page = html(&Class::new(&reports), &reports, extras);
    assert!(page.contains("<th class=\"n\">late penalty</th>"), "{page}");
    assert!(page.contains("<th class=\"n\">final /70</th>"));
    assert!(page.contains("late_one \u{2014} 50.00 / 70; final 40.00 / 70"));
    assert!(page.contains(
        "<b>Lateness: </b>2 days late: \u{2212}20%; late penalty \u{2212}10.00 of 50.00 / 70. "
    ));
    assert!(page.contains("Submitted 2026-09-02 08:00 UTC; due 2026-09-01 07:00 UTC; policy 10% per day, at most 5 days, then 0, grace 15m."));
    assert!(page.contains("submission time unknown (give --times): no penalty computed"));
}
