//! The class report's "Similar submissions" section: the first pairs of the submissions'
//! source (`crib report --submissions DIR`) as `crib similar` ranks them (the larger share
//! first, both shares shown), each reported pair linking into `crib similar --html`'s
//! side-by-side view, and every submission that matches crib's own public reference
//! (prolog/cribbage.pl). Never a mark.

use maud::{html as page, Markup};

use crate::quality::{Sources, SubmissionSource};

/// How many pairs the section shows.
pub const TOP_PAIRS: usize = 10;

/// The top pairs and the page they link to.
#[derive(Debug, Clone, PartialEq)]
pub struct SimilarPairs {
    /// The first pairs in `crib similar`'s order, the larger share first
    /// ([`crib_similar::Pair::rank`]; rank i + 1 is `#pair-{i + 1}`).
    pub pairs: Vec<crib_similar::Pair>,
    /// How many pairs share any code.
    pub sharing: usize,
    /// The submissions that match crib's own reference at a similarity of
    /// [`crib_similar::html::REFERENCE_THRESHOLD`] or above, with their similarity, in
    /// `crib similar`'s order.
    pub reference_matches: Vec<(String, f64)>,
    /// The side-by-side page, as `crib similar --html FILE` writes it, relative to the
    /// report.
    pub page: String,
}

impl SimilarPairs {
    /// Compares the submissions found in `sources` as `crib similar` does with its default
    /// options (crib's reference a known source), and keeps the first [`TOP_PAIRS`] pairs
    /// (the larger share first) and the submissions that match the reference.
    pub fn new(sources: &Sources, page: &str) -> SimilarPairs {
        let submissions: Vec<crib_similar::Source> = sources
            .by_name
            .iter()
            .filter_map(|(name, source)| match source {
                SubmissionSource::Found(files) => Some(crib_similar::Source {
                    name: name.clone(),
                    files: files
                        .iter()
                        .map(|f| (f.file.clone(), f.text.clone()))
                        .collect(),
                }),
                SubmissionSource::Missing(_) => None,
            })
            .collect();
        let pairs =
            crib_similar::compare(&submissions, &[], &[], &crib_similar::Options::default()).pairs;
        SimilarPairs {
            sharing: pairs.len(),
            reference_matches: pairs
                .iter()
                .filter(|p| p.reference && p.similarity >= crib_similar::html::REFERENCE_THRESHOLD)
                .map(|p| (p.a.clone(), p.similarity))
                .collect(),
            pairs: pairs.into_iter().take(TOP_PAIRS).collect(),
            page: page.to_string(),
        }
    }
}

/// The section.
pub(crate) fn section(similar: &SimilarPairs) -> Markup {
    page! {
        h2 #similar { "Similar submissions" }
        p {
            strong { "Similarity is evidence for a person to review, never a verdict; no mark here depends on it. " }
            (similar.sharing) " pairs share code; the first " (similar.pairs.len()) " as "
            code { "crib similar" } " ranks them with its default options: by the larger share (how much of one "
            "submission is found in the other, so that a third of a solution copied into one's own is not hidden "
            "by a low similarity), then the similarity. Each pair with either share at or above "
            (format!("{:.2}", crib_similar::html::DEFAULT_THRESHOLD)) " links to its side-by-side view in "
            code { (similar.page) } " (" code { "crib similar --html " (similar.page) " DIR" } ", DIR as given to "
            code { "--submissions" } ")."
        }
        @if !similar.reference_matches.is_empty() {
            p.reference {
                strong { "Matches crib's own reference" }
                " (prolog/cribbage.pl, public and written for students to read; "
                (crib_similar::REFERENCE) " below): "
                @for (i, (name, score)) in similar.reference_matches.iter().enumerate() {
                    @if i > 0 { ", " }
                    (name) " (" (format!("{score:.3}")) ")"
                }
                ". Evidence to review, never a mark."
            }
        }
        table {
            thead { tr { th.n { "#" } th { "a" } th { "b" } th.n { "share of a" } th.n { "share of b" } th.n { "similarity" } } }
            tbody {
                @for (i, p) in similar.pairs.iter().enumerate() {
                    tr {
                        td.n {
                            // The page shows the first reported pairs (its 50 at most, more
                            // than this section's ten).
                            @if p.reported(crib_similar::html::DEFAULT_THRESHOLD) {
                                a href=(format!("{}#pair-{}", similar.page, i + 1)) { (i + 1) }
                            } @else { (i + 1) }
                        }
                        td { (p.a) }
                        td {
                            (p.b)
                            @if p.reference { " " strong { "(crib's reference)" } }
                        }
                        td.n { (format!("{:.0}%", 100.0 * p.share_a)) }
                        td.n { (format!("{:.0}%", 100.0 * p.share_b)) }
                        td.n { (format!("{:.3}", p.similarity)) }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
