//! select_hand/3 on a large seeded sample of deals: how often its keep is not optimal, by how
//! much, and the simplest deal where it is not.

use std::time::Instant;

use crib_core::{Card, Dealer, Keep};
use crib_results::{DeepSelectHand, FailureKind, Predicate, SelectCredit, SelectExample, Verdict};

use super::{failed, got_text, Deep};
use crate::child::Place;
use crate::protocol::{ItemOutcome, Outcome};
use crate::verdict::judge_keep;

/// The seed of the deals.
pub(crate) const SELECT_SEED: u64 = 0x00c2_1b5e_dee9_0005;

/// Returns `n` seeded deals, alternately six and five cards.
pub(crate) fn deals(n: usize) -> Vec<Vec<Card>> {
    (0..n)
        .map(|i| Dealer::for_item(SELECT_SEED, i as u64).deal(if i % 2 == 0 { 6 } else { 5 }))
        .collect()
}

/// Judges an answer to the deal `dealt`, whose keeps are `keeps` (best first), with the one
/// judge of a select_hand answer ([`crate::verdict::judge_keep`]): the total over the starts
/// of a valid keep, or how the answer failed.
fn judge(got: &ItemOutcome, dealt: &[Card], keeps: &[Keep]) -> Result<u32, FailureKind> {
    let Some(Outcome::Cards { hand, crib }) = got.outcome() else {
        return Err(failed(got));
    };
    match judge_keep(dealt, keeps, hand, crib, SelectCredit::default()).0 {
        Verdict::Pass => Ok(keeps.first().map_or(0, |best| best.total)),
        Verdict::Suboptimal { chosen, .. } => Ok(chosen.total),
        _ => Err(FailureKind::WrongType),
    }
}

impl Deep {
    /// Checks select_hand/3 on the seeded deals; `None` when it is not defined.
    pub(super) fn select_hand(&self, ctx: &Place<'_>) -> Option<DeepSelectHand> {
        let started = Instant::now();
        let (run, stopped) = self.ask(ctx, Predicate::SelectHand)?;
        let mut out = DeepSelectHand {
            deals: self.deals.len(),
            stopped,
            children: run.children,
            ..DeepSelectHand::default()
        };
        let mut regrets = Vec::new();
        let mut simplest_key = None;
        for (i, got) in run.answers.iter().enumerate() {
            let Some(got) = got else { continue };
            let (dealt, keeps) = (&self.deals[i], &self.keeps[i]);
            let Some(best) = keeps.first() else { continue };
            out.checked += 1;
            let example = |kind, got_value| SelectExample {
                kind,
                dealt: dealt.clone(),
                got: got_text(got),
                got_value,
                best: best.keep.to_vec(),
                best_value: round3(best.expected_value()),
            };
            let kind = match judge(got, dealt, keeps) {
                Ok(total) if total == best.total => {
                    out.optimal += 1;
                    regrets.push(0.0);
                    continue;
                }
                Ok(total) => {
                    let regret = f64::from(best.total - total) / f64::from(best.starts);
                    regrets.push(regret);
                    let got_value = Some(round3(f64::from(total) / f64::from(best.starts)));
                    if regret > out.worst_regret {
                        out.worst_regret = regret;
                        out.worst = Some(example(FailureKind::WrongAnswer, got_value));
                    }
                    let ranks: u32 = dealt.iter().map(|c| u32::from(c.rank().number())).sum();
                    let key = (dealt.len(), ranks, i);
                    if simplest_key.is_none_or(|k| key < k) {
                        simplest_key = Some(key);
                        out.simplest = Some(example(FailureKind::WrongAnswer, got_value));
                    }
                    FailureKind::WrongAnswer
                }
                Err(kind) => {
                    out.first_failure.get_or_insert_with(|| example(kind, None));
                    kind
                }
            };
            super::count(&mut out.kinds, kind, 1);
        }
        out.kinds.sort_by_key(|k| std::cmp::Reverse(k.items));
        out.worst_regret = round3(out.worst_regret);
        out.mean_regret = if regrets.is_empty() {
            0.0
        } else {
            round3(regrets.iter().sum::<f64>() / regrets.len() as f64)
        };
        out.elapsed_ms = started.elapsed().as_millis() as u64;
        Some(out)
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
