//! `crib select`: which four of five or six dealt cards to keep; with `--dealer` or `--pone`,
//! counting the crib too (see [`crib`]).

use std::io::Write;

use anyhow::Result;
use clap::Args;
use crib_core::{rank_keeps, select_hand, Card, Keep, Role};
use serde::Serialize;

use crib_core::cards_text as cards;

mod crib;

#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Rank every way to keep four cards, best first.
    #[arg(long)]
    all: bool,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// You deal: rank the 15 keeps by hand + crib, the crib averaged over every opponent
    /// discard and start card (six cards only).
    #[arg(long, conflicts_with = "pone")]
    dealer: bool,
    /// Your opponent deals: rank the 15 keeps by hand - crib (six cards only).
    #[arg(long)]
    pone: bool,
    /// The five or six cards dealt.
    #[arg(value_name = "CARD", required = true)]
    cards: Vec<Card>,
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    best: &'a Keep,
    ties: &'a [Keep],
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<&'a [Keep]>,
}

pub fn run(args: &SelectArgs) -> Result<()> {
    if let Some(role) = match (args.dealer, args.pone) {
        (true, _) => Some(Role::Dealer),
        (_, true) => Some(Role::Pone),
        _ => None,
    } {
        return crib::run(&args.cards, role, args.json);
    }
    let selection = select_hand(&args.cards)?;
    let all = if args.all {
        Some(rank_keeps(&args.cards)?)
    } else {
        None
    };
    if args.json {
        crate::print_json(&Report {
            best: &selection.best,
            ties: &selection.ties,
            all: all.as_deref(),
        })?;
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    let best = &selection.best;
    writeln!(out, "keep     {}", cards(&best.keep))?;
    writeln!(out, "discard  {}", cards(best.discard()))?;
    writeln!(
        out,
        "expected {:.4}  ({} points over {} start cards)",
        best.expected_value(),
        best.total,
        best.starts
    )?;
    for tie in &selection.ties {
        writeln!(
            out,
            "tie      keep {}  discard {}",
            cards(&tie.keep),
            cards(tie.discard())
        )?;
    }
    if let Some(all) = all {
        writeln!(out)?;
        writeln!(out, "rank  keep          discard  expected  total")?;
        for (i, k) in all.iter().enumerate() {
            writeln!(
                out,
                "{:>4}  {:<12}  {:<7}  {:>8.4}  {:>5}",
                i + 1,
                cards(&k.keep),
                cards(k.discard()),
                k.expected_value(),
                k.total
            )?;
        }
    }
    Ok(())
}
