//! select_hand/3's mistake in the student's words: which modelled way of ranking keeps
//! ([`crate::strategy`]'s strategies, under either [`TieBreak`]) the submission's keeps
//! follow, into crib-results' [`KeepDiagnosis`].
//!
//! Only the deals whose answer was a valid keep count: the best keep passes, any other keep
//! ([`Verdict::Suboptimal`]) fails. A model *explains* a failing deal when it chooses the
//! submission's keep, and is scored as the hand_value search scores a rule's mistake: by
//! the failing deals it explains, and by its precision ([`best_fit`]). Expected values
//! always come from crib-core ([`crib_core::rank_keeps`], through [`Deal`]).

use crib_core::{Card, CardSet, Rank, Suit};
use crib_results::{
    KeepDiagnosis, KeepExample, KeepMistake, KeepValue, KeepVerdict, RuleMistake, TestResult,
    TestSource, Verdict,
};

use crib_testset::draw::TestCase;
use crib_testset::misvalue::Part;
use crib_testset::strategy::{
    misvalued_strategies, Deal, Misvaluation, Starts, Strategy, TieBreak, SELECT_MISTAKES,
};

/// The least precision of a model taken: of the deals where it chooses a keep that is not
/// the best, the share on which the submission chose that keep.
pub(crate) const MIN_PRECISION: f64 = 0.5;

/// The least share of the failing deals a model must explain to be named.
pub(crate) const MIN_EXPLAINED: f64 = 0.5;

/// One deal as the diagnosis sees it.
#[derive(Debug)]
pub(crate) struct Seen {
    pub deal: Deal,
    pub goal: String,
    /// Where the deal comes from: a named deal is the likelier example.
    pub source: TestSource,
    /// The keep chosen when it is not the best; `None` when it is.
    pub kept: Option<CardSet>,
}

/// Returns the deals of `cases` whose answer in `tests` (the same order) was a valid keep.
/// A keep that is not four of the dealt cards is left out.
pub(crate) fn seen(cases: &[TestCase], tests: &[TestResult]) -> Vec<Seen> {
    cases
        .iter()
        .zip(tests)
        .filter_map(|(case, test)| {
            let kept = match &test.verdict {
                Verdict::Pass => None,
                Verdict::Suboptimal { chosen, .. } => Some(keep_of(&chosen.keep.0, &case.cards)?),
                _ => return None,
            };
            Some(Seen {
                deal: Deal::from_keeps(case.cards.clone(), case.keeps.clone())?,
                goal: test.goal.clone(),
                source: case.source,
                kept,
            })
        })
        .collect()
}

/// Returns `cards` as a keep of `dealt` (four distinct cards among them), or `None`.
fn keep_of(cards: &[Card], dealt: &[Card]) -> Option<CardSet> {
    let set = CardSet::of(cards);
    (cards.len() == 4 && set.len() == 4 && cards.iter().all(|c| dealt.contains(c))).then_some(set)
}

/// Returns the modelled strategies tried, each with its mistake in words, in the order they
/// win ties: select_hand built on a hand value making a mistake of `hand_value_found` (what
/// hand_value/3's diagnosis found), then the catalog's select_hand mistakes (every suit and
/// rank where the catalog has one), then select_hand built on any other wrong hand value.
pub(crate) fn candidates(hand_value_found: &[RuleMistake]) -> Vec<(Strategy, KeepMistake)> {
    let mut strategies: Vec<Strategy> = Vec::new();
    for m in SELECT_MISTAKES {
        let more: Vec<Strategy> = match m.strategy {
            Strategy::Sum(Starts::OneSuit(_)) => Suit::ALL
                .map(|s| Strategy::Sum(Starts::OneSuit(s)))
                .to_vec(),
            Strategy::Sum(Starts::WithoutRank(_)) => Rank::ALL
                .map(|r| Strategy::Sum(Starts::WithoutRank(r)))
                .to_vec(),
            s => vec![s],
        };
        for s in more {
            if !strategies.contains(&s) {
                strategies.push(s);
            }
        }
    }
    strategies.extend(misvalued_strategies());
    let mut candidates: Vec<(Strategy, KeepMistake)> = strategies
        .into_iter()
        .filter_map(|s| Some((s, keep_mistake(s)?)))
        .collect();
    // What hand_value/3 is known to do wrong is the likelier cause (a stable sort).
    candidates.sort_by_key(|(_, m)| match m {
        KeepMistake::WrongHandValue { rule: Some(r) } => !hand_value_found.contains(r),
        _ => true,
    });
    candidates
}

