use super::*;

#[test]
fn visibility_policies_parse_by_name() {
    for policy in VisibilityPolicy::ALL {
        assert_eq!(policy.to_string().parse::<VisibilityPolicy>(), Ok(policy));
    }
    let err = "public"
        .parse::<VisibilityPolicy>()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"public\"") && err.contains("examples-visible"),
        "{err}"
    );
    assert_eq!(VisibilityPolicy::default(), VisibilityPolicy::AllVisible);
}
