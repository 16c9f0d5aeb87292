use super::*;

/// The cards of `tokens`, repeats kept (`parse_cards` refuses them).
fn cards(tokens: &[&str]) -> Vec<Card> {
    tokens.iter().map(|t| card(t)).collect()
}

fn card(token: &str) -> Card {
    Card::parse(token).unwrap()
}

const SIX: [&str; 6] = ["5H", "5S", "5C", "JD", "2C", "9H"];
const FIVE: [&str; 5] = ["7C", "QH", "2C", "JC", "9H"];

fn judge(dealt: &[&str], hand: &[&str], crib: &[&str]) -> KeepJudgement {
    judge_keep(&cards(dealt), &cards(hand), &cards(crib)).unwrap()
}

#[test]
fn every_keep_of_a_deal_is_judged_a_keep_with_its_rank() {
    for dealt in [&SIX[..], &FIVE[..]] {
        let dealt = cards(dealt);
        let keeps = rank_keeps(&dealt).unwrap();
        for k in &keeps {
            // Either order within the hand and the crib.
            let mut hand = k.keep;
            hand.reverse();
            let mut crib = k.discard().to_vec();
            crib.reverse();
            let got = judge_keep(&dealt, &hand, &crib).unwrap();
            let better = keeps.iter().filter(|o| o.total > k.total).count();
            assert_eq!(
                got,
                KeepJudgement::Keep {
                    keep: *k,
                    best_total: keeps[0].total,
                    better
                }
            );
        }
    }
}

#[test]
fn tied_best_keeps_are_all_best() {
    // 2S and 2H are interchangeable beside 7C 8D 9H.
    let dealt = ["7C", "8D", "9H", "2S", "2H", "KC"];
    let best = |hand, crib| {
        matches!(
            judge(&dealt, hand, crib),
            KeepJudgement::Keep { better: 0, .. }
        )
    };
    assert!(best(&["7C", "8D", "9H", "2S"], &["2H", "KC"]));
    assert!(best(&["7C", "8D", "9H", "2H"], &["2S", "KC"]));
}

#[test]
fn a_five_card_deal_has_one_card_in_the_crib() {
    let got = judge(&FIVE, &["7C", "2C", "JC", "9H"], &["QH"]);
    assert!(matches!(got, KeepJudgement::Keep { keep, .. } if keep.discard() == [card("QH")]));
    assert_eq!(
        judge(&FIVE, &["7C", "2C", "JC", "9H"], &[]),
        KeepJudgement::Wrong(KeepError::Missing { card: card("QH") })
    );
    assert_eq!(
        judge(&FIVE, &["7C", "2C", "JC", "9H"], &["QH", "QH"]),
        KeepJudgement::Wrong(KeepError::Repeated { card: card("QH") })
    );
}

#[test]
fn each_fault_names_its_card() {
    let wrong = |hand: &[&str], crib: &[&str]| match judge(&SIX, hand, crib) {
        KeepJudgement::Wrong(fault) => fault,
        keep => panic!("{hand:?} {crib:?}: {keep:?}"),
    };
    let cases = [
        // Three cards kept, or five.
        (
            &["5H", "5S", "5C"][..],
            &["JD", "2C", "9H"][..],
            KeepError::HandSize { got: 3 },
        ),
        (
            &["5H", "5S", "5C", "JD", "2C"],
            &["9H"],
            KeepError::HandSize { got: 5 },
        ),
        // Hand and crib swapped.
        (
            &["2C", "9H"],
            &["5H", "5S", "5C", "JD"],
            KeepError::HandSize { got: 2 },
        ),
        (
            &["5H", "5S", "5C", "AS"],
            &["JD", "2C"],
            KeepError::NotDealt {
                card: card("AS"),
                side: Side::Hand,
            },
        ),
        (
            &["5H", "5S", "5C", "JD"],
            &["2C", "AS"],
            KeepError::NotDealt {
                card: card("AS"),
                side: Side::Crib,
            },
        ),
        // A card kept twice, a card kept and discarded, a card discarded twice.
        (
            &["5H", "5H", "5C", "JD"],
            &["2C", "9H"],
            KeepError::Repeated { card: card("5H") },
        ),
        (
            &["5H", "5S", "5C", "JD"],
            &["JD", "2C"],
            KeepError::Repeated { card: card("JD") },
        ),
        (
            &["5H", "5S", "5C", "JD"],
            &["2C", "2C"],
            KeepError::Repeated { card: card("2C") },
        ),
        // Too few in the crib, too many: a card missing, a card repeated.
        (
            &["5H", "5S", "5C", "JD"],
            &["2C"],
            KeepError::Missing { card: card("9H") },
        ),
        (
            &["5H", "5S", "5C", "JD"],
            &["2C", "9H", "9H"],
            KeepError::Repeated { card: card("9H") },
        ),
    ];
    for (hand, crib, fault) in cases {
        assert_eq!(wrong(hand, crib), fault, "{hand:?} {crib:?}");
    }
}

#[test]
fn faults_read_as_sentences() {
    let cases = [
        (
            KeepError::HandSize { got: 3 },
            "the hand has 3 cards, not 4",
        ),
        (
            KeepError::NotDealt {
                card: card("AS"),
                side: Side::Hand,
            },
            "AS in the hand was not dealt",
        ),
        (
            KeepError::Repeated { card: card("5H") },
            "5H is given twice",
        ),
        (
            KeepError::Missing { card: card("9H") },
            "9H was dealt but is in neither the hand nor the crib",
        ),
    ];
    for (fault, text) in cases {
        assert_eq!(fault.to_string(), text);
    }
}

#[test]
fn a_bad_deal_is_an_error() {
    let four = cards(&["5H", "5S", "5C", "JD"]);
    assert!(matches!(
        judge_keep(&four, &four, &[]),
        Err(CardError::Count { got: 4, .. })
    ));
    let twice = cards(&["5H", "5S", "5C", "JD", "5H"]);
    assert!(matches!(
        judge_keep(&twice, &four, &[]),
        Err(CardError::Repeated { .. })
    ));
}
