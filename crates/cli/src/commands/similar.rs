//! `crib similar`: pairs of submissions (and known sources) that share code, ranked.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use crib_similar::{compare, Options, Pair, Source, Winnowing};
use crib_submission::Submission;

const AFTER_HELP: &str = "\
Similarity is evidence for a person to review, never a verdict: code matches because it was
given, is the obvious way to write it, or was written together with permission. No mark
changes because of it.

Each file is read as SWI-Prolog reads it; layout, comments, variable names and the names of
the submission's own predicates (where they are defined or called, never in data) do not
count, and the order of predicates matters little. Fingerprints are winnowed k-grams (MOSS's
algorithm) that never cross a clause's end. A fingerprint in more than max(10, --max-share x
the number of submissions, rounded up) submissions is common, what everyone writes, and is left out of
matches and sizes alike; but when the submissions holding such code are mostly made of it
and are at most half the class, they are copies of one source: their code is kept and they
are named on stderr. Code of an --against source is never common. Similarity is
2|A and B| / (|A| + |B|) over the two submissions' fingerprints, given and common code left
out.

crib's own reference (prolog/cribbage.pl, public) is always a known source unless
--no-reference: a pair with it is marked, and submissions matching it at a similarity of
0.5 or above are named (on stdout after the text, on stderr with --json and --csv).

Each pair has two shares: share_a is how much of a (its fingerprints) is found in b,
share_b how much of b is found in a. Copying is often one-sided: a third of one solution
taken into a file of one's own is a third of the source found in the copy, with a similarity
well below that. So a pair is reported when EITHER share is at or above --threshold (0.33,
about a third: on the disguise corpus, independent solutions have both shares at most 0.30
and every partial copy of a third or more at least 0.40), and pairs are ranked by the larger
share, then the similarity: the pairs a marker must read first are on top. Every output
(text, --json, --csv, --html) has both shares and every reported pair, unless --top N keeps
fewer; stderr says how many pairs were left out, what the class-common cut removed, and names
every file that gave no Prolog.

Submissions are named as crib grade names them: a file by its name without .pl, a directory
by its name. Fragments are `name:lines` for a one-file submission, `name/file:lines`
otherwise.

Examples:
  crib similar submissions/
  crib similar --against last-year/ --against published/ --base given.pl submissions/
  crib similar --json --threshold 0 submissions/ > pairs.jsonl     # every pair sharing code
  crib similar --html similar.html --threshold 0.5 submissions/     # half of either file

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
    /// and never with each other; their code is never cut as common. May be given more than
    /// once.
    #[arg(long, value_name = "DIR")]
    against: Vec<PathBuf>,
    /// Do not compare submissions with crib's own reference (prolog/cribbage.pl).
    #[arg(long)]
    no_reference: bool,
    /// Code every student was given: never counts as shared. May be given more than once.
    #[arg(long, value_name = "FILE")]
    base: Vec<PathBuf>,
    /// JSON Lines: one pair per line (a, b, similarity, share_a, share_b, known, reference,
    /// fragments).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV: one pair per row, fragments as `a:s-e=b:s-e` separated by spaces.
    #[arg(long)]
    csv: bool,
    /// Also write a self-contained page: the pairs with both shares, the distribution of their
    /// larger share and, for each reported pair (--threshold), both files side by side with
    /// the matches in matching colours.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Blind marking: name every submission by its pseudonym under the key
    /// --anonymous-key (the same as crib report --anonymous gives it) and replace its name
    /// wherever it appears in its files and file names, in every output.
    #[arg(long, requires = "anonymous_key")]
    anonymous: bool,
    /// The staff's secret key for --anonymous, created owner-only (0600) on first use; give
    /// the key crib report uses (RESULTS_DIR/anonymous.key) for the same pseudonyms.
    #[arg(long, value_name = "FILE", requires = "anonymous")]
    anonymous_key: Option<PathBuf>,
    /// Report a pair when either share (how much of one file is found in the other) is at
    /// least X: printed, and shown side by side in --html. The default 0.33 catches a third
    /// of a solution copied into one's own; 0 prints every pair that shares code.
    #[arg(long, default_value_t = crib_similar::html::DEFAULT_THRESHOLD, value_name = "X", value_parser = share_arg)]
    threshold: f64,
    /// Print at most the first N reported pairs, the larger share first (default: all).
    #[arg(long, value_name = "N")]
    top: Option<usize>,
    /// A fingerprint in more than max(10, X x submissions, rounded up) submissions is
    /// common code, left out of matches and sizes.
    #[arg(long, default_value_t = 0.1, value_name = "X", value_parser = share_arg)]
    max_share: f64,
    /// Tokens in a k-gram (the shortest match that counts).
    #[arg(short, default_value_t = 12, value_name = "K", value_parser = clap::value_parser!(u32).range(2..=100))]
    k: u32,
    /// k-grams in a winnowing window (a match of k + w - 1 tokens is always found).
    #[arg(short, default_value_t = 5, value_name = "W", value_parser = clap::value_parser!(u32).range(1..=100))]
    w: u32,
}

