use super::*;
use crate::{parse_cards, score_distribution};

/// The points of each rule, in [`RULES`] order.
fn by_rule(p: Points) -> [u8; 5] {
    [p.fifteens, p.pairs, p.runs, p.flush, p.nob]
}

#[test]
fn the_split_agrees_with_the_breakdown_on_a_spread_of_shows() {
    let table = split_table();
    for (i, cards) in crate::hands().enumerate().filter(|(i, _)| i % 499 == 0) {
        // the table must not depend on the order of the hand's cards
        for hand in [cards, [cards[3], cards[1], cards[0], cards[2]]] {
            let checked = Hand::new(hand).unwrap();
            for start in crate::starts_for(&hand) {
                for rule in [Rule::Hand, Rule::Crib] {
                    let want = by_rule(Breakdown::new(&checked, start, rule).unwrap().points());
                    assert_eq!(
                        table.points(hand, start, rule),
                        want,
                        "hand #{i} {hand:?} {start}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_split_agrees_with_the_breakdown_on_jacks_and_flushes() {
    let table = split_table();
    let shows = [
        ["5H", "5S", "5C", "JD", "5D"],
        ["JH", "JD", "JC", "JS", "5H"],
        ["2H", "4H", "6H", "JH", "8H"],
        ["2H", "4H", "6H", "JH", "8C"],
        ["2H", "4H", "6H", "JC", "8H"],
        ["JC", "4H", "6H", "8H", "TH"],
        ["7H", "8H", "9H", "TH", "JS"],
    ];
    for show in shows {
        let cards = parse_cards(&show).unwrap();
        let hand = Hand::from_slice(&cards[..4]).unwrap();
        for rule in [Rule::Hand, Rule::Crib] {
            let want = by_rule(Breakdown::new(&hand, cards[4], rule).unwrap().points());
            assert_eq!(
                table.points(hand.cards(), cards[4], rule),
                want,
                "{show:?} {rule:?}"
            );
        }
    }
}

#[test]
fn every_pair_is_counted_at_its_total() {
    // One full sweep (slow in a debug build); `cargo xtask fixtures` checks the crib rule too.
    let split = rule_distribution(Rule::Hand);
    let totals = score_distribution(Rule::Hand);
    for (score, tally) in split.0.iter().enumerate() {
        assert_eq!(tally.shows, totals.0[score], "score {score}");
        assert_eq!(tally.points.iter().sum::<u64>(), score as u64 * tally.shows);
    }
    assert_eq!(split.overall().shows, crate::PAIRS);
    // 29 is 5-5-5-J with the fourth five cut in the jack's suit: one show per suit
    let top = split.0[29];
    assert_eq!(top.shows, 4);
    assert_eq!(top.scoring, [4, 4, 0, 0, 4]);
    assert_eq!(top.points, [4 * 16, 4 * 12, 0, 0, 4]);
}

#[test]
fn fifteen_ways_name_the_bad_line() {
    let err = FifteenWays::parse("cards\tways\n2\t3\n6\t1\n").unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.problem.contains("\"6\""), "{err}");
    assert!(FifteenWays::parse("2\t3\n").is_err(), "no header");
}
