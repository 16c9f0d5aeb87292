//! `cargo xtask compat`: crib's marks under the SWI-Prolog of other Debian releases.
//!
//! The submissions corpus (`crates/grade/tests/submissions`, hostile files included) and a
//! sample of the catalog (`crates/grade/tests/mistakes`) are graded once on the host and once
//! in a Debian root of each suite (`debian_root`), by the same `crib` binary under one
//! fresh seed, in the same isolation (`--isolation rlimits`: a chroot has no namespaces;
//! seccomp and Landlock are in force in both), and every total, verdict and diagnosis is
//! compared. What may differ and is not compared: times, the text SWI-Prolog prints (its
//! messages change between versions), and the lint's messages (their rule codes are compared).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use crate::debian_root::{self, Mounted};
use crate::sorted_entries;

/// One suite's comparison with the host.
struct SuiteRow {
    suite: String,
    swipl: String,
    graded: usize,
    totals_equal: usize,
    /// Each difference, with the explanation that covers it, if one does.
    differences: Vec<(String, Option<&'static str>)>,
}

impl SuiteRow {
    fn unexplained(&self) -> usize {
        self.differences
            .iter()
            .filter(|(_, why)| why.is_none())
            .count()
    }
}

/// A difference between the host's result and a root's that is the submission's behaviour
/// under that SWI-Prolog, not crib's: it covers a difference when the submission's name
/// starts with one of `submissions`, the field is one of `fields` (any, when empty), and the
/// root's result contains `evidence`.
struct Explanation {
    submissions: &'static [&'static str],
    fields: &'static [&'static str],
    evidence: &'static str,
    why: &'static str,
}

/// Every explained difference. Marks are never among the fields of one that is not the
/// submission's own doing.
const EXPLAINED: &[Explanation] = &[
    Explanation {
        submissions: &["deep_recursion", "memory_hog"],
        fields: &["hand_value kinds", "hand_value counterexamples"],
        evidence: "",
        why: "a runaway recursion fails the item at whichever limit it reaches first, the \
              stacks (half of --memory) or the CPU time, and that depends on how fast the \
              SWI-Prolog grows its stacks and on the machine's load (the same binary gives \
              either on one host): the same items fail, the marks are equal",
    },
    Explanation {
        submissions: &["catalog-"],
        fields: &[],
        evidence: "Unknown procedure: clumped/2",
        why: "the submission calls clumped/2, which library(lists) has from SWI-Prolog 8.3 on: \
              under 8.2.4 each call raises an existence error, as it would for a student whose \
              grader runs 8.2.4 (crib lint's X302 names it there)",
    },
];

/// Returns the explanation of `field` of `name` differing, given the root's result.
fn explain(name: &str, field: &str, there: &Value) -> Option<&'static str> {
    let text = there.to_string();
    EXPLAINED
        .iter()
        .find(|e| {
            e.submissions.iter().any(|s| name.starts_with(s))
                && (e.fields.is_empty() || e.fields.contains(&field))
                && text.contains(e.evidence)
        })
        .map(|e| e.why)
}

/// Runs the comparison in each of `suites` with `crib` (it must run in each root; by default
/// the release's, `cargo xtask dist`'s) on the corpus and `catalog` files of the catalog;
/// prints and writes `target/compat/compat.md`. Returns whether every suite matched the host.
pub fn run(root: &Path, suites: &[String], crib: Option<&Path>, catalog: usize) -> Result<bool> {
    let crib = match crib {
        Some(path) => path
            .canonicalize()
            .with_context(|| format!("no crib binary at {}", path.display()))?,
        None => crate::dist::build_binary(root)?,
    };
    let work = root.join("target/compat/run");
    let subs = work.join("submissions");
    crate::fresh_dir(&work)?;
    std::fs::create_dir(&subs)?;
    let count = stage_submissions(root, &subs, catalog)?;
    let seed = work.join("seed");
    crate::dist::write_seed(&seed, "cargo xtask compat's seed for one run")?;
    eprintln!("xtask: compat: {count} submissions, graded on the host first");
    let host_swipl = debian_root::swipl_version(Command::new("swipl"))?;
    let host = grade(
        Command::new(&crib),
        &subs,
        &seed,
        &work.join("host-out"),
        &work.join("host.stderr"),
    )?;
    let mut rows = Vec::new();
    for suite in suites {
        let dir = debian_root::make(root, suite, suite, &["swi-prolog-nox"])?;
        let inside = dir.join("tmp/crib-compat");
        crate::fresh_dir(&inside)?;
        copy(&subs, &inside.join("submissions"))?;
        std::fs::copy(&seed, inside.join("seed"))?;
        std::fs::copy(&crib, dir.join("usr/local/bin/crib"))
            .context("copying crib into the root")?;
        let mounted = Mounted::new(&dir)?;
        let swipl = debian_root::swipl_version(mounted.command("swipl"))?;
        eprintln!("xtask: compat: {suite} ({swipl})");
        let there = grade(
            mounted.command("/usr/local/bin/crib"),
            Path::new("/tmp/crib-compat/submissions"),
            Path::new("/tmp/crib-compat/seed"),
            Path::new("/tmp/crib-compat/out"),
            &work.join(format!("{suite}.stderr")),
        )?;
        drop(mounted);
        rows.push(compare(suite, &swipl, &host, &there));
    }
    let table = table(&host_swipl, count, &rows);
    print!("{table}");
    std::fs::write(root.join("target/compat/compat.md"), &table)?;
    Ok(rows.iter().all(|r| r.unexplained() == 0))
}

