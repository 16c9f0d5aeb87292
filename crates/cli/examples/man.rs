//! Writes `crib`'s man pages (DIR/man1) and shell completions (DIR/completions); DIR defaults
//! to `target/man`. `cargo xtask man [DIR]` runs this.

use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("target/man"), PathBuf::from);
    let (man, completions) = crib_cli::man::write_man_pages_and_completions(&dir)?;
    eprintln!(
        "wrote {} (man pages) and {} (completions)",
        man.display(),
        completions.display()
    );
    Ok(())
}
