//! `crib-verify`: diffs crib-core against the Prolog reference, in three checks that must
//! all pass (crates/verify/README.md says each): every (hand, start) pair (`pairs`), the
//! published score distribution, and select_hand on seeded deals (`deals`).
//!
//! `cargo xtask verify` runs this in release mode. Exit status: 0 when everything agrees, 1
//! when a check found a difference, 2 when it could not run (usage, an unreadable file, a
//! Prolog file that does not load or raises).

mod deals;
mod pairs;
mod progress;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, ValueEnum};
use crib_core::Rule;
use indicatif::HumanCount;
use serde_json::json;

use crate::progress::Progress;

/// How many differences of each kind are printed.
pub const FIRST: usize = 20;

/// Deals in the select_hand sample unless `--deals` or `--sample` says otherwise.
const DEFAULT_DEALS: u64 = 20_000;

#[derive(Debug, Parser)]
#[command(
    name = "crib-verify",
    version,
    about = "Check crib-core against the Prolog reference: every (hand, start) pair, the \
             published score distribution, and select_hand on a seeded sample of deals",
    after_help = "Exit status: 0 no difference, 1 a difference found, 2 could not run \
                  (usage, unreadable file, Prolog that does not load or raises)."
)]
struct Args {
    /// The Prolog implementation to check. FILE must be trusted: it is loaded into this
    /// process, unsandboxed, with your rights. Grade a student's file with `crib grade`.
    #[arg(long, value_name = "FILE", default_value_os_t = crib_oracle::default_path())]
    prolog: PathBuf,
    /// Check N hands drawn at random (each against its 48 start cards) and N deals, instead of
    /// every hand and 20,000 deals.
    #[arg(long, value_name = "N")]
    sample: Option<u64>,
    /// Deals in the select_hand sample [default: 20,000, or N with --sample].
    #[arg(long, value_name = "N")]
    deals: Option<u64>,
    /// Seed for the sampled hands and deals.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// The flush rule the pairs are valued under.
    #[arg(long, value_enum, default_value_t = RuleArg::Hand)]
    rule: RuleArg,
    /// The published score distribution.
    #[arg(long, value_name = "FILE", default_value_os_t = default_distribution())]
    distribution: PathBuf,
    /// Worker threads, each with its own Prolog engine [default: one per core].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Write a JSON summary to stdout instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum RuleArg {
    Hand,
    Crib,
}