/// Parses a share or score argument: a number from 0 to 1.
fn share_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0 to 1, got {text:?}")),
    }
}

/// Runs `crib similar`.
pub fn run(args: &SimilarArgs) -> Result<()> {
    let key = match (args.anonymous, &args.anonymous_key) {
        (true, Some(path)) => {
            let (key, created) = crib_report::Key::read_or_create(path)?;
            if created {
                eprintln!(
                    "crib: created the blind-marking key {} (owner-only; keep it from the markers)",
                    path.display()
                );
            }
            Some(key)
        }
        _ => None,
    };
    let found = crib_submission::discover(&args.paths, args.single)?;
    let submissions = staged_sources(&found, args.max_size.bytes(), key.as_ref())?;
    if submissions.is_empty() {
        bail!("no submission found (a .pl file, or a directory of them)");
    }
    let mut against = Vec::new();
    for dir in &args.against {
        if !dir.exists() {
            bail!("--against {}: no such directory", dir.display());
        }
        let found = crib_submission::discover(std::slice::from_ref(dir), false)?;
        against.extend(staged_sources(&found, args.max_size.bytes(), None)?);
    }
    let mut base = Vec::new();
    for file in &args.base {
        let text = std::fs::read(file)
            .with_context(|| format!("--base {}: cannot read it", file.display()))?;
        let name = file.display().to_string();
        let files = vec![(name.clone(), String::from_utf8_lossy(&text).into_owned())];
        base.push(Source { name, files });
    }
    let options = Options {
        winnowing: Winnowing {
            k: args.k as usize,
            w: args.w as usize,
        },
        max_share: args.max_share,
        reference: !args.no_reference,
    };
    let found = compare(&submissions, &against, &base, &options);
    let reference = crib_similar::reference();
    let mut all: Vec<&Source> = submissions.iter().chain(&against).collect();
    if options.reference {
        all.push(&reference);
    }
    for u in &found.unread {
        eprintln!("crib: {}: {}: {}", u.source, u.file, u.problem);
    }
    say_common(&found.common, submissions.len());
    let pairs = &found.pairs;
    if let Some(path) = &args.html {
        std::fs::write(path, crib_similar::html::page(pairs, &all, args.threshold))
            .with_context(|| format!("cannot write {}", path.display()))?;
        let over = pairs.iter().filter(|p| p.reported(args.threshold)).count();
        eprintln!(
            "crib: {} pairs in {}, {} of them side by side{}",
            pairs.len(),
            path.display(),
            over.min(crib_similar::html::MAX_SHOWN),
            if over > crib_similar::html::MAX_SHOWN {
                format!(
                    " ({over} with a share at or above {:.2}; the page shows the first {})",
                    args.threshold,
                    crib_similar::html::MAX_SHOWN
                )
            } else {
                String::new()
            }
        );
    }
    // Ranked by the larger share, so the reported pairs come first.
    let over = pairs
        .iter()
        .take_while(|p| p.reported(args.threshold))
        .count();
    let shown = args.top.map_or(over, |n| n.min(over));
    if over < pairs.len() {
        eprintln!(
            "crib: {} of {} pairs sharing code have both shares below --threshold {:.2} and are not printed (--threshold 0 prints them)",
            pairs.len() - over,
            pairs.len(),
            args.threshold
        );
    }
    if shown < over {
        eprintln!(
            "crib: --top {shown} left out {} more pairs with a share at or above --threshold {:.2}",
            over - shown,
            args.threshold
        );
    }
    // Matching the reference is said at its own similarity threshold, whatever is printed.
    let matching: Vec<&str> = pairs
        .iter()
        .filter(|p| p.reference && p.similarity >= crib_similar::html::REFERENCE_THRESHOLD)
        .map(|p| p.a.as_str())
        .collect();
    let names: Names = all
        .iter()
        .map(|s| (s.name.as_str(), s.files.len()))
        .collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        for p in &pairs[..shown] {
            crate::print_json(p)?;
        }
    } else if args.csv {
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record([
            "a",
            "b",
            "similarity",
            "share_a",
            "share_b",
            "known",
            "reference",
            "fragments",
        ])?;
        for p in &pairs[..shown] {
            csv.write_record([
                p.a.clone(),
                p.b.clone(),
                format!("{:.4}", p.similarity),
                format!("{:.4}", p.share_a),
                format!("{:.4}", p.share_b),
                p.known.to_string(),
                p.reference.to_string(),
                fragments_text(p, &names, false),
            ])?;
        }
        csv.flush()?;
    } else {
        writeln!(
            out,
            "share_a  share_b  similarity  a  b  fragments, the longest three (a lines = b lines; --json has all)"
        )?;
        for p in &pairs[..shown] {
            writeln!(
                out,
                "{:>6.0}%  {:>6.0}%  {:>10.3}  {}  {}{}  {}",
                100.0 * p.share_a,
                100.0 * p.share_b,
                p.similarity,
                p.a,
                p.b,
                if p.reference {
                    " (crib's reference)"
                } else if p.known {
                    " (known source)"
                } else {
                    ""
                },
                fragments_text(p, &names, true)
            )?;
        }
        writeln!(
            out,
            "{} submissions, {} known sources{}: {} pairs share code, {} with either share at or above {:.2}; similarity is evidence for a person to review, never a verdict",
            submissions.len(),
            against.len(),
            if options.reference { " and crib's reference" } else { "" },
            pairs.len(),
            over,
            args.threshold
        )?;
    }
    if !matching.is_empty() {
        // On stderr for --json and --csv, whose stdout is data.
        let note = format!(
            "{} submission{} match{} crib's own reference (prolog/cribbage.pl) at or above {:.2}: {}; evidence to review, never a mark",
            matching.len(),
            if matching.len() == 1 { "" } else { "s" },
            if matching.len() == 1 { "es" } else { "" },
            crib_similar::html::REFERENCE_THRESHOLD,
            matching.join(", ")
        );
        if args.json || args.csv {
            eprintln!("crib: {note}");
        } else {
            writeln!(std::io::stdout().lock(), "{note}")?;
        }
    }
    Ok(())
}

