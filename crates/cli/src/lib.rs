//! The `crib` command: score a hand, choose a discard, grade Prolog submissions.
//!
//! The binary (`src/main.rs`) only calls [`main`]; [`command`] gives the clap definition, from
//! which `cargo xtask man` writes the man page and the shell completions.
//!
//! Exit codes: 0 success, 2 bad input or usage. (1, "a check found a difference", is for
//! `cargo xtask verify` and `fixtures --check`; no `crib` command needs it.)

mod batch;
mod commands;
mod download;
pub mod man;
mod max_size;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use commands::{grade, lint, report, score, select, similar};

const AFTER_HELP: &str = "\
Cards: rank then suit, case-insensitive: 5H, 10H or TH, JD, AS; suit symbols 7♣ Q♥ 5♦ A♠;
or the assignment's Prolog terms card(5,hearts), card(jack,diamonds).

Examples:
  crib score 5H 5S 5C JD 5D          # 29: the last card is the start card
  crib score --crib 2H 4H 6H 8H TS   # crib rule: a four-card flush scores nothing
  crib select 5H 5S 5C JD 2C 9H      # which four to keep, which two to discard
  crib select --all --json AS 2D 3H 4S 5C 6D
  crib select --dealer 5H 5S 5C JD 2C 9H   # count the crib too: yours as dealer (--pone: theirs)
  crib score --json - < hands.txt    # many hands, one per line; one JSON object per line out
  crib select --csv --input deals.txt
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
    /// Findings on Prolog submissions for the markers of code quality (never a mark).
    Lint(lint::LintArgs),
    /// Pairs of submissions that share code, within a class and against known sources.
    Similar(similar::SimilarArgs),
}

/// Returns the clap definition of `crib`, as the man page and completions describe it.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Runs `crib` with the process's arguments and returns its exit code.
pub fn main() -> ExitCode {
    // `crib grade` runs this binary inside bubblewrap to apply Landlock before swipl; calling
    // this first makes every jail crib makes try it in its first probe.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let Some(error) = crib_sandbox::confine_main(&args) {
        eprintln!("crib: confining the child: {error}");
        return ExitCode::from(126);
    }
    let cli = parse(&args);
    let result = match &cli.command {
        Command::Score(args) => score::run(args),
        Command::Select(args) => select::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Report(args) => report::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Similar(args) => similar::run(args),
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

/// Parses the process's arguments, `args`. `crib grade --help` describes the test set, which
/// takes building, so its text is added only when `args` may ask for help on `grade` (`crib
/// grade --help`, `crib help grade`; a false positive only costs the time to build it).
fn parse(args: &[std::ffi::OsString]) -> Cli {
    let mut command = Cli::command();
    if args.iter().any(|a| a == "grade") && args.iter().any(|a| a == "--help" || a == "help") {
        command = command.mut_subcommand("grade", |c| c.after_long_help(grade::long_help()));
    }
    Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit())
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
