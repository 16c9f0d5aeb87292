//! `crib score`: the value of four cards and a start card, with the cards behind each point;
//! for one hand given as arguments, or many read one per line (see [`crate::batch`]).

use std::io::Write;

use anyhow::Result;
use clap::Args;
use crib_core::{cards_text as cards, Breakdown, Card, CardError, Hand, Rule};
use serde::Serialize;

use crate::batch::{self, Answerer, CardArg, Format, IoArgs, Item, Sink};

const AFTER_HELP: &str = "\
Batch input: `crib score -` reads hands from stdin, `crib score --input FILE` from a file: one
hand per line, five cards (four hand cards, then the start card) in any notation, separated
by spaces, tabs or commas; blank lines and lines starting with # are skipped. Out comes one
result per hand, in input order: a line of text, a JSON object (--json, with \"line\": the
input line number) or a CSV row (--csv, after a header). A bad line is reported on stderr as
FILE:LINE with the bad token and stops the run (--keep-going: report it and go on); crib then
exits 2. Hands are answered in parallel; memory stays small however long the input.";

#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct ScoreArgs {
    /// Use the crib rule: a flush counts only when all five cards share a suit.
    #[arg(long)]
    crib: bool,
    #[command(flatten)]
    io: IoArgs,
    /// Four hand cards, then the start card; or `-` to read hands from stdin.
    #[arg(value_name = "CARD", required_unless_present = "input")]
    cards: Vec<CardArg>,
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
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

/// Scores hands under one rule.
struct Scorer {
    rule: Rule,
}

impl Answerer for Scorer {
    const HEADER: &'static [&'static str] = &[
        "line", "hand", "start", "crib", "total", "fifteens", "pairs", "runs", "flush", "nob",
    ];

    fn answer(&self, item: Item<'_>, sink: &mut Sink) -> Result<()> {
        let b = breakdown(item.cards, self.rule)?;
        let p = b.points();
        let crib = self.rule == Rule::Crib;
        match sink.format {
            Format::Json => sink.json(&Report {
                line: item.line,
                hand: b.hand,
                start: b.start,
                crib,
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
            }),
            // The columns of HEADER, cards in short notation.
            Format::Csv => sink.csv(&(
                item.line,
                cards(&b.hand),
                b.start,
                crib,
                p.total(),
                [p.fifteens, p.pairs, p.runs, p.flush, p.nob],
            )),
            Format::Text if item.line.is_some() => {
                writeln!(
                    sink.out,
                    "hand {}  start {}  total {}  fifteens {}  pairs {}  runs {}  flush {}  nob {}",
                    cards(&b.hand),
                    b.start,
                    p.total(),
                    p.fifteens,
                    p.pairs,
                    p.runs,
                    p.flush,
                    p.nob
                )?;
                Ok(())
            }
            Format::Text => write_breakdown(&mut sink.out, &b, crib),
        }
    }
}

pub fn run(args: &ScoreArgs) -> Result<()> {
    let rule = if args.crib { Rule::Crib } else { Rule::Hand };
    batch::run(args.io.input(&args.cards)?, &args.io, &Scorer { rule })
}

/// Returns the breakdown of five cards: four hand cards, then the start card.
fn breakdown(cards: &[Card], rule: Rule) -> Result<Breakdown, CardError> {
    if cards.len() != 5 {
        return Err(CardError::Count {
            expected: "5 cards (four hand cards, then the start card)",
            got: cards.len(),
        });
    }
    crib_core::check_distinct(cards)?;
    let hand = Hand::from_slice(&cards[..4])?;
    Breakdown::new(&hand, cards[4], rule)
}

/// Writes the rule-by-rule breakdown of one hand, as `crib score` prints it.
fn write_breakdown(out: &mut impl Write, b: &Breakdown, crib: bool) -> Result<()> {
    let p = b.points();
    writeln!(
        out,
        "hand {}  start {}{}",
        cards(&b.hand),
        b.start,
        if crib { "  (crib rule)" } else { "" }
    )?;
    let sets = |sets: &[Vec<Card>]| sets.iter().map(|s| cards(s)).collect::<Vec<_>>().join(", ");
    let nob = b.nob.map(|c| c.to_string()).unwrap_or_default();
    for (name, points, shown) in [
        ("fifteens", p.fifteens, sets(&b.fifteens)),
        ("pairs", p.pairs, sets(&b.pairs)),
        ("runs", p.runs, sets(&b.runs)),
        ("flush", p.flush, cards(&b.flush)),
        ("nob", p.nob, nob),
    ] {
        let line = format!("  {name:<8} {points:>2}  {shown}");
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out, "total {}", p.total())?;
    Ok(())
}
