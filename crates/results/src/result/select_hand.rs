//! select_hand/3's mistake in the student's words ([`KeepDiagnosis`]): which wrong way of
//! ranking keeps the submission's keeps follow ([`KeepMistake`]), with the simplest failing
//! deal (the keep it chose, the best keep, and what each is worth on average over the
//! possible start cards). crib-grade finds it by testing models of the mistakes against the
//! submission's keeps; this is the data, and the words.

use std::fmt::Write as _;

use crib_core::{Rank, Suit};
use serde::{Deserialize, Serialize};

use super::TestSource;
use crate::hand_value::RuleMistake;
use crate::verdict::KeepValue;

/// A wrong way of ranking the keeps of a deal, as a select_hand/3 may: the start cards it
/// averages over, what it values a keep by, or the hand value it uses. Each is a model
/// crib-grade tests against a submission's keeps. In JSON, `{"type": "<name>", ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum KeepMistake {
    /// The discards are counted among the possible start cards (48 starts).
    DiscardsAsStarts,
    /// Every card of the deck is a possible start, even the four kept (52 starts).
    WholeDeckAsStarts,
    /// Only the start cards of one suit are counted.
    OneSuitStarts {
        /// The suit, as the assignment's Prolog writes it (`hearts`).
        #[serde(with = "suit_name")]
        suit: Suit,
    },
    /// The start cards of one rank are left out.
    StartsWithoutRank {
        /// The rank, as the assignment's Prolog writes it (`ace`, `10`, `jack`).
        #[serde(with = "rank_name")]
        rank: Rank,
    },
    /// The jacks, queens and kings are left out of the start cards.
    StartsWithoutFaces,
    /// Only one start card (the first not dealt) is counted.
    FirstStartOnly,
    /// Keeps are ranked by the best start card alone, not the sum over every start.
    MaxOverStarts,
    /// Keeps are ranked by the worst start card alone, not the sum over every start.
    MinOverStarts,
    /// The start card is ignored: keeps are ranked by the four cards alone.
    FourCardsAlone,
    /// The mean over the starts is truncated to an integer, so close keeps tie.
    TruncatedMean,
    /// The first four cards dealt are kept, whatever they are worth.
    FirstFour,
    /// The keep with the smallest total is chosen.
    WorstKeep,
    /// Keeps are ranked by the right sum over the right starts of a wrong hand value: one
    /// that makes `rule`'s mistake, or (`None`) miscounts some part of the points in a way
    /// hand_value/3's diagnosis has no words for.
    WrongHandValue {
        /// The hand value's mistake, in hand_value/3's terms.
        rule: Option<RuleMistake>,
    },
}

impl KeepMistake {
    /// Returns the mistake in the student's words, one clause: `the cards you discard are
    /// counted among the possible start cards`.
    pub fn words(self) -> String {
        use KeepMistake::*;
        match self {
            DiscardsAsStarts => "the cards you discard are counted among the possible start \
                                 cards (the start is one of the cards not dealt to you)"
                .into(),
            WholeDeckAsStarts => "every card of the deck is counted as a possible start, even \
                                  the ones you hold (only the cards not dealt to you can be \
                                  the start)"
                .into(),
            OneSuitStarts { suit } => format!(
                "only the {} are counted as possible start cards (every card not dealt to you \
                 can be the start)",
                suit.prolog()
            ),
            StartsWithoutRank { rank } => format!(
                "the {}s are left out of the possible start cards (every card not dealt to you \
                 can be the start)",
                rank.prolog()
            ),
            StartsWithoutFaces => "jacks, queens and kings are left out of the possible start \
                                   cards (every card not dealt to you can be the start)"
                .into(),
            FirstStartOnly => "only one start card is tried (every card not dealt to you can \
                               be the start: sum the hand's value over all of them)"
                .into(),
            MaxOverStarts => "keeps are ranked by their best start, not the sum over all \
                              starts"
                .into(),
            MinOverStarts => "keeps are ranked by their worst start, not the sum over all \
                              starts"
                .into(),
            FourCardsAlone => "the start card is ignored: keeps are ranked by the four cards \
                               alone (value each keep with every possible start card)"
                .into(),
            TruncatedMean => "the mean is truncated to an integer, so keeps that differ by \
                              less than a point look equal (compare the sums, or exact means)"
                .into(),
            FirstFour => "the first four cards are kept without choosing".into(),
            WorstKeep => "the worst keep is chosen (the one worth least, not most)".into(),
            WrongHandValue { rule: Some(m) } => format!(
                "select_hand/3 ranks keeps with a hand value in which {}",
                m.words()
            ),
            WrongHandValue { rule: None } => {
                "select_hand/3 ranks keeps with a hand value that counts some points wrongly".into()
            }
        }
    }
}

/// What [`KeepDiagnosis`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", content = "mistake")]
pub enum KeepVerdict {
    /// A modelled mistake explains the keeps.
    Mistake(KeepMistake),
    /// The keeps are not the best in a way no model explains.
    Unexplained,
}

