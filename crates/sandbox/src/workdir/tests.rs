use super::*;

#[test]
fn a_work_dir_is_private_locked_and_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = WorkDir::create(tmp.path(), false).unwrap();
    let path = dir.path().to_path_buf();
    let meta = fs::metadata(&path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    assert!(path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with(WORK_PREFIX));
    // Held by its owner: not stale.
    assert!(!abandoned(&path.join(LOCK)));
    remove_stale(tmp.path());
    assert!(path.exists());
    let open = WorkDir::create(tmp.path(), true).unwrap();
    assert_eq!(
        fs::metadata(open.path()).unwrap().permissions().mode() & 0o777,
        0o711
    );
    drop(dir);
    assert!(!path.exists());
}

#[test]
fn the_next_grader_removes_what_a_dead_one_left() {
    let tmp = tempfile::tempdir().unwrap();
    // A dead grader's directory: a lock file with a pid, and nobody holding it.
    let dead = tmp.path().join(format!("{WORK_PREFIX}dead"));
    fs::create_dir(&dead).unwrap();
    fs::write(dead.join(LOCK), "12345").unwrap();
    fs::create_dir(dead.join("s0-x")).unwrap();
    fs::write(dead.join("s0-x/copy.pl"), "a.").unwrap();
    // Left alone: one being set up (no pid yet), one with no lock file (not ours), and
    // anything else with the prefix that is not a directory.
    let starting = tmp.path().join(format!("{WORK_PREFIX}starting"));
    fs::create_dir(&starting).unwrap();
    fs::write(starting.join(LOCK), "").unwrap();
    let canary = tmp.path().join(format!("{WORK_PREFIX}canary"));
    fs::create_dir(&canary).unwrap();
    let file = tmp.path().join(format!("{WORK_PREFIX}file"));
    fs::write(&file, "x").unwrap();
    let live = WorkDir::create(tmp.path(), false).unwrap();
    assert!(!dead.exists(), "the dead grader's directory stayed");
    assert!(starting.exists() && canary.exists() && file.exists());
    assert!(live.path().exists());
    // A live grader's directory survives another grader's removal of stale ones.
    let other = WorkDir::create(tmp.path(), false).unwrap();
    assert!(live.path().exists());
    drop(other);
}

#[test]
fn shutdown_removes_every_work_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = WorkDir::create(tmp.path(), false).unwrap();
    fs::write(dir.path().join("x"), "y").unwrap();
    let path = dir.path().to_path_buf();
    // What shutdown does to directories, without marking this test process shut.
    let dirs: Vec<PathBuf> = registry().dirs.clone();
    assert!(dirs.contains(&path));
    remove_all(&path);
    assert!(!path.exists());
    drop(dir);
    assert!(!registry().dirs.contains(&path));
}
