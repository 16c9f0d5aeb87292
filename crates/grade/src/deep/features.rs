//! Simple facts about a show, from crib-core's breakdown of its expected value and from its
//! cards, that the diagnosis uses to tell failing shows from passing ones.

use crib_core::{Card, Rank};

/// Defines [`Feature`], its list [`Feature::ALL`] in the order of their bits, and its
/// words, from one table: `Variant: "id in JSON", "what a show with it has", "what a show
/// without it has";`.
macro_rules! features {
    ($($feature:ident: $id:literal, $has:literal, $lacks:literal;)+) => {
        /// One fact about a show. Each is true or false of a (hand, start) pair as it was
        /// asked (a few depend on the order of the hand cards).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u8)]
        pub(crate) enum Feature {
            $($feature,)+
        }

        impl Feature {
            /// Every feature, in the order of their bits.
            pub const ALL: &[Feature] = &[$(Feature::$feature,)+];

            /// Returns (id, what a show with it has, what a show without it has).
            pub fn words(self) -> (&'static str, &'static str, &'static str) {
                match self {
                    $(Feature::$feature => ($id, $has, $lacks),)+
                }
            }
        }
    };
}

features! {
    Fifteen: "fifteen", "a fifteen", "no fifteen";
    SeveralFifteens: "several_fifteens", "two or more fifteens", "at most one fifteen";
    FifteenWithStart: "fifteen_with_start", "a fifteen using the start card",
        "no fifteen using the start card";
    FifteenWithFace: "fifteen_with_face", "a fifteen with a jack, queen or king",
        "no fifteen with a jack, queen or king";
    FifteenWithTen: "fifteen_with_ten", "a fifteen with a ten", "no fifteen with a ten";
    FifteenWithAce: "fifteen_with_ace", "a fifteen with an ace", "no fifteen with an ace";
    FifteenOfThreePlus: "fifteen_of_three_plus", "a fifteen of three or more cards",
        "no fifteen of three or more cards";
    FifteenOfFourPlus: "fifteen_of_four_plus", "a fifteen of four or five cards",
        "no fifteen of four or five cards";
    FifteenOfFive: "fifteen_of_five", "a fifteen of all five cards", "no fifteen of all five cards";
    RepeatedValue: "repeated_value",
        "two cards of the same value (such as 5 and 5, or 10 and king)",
        "five different card values";
    Pair: "pair", "a pair", "no pair";
    PairWithStart: "pair_with_start", "a pair with the start card", "no pair with the start card";
    ThreeOfAKind: "three_of_a_kind", "three or four of a kind", "no three of a kind";
    Run: "run", "a run", "no run";
    RunOfFourPlus: "run_of_four_plus", "a run of four or five", "no run of four or five";
    RunOfFive: "run_of_five", "a run of five", "no run of five";
    DoubleRun: "double_run", "a run with a duplicated rank (a double or triple run)",
        "no run with a duplicated rank";
    PairOutsideRun: "pair_outside_run", "a run and a pair of cards outside it",
        "no pair outside a run";
    RunWithStart: "run_with_start", "a run using the start card", "no run using the start card";
    RunWithFace: "run_with_face", "a run with a jack, queen or king",
        "no run with a jack, queen or king";
    RunWithAce: "run_with_ace", "a run with an ace", "no run with an ace";
    QueenKingAce: "queen_king_ace", "a queen, a king and an ace",
        "not queen, king and ace together";
    KingAceTwo: "king_ace_two", "a king, an ace and a two", "not king, ace and two together";
    KingAceWrap: "king_ace_wrap",
        "a king and an ace with a queen or a two (a run only if ranks wrapped around)",
        "no king and ace with a queen or a two";
    HandSuited: "hand_suited", "four hand cards of one suit", "hand cards of more than one suit";
    Flush4: "flush4_hand", "four hand cards of one suit and a start of another",
        "no four-card flush";
    Flush5: "flush5", "all five cards of one suit", "no five-card flush";
    ThreePlusStart: "three_plus_start_suit", "exactly three hand cards of the start card's suit",
        "not exactly three hand cards of the start card's suit";
    Nob: "nob", "the jack of the start card's suit in the hand",
        "no jack of the start card's suit in the hand";
    JackOtherSuit: "hand_jack_other_suit", "a jack in the hand not of the start card's suit",
        "no jack in the hand of another suit than the start";
    StartJack: "start_is_jack", "a jack as the start card", "a start card that is not a jack";
    JackOfFirstSuit: "jack_of_first_card_suit",
        "the jack of the first hand card's suit in the hand",
        "no jack of the first hand card's suit in the hand";
    Ace: "ace_present", "an ace", "no ace";
    NoPoints: "no_points", "no points at all", "some points";
}

