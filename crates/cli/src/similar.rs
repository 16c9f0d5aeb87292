//! `crib similar`: pairs of submissions (and known sources) that share code, ranked.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use crib_similar::{compare, Options, Pair, Source, Winnowing};

const AFTER_HELP: &str = "\
Similarity is evidence for a person to review, never a verdict: code matches because it was
given, is the obvious way to write it, or was written together with permission. No mark
changes because of it.

Each file is tokenized as SWI-Prolog reads it; layout, comments, variable names and the names
of the submission's own predicates do not count, and the order of predicates matters little.
Fingerprints are winnowed k-grams (MOSS's algorithm) that never cross a clause's end; those in
more than --max-share of the class (and at least 10 submissions) are ignored as what everyone
writes. Similarity is 2|A and B| / (|A| + |B|) over the two files' fingerprints.

Examples:
  crib similar submissions/
  crib similar --against last-year/ --against published/ --base given.pl submissions/
  crib similar --json submissions/ > pairs.jsonl
  crib similar --html similar.html --threshold 0.4 submissions/

Exit codes: 0 compared (whatever was found); 2 bad input or usage.";

/// Arguments of `crib similar`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct SimilarArgs {
    /// Submissions: .pl files, or directories of them (the same rules as crib grade).
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Treat each directory given as one submission.
    #[arg(long)]
    single: bool,
    #[command(flatten)]
    max_size: crate::max_size::MaxSize,
    /// Known sources (earlier years, published solutions), compared with every submission
    /// and never with each other; may be given more than once.
    #[arg(long, value_name = "DIR")]
    against: Vec<PathBuf>,
    /// Code every student was given: never counts as shared. May be given more than once.
    #[arg(long, value_name = "FILE")]
    base: Vec<PathBuf>,
    /// JSON Lines: one pair per line (a, b, similarity, share_a, share_b, fragments).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV: one pair per row, fragments as `a_file:s-e=b_file:s-e` separated by spaces.
    #[arg(long)]
    csv: bool,
    /// Also write a self-contained page: the pairs, their distribution and, for each pair at
    /// or above --threshold, both files side by side with the matches in matching colours.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// The similarity from which a pair is shown side by side in --html.
    #[arg(long, default_value_t = crib_similar::html::DEFAULT_THRESHOLD, value_name = "X", value_parser = unit)]
    threshold: f64,
    /// Print only the N most similar pairs (0: all).
    #[arg(long, default_value_t = 50, value_name = "N")]
    top: usize,
    /// Ignore a fingerprint found in more than this share of the submissions.
    #[arg(long, default_value_t = 0.1, value_name = "X", value_parser = unit)]
    max_share: f64,
    /// Tokens in a k-gram (the shortest match that counts).
    #[arg(short, default_value_t = 12, value_name = "K", value_parser = clap::value_parser!(u32).range(2..=100))]
    k: u32,
    /// k-grams in a winnowing window (a match of k + w - 1 tokens is always found).
    #[arg(short, default_value_t = 5, value_name = "W", value_parser = clap::value_parser!(u32).range(1..=100))]
    w: u32,
}

fn unit(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0 to 1, got {text:?}")),
    }
}

