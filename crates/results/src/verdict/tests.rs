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

#[test]
fn students_read_a_suboptimal_keep_in_words() {
    let cards = |text: &str| Cards(crib_core::parse_card_list(text).unwrap());
    let keep = |k: &str, d: &str, ev: f64| KeepValue {
        keep: cards(k),
        discard: cards(d),
        total: 0,
        expected_value: ev,
    };
    let v = Verdict::Suboptimal {
        chosen: keep("2D 4S AS 9C", "KD 3H", 4.6087),
        best: vec![keep("4S 2D 9C 3H", "KD AS", 8.087)],
    };
    let words = v.words();
    assert!(!words.contains("suboptimal"), "{words}");
    assert_eq!(
        words,
        "not the best keep: you kept 2D 4S AS 9C (discarding KD 3H), worth 4.6087 on average \
         over the possible start cards; the best: 4S 2D 9C 3H (discarding KD AS), worth 8.0870"
    );
    assert!(
        v.describe().starts_with("suboptimal: "),
        "staff keep the code"
    );
    assert_eq!(Verdict::NoSolution.words(), "no answer: the goal failed");
}
