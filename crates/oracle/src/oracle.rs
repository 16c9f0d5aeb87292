//! One Prolog engine and the questions it answers.

use std::thread::ThreadId;

use crib_core::{Card, Hand, Rule};
use swipl::engine::Engine;
use swipl::fli::term_t;

use crate::fli::{Active, Names, Status};
use crate::{OracleError, Reference};

/// A Prolog engine over a loaded [`Reference`]: asks it `hand_value/3`, `hand_value/4` and
/// `select_hand/3` with crib-core's types.
///
/// An oracle serves the thread that made it: SWI-Prolog records that thread's C stack in the
/// engine and checks it, so an engine used elsewhere can abort the process. A call from any
/// other thread returns [`OracleError::WrongThread`]. Make one per worker thread, or let a
/// [`crate::Pool`] do it. Each call activates the engine and releases it before returning.
pub struct Oracle {
    engine: Engine,
    thread: ThreadId,
    reference: Reference,
}

/// The split a `select_hand/3` call answered: the cards kept and the cards given to the crib,
/// as Prolog listed them. Nothing is checked beyond each being a card of the deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The `Hand` argument.
    pub hand: Vec<Card>,
    /// The `Cribcards` argument.
    pub crib: Vec<Card>,
}

impl std::fmt::Debug for Oracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Oracle")
            .field("reference", &self.reference)
            .finish_non_exhaustive()
    }
}

impl Oracle {
    pub(crate) fn new(reference: Reference) -> Oracle {
        Oracle {
            engine: Engine::new(),
            thread: std::thread::current().id(),
            reference,
        }
    }

    /// Returns whether this oracle may be called from the current thread (the one that made
    /// it).
    pub fn is_home(&self) -> bool {
        std::thread::current().id() == self.thread
    }