/// Returns `strategy`'s mistake as crib-results names it; `None` for the assignment's rule.
pub(crate) fn keep_mistake(strategy: Strategy) -> Option<KeepMistake> {
    Some(match strategy {
        Strategy::Sum(Starts::NotDealt) => return None,
        Strategy::Sum(Starts::NotKept) => KeepMistake::DiscardsAsStarts,
        Strategy::Sum(Starts::WholeDeck) => KeepMistake::WholeDeckAsStarts,
        Strategy::Sum(Starts::OneSuit(suit)) => KeepMistake::OneSuitStarts { suit },
        Strategy::Sum(Starts::WithoutRank(rank)) => KeepMistake::StartsWithoutRank { rank },
        Strategy::Sum(Starts::WithoutFaces) => KeepMistake::StartsWithoutFaces,
        Strategy::Sum(Starts::FirstNotDealt) => KeepMistake::FirstStartOnly,
        Strategy::TruncatedMean => KeepMistake::TruncatedMean,
        Strategy::MaxOverStarts => KeepMistake::MaxOverStarts,
        Strategy::MinOverStarts => KeepMistake::MinOverStarts,
        Strategy::FirstFour => KeepMistake::FirstFour,
        Strategy::Worst => KeepMistake::WorstKeep,
        Strategy::FourCardsAlone => KeepMistake::FourCardsAlone,
        Strategy::Misvalued(part, how) => KeepMistake::WrongHandValue {
            rule: part_mistake(part, how),
        },
        Strategy::Mistaken(m) | Strategy::OrderMistaken(m) => {
            KeepMistake::WrongHandValue { rule: Some(m) }
        }
    })
}

/// Returns hand_value/3's mistake that leaving out (or doubling) `part` is, when its
/// diagnosis has words for it.
fn part_mistake(part: Part, how: Misvaluation) -> Option<RuleMistake> {
    use Misvaluation::{Doubled, Dropped};
    Some(match (part, how) {
        (Part::Fifteens, Dropped) => RuleMistake::FifteensMissing,
        (Part::Fifteens, Doubled) => RuleMistake::FifteensDoubled,
        (Part::FifteensWithStart, Dropped) => RuleMistake::FifteensNoStart,
        (Part::FifteensWithTen, Dropped) => RuleMistake::FifteensTensIgnored,
        (Part::FifteensOfThreePlus, Dropped) => RuleMistake::FifteensTwoCardsOnly,
        (Part::FifteensOfFourPlus, Dropped) => RuleMistake::FifteensNoFourOrFive,
        (Part::FifteensWithRepeatedValue, Dropped) => RuleMistake::FifteensDistinctValues,
        (Part::Pairs, Dropped) => RuleMistake::PairsMissing,
        (Part::Pairs, Doubled) => RuleMistake::PairsDoubled,
        (Part::PairsWithStart, Dropped) => RuleMistake::PairsNoStart,
        (Part::Runs, Dropped) => RuleMistake::RunsMissing,
        (Part::Runs, Doubled) => RuleMistake::RunsDoubled,
        (Part::RunsWithStart, Dropped) => RuleMistake::RunsNoStart,
        (Part::Flush4, Dropped) => RuleMistake::FlushFourMissing,
        (Part::Flush, Dropped) => RuleMistake::FlushMissing,
        (Part::FlushOfThreeAndStart, Doubled) => RuleMistake::FlushThreeAndStart,
        (Part::Nob, Dropped) => RuleMistake::NobMissing,
        (Part::Nob, Doubled) => RuleMistake::NobTwoPoints,
        (Part::NobOtherJack, Doubled) => RuleMistake::NobAnyJack,
        _ => return None,
    })
}

/// The model taken, with what it explains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fit {
    pub strategy: Strategy,
    pub ties: TieBreak,
    pub mistake: KeepMistake,
    /// Failing deals on which it chooses the submission's keep.
    pub explained: usize,
    pub precision: f64,
}

