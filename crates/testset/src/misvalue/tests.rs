use crib_core::{parse_cards, CardSet, Dealer, PreparedHand, Rule};

use super::*;

fn cards(tokens: &[&str]) -> Vec<Card> {
    parse_cards(tokens).expect("test cards are written correctly")
}

fn keep(tokens: &[&str]) -> [Card; 4] {
    cards(tokens).try_into().expect("four cards")
}

fn of(points: &PartPoints, part: Part) -> u32 {
    points[part.index()]
}

#[test]
fn every_part_is_at_its_index() {
    for (i, part) in Part::ALL.into_iter().enumerate() {
        assert_eq!(part.index(), i);
    }
}

/// The whole parts (the rules) add up to crib-core's value, summed over every start not
/// dealt, on a seeded sample of keeps; and every narrower part is within its rule.
#[test]
fn rules_add_up_to_the_value_and_parts_stay_within_their_rule() {
    let mut dealer = Dealer::new(26);
    for _ in 0..3000 {
        let dealt = dealer.deal(6);
        let kept: [Card; 4] = dealt[..4].try_into().expect("six cards");
        let starts = CardSet::of(&dealt).complement();
        let (points, _) = keep_points(&kept, starts);
        let rules = [
            Part::Fifteens,
            Part::Pairs,
            Part::Runs,
            Part::Flush4,
            Part::Flush5,
            Part::Nob,
        ];
        let sum: u32 = rules.iter().map(|&p| of(&points, p)).sum();
        let hand = PreparedHand::from_cards(kept);
        assert_eq!(sum, hand.total_over(starts, Rule::Hand), "{dealt:?}");
        for (narrow, rule) in [
            (Part::FifteensWithStart, Part::Fifteens),
            (Part::FifteensWithAce, Part::Fifteens),
            (Part::FifteensWithFace, Part::Fifteens),
            (Part::FifteensWithTen, Part::Fifteens),
            (Part::FifteensOfThreePlus, Part::Fifteens),
            (Part::FifteensOfFourPlus, Part::FifteensOfThreePlus),
            (Part::FifteensWithRepeatedValue, Part::Fifteens),
            (Part::PairsWithStart, Part::Pairs),
            (Part::PairsInTrips, Part::Pairs),
            (Part::RunsWithStart, Part::Runs),
            (Part::RunsSeveral, Part::Runs),
            (Part::RunsOfFourPlus, Part::Runs),
            (Part::RunsWithFace, Part::Runs),
            (Part::RunsWithAce, Part::Runs),
        ] {
            assert!(
                of(&points, narrow) <= of(&points, rule),
                "{narrow:?} of {dealt:?}"
            );
        }
    }
}

#[test]
fn a_double_run_with_three_of_a_kind() {
    // 3 4 4 4 5: three runs of three (9), three pairs (6), all in trips; with the start 4,
    // two of the pairs and every run use the start.
    let (points, _) = keep_points(
        &keep(&["3H", "4S", "4D", "5C"]),
        CardSet::of(&cards(&["4C"])),
    );
    assert_eq!(
        (of(&points, Part::Runs), of(&points, Part::RunsSeveral)),
        (9, 9)
    );
    assert_eq!(
        (
            of(&points, Part::RunsWithStart),
            of(&points, Part::RunsOfFourPlus)
        ),
        (3, 0)
    );
    assert_eq!(
        (of(&points, Part::Pairs), of(&points, Part::PairsInTrips)),
        (6, 6)
    );
    assert_eq!(of(&points, Part::PairsWithStart), 4);
    // 4 5 6 (fifteen) with each four, 5 + 4 + 3 + ... : 4+5+6 is absent (no six); 3+4+4+4 = 15
    assert_eq!(of(&points, Part::FifteensOfFourPlus), 2);
}

#[test]
fn flush_and_nob_by_the_start_suit() {
    let hand = keep(&["2H", "6H", "9H", "JH"]);
    let (points, _) = keep_points(&hand, CardSet::of(&cards(&["KH", "KS", "KD"])));
    assert_eq!(of(&points, Part::Flush5), 5);
    assert_eq!(of(&points, Part::Flush4), 8);
    assert_eq!(of(&points, Part::Nob), 1);
}

