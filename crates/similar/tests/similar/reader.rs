//! The tokenizer splits every Prolog file of the project into the clauses SWI-Prolog's
//! reader reads, each starting on the same line with the same variables in the same order
//! (one `swipl` process reads them all with tests/clauses.pl; reading runs no code), and
//! crib's term reader reads each of those clauses as a term.

use std::path::{Path, PathBuf};

use crib_similar::token::{clauses, tokenize, Kind, Token};

use crate::common::root;

fn prolog_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            prolog_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "pl") {
            out.push(p);
        }
    }
}

#[test]
fn clauses_start_lines_and_variables_agree_with_swi_prolog() {
    let root = root();
    let mut files = Vec::new();
    for dir in [
        "prolog",
        "crates/grade/tests/mistakes",
        "crates/grade/tests/submissions",
        "crates/grade/tests/baselines",
        "crates/similar/tests/independent",
        "crates/lint/tests/style",
    ] {
        prolog_files(&root.join(dir), &mut files);
    }
    files.sort();
    // Files the reader cannot read to their end (a syntax error, an unterminated quote) are
    // compared only up to it; binary garbage not at all.
    files.retain(|f| std::fs::read_to_string(f).is_ok());
    assert!(files.len() > 80, "{}", files.len());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clauses.pl");
    let out = std::process::Command::new("swipl")
        .args(["--no-tty", "-q"])
        .arg(&script)
        .arg("--")
        .args(&files)
        .output()
        .expect("this test needs swipl");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut wrong = Vec::new();
    let mut compared = 0;
    for file in &files {
        let name = file.display().to_string();
        let swi: Vec<(u32, Vec<String>)> = stdout
            .lines()
            .filter_map(|l| {
                let mut f = l.split('\t');
                (f.next()? == name).then(|| {
                    let line = f.next()?.parse().ok()?;
                    let vars = f
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .filter(|v| !v.is_empty())
                        .map(String::from)
                        .collect();
                    Some((line, vars))
                })?
            })
            .collect();
        let text = std::fs::read_to_string(file).unwrap();
        let read: Vec<Vec<Token>> = clauses(tokenize(&text))
            .into_iter()
            .filter(|c| !c.is_empty())
            .collect();
        let ours: Vec<(u32, Vec<String>)> = read
            .iter()
            .map(|c| {
                let mut vars: Vec<String> = Vec::new();
                for t in c {
                    if t.kind == Kind::Var && t.text != "_" && !vars.contains(&t.text) {
                        vars.push(t.text.clone());
                    }
                }
                (c[0].line, vars)
            })
            .collect();
        // The reader stops at a syntax error: compare what it read.
        let n = swi.len().min(ours.len());
        if swi.len() > ours.len() || swi[..n] != ours[..n] {
            let at = (0..n).find(|&i| swi[i] != ours[i]).unwrap_or(n);
            wrong.push(format!(
                "{name}: clause {at}: swipl {:?}, ours {:?}",
                swi.get(at),
                ours.get(at)
            ));
        }
        // Every clause SWI-Prolog reads, crib's term reader reads too (to tell calls from
        // data).
        for c in &read[..n] {
            if crib_similar::term::read(c).is_none() {
                wrong.push(format!("{name}:{}: not read as a term", c[0].line));
            }
        }
        compared += n;
    }
    assert!(compared > 1000, "only {compared} clauses compared");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