fn default_distribution() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../spec/distribution.tsv");
    path.canonicalize().unwrap_or(path)
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(err) => {
            eprintln!("crib-verify: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Runs the checks; returns whether all passed.
fn run(args: &Args) -> Result<bool> {
    let (rule, rule_name) = match args.rule {
        RuleArg::Hand => (Rule::Hand, "hand"),
        RuleArg::Crib => (Rule::Crib, "crib"),
    };
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("cannot start the worker threads")?;
    }
    let started = Instant::now();
    let quiet = args.json;
    let mut out = String::new();

    let reference = crib_oracle::Reference::load(&args.prolog)?;
    let pool = crib_oracle::Pool::new(&reference);
    let loaded = started.elapsed().as_secs_f64();

    let text = std::fs::read_to_string(&args.distribution)
        .with_context(|| format!("cannot read {}", args.distribution.display()))?;
    let expected = crib_core::ScoreCounts::parse(&text)
        .with_context(|| args.distribution.display().to_string())?
        .0;
    let counted = crib_core::score_distribution(Rule::Hand).0;
    let distribution_diffs: Vec<(usize, u64, u64)> = (0..30)
        .filter(|&p| expected[p] != counted[p])
        .map(|p| (p, expected[p], counted[p]))
        .collect();

    let clock = Instant::now();
    let hands = pairs::hands(args.sample, args.seed);
    let progress = Progress::new("pairs", "pairs", hands.len() as u64 * 48, quiet);
    let pair_report = pairs::check(&pool, &hands, rule, &progress)?;
    progress.finish();
    let pair_seconds = clock.elapsed().as_secs_f64();

    let clock = Instant::now();
    let deals = args.deals.or(args.sample).unwrap_or(DEFAULT_DEALS);
    let progress = Progress::new("select_hand", "deals", deals, quiet);
    let deal_report = deals::check(&pool, deals, args.seed, &progress)?;
    progress.finish();
    let deal_seconds = clock.elapsed().as_secs_f64();

    let clean = pair_report.differences == 0
        && deal_report.differences == 0
        && distribution_diffs.is_empty();
    let total_seconds = started.elapsed().as_secs_f64();

    if args.json {
        let summary = json!({
            "prolog": reference.path().display().to_string(),
            "rule": rule_name,
            "seed": args.seed,
            "sample": args.sample,
            "clean": clean,
            "pairs": {
                "hands": hands.len(),
                "pairs": pair_report.pairs,
                "single_calls": pair_report.single,
                "differences": pair_report.differences,
                "first": pair_report.first.iter().map(|d| d.json(rule)).collect::<Vec<_>>(),
                "seconds": pair_seconds,
            },
            "distribution": {
                "file": args.distribution.display().to_string(),
                "differences": distribution_diffs
                    .iter()
                    .map(|&(points, spec, rust)| json!({"points": points, "spec": spec, "rust": rust}))
                    .collect::<Vec<_>>(),
            },
            "select_hand": {
                "deals": deal_report.deals,
                "five": deal_report.five,
                "six": deal_report.six,
                "differences": deal_report.differences,
                "first": deal_report.first,
                "seconds": deal_seconds,
            },
            "seconds": {"load": loaded, "total": total_seconds},
        });
        writeln!(out, "{summary}")?;
        write_stdout(&out)?;
        return Ok(clean);
    }

    writeln!(
        out,
        "crib-verify: {} against crib-core ({} rule{})",
        reference.path().display(),
        rule_name,
        match args.sample {
            Some(n) => format!(", {} sampled hands, seed {}", HumanCount(n), args.seed),
            None => String::new(),
        }
    )?;
    if distribution_diffs.is_empty() {
        writeln!(
            out,
            "distribution: crib-core's {} shows match {}",
            HumanCount(counted.iter().sum::<u64>()),
            args.distribution.display()
        )?;
    } else {
        writeln!(
            out,
            "distribution: {} scores differ from {}:",
            distribution_diffs.len(),
            args.distribution.display()
        )?;
        for (points, spec, rust) in &distribution_diffs {
            writeln!(
                out,
                "  {points} points: spec {}, crib-core {}",
                HumanCount(*spec),
                HumanCount(*rust)
            )?;
        }
    }
    writeln!(
        out,
        "pairs: {} differences in {} pairs ({} hands x 48 starts, batched) and {} single \
         hand_value calls, {pair_seconds:.1} s",
        HumanCount(pair_report.differences),
        HumanCount(pair_report.pairs),
        HumanCount(hands.len() as u64),
        HumanCount(pair_report.single),
    )?;
    if pair_report.differences > 0 {
        writeln!(out, "  the first {}:", pair_report.first.len())?;
        for diff in &pair_report.first {
            writeln!(out, "  {}", diff.line(rule))?;
        }
    }
    writeln!(
        out,
        "select_hand: {} differences in {} deals ({} of six cards, {} of five), seed {}, \
         {deal_seconds:.1} s",
        HumanCount(deal_report.differences),
        HumanCount(deal_report.deals),
        HumanCount(deal_report.six),
        HumanCount(deal_report.five),
        args.seed
    )?;
    if deal_report.differences > 0 {
        writeln!(out, "  the first {}:", deal_report.first.len())?;
        for diff in &deal_report.first {
            writeln!(out, "  {}", diff.line())?;
        }
    }
    writeln!(
        out,
        "{} in {total_seconds:.1} s",
        if clean { "clean" } else { "DIFFERENCES FOUND" }
    )?;
    write_stdout(&out)?;
    Ok(clean)
}

/// Writes the report to stdout; a reader that closed the pipe early is not an error.
fn write_stdout(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.context("cannot write to stdout"),
    }
}
