//! Ways to choose a keep: the assignment's rule and the plausible wrong ones, modelled with
//! crib-core, each mirroring a submission of crib-grade's `tests/mistakes/` or
//! `tests/baselines/` (docs/DESIGN.md, "The models of mistakes").
//!
//! A model can tie several keeps. A strategy *surely misses* a deal when every keep it may
//! choose is worse than the best: however a submission breaks ties, it loses credit there. It
//! *misses* a deal when the keep it chooses, breaking ties as its catalog submission does
//! ([`TieBreak`]: most take the greatest `Total-(Hand-Crib)` term under SWI-Prolog's
//! `max_member/2`, that is the greatest Hand in the standard order of terms; a few the first
//! keep found), is worse than the best.

use std::sync::OnceLock;

use crib_core::{rank_keeps, Card, CardSet, Keep, PreparedHand, Rank, Rule, Suit};
use crib_results::RuleMistake;

use crate::misvalue::{
    four_card_value, keep_points, order_points, rank_index, rule_part, MistakePoints, Part,
    PartPoints, ORDER_MISTAKES, RANK_MISTAKES,
};

/// Which start cards a strategy values a keep over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Starts {
    /// Every card not dealt: 46 for six dealt cards, 47 for five (the assignment's rule).
    NotDealt,
    /// Every card not kept: the discards are counted as possible starts too (48).
    NotKept,
    /// All 52 cards, even the four kept.
    WholeDeck,
    /// The cards of one suit that were not dealt.
    OneSuit(Suit),
    /// The cards not dealt, leaving out one rank.
    WithoutRank(Rank),
    /// The cards not dealt, leaving out the jacks, queens and kings.
    WithoutFaces,
    /// The first card not dealt, in deck order (ace of clubs, ace of diamonds, ...).
    FirstNotDealt,
}

impl Starts {
    /// Returns the start cards for keeping `kept` from `dealt`.
    pub fn cards(self, dealt: &[Card], kept: &[Card; 4]) -> CardSet {
        let not_dealt = CardSet::of(dealt).complement();
        match self {
            Starts::NotDealt => not_dealt,
            Starts::NotKept => CardSet::of(kept).complement(),
            Starts::WholeDeck => CardSet::DECK,
            Starts::OneSuit(suit) => not_dealt.iter().filter(|c| c.suit() == suit).collect(),
            Starts::WithoutRank(rank) => not_dealt.iter().filter(|c| c.rank() != rank).collect(),
            Starts::WithoutFaces => not_dealt.iter().filter(|c| c.rank() < Rank::Jack).collect(),
            Starts::FirstNotDealt => not_dealt.iter().take(1).collect(),
        }
    }
}

/// How a strategy ranks the keeps of a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The greatest total (equivalently, mean) hand value over the given starts.
    Sum(Starts),
    /// The greatest total over the starts not dealt, divided by their number with integer
    /// division, so keeps within one start's worth of each other tie.
    TruncatedMean,
    /// The greatest value with the single best start card.
    MaxOverStarts,
    /// The greatest value with the single worst start card.
    MinOverStarts,
    /// The first four cards dealt, whatever they are worth.
    FirstFour,
    /// The keep with the smallest total: the worst possible answer.
    Worst,
    /// The greatest value of the four kept cards alone, without a start card.
    FourCardsAlone,
    /// The greatest total over the starts not dealt of a wrong hand value: one that leaves
    /// out, or counts twice, one part of the points.
    Misvalued(Part, Misvaluation),
    /// The greatest total over the starts not dealt of a hand value that counts one rule
    /// wrongly: a mistake of [`RANK_MISTAKES`] (with any other, the total by the rules).
    Mistaken(RuleMistake),
    /// The greatest total over the starts not dealt of a hand value that counts a suit rule
    /// by the order of the hand's cards, given each keep in the order dealt: a mistake of
    /// [`ORDER_MISTAKES`] (with any other, the total by the rules).
    OrderMistaken(RuleMistake),
}

/// What a wrong hand value does with one part of the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misvaluation {
    /// Leaves it out.
    Dropped,
    /// Counts it twice (or, for a part the rules do not give, once).
    Doubled,
}

