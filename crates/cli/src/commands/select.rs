//! `crib select`: which four of five or six dealt cards to keep; with `--dealer`, `--pone` or
//! both, counting the crib too (see [`crib`]). One deal given as arguments, or many read one
//! per line (see [`crate::batch`]).

use std::io::Write;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use crib_core::{rank_keeps, select_hand, Card, Keep, Role};
use serde::Serialize;

use crib_core::cards_text as cards;

use crate::batch::{self, Answerer, CardArg, Format, IoArgs, Item, Sink};

mod crib;

const AFTER_HELP: &str = "\
Batch input: `crib select -` reads deals from stdin, `crib select --input FILE` from a file:
one deal of five or six cards per line (six with a role), in any notation, separated by
spaces, tabs or commas; blank lines and lines starting with # are skipped. Out comes, in
input order, one line of text, one JSON object (--json, with \"line\" and \"dealt\") or one
CSV row (--csv, after a header) per deal; with --all, one text line or CSV row per keep; with
a role, one JSON object per deal and role, and one text line or CSV row per keep and role. A
bad line is reported on stderr as FILE:LINE with the bad token and stops the run
(--keep-going: report it and go on); crib then exits 2.";

#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct SelectArgs {
    /// Rank every way to keep four cards, best first (a role always ranks all 15).
    #[arg(long)]
    all: bool,
    /// You deal: rank the 15 keeps by hand + crib, the crib averaged over every opponent
    /// discard and start card (six cards only). With --pone, both rankings.
    #[arg(long)]
    dealer: bool,
    /// Your opponent deals: rank the 15 keeps by hand - crib (six cards only). With --dealer,
    /// both rankings.
    #[arg(long)]
    pone: bool,
    /// Count the crib for this role: dealer, pone, or both (as --dealer --pone).
    #[arg(long, value_enum, conflicts_with_all = ["dealer", "pone"])]
    role: Option<RoleArg>,
    #[command(flatten)]
    io: IoArgs,
    /// The five or six cards dealt; or `-` to read deals from stdin.
    #[arg(value_name = "CARD", required_unless_present = "input")]
    cards: Vec<CardArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RoleArg {
    Dealer,
    Pone,
    Both,
}

impl SelectArgs {
    /// The roles to rank the keeps for, dealer first; empty for the hand alone.
    fn roles(&self) -> Vec<Role> {
        // --role conflicts with --dealer and --pone: at most one way is given.
        let dealer = self.dealer || matches!(self.role, Some(RoleArg::Dealer | RoleArg::Both));
        let pone = self.pone || matches!(self.role, Some(RoleArg::Pone | RoleArg::Both));
        [(dealer, Role::Dealer), (pone, Role::Pone)]
            .into_iter()
            .filter_map(|(on, role)| on.then_some(role))
            .collect()
    }
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dealt: Option<&'a [Card]>,
    #[serde(flatten)]
    best: &'a Keep,
    ties: &'a [Keep],
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<&'a [Keep]>,
}

/// One CSV row: a keep of a deal. Without --all only the best keep, with `ties` the number of
/// other keeps with the same total; with --all every keep, ranked.
#[derive(Serialize)]
struct Row {
    line: Option<usize>,
    dealt: String,
    rank: usize,
    keep: String,
    discard: String,
    expected_value: f64,
    expected_total: u32,
    starts: u32,
    ties: usize,
}

/// Chooses keeps by expected hand value, as the assignment's select_hand.
struct Selector {
    all: bool,
}

impl Answerer for Selector {
    const HEADER: &'static [&'static str] = &[
        "line",
        "dealt",
        "rank",
        "keep",
        "discard",
        "expected_value",
        "expected_total",
        "starts",
        "ties",
    ];

    fn answer(&self, item: Item<'_>, sink: &mut Sink) -> Result<()> {
        let dealt = item.cards;
        let selection = select_hand(dealt)?;
        let all = if self.all {
            Some(rank_keeps(dealt)?)
        } else {
            None
        };
        let batch = item.line.is_some();
        match (sink.format, batch) {
            (Format::Json, _) => sink.json(&Report {
                line: item.line,
                dealt: batch.then_some(dealt),
                best: &selection.best,
                ties: &selection.ties,
                all: all.as_deref(),
            }),
            (Format::Text, false) => write_selection(
                &mut sink.out,
                &selection.best,
                &selection.ties,
                all.as_deref(),
            ),
            (Format::Csv | Format::Text, _) => {
                let one = [selection.best];
                let keeps = all.as_deref().unwrap_or(&one);
                for (rank, ties, k) in ranked(keeps) {
                    let row = Row {
                        line: item.line,
                        dealt: cards(dealt),
                        rank,
                        keep: cards(&k.keep),
                        discard: cards(k.discard()),
                        expected_value: k.expected_value(),
                        expected_total: k.total,
                        starts: k.starts,
                        ties: if self.all { ties } else { selection.ties.len() },
                    };
                    if sink.format == Format::Csv {
                        sink.csv(&row)?;
                    } else {
                        writeln!(
                            sink.out,
                            "dealt {}  {}keep {}  discard {}  expected {:.4}  ({} points over {} \
                             start cards)  ties {}",
                            row.dealt,
                            if self.all {
                                format!("rank {rank}  ")
                            } else {
                                String::new()
                            },
                            row.keep,
                            row.discard,
                            row.expected_value,
                            row.expected_total,
                            row.starts,
                            row.ties
                        )?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Returns each keep (already ranked best first) with its competition rank and how many
/// other keeps share its total.
fn ranked(keeps: &[Keep]) -> impl Iterator<Item = (usize, usize, &Keep)> {
    let mut rank = 0;
    keeps.iter().enumerate().map(move |(i, k)| {
        if i == 0 || keeps[i - 1].total != k.total {
            rank = i + 1;
        }
        let ties = keeps.iter().filter(|o| o.total == k.total).count() - 1;
        (rank, ties, k)
    })
}

pub fn run(args: &SelectArgs) -> Result<()> {
    let roles = args.roles();
    let input = args.io.input(&args.cards)?;
    if roles.is_empty() {
        return batch::run(input, &args.io, &Selector { all: args.all });
    }
    if args.all {
        bail!(
            "--all cannot be used with --dealer, --pone or --role: they always rank all 15 keeps"
        );
    }
    batch::run(input, &args.io, &crib::CribRanker { roles })
}

/// Writes one deal's choice as `crib select` prints it.
fn write_selection(
    out: &mut impl Write,
    best: &Keep,
    ties: &[Keep],
    all: Option<&[Keep]>,
) -> Result<()> {
    writeln!(out, "keep     {}", cards(&best.keep))?;
    writeln!(out, "discard  {}", cards(best.discard()))?;
    writeln!(
        out,
        "expected {:.4}  ({} points over {} start cards)",
        best.expected_value(),
        best.total,
        best.starts
    )?;
    for tie in ties {
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
