//! `cargo xtask man [DIR]`: the man pages and shell completions of `crib`, written by
//! crib-cli's `man` example from its clap definitions, so they cannot drift from `crib --help`.
//! (xtask does not link crib-cli: its own build stays small, see ARCHITECTURE.md.)

use std::path::Path;

use anyhow::Result;

/// Writes `DIR/man1/crib.1` and one page per subcommand (`crib-score.1`, ...), and
/// `DIR/completions/` for bash, zsh, fish, elvish and PowerShell.
///
/// # Errors
/// The example does not build or cannot write the files.
pub fn run(dir: &Path) -> Result<()> {
    let mut cmd = crate::cargo_run("crib-cli", &["--example", "man"]);
    cmd.arg(dir);
    crate::run_or(
        &mut cmd,
        "the man pages and completions were not written".into(),
    )
}
