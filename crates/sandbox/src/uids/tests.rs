use super::*;

/// The identity map of the initial user namespace, as `/proc/self/uid_map` shows it.
const INITIAL: &str = "         0          0 4294967295\n";

#[test]
fn the_initial_namespace_draws_from_the_large_range() {
    let all = parse_id_map(INITIAL);
    assert_eq!(
        all,
        vec![Range {
            start: 0,
            end: u32::MAX
        }]
    );
    let space = UidSpace::within(SANDBOX_UIDS, &all, &all);
    assert_eq!(space.blocks(), 1_048_320);
    assert_eq!(space.block(0), SANDBOX_UIDS.start);
    assert_eq!(
        space.block(space.blocks() - 1),
        SANDBOX_UIDS.end - UID_BLOCK
    );
}

#[test]
fn a_remapped_root_draws_from_the_fallback_without_nobody() {
    // Docker's userns-remap and rootless containers: 65,536 uids, from the host's 100000.
    let map = parse_id_map("0 100000 65536\n");
    assert_eq!(
        map,
        vec![Range {
            start: 0,
            end: 65_536
        }]
    );
    assert_eq!(UidSpace::within(SANDBOX_UIDS, &map, &map).blocks(), 0);
    let space = UidSpace::within(FALLBACK_UIDS, &map, &map);
    // 64256, 64512, 64768 and 65024; the block 65280-65535 holds nobody.
    let firsts: Vec<u32> = (0..space.blocks()).map(|i| space.block(i)).collect();
    assert_eq!(firsts, [64_256, 64_512, 64_768, 65_024]);
    // Without a gid map as wide, only the blocks inside both maps.
    let gids = parse_id_map("0 100000 64768\n");
    assert_eq!(UidSpace::within(FALLBACK_UIDS, &map, &gids).blocks(), 2);
}

#[test]
fn a_block_never_crosses_the_end_of_a_map() {
    let uids = parse_id_map("0 0 1000\n1879048448 5000 300\n");
    let space = UidSpace::within(SANDBOX_UIDS, &uids, &parse_id_map(INITIAL));
    assert_eq!(space.blocks(), 1, "{space:?}");
    assert_eq!(space.block(7), 1_879_048_448);
}

/// A space of two blocks from uid `first` on (each test its own, as they run at once).
fn two_blocks(first: u32) -> UidSpace {
    let all = parse_id_map(INITIAL);
    UidSpace::within(first..first + 2 * UID_BLOCK, &all, &all)
}

/// The two blocks of [`a_locked_block_is_never_drawn_and_a_block_given_back_is_drawn_again`].
const LOCKED: u32 = SANDBOX_UIDS.start;

/// The two blocks of [`a_block_with_a_running_process_is_never_drawn`].
const BUSY: u32 = SANDBOX_UIDS.start + 16 * UID_BLOCK;

#[test]
fn a_locked_block_is_never_drawn_and_a_block_given_back_is_drawn_again() {
    // Lock files of its own: graders in other test processes draw meanwhile.
    let dir = tempfile::tempdir().unwrap();
    let a = UidBlock::acquire_in(dir.path(), &two_blocks(LOCKED)).unwrap();
    let b = UidBlock::acquire_in(dir.path(), &two_blocks(LOCKED)).unwrap();
    assert_ne!(a.range(), b.range());
    let full = UidBlock::acquire_in(dir.path(), &two_blocks(LOCKED)).unwrap_err();
    assert_eq!(full.kind(), io::ErrorKind::WouldBlock, "{full}");
    let first = a.range().start;
    drop(a);
    // Another test thread that forks a child at the moment the block is given back shares
    // its lock until the child's exec closes it (O_CLOEXEC): so ask again, briefly.
    let mut got = Vec::new();
    for _ in 0..50 {
        match UidBlock::acquire_in(dir.path(), &two_blocks(LOCKED)) {
            Ok(c) => {
                got.push(c.range().start);
                break;
            }
            Err(e) => got.push(e.raw_os_error().unwrap_or(0) as u32),
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(got.last(), Some(&first), "drawn: {got:?}");
}

#[test]
fn a_block_with_a_running_process_is_never_drawn() {
    if !crate::is_root() {
        return; // only root can start a process of another uid
    }
    use std::os::unix::process::CommandExt;
    let busy = BUSY + 5;
    let mut other = std::process::Command::new("sleep")
        .arg("30")
        .uid(busy)
        .gid(busy)
        .spawn()
        .unwrap();
    // A lock directory of each draw's own: only the process tells the blocks apart.
    let drawn: Vec<u32> = (0..20)
        .map(|_| {
            let dir = tempfile::tempdir().unwrap();
            UidBlock::acquire_in(dir.path(), &two_blocks(BUSY))
                .unwrap()
                .range()
                .start
        })
        .collect();
    other.kill().unwrap();
    other.wait().unwrap();
    assert!(
        drawn.iter().all(|&first| first == BUSY + UID_BLOCK),
        "{drawn:?}"
    );
}

#[test]
fn this_process_maps_a_space_to_draw_from() {
    let space = UidSpace::of_this_process().unwrap();
    assert!(space.blocks() > 0, "{space:?}");
}
