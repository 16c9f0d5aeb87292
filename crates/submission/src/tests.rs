use super::*;
use std::os::unix::ffi::OsStrExt;

/// A submission at `path` with no LMS record.
fn submission(name: &str, path: impl Into<PathBuf>) -> Submission {
    Submission {
        name: name.into(),
        path: path.into(),
        lms: None,
    }
}

#[test]
fn discovers_files_and_directories_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("bob.pl"), "a.").unwrap();
    std::fs::write(root.join("notes.txt"), "x").unwrap();
    std::fs::write(root.join(".hidden.pl"), "x").unwrap();
    std::fs::create_dir(root.join("alice")).unwrap();
    std::fs::write(root.join("alice/main.pl"), "b.").unwrap();
    let subs = discover(&[root.to_path_buf()], false).unwrap();
    let names: Vec<&str> = subs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    let single = discover(&[root.to_path_buf()], true).unwrap();
    assert_eq!(single.len(), 1);
    let twice = discover(&[root.join("bob.pl"), root.join("bob.pl")], false).unwrap();
    assert_eq!(twice[1].name, "bob~2");
    assert!(matches!(
        discover(&[root.join("nope.pl")], false),
        Err(SurveyError::Path { .. })
    ));
}

#[test]
fn staging_skips_links_and_hashes_contents() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("carol");
    std::fs::create_dir_all(sub.join("lib")).unwrap();
    std::fs::write(sub.join("main.pl"), "a.").unwrap();
    std::fs::write(sub.join("lib/util.pl"), "b.").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", sub.join("passwd.pl")).unwrap();
    let linked = dir.path().join("linked");
    std::os::unix::fs::symlink(&sub, &linked).unwrap();
    for path in [&sub, &linked] {
        let into = tempfile::tempdir().unwrap();
        let s = submission("carol", path.clone());
        let staged = s.stage(into.path(), MAX_BYTES).unwrap();
        assert_eq!(staged.load, ["main.pl"]);
        assert_eq!(staged.files, ["lib/util.pl", "main.pl"]);
        assert_eq!(
            staged.skipped,
            [Skipped {
                path: "passwd.pl".into(),
                why: LINK.into()
            }]
        );
        assert!(!into.path().join("passwd.pl").exists());
        assert_eq!(s.listing(MAX_BYTES).unwrap().hash, staged.hash);
    }
    let before = submission("carol", sub.clone())
        .listing(MAX_BYTES)
        .unwrap()
        .hash;
    std::fs::write(sub.join("main.pl"), "c.").unwrap();
    let after = submission("carol", sub).listing(MAX_BYTES).unwrap().hash;
    assert_ne!(before, after);
}

/// Pins the content hash: `--resume` compares it with results written by earlier versions.
#[test]
fn content_hash_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.pl");
    std::fs::write(&path, "x.\n").unwrap();
    let s = submission("a", path);
    assert_eq!(s.listing(MAX_BYTES).unwrap().hash, "423612926ec38e1b");
}

/// Makes `path` a FIFO.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo only reads the NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn only_regular_files_and_directories_are_submissions() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("alice.pl"), "a.").unwrap();
    std::fs::write(root.join("bob.PL"), "b.").unwrap();
    std::fs::write(root.join("roster.csv"), "x").unwrap();
    mkfifo(&root.join("fifo.pl"));
    std::os::unix::fs::symlink("/etc/passwd", root.join("passwd.pl")).unwrap();
    std::os::unix::fs::symlink("/etc", root.join("etc")).unwrap();
    let found = survey(&[root.to_path_buf()], false).unwrap();
    let names: Vec<&str> = found.submissions.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    let skipped: Vec<String> = found.skipped.iter().map(|s| s.to_string()).collect();
    let shown = |name: &str| root.join(name).display().to_string();
    assert_eq!(
        skipped,
        [
            format!("{}: {LINK}", shown("etc")),
            format!("{}: a FIFO, not a regular file", shown("fifo.pl")),
            format!("{}: {LINK}", shown("passwd.pl")),
        ]
    );
    assert!(found.empty.is_empty());
    // Named explicitly, a FIFO is an error, not a hang.
    let err = survey(&[root.join("fifo.pl")], false).unwrap_err();
    assert!(format!("{:?}", err).contains("FIFO"), "{err:?}");
    // An empty directory, and one with no .pl file, are listed as empty.
    let empty = tempfile::tempdir().unwrap();
    let found = survey(&[empty.path().to_path_buf()], false).unwrap();
    assert!(found.submissions.is_empty());
    assert_eq!(found.empty, [empty.path().to_path_buf()]);
}