/// Copies the corpus and every `len / catalog`-th file of the catalog into `subs`; returns
/// how many submissions that is.
fn stage_submissions(root: &Path, subs: &Path, catalog: usize) -> Result<usize> {
    let corpus = root.join("crates/grade/tests/submissions");
    let mut count = 0;
    for entry in sorted_entries(&corpus)? {
        let name = entry.file_name().expect("an entry has a name");
        copy(&entry, &subs.join(name))?;
        count += 1;
    }
    let mistakes: Vec<PathBuf> = sorted_entries(&root.join("crates/grade/tests/mistakes"))?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pl"))
        .collect();
    if catalog > 0 && !mistakes.is_empty() {
        let step = (mistakes.len() / catalog).max(1);
        for path in mistakes.iter().step_by(step).take(catalog) {
            let name = path.file_name().expect("a file").to_string_lossy();
            std::fs::copy(path, subs.join(format!("catalog-{name}")))?;
            count += 1;
        }
    }
    Ok(count)
}

/// Copies a file or a directory tree (`cp -a`, which keeps what the corpus's hostile files
/// are made of).
fn copy(from: &Path, to: &Path) -> Result<()> {
    let ok = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .context("cannot run cp")?
        .success();
    if !ok {
        bail!("cp -a {} {} failed", from.display(), to.display());
    }
    Ok(())
}

/// Grades `subs` with `crib` (a command, to which the arguments are added) and returns the
/// results by name. What crib printed on stderr goes to `stderr`.
fn grade(
    mut crib: Command,
    subs: &Path,
    seed: &Path,
    out: &Path,
    stderr: &Path,
) -> Result<BTreeMap<String, Value>> {
    crib.args([
        "grade",
        "--isolation",
        "rlimits",
        "--memory",
        "1024",
        "--json",
    ])
    .arg("--seed-file")
    .arg(seed)
    .arg("--out")
    .arg(out)
    .arg(subs)
    .stderr(std::fs::File::create(stderr)?);
    let output = crate::output(&mut crib)?;
    if !output.status.success() {
        bail!(
            "crib grade exited with {} (its stderr: {})",
            output.status,
            stderr.display()
        );
    }
    let mut results = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let value: Value = serde_json::from_str(line).context("a result that is not JSON")?;
        let name = value["name"].as_str().unwrap_or("").to_string();
        results.insert(name, value);
    }
    Ok(results)
}

