use super::*;

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
        Err(GradeError::Path { .. })
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
        let s = Submission {
            name: "carol".into(),
            path: path.clone(),
        };
        let staged = s.stage(into.path()).unwrap();
        assert_eq!(staged.load, ["main.pl"]);
        assert_eq!(staged.files, ["lib/util.pl", "main.pl"]);
        assert_eq!(staged.skipped, ["passwd.pl"]);
        assert!(!into.path().join("passwd.pl").exists());
        assert_eq!(s.content_hash().unwrap(), staged.hash);
    }
    let before = Submission {
        name: "carol".into(),
        path: sub.clone(),
    }
    .content_hash()
    .unwrap();
    std::fs::write(sub.join("main.pl"), "c.").unwrap();
    let after = Submission {
        name: "carol".into(),
        path: sub,
    }
    .content_hash()
    .unwrap();
    assert_ne!(before, after);
}

/// Pins the content hash: `--resume` compares it with results written by earlier versions.
#[test]
fn content_hash_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.pl");
    std::fs::write(&path, "x.\n").unwrap();
    let s = Submission {
        name: "a".into(),
        path,
    };
    assert_eq!(s.content_hash().unwrap(), "423612926ec38e1b");
}
