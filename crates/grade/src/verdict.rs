//! Judging one answer: the [`Verdict`] on a submission's answer to one test, against
//! crib-core.

use crib_core::{Card, Keep, KeepError, KeepJudgement, Side};
use crib_results::{KeepValue, SelectCredit, Verdict};

use crate::protocol::{Answer, ExceptionKind, Outcome};
use crib_testset::draw::{prolog_list, TestCase};

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
/// its wall-clock backstop. Returns the verdict and the test's credit (0 unless the goal
/// answered).
pub(crate) fn judge(
    case: &TestCase,
    outcome: &Outcome,
    (limit_ms, backstop_ms): (u64, u64),
    scale: SelectCredit,
) -> (Verdict, f64) {
    let verdict = match outcome {
        Outcome::Fail => Verdict::NoSolution,
        Outcome::Halt { status } => Verdict::Crashed {
            code: status.parse().ok(),
            signal: None,
            message: format!("halt({status}) called"),
        },
        Outcome::Exception { kind, message } => {
            let message = message.trim_start_matches("'<meta-call>'/1: ").to_string();
            match kind {
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
            }
        }
        Outcome::Cards { hand, crib } => {
            return judge_keep(&case.cards, &case.keeps, hand, crib, scale)
        }
        // An answer of the other predicate's shape is judged as an unreadable one.
        Outcome::Value { .. } => {
            let unknown = Answer::Term("?".into());
            return judge_keep(&case.cards, &case.keeps, &unknown, &unknown, scale);
        }
    };
    (verdict, 0.0)
}

/// Judges a select_hand answer to the deal `cards`, whose keeps are `keeps` (best total
/// first); returns the verdict and the test's credit on `scale` (0 for an invalid answer).
pub(crate) fn judge_keep(
    cards: &[Card],
    keeps: &[Keep],
    hand: &Answer,
    crib: &Answer,
    scale: SelectCredit,
) -> (Verdict, f64) {
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
