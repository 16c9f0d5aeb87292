use crib_core::{parse_cards, starts_for, Card, Hand, PreparedHand, Rule};
use rayon::prelude::*;

use crate::{default_path, OracleError, Pool, Reference};

fn reference() -> Reference {
    Reference::load(default_path()).expect("prolog/cribbage.pl loads")
}

fn hand(cards: &[&str]) -> Hand {
    Hand::from_slice(&parse_cards(cards).unwrap()).unwrap()
}

fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

#[test]
fn values_the_worked_examples() {
    let oracle = reference().oracle();
    let five_fives = hand(&["5H", "5S", "5C", "JD"]);
    assert_eq!(
        oracle.hand_value(&five_fives, card("5D"), Rule::Hand),
        Ok(29)
    );
    let flush = hand(&["2H", "4H", "6H", "8H"]);
    assert_eq!(oracle.hand_value(&flush, card("KS"), Rule::Hand), Ok(4));
    assert_eq!(oracle.hand_value(&flush, card("KS"), Rule::Crib), Ok(0));
    assert_eq!(oracle.hand_value(&flush, card("KH"), Rule::Crib), Ok(5));
}

#[test]
fn every_rank_and_suit_crosses_both_ways() {
    let oracle = reference().oracle();
    let deck: Vec<Card> = Card::deck().collect();
    for five in deck.chunks(5).filter(|c| c.len() == 5) {
        let choice = oracle.select_hand(five).unwrap();
        let mut back: Vec<Card> = choice.hand.iter().chain(&choice.crib).copied().collect();
        back.sort();
        assert_eq!(back, five, "select_hand returns the cards it was given");
    }
}

#[test]
fn the_batched_call_agrees_with_single_calls_and_rust() {
    let oracle = reference().oracle();
    for cards in crib_core::hands().step_by(9_973).take(12) {
        let hand = Hand::new(cards).unwrap();
        let starts: Vec<Card> = starts_for(&cards).collect();
        for rule in [Rule::Hand, Rule::Crib] {
            let batch = oracle.hand_values(&hand, &starts, rule).unwrap();
            let rust = PreparedHand::new(&hand);
            for (&start, &value) in starts.iter().zip(&batch) {
                assert_eq!(oracle.hand_value(&hand, start, rule), Ok(value));
                assert_eq!(rust.value(start, rule), value, "{cards:?} {start} {rule:?}");
            }
        }
    }
}

#[test]
fn an_exception_names_the_goal_and_carries_the_message() {
    let oracle = reference().oracle();
    let err = oracle
        .select_hand(&parse_cards(&["5H", "5S", "5C"]).unwrap())
        .unwrap_err();
    let OracleError::Raised { goal, message } = &err else {
        panic!("expected Raised, got {err:?}");
    };
    assert_eq!(
        goal,
        "select_hand([card(5,hearts),card(5,spades),card(5,clubs)], Hand, Cribcards)"
    );
    assert!(message.contains("five_or_six_cards"), "{message}");
}

#[test]
fn loads_one_file_per_process() {
    let first = reference();
    assert_eq!(
        Reference::load(default_path()).unwrap().path(),
        first.path()
    );
    let other = default_path().with_file_name("oracle.pl");
    assert!(matches!(
        Reference::load(&other),
        Err(OracleError::AlreadyLoaded { .. })
    ));
    let missing = Reference::load("no/such/file.pl").unwrap_err();
    assert!(matches!(missing, OracleError::Load { .. }), "{missing:?}");
    assert!(missing
        .to_string()
        .starts_with("cannot load no/such/file.pl: "));
}

#[test]
fn a_pool_serves_every_rayon_thread() {
    let reference = reference();
    let pool = Pool::new(&reference);
    let hands: Vec<[Card; 4]> = crib_core::hands().step_by(1_001).collect();
    let differences: usize = hands
        .par_iter()
        .map(|&cards| {
            let hand = Hand::new(cards).unwrap();
            let starts: Vec<Card> = starts_for(&cards).collect();
            let values = pool
                .with(|o| o.hand_values(&hand, &starts, Rule::Hand))
                .unwrap();
            let rust = PreparedHand::new(&hand);
            starts
                .iter()
                .zip(values)
                .filter(|&(&s, v)| rust.value(s, Rule::Hand) != v)
                .count()
        })
        .sum();
    assert_eq!(differences, 0);
}

#[test]
fn an_oracle_stays_on_the_thread_that_made_it() {
    let oracle = reference().oracle();
    let five_fives = hand(&["5H", "5S", "5C", "JD"]);
    let elsewhere =
        std::thread::spawn(move || oracle.hand_value(&five_fives, card("5D"), Rule::Hand))
            .join()
            .unwrap();
    assert_eq!(elsewhere, Err(OracleError::WrongThread));
}
