//! The children's protocol: the frames prolog/answer_child.pl writes on its pipe, one JSON object a line tagged by `"type"`, read by crib-child's [`crib_child::Child`].

use crib_results::Diagnostic;
use serde::Deserialize;

/// One line of the child's pipe.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Frame {
    /// The child program runs, and nothing of the submission has run yet: a child that
    /// ends before this frame could not be started, which is crib's failure, never the
    /// submission's.
    Ready,
    /// An error or warning printed while loading the submission (paths as the child sees
    /// them).
    Diag(Diagnostic),
    /// Loading is over; where the two predicates were found.
    Loaded(Found),
    /// How a batch's items ended, one outcome per item from item `first` on.
    Outcomes {
        first: usize,
        outcomes: Vec<ItemOutcome>,
        /// Each item's CPU time (the child process's, every thread), milliseconds: sent
        /// only when the batch is timed (the select_hand tests).
        #[serde(default)]
        cpu_ms: Vec<u64>,
        /// Each item's wall-clock time, milliseconds, when timed.
        #[serde(default)]
        wall_ms: Vec<u64>,
    },
    /// The goal of item `item` went on past its limit and the grace after the watchdog
    /// stopped it (it caught the exception): the grader kills the child.
    Overrun { item: usize },
    /// Every item has been answered; the child exits.
    Done,
}

/// The modules `hand_value/3` and `select_hand/3` are called in; `None` when undefined.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Found {
    pub hand_value: Option<String>,
    pub select_hand: Option<String>,
}

/// How one item's goal ended.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub(crate) enum Outcome {
    /// hand_value/3 succeeded with Value bound to `value`.
    Value { value: Answer },
    /// select_hand/3 succeeded with Hand bound to `hand` and Cribcards to `crib`.
    Cards { hand: Answer, crib: Answer },
    /// The goal failed.
    Fail,
    /// The goal called halt/0,1 (rewritten to throw) with `status`, as Prolog writes it.
    Halt { status: String },
    /// The goal raised an exception of `kind`; `message` is what SWI-Prolog prints for it.
    Exception {
        kind: ExceptionKind,
        message: String,
    },
}

/// How one batch item ended, from the frame to the judge: as an `outcomes` frame gives it,
/// the child's [`Outcome`] or, for an integer answer in -1000..=1000 (almost every item),
/// the bare integer, which is much cheaper for the child to write; or, never sent by a
/// child, the grader's word that the child died on it or was killed on it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub(crate) enum ItemOutcome {
    /// hand_value/3 answered this integer.
    Int(i64),
    /// Any other outcome.
    Outcome(Outcome),
    /// The child died on the item.
    #[serde(skip_deserializing)]
    Died(ChildDeath),
    /// The grader killed the child on the item.
    #[serde(skip_deserializing)]
    Killed(Kill),
}

/// How a child that died on an item ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChildDeath {
    /// Its exit status, if it could be read.
    pub status: Option<std::process::ExitStatus>,
    /// The last lines it printed on stderr (crib-child's `Death::stderr_tail`).
    pub tail: String,
    /// How it ended, in words (crib-child's `Death::explain`).
    pub explained: String,
}

/// Why the grader killed a child on an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kill {
    /// It said nothing past the item's wall-clock backstop and the grace (and the slack a
    /// chunk takes): its watchdog did not stop the goal.
    Silent,
    /// It said the goal went on past its CPU-time limit and the grace after its watchdog
    /// stopped it (an `overrun` frame).
    Overrun,
}

/// The integers [`ItemOutcome::int`] reads as hand_value/3's answer; any other is a term.
const INT_ANSWERS: std::ops::RangeInclusive<i64> = -1000..=1000;

impl ItemOutcome {
    /// Returns the answer when it is an integer in -1000..=1000, written bare or as a
    /// value; `None` for any other outcome (a bigger integer is an answer of the wrong
    /// type).
    pub fn int(&self) -> Option<i64> {
        let v = match self {
            ItemOutcome::Int(v) => *v,
            ItemOutcome::Outcome(Outcome::Value {
                value: Answer::Int(text),
            }) => text.parse().ok()?,
            _ => return None,
        };
        INT_ANSWERS.contains(&v).then_some(v)
    }

    /// Returns the child's outcome (`None` for a bare integer or a death).
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            ItemOutcome::Outcome(outcome) => Some(outcome),
            _ => None,
        }
    }
}

/// The exceptions the grader tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ExceptionKind {
    /// The child's watchdog stopped the goal at its CPU-time limit.
    Timeout,
    /// The child's watchdog stopped the goal at the wall-clock backstop: it was waiting (or
    /// starved), not computing.
    Backstop,
    /// A resource error: a Prolog stack or memory ran out.
    Memory,
    /// Any other exception.
    Exception,
}

/// One answer term as the child reports it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Answer {
    /// An integer, in decimal (it may not fit in 64 bits).
    Int(String),
    /// A proper list of card terms, as tokens like `5H`.
    Cards(Vec<String>),
    /// Any other term, written quoted and cut short.
    Term(String),
}

impl Answer {
    /// Returns the card tokens, if the answer is a list of cards.
    pub fn cards(&self) -> Option<&[String]> {
        match self {
            Answer::Cards(tokens) => Some(tokens),
            _ => None,
        }
    }
}

/// Returns the frame on one line, or `None` if it is not a frame.
#[cfg(test)]
pub(crate) fn parse(line: &[u8]) -> Option<Frame> {
    serde_json::from_slice(line).ok()
}

#[cfg(test)]
mod tests;
