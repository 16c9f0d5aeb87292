//! `crib`'s man pages and shell completions, generated from its clap definitions
//! ([`crate::command`]), so that they cannot drift from `crib --help`. `cargo xtask man [DIR]`
//! writes them through `examples/man.rs`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap_complete::Shell::{Bash, Elvish, Fish, PowerShell, Zsh};

/// Writes `dir/man1/crib.1` and one page per subcommand (`crib-score.1`, ...), and
/// `dir/completions/` for bash, zsh, fish, elvish and PowerShell; returns the two directories.
///
/// # Errors
/// A directory or file cannot be written.
pub fn write_man_pages_and_completions(dir: &Path) -> Result<(PathBuf, PathBuf)> {
    let command = crate::command();
    let man = dir.join("man1");
    std::fs::create_dir_all(&man).with_context(|| format!("cannot create {}", man.display()))?;
    clap_mangen::generate_to(command.clone(), &man)
        .with_context(|| format!("cannot write the man pages in {}", man.display()))?;
    let completions = dir.join("completions");
    std::fs::create_dir_all(&completions)
        .with_context(|| format!("cannot create {}", completions.display()))?;
    for shell in [Bash, Zsh, Fish, Elvish, PowerShell] {
        let mut command = command.clone();
        clap_complete::generate_to(shell, &mut command, "crib", &completions)
            .with_context(|| format!("cannot write the {shell} completions"))?;
    }
    Ok((man, completions))
}

#[cfg(test)]
mod tests;
