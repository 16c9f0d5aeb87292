//! Times the intake of a 600-submission Canvas download: the zip as Canvas gives it, and the
//! same files unpacked by hand into a folder (target: the zip adds at most 2 s to grading
//! the files unpacked). Each file is the grader's correct submission
//! (crates/grade/tests/submissions/correct.pl), named as Canvas names files; one student in
//! ten uploaded a zip of a folder instead, one in ten two files, one in ten is late.

use std::io::Write;
use std::path::Path;

use criterion::Criterion;
use zip::write::SimpleFileOptions;

const SUBMISSIONS: usize = 600;
const CORRECT: &[u8] = include_bytes!("../../grade/tests/submissions/correct.pl");

/// Returns the download's files: (Canvas's name, contents).
fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for i in 0..SUBMISSIONS {
        let late = if i % 10 == 3 { "_LATE" } else { "" };
        let prefix = format!("student{i:03}{late}_{}_{}", 10_000 + i, 50_000 + i);
        if i % 10 == 7 {
            let mut inner = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            inner
                .start_file("project/cribbage.pl", SimpleFileOptions::default())
                .unwrap();
            inner.write_all(CORRECT).unwrap();
            out.push((
                format!("{prefix}_project.zip"),
                inner.finish().unwrap().into_inner(),
            ));
        } else {
            out.push((format!("{prefix}_cribbage.pl"), CORRECT.to_vec()));
            if i % 10 == 5 {
                out.push((format!("{prefix}_helpers.pl"), b"% helpers\n".to_vec()));
            }
        }
    }
    out
}

fn write_download(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let files = files();
    let zip_path = dir.join("submissions.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
    for (name, bytes) in &files {
        zip.start_file(name.as_str(), SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
    let folder = dir.join("unpacked");
    std::fs::create_dir(&folder).unwrap();
    for (name, bytes) in &files {
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    (zip_path, folder)
}

/// The intake of a 600-submission download: `cargo bench -p crib-bench --bench intake`.
pub fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let (zip, folder) = write_download(dir.path());
    let mut group = c.benchmark_group("intake_600");
    group.sample_size(10);
    for (what, source) in [("canvas_zip", &zip), ("unpacked_folder", &folder)] {
        group.bench_function(what, |b| {
            b.iter(|| {
                let dest = tempfile::tempdir().unwrap();
                let d = crib_lms::read(
                    source,
                    None,
                    dest.path(),
                    &crib_lms::DownloadLimits::default(),
                )
                .unwrap();
                assert_eq!(d.submissions.len(), SUBMISSIONS);
                assert!(d.problems.is_empty());
                dest
            })
        });
    }
    group.finish();
}
