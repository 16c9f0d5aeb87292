//! `crib lint`: findings on Prolog submissions for the markers of code quality.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use crib_grade::WorkerPool;
use crib_isolation::IsolationChoice;
use crib_lint::{JailedLinter, LintConfig, Linter};
use crib_results::Lint;
use crib_submission::{discover, Submission};
use indicatif::{ProgressBar, ProgressStyle};

const AFTER_HELP: &str = "\
Each finding names a rule (crib lint --rules lists them, crib lint --explain CODE says why it
exists, with an example), the file, the line, the predicate and what is wrong. Findings are
evidence for the marker who gives the code-quality marks; crib never gives that mark.

SWI-Prolog itself reads the files (its reader with positions, library(prolog_xref) and the
compiler's warnings while loading), in a sandboxed child with the grader's isolation: loading
runs the submission's directives.

Examples:
  crib lint submissions/
  crib lint --json alice.pl > alice.json
  crib lint --ignore D102,L401 --max-line 100 submissions/
  crib lint --explain W201

Exit codes: 0 linted (whatever the findings); 2 bad input or usage.";

/// Arguments of `crib lint`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct LintArgs {
    /// Submissions: .pl files, or directories of them (the same rules as crib grade).
    #[arg(value_name = "PATH", required_unless_present_any = ["explain", "rules"])]
    paths: Vec<PathBuf>,
    /// Treat each directory given as one submission.
    #[arg(long)]
    single: bool,
    #[command(flatten)]
    max_size: crate::max_size::MaxSize,
    /// One JSON object per submission per line: name, findings, summary.
    #[arg(long)]
    json: bool,
    /// Say why rule CODE exists, with code that triggers it and code that does not.
    #[arg(long, value_name = "CODE")]
    explain: Option<String>,
    /// List every rule.
    #[arg(long)]
    rules: bool,
    /// Rules not to report, separated by commas (e.g. D102,L401).
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    ignore: Vec<String>,
    /// L401: the longest line allowed, in characters.
    #[arg(long, default_value_t = 80, value_name = "N", value_parser = at_least_one::<usize>)]
    max_line: usize,
    /// L403: the most lines a clause may span.
    #[arg(long, default_value_t = 25, value_name = "N", value_parser = at_least_one::<u32>)]
    max_clause_lines: u32,
    /// L404: the most lines a predicate's clauses may span in all.
    #[arg(long, default_value_t = 60, value_name = "N", value_parser = at_least_one::<u32>)]
    max_predicate_lines: u32,
    /// L405: the deepest nesting of if-then-else and disjunction allowed.
    #[arg(long, default_value_t = 3, value_name = "N")]
    max_depth: u32,
    /// Submissions linted at once (default: one per core).
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,
    /// How children are isolated (as crib grade).
    #[arg(long, value_enum, default_value = "auto")]
    isolation: IsolationChoice,
    /// The SWI-Prolog executable.
    #[arg(long, default_value = "swipl", value_name = "PATH")]
    swipl: PathBuf,
}

/// Runs `crib lint`.
pub fn run(args: &LintArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if args.rules {
        for rule in crib_lint::RULES {
            writeln!(out, "{}  {:<18} {}", rule.code, rule.family(), rule.title)?;
        }
        return Ok(());
    }
    if let Some(code) = &args.explain {
        let Some(rule) = crib_lint::rule(code) else {
            bail!("no rule {code:?} (crib lint --rules lists them)");
        };
        write!(out, "{}", crib_lint::explain(rule))?;
        return Ok(());
    }
    let mut config = LintConfig {
        max_line: args.max_line,
        max_clause_lines: args.max_clause_lines,
        max_predicate_lines: args.max_predicate_lines,
        max_depth: args.max_depth,
        ..LintConfig::default()
    };
    for code in &args.ignore {
        let Some(rule) = crib_lint::rule(code.trim()) else {
            bail!("--ignore: no rule {code:?} (crib lint --rules lists them)");
        };
        config.ignore.insert(rule.code.to_string());
    }
    let submissions = discover(&args.paths, args.single)?;
    if submissions.is_empty() {
        bail!("no submission found (a .pl file, or a directory of them)");
    }
    let linter = Linter::default().with_config(config);
    let mut linter = JailedLinter::new(&args.swipl, args.isolation, linter)?;
    if let Ok(exe) = std::env::current_exe() {
        if let Err(e) = linter.confine_with(&exe) {
            eprintln!("crib: warning: {e}");
        }
    }
    let lints = lint_all(&linter, &submissions, args.jobs, args.max_size.bytes());
    for lint in &lints {
        if args.json {
            crate::print_json(lint)?;
        } else {
            write_text(&mut out, lint)?;
        }
    }
    Ok(())
}

/// Lints `submissions` on `jobs` workers, each staged in the linter's jail
/// ([`JailedLinter::lint`]); returns the lints in the order given.
fn lint_all(
    linter: &JailedLinter,
    submissions: &[Submission],
    jobs: Option<usize>,
    max_bytes: u64,
) -> Vec<Lint> {
    let pool = jobs.map_or_else(WorkerPool::per_core, WorkerPool::new);
    let bar = if submissions.len() > 1 {
        let bar = ProgressBar::new(submissions.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} linted {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let lints = pool.run_each(
        submissions,
        |worker, sub| linter.lint(worker, sub, max_bytes),
        |i, _| {
            bar.set_message(submissions[i].name.clone());
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    submissions
        .iter()
        .zip(lints)
        .map(|(sub, lint)| {
            // A worker that panicked: the submission is not checked, and says why.
            lint.unwrap_or_else(|panic| {
                let why = crib_results::Finding::not_checked(String::new(), &panic.to_string());
                Lint::new(sub.name.clone(), vec![why])
            })
        })
        .collect()
}

/// Writes one submission's findings, one a line after its name, then its summary.
fn write_text(out: &mut impl Write, lint: &Lint) -> std::io::Result<()> {
    for f in &lint.findings {
        writeln!(out, "{}: {f}", lint.name)?;
    }
    writeln!(out, "{}: {}", lint.name, lint.summary.line())
}

/// A size limit: a whole number of at least 1 (a limit of 0 would flag every line).
fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        _ => Err(format!("{text:?} is not a whole number of at least 1")),
    }
}