/// Says on stderr what the class-common cut removed and what it did not.
fn say_common(common: &crib_similar::Common, class: usize) {
    if common.cut == 0 && !common.mostly_common {
        return;
    }
    if common.cut > 0 {
        eprintln!(
            "crib: {} fingerprints in more than {} of the {class} submissions left out as common code (--max-share); a source that many copied is such code: give it with --against to compare each submission with it",
            common.cut, common.limit
        );
    }
    if !common.copied.is_empty() {
        eprintln!(
            "crib: {} submissions are mostly code found in more than {} submissions, copies of one source it seems; their code is kept and compared: {}",
            common.copied.len(),
            common.limit,
            common.copied.join(", ")
        );
    }
    if common.mostly_common {
        eprintln!(
            "crib: more than half the submissions are mostly common code: code given to everyone (pass it with --base) or one source copied by most (pass it with --against)"
        );
    }
}

/// How many files each source has, by name, to name a fragment's place.
type Names<'a> = std::collections::HashMap<&'a str, usize>;

/// One fragment as `a:s-e=b:s-e`, each place `name:s-e` for a one-file source and
/// `name/file:s-e` otherwise.
fn fragment_text(p: &Pair, f: &crib_similar::Fragment, names: &Names) -> String {
    let place = |name: &str, file: &str, lines: [u32; 2]| match names.get(name) {
        Some(1) => format!("{name}:{}-{}", lines[0], lines[1]),
        _ => format!("{name}/{file}:{}-{}", lines[0], lines[1]),
    };
    format!(
        "{}={}",
        place(&p.a, &f.a_file, f.a_lines),
        place(&p.b, &f.b_file, f.b_lines)
    )
}

