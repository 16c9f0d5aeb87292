//! Records the commit crib-grade is built from, for every result's `produced_by`: the
//! environment's `CRIB_COMMIT` when set (a release build from an archive), else git's HEAD
//! (12 hex digits, `-dirty` when tracked files differ from it), else `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=CRIB_COMMIT");
    let commit = match std::env::var("CRIB_COMMIT") {
        Ok(commit) if !commit.is_empty() => commit,
        _ => {
            if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
                // A new commit moves HEAD or the branch it names; the index changes with
                // what is staged.
                for file in ["HEAD", "index", "packed-refs"] {
                    println!("cargo:rerun-if-changed={dir}/{file}");
                }
                if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    println!("cargo:rerun-if-changed={dir}/{branch}");
                }
            }
            match git(&["rev-parse", "--short=12", "HEAD"]) {
                Some(head) => {
                    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                        .is_some_and(|s| !s.is_empty());
                    if dirty {
                        format!("{head}-dirty")
                    } else {
                        head
                    }
                }
                None => "unknown".to_string(),
            }
        }
    };
    println!("cargo:rustc-env=CRIB_COMMIT={commit}");
}
