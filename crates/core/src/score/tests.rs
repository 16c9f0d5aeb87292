use super::*;
use crate::parse_cards;

fn show(cards: &[&str]) -> (Hand, Card) {
    let cards = parse_cards(cards).unwrap();
    (Hand::from_slice(&cards[..4]).unwrap(), cards[4])
}

#[test]
fn the_table_agrees_with_the_breakdown_on_every_show_with_the_first_hand_cards() {
    // The fast path and the breakdown share the rule functions; check they also agree once
    // flush and nob are added, over every start for a spread of hands.
    for (i, hand) in crate::hands().enumerate().filter(|(i, _)| i % 997 == 0) {
        let hand = Hand::new(hand).unwrap();
        for start in crate::starts_for(&hand.cards()) {
            for rule in [Rule::Hand, Rule::Crib] {
                let total = Breakdown::new(&hand, start, rule).unwrap().points().total();
                assert_eq!(
                    hand_value(&hand, start, rule).unwrap(),
                    total,
                    "hand #{i} {hand:?} {start}"
                );
            }
        }
    }
}

#[test]
fn a_start_card_in_the_hand_is_an_error() {
    let (hand, _) = show(&["5H", "5S", "5C", "JD", "5D"]);
    let five = Card::parse("5H").unwrap();
    assert_eq!(
        hand_value(&hand, five, Rule::Hand),
        Err(CardError::StartInHand { card: five })
    );
    assert!(Breakdown::new(&hand, five, Rule::Hand).is_err());
}

#[test]
fn runs_take_only_the_longest() {
    // 2 3 4 5 and 3 4 5 inside it: one run of four, not a run of four plus runs of three.
    let (hand, start) = show(&["2C", "3D", "4H", "5S", "9C"]);
    let b = Breakdown::new(&hand, start, Rule::Hand).unwrap();
    assert_eq!(b.runs.len(), 1);
    assert_eq!(b.points().runs, 4);
}

#[test]
fn a_pair_outside_a_run_does_not_double_it() {
    // 3 4 5 with a pair of nines: one run of three and one pair.
    let (hand, start) = show(&["3C", "4D", "5H", "9S", "9C"]);
    let p = Breakdown::new(&hand, start, Rule::Hand).unwrap().points();
    assert_eq!((p.runs, p.pairs), (3, 2));
}

#[test]
fn nob_names_the_jack() {
    let (hand, start) = show(&["JH", "2C", "4D", "6S", "8H"]);
    let b = Breakdown::new(&hand, start, Rule::Hand).unwrap();
    assert_eq!(b.nob, Some(Card::parse("JH").unwrap()));
}

#[test]
fn rank_table_covers_every_ordering_alike() {
    let table = rank_table();
    assert_eq!(table.len(), 13usize.pow(5));
    // 5 5 5 J 5 in any order: 16 for fifteens + 12 for pairs
    let index = |r: [usize; 5]| r.iter().fold(0, |i, &r| i * 13 + r);
    assert_eq!(table[index([4, 4, 4, 10, 4])], 28);
    assert_eq!(table[index([10, 4, 4, 4, 4])], 28);
}
