use super::*;

use crate::seed::Seed;

fn items() -> &'static [PatternItem] {
    static ITEMS: std::sync::OnceLock<Vec<PatternItem>> = std::sync::OnceLock::new();
    ITEMS.get_or_init(|| crate::patterns::items(&Seed::from_bytes([0x5e; 32])))
}

#[test]
fn the_rules_points_add_up_to_crib_cores_value() {
    for item in items() {
        let points = rule_points(item);
        assert_eq!(points.total(), u32::from(item.expected), "{:?}", item.cards);
        assert_eq!(points.total_with(&[]), points.total());
    }
}

#[test]
fn each_catalog_model_names_one_file_once_and_gets_some_pairs_wrong() {
    let ids: Vec<&str> = HAND_VALUE_MISTAKES.iter().map(|m| m.id).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(ids, sorted, "sorted by id, each once");
    let points: Vec<RulePoints> = items().iter().map(rule_points).collect();
    for HandValueMistake { id, model } in HAND_VALUE_MISTAKES {
        if let HandValueModel::Counts(mistakes) = model {
            let mut rules: Vec<usize> = mistakes.iter().map(|m| rule_index(m.family())).collect();
            rules.dedup();
            assert_eq!(rules.len(), mistakes.len(), "{id}: one mistake a rule");
        }
        let share = model.share_wrong(items(), &points);
        let all = matches!(model, HandValueModel::NoInteger);
        assert!(share > 0.0 && (share < 1.0 || all), "{id}: {share}");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../grade/tests/mistakes")
            .join(format!("{id}.pl"));
        assert!(path.is_file(), "{id}: no {}", path.display());
    }
}

#[test]
fn a_model_right_everywhere_gets_nothing_wrong() {
    let points: Vec<RulePoints> = items().iter().map(rule_points).collect();
    let share = HandValueModel::Counts(&[]).share_wrong(items(), &points);
    assert!(share == 0.0 && share.is_sign_positive(), "{share}");
}
