use super::*;

/// Writes `files` (path under the root, contents) into a fresh directory standing for
/// /sys/fs/cgroup.
fn fake_root(files: &[(&str, &str)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let file = root.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    root
}

#[test]
fn v2_takes_the_smallest_limit_up_the_tree() {
    let root = fake_root(&[
        ("memory.max", "max\n"),
        ("job/memory.max", "805306368\n"),
        ("job/step/memory.max", "max\n"),
    ]);
    assert_eq!(
        memory_limit_in("0::/job/step\n", root.path()),
        Some(768 << 20)
    );
    assert_eq!(memory_limit_in("0::/\n", root.path()), None);
}

#[test]
fn v2_inside_a_namespace_reads_the_mount() {
    // Docker: /proc/self/cgroup says "0::/" and the container's limit is at the mount.
    let root = fake_root(&[("memory.max", "805306368\n")]);
    assert_eq!(memory_limit_in("0::/\n", root.path()), Some(768 << 20));
}

#[test]
fn v1_reads_the_memory_controller_and_ignores_unlimited() {
    let root = fake_root(&[
        ("memory/memory.limit_in_bytes", "9223372036854771712\n"),
        ("memory/docker/abc/memory.limit_in_bytes", "536870912\n"),
    ]);
    let cgroups = "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n";
    assert_eq!(memory_limit_in(cgroups, root.path()), Some(512 << 20));
    assert_eq!(memory_limit_in("4:memory:/\n", root.path()), None);
    assert_eq!(memory_limit_in("garbage\n", root.path()), None);
}

#[test]
fn children_fit_inside_the_cgroup() {
    let gib = 1u64 << 30;
    let none = MemoryFit::new(gib, 4, None);
    assert_eq!(
        (none.per_child, none.workers, none.reduced),
        (gib, 4, false)
    );
    // Gradescope's default: 768 MB; 2 workers of 1 GiB become 2 of 274 MiB.
    let fit = MemoryFit::new(gib, 2, Some(768_000_000));
    assert_eq!(fit.workers, 2);
    assert!(fit.per_child * 2 <= 768_000_000 / 100 * 75);
    assert!(fit.reduced);
    assert!(fit.to_string().contains("reduced to fit"), "{fit}");
    // Too many workers for the floor: fewer of them.
    let fit = MemoryFit::new(gib, 16, Some(768_000_000));
    assert_eq!(fit.workers, 2);
    assert!(fit.per_child >= MIN_CHILD_MEMORY && fit.per_child * 2 <= 576_000_000);
    // A roomy cgroup changes nothing.
    let fit = MemoryFit::new(gib, 2, Some(64 * gib));
    assert_eq!((fit.per_child, fit.workers, fit.reduced), (gib, 2, false));
    // A tiny one still runs one child.
    assert_eq!(MemoryFit::new(gib, 2, Some(100 << 20)).workers, 1);
}

#[test]
fn extra_children_never_take_a_childs_memory() {
    let gib = 1u64 << 30;
    // No cgroup: as many as wanted.
    assert_eq!(MemoryFit::new(gib, 1, None).children_at_once(4), 4);
    // Never fewer than the workers, even when fewer are wanted.
    assert_eq!(MemoryFit::new(gib, 3, None).children_at_once(2), 3);
    // A cgroup with room for two children of 1 GiB (75% of 3 GiB) but not three.
    let fit = MemoryFit::new(gib, 1, Some(3 * gib));
    assert_eq!((fit.per_child, fit.workers), (gib, 1));
    assert_eq!(fit.children_at_once(4), 2);
    // Gradescope's default, one worker with the whole share staying alone: the doctest.
}
