use super::*;

#[test]
fn hands_enumerates_every_four_card_hand_once() {
    let mut n = 0;
    let mut last = None;
    for hand in hands() {
        assert!(hand.windows(2).all(|w| w[0] < w[1]));
        assert!(last < Some(hand), "lexicographic order");
        last = Some(hand);
        n += 1;
    }
    assert_eq!(n, 270_725); // C(52, 4)
    assert_eq!(starts_for(&last.unwrap()).count(), 48);
}

#[test]
fn crib_rule_scores_no_more_than_the_hand_rule() {
    let hand = score_distribution(Rule::Hand);
    let crib = score_distribution(Rule::Crib);
    assert_eq!(hand.shows(), PAIRS);
    assert_eq!(crib.shows(), PAIRS);
    assert!(crib.mean() < hand.mean());
}

#[test]
fn parse_rejects_a_missing_header_and_bad_rows_naming_the_line() {
    assert!(ScoreCounts::parse("0\t5\n").is_err());
    let err = ScoreCounts::parse("points\tcount\n30\t1\n").unwrap_err();
    assert_eq!(err.to_string(), "line 2: points \"30\" is not 0..=29");
    assert_eq!(
        ScoreCounts::parse("points\tcount\n3 1\n").unwrap_err().line,
        2
    );
    assert!(ScoreCounts::parse("points\tcount\n3\tmany\n").is_err());
}
