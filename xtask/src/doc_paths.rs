//! The paths the codemaps name exist: every backticked path in ARCHITECTURE.md,
//! docs/DESIGN.md and each crate's README, whole (`crates/grade/src/batch.rs`,
//! `prolog/answer_child.pl`) or relative to the crate (`src/lane.rs`, in crates/child/README.md
//! or under a `crates/child` entry of ARCHITECTURE.md). Only tokens that are plainly paths are
//! checked: no spaces, globs, placeholders or `..`.

use std::path::{Path, PathBuf};

/// Top-level directories a whole path starts with.
const ROOTS: &[&str] = &[
    "crates/",
    "lab/",
    "prolog/",
    "xtask/",
    "spec/",
    "fixtures/",
    "gradescope/",
    "docs/",
];

/// Directories a path relative to a crate starts with.
const IN_CRATE: &[&str] = &["src/", "tests/", "examples/", "benches/"];

/// Returns the backticked tokens of `line`.
fn backticked(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

/// Returns the path `token` names, if it is plainly one: whole, or relative to `base`.
fn path_of(token: &str, base: Option<&Path>) -> Option<PathBuf> {
    if token.is_empty()
        || token
            .chars()
            .any(|c| c.is_whitespace() || "*<>{}$|:()[],".contains(c))
        || token.contains("..")
        || token.contains("::")
    {
        return None;
    }
    if ROOTS.iter().any(|r| token.starts_with(r)) {
        return Some(PathBuf::from(token));
    }
    match base {
        Some(base) if IN_CRATE.iter().any(|d| token.starts_with(d)) => Some(base.join(token)),
        _ => None,
    }
}

/// Returns every path `text` names that does not exist under `root`, with its line number.
/// `base` is the crate a relative path is in; in ARCHITECTURE.md (`base` `None`) it is the
/// crate of the entry the line belongs to, an entry starting "- `crates/NAME`".
fn missing(root: &Path, text: &str, base: Option<&Path>) -> Vec<String> {
    let mut entry: Option<PathBuf> = None;
    let mut missing = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if base.is_none() && line.starts_with("- ") {
            entry = backticked(line)
                .next()
                .filter(|t| t.starts_with("crates/") && !t.contains('.'))
                .map(PathBuf::from);
        }
        let base = base.map(Path::to_path_buf).or_else(|| entry.clone());
        for token in backticked(line) {
            if let Some(path) = path_of(token, base.as_deref()) {
                if !root.join(&path).exists() {
                    missing.push(format!("{}: `{token}` ({})", i + 1, path.display()));
                }
            }
        }
    }
    missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_the_codemaps_name_exists() {
        let root = crate::project_root();
        let mut problems = Vec::new();
        for doc in ["ARCHITECTURE.md", "docs/DESIGN.md"] {
            let text = std::fs::read_to_string(root.join(doc)).unwrap();
            for m in missing(&root, &text, None) {
                problems.push(format!("{doc}:{m}"));
            }
        }
        for dir in crate::sorted_entries(&root.join("crates")).unwrap() {
            let readme = dir.join("README.md");
            let Ok(text) = std::fs::read_to_string(&readme) else {
                continue;
            };
            let base = dir.strip_prefix(&root).unwrap();
            for m in missing(&root, &text, Some(base)) {
                problems.push(format!("{}:{m}", base.join("README.md").display()));
            }
        }
        assert!(
            problems.is_empty(),
            "paths named in the docs that do not exist:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn only_plain_paths_are_checked() {
        let base = Path::new("crates/x");
        assert_eq!(path_of("src/a.rs", Some(base)), Some(base.join("src/a.rs")));
        assert_eq!(path_of("src/a.rs", None), None);
        assert_eq!(path_of("prolog/a.pl", None), Some("prolog/a.pl".into()));
        for token in [
            "tests/*.pl",
            "tests/<lms>/",
            "crib grade",
            "../a.rs",
            "a.rs",
            "Lane::run",
        ] {
            assert_eq!(path_of(token, Some(base)), None, "{token}");
        }
    }
}
