use super::*;
use crate::{hand_value, parse_cards, rank_keeps, Hand};

/// The crib analysis recomputed the slow way: every opponent discard, every start card,
/// [`hand_value`] for the hand and the crib, outcome by outcome.
fn brute(deal: &[Card], keep: [Card; 4], discard: [Card; 2]) -> [Spread; 4] {
    let unseen: Vec<Card> = Card::deck().filter(|c| !deal.contains(c)).collect();
    let hand = Hand::new(keep).unwrap();
    let mut acc = [(0i64, 0i64, i64::MAX, i64::MIN); 4];
    for (i, &o1) in unseen.iter().enumerate() {
        for &o2 in &unseen[i + 1..] {
            let crib = Hand::new([discard[0], discard[1], o1, o2]).unwrap();
            for &start in unseen.iter().filter(|&&s| s != o1 && s != o2) {
                let h = i64::from(hand_value(&hand, start, Rule::Hand).unwrap());
                let c = i64::from(hand_value(&crib, start, Rule::Crib).unwrap());
                for (a, v) in acc.iter_mut().zip([h, c, h + c, h - c]) {
                    *a = (a.0 + v, a.1 + v * v, a.2.min(v), a.3.max(v));
                }
            }
        }
    }
    acc.map(|(sum, sq, min, max)| Spread {
        outcomes: CRIB_OUTCOMES,
        sum,
        sum_of_squares: sq as u64,
        min: min as i32,
        max: max as i32,
    })
}

fn deals() -> Vec<Vec<Card>> {
    [
        // suited discards in the jack's suit: crib flushes and nobs
        ["JH", "5H", "4H", "KH", "5C", "JD"],
        ["5H", "5S", "5C", "JD", "2C", "9H"],
        // the jacks of every suit but one are dealt
        ["JC", "JD", "JS", "2S", "3S", "QS"],
    ]
    .iter()
    .map(|d| parse_cards(d).unwrap())
    .collect()
}

#[test]
fn every_keep_matches_the_outcome_by_outcome_count() {
    for deal in deals() {
        let keeps = analyze_crib(&deal).unwrap();
        assert_eq!(keeps.len(), 15);
        // The brute force is slow in debug builds: check every keep of the first deal, and
        // a few of the others.
        let step = if deal == deals()[0] { 1 } else { 5 };
        for k in keeps.iter().step_by(step) {
            let [hand, crib, dealer, pone] = brute(&deal, k.keep, k.discard);
            assert_eq!(k.hand, hand, "hand of {:?}", k.keep);
            assert_eq!(k.crib, crib, "crib of {:?}", k.discard);
            assert_eq!(k.dealer, dealer, "dealer with {:?}", k.keep);
            assert_eq!(k.pone, pone, "pone with {:?}", k.keep);
        }
    }
}

#[test]
fn the_hand_part_is_select_hands_total_and_keeps_are_in_enumeration_order() {
    for deal in deals() {
        let keeps = analyze_crib(&deal).unwrap();
        let mut plain = rank_keeps(&deal).unwrap();
        plain.sort_by_key(|k| {
            keeps
                .iter()
                .position(|c| c.keep == k.keep)
                .expect("same keeps")
        });
        for (c, k) in keeps.iter().zip(&plain) {
            assert_eq!(c.discard, [k.discard()[0], k.discard()[1]]);
            assert_eq!(c.hand.sum, 990 * i64::from(k.total));
            assert!((c.hand.mean() - k.expected_value()).abs() < 1e-12);
        }
        let positions: Vec<usize> = keeps
            .iter()
            .map(|k| {
                k.keep
                    .iter()
                    .fold(0, |m, c| m | 1 << deal.iter().position(|d| d == c).unwrap())
            })
            .collect();
        let mut sorted = positions.clone();
        sorted.sort_by_key(|m: &usize| (0..6).filter(|i| m >> i & 1 == 1).collect::<Vec<_>>());
        assert_eq!(positions, sorted);
    }
}

#[test]
fn spread_statistics_are_consistent() {
    for deal in deals() {
        for k in analyze_crib(&deal).unwrap() {
            for s in [k.hand, k.crib, k.dealer, k.pone] {
                assert!(f64::from(s.min) <= s.mean() && s.mean() <= f64::from(s.max));
                assert!(s.std_dev() >= 0.0);
                assert!(s.std_dev() <= f64::from(s.max - s.min));
            }
            assert!(k.crib.min >= 0 && k.crib.max <= 29);
        }
    }
}

#[test]
fn only_six_distinct_cards_are_accepted() {
    let five = parse_cards(&["5C", "5D", "5H", "AH", "AS"]).unwrap();
    assert_eq!(
        analyze_crib(&five).unwrap_err(),
        CardError::Count {
            expected: "6",
            got: 5
        }
    );
    let c = Card::parse("5C").unwrap();
    assert_eq!(
        analyze_crib(&[c; 6]).unwrap_err(),
        CardError::Repeated { card: c }
    );
}
