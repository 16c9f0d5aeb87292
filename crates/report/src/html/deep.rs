//! The deep check on the page: the class's section (groups by top finding, the spread of
//! shares) and each submission's.

use maud::{html as page, Markup, PreEscaped};

use crib_core::{cards_text, PAIRS};
use crib_results::{
    percent, thousands, Counterexample, DeepHandValue, DeepReport, DeepSelectHand, Diagnosis,
    SubmissionResult,
};

use super::badge;
use crate::deep::{DeepClass, ShareHistogram, SHARE_BINS};
use crate::plot::share_histogram_svg;

/// Returns the class's deep-check section: how many submissions were checked, the spread
/// of the shares wrong, hand_value/3 grouped by top finding with one counterexample each,
/// and select_hand/3 at a glance. Partial and sampled checks are named as such.
pub(super) fn class_section(deep: &DeepClass, reports: &[SubmissionResult]) -> Markup {
    let n = deep.checked.len();
    let card = |label: &str, value: usize| {
        page! { div.card { b { (value) } span.muted { (label) } } }
    };
    page! {
        h2 #deep { "Deep check (not marked)" }
        p.muted {
            (n) " of " (reports.len()) " submissions were deep-checked (" code { "crib grade --deep" } "): \
             hand_value/3 on every (hand, start) pair up to relabelling suits (" (thousands(PAIRS))
            " pairs in 652,353 classes), and select_hand/3 on seeded deals. The deep check is never \
             part of the marks. A submission's own section has its diagnosis and counterexamples."
        }
        @if !deep.hand_value_partial.is_empty() {
            p.warn {
                b { "Partial: " } (deep.hand_value_partial.len())
                " hand_value/3 check" (plural(deep.hand_value_partial.len(), "", "s"))
                " stopped before every class was answered (the budget ran out); their counts are \
                 of a seeded random sample of the classes: "
                (names(&deep.hand_value_partial, reports, scope))
            }
        }
        @if !deep.hand_value_sampled.is_empty() {
            p {
                b { "Sampled: " } (deep.hand_value_sampled.len())
                " hand_value/3 check" (plural(deep.hand_value_sampled.len(), "", "s"))
                " covered a seeded sample of the classes (" code { "--deep-classes N" }
                "), not all " (thousands(PAIRS)) " pairs: "
                (names(&deep.hand_value_sampled, reports, scope))
            }
        }
        @if !deep.select_partial.is_empty() {
            p.warn {
                b { "Partial: " } (deep.select_partial.len())
                " select_hand/3 check" (plural(deep.select_partial.len(), "", "s"))
                " stopped before every deal was answered: "
                (names(&deep.select_partial, reports, scope))
            }
        }
        div.cards {
            (card("deep-checked", n))
            (card("hand_value/3: every pair right", deep.hand_value_clean.len()))
            (card("hand_value/3: a pair wrong", deep.groups.iter().map(|g| g.members.len()).sum()))
            (card("hand_value/3: not defined", deep.hand_value_missing.len()))
            (card("select_hand/3: every deal optimal", deep.select_optimal.len()))
            (card("select_hand/3: a deal not optimal",
                deep.select_checked.len() - deep.select_optimal.len()))
        }
        div.plots {
            (share_plot(&deep.wrong_shares))
            (share_plot(&deep.not_optimal_shares))
        }
        h3 #deep-findings { "hand_value/3 by top finding" }
        @if deep.groups.is_empty() {
            p { "No deep-checked hand_value/3 got a pair wrong." }
        } @else {
            p.muted {
                "Submissions grouped by the first finding of their diagnosis: the feature of the \
                 pairs (or two) that best separates the failing pairs from the passing ones. With \
                 each group, the share of the pairs checked that its submissions get wrong and the \
                 simplest of their simplest counterexamples."
            }
            table #deep-groups {
                thead { tr {
                    th.n { "submissions" } th { "top finding" } th.n { "pairs wrong" }
                    th { "who" } th { "simplest counterexample" }
                } }
                tbody {
                    @for g in &deep.groups {
                        tr.deep-group {
                            td.n { b { (g.members.len()) } }
                            td { (g.finding) }
                            td.n {
                                @if g.shares.0 == g.shares.1 { (percent(g.shares.0)) }
                                @else { (percent(g.shares.0)) "\u{2013}" (percent(g.shares.1)) }
                            }
                            td { (names(&g.members, reports, scope)) }
                            td {
                                @if let Some((i, c)) = &g.example {
                                    (counterexample(c))
                                    div.muted { "from " (names(&[*i], reports, scope)) }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if !deep.hand_value_clean.is_empty() {
            p { (badge("pass", None)) " every pair checked right: "
                (names(&deep.hand_value_clean, reports, scope)) }
        }
        @if !deep.hand_value_missing.is_empty() {
            p { "hand_value/3 not checked (not defined): "
                (names(&deep.hand_value_missing, reports, scope)) }
        }
        @if !deep.select_checked.is_empty() {
            p {
                b { "select_hand/3: " } (deep.select_optimal.len()) " of " (deep.select_checked.len())
                " submissions kept an optimal hand on every deal checked."
                @if deep.select_optimal.len() < deep.select_checked.len() {
                    " Not optimal on some deal: "
                    @let not: Vec<usize> = deep.select_checked.iter().copied()
                        .filter(|i| !deep.select_optimal.contains(i)).collect();
                    (names(&not, reports, scope))
                }
            }
        }
    }
}

/// Returns a figure with the histogram, or nothing when it counts no submission (so that
/// every plot on the page has a bar).
fn share_plot(histogram: &ShareHistogram) -> Markup {
    page! {
        @if histogram.total() > 0 {
            figure.plot data-bins=(SHARE_BINS.len()) data-submissions=(histogram.total()) {
                (PreEscaped(share_histogram_svg(histogram, 540, 240)))
                figcaption { "submissions per share of the " (histogram.x_desc) " (of those checked)" }
            }
        }
    }
}

/// Returns the submissions `indices` as links to their sections, each followed by `mark` of
/// its result; an index past `reports` (a class of other reports) is left out.
pub(super) fn names(
    indices: &[usize],
    reports: &[SubmissionResult],
    mark: fn(&SubmissionResult) -> Markup,
) -> Markup {
    page! {
        @for (k, (i, r)) in indices.iter().filter_map(|&i| Some((i, reports.get(i)?))).enumerate() {
            @if k > 0 { ", " }
            a href=(format!("#s{i}")) { (r.name) }
            (mark(r))
        }
    }
}

/// Returns ` (partial)` or ` (sample)` for a deep check that did not cover every pair, else
/// nothing.
fn scope(r: &SubmissionResult) -> Markup {
    let h = r.deep.as_ref().and_then(|d| d.hand_value.as_ref());
    page! {
        @if h.is_some_and(DeepHandValue::is_partial) { " " span.muted { "(partial)" } }
        @else if h.is_some_and(DeepHandValue::is_sampled) { " " span.muted { "(sample)" } }
    }
}

pub(super) fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Returns one counterexample: the cards, expected with crib-core's breakdown, and got.
pub(super) fn counterexample(c: &Counterexample) -> Markup {
    page! {
        div.cx {
            (badge(&c.kind.to_string(), None)) " "
            code { (cards_text(&c.hand)) " + " (c.start) } br;
            "expected " b { (c.expected) } " " span.muted { "(" (c.breakdown) ")" } ", got " b { (c.got) }
            div.goal.muted { "?- " (c.goal) }
        }
    }
}

/// Returns the submission's deep check: the hand_value/3 headline, partial or sample, the
/// diagnosis and the counterexamples; then the select_hand/3 line and its deals.
pub(super) fn submission_section(deep: &DeepReport) -> Markup {
    page! {
        div.deep {
            h4 { "Deep check (not marked)" }
            @match &deep.hand_value {
                Some(h) => (hand_value(h)),
                None => p { b { "hand_value/3: " } "not checked (not defined)" },
            }
            @if let Some(s) = &deep.select_hand { (select_hand(s)) }
        }
    }
}

fn hand_value(h: &DeepHandValue) -> Markup {
    page! {
        p.deep-headline { b { "hand_value/3: " } (h.headline()) }
        @if h.is_partial() { p.warn { b { "Partial: " } (h.partial_text()) } }
        @if h.is_sampled() {
            p.muted {
                "A sample: " (thousands(h.classes as u64)) " of 652,353 classes of the seeded order ("
                code { "--deep-classes" } "), standing for " (thousands(h.pairs)) " of "
                (thousands(PAIRS)) " pairs."
            }
        }
        @if h.probes.differed > 0 {
            p.warn {
                "Answers depend on the suits' names or the cards' order: " (h.probes.differed)
                " of " (h.probes.asked) " classes asked twice were answered differently (counts are \
                 estimates)"
                @if let Some(e) = &h.probes.example { ", e.g. " code { (e) } }
            }
        }
        @if h.failing_pairs > 0 {
            (diagnosis(&h.diagnosis))
            (counterexamples(&h.counterexamples))
        }
    }
}

/// Returns a diagnosis as a list: its summary, its other findings and the shapes of the
/// errors.
pub(super) fn diagnosis(d: &Diagnosis) -> Markup {
    page! {
        ul.diagnosis {
            li { b { "diagnosis: " } (d.summary) }
            @for f in d.findings.iter().skip(1) { li { "also: " (f.text) } }
            @if let Some(errors) = d.errors_text() { li { "errors: " (errors) } }
        }
    }
}

/// Returns the table of counterexamples: kind, cards, expected with crib-core's breakdown,
/// got and the goal.
pub(super) fn counterexamples(cs: &[Counterexample]) -> Markup {
    page! {
        table.counterexamples {
            thead { tr {
                th { "kind" } th { "hand + start" } th.n { "expected" } th { "breakdown" }
                th { "got" } th { "goal" }
            } }
            tbody {
                @for c in cs {
                    tr {
                        td { (badge(&c.kind.to_string(), None)) }
                        td { code { (cards_text(&c.hand)) " + " (c.start) } }
                        td.n { (c.expected) }
                        td { (c.breakdown) }
                        td { (c.got) }
                        td.goal { (c.goal) }
                    }
                }
            }
        }
    }
}

fn select_hand(s: &DeepSelectHand) -> Markup {
    page! {
        p.deep-headline { b { "select_hand/3: " } (s.headline()) }
        @if s.checked < s.deals { p.warn { b { "Partial: " } (s.partial_text()) } }
        @if s.examples().iter().any(|(_, e)| e.is_some()) {
            table.deals {
                thead { tr { th { "deal" } th { "dealt" } th { "got" } th { "best keep" } } }
                tbody {
                    @for (what, example) in s.examples() {
                        @if let Some(e) = example {
                            tr {
                                td { (what) " " (badge(&e.kind.to_string(), None)) }
                                td { code { (cards_text(&e.dealt)) } }
                                td {
                                    (e.got)
                                    @if let Some(v) = e.got_value { " " span.muted { "(" (format!("{v:.3}")) ")" } }
                                }
                                td { code { (cards_text(&e.best)) } " " span.muted { "(" (format!("{:.3}", e.best_value)) ")" } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Returns the submission table's deep cell: the share of pairs wrong and of deals not
/// optimal, sorted by the first (`-1` for a result without a deep check or not defined).
pub(super) fn table_cell(r: &SubmissionResult) -> Markup {
    let hand = r.deep.as_ref().and_then(|d| d.hand_value.as_ref());
    let select = r.deep.as_ref().and_then(|d| d.select_hand.as_ref());
    let key = hand.and_then(DeepHandValue::wrong_share).unwrap_or(-1.0);
    page! {
        td.n data-v=(format!("{key:.6}")) {
            @match (&r.deep, hand) {
                (None, _) => span.muted { "-" },
                (Some(_), None) => span.muted { "not defined" },
                (Some(_), Some(h)) => { (percent(h.wrong_share().unwrap_or(0.0))) (scope(r)) },
            }
            @if let Some(share) = select.and_then(DeepSelectHand::not_optimal_share) {
                br; span.muted { (percent(share)) " of deals" }
            }
        }
    }
}