/// The parts of a result that must not depend on SWI-Prolog's version: marks, how loading
/// went (not SWI-Prolog's wording), each test's verdict and credit, the hand_value check's
/// share, kinds, areas, counterexamples and diagnosis, and the lint's rule codes.
fn projection(r: &Value) -> Value {
    let load = &r["load"];
    let hv = &r["hand_value"];
    // Each element of an array (none when it is not one), as `f` projects it.
    let each = |v: &Value, f: fn(&Value) -> Value| -> Vec<Value> {
        v.as_array().into_iter().flatten().map(f).collect()
    };
    let tests = each(&r["tests"], |t| json!([t["id"], t["verdict"], t["credit"]]));
    let diagnostics = each(&load["diagnostics"], |d| {
        json!([d["kind"], d["file"], d["line"]])
    });
    let counterexamples = each(&hv["counterexamples"], |c| {
        json!([c["kind"], c["hand"], c["start"], c["expected"], c["got"]])
    });
    json!({
        "marks": r["marks"],
        "load failed": !load["load_failed"].is_null(),
        "missing predicates": load["missing_predicate"],
        "loaded files": load["files"],
        "diagnostics (kind, file, line)": diagnostics,
        "tests (id, verdict, credit)": tests,
        "hand_value checked": hv["checked"],
        "hand_value share wrong": hv["share_wrong"],
        "hand_value kinds": hv["kinds"],
        "hand_value areas": hv["areas"].as_array().map(|areas| areas
            .iter()
            .map(|a| json!([a["area"], a["items"], a["simplest"]["hand"], a["simplest"]["start"]]))
            .collect::<Vec<_>>()),
        "hand_value counterexamples": counterexamples,
        "diagnosis": hv["diagnosis"]["summary"],
        "lint rules": r["quality"]["summary"]["by_rule"],
    })
}

fn compare(
    suite: &str,
    swipl: &str,
    host: &BTreeMap<String, Value>,
    there: &BTreeMap<String, Value>,
) -> SuiteRow {
    let mut differences = Vec::new();
    let mut totals_equal = 0;
    for (name, h) in host {
        let Some(t) = there.get(name) else {
            differences.push((format!("{name}: not graded in the root"), None));
            continue;
        };
        if h["marks"]["total"] == t["marks"]["total"] {
            totals_equal += 1;
        }
        let (ph, pt) = (projection(h), projection(t));
        for (field, hv) in ph.as_object().expect("an object") {
            let tv = &pt[field];
            if hv != tv {
                differences.push((
                    format!(
                        "{name}: {field}: host {} / {suite} {}",
                        short(hv),
                        short(tv)
                    ),
                    explain(name, field, t),
                ));
            }
        }
    }
    for name in there.keys().filter(|n| !host.contains_key(*n)) {
        differences.push((format!("{name}: graded in the root only"), None));
    }
    SuiteRow {
        suite: suite.to_string(),
        swipl: crib_swipl_number(swipl),
        graded: there.len(),
        totals_equal,
        differences,
    }
}

/// A value in at most 200 characters.
fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// `9.0.4` from `SWI-Prolog version 9.0.4 for x86_64-linux`.
fn crib_swipl_number(line: &str) -> String {
    let mut words = line.split_whitespace();
    words
        .find(|w| *w == "version")
        .and_then(|_| words.next())
        .unwrap_or(line)
        .to_string()
}

fn table(host_swipl: &str, count: usize, rows: &[SuiteRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Graded with `cargo xtask compat`: {count} submissions (the corpus and a sample of the \
         catalog), the host's SWI-Prolog {} against each root's, one seed, --isolation rlimits.\n",
        crib_swipl_number(host_swipl)
    );
    let _ = writeln!(
        out,
        "| Debian | SWI-Prolog | submissions graded | totals equal | results equal | \
         differences (explained) |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for r in rows {
        let differing: std::collections::BTreeSet<&str> = r
            .differences
            .iter()
            .filter_map(|(d, _)| d.split(':').next())
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} of {count} | {} of {count} | {} ({}) |",
            r.suite,
            r.swipl,
            r.graded,
            r.totals_equal,
            count - differing.len().min(count),
            r.differences.len(),
            r.differences.len() - r.unexplained(),
        );
    }
    for r in rows.iter().filter(|r| !r.differences.is_empty()) {
        let _ = writeln!(out, "\n{} (SWI-Prolog {}):", r.suite, r.swipl);
        let mut whys: Vec<&str> = r.differences.iter().filter_map(|(_, w)| *w).collect();
        whys.sort_unstable();
        whys.dedup();
        for why in &whys {
            let names: std::collections::BTreeSet<&str> = r
                .differences
                .iter()
                .filter(|(_, w)| w == &Some(*why))
                .filter_map(|(d, _)| d.split(':').next())
                .collect();
            let _ = writeln!(
                out,
                "- explained ({}): {why}",
                names.into_iter().collect::<Vec<_>>().join(", ")
            );
        }
        for (d, _) in r.differences.iter().filter(|(_, w)| w.is_none()) {
            let _ = writeln!(out, "- NOT EXPLAINED: {d}");
        }
    }
    out
}
