use super::*;

#[test]
fn names_match_the_json() {
    let v = Verdict::Timeout {
        limit_ms: 1000,
        killed: true,
        wall: false,
    };
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["verdict"], v.name());
    assert_eq!(json["killed"], true);
}
