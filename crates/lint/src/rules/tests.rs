use super::*;

#[test]
fn every_rule_says_what_it_cannot_see() {
    for rule in RULES {
        assert!(
            rule.blind.len() > 40 && rule.blind.ends_with('.'),
            "{}: what it cannot see is not said: {:?}",
            rule.code,
            rule.blind
        );
        assert!(
            explain(rule).contains(&format!("\n\nCannot see: {}\n", rule.blind)),
            "{}",
            rule.code
        );
    }
}
