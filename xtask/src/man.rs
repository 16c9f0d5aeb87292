//! `cargo xtask man [DIR]`: the man pages and shell completions of `crib`, generated from its
//! clap definitions (`crib_cli::command`), so they cannot drift from `crib --help`.

use std::path::Path;

use anyhow::{Context, Result};
use clap_complete::Shell;

/// Writes `DIR/man1/crib.1` and one page per subcommand (`crib-score.1`, ...), and
/// `DIR/completions/` for bash, zsh, fish, elvish and PowerShell.
///
/// # Errors
/// A directory or file cannot be written.
pub fn run(dir: &Path) -> Result<()> {
    let command = crib_cli::command();
    let man = dir.join("man1");
    std::fs::create_dir_all(&man).with_context(|| format!("cannot create {}", man.display()))?;
    clap_mangen::generate_to(command.clone(), &man)
        .with_context(|| format!("cannot write the man pages in {}", man.display()))?;
    let completions = dir.join("completions");
    std::fs::create_dir_all(&completions)
        .with_context(|| format!("cannot create {}", completions.display()))?;
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let mut command = command.clone();
        clap_complete::generate_to(shell, &mut command, "crib", &completions)
            .with_context(|| format!("cannot write the {shell} completions"))?;
    }
    eprintln!(
        "xtask: wrote {} (man pages) and {} (completions)",
        man.display(),
        completions.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_pages_and_completions_with_the_batch_options() {
        let dir = std::env::temp_dir().join(format!("xtask-man-{}", std::process::id()));
        run(&dir).unwrap();
        let page = std::fs::read_to_string(dir.join("man1/crib-score.1")).unwrap();
        assert!(page.contains("keep\\-going"), "{page}");
        let bash = std::fs::read_to_string(dir.join("completions/crib.bash")).unwrap();
        assert!(bash.contains("--keep-going") && bash.contains("select"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
