use super::*;
use crate::draw::tests::test_set;
use crib_core::{parse_cards, Dealer};
use crib_results::SelectCredit;

fn deal(tokens: &[&str]) -> Deal {
    Deal::new(parse_cards(tokens).unwrap())
}

/// The select_hand deals of the grader's test set.
fn test_deals() -> Vec<Deal> {
    test_set()
        .cases
        .iter()
        .map(|c| Deal::new(c.cards.clone()))
        .collect()
}

/// Returns the select_hand marks (of 20) a strategy earns on `deals`.
fn marks(deals: &[Deal], strategy: Strategy) -> f64 {
    let credit: f64 = deals
        .iter()
        .map(|d| {
            SelectCredit::Graded.credit(d.choice(strategy, TieBreak::GreatestHand).total, &d.keeps)
        })
        .sum();
    20.0 * credit / deals.len() as f64
}

#[test]
fn start_sets_have_the_sizes_students_use() {
    let d = deal(&["5H", "5S", "5C", "JD", "2C", "9H"]);
    let kept = [d.cards[0], d.cards[1], d.cards[2], d.cards[3]];
    let size = |starts: Starts| starts.cards(&d.cards, &kept).len();
    assert_eq!(size(Starts::NotDealt), 46);
    assert_eq!(size(Starts::NotKept), 48);
    assert_eq!(size(Starts::WholeDeck), 52);
    assert_eq!(size(Starts::OneSuit(Suit::Hearts)), 11);
    assert_eq!(size(Starts::WithoutRank(Rank::Ten)), 42);
    assert_eq!(size(Starts::WithoutFaces), 46 - 11);
    let first: Vec<Card> = Starts::FirstNotDealt
        .cards(&d.cards, &kept)
        .iter()
        .collect();
    assert_eq!(
        first,
        parse_cards(&["AC"]).unwrap(),
        "the first card of the deck"
    );
}

#[test]
fn the_assignments_rule_is_always_optimal_and_worst_never() {
    let mut dealer = Dealer::new(11);
    for i in 0..300 {
        let d = Deal::new(dealer.deal(5 + i % 2));
        assert!(!d.missed_by(Strategy::Sum(Starts::NotDealt), TieBreak::GreatestHand));
        let worst = d.keeps.iter().map(|k| k.total).min().unwrap();
        assert_eq!(
            d.choice(Strategy::Worst, TieBreak::GreatestHand).total,
            worst
        );
        if d.best_total() > worst {
            assert!(d.surely_missed_by(Strategy::Worst));
        }
    }
}

#[test]
fn a_mistake_the_models_do_not_value_chooses_by_the_rules() {
    let d = deal(&["5H", "5S", "5C", "JD", "2C", "9H"]);
    let rules = d.choices(Strategy::Sum(Starts::NotDealt));
    assert_eq!(
        d.choices(Strategy::Mistaken(RuleMistake::FlushMissing)),
        rules
    );
    assert_eq!(
        d.choices(Strategy::OrderMistaken(RuleMistake::RunsAceHigh)),
        rules
    );
}

#[test]
fn ties_break_as_prolog_orders_terms() {
    // card(2,_) < card(10,_) < card(ace,_) < card(jack,_) < card(king,_) < card(queen,_)
    let order: Vec<(u8, u8)> = parse_cards(&["2C", "TC", "AC", "JC", "KC", "QC", "QS"])
        .unwrap()
        .into_iter()
        .map(standard_order)
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    // Every keep of a deal of four equal-valued... : with FirstFour only one keep is a choice.
    let d = deal(&["AS", "2D", "3H", "4S", "9C", "KD"]);
    assert_eq!(d.choices(Strategy::FirstFour).len(), 1);
    assert_eq!(
        d.choice(Strategy::FirstFour, TieBreak::GreatestHand).keep[..],
        d.cards[..4]
    );
}

#[test]
fn every_mistake_is_exposed_by_the_test_set() {
    for ModelledMistake { id, strategy, .. } in SELECT_MISTAKES {
        let exposing: Vec<&str> = test_set()
            .cases
            .iter()
            .filter(|c| exposed_by(&Deal::new(c.cards.clone())).contains(id))
            .map(|c| c.id.as_str())
            .collect();
        assert!(
            exposing.len() >= crate::draw::COVER_DEPTH,
            "{id} ({strategy:?}) is exposed only by {exposing:?}"
        );
    }
}

/// The model side of the baseline table in docs/DESIGN.md; the catalog test grades
/// the baseline submissions themselves.
#[test]
fn the_credit_scale_separates_the_baselines() {
    let deals = test_deals();
    assert_eq!(marks(&deals, Strategy::Sum(Starts::NotDealt)), 20.0);
    assert_eq!(marks(&deals, Strategy::Worst), 0.0);
    let first_four = marks(&deals, Strategy::FirstFour);
    assert!(first_four <= 4.0, "first four: {first_four}");
    let random: f64 = deals
        .iter()
        .map(|d| {
            let sum: f64 = d
                .keeps
                .iter()
                .map(|k| SelectCredit::Graded.credit(k.total, &d.keeps))
                .sum();
            sum / d.keeps.len() as f64
        })
        .sum::<f64>()
        * 20.0
        / deals.len() as f64;
    // Half the deals have five cards, where one keep in five is best: about 4 of 20.
    assert!(random <= 4.5, "a uniformly random keep: {random}");
    let max = marks(&deals, Strategy::MaxOverStarts);
    // Right where the best start and the best total agree: between a third and four fifths.
    assert!((6.0..=16.0).contains(&max), "max over starts: {max}");
    let starts_48 = marks(&deals, Strategy::Sum(Starts::NotKept));
    assert!((18.0..20.0).contains(&starts_48), "48 starts: {starts_48}");
}

/// On random deals, how often each modelled mistake chooses a worse keep: the shares quoted
/// in crates/grade/tests/mistakes/README.md. Every mistake must be a real one.
#[test]
fn every_modelled_mistake_is_wrong_on_some_random_deals() {
    let mut dealer = Dealer::new(2026);
    let deals: Vec<Deal> = (0..2000)
        .map(|i| Deal::new(dealer.deal(5 + (i % 3).min(1))))
        .collect();
    for ModelledMistake {
        id, strategy, ties, ..
    } in SELECT_MISTAKES
    {
        let missed = deals
            .iter()
            .filter(|d| d.missed_by(*strategy, *ties))
            .count();
        assert!(missed > 0, "{id} never chooses a worse keep");
    }
}

/// Returns the ids of the mistakes that choose a worse keep than the best on `deal` (breaking
/// ties as their catalog submissions do, see [`Deal::missed_by`]).
fn exposed_by(deal: &Deal) -> Vec<&'static str> {
    SELECT_MISTAKES
        .iter()
        .filter(|m| deal.missed_by(m.strategy, m.ties))
        .map(|m| m.id)
        .collect()
}