/// Returns the strategies of select_hand/3 submissions built on a wrong hand_value/3: for
/// each [`Part`], one that leaves it out and one that counts it twice (for a part the rules
/// do not give, one that adds it), then one for each of [`RANK_MISTAKES`] and each of
/// [`ORDER_MISTAKES`].
pub fn misvalued_strategies() -> impl Iterator<Item = Strategy> {
    let parts = Part::ALL.into_iter().flat_map(|part| {
        let hows: &[Misvaluation] = if part.is_gain() {
            &[Misvaluation::Doubled]
        } else {
            &[Misvaluation::Dropped, Misvaluation::Doubled]
        };
        hows.iter().map(move |&how| Strategy::Misvalued(part, how))
    });
    parts
        .chain(RANK_MISTAKES.map(Strategy::Mistaken))
        .chain(ORDER_MISTAKES.map(Strategy::OrderMistaken))
}

/// Returns a model's name, as the balance's targets and the examples give it: the
/// strategy's `Debug` form (`Misvalued(Runs, Dropped)`), then ` first found` for
/// [`TieBreak::FirstFound`].
pub fn model_name(strategy: Strategy, ties: TieBreak) -> String {
    match ties {
        TieBreak::GreatestHand => format!("{strategy:?}"),
        TieBreak::FirstFound => format!("{strategy:?} first found"),
    }
}

/// Returns every model the select_hand balance is chosen against, with its name: the
/// modelled select_hand mistakes ([`SELECT_MISTAKES`]) by their ids, then
/// each of [`misvalued_strategies`] under each [`TieBreak`] (the catalog's submissions break
/// ties both ways) by [`model_name`]. The balance's feature names, `balance_check` and
/// `model_check` all take their models from here.
pub fn balance_models() -> impl Iterator<Item = (String, Strategy, TieBreak)> {
    let misvalued = misvalued_strategies().flat_map(|s| TieBreak::ALL.map(|t| (s, t)));
    SELECT_MISTAKES
        .iter()
        .map(|m| (m.id.to_string(), m.strategy, m.ties))
        .chain(misvalued.map(|(s, t)| (model_name(s, t), s, t)))
}

/// How a submission chooses among keeps its strategy ranks equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// The greatest Hand, as dealt, in the standard order of Prolog terms: what
    /// `max_member/2` over `Total-(Hand-Crib)` pairs returns.
    GreatestHand,
    /// The first keep found, the keeps found in the order a `combination/2` that takes a
    /// card before leaving it out finds them (the kept positions in lexicographic order):
    /// what a scan that replaces its best only on a greater total returns.
    FirstFound,
}

impl TieBreak {
    /// Both ways of breaking ties.
    pub const ALL: [TieBreak; 2] = [TieBreak::GreatestHand, TieBreak::FirstFound];
}

/// A mistake of the catalog (of select_hand/3, [`SELECT_MISTAKES`], or of hand_value/3,
/// [`MODELLED_MISTAKES`]) whose select_hand/3 chooses a valid keep as a modelled strategy
/// does: its submission's id and the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelledMistake {
    /// The id of its submission in `tests/mistakes/` (or `tests/baselines/`).
    pub id: &'static str,
    /// What it ranks keeps by.
    pub strategy: Strategy,
    /// How its submission breaks ties.
    pub ties: TieBreak,
}

/// The select_hand mistakes of the catalog that choose a valid keep.
pub const SELECT_MISTAKES: &[ModelledMistake] = {
    use Starts::*;
    use Strategy::*;
    use TieBreak::*;
    &[
        modelled("sh-starts-48", Sum(NotKept), GreatestHand),
        modelled("sh-starts-52", Sum(WholeDeck), FirstFound),
        modelled(
            "sh-starts-one-suit",
            Sum(OneSuit(Suit::Hearts)),
            GreatestHand,
        ),
        modelled("sh-starts-no-faces", Sum(WithoutFaces), GreatestHand),
        modelled("sh-starts-no-tens", Sum(WithoutRank(Rank::Ten)), FirstFound),
        modelled("sh-starts-no-aces", Sum(WithoutRank(Rank::Ace)), FirstFound),
        modelled("sh-max-over-starts", MaxOverStarts, GreatestHand),
        modelled("sh-min-over-starts", MinOverStarts, GreatestHand),
        modelled("sh-first-start-only", Sum(FirstNotDealt), GreatestHand),
        modelled("sh-ignore-start", FourCardsAlone, GreatestHand),
        modelled("sh-first-keep", FirstFour, GreatestHand),
        modelled("sh-worst-keep", Worst, GreatestHand),
        modelled("sh-average-integer-division", TruncatedMean, GreatestHand),
    ]
};

