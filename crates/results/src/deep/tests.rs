use super::*;

#[test]
fn percentages_say_100_only_when_exact() {
    assert_eq!(percent(1.0), "100%");
    assert_eq!(percent(0.99999), "99.9%");
    assert_eq!(percent(0.0), "0%");
    assert_eq!(percent(0.123), "12.3%");
    assert_eq!(thousands(12_994_800), "12,994,800");
    assert_eq!(thousands(800), "800");
}
