//! `crib select --dealer | --pone`: the 15 keeps of a six-card deal ranked by net expected
//! value, the crib counted for (dealer) or against (pone) the player.
//!
//! The crib is averaged over every pair the opponent may discard and every start card left,
//! all equally likely (see crib-core's `analyze_crib`).

use std::io::Write;

use anyhow::{bail, Result};
use crib_core::{analyze_crib, Card, CribKeep, Role, Spread, CRIB_OUTCOMES};
use serde::Serialize;

use crib_core::cards_text as cards;

use crate::batch::{Answerer, Format, Item, Sink};

#[derive(Serialize)]
struct Report<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dealt: Option<&'a [Card]>,
    role: Role,
    /// Equally likely (opponent discard, start card) outcomes behind every figure.
    outcomes: u32,
    keeps: Vec<Row<'a>>,
}

#[derive(Serialize)]
struct Row<'a> {
    /// 1 for the best; keeps with equal net sums share a rank.
    rank: usize,
    /// The chosen keep: the first of those ranked 1.
    best: bool,
    keep: &'a [Card; 4],
    discard: &'a [Card; 2],
    net: &'a Spread,
    hand: &'a Spread,
    crib: &'a Spread,
}

/// Ranks the keeps of six-card deals for one role or both (dealer first).
pub struct CribRanker {
    pub roles: Vec<Role>,
}

impl Answerer for CribRanker {
    const HEADER: &'static [&'static str] = &[
        "line",
        "dealt",
        "role",
        "rank",
        "best",
        "keep",
        "discard",
        "net_mean",
        "net_sd",
        "net_min",
        "net_max",
        "hand_mean",
        "hand_sd",
        "hand_min",
        "hand_max",
        "crib_mean",
        "crib_sd",
        "crib_min",
        "crib_max",
    ];

    fn answer(&self, item: Item<'_>, sink: &mut Sink) -> Result<()> {
        let dealt = item.cards;
        if dealt.len() != 6 {
            bail!(
                "--dealer and --pone need the six cards of a two-player deal, got {}; \
                 five-card deals (three or four players) are not covered",
                dealt.len()
            );
        }
        let analysed = analyze_crib(dealt)?;
        let batch = item.line.is_some();
        for (i, &role) in self.roles.iter().enumerate() {
            // a stable sort: equal nets stay in enumeration order
            let mut keeps = analysed.clone();
            keeps.sort_by_key(|k| std::cmp::Reverse(k.net(role).sum));
            let rows = rows(&keeps, role);
            match (sink.format, batch) {
                (Format::Json, _) => sink.json(&Report {
                    line: item.line,
                    dealt: batch.then_some(dealt),
                    role,
                    outcomes: CRIB_OUTCOMES,
                    keeps: rows,
                })?,
                (Format::Text, false) => {
                    if i > 0 {
                        writeln!(sink.out)?;
                    }
                    write_text(&mut sink.out, role, &rows)?;
                }
                (Format::Csv, _) => {
                    for row in &rows {
                        sink.csv(&csv_row(item.line, dealt, role, row))?;
                    }
                }
                (Format::Text, true) => {
                    for row in &rows {
                        writeln!(
                            sink.out,
                            "dealt {}  {}  rank {}{}  keep {}  discard {}  net {:.3}  hand {:.3}  \
                             crib {:.3}",
                            cards(dealt),
                            role_name(role),
                            row.rank,
                            if row.best { "*" } else { "" },
                            cards(row.keep),
                            cards(row.discard),
                            row.net.mean(),
                            row.hand.mean(),
                            row.crib.mean()
                        )?;
                    }
                }
            }
        }
        Ok(())
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Dealer => "dealer",
        Role::Pone => "pone",
    }
}

/// One CSV row: a keep of a deal for one role, with the mean, standard deviation, minimum and
/// maximum of the net, hand and crib points (the columns of [`CribRanker::HEADER`]).
fn csv_row(line: Option<usize>, dealt: &[Card], role: Role, row: &Row<'_>) -> impl Serialize {
    let stats = |s: &Spread| (s.mean(), s.std_dev(), s.min, s.max);
    let keep = (row.rank, row.best, cards(row.keep), cards(row.discard));
    let spreads = (stats(row.net), stats(row.hand), stats(row.crib));
    (line, cards(dealt), role, keep, spreads)
}

/// The keeps (already ranked best first) with their competition ranks.
fn rows(keeps: &[CribKeep], role: Role) -> Vec<Row<'_>> {
    let mut rank = 0;
    keeps
        .iter()
        .enumerate()
        .map(|(i, k)| {
            if i == 0 || keeps[i - 1].net(role).sum != k.net(role).sum {
                rank = i + 1;
            }
            Row {
                rank,
                best: i == 0,
                keep: &k.keep,
                discard: &k.discard,
                net: k.net(role),
                hand: &k.hand,
                crib: &k.crib,
            }
        })
        .collect()
}

fn write_text(out: &mut impl Write, role: Role, rows: &[Row<'_>]) -> std::io::Result<()> {
    let (who, net) = match role {
        Role::Dealer => ("dealer: the crib is yours", "hand + crib"),
        Role::Pone => ("pone: the crib is your opponent's", "hand - crib"),
    };
    writeln!(
        out,
        "{who}; net = {net}, averaged over every opponent discard (1035) and start card (44)"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "rank  keep         discard  {:>6} {:>5} {:>3} {:>3}   {:>6} {:>5} {:>3} {:>3}   {:>6} {:>5} {:>3} {:>3}",
        "net", "sd", "min", "max", "hand", "sd", "min", "max", "crib", "sd", "min", "max"
    )?;
    for row in rows {
        let mark = if row.best { '*' } else { ' ' };
        writeln!(
            out,
            "{mark}{:>3}  {:<11}  {:<7}  {}   {}   {}",
            row.rank,
            cards(row.keep),
            cards(row.discard),
            spread(row.net),
            spread(row.hand),
            spread(row.crib),
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "* best keep; sd: standard deviation; min, max: over all {CRIB_OUTCOMES} outcomes"
    )
}

fn spread(s: &Spread) -> String {
    format!(
        "{:>6.3} {:>5.2} {:>3} {:>3}",
        s.mean(),
        s.std_dev(),
        s.min,
        s.max
    )
}

#[cfg(test)]
mod tests;
