//! What the modules share: the `crib` binary, run two ways; the corpora they run it on (the
//! grade corpus's submissions, the report corpus's results, crib's own reference); and
//! writing zips and reading JSON Lines.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// `crib`, for assert_cmd's assertions and `write_stdin` (its stdin is a pipe, empty unless
/// given).
pub fn crib() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("crib").unwrap()
}

/// `crib` as a plain process, which can be spawned and signalled, with the test's stdin.
pub fn crib_process() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_crib"))
}

/// Runs `crib report ARGS` and returns how it went, whatever its exit code.
pub fn crib_report(args: &[&OsStr]) -> Output {
    crib().arg("report").args(args).output().unwrap()
}

/// Runs `crib similar ARGS` and returns how it went, whatever its exit code.
pub fn crib_similar(args: &[&OsStr]) -> Output {
    crib().arg("similar").args(args).output().unwrap()
}

/// The grade corpus's submissions (crates/grade/tests/submissions).
pub fn submissions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../grade/tests/submissions")
}

/// The grade corpus's submission `name` (a file, or a folder such as `module`).
pub fn submission(name: &str) -> PathBuf {
    submissions().join(name)
}

/// crib's own reference solution, published for students (prolog/cribbage.pl).
pub fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prolog/cribbage.pl")
}

/// The report corpus's results: crib grade's results of the submissions corpus
/// (crates/report/tests/results), one NAME.json per submission.
pub fn results_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../report/tests/results")
}

/// Copies the report corpus's results into `dir/results`, each changed by `edit` first and
/// written as NAME.json after its (perhaps changed) `name`; returns `dir/results`.
pub fn copy_results(dir: &Path, mut edit: impl FnMut(&mut Value)) -> PathBuf {
    let out = dir.join("results");
    std::fs::create_dir(&out).unwrap();
    for entry in std::fs::read_dir(results_corpus()).unwrap() {
        let path = entry.unwrap().path();
        let mut json: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut json);
        let name = json["name"].as_str().unwrap();
        std::fs::write(out.join(format!("{name}.json")), json.to_string()).unwrap();
    }
    out
}

/// Writes a zip of `entries` (names as given, `../` and all) to `path`.
pub fn write_zip(path: &Path, entries: &[(&str, &[u8])]) {
    std::fs::write(path, zip_bytes(entries)).unwrap();
}

/// Returns a zip of `entries` (names as given, `../` and all), deflated, every entry dated
/// zip's epoch: the same entries give the same bytes.
pub fn zip_bytes(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for (name, bytes) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Grades the corpus's empty.pl (`crib grade --json --no-lint ARGS empty.pl`), which must
/// succeed, and returns its result: the first JSON line.
pub fn grade_empty(args: &[&OsStr]) -> Value {
    let run = crib_process()
        .args(["grade", "--json", "--no-lint"])
        .args(args)
        .arg(submission("empty.pl"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    json_lines(&run.stdout).remove(0)
}

/// `stdout` read as JSON Lines: one value per line.
pub fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
