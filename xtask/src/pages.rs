//! `cargo xtask report`: renders the class report of the graded corpus and checks it in a
//! real browser (headless Chromium): no JavaScript error, the page's script ran to its end,
//! and every plot has bars; then one student's feedback page of `crib report --export`, at
//! desktop width and at a phone's (390 px). `cargo xtask test` runs the same check.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::{cargo_run, status, step, system};

/// The corpus's results, written by `crib grade` (`--regrade` writes them again).
pub const RESULTS: &str = "crates/report/tests/results";
/// The submissions graded into [`RESULTS`].
const CORPUS: &str = "crates/grade/tests/submissions";
/// Where the page, the marks and the screenshot of the check go.
const OUT: &str = "target/report-check";

/// Grades the corpus again into [`RESULTS`] when `regrade`, renders the report and checks it
/// in headless Chromium, and copies the screenshot to `screenshot` when given. Skips the
/// browser, saying so, only where Chromium cannot be installed. Runs `built` as crib when
/// given (the binary `cargo xtask test` just built), else `cargo run -p crib-cli`.
pub fn run(
    root: &Path,
    regrade: bool,
    screenshot: Option<&Path>,
    built: Option<&Path>,
) -> Result<()> {
    let out = root.join(OUT);
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    if regrade {
        regrade_corpus(root, &out)?;
    }
    let page = out.join("report.html");
    let crib = |args: &[&str]| {
        let mut cmd = match built {
            Some(exe) => Command::new(exe),
            None => cargo_run("crib-cli", &[]),
        };
        cmd.args(args);
        cmd
    };
    let marks = out.join("marks.csv");
    // With the submissions, so that the page checked has every section: the code-quality
    // review of each source and the similar pairs.
    let mut cmd = crib(&["report", RESULTS, "--submissions", CORPUS, "-o"]);
    cmd.arg(&page).arg("--csv").arg(&marks);
    step("crib report", &mut cmd)?;
    if let Err(err) = system::ensure_packages(&[system::CHROMIUM]) {
        eprintln!("xtask: SKIPPED the browser check of the class report: chromium cannot be installed here ({err:#})");
        return Ok(());
    }
    check(&page, "the class report", |dom, log| {
        problems(dom, log).and_then(|()| missing_sections(dom, SECTIONS))
    })?;
    let png = out.join("report.png");
    screenshot_page(&page, &png, (1280, 1800))?;
    eprintln!(
        "xtask: class report checked in chromium: {}, {}",
        page.display(),
        png.display()
    );
    let back = out.join("export");
    let mut cmd = crib(&[
        "report",
        RESULTS,
        "--submissions",
        CORPUS,
        "--export",
        "csv",
        "--out",
    ]);
    cmd.arg(&back);
    step("crib report --export csv", &mut cmd)?;
    let feedback = back.join(FEEDBACK_PAGE);
    check(&feedback, "the feedback page", feedback_problems)?;
    for (name, size) in [
        ("feedback-desktop.png", (1280, 1800)),
        ("feedback-phone.png", (390, 2400)),
    ] {
        screenshot_page(&feedback, &out.join(name), size)?;
    }
    eprintln!(
        "xtask: feedback page checked in chromium: {} (desktop and 390 px phone screenshots in {})",
        feedback.display(),
        out.display()
    );
    if let Some(dest) = screenshot {
        std::fs::copy(&png, dest)
            .with_context(|| format!("cannot copy {} to {}", png.display(), dest.display()))?;
        eprintln!("xtask: wrote {}", dest.display());
    }
    Ok(())
}

/// Grades the corpus with `crib grade` and replaces the `.json` files of [`RESULTS`] with
/// what it wrote.
fn regrade_corpus(root: &Path, out: &Path) -> Result<()> {
    let fresh = out.join("results");
    if fresh.exists() {
        std::fs::remove_dir_all(&fresh)
            .with_context(|| format!("cannot remove {}", fresh.display()))?;
    }
    let mut cmd = cargo_run("crib-cli", &[]);
    cmd.args(["grade", "--out"])
        .arg(&fresh)
        .arg(CORPUS)
        .stdout(std::process::Stdio::null());
    step(&format!("crib grade {CORPUS}"), &mut cmd)?;
    let dest = root.join(RESULTS);
    let json = |dir: &Path| -> Result<Vec<PathBuf>> {
        let mut files = crate::sorted_entries(dir)?;
        files.retain(|path| path.extension().is_some_and(|e| e == "json"));
        Ok(files)
    };
    for path in json(&dest)? {
        std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
    }
    for path in json(&fresh)? {
        let to = dest.join(path.file_name().expect("a file read from a directory"));
        std::fs::copy(&path, &to).with_context(|| format!("cannot write {}", to.display()))?;
    }
    eprintln!("xtask: regraded {CORPUS} into {RESULTS}");
    Ok(())
}

