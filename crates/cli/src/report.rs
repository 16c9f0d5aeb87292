//! `crib report`: the class report page and the marks CSV of a results directory.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

#[derive(Debug, Args)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct ReportArgs {
    /// The results directory `crib grade --out` wrote (one <name>.json per submission).
    #[arg(value_name = "RESULTS_DIR")]
    results: PathBuf,
    /// Write the class report, one self-contained HTML page, to FILE.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write the marks, one CSV row per submission, to FILE ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

const AFTER_LONG_HELP: &str = "\
With neither -o nor --csv, the page is written to report.html in the current directory.

Marks CSV columns: student, hand_value (/50), select_hand (/20), total (/70), problems
(`; `-separated, empty when none), test_set (the fingerprint); one row per submission, sorted
by student.

Exit codes: 0 written; 2 bad usage, an unreadable RESULTS_DIR or a file in it that is not a
result of crib grade.";

pub fn run(args: &ReportArgs) -> Result<()> {
    let started = Instant::now();
    let reports = crib_report::read_results(&args.results)?;
    let html = args
        .output
        .clone()
        .or_else(|| args.csv.is_none().then(|| PathBuf::from("report.html")));
    if let Some(path) = &html {
        if path.is_dir() {
            bail!("{} is a directory; -o takes a file name", path.display());
        }
        let class = crib_report::Class::new(&reports);
        let page = crib_report::html(&class, &reports);
        std::fs::write(path, &page).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!(
            "crib: class report of {} submissions in {} ({} KiB, {:.2} s)",
            reports.len(),
            path.display(),
            page.len().div_ceil(1024),
            started.elapsed().as_secs_f64()
        );
    }
    if let Some(path) = &args.csv {
        if path.as_os_str() == "-" {
            crib_report::marks_csv(&reports, std::io::stdout().lock())?;
        } else {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            crib_report::marks_csv(&reports, std::io::BufWriter::new(file))
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!(
                "crib: marks of {} submissions in {}",
                reports.len(),
                path.display()
            );
        }
    }
    Ok(())
}