/// Returns the model that explains the most failing deals of `seen` with at least
/// [`MIN_PRECISION`] (the more precise, then the earlier of [`candidates`], on a tie), if any
/// explains one.
pub(crate) fn best_fit(seen: &[Seen], hand_value_found: &[RuleMistake]) -> Option<Fit> {
    let mut best: Option<Fit> = None;
    for (strategy, mistake) in candidates(hand_value_found) {
        // The keeps each deal's model may choose, once for both tie-breaks.
        let chosen: Vec<_> = seen
            .iter()
            .map(|s| {
                TieBreak::ALL.map(|t| {
                    let k = s.deal.choice(strategy, t);
                    (CardSet::of(&k.keep), k.total < s.deal.best_total())
                })
            })
            .collect();
        for (ti, ties) in TieBreak::ALL.into_iter().enumerate() {
            let (mut explained, mut would_fail) = (0usize, 0usize);
            for (s, c) in seen.iter().zip(&chosen) {
                let (keep, fails) = c[ti];
                would_fail += usize::from(fails);
                explained += usize::from(fails && s.kept == Some(keep));
            }
            if explained == 0 {
                continue;
            }
            let precision = explained as f64 / would_fail as f64;
            if precision < MIN_PRECISION {
                continue;
            }
            let better = best.is_none_or(|b| {
                explained > b.explained
                    || (explained == b.explained && precision > b.precision + 1e-9)
            });
            if better {
                best = Some(Fit {
                    strategy,
                    ties,
                    mistake,
                    explained,
                    precision,
                });
            }
        }
    }
    best
}

/// Returns what is wrong with the keeps of `seen`: `None` when no keep failed. A model is
/// named when it explains at least [`MIN_EXPLAINED`] of the failing deals; the example is the
/// simplest failing deal it explains (else the simplest failing deal): a named deal first,
/// then the one whose keep falls furthest below the best.
pub(crate) fn diagnose_seen(
    seen: &[Seen],
    hand_value_found: &[RuleMistake],
) -> Option<(Option<Fit>, KeepDiagnosis)> {
    let failing: Vec<&Seen> = seen.iter().filter(|s| s.kept.is_some()).collect();
    if failing.is_empty() {
        return None;
    }
    let fit = best_fit(seen, hand_value_found)
        .filter(|f| f.explained as f64 >= MIN_EXPLAINED * failing.len() as f64);
    let explains = |s: &Seen| {
        fit.is_none_or(|f| s.kept == Some(CardSet::of(&s.deal.choice(f.strategy, f.ties).keep)))
    };
    let example = failing
        .iter()
        .filter(|s| explains(s))
        .filter_map(|s| example(s))
        .min_by(|a, b| {
            (!a.0, -a.1)
                .partial_cmp(&(!b.0, -b.1))
                .unwrap_or(std::cmp::Ordering::Equal)
        })?
        .2;
    let diagnosis = KeepDiagnosis {
        verdict: fit.map_or(KeepVerdict::Unexplained, |f| {
            KeepVerdict::Mistake(f.mistake)
        }),
        failing: failing.len(),
        explained: fit.map_or(0, |f| f.explained),
        passing: seen.len() - failing.len(),
        follows_hand_value: !hand_value_found.is_empty()
            && matches!(fit, Some(f) if matches!(f.mistake, KeepMistake::WrongHandValue { .. })),
        example,
    };
    Some((fit, diagnosis))
}

/// Returns a failing deal's example with whether it is named and how far below the best its
/// keep's expected value falls.
fn example(s: &Seen) -> Option<(bool, f64, KeepExample)> {
    let kept = s.kept?;
    let chosen = s.deal.keeps.iter().find(|k| CardSet::of(&k.keep) == kept)?;
    let best = s.deal.keeps.first()?;
    Some((
        s.source == TestSource::Named,
        best.expected_value() - chosen.expected_value(),
        KeepExample {
            goal: s.goal.clone(),
            source: s.source,
            dealt: crib_core::cards_text(&s.deal.cards),
            starts: best.starts,
            chosen: KeepValue::new(chosen),
            best: KeepValue::new(best),
        },
    ))
}

/// Returns what is wrong with select_hand/3's keeps on the test set's `cases`, answered as
/// `tests` (the same order): `None` when no valid keep fell below the best. `hand_value`
/// is the mistakes hand_value/3's diagnosis found, which select_hand's choices may follow.
pub(crate) fn diagnose(
    cases: &[TestCase],
    tests: &[TestResult],
    hand_value: &[RuleMistake],
) -> Option<KeepDiagnosis> {
    diagnose_seen(&seen(cases, tests), hand_value).map(|(_, d)| d)
}

#[cfg(test)]
mod tests;