impl Feature {
    /// Returns the feature's bit in a set of features.
    pub fn bit(self) -> u64 {
        1 << self as u8
    }
}

/// Returns the features of `cards` (the hand in the order asked, then the start), as bits.
pub(crate) fn features(cards: &[Card; 5]) -> u64 {
    let Some(b) = super::breakdown(cards) else {
        return 0;
    };
    let (hand, start) = (super::hand_of(cards), cards[4]);
    let mut bits = 0u64;
    let mut set = |f: Feature, on: bool| {
        if on {
            bits |= f.bit();
        }
    };
    let face = |c: &Card| c.rank() >= Rank::Jack;
    let any = |sets: &[Vec<Card>], p: &dyn Fn(&Card) -> bool| sets.iter().any(|s| s.iter().any(p));
    let ranked = |rank: Rank| move |c: &Card| c.rank() == rank;
    let has = |rank: Rank| cards.iter().any(ranked(rank));
    let (fifteens, runs) = (&b.fifteens, &b.runs);
    set(Feature::Fifteen, !fifteens.is_empty());
    set(Feature::SeveralFifteens, fifteens.len() >= 2);
    set(Feature::FifteenWithStart, any(fifteens, &|c| *c == start));
    set(Feature::FifteenWithFace, any(fifteens, &face));
    set(Feature::FifteenWithTen, any(fifteens, &ranked(Rank::Ten)));
    set(Feature::FifteenWithAce, any(fifteens, &ranked(Rank::Ace)));
    let largest = fifteens.iter().map(Vec::len).max().unwrap_or(0);
    set(Feature::FifteenOfThreePlus, largest >= 3);
    set(Feature::FifteenOfFourPlus, largest >= 4);
    set(Feature::FifteenOfFive, largest == 5);
    let values: Vec<u8> = cards.iter().map(|c| c.rank().value()).collect();
    let repeated = (0..5).any(|i| (i + 1..5).any(|j| values[i] == values[j]));
    set(Feature::RepeatedValue, repeated);
    set(Feature::Pair, !b.pairs.is_empty());
    set(Feature::PairWithStart, any(&b.pairs, &|c| *c == start));
    let three = cards
        .iter()
        .any(|c| cards.iter().filter(|d| d.rank() == c.rank()).count() >= 3);
    set(Feature::ThreeOfAKind, three);
    let run_len = runs.first().map_or(0, Vec::len);
    set(Feature::Run, run_len >= 3);
    set(Feature::RunOfFourPlus, run_len >= 4);
    set(Feature::RunOfFive, run_len == 5);
    set(Feature::DoubleRun, runs.len() >= 2);
    let outside = b.pairs.iter().any(|p| !any(runs, &ranked(p[0].rank())));
    set(Feature::PairOutsideRun, run_len >= 3 && outside);
    set(Feature::RunWithStart, any(runs, &|c| *c == start));
    set(Feature::RunWithFace, any(runs, &face));
    set(Feature::RunWithAce, any(runs, &ranked(Rank::Ace)));
    let (queen, king, ace, two) = (
        has(Rank::Queen),
        has(Rank::King),
        has(Rank::Ace),
        has(Rank::Two),
    );
    set(Feature::QueenKingAce, queen && king && ace);
    set(Feature::KingAceTwo, king && ace && two);
    set(Feature::KingAceWrap, king && ace && (queen || two));
    let hand_suited = hand.iter().all(|c| c.suit() == hand[0].suit());
    let start_of_hand_suit = start.suit() == hand[0].suit();
    set(Feature::HandSuited, hand_suited);
    set(Feature::Flush4, hand_suited && !start_of_hand_suit);
    set(Feature::Flush5, hand_suited && start_of_hand_suit);
    let start_suited = hand.iter().filter(|c| c.suit() == start.suit()).count();
    set(Feature::ThreePlusStart, start_suited == 3);
    set(Feature::Nob, b.nob.is_some());
    let jack_of = |other: bool, suit| {
        hand.iter()
            .any(|c| c.rank() == Rank::Jack && (c.suit() != suit) == other)
    };
    set(Feature::JackOtherSuit, jack_of(true, start.suit()));
    set(Feature::StartJack, start.rank() == Rank::Jack);
    set(Feature::JackOfFirstSuit, jack_of(false, hand[0].suit()));
    set(Feature::Ace, ace);
    set(Feature::NoPoints, b.points().total() == 0);
    bits
}
