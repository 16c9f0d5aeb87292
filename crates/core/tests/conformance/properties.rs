//! Properties of hand_value that must hold for every show.

use crib_core::{hand_value, Card, Hand, Rule, Suit};
use proptest::prelude::*;

/// Five distinct cards: four for the hand, then the start.
fn show() -> impl Strategy<Value = ([Card; 4], Card)> {
    proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 5)
        .prop_shuffle()
        .prop_map(|ix| {
            let c = ix
                .iter()
                .map(|&i| Card::from_index(i).unwrap())
                .collect::<Vec<_>>();
            ([c[0], c[1], c[2], c[3]], c[4])
        })
}

fn value(hand: [Card; 4], start: Card, rule: Rule) -> u8 {
    hand_value(&Hand::new(hand).unwrap(), start, rule).unwrap()
}

proptest! {
    #[test]
    fn reordering_the_hand_changes_nothing((hand, start) in show(), perm in Just([0usize, 1, 2, 3]).prop_shuffle()) {
        let reordered = perm.map(|i| hand[i]);
        for rule in [Rule::Hand, Rule::Crib] {
            prop_assert_eq!(value(hand, start, rule), value(reordered, start, rule));
        }
    }

    #[test]
    fn permuting_suits_consistently_changes_nothing((hand, start) in show(), suits in Just(Suit::ALL).prop_shuffle()) {
        let map = |c: Card| Card::new(c.rank(), suits[c.suit().index() as usize]);
        for rule in [Rule::Hand, Rule::Crib] {
            prop_assert_eq!(value(hand, start, rule), value(hand.map(map), map(start), rule));
        }
    }

    #[test]
    fn the_crib_rule_differs_only_by_a_four_card_flush((hand, start) in show()) {
        let diff = value(hand, start, Rule::Hand) - value(hand, start, Rule::Crib);
        let four_flush = hand.iter().all(|c| c.suit() == hand[0].suit()) && start.suit() != hand[0].suit();
        prop_assert_eq!(diff, if four_flush { 4 } else { 0 });
    }

    #[test]
    fn no_show_scores_19_25_26_27_or_over_29((hand, start) in show()) {
        let v = value(hand, start, Rule::Hand);
        prop_assert!(v <= 29 && ![19, 25, 26, 27].contains(&v));
    }
}

proptest! {
    #[test]
    fn total_over_is_the_sum_of_values((hand, _) in show(), starts in any::<u64>(), crib in any::<bool>()) {
        let rule = if crib { Rule::Crib } else { Rule::Hand };
        let starts = crib_core::CardSet::from_bits(starts) & crib_core::CardSet::of(&hand).complement();
        let prepared = crib_core::PreparedHand::new(&Hand::new(hand).unwrap());
        let sum: u32 = Card::deck()
            .filter(|&c| starts.contains(c))
            .map(|c| u32::from(prepared.value(c, rule)))
            .sum();
        prop_assert_eq!(prepared.total_over(starts, rule), sum);
    }
}