/// The hand_value mistakes of the catalog whose select_hand/3 is modelled: each submission's
/// select_hand, which sums its own wrong hand_value over the starts, chooses as the strategy
/// built on that wrong value does, breaking ties as the submission's code does. The test set
/// is balanced on every such strategy under both tie-breaks ([`misvalued_strategies`]); the
/// crib-lab tool `model_check` shows, seed by seed and deal by deal, that each submission chooses
/// as its model.
pub const MODELLED_MISTAKES: &[ModelledMistake] = {
    use Misvaluation::*;
    use Part::*;
    use RuleMistake::*;
    use Strategy::*;
    use TieBreak::*;
    &[
        modelled(
            "fifteens-ace-eleven",
            Mistaken(FifteensAceEleven),
            FirstFound,
        ),
        modelled(
            "fifteens-face-rank-value",
            Mistaken(FifteensFacesByRank),
            GreatestHand,
        ),
        modelled(
            "fifteens-no-start",
            Misvalued(FifteensWithStart, Dropped),
            GreatestHand,
        ),
        modelled("fifteens-once", Mistaken(FifteensOnce), GreatestHand),
        modelled("fifteens-one-point", Mistaken(FifteensOnePoint), FirstFound),
        modelled(
            "fifteens-pairs-only",
            Misvalued(FifteensOfThreePlus, Dropped),
            FirstFound,
        ),
        modelled(
            "fifteens-sort-drops-values",
            Mistaken(FifteensDistinctValues),
            GreatestHand,
        ),
        modelled(
            "fifteens-tens-ignored",
            Mistaken(FifteensTensIgnored),
            FirstFound,
        ),
        modelled(
            "fifteens-two-and-three-only",
            Misvalued(FifteensOfFourPlus, Dropped),
            GreatestHand,
        ),
        modelled(
            "flush-any-four-of-five",
            Misvalued(FlushOfThreeAndStart, Doubled),
            FirstFound,
        ),
        modelled("flush-needs-five", Misvalued(Flush4, Dropped), GreatestHand),
        modelled("flush-none", Misvalued(Flush, Dropped), GreatestHand),
        modelled(
            "flush-start-as-hand-card",
            OrderMistaken(FlushStartAsHandCard),
            GreatestHand,
        ),
        modelled(
            "flush-three-plus-start",
            Misvalued(FlushOfThreeAndStart, Doubled),
            GreatestHand,
        ),
        modelled(
            "nob-any-jack",
            Misvalued(NobOtherJack, Doubled),
            GreatestHand,
        ),
        modelled(
            "nob-first-card-suit",
            OrderMistaken(NobFirstCardSuit),
            GreatestHand,
        ),
        modelled("nob-none", Misvalued(Nob, Dropped), FirstFound),
        modelled("nob-two-points", Misvalued(Nob, Doubled), GreatestHand),
        modelled(
            "pairs-adjacent-only",
            Mistaken(PairsAdjacentOnly),
            GreatestHand,
        ),
        modelled(
            "pairs-no-start",
            Misvalued(PairsWithStart, Dropped),
            FirstFound,
        ),
        modelled("pairs-one-point", Mistaken(PairsOnePoint), GreatestHand),
        modelled("pairs-ordered-twice", Misvalued(Pairs, Doubled), FirstFound),
        modelled("pairs-sort-dedup", Misvalued(Pairs, Dropped), FirstFound),
        modelled("runs-ace-high", Mistaken(RunsAceHigh), FirstFound),
        modelled(
            "runs-contiguous-only",
            Mistaken(RunsContiguousOnly),
            GreatestHand,
        ),
        modelled("runs-every-subrun", Mistaken(RunsEverySubrun), GreatestHand),
        modelled(
            "runs-faces-rank-ten",
            Mistaken(RunsFacesAsTen),
            GreatestHand,
        ),
        modelled(
            "runs-five-missed",
            Mistaken(RunsFiveAsTwoFours),
            GreatestHand,
        ),
        modelled(
            "runs-length-minus-one",
            Mistaken(RunsLengthMinusOne),
            FirstFound,
        ),
        modelled("runs-no-start", Mistaken(RunsNoStart), FirstFound),
        modelled(
            "runs-one-point-each",
            Mistaken(RunsOnePointEach),
            FirstFound,
        ),
        modelled("runs-only-three", Mistaken(RunsOnlyThree), GreatestHand),
        modelled("runs-sort-dedup", Mistaken(RunsDistinctRanks), GreatestHand),
        modelled("runs-wrap-around", Mistaken(RunsWrapAround), GreatestHand),
    ]
};

