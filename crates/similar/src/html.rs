//! The side-by-side page (`crib similar --html`): one self-contained HTML file.

use std::collections::HashMap;

use maud::{html, Markup, PreEscaped, DOCTYPE};
use plotters::prelude::*;

use crate::{Pair, Source};

/// Bins of the histogram of larger shares: 0.00-0.05, ..., 0.95-1.00.
const BINS: usize = 20;

/// The most pairs shown side by side.
pub const MAX_SHOWN: usize = 50;

/// The larger share ([`Pair::reported`]) from which `crib similar` reports a pair, and
/// `--html` shows it side by side, unless told otherwise: a third of either file's
/// fingerprints found in the other, the commonest copy (a third of a solution taken into
/// one's own). Calibrated on the disguise corpus (tests/similar/disguise_corpus.rs): every pair of
/// independent solutions has both shares at most 0.30 there, every partial copy of a third
/// or more a share of its source of at least 0.40.
pub const DEFAULT_THRESHOLD: f64 = 0.33;

/// The similarity (not a share) from which a submission is named as matching crib's own
/// reference ([`crate::REFERENCE`]): half of the two files' fingerprints in common, the
/// Dice similarity 0.5.
pub const REFERENCE_THRESHOLD: f64 = 0.5;

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1400px; color: #222; }
.notice { background: #fff7e0; border: 1px solid #e0c060; padding: .8em 1em; border-radius: 6px; }
table.pairs { border-collapse: collapse; }
table.pairs td, table.pairs th { padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.side pre { font-size: 12px; line-height: 1.35; overflow-x: auto; border: 1px solid #ddd; padding: .4em; margin: 0; }
.ln { color: #999; display: inline-block; width: 3.5em; user-select: none; }
.m0 { background: #ffd6d6; } .m1 { background: #d6ecff; } .m2 { background: #d9f7d0; }
.m3 { background: #fbe3ff; } .m4 { background: #fff0b3; } .m5 { background: #d8f3f0; }
h3 { margin-top: 2em; }
";

/// Returns the page: the notice, the histogram of larger shares with the threshold, the
/// ranked pairs with both shares and, for each pair reported at `threshold`
/// ([`Pair::reported`], at most [`MAX_SHOWN`]), both files side by side with their matched
/// fragments in matching colours (`#pair-N`, N from 1 in rank order). `pairs` are expected in
/// [`Pair::rank`]'s order, as [`crate::compare`] returns them.
pub fn page(pairs: &[Pair], sources: &[&Source], threshold: f64) -> String {
    let by_name: HashMap<&str, &Source> = sources.iter().map(|s| (s.name.as_str(), *s)).collect();
    let shown: Vec<(usize, &Pair)> = pairs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.reported(threshold))
        .take(MAX_SHOWN)
        .collect();
    let markup: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "crib similar: " (pairs.len()) " pairs" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { "Similar submissions" }
                p.notice {
                    strong { "Similarity is evidence for a person to review, never a verdict. " }
                    "Code can match because it was given, is the obvious way to write it, or was "
                    "written together with permission. crib changes no mark because of it."
                }
                p { (sources.len()) " sources; " (pairs.len()) " pairs share code; "
                    (shown.len()) " with either share at or above the threshold " (format!("{threshold:.2}")) " are shown side by side. "
                    "A share is how much of one file is found in the other: a third of a solution copied into one's own "
                    "shows as a high share of the source with a lower similarity, so pairs are ranked and chosen by the larger share." }
                (PreEscaped(histogram(pairs, threshold)))
                h2 { "Pairs, the larger share first" }
                table.pairs {
                    tr { th { "#" } th { "a" } th { "b" } th { "share of a" } th { "share of b" } th { "similarity" } th { "fragments" } }
                    @for (i, p) in pairs.iter().enumerate().take(500) {
                        tr {
                            td.num { (i + 1) }
                            td { (p.a) }
                            td {
                                (p.b)
                                @if p.reference { " " strong { "(crib's reference)" } }
                                @else if p.known { " (known source)" }
                            }
                            td.num { (percent(p.share_a)) } td.num { (percent(p.share_b)) }
                            td.num {
                                @if p.reported(threshold) && i < shown.len() { a href=(format!("#pair-{}", i + 1)) { (format!("{:.3}", p.similarity)) } }
                                @else { (format!("{:.3}", p.similarity)) }
                            }
                            td.num { (p.fragments.len()) }
                        }
                    }
                }
                @for (i, p) in &shown {
                    h3 id=(format!("pair-{}", i + 1)) {
                        (i + 1) ". " (p.a) " and " (p.b) ": " (percent(p.share_a)) " of " (p.a) " is in " (p.b) ", "
                        (percent(p.share_b)) " of " (p.b) " is in " (p.a) "; similarity " (format!("{:.3}", p.similarity))
                        @if p.reference { " (crib's own reference, public: evidence to review, never a mark)" }
                    }
                    div.side {
                        div { (side(by_name.get(p.a.as_str()), p, true)) }
                        div { (side(by_name.get(p.b.as_str()), p, false)) }
                    }
                }
            }
        }
    };
    markup.into_string()
}

fn percent(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

/// One side of a pair: each file with line numbers, fragment i's lines in colour i.
fn side(source: Option<&&Source>, pair: &Pair, is_a: bool) -> Markup {
    let Some(source) = source else {
        return html! { p { "(source not available)" } };
    };
    html! {
        @for (name, text) in &source.files {
            p { strong { (source.name) } " " (name) }
            pre {
                @for (n, line) in text.lines().enumerate() {
                    @let n = n as u32 + 1;
                    @let colour = pair.fragments.iter().position(|f| {
                        let (file, lines) = if is_a { (&f.a_file, f.a_lines) } else { (&f.b_file, f.b_lines) };
                        file == name && lines[0] <= n && n <= lines[1]
                    });
                    @match colour {
                        Some(c) => { span class=(format!("m{}", c % 6)) { span.ln { (n) } (line) } "\n" }
                        None => { span.ln { (n) } (line) "\n" }
                    }
                }
            }
        }
    }
}

/// The distribution of the pairs' larger shares ([`Pair::larger_share`]) as an SVG histogram,
/// with the threshold marked.
fn histogram(pairs: &[Pair], threshold: f64) -> String {
    let mut counts = [0u32; BINS];
    for p in pairs {
        counts[((p.larger_share() * BINS as f64) as usize).min(BINS - 1)] += 1;
    }
    let mut svg = String::new();
    let drawn = draw(&counts, threshold, &mut svg).map_err(|e| e.to_string());
    match drawn {
        Ok(()) => svg,
        Err(e) => format!("<p>(no plot: {e})</p>"),
    }
}

fn draw<'a>(
    counts: &[u32; BINS],
    threshold: f64,
    svg: &'a mut String,
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let root = SVGBackend::with_string(svg, (900, 280)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "larger share of every pair that shares code (log scale of count)",
            ("sans-serif", 15),
        )
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..1f64, (0.5f64..f64::from(top) * 2.0).log_scale())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("larger share")
        .y_desc("pairs")
        .label_style(("sans-serif", 11))
        .draw()?;
    let width = 1.0 / BINS as f64;
    chart.draw_series(
        counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| {
                let x = i as f64 * width;
                let colour = if x + width > threshold {
                    RGBColor(0xc0, 0x39, 0x2b)
                } else {
                    RGBColor(0x4a, 0x7b, 0xb7)
                };
                Rectangle::new(
                    [(x + 0.002, 0.5), (x + width - 0.002, f64::from(*c))],
                    colour.filled(),
                )
            }),
    )?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(threshold, 0.5), (threshold, f64::from(top) * 2.0)],
        BLACK.stroke_width(2),
    )))?;
    root.present()?;
    Ok(())
}