/// The simplest failing deal: what was dealt, the keep chosen and the best keep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeepExample {
    /// The goal as called.
    pub goal: String,
    /// Where the deal comes from: who may see it follows ([`crate::VisibilityPolicy`]).
    pub source: TestSource,
    /// The dealt cards in short notation, in the order dealt.
    pub dealt: String,
    /// How many start cards are possible: 46 for six dealt cards, 47 for five.
    pub starts: u32,
    /// The keep the submission chose, valued by crib-core.
    pub chosen: KeepValue,
    /// The best keep (the first, when several tie), valued by crib-core.
    pub best: KeepValue,
}

/// select_hand/3's mistake, as found in a submission's keeps: what is wrong in words, how
/// many of the failing deals it explains, and the simplest failing deal. Only deals whose
/// keep was valid count: a keep that is not the best ([`crate::Verdict::Suboptimal`]) fails,
/// the best passes; failures, exceptions, timeouts and invalid answers are told by their
/// verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeepDiagnosis {
    /// What is wrong.
    pub verdict: KeepVerdict,
    /// Deals whose keep was not the best.
    pub failing: usize,
    /// Of them, the deals the mistake explains: the model chose the submission's keep.
    pub explained: usize,
    /// Deals whose keep was the best.
    pub passing: usize,
    /// Whether hand_value/3's diagnosis found a mistake, so that select_hand/3's choices
    /// follow from it ([`KeepMistake::WrongHandValue`]).
    pub follows_hand_value: bool,
    /// The simplest failing deal (one the mistake explains when there is one).
    pub example: KeepExample,
}

impl KeepDiagnosis {
    /// Returns what is wrong in the student's words, one sentence without the example.
    pub fn words(&self) -> String {
        match self.verdict {
            KeepVerdict::Mistake(m @ KeepMistake::WrongHandValue { .. })
                if self.follows_hand_value =>
            {
                format!(
                    "{}: its choices follow from the mistake found in your hand_value/3 above",
                    m.words()
                )
            }
            KeepVerdict::Mistake(m) => m.words(),
            KeepVerdict::Unexplained => "the keeps chosen are not the best, in a way crib \
                                         cannot name: compare your keep with the best below"
                .into(),
        }
    }

    /// Returns the diagnosis in lines of a student's text: what is wrong with how many
    /// failing deals it explains, then the simplest deal (the goal, the keep chosen and the
    /// best keep with what each is worth on average over the possible starts), indented.
    pub fn lines(&self) -> Vec<String> {
        let mut first = format!("What is wrong: {}", self.words());
        if matches!(self.verdict, KeepVerdict::Mistake(_)) {
            let _ = write!(
                first,
                " ({} of the {} deals where your keep is not the best)",
                self.explained, self.failing
            );
        }
        let e = &self.example;
        vec![
            first,
            "The simplest deal showing it:".to_string(),
            format!("    ?- {}", e.goal),
            format!(
                "    you kept {} (discarding {}): worth {:.4} on average over the {} possible start cards",
                e.chosen.keep, e.chosen.discard, e.chosen.expected_value, e.starts
            ),
            format!(
                "    the best is {} (discarding {}): worth {:.4}",
                e.best.keep, e.best.discard, e.best.expected_value
            ),
        ]
    }
}

/// A [`Rank`] in JSON as the assignment's Prolog writes it: `ace`, `10`, `jack`.
mod rank_name {
    use crib_core::Rank;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(rank: &Rank, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&rank.prolog())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let text = String::deserialize(d)?;
        Rank::ALL
            .into_iter()
            .find(|r| r.prolog() == text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown rank {text:?}")))
    }
}

/// A [`Suit`] in JSON as the assignment's Prolog writes it: `hearts`.
mod suit_name {
    use crib_core::Suit;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(suit: &Suit, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(suit.prolog())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let text = String::deserialize(d)?;
        Suit::ALL
            .into_iter()
            .find(|s| s.prolog() == text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown suit {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mistakes_read_back_and_say_their_cards() {
        let all = [
            KeepMistake::DiscardsAsStarts,
            KeepMistake::OneSuitStarts { suit: Suit::Hearts },
            KeepMistake::StartsWithoutRank { rank: Rank::Ten },
            KeepMistake::WrongHandValue {
                rule: Some(RuleMistake::RunsMissing),
            },
            KeepMistake::WrongHandValue { rule: None },
        ];
        for m in all {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<KeepMistake>(&json).unwrap(), m);
        }
        assert_eq!(
            serde_json::to_value(KeepMistake::StartsWithoutRank { rank: Rank::Ten }).unwrap(),
            serde_json::json!({"type": "starts_without_rank", "rank": "10"})
        );
        assert!(KeepMistake::StartsWithoutRank { rank: Rank::Ten }
            .words()
            .starts_with("the 10s are left out"));
        assert!(KeepMistake::OneSuitStarts { suit: Suit::Hearts }
            .words()
            .starts_with("only the hearts"));
        assert!(KeepMistake::WrongHandValue {
            rule: Some(RuleMistake::RunsMissing)
        }
        .words()
        .ends_with("runs are never counted"));
    }
}
