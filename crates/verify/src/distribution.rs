//! spec/distribution.tsv: how many of the 12,994,800 shows score each number of points.

use std::path::Path;

use anyhow::{Context, Result};

/// Reads the table (format: [`crib_core::ScoreCounts::parse`]).
pub fn read(path: &Path) -> Result<[u64; 30]> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let counts =
        crib_core::ScoreCounts::parse(&text).with_context(|| path.display().to_string())?;
    Ok(counts.0)
}
