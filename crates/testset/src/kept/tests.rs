use super::*;
use crate::course::tests::course;
use crate::course::Course;
use crate::source::Tests;

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

fn same_course(a: &Course, b: &Course) {
    assert_eq!(a, b);
    same(&a.draw("s"), &b.draw("s"));
}

/// The seeds of [`crate::draw::tests::test_set`] and [`course`].
const SET_SEED: [u8; 32] = [0x5e; 32];
const COURSE_SEED: [u8; 32] = [0x5c; 32];

/// Asserts that `T` of `seed` is kept, owner only, read back, and the same as `drawn`; and
/// that another seed's file in its place is not read.
fn kept_and_read_back<T: Keep>(seed: &Seed, drawn: &T, same: fn(&T, &T)) {
    let dir = tempfile::tempdir().unwrap();
    let (first, read) = kept::<T>(seed, dir.path());
    assert!(!read);
    same(&first, drawn);
    let path = path::<T>(seed, dir.path());
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{}: as secret as the seed", T::KIND);
    let (second, read) = kept::<T>(seed, dir.path());
    assert!(read);
    same(&second, drawn);
    let other = Seed::from_bytes([0x5d; 32]);
    std::fs::copy(&path, super::path::<T>(&other, dir.path())).unwrap();
    assert!(!kept::<T>(&other, dir.path()).1);
}

#[test]
fn a_seeds_set_is_kept_and_read_back() {
    let seed = Seed::from_bytes(SET_SEED);
    kept_and_read_back::<TestSet>(&seed, crate::draw::tests::test_set(), same);
}

#[test]
fn a_course_part_is_kept_and_read_back() {
    let seed = Seed::from_bytes(COURSE_SEED);
    kept_and_read_back::<Course>(&seed, course(), same_course);
}

#[test]
fn tests_draw_the_same_set_kept_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let seed = Seed::from_bytes(SET_SEED);
    let kept = Tests::Kept {
        seed,
        dir: dir.path().to_owned(),
    };
    for _ in 0..2 {
        same(&kept.draw(), crate::draw::tests::test_set());
    }
    assert_eq!(kept.seed(), seed);
    let course_seed = Seed::from_bytes(COURSE_SEED);
    let salted = Tests::Salted {
        course: course_seed,
        salt: "s".into(),
        dir: dir.path().to_owned(),
    };
    for _ in 0..2 {
        same(&salted.draw(), &course().draw("s"));
    }
    assert_eq!(salted.seed(), course_seed.derive("s"));
    assert_eq!(salted.draw().seed_id, salted.seed().id());
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let want = [
        format!("{}.course", course_seed.id()),
        format!("{}.testset", seed.id()),
    ];
    assert_eq!(files, want, "one file per seed, nothing left aside");
}

/// Asserts that a kept `T` of another build, changed, hashed without the seed or damaged is
/// not read: `T` is drawn again (and written, so that it is read next time).
fn not_read_unless_it_checks<T: Keep>(seed: &Seed, drawn: &T, same: fn(&T, &T)) {
    let dir = tempfile::tempdir().unwrap();
    let path = path::<T>(seed, dir.path());
    let redrawn = |why: &str| {
        let (made, read) = kept::<T>(seed, dir.path());
        assert!(!read, "{}: {why} is read", T::KIND);
        same(&made, drawn);
    };
    write(&path, seed, "another build", drawn).unwrap();
    redrawn("a file of another build");
    let good = std::fs::read(&path).unwrap();
    for at in [good.len() / 3, good.len() - 40, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        redrawn(&format!("a file changed at byte {at}"));
    }
    // A right file hashed with another seed than its own: no one without the seed makes it.
    let mut wrong = good[..good.len() - 32].to_vec();
    wrong.extend_from_slice(&mac(&Seed::from_bytes([0; 32]), &wrong.clone()));
    std::fs::write(&path, &wrong).unwrap();
    redrawn("a file hashed without the seed");
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    redrawn("a file cut short");
    std::fs::write(&path, b"").unwrap();
    redrawn("an empty file");
    assert!(kept::<T>(seed, dir.path()).1, "written when drawn again");
}

#[test]
fn a_kept_set_not_this_builds_or_changed_is_drawn_again() {
    let seed = Seed::from_bytes(SET_SEED);
    not_read_unless_it_checks::<TestSet>(&seed, crate::draw::tests::test_set(), same);
}

#[test]
fn a_kept_course_not_this_builds_or_changed_is_made_again() {
    let seed = Seed::from_bytes(COURSE_SEED);
    not_read_unless_it_checks::<Course>(&seed, course(), same_course);
}

#[test]
fn a_kept_set_whose_answers_are_not_crib_cores_is_drawn_again() {
    // With the seed, a file can be made that checks but holds a wrong expected value: the
    // items' values are crib-core's again as the set is read.
    let dir = tempfile::tempdir().unwrap();
    let seed = Seed::from_bytes(SET_SEED);
    let mut wrong = TestSet {
        seed_id: String::new(),
        fingerprint: String::new(),
        cases: Vec::new(),
        hand_value: crate::draw::tests::test_set().hand_value.clone(),
    };
    wrong.hand_value[7].expected += 1;
    let key = key::<TestSet>().unwrap();
    write(&path::<TestSet>(&seed, dir.path()), &seed, &key, &wrong).unwrap();
    let (set, read) = kept::<TestSet>(&seed, dir.path());
    assert!(!read);
    same(&set, crate::draw::tests::test_set());
}
