//! `crib select --dealer | --pone`: the 15 keeps of a six-card deal ranked by net expected
//! value, the crib counted for (dealer) or against (pone) the player.
//!
//! The crib is averaged over every pair the opponent may discard and every start card left,
//! all equally likely (see crib-core's `analyze_crib`).

use std::io::Write;

use anyhow::{bail, Result};
use crib_core::{rank_crib_keeps, Card, CribKeep, Role, Spread, CRIB_OUTCOMES};
use serde::Serialize;

use crib_core::cards_text as cards;

#[derive(Serialize)]
struct Report<'a> {
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

/// Ranks the keeps of `cards` for `role` and prints them, as text or as one JSON object.
pub fn run(cards: &[Card], role: Role, json: bool) -> Result<()> {
    if cards.len() != 6 {
        bail!(
            "--dealer and --pone need the six cards of a two-player deal, got {}; \
             five-card deals (three or four players) are not covered",
            cards.len()
        );
    }
    let keeps = rank_crib_keeps(cards, role)?;
    let rows = rows(&keeps, role);
    if json {
        crate::print_json(&Report {
            role,
            outcomes: CRIB_OUTCOMES,
            keeps: rows,
        })?;
    } else {
        write_text(&mut std::io::stdout().lock(), role, &rows)?;
    }
    Ok(())
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
mod tests {
    use super::*;
    use crib_core::parse_cards;

    #[test]
    fn text_marks_the_best_and_ranks_ties_together() {
        // The four fives are interchangeable with each other, and so are the aces.
        let dealt = parse_cards(&["5C", "5D", "5H", "AH", "AS", "5S"]).unwrap();
        let keeps = rank_crib_keeps(&dealt, Role::Dealer).unwrap();
        let rows = rows(&keeps, Role::Dealer);
        assert_eq!(rows.len(), 15);
        assert!(rows[0].best && rows.iter().skip(1).all(|r| !r.best));
        assert!(rows.windows(2).all(|w| w[0].rank <= w[1].rank));
        assert!(
            rows.iter().enumerate().any(|(i, r)| r.rank != i + 1),
            "interchangeable cards make ties"
        );
        let mut text = Vec::new();
        write_text(&mut text, Role::Dealer, &rows).unwrap();
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("dealer:"), "{text}");
        assert!(lines[3].starts_with("*  1  "), "{text}");
        assert_eq!(lines.len(), 3 + 15 + 2, "{text}");
    }

    #[test]
    fn five_cards_are_refused() {
        let dealt = parse_cards(&["5C", "5D", "5H", "AH", "AS"]).unwrap();
        let err = run(&dealt, Role::Pone, false).err().unwrap();
        assert!(err.to_string().contains("six cards"), "{err}");
    }
}
