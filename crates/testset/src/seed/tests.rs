use super::*;

const A: Seed = Seed::from_bytes([7; SEED_BYTES]);

#[test]
fn hex_round_trips_and_bad_text_is_refused() {
    let text = format!("# a comment\n{}\n", A.to_hex());
    assert_eq!(Seed::parse(&text), Some(A));
    assert_eq!(Seed::parse("abc"), None);
    assert_eq!(Seed::parse(&"zz".repeat(SEED_BYTES)), None);
}

#[test]
fn the_id_and_derived_seeds_differ_from_the_seed_and_each_other() {
    let id = A.id();
    assert_eq!(id.len(), 16);
    assert!(!A.to_hex().contains(&id));
    assert_ne!(A.derive("1"), A.derive("2"));
    assert_eq!(A.derive("1"), A.derive("1"));
    assert_ne!(A.derive("1").id(), id);
    assert!(format!("{A:?}").contains(&id));
    assert!(!format!("{A:?}").contains(&A.to_hex()));
}

#[test]
fn dealers_depend_on_seed_purpose_and_index() {
    let first = |seed: Seed, purpose: &str, i: u64| seed.dealer(purpose, i).next_u64();
    let b = Seed::from_bytes([8; SEED_BYTES]);
    assert_eq!(first(A, "pool", 3), first(A, "pool", 3));
    assert_ne!(first(A, "pool", 3), first(A, "pool", 4));
    assert_ne!(first(A, "pool", 3), first(A, "random", 3));
    assert_ne!(first(A, "pool", 3), first(b, "pool", 3));
}

#[test]
fn a_written_seed_reads_back_and_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seed");
    let fresh = Seed::fresh().unwrap();
    fresh.write_new(&path).unwrap();
    assert_eq!(Seed::read(&path).unwrap(), fresh);
    assert!(fresh.write_new(&path).is_err());
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    std::fs::write(&path, "not a seed").unwrap();
    assert!(matches!(
        Seed::read(&path),
        Err(SeedError::Malformed { .. })
    ));
}