/// The other submissions whose select_hand/3 chooses as a strategy: the baselines of
/// `tests/baselines/` that choose by the cards (not `random_keep`, which draws by a hash),
/// and the select_hand mistakes of the catalog that are equivalent to the rules (a keep
/// with the best total earns all the credit however ties are broken). The balance is not
/// chosen against them; the stability table gives their marks, and the catalog test checks
/// each one deal by deal as it checks [`SELECT_MISTAKES`].
pub const BASELINE_MODELS: &[ModelledMistake] = {
    use Starts::*;
    use Strategy::*;
    use TieBreak::*;
    &[
        modelled("correct", Sum(NotDealt), GreatestHand),
        modelled("first_four", FirstFour, GreatestHand),
        modelled("max_over_starts", MaxOverStarts, GreatestHand),
        modelled("starts_48", Sum(NotKept), GreatestHand),
        modelled("worst_keep", Worst, GreatestHand),
        modelled("sh-hand-unsorted", Sum(NotDealt), GreatestHand),
        modelled("sh-last-of-ties", Sum(NotDealt), GreatestHand),
        modelled("sh-mean-instead-of-sum", Sum(NotDealt), GreatestHand),
    ]
};

/// Returns the catalog's mistake `id`, modelled by `strategy` with ties broken by `ties`.
const fn modelled(id: &'static str, strategy: Strategy, ties: TieBreak) -> ModelledMistake {
    ModelledMistake { id, strategy, ties }
}

/// The keeps of one deal, valued the assignment's way, with what each strategy needs.
#[derive(Debug, Clone)]
pub struct Deal {
    /// The dealt cards, in the order dealt.
    pub cards: Vec<Card>,
    /// Every keep, greatest total first (as [`crib_core::rank_keeps`]).
    pub keeps: Vec<Keep>,
    /// Each keep's points by [`Part`] and its value under each of [`RANK_MISTAKES`], over the
    /// starts not dealt, worked out when first needed.
    parts: OnceLock<Vec<(PartPoints, MistakePoints)>>,
}

impl Deal {
    /// Returns the deal of `cards` (5 or 6 distinct cards) with its keeps valued.
    ///
    /// # Panics
    /// If `cards` is not 5 or 6 distinct cards: deals come from the grader's own dealer.
    pub fn new(cards: Vec<Card>) -> Deal {
        let keeps = rank_keeps(&cards).expect("a deal is 5 or 6 distinct cards");
        Deal::from_keeps(cards, keeps).expect("a deal of 5 or 6 cards has keeps")
    }

    /// Returns the deal of `cards` whose keeps crib-core has already valued, `keeps` (as
    /// [`crib_core::rank_keeps`] returns them, greatest total first); `None` when there are
    /// none.
    pub fn from_keeps(cards: Vec<Card>, keeps: Vec<Keep>) -> Option<Deal> {
        (!keeps.is_empty()).then(|| Deal {
            cards,
            keeps,
            parts: OnceLock::new(),
        })
    }

    /// Returns the deal with its keeps' [`Deal::parts`] worked out now without the table of
    /// every rank pattern ([`crate::misvalue::keep_points_untabled`]): the same parts, cheaper
    /// for a process that values a few deals only.
    pub(crate) fn with_parts_untabled(self) -> Deal {
        let not_dealt = CardSet::of(&self.cards).complement();
        let parts = self
            .keeps
            .iter()
            .map(|k| crate::misvalue::keep_points_untabled(&k.keep, not_dealt))
            .collect();
        let _ = self.parts.set(parts);
        self
    }

    /// Returns each keep's points by [`Part`] and its value under each of [`RANK_MISTAKES`], over
    /// the starts not dealt, in the order of [`Deal::keeps`].
    pub fn parts(&self) -> &[(PartPoints, MistakePoints)] {
        self.parts.get_or_init(|| {
            let not_dealt = CardSet::of(&self.cards).complement();
            self.keeps
                .iter()
                .map(|k| keep_points(&k.keep, not_dealt))
                .collect()
        })
    }

