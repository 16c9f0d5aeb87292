use super::*;

/// Asserts that `a` and `b` are the same test set, case by case and item by item.
pub(crate) fn same(a: &TestSet, b: &TestSet) {
    assert_eq!(a.fingerprint, b.fingerprint);
    assert_eq!(a.seed_id, b.seed_id);
    assert_eq!(a.hand_value, b.hand_value);
    assert_eq!(a.cases.len(), b.cases.len());
    for (x, y) in a.cases.iter().zip(&b.cases) {
        assert_eq!((&x.id, x.source, &x.cards), (&y.id, y.source, &y.cards));
        assert_eq!(x.keeps, y.keeps);
    }
}

#[test]
fn a_kept_set_is_the_drawn_set_and_is_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let seed = Seed::from_bytes([0x5e; 32]);
    let drawn = crate::draw::tests::test_set();
    let (first, how) = TestSet::kept(&seed, dir.path());
    assert_eq!(how, Kept::Drawn);
    same(&first, drawn);
    let path = kept_path(&seed, dir.path());
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(
        mode & 0o777,
        0o600,
        "the kept set holds every expected answer"
    );
    let (second, how) = TestSet::kept(&seed, dir.path());
    assert_eq!(how, Kept::Read);
    same(&second, drawn);
}

#[test]
fn a_kept_set_of_another_build_or_damaged_is_drawn_again() {
    let dir = tempfile::tempdir().unwrap();
    let seed = Seed::from_bytes([0x5e; 32]);
    let drawn = crate::draw::tests::test_set();
    let path = kept_path(&seed, dir.path());
    write(&path, drawn, "another build").unwrap();
    let (set, how) = TestSet::kept(&seed, dir.path());
    assert_eq!(how, Kept::Drawn, "a file of another build is not read");
    same(&set, drawn);
    let tamper = |change: &dyn Fn(&mut KeptSet)| {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut kept: KeptSet = serde_json::from_str(&text).unwrap();
        change(&mut kept);
        std::fs::write(&path, serde_json::to_vec(&kept).unwrap()).unwrap();
    };
    // An item's cards changed: the fingerprint differs.
    tamper(&|kept| kept.items[0].1.swap(0, 4));
    let (set, how) = TestSet::kept(&seed, dir.path());
    assert_eq!(how, Kept::Drawn, "a file whose items differ is not read");
    same(&set, drawn);
    // An expected value changed (the fingerprint does not see answers): crib-core's is checked.
    tamper(&|kept| kept.items[7].3 += 1);
    let (set, how) = TestSet::kept(&seed, dir.path());
    assert_eq!(
        how,
        Kept::Drawn,
        "a file whose expected answers differ is not read"
    );
    same(&set, drawn);
    std::fs::write(&path, b"{ not json").unwrap();
    let (set, how) = TestSet::kept(&seed, dir.path());
    assert_eq!(how, Kept::Drawn);
    same(&set, drawn);
}
