//! Verdicts: what a submission's answer to one test was judged to be ([`Verdict`]), and a keep
//! as students are shown it ([`KeepValue`]). crib-grade judges; this is the data.

use std::fmt;

use crib_core::{cards_text, parse_card_list, Card, Keep};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The verdict on one test. In JSON it is `"verdict": "<name>"` beside its fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The answer is right (for select_hand: a keep with the best expected value).
    Pass,
    /// hand_value: the answer is an integer but not the hand's value.
    WrongAnswer {
        /// What crib-core answers.
        expected: String,
        /// What the submission answered.
        got: String,
    },
    /// select_hand: a valid keep whose expected value is below the best; the test's credit
    /// depends on how far below (see [`SelectCredit`](crate::SelectCredit)).
    Suboptimal {
        /// The keep chosen.
        chosen: KeepValue,
        /// Every keep with the best expected value.
        best: Vec<KeepValue>,
    },
    /// The answer is not of the asked type: Value not an integer, Hand not 4 of the dealt
    /// cards, or Hand and Cribcards not a split of Cards.
    WrongType {
        /// What the submission answered.
        got: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The goal failed.
    NoSolution,
    /// The goal raised an exception.
    Exception {
        /// The message SWI-Prolog prints for it.
        message: String,
    },
    /// The goal used up its CPU-time limit or, when it waited or was starved rather than
    /// computed, ran past the wall-clock backstop (`wall`).
    Timeout {
        /// The limit that stopped it, in milliseconds: CPU time, or wall-clock time when
        /// `wall`.
        limit_ms: u64,
        /// Whether the grader had to kill the child (the Prolog timer did not stop it).
        killed: bool,
        /// Whether the wall-clock backstop stopped it (absent in results of earlier versions:
        /// false).
        #[serde(default)]
        wall: bool,
    },
    /// The goal ran out of memory: a Prolog resource error or the address-space limit.
    Memory {
        /// What the child said.
        message: String,
    },
    /// The child exited during the goal: halt/0,1, or a signal.
    Crashed {
        /// The exit status, if it exited.
        code: Option<i32>,
        /// The signal that killed it, if one did.
        signal: Option<i32>,
        /// The end of what it printed on stderr.
        message: String,
    },
    /// The test did not run because the submission could not be loaded (or reloaded).
    NotRun {
        /// Why.
        reason: String,
    },
}

impl Verdict {
    /// Returns the verdict's name as in JSON: `pass`, `wrong_answer`...
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::WrongAnswer { .. } => "wrong_answer",
            Verdict::Suboptimal { .. } => "suboptimal",
            Verdict::WrongType { .. } => "wrong_type",
            Verdict::NoSolution => "no_solution",
            Verdict::Exception { .. } => "exception",
            Verdict::Timeout { .. } => "timeout",
            Verdict::Memory { .. } => "memory",
            Verdict::Crashed { .. } => "crashed",
            Verdict::NotRun { .. } => "not_run",
        }
    }

    /// Returns one line describing the verdict, for `--verbose` and Gradescope.
    pub fn describe(&self) -> String {
        match self {
            Verdict::Pass => "pass".into(),
            Verdict::WrongAnswer { expected, got } => {
                format!("wrong answer: expected {expected}, got {got}")
            }
            Verdict::Suboptimal { chosen, best } => {
                let best: Vec<String> = best.iter().map(KeepValue::describe).collect();
                format!(
                    "suboptimal: kept {}; the best: {}",
                    chosen.describe(),
                    best.join(" or ")
                )
            }
            Verdict::WrongType { got, reason } => format!("wrong type: {reason}: got {got}"),
            Verdict::NoSolution => "no solution: the goal failed".into(),
            Verdict::Exception { message } => format!("exception: {message}"),
            Verdict::Timeout {
                limit_ms,
                killed,
                wall,
            } => format!(
                "timeout: {}{}",
                if *wall {
                    format!(
                        "no answer after {limit_ms} ms of wall-clock time (the backstop for a \
                         goal that waits, e.g. in sleep/1, rather than computes)"
                    )
                } else {
                    format!("over {limit_ms} ms of CPU time")
                },
                if *killed { " (child killed)" } else { "" }
            ),
            Verdict::Memory { message } => format!("memory: {message}"),
            Verdict::Crashed {
                code,
                signal,
                message,
            } => {
                let how = match (code, signal) {
                    (Some(c), _) => format!("exited with status {c} (halt?)"),
                    (_, Some(s)) => format!("killed by signal {s}"),
                    _ => "ended".into(),
                };
                if message.is_empty() {
                    format!("crashed: {how}")
                } else {
                    format!("crashed: {how}: {message}")
                }
            }
            Verdict::NotRun { reason } => format!("not run: {reason}"),
        }
    }
}

impl Verdict {
    /// Returns one line saying what went wrong in a student's words, without verdict codes:
    /// `not the best keep: you kept 2D 4S AS 9C (discarding KD 3H), worth 4.6087 on average
    /// over the possible start cards; the best: ...`. The same as [`Verdict::describe`] for
    /// verdicts whose line is already plain words.
    pub fn words(&self) -> String {
        match self {
            Verdict::Pass => "passed".into(),
            Verdict::Suboptimal { chosen, best } => {
                let best: Vec<String> = best.iter().map(KeepValue::words).collect();
                format!(
                    "not the best keep: you kept {} on average over the possible start cards; \
                     the best: {}",
                    chosen.words(),
                    best.join(" or ")
                )
            }
            Verdict::WrongType { got, reason } => {
                format!("not a split of the dealt cards: {reason}: got {got}")
            }
            Verdict::NoSolution => "no answer: the goal failed".into(),
            other => other.describe(),
        }
    }
}

/// One keep of a deal with its value, as shown to students.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeepValue {
    /// The four cards kept, in the order dealt.
    pub keep: Cards,
    /// The cards put in the crib.
    pub discard: Cards,
    /// The hand's points summed over every possible start card.
    pub total: u32,
    /// The mean over the possible start cards, rounded to 4 decimals.
    pub expected_value: f64,
}

impl KeepValue {
    /// Returns `keep` as shown to students: its cards in short notation, the discard, the
    /// total and the expected value rounded to 4 decimals.
    pub fn new(keep: &Keep) -> KeepValue {
        KeepValue {
            keep: Cards(keep.keep.to_vec()),
            discard: Cards(keep.discard().to_vec()),
            total: keep.total,
            expected_value: (keep.expected_value() * 1e4).round() / 1e4,
        }
    }

    /// Returns `5H 5S 5C JD (discarding 2C 9H), worth 16.6522`: as [`KeepValue::describe`],
    /// for students.
    pub fn words(&self) -> String {
        format!(
            "{} (discarding {}), worth {:.4}",
            self.keep, self.discard, self.expected_value
        )
    }

    /// Returns `5H 5S 5C JD (discard 2C 9H, expected 16.6522)`.
    pub fn describe(&self) -> String {
        format!(
            "{} (discard {}, expected {:.4})",
            self.keep, self.discard, self.expected_value
        )
    }
}

/// Cards in a given order; in JSON and in words, short notation separated by spaces
/// (`"5H 5S 5C JD"`, crib-core's `cards_text`), read back by crib-core's `parse_card_list`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cards(pub Vec<Card>);

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&cards_text(&self.0))
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cards, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_card_list(&text)
            .map(Cards)
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