fn chromium(page: &Path) -> Command {
    let mut cmd = Command::new("chromium");
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--allow-file-access-from-files",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    cmd.arg(format!("file://{}", page.display()));
    cmd
}

/// Loads `page` (`what`: "the class report") in headless chromium and fails on what
/// `problems` finds in its DOM after the scripts ran and in what chromium wrote on stderr
/// (the console among it).
fn check(page: &Path, what: &str, problems: fn(&str, &str) -> Result<(), String>) -> Result<()> {
    let mut cmd = chromium(page);
    cmd.arg("--dump-dom");
    eprintln!("$ {}", crate::describe(&cmd));
    let output = cmd
        .output()
        .context("cannot run chromium (apt-get install chromium)")?;
    let log = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        bail!("chromium failed on {}: {log}", page.display());
    }
    problems(&String::from_utf8_lossy(&output.stdout), &log)
        .map_err(|why| anyhow::anyhow!("{what} {}: {why}", page.display()))
}

/// The sections the page must have, by id: those `--submissions` adds among them.
const SECTIONS: &[&str] = &[
    "glance",
    "hand-value",
    "tests",
    "quality",
    "similar",
    "submissions",
];

/// Returns which of `ids` the dumped `dom` has no element for, if any.
pub fn missing_sections(dom: &str, ids: &[&str]) -> Result<(), String> {
    let missing: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| !dom.contains(&format!("id=\"{id}\"")))
        .collect();
    match missing.is_empty() {
        true => Ok(()),
        false => Err(format!("no section with id {}", missing.join(", "))),
    }
}

/// Returns why the dumped `dom` and chromium's `log` show a broken page, if they do: a
/// console message (the page's script logs nothing), a script that did not run to its end,
/// a plot without bars.
pub fn problems(dom: &str, log: &str) -> Result<(), String> {
    let console: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect();
    if !console.is_empty() {
        return Err(format!("JavaScript said:\n{}", console.join("\n")));
    }
    if !dom.contains("data-ready=\"yes\"") {
        return Err("its script did not run to the end (no data-ready on <body>)".into());
    }
    let plots: Vec<&str> = dom.split("<figure class=\"plot\"").skip(1).collect();
    if plots.is_empty() {
        return Err("it has no plot".into());
    }
    for (i, plot) in plots.iter().enumerate() {
        let plot = plot.split("</figure>").next().unwrap_or_default();
        if !plot.contains("<svg") {
            return Err(format!("plot {} has no <svg>", i + 1));
        }
        let bars = plot
            .split("<rect")
            .skip(1)
            .filter(|r| !r.contains("fill=\"#FFFFFF\"") && !r.contains("height=\"0\""))
            .count();
        if bars == 0 {
            return Err(format!("plot {} is empty: no bar drawn", i + 1));
        }
    }
    Ok(())
}

/// The feedback page checked: a submission with failing tests of every part, a diagnosis
/// and code-quality findings.
const FEEDBACK_PAGE: &str = "feedback/broken_runs.html";

/// Returns why the dumped feedback page `dom` and chromium's `log` show a broken page: a
/// console message, a missing viewport (it must read on a phone) or a missing part.
pub fn feedback_problems(dom: &str, log: &str) -> Result<(), String> {
    if let Some(line) = log
        .lines()
        .find(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
    {
        return Err(format!("the browser said: {line}"));
    }
    if !dom.contains("name=\"viewport\" content=\"width=device-width") {
        return Err("no viewport: a phone would show it zoomed out".into());
    }
    for part in [
        "<h2>Marks</h2>",
        "<h2>hand_value/3</h2>",
        "<h2>select_hand/3</h2>",
        "<h2>Code quality</h2>",
    ] {
        if !dom.contains(part) {
            return Err(format!("no {part}"));
        }
    }
    Ok(())
}

/// Takes a screenshot of the top of the page in a window of `(width, height)` pixels.
fn screenshot_page(page: &Path, png: &PathBuf, (width, height): (u32, u32)) -> Result<()> {
    let mut cmd = chromium(page);
    cmd.arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={width},{height}"))
        .arg("--hide-scrollbars")
        .stderr(std::process::Stdio::null());
    if !status(&mut cmd)?.success() {
        bail!("chromium could not take a screenshot of {}", page.display());
    }
    let size = std::fs::metadata(png).map(|m| m.len()).unwrap_or(0);
    if size < 10_000 {
        bail!(
            "the screenshot {} is {size} bytes: a blank page?",
            png.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests;
