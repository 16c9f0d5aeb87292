//! The marked hand_value/3 check on the page: the class's section (where the errors show),
//! each submission's (diagnosis, areas, counterexamples) and its cell in the table.

use maud::{html as page, Markup};

use crib_core::{cards_text, PAIRS};
use crib_results::{
    percent, thousands, HandValueCheck, SubmissionResult, HAND_VALUE_MARKS, PATTERNS,
};

use super::deep::{counterexample, counterexamples, diagnosis, names, plural};
use super::{badge, bar_width};
use crate::hand_value::{area_share, is_sample, HandValueClass};

/// The footnote of a share marked `*`.
const SAMPLE_NOTE: &str = "*: the time budget ran out before every rank pattern was answered; \
     the share is estimated from the uniform sample answered.";

/// Returns the class's hand_value/3 section: how the check works, who was not checked or
/// only sampled, and one row per area with the submissions erring there, the median share
/// of pairs and the simplest failing hand.
pub(super) fn class_section(class: &HandValueClass, reports: &[SubmissionResult]) -> Markup {
    let n = class.checked.len();
    page! {
        h2 #hand-value { "hand_value/3: where the errors show" }
        p.muted {
            "hand_value/3 is asked once on each of the " (thousands(PATTERNS as u64))
            " rank patterns (the ranks of the four hand cards and the start), suits and card \
             order drawn from the run's seed, and each wrong answer is weighted by the pairs \
             its pattern stands for: the share of all " (thousands(PAIRS)) " (hand, start) \
             pairs a submission gets wrong, marked " (HAND_VALUE_MARKS) " \u{d7} (1 \u{2212} \
             \u{221a}share). A wrong answer shows in an area: the rule whose points explain \
             the error (lacks, counts twice or slips on), each wrong hand going to the area \
             most of the submission's wrong hands share. " (n) " of " (reports.len())
            " submissions were checked; " (class.clean.len()) " got every pattern right."
        }
        @if !class.not_checked.is_empty() {
            p { "Not checked (nothing loaded, or hand_value/3 is not defined; no hand_value marks): "
                (names(&class.not_checked, reports, star)) }
        }
        @if !class.sampled.is_empty() {
            p.warn {
                b { "Sampled: " } (class.sampled.len()) " check" (plural(class.sampled.len(), "", "s"))
                " stopped before every pattern was answered (the time budget ran out); their \
                 shares are estimated from the sample: " (names(&class.sampled, reports, star))
            }
        }
        table #hand-value-areas {
            thead { tr {
                th { "area" } th.n { "submissions with errors there" }
                th.n { "median share of pairs" } th { "simplest failing hand" }
            } }
            tbody {
                @for row in &class.areas {
                    @let rate = if n == 0 { 0.0 } else { row.members.len() as f64 / n as f64 };
                    tr.area {
                        td { b { (row.area.title()) } }
                        td.n {
                            (row.members.len())
                            @if n > 0 { " of " (n) span.bar style=(bar_width(rate)) {} }
                            @if !row.members.is_empty() {
                                details { summary { "who" } (names(&row.members, reports, star)) }
                            }
                        }
                        td.n { @if row.members.is_empty() { "-" } @else { (percent(row.median_share)) } }
                        td {
                            @if let Some((i, c)) = &row.example {
                                (counterexample(c))
                                div.muted { "from " (names(&[*i], reports, star)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Returns `*` after a submission's name when its check is a sample.
fn star(r: &SubmissionResult) -> Markup {
    page! { @if r.hand_value.as_ref().is_some_and(is_sample) { "*" } }
}

/// Returns the share of pairs wrong as the page prints it: `4.8%`, `0%`, with `*` when only
/// a sample was checked; `not checked` without a check.
pub(super) fn share_text(check: Option<&HandValueCheck>) -> String {
    match check {
        None => "not checked".into(),
        Some(h) => format!(
            "{}{}",
            percent(h.share_wrong),
            if is_sample(h) { "*" } else { "" }
        ),
    }
}

/// Returns the submission table's hand_value cell: the marks, and under them the share of
/// pairs wrong; sorted by the marks.
pub(super) fn table_cell(r: &SubmissionResult) -> Markup {
    page! {
        td.n data-v=(r.marks.hand_value) {
            (format!("{:.2}", r.marks.hand_value)) br;
            span.muted title="share of the (hand, start) pairs wrong" {
                (share_text(r.hand_value.as_ref()))
                @if r.hand_value.is_some() { " wrong" }
            }
        }
    }
}

/// Returns the note under the submission table when a share in it is marked `*`.
pub(super) fn table_note(reports: &[SubmissionResult]) -> Markup {
    page! {
        @if reports.iter().any(|r| r.hand_value.as_ref().is_some_and(is_sample)) {
            p.muted { (SAMPLE_NOTE) }
        }
    }
}

/// Returns the submission's hand_value/3 check: the headline, a sample's warning, and for a
/// check with failures the diagnosis, the areas and the counterexamples.
pub(super) fn submission_section(r: &SubmissionResult) -> Markup {
    let Some(h) = &r.hand_value else {
        return page! {
            div.hv {
                p { b { "hand_value/3: " } "not checked (nothing loaded, or not defined): no marks" }
            }
        };
    };
    let wrong = h.items_wrong();
    let kinds: Vec<String> = h
        .kinds
        .iter()
        .map(|k| format!("{} {}", thousands(k.items as u64), k.kind))
        .collect();
    page! {
        div.hv {
            p.hv-headline {
                b { "hand_value/3: " }
                "about " (thousands(h.pairs_wrong.round() as u64)) " of " (thousands(PAIRS))
                " pairs wrong (" (share_text(Some(h))) "); " (thousands(wrong as u64)) " of "
                (thousands(h.checked as u64)) " rank patterns answered wrong"
                @if !kinds.is_empty() { " (" (kinds.join(", ")) ")" }
                "; " (format!("{:.1}", h.elapsed_ms as f64 / 1000.0)) " s"
            }
            @if is_sample(h) {
                p.warn {
                    b { "Sample: " } "answered " (thousands(h.checked as u64)) " of "
                    (thousands(h.patterns as u64)) " rank patterns"
                    @if let Some(why) = &h.stopped { " (" (why) ")" }
                    "; the share is estimated from them."
                }
            }
            @if wrong > 0 {
                (diagnosis(&h.diagnosis))
                table.areas {
                    thead { tr {
                        th { "area" } th.n { "patterns wrong" } th.n { "share of pairs" }
                        th { "simplest failing hand" }
                    } }
                    tbody {
                        @for a in &h.areas {
                            tr {
                                td { (a.area.title()) }
                                td.n { (thousands(a.items as u64)) }
                                td.n { (percent(area_share(a.pairs))) }
                                td {
                                    (badge(&a.simplest.kind.to_string(), None)) " "
                                    code { (cards_text(&a.simplest.hand)) " + " (a.simplest.start) }
                                    ": expected " b { (a.simplest.expected) } ", got " b { (a.simplest.got) }
                                }
                            }
                        }
                    }
                }
                (counterexamples(&h.counterexamples))
            }
        }
    }
}