/// Runs `crib similar`.
pub fn run(args: &SimilarArgs) -> Result<()> {
    let submissions = sources(&args.paths, args.single, args.max_size.bytes())?;
    if submissions.is_empty() {
        bail!("no submission found (a .pl file, or a directory of them)");
    }
    let mut against = Vec::new();
    for dir in &args.against {
        if !dir.exists() {
            bail!("--against {}: no such directory", dir.display());
        }
        against.extend(sources(
            std::slice::from_ref(dir),
            false,
            args.max_size.bytes(),
        )?);
    }
    let mut base = Vec::new();
    for file in &args.base {
        let text = std::fs::read(file)
            .with_context(|| format!("--base {}: cannot read it", file.display()))?;
        base.push(Source {
            name: file.display().to_string(),
            files: vec![(
                file.display().to_string(),
                String::from_utf8_lossy(&text).into_owned(),
            )],
        });
    }
    let options = Options {
        winnowing: Winnowing {
            k: args.k as usize,
            w: args.w as usize,
        },
        max_share: args.max_share,
        reference: false,
        ..Options::default()
    };
    let pairs = compare(&submissions, &against, &base, &options).pairs;
    if let Some(path) = &args.html {
        let all: Vec<&Source> = submissions.iter().chain(&against).collect();
        std::fs::write(path, crib_similar::html::page(&pairs, &all, args.threshold))
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("crib: {} pairs in {}", pairs.len(), path.display());
    }
    let shown = if args.top == 0 {
        pairs.len()
    } else {
        args.top.min(pairs.len())
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        for p in &pairs[..shown] {
            serde_json::to_writer(&mut out, p)?;
            writeln!(out)?;
        }
    } else if args.csv {
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record(["a", "b", "similarity", "share_a", "share_b", "fragments"])?;
        for p in &pairs[..shown] {
            csv.write_record([
                p.a.clone(),
                p.b.clone(),
                format!("{:.4}", p.similarity),
                format!("{:.4}", p.share_a),
                format!("{:.4}", p.share_b),
                fragments_text(p),
            ])?;
        }
        csv.flush()?;
    } else {
        writeln!(
            out,
            "similarity  share_a  share_b  a  b  fragments, the longest three (a lines = b lines; --json has all)"
        )?;
        for p in &pairs[..shown] {
            writeln!(
                out,
                "{:>10.3}  {:>6.0}%  {:>6.0}%  {}  {}  {}",
                p.similarity,
                100.0 * p.share_a,
                100.0 * p.share_b,
                p.a,
                p.b,
                fragments_brief(p)
            )?;
        }
        writeln!(
            out,
            "{} submissions, {} known sources: {} pairs share code; similarity is evidence for a person to review, never a verdict",
            submissions.len(),
            against.len(),
            pairs.len()
        )?;
    }
    Ok(())
}

/// One fragment as `a_file:s-e=b_file:s-e`.
fn fragment_text(f: &crib_similar::Fragment) -> String {
    format!(
        "{}:{}-{}={}:{}-{}",
        f.a_file, f.a_lines[0], f.a_lines[1], f.b_file, f.b_lines[0], f.b_lines[1]
    )
}

/// The three longest fragments, and how many more there are.
fn fragments_brief(p: &Pair) -> String {
    let mut longest: Vec<&crib_similar::Fragment> = p.fragments.iter().collect();
    longest.sort_by_key(|f| std::cmp::Reverse(f.a_lines[1] - f.a_lines[0]));
    let mut text: Vec<String> = longest.iter().take(3).map(|f| fragment_text(f)).collect();
    if p.fragments.len() > 3 {
        text.push(format!("(+{} more)", p.fragments.len() - 3));
    }
    text.join(" ")
}

/// Every fragment, separated by spaces (the CSV's `fragments`).
fn fragments_text(p: &Pair) -> String {
    p.fragments
        .iter()
        .map(fragment_text)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The submissions under `paths` (crib grade's rules), each with the text of the Prolog
/// files the grader would stage: the same files, the same size limit (`max_bytes`), no
/// link followed. A
/// submission that cannot be staged (too big, unreadable) is left out, saying why on stderr.
fn sources(paths: &[PathBuf], single: bool, max_bytes: u64) -> Result<Vec<Source>> {
    let found = crib_grade::discover(paths, single)?;
    let staging = tempfile::tempdir().context("cannot make a temporary directory")?;
    let mut sources = Vec::new();
    for (i, sub) in found.into_iter().enumerate() {
        let copy = staging.path().join(i.to_string());
        std::fs::create_dir(&copy).with_context(|| format!("cannot create {}", copy.display()))?;
        let staged = match sub.stage(&copy, max_bytes) {
            Ok(staged) => staged,
            Err(why) => {
                eprintln!("crib: {}: left out: {why}", sub.name);
                continue;
            }
        };
        let files = staged
            .prolog_files()
            .map(|f| Ok((f.to_string(), read_lossy(&copy.join(f))?)))
            .collect::<Result<Vec<_>>>()?;
        std::fs::remove_dir_all(&copy)
            .with_context(|| format!("cannot remove {}", copy.display()))?;
        sources.push(Source {
            name: sub.name,
            files,
        });
    }
    Ok(sources)
}

fn read_lossy(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