    /// Returns what the reference's `hand_value/3` (for [`Rule::Hand`]) or `hand_value/4`
    /// (`hand_value(crib, Hand, Start, Value)`, for [`Rule::Crib`]) says `hand` scores with
    /// `start`.
    ///
    /// # Errors
    /// [`OracleError::Raised`] or [`OracleError::Failed`] naming the goal if Prolog raised or
    /// failed; [`OracleError::Answer`] if `Value` is not an integer 0..=255;
    /// [`OracleError::EngineBusy`] if this thread already has an engine active;
    /// [`OracleError::WrongThread`] if another thread made this oracle.
    ///
    /// # Example
    /// ```
    /// use crib_core::{parse_cards, Card, Hand, Rule};
    /// let oracle = crib_oracle::Reference::load(crib_oracle::default_path())?.oracle();
    /// let hand = Hand::from_slice(&parse_cards(&["5H", "5S", "5C", "JD"])?)?;
    /// assert_eq!(oracle.hand_value(&hand, Card::parse("5D")?, Rule::Hand)?, 29);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hand_value(&self, hand: &Hand, start: Card, rule: Rule) -> Result<u8, OracleError> {
        let goal = || value_goal(hand, &start.prolog(), rule);
        self.ask(|cx, names| {
            let args = cx.terms(5);
            names.put_rule(cx, args, rule);
            names.put_cards(cx, args + 1, &hand.cards());
            names.put_card(cx, args + 2, start);
            let status = cx.call(names.value, args);
            answer(cx, names, status, args + 4, goal)?;
            cx.small_int(args + 3).ok_or_else(|| OracleError::Answer {
                goal: goal(),
                answer: cx.text(args + 3),
                expected: "an integer 0..=255",
            })
        })?
    }

    /// Returns, for each card of `starts`, what the reference says `hand` scores with that
    /// card as the start card: one call into Prolog for all of them.
    ///
    /// Cards cross as integer codes ([`Card::index`]). The reference's `hand_values_codes/4`
    /// answers when it has one (prolog/cribbage.pl does); otherwise prolog/oracle.pl turns the
    /// codes into cards and calls `hand_value/3` or `hand_value/4` once per start card.
    ///
    /// # Errors
    /// As [`Oracle::hand_value`]; also [`OracleError::Answer`] if the answer is not a list as
    /// long as `starts`.
    ///
    /// # Example
    /// ```
    /// use crib_core::{parse_cards, starts_for, Hand, Rule};
    /// let oracle = crib_oracle::Reference::load(crib_oracle::default_path())?.oracle();
    /// let hand = Hand::from_slice(&parse_cards(&["5H", "5S", "5C", "JD"])?)?;
    /// let starts: Vec<_> = starts_for(&hand.cards()).collect();
    /// let values = oracle.hand_values(&hand, &starts, Rule::Hand)?;
    /// assert_eq!(values.iter().max(), Some(&29));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hand_values(
        &self,
        hand: &Hand,
        starts: &[Card],
        rule: Rule,
    ) -> Result<Vec<u8>, OracleError> {
        let goal = || {
            let each = format!("each of {} start cards", starts.len());
            value_goal(hand, &each, rule)
        };
        self.ask(|cx, names| {
            let args = cx.terms(5);
            names.put_rule(cx, args, rule);
            cx.put_ints(args + 1, hand.cards().iter().map(|c| i64::from(c.index())));
            cx.put_ints(args + 2, starts.iter().map(|c| i64::from(c.index())));
            let status = cx.call(names.values_codes, args);
            answer(cx, names, status, args + 4, goal)?;
            cx.list(args + 3, |t| cx.small_int(t))
                .filter(|values| values.len() == starts.len())
                .ok_or_else(|| OracleError::Answer {
                    goal: goal(),
                    answer: cx.text(args + 3),
                    expected: "a list of integers 0..=255, one per start card",
                })
        })?
    }

    /// Returns the split the reference's `select_hand(Cards, Hand, Cribcards)` chooses for
    /// `cards`. The cards are passed as given, so a wrong number of cards reaches Prolog.
    ///
    /// # Errors
    /// As [`Oracle::hand_value`]; [`OracleError::Answer`] if `Hand` or `Cribcards` is not a
    /// list of cards.
    ///
    /// # Example
    /// ```
    /// use crib_core::parse_cards;
    /// let oracle = crib_oracle::Reference::load(crib_oracle::default_path())?.oracle();
    /// let choice = oracle.select_hand(&parse_cards(&["5H", "5S", "5C", "JD", "2C", "9H"])?)?;
    /// assert_eq!(choice.crib, parse_cards(&["2C", "9H"])?);
    /// assert!(oracle.select_hand(&parse_cards(&["5H", "5S"])?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn select_hand(&self, cards: &[Card]) -> Result<Choice, OracleError> {
        let goal = || format!("select_hand({}, Hand, Cribcards)", prolog_list(cards));
        self.ask(|cx, names| {
            let args = cx.terms(4);
            names.put_cards(cx, args, cards);
            let status = cx.call(names.select, args);
            answer(cx, names, status, args + 3, goal)?;
            let cards_of = |t: term_t, what: &'static str| {
                cx.list(t, |card| names.card(cx, card))
                    .ok_or_else(|| OracleError::Answer {
                        goal: goal(),
                        answer: cx.text(t),
                        expected: what,
                    })
            };
            Ok(Choice {
                hand: cards_of(args + 1, "a list of cards (Hand)")?,
                crib: cards_of(args + 2, "a list of cards (Cribcards)")?,
            })
        })?
    }

    /// Activates the engine on this thread, runs `f` inside a foreign frame, and releases both.
    fn ask<R>(&self, f: impl FnOnce(&Active, &Names) -> R) -> Result<R, OracleError> {
        if !self.is_home() {
            return Err(OracleError::WrongThread);
        }
        if Engine::some_engine_active() {
            return Err(OracleError::EngineBusy);
        }
        let _activation = self.engine.activate();
        // SAFETY: the engine stays active until `_activation` drops, after `cx`.
        let cx = unsafe { Active::new() };
        Ok(f(&cx, &self.reference.shared.names))
    }
}

/// Turns the outcome of a call through prolog/oracle.pl into a result naming the goal.
fn answer(
    cx: &Active,
    names: &Names,
    status: Status,
    outcome: term_t,
    goal: impl Fn() -> String,
) -> Result<(), OracleError> {
    let message = match status {
        Status::True => match names.outcome(cx, outcome) {
            Ok(true) => return Ok(()),
            Ok(false) => return Err(OracleError::Failed { goal: goal() }),
            Err(message) => message,
        },
        Status::False => format!("prolog/oracle.pl failed to answer for {}", goal()),
        Status::Raised(message) => message,
    };
    Err(OracleError::Raised {
        goal: goal(),
        message,
    })
}

fn value_goal(hand: &Hand, start: &str, rule: Rule) -> String {
    let hand = prolog_list(&hand.cards());
    match rule {
        Rule::Hand => format!("hand_value({hand}, {start}, Value)"),
        Rule::Crib => format!("hand_value(crib, {hand}, {start}, Value)"),
    }
}

fn prolog_list(cards: &[Card]) -> String {
    let terms: Vec<String> = cards.iter().map(|c| c.prolog()).collect();
    format!("[{}]", terms.join(","))
}
