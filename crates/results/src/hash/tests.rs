use super::*;

#[test]
fn matches_the_published_fnv1a_vectors() {
    // From the FNV reference test suite (draft-eastlake-fnv, 64-bit FNV-1a).
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn feeding_in_parts_hashes_the_concatenation() {
    assert_eq!(fnv1a_from(fnv1a(b"foo"), b"bar"), fnv1a(b"foobar"));
}