#[test]
fn odd_names_are_escaped_and_kept_apart() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let a = std::ffi::OsStr::from_bytes(b"s\xff.pl");
    let b = std::ffi::OsStr::from_bytes(b"s\xfe.pl");
    let literal = std::ffi::OsStr::from_bytes(b"s\\xff.pl");
    for name in [a, b, literal] {
        std::fs::write(root.join(name), "a.").unwrap();
    }
    let found = survey(&[root.to_path_buf()], false).unwrap();
    let mut names: Vec<&str> = found.submissions.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["s\\\\xff", "s\\xfe", "s\\xff"]);
    let mut hashes = Vec::new();
    for s in &found.submissions {
        let into = tempfile::tempdir().unwrap();
        let staged = s.stage(into.path(), MAX_BYTES).unwrap();
        assert_eq!(staged.load, [format!("{}.pl", s.name)]);
        hashes.push(staged.hash);
    }
    hashes.sort();
    hashes.dedup();
    assert_eq!(hashes.len(), 3, "three names, three hashes");
}

#[test]
fn size_is_checked_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    // A sparse file of 3 GiB: its metadata says so; nothing is read.
    let sparse = dir.path().join("sparse.pl");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let s = submission("sparse", sparse);
    let into = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let err = s.stage(into.path(), MAX_BYTES).unwrap_err().to_string();
    assert!(err.starts_with("too big"), "{err}");
    assert!(err.contains("8 MiB"), "{err}");
    assert!(started.elapsed().as_secs() < 2);
    assert_eq!(std::fs::read_dir(into.path()).unwrap().count(), 0);
    // Files that fit alone but not together.
    let sub = dir.path().join("two");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("a.pl"), vec![b'%'; 600]).unwrap();
    std::fs::write(sub.join("b.pl"), vec![b'%'; 600]).unwrap();
    let two = submission("two", sub);
    assert!(two
        .listing(1000)
        .unwrap_err()
        .to_string()
        .starts_with("too big"));
    assert!(two.listing(1200).is_ok());
    // A character device named explicitly is not read.
    let zero = submission("zero", "/dev/zero");
    let err = zero.listing(MAX_BYTES).unwrap_err().to_string();
    assert!(err.contains("a device"), "{err}");
}

#[test]
fn nested_links_and_fifos_are_skipped_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("dave");
    std::fs::create_dir_all(sub.join("lib")).unwrap();
    std::fs::write(sub.join("main.pl"), "a.").unwrap();
    mkfifo(&sub.join("lib/pipe.pl"));
    std::os::unix::fs::symlink("/dev/zero", sub.join("zero.pl")).unwrap();
    std::os::unix::fs::symlink("/etc", sub.join("lib/etc")).unwrap();
    let s = submission("dave", sub);
    let into = tempfile::tempdir().unwrap();
    let staged = s.stage(into.path(), MAX_BYTES).unwrap();
    assert_eq!(staged.files, ["main.pl"]);
    let skipped: Vec<String> = staged.skipped.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        skipped,
        [
            format!("lib/etc: {LINK}"),
            "lib/pipe.pl: a FIFO, not a regular file".to_string(),
            format!("zero.pl: {LINK}"),
        ]
    );
}

#[test]
fn an_unreadable_submission_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("secret.pl");
    std::fs::write(&path, "a.").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    // As root, access checks on this thread alone are made as nobody, without the
    // capabilities that would bypass them (setfsuid is per thread).
    // SAFETY: setfsuid only changes this thread's file-system uid.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        unsafe { libc::setfsuid(65534) };
    }
    let file = survey(std::slice::from_ref(&path), false);
    let listed = survey(&[dir.path().to_path_buf()], false);
    if root {
        // SAFETY: as above.
        unsafe { libc::setfsuid(0) };
    }
    assert!(matches!(file, Err(SurveyError::Path { .. })), "{file:?}");
    assert!(
        matches!(listed, Err(SurveyError::Path { .. })),
        "{listed:?}"
    );
}

#[test]
fn the_listing_is_what_staging_copies_and_names_its_prolog_files() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("dave");
    std::fs::create_dir_all(sub.join("lib")).unwrap();
    std::fs::write(sub.join("main.pl"), "a.").unwrap();
    std::fs::write(sub.join("Extra.PL"), "b.").unwrap();
    std::fs::write(sub.join("lib/util.pl"), "c.").unwrap();
    std::fs::write(sub.join("notes.txt"), "x").unwrap();
    let s = submission("dave", sub);
    let listed = s.listing(MAX_BYTES).unwrap();
    let into = tempfile::tempdir().unwrap();
    assert_eq!(listed, s.stage(into.path(), MAX_BYTES).unwrap());
    let mut prolog: Vec<&str> = listed.prolog_files().collect();
    prolog.sort_unstable();
    assert_eq!(prolog, ["Extra.PL", "lib/util.pl", "main.pl"]);
    assert_eq!(listed.load, ["Extra.PL", "main.pl"]);
    assert!(
        s.listing(1).is_err(),
        "the size limit holds without copying too"
    );
}
