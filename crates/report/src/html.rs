//! The class report page: one self-contained HTML document, templated with maud.

use maud::{html as page, Markup, PreEscaped, DOCTYPE};

use crib_results::{SubmissionResult, TestResult, Verdict};

use crate::class::{Class, TestRow};
use crate::marks::{before_penalty, graded, out_of, MarksExtras};
use crate::plot::histogram_svg;
use crate::quality::{QualityClass, Sources};

mod deep;
mod hand_value;
pub(crate) mod quality;

/// The verdicts in the order the page lists them, each with the symbol printed beside its
/// colour so that the page reads the same in grey and for colour-blind readers.
const VERDICTS: [(&str, &str); 10] = [
    ("pass", "\u{2713}"),
    ("wrong_answer", "\u{2717}"),
    ("suboptimal", "\u{2248}"),
    ("wrong_type", "T"),
    ("no_solution", "\u{2205}"),
    ("exception", "!"),
    ("timeout", "\u{25f7}"),
    ("memory", "M"),
    ("crashed", "\u{2620}"),
    ("not_run", "\u{2013}"),
];

/// At most this many seeds are named in the page's first line; a class graded under more
/// (one per submission on Gradescope) names each in its submission's section.
const MAX_SEEDS_LISTED: usize = 5;

const STYLE: &str = r#"
:root { --fg:#1b1b1b; --muted:#5b5b5b; --line:#d0d0d0; --head:#f3f3f3; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0 auto; padding: 16px 24px 48px; max-width: 1400px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 2px solid var(--fg); }
h3 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: var(--muted); } code, .goal { font: 12px/1.35 ui-monospace, Menlo, Consolas, monospace; }
.goal { word-break: break-all; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; min-width: 120px; }
.card b { display: block; font-size: 20px; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
figure.plot { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 4px; }
figure.plot figcaption { font-size: 12px; color: var(--muted); padding: 0 6px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: var(--head); } td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort=ascending]::after { content: " \25B2"; }
table.sortable th[aria-sort=descending]::after { content: " \25BC"; }
.bar { display: inline-block; height: 8px; background: #d55e00; vertical-align: middle; margin-left: 6px; }
.v { display: inline-block; border: 1px solid #0000004d; border-radius: 4px; padding: 0 5px; margin: 1px 2px 1px 0;
  font-size: 12px; white-space: nowrap; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.v-pass { background: #cfe8f7; } .v-wrong_answer { background: #f6c6a5; } .v-suboptimal { background: #fbe8a6; }
.v-wrong_type { background: #e7c6dc; } .v-no_solution { background: #e0e0e0; } .v-exception { background: #f2b8d4; }
.v-timeout { background: #c4e6da; } .v-memory { background: #b9d6f2; } .v-crashed { background: #222; color: #fff; }
.v-not_run { background: #fff; border-style: dashed; }
ul.answers { margin: 0; padding-left: 18px; }
pre { background: #f7f7f7; border: 1px solid var(--line); padding: 6px; white-space: pre-wrap; max-height: 16em; overflow: auto; }
section.sub { border-top: 1px solid var(--line); }
.warn { background: #fff3cd; border: 1px solid #e0c36a; padding: 6px 10px; border-radius: 6px; }
h4 { font-size: 14px; margin: 12px 0 4px; }
div.deep { border-left: 3px solid #0072b2; padding-left: 10px; margin: 10px 0; }
div.hv { border-left: 3px solid #d55e00; padding-left: 10px; margin: 10px 0; }
details summary { cursor: pointer; color: var(--muted); }
ul.diagnosis { margin: 4px 0; padding-left: 18px; } .cx .goal { margin-top: 2px; }
.cx code, table.counterexamples td code, table.deals td code { white-space: nowrap; }
nav a { margin-right: 12px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; } nav { display: none; }
  section.sub { break-inside: avoid-page; } pre { max-height: none; }
  a { color: inherit; text-decoration: none; }
}
"#;

/// Sorts a table when its header is clicked (numbers by `data-v`, text otherwise), then marks
/// the page ready; nothing else runs.
const SCRIPT: &str = r#"
for (const th of document.querySelectorAll("table.sortable th")) {
  th.addEventListener("click", () => {
    const table = th.closest("table"), col = th.cellIndex, body = table.tBodies[0];
    const asc = th.getAttribute("aria-sort") !== "ascending";
    for (const h of table.tHead.rows[0].cells) h.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    const key = r => r.cells[col].dataset.v ?? r.cells[col].textContent.trim();
    const rows = [...body.rows].sort((a, b) => {
      const x = key(a), y = key(b), nx = Number(x), ny = Number(y);
      const c = x !== "" && y !== "" && !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    });
    body.append(...rows);
  });
}
document.body.dataset.ready = "yes";
"#;

/// What the class report shows besides the results themselves.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageExtras<'a> {
    /// The submissions' source (`crib report --submissions DIR`): each submission's
    /// code-quality findings are shown inline in it, like a code review.
    pub sources: Option<&'a Sources>,
    /// The most similar pairs of the submissions' source (`--submissions DIR`), linking
    /// into `crib similar --html`'s page.
    pub similar: Option<&'a crate::similar::SimilarPairs>,
    /// The markers' code-quality marks (`--quality-marks`: each submission's criteria,
    /// code-quality mark and final mark) and the late policy (`--due`, `--late`: each
    /// submission's lateness and penalty, computed from the dates now), as marks.csv has them.
    pub marks: MarksExtras<'a>,
}

/// Returns the class report of `reports` (whose statistics are `class`) as one
/// self-contained HTML page: no network access and no file besides itself, so it works from
/// a `file://` URL and as an attachment. The class's sections (at a glance, the marks'
/// histograms, hand_value/3 by area, the select_hand tests ranked by failures, the deep check
/// and code quality when results have them) come first, then one section per submission,
/// each with what `extras` adds.
pub fn html(class: &Class, reports: &[SubmissionResult], extras: PageExtras<'_>) -> String {
    let s = &class.summary;
    let quality_class = QualityClass::new(reports);
    let marks = extras.marks.quality;
    let markup = page! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Cribbage project: class report (" (s.submissions) " submissions)" }
                style { (PreEscaped(STYLE)) (PreEscaped(quality::STYLE)) }
            }
            body {
                h1 { "Project 1: Cribbage \u{2014} class report" }
                p.muted {
                    (s.submissions) " submissions graded by crib under " (s.seeds_text())
                    @if let [(id, _)] = s.seeds.as_slice() { " " code { (id) } }
                    @else if s.seeds.len() < s.submissions && s.seeds.len() <= MAX_SEEDS_LISTED {
                        ": "
                        @for (i, (id, n)) in s.seeds.iter().enumerate() {
                            @if i > 0 { ", " }
                            code { (id) } " (" (n) ")"
                        }
                    }
                    "; isolation "
                    @for (i, (iso, n)) in s.isolation.iter().enumerate() {
                        @if i > 0 { ", " }
                        code { (iso) } @if s.isolation.len() > 1 { " (" (n) ")" }
                    }
                    "; graded with "
                    @for (i, (producer, n)) in s.producers.iter().enumerate() {
                        @if i > 0 { ", " }
                        code { (producer) } @if s.producers.len() > 1 { " (" (n) ")" }
                    }
                    @if marks.is_some() {
                        ". Code quality (30 marks) is given by the markers, read from their marking sheet."
                    } @else {
                        ". Code quality (30 marks) is given by the markers and not shown."
                    }
                }
                @if s.test_sets.len() > s.seeds.len() {
                    p.warn {
                        "The results hold " (s.test_sets.len()) " test sets under " (s.seeds_text())
                        ": some were graded by another version of crib, whose tests differ from \
                         those of the same seed now. Their marks are as graded; the test_set \
                         column of marks.csv says which is which."
                    }
                }
                nav {
                    a href="#glance" { "At a glance" } a href="#hand-value" { "hand_value" }
                    a href="#tests" { "select_hand" }
                    @if class.deep.is_some() { a href="#deep" { "Deep check" } }
                    @if quality_class.is_some() { a href="#quality" { "Code quality" } }
                    @if extras.similar.is_some() { a href="#similar" { "Similar" } }
                    a href="#submissions" { "Submissions" }
                }
                (glance(class))
                (hand_value::class_section(&class.hand_value, reports))
                (tests(&class.tests, s.seeds.len()))
                @if let Some(d) = &class.deep { (deep::class_section(d, reports)) }
                @if let Some(q) = &quality_class { (quality::class_section(q, reports, marks)) }
                @if let Some(similar) = extras.similar { (crate::similar::section(similar)) }
                (submissions(reports, class.deep.is_some(), extras))
                (legend())
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    markup.into_string()
}

fn glance(class: &Class) -> Markup {
    let s = &class.summary;
    let card = |label: &str, value: String| {
        page! { div.card { b { (value) } span.muted { (label) } } }
    };
    let mm = |(mean, median): (f64, f64), of: u32| format!("{mean:.1} / {median:.1} of {of}");
    page! {
        h2 #glance { "The class at a glance" }
        div.cards {
            (card("submissions", s.submissions.to_string()))
            (card("loaded", s.loaded.to_string()))
            (card("with a crash", s.crashed.to_string()))
            (card("with a timeout", s.timed_out.to_string()))
            (card("full marks (70)", s.full_marks.to_string()))
            (card("total: mean / median", mm(s.total, 70)))
            (card("hand_value: mean / median", mm(s.hand_value, 50)))
            (card("select_hand: mean / median", mm(s.select_hand, 20)))
        }
        div.plots {
            @for (i, h) in class.histograms.iter().enumerate() {
                @let (w, ht) = if i == 0 { (820, 260) } else { (540, 240) };
                figure.plot data-bins=(h.counts.len()) data-submissions=(h.counts.iter().sum::<usize>()) {
                    (PreEscaped(histogram_svg(h, w, ht)))
                    figcaption {
                        (h.title) ": submissions per " (fmt_mark(h.width())) " marks"
                    }
                }
            }
        }
    }
}

fn tests(rows: &[TestRow], seeds: usize) -> Markup {
    page! {
        h2 #tests { "select_hand tests, most failed first" }
        p.muted {
            "Each test with its goal, the best keep (crib-core's, as the results of those who \
             missed it record it), the verdicts, the mean credit and the commonest wrong answers \
             (a percentage is of the submissions that ran the test)."
            @if seeds > 1 {
                " The results were graded under " (seeds) " seeds, and each seed draws its own \
                 deals: a named deal is the same for every result (its cards in another order), \
                 but the tests drawn from the seed are counted together, their numbers starred ("
                code { "sh:pool-*" } "), with the goal of the first result."
            }
        }
        table.sortable #test-table {
            thead { tr {
                th.n { "#" } th { "test" } th { "goal and best keep" }
                th.n { "failed" } th { "verdicts" } th { "commonest wrong answers" }
            } }
            tbody {
                @for (rank, t) in rows.iter().enumerate() {
                    tr {
                        td.n data-v=(rank + 1) { (rank + 1) }
                        td { code { (t.id) } br; span.muted { (t.source) } }
                        td {
                            div.goal { "?- " (t.goal) }
                            @if t.deals > 1 {
                                div.muted { "the first of " (t.deals) " deals counted here" }
                            }
                            @if let Some(exp) = &t.expected { div { "best: " b { (exp) } } }
                        }
                        td.n data-v=(format!("{:.4}", t.failure_rate())) {
                            (t.failed) "/" (t.ran) br; (pct(t.failure_rate())) br;
                            span.muted { "credit " (format!("{:.2}", t.credit)) }
                        }
                        td { @for (v, n) in &t.verdicts { (badge(v, Some(*n))) } }
                        td {
                            @if !t.answers.is_empty() {
                                ul.answers {
                                    @for (text, count) in &t.answers {
                                        li {
                                            (text) " \u{2014} " (count) " ("
                                            (pct(if t.ran == 0 { 0.0 } else { *count as f64 / t.ran as f64 }))
                                            ")"
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Returns the counts of each verdict in `tests`, in [`VERDICTS`] order, zeros left out.
fn verdict_counts(tests: &[TestResult]) -> Vec<(&'static str, usize)> {
    VERDICTS
        .iter()
        .map(|(name, _)| {
            let n = tests.iter().filter(|t| t.verdict.name() == *name).count();
            (*name, n)
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// Returns the table of submissions (with a deep-check column when `deep`) and their
/// sections.
fn submissions(reports: &[SubmissionResult], deep: bool, extras: PageExtras<'_>) -> Markup {
    let MarksExtras {
        quality: marks,
        deadline,
    } = extras.marks;
    let linted = reports.iter().any(|r| r.quality.is_some());
    page! {
        h2 #submissions { "Submissions" }
        p.muted {
            "Click a column to sort; a name leads to the submission's hand_value/3 check, failed \
             select_hand tests and load diagnostics. Under the hand_value marks, the share of \
             the (hand, start) pairs it gets wrong."
        }
        table.sortable #submission-table {
            thead { tr {
                th { "submission" } th.n { "total /70" } th.n { "hand_value /50" }
                th.n { "select_hand /20" } th.n { "select_hand tests failed" } th { "verdicts" }
                th { "problems" }
                @if deep { th.n { "deep: pairs wrong" } }
                @if linted { th { "quality findings" } }
                @if marks.is_some() { th.n { "code quality /30" } }
                @if deadline.is_some() { th.n { "days late" } th.n { "late penalty" } }
                @if marks.is_some() || deadline.is_some() { th.n { "final /" (out_of(marks)) } }
            } }
            tbody {
                @for (i, r) in reports.iter().enumerate() {
                    @let failed = r.tests.iter().filter(|t| t.verdict != Verdict::Pass).count();
                    tr {
                        td data-v=(r.name) { a href=(format!("#s{i}")) { (r.name) } }
                        td.n data-v=(r.marks.total) { (format!("{:.2}", r.marks.total)) }
                        (hand_value::table_cell(r))
                        td.n data-v=(r.marks.select_hand) {
                            (format!("{:.2}", r.marks.select_hand)) br;
                            span.muted { "credit " (format!("{:.3}", r.marks.select_hand_credit)) }
                        }
                        td.n data-v=(failed) { (failed) }
                        td { @for (v, n) in verdict_counts(&r.tests) { (badge(v, Some(n))) } }
                        td {
                            @let problems = r.problems();
                            @if problems.is_empty() { "-" } @else { (crib_results::problems_text(&problems, ", ")) }
                        }
                        @if deep { (deep::table_cell(r)) }
                        @if linted {
                            td data-v=(r.quality.as_ref().map_or(0, |q| q.summary.findings)) {
                                (r.quality.as_ref().map_or_else(|| "-".to_string(), |q| q.summary.line()))
                            }
                        }
                        @if let Some(m) = marks { (mark_cell(m.code_quality(&r.name))) }
                        @if let Some(d) = deadline {
                            @let a = d.assess(r);
                            @match a.days {
                                Some(days) => td.n data-v=(days) { (days) },
                                None => td.n data-v="-1" { span.muted { "unknown" } },
                            }
                            (mark_cell(before_penalty(r, marks).and_then(|b| a.penalty(b))))
                        }
                        @if marks.is_some() || deadline.is_some() {
                            (mark_cell(graded(r, extras.marks)))
                        }
                    }
                }
            }
        }
        (hand_value::table_note(reports))
        @for (i, r) in reports.iter().enumerate() {
            (submission(i, r, extras))
        }
    }
}

/// Returns a table cell of a mark out of the markers' sheet; blank (not marked yet) sorts
/// first.
fn mark_cell(mark: Option<f64>) -> Markup {
    page! {
        @match mark {
            Some(x) => td.n data-v=(x) { (format!("{x:.2}")) },
            None => td.n data-v="-1" { span.muted { "not marked" } },
        }
    }
}

fn submission(i: usize, r: &SubmissionResult, extras: PageExtras<'_>) -> Markup {
    let MarksExtras { quality, deadline } = extras.marks;
    let failed: Vec<&TestResult> = r
        .tests
        .iter()
        .filter(|t| t.verdict != Verdict::Pass)
        .collect();
    page! {
        section.sub id=(format!("s{i}")) {
            h3 {
                (r.name) " \u{2014} " (format!("{:.2}", r.marks.total)) " / 70"
                @if quality.is_some() || deadline.is_some() {
                    @if let Some(f) = graded(r, extras.marks) {
                        "; final " (format!("{f:.2}")) " / " (out_of(quality))
                    }
                }
            }
            @if let Some(d) = deadline {
                @let (a, before) = (d.assess(r), before_penalty(r, quality));
                p.late {
                    b { "Lateness: " } (a.describe())
                    @if let (Some(b), Some(p)) = (before, before.and_then(|b| a.penalty(b))) {
                        @if a.days.is_some_and(|d| d > 0) {
                            "; late penalty \u{2212}" (format!("{p:.2}")) " of " (format!("{b:.2}"))
                            " / " (out_of(quality))
                        }
                    }
                    ". "
                    span.muted {
                        @if let Some(t) = a.submitted {
                            "Submitted " (when(t))
                            @if a.source == crate::TimeSource::Times { " (--times)" }
                            "; "
                        }
                        "due " (when(a.due)) "; policy " (d.policy.to_string())
                        @if !d.grace.is_zero() { ", grace " (format!("{:#}", d.grace)) }
                        "."
                    }
                }
            }
            p.muted {
                code { (r.path) } "; seed " code { (r.seed_id) }
                @if let Some(p) = &r.produced_by { "; " code { (p) } }
                "; hand_value "
                (hand_value::share_text(r.hand_value.as_ref())) " of pairs wrong ("
                (format!("{:.2}", r.marks.hand_value)) "/50), select_hand credit "
                (format!("{:.3}", r.marks.select_hand_credit)) " (" (format!("{:.2}", r.marks.select_hand)) "/20); "
                (r.children) " child process" @if r.children != 1 { "es" } ", "
                (format!("{:.1}", r.elapsed_ms as f64 / 1000.0)) " s. "
                a href="#submissions" { "back to the table" }
            }
            @if let Some(why) = &r.load.load_failed { p { b { "load failed: " } (why) } }
            @if !r.load.missing_predicate.is_empty() {
                p { b { "missing: " } (r.load.missing_predicate.iter().map(|p| p.indicator()).collect::<Vec<_>>().join(", ")) }
            }
            @if !r.load.files.is_empty() { p.muted { "files: " (r.load.files.join(", ")) } }
            @if !r.load.diagnostics.is_empty() {
                table {
                    thead { tr { th { "where" } th { "kind" } th { "load diagnostic" } } }
                    tbody {
                        @for d in &r.load.diagnostics {
                            tr {
                                td { code { (d.file) ":" (d.line) } }
                                td { (d.kind) }
                                td { pre { (d.message) } }
                            }
                        }
                    }
                }
            }
            @if !r.output.is_empty() {
                details { summary { "what it printed" } pre { (r.output) } }
            }
            (hand_value::submission_section(r))
            @if failed.is_empty() {
                @if !r.tests.is_empty() { p { (badge("pass", None)) " every select_hand test passed" } }
            } @else {
                table {
                    thead { tr {
                        th { "select_hand test" } th { "goal" } th { "verdict" } th.n { "credit" } th.n { "ms" }
                    } }
                    tbody {
                        @for t in &failed {
                            tr {
                                td { code { (t.id) } }
                                td.goal { (t.goal) }
                                td { (badge(t.verdict.name(), None)) " " (t.verdict.describe()) }
                                td.n { @if let Some(c) = t.credit { (format!("{c:.3}")) } }
                                td.n { (t.time_ms) }
                            }
                        }
                    }
                }
            }
            @if let Some(d) = &r.deep { (deep::submission_section(d)) }
            (quality::submission_section(r, extras.sources, quality))
        }
    }
}

fn legend() -> Markup {
    page! {
        h2 { "Verdicts" }
        p {
            @for (v, _) in VERDICTS { (badge(v, None)) " " }
        }
        p.muted {
            "Each verdict has a colour and a symbol, so the page reads the same printed in grey. \
             wrong_answer: hand_value's integer is not the hand's value; suboptimal: a valid keep \
             worth less than the best; wrong_type: not an integer, or not a split of the dealt \
             cards; not_run: the submission did not load."
        }
    }
}

fn badge(verdict: &str, count: Option<usize>) -> Markup {
    let symbol = VERDICTS
        .iter()
        .find(|(name, _)| *name == verdict)
        .map_or("?", |(_, s)| s);
    page! {
        span class=(format!("v v-{verdict}")) title=(verdict) {
            (symbol) " " (verdict.replace('_', " "))
            @if let Some(n) = count { " " b { (n) } }
        }
    }
}

/// Returns a time as the pages and the text say it, in UTC to the minute.
pub(crate) fn when(t: jiff::Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

pub(crate) fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

pub(crate) fn bar_width(rate: f64) -> String {
    format!("width: {:.0}px", (rate * 80.0).round())
}

pub(crate) fn fmt_mark(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests;