/// Each rank mistake gives, on the first counterexample of its submission in
/// `tests/mistakes/README.md`, what the submission answered there.
#[test]
fn rank_mistakes_answer_as_their_submissions_do() {
    for (mistake, show, got) in [
        (RuleMistake::FifteensAceEleven, "5H 9S AH 7S 9H", 2),
        (RuleMistake::FifteensFacesByRank, "QH 4C AH 6S AD", 2),
        (RuleMistake::FifteensOnce, "QS 4H 7S 4S 4C", 8),
        (RuleMistake::FifteensOnePoint, "QS 4H 7S 4S 4C", 9),
        (RuleMistake::FifteensDistinctValues, "QS 4H 7S 4S 4C", 6),
        (RuleMistake::FifteensTensIgnored, "TC 5D KS 6H 4D", 7),
        (RuleMistake::PairsOnePoint, "QS 4H 7S 4S 4C", 9),
        (RuleMistake::RunsAceHigh, "2D QC AD KC TD", 3),
        (RuleMistake::RunsFacesAsTen, "JS 3H 4S QC TH", 0),
        (RuleMistake::RunsLengthMinusOne, "3H 2S 2H QS 4C", 10),
        (RuleMistake::RunsOnePointEach, "3H 2S 2H QS 4C", 8),
        (RuleMistake::RunsWrapAround, "7S KH 2H AC 6D", 5),
        (RuleMistake::RunsEverySubrun, "5S 8S 6S 7S 4C", 30),
        (RuleMistake::RunsOnlyThree, "5S 8S 6S 7S 4C", 17),
        (RuleMistake::RunsContiguousOnly, "3H 2S 2H QS 4C", 9),
        (RuleMistake::RunsDistinctRanks, "3H 2S 2H QS 4C", 9),
        (RuleMistake::RunsNoStart, "3H 2S 2H QS 4C", 6),
        (RuleMistake::RunsAceHigh, "3H 2S AH QS 4C", 8),
        (RuleMistake::RunsFiveAsTwoFours, "5S 8S 6S 7S 4C", 16),
        (RuleMistake::PairsAdjacentOnly, "QS 4H 7S 4S 4C", 10),
    ] {
        let cards = cards(&show.split(' ').collect::<Vec<_>>());
        let hand: [Card; 4] = cards[..4].try_into().expect("five cards");
        let (_, mistaken) = keep_points(&hand, CardSet::of(&cards[4..]));
        let k = rank_index(mistake).expect("a rank mistake");
        assert_eq!(mistaken[k], got, "{mistake:?} on {show}");
    }
    for (i, mistake) in RANK_MISTAKES.into_iter().enumerate() {
        assert_eq!(rank_index(mistake), Some(i));
    }
    let ranked = RuleMistake::ALL
        .iter()
        .filter(|&&m| rank_index(m).is_some());
    assert_eq!(ranked.count(), RANK_MISTAKES.len());
}

#[test]
fn four_cards_alone() {
    // 5 5 J J of hearts and clubs: fifteens 5+J four ways (8), two pairs (4)
    assert_eq!(four_card_value(&keep(&["5H", "5C", "JH", "JC"])), 12);
    // 3 4 5 6 of spades: 4 + 5 + 6 (2), a run of four (4), the flush (4)
    assert_eq!(four_card_value(&keep(&["3S", "4S", "5S", "6S"])), 10);
}

#[test]
fn gains_and_runs_of_the_four_cards() {
    // Three hearts and a heart start: the four-of-five flush a mistake scores; the jack of
    // clubs is not the start's suit.
    let (points, _) = keep_points(
        &keep(&["2H", "6H", "9H", "JC"]),
        CardSet::of(&cards(&["KH"])),
    );
    assert_eq!(points[Part::FlushOfThreeAndStart.index()], 4);
    assert_eq!(points[Part::NobOtherJack.index()], 1);
    assert_eq!(
        (points[Part::Flush.index()], points[Part::Nob.index()]),
        (0, 0)
    );
    assert!(holds_run(&keep(&["9H", "TS", "JC", "2D"])));
    assert!(!holds_run(&keep(&["9H", "TS", "QC", "2D"])));
}