/// The fragments, separated by spaces: every one (the CSV's `fragments`), or when `brief`
/// the three longest and how many more there are.
fn fragments_text(p: &Pair, names: &Names, brief: bool) -> String {
    let mut shown: Vec<&crib_similar::Fragment> = p.fragments.iter().collect();
    if brief {
        shown.sort_by_key(|f| std::cmp::Reverse(f.a_lines[1] - f.a_lines[0]));
        shown.truncate(3);
    }
    let mut text: Vec<String> = shown.iter().map(|f| fragment_text(p, f, names)).collect();
    if shown.len() < p.fragments.len() {
        text.push(format!("(+{} more)", p.fragments.len() - shown.len()));
    }
    text.join(" ")
}

/// Returns the Prolog files of each submission as the grader stages them (the same files,
/// the same size limit `max_bytes`, no link followed). A submission that cannot be staged
/// (too big, unreadable) is left out, and said so on stderr. Under `key` (--anonymous), each
/// is named by its pseudonym, its name replaced in its files, their names and why it was
/// left out.
fn staged_sources(
    found: &[Submission],
    max_bytes: u64,
    key: Option<&crib_report::Key>,
) -> Result<Vec<Source>> {
    let staging = tempfile::tempdir().context("cannot make a temporary directory")?;
    let mut sources = Vec::new();
    for (i, sub) in found.iter().enumerate() {
        let (name, scrubber) = match key {
            Some(key) => {
                let pseudonym = key.pseudonym(&sub.name);
                let scrubber = crib_report::Scrubber::new([sub.name.as_str()], &pseudonym);
                (pseudonym, scrubber)
            }
            None => (sub.name.clone(), crib_report::Scrubber::new([], "")),
        };
        let copy = staging.path().join(i.to_string());
        std::fs::create_dir(&copy).with_context(|| format!("cannot create {}", copy.display()))?;
        let staged = match sub.stage(&copy, max_bytes) {
            Ok(staged) => staged,
            Err(why) => {
                eprintln!(
                    "crib: {name}: left out: {}",
                    scrubber.text(&why.to_string())
                );
                continue;
            }
        };
        let files = staged
            .prolog_files()
            .map(|f| {
                let path = copy.join(f);
                let bytes = std::fs::read(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let text = scrubber.text(&String::from_utf8_lossy(&bytes));
                Ok((scrubber.text(f), text))
            })
            .collect::<Result<Vec<_>>>()?;
        std::fs::remove_dir_all(&copy)
            .with_context(|| format!("cannot remove {}", copy.display()))?;
        sources.push(Source { name, files });
    }
    Ok(sources)
}

/// Returns the submissions among `found` whose code matches crib's own published reference
/// (prolog/cribbage.pl) at a similarity of [`crib_similar::html::REFERENCE_THRESHOLD`] or
/// above, with their similarity, most similar first: evidence for a person to review, never
/// a mark.
///
/// # Errors
/// When a temporary directory for staging cannot be made or used.
pub(crate) fn reference_matches(
    found: &[Submission],
    max_bytes: u64,
) -> Result<Vec<(String, f64)>> {
    let sources = staged_sources(found, max_bytes, None)?;
    let compared = compare(&sources, &[], &[], &Options::default());
    let mut matches: Vec<(String, f64)> = compared
        .pairs
        .into_iter()
        .filter(|p| p.reference && p.similarity >= crib_similar::html::REFERENCE_THRESHOLD)
        .map(|p| (p.a, p.similarity))
        .collect();
    matches.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(matches)
}
