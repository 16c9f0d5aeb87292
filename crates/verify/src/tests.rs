#[test]
fn groups_digits_by_three() {
    assert_eq!(super::grouped(0), "0");
    assert_eq!(super::grouped(999), "999");
    assert_eq!(super::grouped(12_994_800), "12,994,800");
}
