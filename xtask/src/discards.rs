//! The exhaustive discard tables: the best keep of every 6-card and every 5-card deal
//! (`cargo xtask discards [--check]`, and part of `cargo xtask fixtures`).
//!
//! crib-core computes ([`crib_core::discard_summary`]); this module only formats.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::{ensure, Result};
use crib_core::{cards_text, discard_summary, select_hand, DealClass, DiscardSummary};

use crate::generated::{write_or_check, Fixture};

/// `cargo xtask discards`: writes only the discard tables, or with `check` compares them with
/// fixtures/. Returns whether everything was current (always true when writing).
pub fn run(root: &Path, check: bool) -> Result<bool> {
    Ok(write_or_check(root, &fixtures()?, check, "discard tables")? == 0)
}

/// Returns the discard tables of 6-card and 5-card deals, two files each, computed afresh;
/// says on stderr how long each took.
pub fn fixtures() -> Result<Vec<Fixture>> {
    let mut all = Vec::new();
    for (size, deals) in [(6, 20_358_520), (5, 2_598_960)] {
        let clock = Instant::now();
        let summary = discard_summary(size)?;
        eprintln!(
            "xtask: best keep of every {size}-card deal: {} deals in {} classes, {:.2} s",
            summary.deals,
            summary.classes,
            clock.elapsed().as_secs_f64()
        );
        ensure!(
            summary.deals == deals,
            "the {size}-card table counted {} deals, not C(52,{size}) = {deals}",
            summary.deals
        );
        all.extend(tables(&summary)?);
    }
    Ok(all)
}

/// Returns the two files of one summary: the distribution of the best expected value, and the
/// most and least valuable deals.
fn tables(summary: &DiscardSummary) -> Result<[Fixture; 2]> {
    let size = summary.deal_size;
    let path = format!("fixtures/discards-{size}.tsv");
    let starts = summary.starts;
    let sum = summary.sum_of_best_totals();
    let about = format!(
        "the best keep of every {size}-card deal by expected hand value,
as select_hand chooses it: the hand alone, hand rule, averaged over the {starts} start
cards not dealt.
Deals: {deals}. Mean best expected value: {sum} / ({deals} x {starts}) = {mean:.6}.
Each class of deals equal up to relabelling the suits ({classes} classes) is valued once and
counted as many times as it has deals; see crib_core::discard_summary.
best_total: the best keep's points summed over the {starts} starts; expected_value =
best_total / {starts}; deals: how many deals have that best; percent: of all deals;
cumulative_percent: deals whose best is this or less. Totals no deal has are left out.",
        deals = summary.deals,
        mean = summary.mean(),
        classes = summary.classes,
    );
    let columns = "best_total\texpected_value\tdeals\tpercent\tcumulative_percent";
    let mut distribution = Fixture::new(&path, &about, columns);
    let percent = |n: u64| 100.0 * n as f64 / summary.deals as f64;
    let mut so_far = 0;
    for (total, &deals) in summary.best_totals.iter().enumerate() {
        if deals == 0 {
            continue;
        }
        so_far += deals;
        writeln!(
            distribution.contents,
            "{total}\t{:.6}\t{deals}\t{:.6}\t{:.6}",
            total as f64 / f64::from(starts),
            percent(deals),
            percent(so_far)
        )?;
    }
    let about = format!(
        "the most and the least valuable {size}-card deals,
by the expected hand value of their best keep (see {path}). Deals equal up to
relabelling the suits form one class, shown by one deal (its rank sets dealt to clubs,
diamonds, hearts, spades, largest first); deals: how many deals the class has.
most: best first; least: worst first; ties by the cards in order.
keep and discard: select_hand's choice; best_total: its points over the {starts} starts."
    );
    let columns = "list\tplace\tdealt\tkeep\tdiscard\texpected_value\tbest_total\tdeals";
    let path = format!("fixtures/discards-{size}-extremes.tsv");
    let mut extremes = Fixture::new(path, &about, columns);
    for (list, classes) in [("most", &summary.most), ("least", &summary.least)] {
        for (i, class) in classes.iter().enumerate() {
            write_class(&mut extremes.contents, list, i + 1, class, starts)?;
        }
    }
    Ok([distribution, extremes])
}

fn write_class(
    text: &mut String,
    list: &str,
    place: usize,
    class: &DealClass,
    starts: u32,
) -> Result<()> {
    let choice = select_hand(&class.cards)?;
    ensure!(
        choice.best.total == class.best_total,
        "the table and select_hand disagree on {}",
        cards_text(&class.cards)
    );
    writeln!(
        text,
        "{list}\t{place}\t{}\t{}\t{}\t{:.6}\t{}\t{}",
        cards_text(&class.cards),
        cards_text(&choice.best.keep),
        cards_text(choice.best.discard()),
        f64::from(class.best_total) / f64::from(starts),
        class.best_total,
        class.deals
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
