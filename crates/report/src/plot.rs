//! Histograms as inline SVG, drawn by plotters' SVG backend: of marks, and of the shares of
//! the deep check.

use plotters::prelude::*;

use crate::class::Histogram as Bins;
use crate::deep::{ShareHistogram, SHARE_BINS};

/// The colour of the bars (Okabe-Ito blue, distinct for colour-blind readers and in grey).
pub(crate) const BAR: RGBColor = RGBColor(0x00, 0x72, 0xb2);

/// Returns `histogram` as an `<svg>` element of `width` x `height` pixels: one bar per bin,
/// labelled with its range of marks, submissions on the y axis. An empty histogram still
/// draws its axes.
pub(crate) fn histogram_svg(histogram: &Bins, width: u32, height: u32) -> String {
    let step = histogram.width();
    let label = |i: u32| format!("{}\u{2013}{}", f64::from(i) * step, f64::from(i + 1) * step);
    Bars {
        title: &histogram.title,
        x_desc: "marks",
        counts: &histogram.counts,
        label: &label,
    }
    .svg(width, height)
}

/// Returns `histogram` as an `<svg>` element of `width` x `height` pixels: one bar per bin
/// of [`SHARE_BINS`](crate::deep::SHARE_BINS), labelled with it, submissions on the y axis.
pub(crate) fn share_histogram_svg(histogram: &ShareHistogram, width: u32, height: u32) -> String {
    let label = |i: u32| SHARE_BINS.get(i as usize).unwrap_or(&"").to_string();
    Bars {
        title: &histogram.title,
        x_desc: &histogram.x_desc,
        counts: &histogram.counts,
        label: &label,
    }
    .svg(width, height)
}

/// Returns the class's rules as an `<svg>` bar chart of `width` x `height` pixels: one bar
/// per rule (in the order given), its height the submissions with a finding of it.
pub(crate) fn rules_svg(rules: &[crate::quality::RuleCount], width: u32, height: u32) -> String {
    let counts: Vec<usize> = rules.iter().map(|r| r.submissions).collect();
    let label = |i: u32| rules.get(i as usize).map_or("", |r| &r.rule).to_string();
    Bars {
        title: "submissions breaking each rule",
        x_desc: "rule (crib lint --explain RULE)",
        counts: &counts,
        label: &label,
    }
    .svg(width, height)
}

/// A bar chart: a count per bin, each bin with its label.
struct Bars<'a> {
    title: &'a str,
    x_desc: &'a str,
    counts: &'a [usize],
    label: &'a dyn Fn(u32) -> String,
}

impl Bars<'_> {
    fn svg(&self, width: u32, height: u32) -> String {
        let mut svg = String::new();
        // Drawing into a String cannot fail for lack of a file; an error here would be a bug
        // in the ranges below, and the page then shows the plot's title without the plot.
        match self
            .draw(width, height, &mut svg)
            .map_err(|e| e.to_string())
        {
            Ok(()) => svg,
            Err(err) => format!(
                "<p class=\"plot-error\">cannot draw {}: {err}</p>",
                self.title
            ),
        }
    }

    fn draw<'a>(
        &self,
        width: u32,
        height: u32,
        svg: &'a mut String,
    ) -> Result<(), Box<dyn std::error::Error + 'a>> {
        let root = SVGBackend::with_string(svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        // A segmented range a..b has a segment for each of a..=b.
        let bins = (self.counts.len() as u32).max(1);
        let top = self.counts.iter().copied().max().unwrap_or(0).max(1) as u32;
        let mut chart = ChartBuilder::on(&root)
            .caption(self.title, ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(34)
            .y_label_area_size(36)
            .build_cartesian_2d(
                (0u32..bins - 1).into_segmented(),
                0u32..top + top.div_ceil(10),
            )?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(0xdd, 0xdd, 0xdd))
            .y_desc("submissions")
            .x_desc(self.x_desc)
            .x_labels(bins as usize)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => (self.label)(*i),
                _ => String::new(),
            })
            .y_label_formatter(&|v| format!("{v}"))
            .label_style(("sans-serif", 11))
            .draw()?;
        // One series a bar: plotters' Histogram sums its data in a HashMap and draws the bars
        // in that map's order, which would make the page's bytes differ from run to run.
        for (i, c) in self.counts.iter().enumerate().filter(|(_, c)| **c > 0) {
            chart.draw_series(
                Histogram::vertical(&chart)
                    .style(BAR.filled())
                    .margin(2)
                    .data([(i as u32, *c as u32)]),
            )?;
        }
        root.present()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
