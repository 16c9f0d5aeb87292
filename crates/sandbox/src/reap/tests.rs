use super::*;

#[test]
fn no_process_has_an_unused_uid() {
    assert!(processes_of(99_999).is_empty());
    assert!(end_uid(99_999));
}

#[test]
fn our_own_uid_has_this_process() {
    // SAFETY: getuid and getpid cannot fail.
    let (uid, pid) = unsafe { (libc::getuid(), libc::getpid()) };
    assert!(processes_of(uid).iter().any(|p| p.pid == pid && !p.zombie));
}
