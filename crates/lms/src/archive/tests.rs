//! Extraction refuses what would escape, links and bombs, entry by entry.

use super::*;
use crate::testing::{zeros, zip_of, Entry};

/// Extracts the zip `bytes`, written as `in.zip` in the directory returned, into its `out/`.
fn extract(
    bytes: &[u8],
    limits: &DownloadLimits,
) -> (tempfile::TempDir, Result<Extracted, LmsError>) {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("in.zip");
    fs::write(&zip, bytes).unwrap();
    let dest = dir.path().join("out");
    fs::create_dir(&dest).unwrap();
    let out = extract_zip(
        &zip,
        "in.zip",
        &|rel: &str| Some(dest.join(rel)),
        limits,
        &mut Budget::default(),
    );
    (dir, out)
}

#[test]
fn hostile_entries_are_refused_and_the_rest_extracted() {
    let bomb = zeros();
    let (dir, out) = extract(
        &zip_of(&[
            ("good/a.pl", Entry::File(b"a.")),
            ("../evil.pl", Entry::File(b"evil.")),
            ("good/../../evil2.pl", Entry::File(b"evil.")),
            ("/etc/evil.pl", Entry::File(b"evil.")),
            ("C:\\evil.pl", Entry::File(b"evil.")),
            ("link.pl", Entry::Link("/etc/passwd")),
            ("bomb.pl", Entry::File(&bomb)),
            ("empty/", Entry::Dir),
            ("b.pl", Entry::File(b"b.")),
        ]),
        &DownloadLimits::default(),
    );
    let out = out.unwrap();
    assert_eq!(out.files, ["good/a.pl", "b.pl"]);
    let messages: Vec<String> = out.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        messages,
        [
            "in.zip: ../evil.pl: a path outside the destination (`..`)",
            "in.zip: good/../../evil2.pl: a path outside the destination (`..`)",
            "in.zip: /etc/evil.pl: an absolute path",
            "in.zip: C:\\evil.pl: an absolute path",
            "in.zip: link.pl: a symbolic link (links and special files are never extracted)",
            &format!(
                "in.zip: bomb.pl: inflates more than 200 times its {} compressed bytes (a zip bomb?)",
                match &out.problems[5].problem {
                    EntryProblem::Ratio { compressed, .. } => *compressed,
                    other => panic!("{other:?}"),
                }
            ),
        ]
    );
    // Nothing outside, no link, no partial bomb.
    assert!(!dir.path().join("evil.pl").exists());
    assert!(!dir.path().join("out/link.pl").exists());
    assert!(!dir.path().join("out/bomb.pl").exists());
    assert!(dir.path().join("out/empty").is_dir());
}

#[test]
fn limits_on_entries_and_bytes_stop_the_archive() {
    let entries = zip_of(&[("a.pl", Entry::File(b"a.")), ("b.pl", Entry::File(b"b."))]);
    let limits = DownloadLimits {
        max_entries: 1,
        ..DownloadLimits::default()
    };
    let (_dir, out) = extract(&entries, &limits);
    assert_eq!(
        out.unwrap_err().to_string(),
        "in.zip: 2 entries, more than the 1 a download may hold"
    );
    let limits = DownloadLimits {
        max_bytes: 3,
        ..DownloadLimits::default()
    };
    let (_dir, out) = extract(&entries, &limits);
    assert_eq!(
        out.unwrap_err().to_string(),
        "in.zip: b.pl: the download's files total more than 3 bytes, the most it may hold"
    );
    let limits = DownloadLimits {
        max_entry_bytes: 1,
        ..DownloadLimits::default()
    };
    let (_dir, out) = extract(&entries, &limits);
    let out = out.unwrap();
    assert!(out.files.is_empty());
    assert_eq!(
        out.problems[0].to_string(),
        "in.zip: a.pl: bigger than 1 bytes, the most one file may hold"
    );
}

/// A hostile zip may name two entries alike; the zip reader keeps one of them (the last),
/// and nothing is written twice.
#[test]
fn a_name_given_twice_is_extracted_once() {
    // The zip writer refuses a name twice: write b.pl and rename it a.pl in the local
    // header and the central directory alike.
    let mut bytes = zip_of(&[
        ("a.pl", Entry::File(b"first.")),
        ("b.pl", Entry::File(b"second")),
    ]);
    for i in 0..bytes.len().saturating_sub(3) {
        if &bytes[i..i + 4] == b"b.pl" {
            bytes[i] = b'a';
        }
    }
    let (dir, out) = extract(&bytes, &DownloadLimits::default());
    assert_eq!(out.unwrap().files, ["a.pl"]);
    assert_eq!(fs::read(dir.path().join("out/a.pl")).unwrap(), b"second");
}

#[test]
fn a_file_that_is_not_a_zip_is_named() {
    let (dir, out) = extract(b"PK\x03\x04 but not really", &DownloadLimits::default());
    let err = out.unwrap_err();
    assert!(matches!(err, LmsError::NotZip { .. }), "{err}");
    let path = dir.path().join("in.zip");
    assert!(err
        .to_string()
        .starts_with(&format!("{}: not a zip archive: ", path.display())));
}

/// Copies the folder `from` into `dest` beside it.
fn copy(from: &Path, limits: &DownloadLimits) -> (PathBuf, Extracted) {
    let dest = from.with_file_name("dest");
    fs::create_dir(&dest).unwrap();
    let place = |rel: &str| Some(dest.join(rel));
    let out = copy_tree(from, "from", &dest, &place, limits, &mut Budget::default()).unwrap();
    (dest, out)
}

#[test]
fn folders_are_copied_without_links() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("from");
    fs::create_dir_all(from.join("sub")).unwrap();
    fs::write(from.join("sub/a.pl"), b"a.").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", from.join("link.pl")).unwrap();
    let (dest, out) = copy(&from, &DownloadLimits::default());
    assert_eq!(out.files, ["sub/a.pl"]);
    assert_eq!(
        out.problems[0].to_string(),
        "from: link.pl: a symbolic link (links and special files are never extracted)"
    );
    assert!(!dest.join("link.pl").exists());
}

/// A folder's files are hard-linked where the file system allows (the same file, no byte
/// copied), and held to the same size limits.
#[test]
fn folder_files_are_linked_and_held_to_the_limits() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("from");
    fs::create_dir(&from).unwrap();
    fs::write(from.join("a.pl"), b"a.").unwrap();
    fs::write(from.join("big.pl"), vec![b'%'; 100]).unwrap();
    let limits = DownloadLimits {
        max_entry_bytes: 10,
        ..DownloadLimits::default()
    };
    let (dest, out) = copy(&from, &limits);
    assert_eq!(out.files, ["a.pl"]);
    assert_eq!(
        out.problems[0].to_string(),
        "from: big.pl: bigger than 10 bytes, the most one file may hold"
    );
    let ino = |p: &Path| fs::metadata(p).unwrap().ino();
    assert_eq!(ino(&dest.join("a.pl")), ino(&from.join("a.pl")));
    assert!(!dest.join("big.pl").exists());
}
