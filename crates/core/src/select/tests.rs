use super::*;
use crate::{hand_value, parse_cards, Hand};

/// select_hand's totals recomputed the slow way: hand_value over every start not dealt.
fn brute_total(dealt: &[Card], keep: [Card; 4]) -> u32 {
    let hand = Hand::new(keep).unwrap();
    Card::deck()
        .filter(|c| !dealt.contains(c))
        .map(|s| u32::from(hand_value(&hand, s, Rule::Hand).unwrap()))
        .sum()
}

#[test]
fn totals_match_hand_value_over_every_start() {
    for dealt in [
        vec!["5H", "5S", "5C", "JD", "2C", "9H"],
        vec!["AS", "2D", "3H", "4S", "5C", "6D"],
        vec!["7C", "QH", "2C", "JC", "9H"],
    ] {
        let dealt = parse_cards(&dealt).unwrap();
        let keeps = rank_keeps(&dealt).unwrap();
        assert_eq!(keeps.len(), if dealt.len() == 6 { 15 } else { 5 });
        for k in &keeps {
            assert_eq!(k.total, brute_total(&dealt, k.keep));
            assert_eq!(k.starts as usize, 52 - dealt.len());
            let mut split: Vec<Card> = k.keep.iter().chain(k.discard()).copied().collect();
            split.sort();
            let mut sorted = dealt.clone();
            sorted.sort();
            assert_eq!(split, sorted, "keep and discard split the deal");
        }
        let best = select_hand(&dealt).unwrap();
        assert_eq!(
            best.best.total,
            keeps.iter().map(|k| k.total).max().unwrap()
        );
    }
}

#[test]
fn ties_are_reported_and_the_first_keep_wins() {
    // 2S and 2H are interchangeable beside 7C 8D 9H (no flush, no jack): the best keep ties.
    let dealt = parse_cards(&["7C", "8D", "9H", "2S", "2H", "KC"]).unwrap();
    let choice = select_hand(&dealt).unwrap();
    let keeps = rank_keeps(&dealt).unwrap();
    let tied: Vec<&Keep> = keeps
        .iter()
        .filter(|k| k.total == choice.best.total)
        .collect();
    assert_eq!(choice.ties.len(), 1);
    assert_eq!(tied.len(), 1 + choice.ties.len());
    assert_eq!(
        choice.best.keep,
        parse_cards(&["7C", "8D", "9H", "2S"]).unwrap()[..]
    );
    assert_eq!(
        *tied[0], choice.best,
        "the first keep in enumeration order wins a tie"
    );
}

#[test]
fn wrong_counts_and_repeats_are_errors() {
    let five = parse_cards(&["5C", "5D", "5H", "AH"]).unwrap();
    assert_eq!(
        select_hand(&five).unwrap_err(),
        CardError::Count {
            expected: "5 or 6 cards",
            got: 4
        }
    );
    let c = Card::parse("5C").unwrap();
    assert_eq!(
        select_hand(&[c, c, c, c, c]).unwrap_err(),
        CardError::Repeated { card: c }
    );
}

#[test]
fn keeps_are_every_four_of_five_and_six_in_order() {
    for (n, count) in [(5, 5), (6, 15)] {
        let keeps = keep_positions(n);
        assert_eq!(keeps.len(), count);
        assert!(keeps.windows(2).all(|w| w[0].0 < w[1].0), "lexicographic");
        for (kept, discarded) in keeps {
            let mut all: Vec<usize> = kept.iter().chain(&discarded[..n - 4]).copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..n).collect::<Vec<_>>(), "{kept:?} {discarded:?}");
        }
    }
    assert!(keep_positions(4).is_empty());
}
