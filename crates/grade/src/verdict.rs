//! Verdicts: what a submission's answer to one test is worth, judged against crib-core.

use crib_core::{cards_text, Card, Keep, KeepError, KeepJudgement, Side};
use serde::{Deserialize, Serialize};

use crate::credit::SelectCredit;
use crate::protocol::{Answer, ExceptionKind, Outcome};
use crate::testset::{prolog_list, Expected, Input, TestCase};

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
    /// depends on how far below (see [`SelectCredit`]).
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

impl Answer {
    fn text(&self) -> String {
        match self {
            Answer::Int(int) => int.clone(),
            Answer::Cards(cards) => match parse_tokens(cards) {
                Some(cards) => prolog_list(&cards),
                None => format!("{cards:?}"),
            },
            Answer::Term(term) => term.clone(),
        }
    }
}

fn parse_tokens(tokens: &[String]) -> Option<Vec<Card>> {
    tokens.iter().map(|t| Card::parse(t).ok()).collect()
}

/// Judges how test `case`'s goal ended; `limit_ms` is its CPU-time limit and `backstop_ms`
/// its wall-clock backstop. Returns the verdict and, for select_hand, the test's credit (0
/// unless the goal answered).
pub(crate) fn judge(
    case: &TestCase,
    outcome: &Outcome,
    (limit_ms, backstop_ms): (u64, u64),
    scale: SelectCredit,
) -> (Verdict, Option<f64>) {
    let select = matches!(case.input, Input::SelectHand { .. });
    let credit = |q: f64| select.then_some(q);
    // An answer of the other predicate's shape is judged as an unreadable one.
    let unknown = Answer::Term("?".into());
    match outcome {
        Outcome::Fail => (Verdict::NoSolution, credit(0.0)),
        Outcome::Halt { status } => {
            let verdict = Verdict::Crashed {
                code: status.parse().ok(),
                signal: None,
                message: format!("halt({status}) called"),
            };
            (verdict, credit(0.0))
        }
        Outcome::Exception { kind, message } => {
            let message = message.trim_start_matches("'<meta-call>'/1: ").to_string();
            let verdict = match kind {
                ExceptionKind::Timeout => Verdict::Timeout {
                    limit_ms,
                    killed: false,
                    wall: false,
                },
                ExceptionKind::Backstop => Verdict::Timeout {
                    limit_ms: backstop_ms,
                    killed: false,
                    wall: true,
                },
                ExceptionKind::Memory => Verdict::Memory { message },
                ExceptionKind::Exception => Verdict::Exception { message },
            };
            (verdict, credit(0.0))
        }
        Outcome::Cards { hand, crib } if select => {
            let (verdict, q) = judge_keep(case, hand, crib, scale);
            (verdict, Some(q))
        }
        Outcome::Value { .. } if select => {
            let (verdict, q) = judge_keep(case, &unknown, &unknown, scale);
            (verdict, Some(q))
        }
        Outcome::Value { value } => (judge_value(case, value), None),
        Outcome::Cards { .. } => (judge_value(case, &unknown), None),
    }
}

/// Judges a hand_value answer.
pub(crate) fn judge_value(case: &TestCase, answer: &Answer) -> Verdict {
    let Expected::Value(expected) = case.expected else {
        unreachable!("judge_value is only called on hand_value tests")
    };
    match answer.int() {
        Some(int) if int.parse::<i64>().ok() == Some(i64::from(expected)) => Verdict::Pass,
        Some(int) => Verdict::WrongAnswer {
            expected: expected.to_string(),
            got: int.to_string(),
        },
        None => Verdict::WrongType {
            got: answer.text(),
            reason: "Value is not an integer".into(),
        },
    }
}

/// One keep of a deal with its value, as shown to students.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeepValue {
    /// The four cards kept, in short notation (`5H JD ...`), in the order dealt.
    pub keep: String,
    /// The cards put in the crib.
    pub discard: String,
    /// The hand's points summed over every possible start card.
    pub total: u32,
    /// The mean over the possible start cards, rounded to 4 decimals.
    pub expected_value: f64,
}

impl KeepValue {
    fn new(keep: &Keep) -> KeepValue {
        KeepValue {
            keep: cards_text(&keep.keep),
            discard: cards_text(keep.discard()),
            total: keep.total,
            expected_value: (keep.expected_value() * 1e4).round() / 1e4,
        }
    }

    /// Returns `5H 5S 5C JD (discard 2C 9H, expected 16.6522)`.
    pub fn describe(&self) -> String {
        format!(
            "{} (discard {}, expected {:.4})",
            self.keep, self.discard, self.expected_value
        )
    }
}

/// Judges a select_hand answer; returns the verdict and the test's credit on `scale` (0 for
/// an invalid answer).
pub(crate) fn judge_keep(
    case: &TestCase,
    hand: &Answer,
    crib: &Answer,
    scale: SelectCredit,
) -> (Verdict, f64) {
    let (Input::SelectHand { cards }, Expected::Keeps(keeps)) = (&case.input, &case.expected)
    else {
        unreachable!("judge_keep is only called on select_hand tests")
    };
    let got = format!("Hand = {}, Cribcards = {}", hand.text(), crib.text());
    let wrong = |reason: &str| {
        (
            Verdict::WrongType {
                got: got.clone(),
                reason: reason.into(),
            },
            0.0,
        )
    };
    let Some(kept) = hand.cards().and_then(parse_tokens) else {
        return wrong("Hand is not a list of card terms");
    };
    let Some(discarded) = crib.cards().and_then(parse_tokens) else {
        return wrong("Cribcards is not a list of card terms");
    };
    let (theirs, best_total) = match crib_core::judge_keep(cards, &kept, &discarded) {
        Ok(KeepJudgement::Keep {
            keep, best_total, ..
        }) => (keep, best_total),
        Ok(KeepJudgement::Wrong(fault)) => return wrong(reason(fault)),
        Err(e) => unreachable!("a test's deal is 5 or 6 distinct cards: {e}"),
    };
    let credit = scale.credit(theirs.total, keeps);
    if theirs.total == best_total {
        return (Verdict::Pass, credit);
    }
    let best = keeps
        .iter()
        .take_while(|k| k.total == best_total)
        .map(KeepValue::new)
        .collect();
    let verdict = Verdict::Suboptimal {
        chosen: KeepValue::new(&theirs),
        best,
    };
    (verdict, credit)
}

/// Returns what students are told of an answer that is not a keep of its deal, in the names
/// of select_hand/3's arguments: the three reasons results have always given, so that
/// results of earlier runs read the same.
fn reason(fault: KeepError) -> &'static str {
    match fault {
        KeepError::HandSize { .. } => "Hand does not have 4 cards",
        KeepError::NotDealt {
            side: Side::Hand, ..
        } => "Hand holds a card that was not dealt",
        _ => "Hand and Cribcards are not a split of Cards",
    }
}

#[cfg(test)]
mod tests;
