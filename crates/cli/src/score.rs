//! `crib score`: the value of four cards and a start card, with the cards behind each point.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use crib_core::{cards_text as cards, check_distinct, Breakdown, Card, CardError, Hand, Rule};
use serde::Serialize;

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Use the crib rule: a flush counts only when all five cards share a suit.
    #[arg(long)]
    crib: bool,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Four hand cards, then the start card.
    #[arg(value_name = "CARD", required = true)]
    cards: Vec<Card>,
}

#[derive(Serialize)]
struct Report<'a> {
    hand: [Card; 4],
    start: Card,
    crib: bool,
    total: u8,
    fifteens: u8,
    pairs: u8,
    runs: u8,
    flush: u8,
    nob: u8,
    combinations: Combinations<'a>,
}

#[derive(Serialize)]
struct Combinations<'a> {
    fifteens: &'a [Vec<Card>],
    pairs: &'a [Vec<Card>],
    runs: &'a [Vec<Card>],
    flush: &'a [Card],
    nob: Option<Card>,
}

pub fn run(args: &ScoreArgs) -> Result<()> {
    if args.cards.len() != 5 {
        return Err(CardError::Count {
            expected: "5 cards (four hand cards, then the start card)",
            got: args.cards.len(),
        }
        .into());
    }
    check_distinct(&args.cards)?;
    let hand = Hand::from_slice(&args.cards[..4])?;
    let rule = if args.crib { Rule::Crib } else { Rule::Hand };
    let b = Breakdown::new(&hand, args.cards[4], rule)?;
    let p = b.points();
    if args.json {
        crate::print_json(&Report {
            hand: b.hand,
            start: b.start,
            crib: args.crib,
            total: p.total(),
            fifteens: p.fifteens,
            pairs: p.pairs,
            runs: p.runs,
            flush: p.flush,
            nob: p.nob,
            combinations: Combinations {
                fifteens: &b.fifteens,
                pairs: &b.pairs,
                runs: &b.runs,
                flush: &b.flush,
                nob: b.nob,
            },
        })?;
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "hand {}  start {}{}",
        cards(&b.hand),
        b.start,
        if args.crib { "  (crib rule)" } else { "" }
    )?;
    let sets = |sets: &[Vec<Card>]| sets.iter().map(|s| cards(s)).collect::<Vec<_>>().join(", ");
    writeln!(out, "  fifteens {:>2}  {}", p.fifteens, sets(&b.fifteens))?;
    writeln!(out, "  pairs    {:>2}  {}", p.pairs, sets(&b.pairs))?;
    writeln!(out, "  runs     {:>2}  {}", p.runs, sets(&b.runs))?;
    writeln!(out, "  flush    {:>2}  {}", p.flush, cards(&b.flush))?;
    writeln!(
        out,
        "  nob      {:>2}  {}",
        p.nob,
        b.nob.map(|c| c.to_string()).unwrap_or_default()
    )?;
    writeln!(out, "total {}", p.total())?;
    Ok(())
}
