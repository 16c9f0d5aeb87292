//! The `crib` command: score a hand, choose a discard, grade Prolog submissions.
//!
//! Exit codes: 0 success, 2 bad input or usage. (1, "a check found a difference", is for
//! `cargo xtask verify` and `fixtures --check`; no `crib` command needs it.)

mod grade;
mod report;
mod score;
mod select;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

const AFTER_HELP: &str = "\
Cards: rank then suit, case-insensitive: 5H, 10H or TH, JD, AS; suit symbols 7♣ Q♥ 5♦ A♠;
or the assignment's Prolog terms card(5,hearts), card(jack,diamonds).

Examples:
  crib score 5H 5S 5C JD 5D          # 29: the last card is the start card
  crib score --crib 2H 4H 6H 8H TS   # crib rule: a four-card flush scores nothing
  crib select 5H 5S 5C JD 2C 9H      # which four to keep, which two to discard
  crib select --all --json AS 2D 3H 4S 5C 6D
  crib select --dealer 5H 5S 5C JD 2C 9H   # count the crib too: yours as dealer (--pone: theirs)
  crib grade submissions/            # grade student Prolog files, sandboxed (crib grade --help)

Exit codes: 0 success (crib grade: graded, whatever the marks); 2 bad input or usage.";

#[derive(Debug, Parser)]
#[command(name = "crib", version, about = "Cribbage hand scoring, discards and grading", after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Score four hand cards and a start card, rule by rule.
    Score(score::ScoreArgs),
    /// Choose which four of five or six dealt cards to keep.
    Select(select::SelectArgs),
    /// Grade student Prolog submissions against the reference, each in a sandbox.
    Grade(grade::GradeArgs),
    /// The class report (HTML, plots) and marks CSV of a crib grade results directory.
    Report(report::ReportArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Score(args) => score::run(args),
        Command::Select(args) => select::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Report(args) => report::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("crib: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes `value` as one line of JSON on stdout.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}