    /// Returns the greatest total of any keep.
    pub fn best_total(&self) -> u32 {
        self.keeps[0].total
    }

    /// Returns the keeps `strategy` may choose (it ranks them equal), as indices into
    /// [`Deal::keeps`].
    pub fn choices(&self, strategy: Strategy) -> Vec<usize> {
        let score = |i: usize, keep: &Keep| -> i64 {
            let hand = PreparedHand::from_cards(keep.keep);
            let not_dealt = Starts::NotDealt.cards(&self.cards, &keep.keep);
            let values = || {
                not_dealt
                    .iter()
                    .map(move |c| i64::from(hand.value(c, Rule::Hand)))
            };
            match strategy {
                Strategy::Sum(starts) => {
                    i64::from(hand.total_over(starts.cards(&self.cards, &keep.keep), Rule::Hand))
                }
                Strategy::TruncatedMean => i64::from(keep.total / keep.starts),
                Strategy::MaxOverStarts => values().max().unwrap_or(0),
                Strategy::MinOverStarts => values().min().unwrap_or(0),
                Strategy::FirstFour => i64::from(keep.keep[..] == self.cards[..4]),
                Strategy::Worst => -i64::from(keep.total),
                Strategy::Misvalued(part, how) => {
                    let points = i64::from(self.parts()[i].0[part.index()]);
                    match how {
                        Misvaluation::Dropped => i64::from(keep.total) - points,
                        Misvaluation::Doubled => i64::from(keep.total) + points,
                    }
                }
                Strategy::FourCardsAlone => i64::from(four_card_value(&keep.keep)),
                Strategy::Mistaken(mistake) => {
                    i64::from(rank_index(mistake).map_or(keep.total, |k| self.parts()[i].1[k]))
                }
                Strategy::OrderMistaken(mistake) => {
                    let right = self.parts()[i].0[rule_part(mistake).index()];
                    let points = order_points(mistake, &keep.keep, not_dealt).unwrap_or(right);
                    i64::from(keep.total - right + points)
                }
            }
        };
        let scores: Vec<i64> = self
            .keeps
            .iter()
            .enumerate()
            .map(|(i, k)| score(i, k))
            .collect();
        let top = scores.iter().copied().max().unwrap_or(0);
        (0..scores.len()).filter(|&i| scores[i] == top).collect()
    }

    /// Returns whether every keep `strategy` may choose has a total below the best: a
    /// submission following it loses credit on this deal however it breaks ties.
    pub fn surely_missed_by(&self, strategy: Strategy) -> bool {
        let best = self.best_total();
        self.choices(strategy)
            .iter()
            .all(|&i| self.keeps[i].total < best)
    }

    /// Returns the keep `strategy` chooses when it breaks ties by `ties`.
    pub fn choice(&self, strategy: Strategy, ties: TieBreak) -> &Keep {
        let choices = self.choices(strategy).into_iter();
        let i = match ties {
            TieBreak::GreatestHand => {
                choices.max_by_key(|&i| self.keeps[i].keep.map(standard_order))
            }
            TieBreak::FirstFound => choices.min_by_key(|&i| {
                self.keeps[i]
                    .keep
                    .map(|c| self.cards.iter().position(|&d| d == c))
            }),
        };
        &self.keeps[i.expect("every strategy chooses a keep")]
    }

    /// Returns whether the keep `strategy` chooses, breaking ties by `ties`, has a total
    /// below the best.
    pub fn missed_by(&self, strategy: Strategy, ties: TieBreak) -> bool {
        self.choice(strategy, ties).total < self.best_total()
    }
}

/// Returns a key that orders cards as SWI-Prolog's standard order orders their terms
/// `card(Rank, Suit)`: integer ranks 2..10 first, then the atoms ace, jack, king, queen
/// alphabetically; then the suits alphabetically (clubs, diamonds, hearts, spades).
fn standard_order(card: Card) -> (u8, u8) {
    let rank = match card.rank() {
        Rank::Ace => 20,
        Rank::Jack => 21,
        Rank::King => 22,
        Rank::Queen => 23,
        other => other.number(),
    };
    (rank, card.suit() as u8)
}

#[cfg(test)]
mod tests;
