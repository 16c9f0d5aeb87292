//! spec/distribution.tsv: how many of the 12,994,800 shows score each number of points.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// Reads the table: `#` comments, a `points<TAB>count` header, then one row per score. Scores
/// not listed occur zero times.
pub fn read(path: &Path) -> Result<[u64; 30]> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text).with_context(|| path.display().to_string())
}

fn parse(text: &str) -> Result<[u64; 30]> {
    let mut counts = [0u64; 30];
    let mut header = false;
    for (n, line) in text.lines().enumerate() {
        let at = || format!("line {}", n + 1);
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !header {
            if line != "points\tcount" {
                bail!(
                    "{}: expected the header \"points<TAB>count\", found {line:?}",
                    at()
                );
            }
            header = true;
            continue;
        }
        let (points, count) = line
            .split_once('\t')
            .with_context(|| format!("{}: expected points<TAB>count, found {line:?}", at()))?;
        let points: usize = points
            .parse()
            .ok()
            .filter(|&p| p < 30)
            .with_context(|| format!("{}: points {points:?} is not 0..=29", at()))?;
        counts[points] = count
            .parse()
            .with_context(|| format!("{}: count {count:?} is not a number", at()))?;
    }
    if !header {
        bail!("no \"points<TAB>count\" header");
    }
    Ok(counts)
}

#[cfg(test)]
mod tests;
