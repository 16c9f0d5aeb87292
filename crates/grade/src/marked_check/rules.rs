//! The marked check's diagnosis rule by rule: which of the show's five rules a hand_value/3
//! counts wrongly, and how, in the student's words.
//!
//! Each rule has models of the ways students count it wrongly ([`RuleMistake`]: its points
//! missing, doubled, the face cards worth 11-13, a flush of four not counted, any jack as his
//! nob, ...), whose points item by item are crib-testset's models ([`rule_points`], computed
//! from crib-core's breakdown or from the suits). A submission's model picks one way of counting
//! per rule (the right one or a mistake); its prediction for a hand is the sum of the five.
//! The search starts from the rules and, rule by rule, takes the way of counting that
//! makes the prediction equal the submission's answer on the most pairs (weighted), until no
//! change gains (coordinate ascent: a few rounds of 46 models over the items). What the
//! chosen model does not explain is stated per rule as unexplained, and answers that are no
//! integer exactly on hands where a rule scores nothing as that rule failing when it scores
//! nothing. Expected answers always come from crib-core.

use crib_results::{Area, FailureKind, RuleFinding, RuleMistake, RuleVerdict};

use crate::deep;
use crate::protocol::ItemOutcome;
use crib_testset::misvalue::rules::{rule_index, rule_points, RulePoints};
use crib_testset::patterns::PatternItem;

/// A way of counting one rule: right, or a mistake.
type Way = Option<RuleMistake>;

/// The most rounds of the search (it settles in two or three).
const ROUNDS: usize = 8;

/// The least precision of a mistake taken: of the answers to hands where it counts its rule
/// differently from the rules (weighted), the share it predicts. A model less precise is
/// taken for chance, however many answers it happens to predict.
const MIN_PRECISION: f64 = 0.3;

/// Returns each rule's ways of counting: right first, then its mistakes.
fn ways() -> [Vec<Way>; 5] {
    let mut ways: [Vec<Way>; 5] = Default::default();
    for (k, w) in ways.iter_mut().enumerate() {
        w.push(None);
        w.extend(
            RuleMistake::ALL
                .iter()
                .filter(|m| rule_index(m.family()) == k)
                .map(|m| Some(*m)),
        );
    }
    ways
}

/// One answered item as the search sees it.
struct Seen<'a> {
    item: &'a PatternItem,
    got: &'a ItemOutcome,
    points: RulePoints,
    /// The answer, when an integer.
    value: Option<i64>,
    /// How it fails, if it does.
    failure: Option<FailureKind>,
}

/// Returns what is wrong with the answers to `items` rule by rule (`answers[k]`: the answer
/// to `items[k]`, `None` when not asked), in [`Area`] order: empty when every answer is
/// right.
pub(crate) fn diagnose(items: &[PatternItem], answers: &[Option<ItemOutcome>]) -> Vec<RuleFinding> {
    // Nothing wrong, nothing to model: the items' points per rule (crib-testset's tables,
    // a tenth of a second to build) are not needed.
    let right = |(item, got): (&PatternItem, &Option<ItemOutcome>)| {
        got.as_ref()
            .is_none_or(|got| deep::failure(got, item.expected).is_none())
    };
    if items.iter().zip(answers).all(right) {
        return Vec::new();
    }
    let seen: Vec<Seen<'_>> = items
        .iter()
        .zip(answers)
        .filter_map(|(item, got)| {
            let got = got.as_ref()?;
            Some(Seen {
                item,
                got,
                points: rule_points(item),
                value: got.int(),
                failure: deep::failure(got, item.expected),
            })
        })
        .collect();
    let failing: f64 = seen
        .iter()
        .filter(|s| s.failure.is_some())
        .map(|s| s.item.weight)
        .sum();
    if failing <= 0.0 {
        return Vec::new();
    }
    let ways = ways();
    let chosen = search(&seen, &ways);
    let predict =
        |s: &Seen<'_>| -> i64 { (0..5).map(|k| i64::from(s.points.of(k, chosen[k]))).sum() };
    let mut findings = Vec::new();
    let mut explained = vec![false; seen.len()];
    for (k, rule) in Area::RULES.into_iter().enumerate() {
        let Some(mistake) = chosen[k] else { continue };
        // The wrong answers the model predicts on which this rule's count differs.
        let shown: Vec<usize> = (0..seen.len())
            .filter(|&i| {
                let s = &seen[i];
                s.failure.is_some()
                    && s.value == Some(predict(s))
                    && s.points.of(k, chosen[k]) != s.points.right[k]
            })
            .collect();
        for &i in &shown {
            explained[i] = true;
        }
        // The simplest, preferring one whose other rules the submission counts right.
        let alone =
            |s: &Seen<'_>| (0..5).all(|j| j == k || s.points.of(j, chosen[j]) == s.points.right[j]);
        let Some(&best) = shown
            .iter()
            .min_by_key(|&&i| (!alone(&seen[i]), deep::simplicity(&seen[i].item.cards)))
        else {
            continue;
        };
        let s = &seen[best];
        findings.push(finding(
            rule,
            RuleVerdict::Mistake(mistake),
            weight_of(&seen, &shown) / failing,
            s,
            Some(s.points.right[k]),
            Some(s.points.of(k, chosen[k])),
        ));
    }
    // Answers that are no integer exactly where a rule scores nothing.
    let no_integer: Vec<usize> = (0..seen.len())
        .filter(|&i| seen[i].failure.is_some() && seen[i].value.is_none())
        .collect();
    let none_weight = weight_of(&seen, &no_integer);
    if none_weight > 0.0 {
        let fails_when_none = (0..5)
            .map(|k| {
                let zero: Vec<usize> = (0..seen.len())
                    .filter(|&i| seen[i].points.right[k] == 0)
                    .collect();
                let zero_failing: Vec<usize> = no_integer
                    .iter()
                    .copied()
                    .filter(|&i| seen[i].points.right[k] == 0)
                    .collect();
                let a = weight_of(&seen, &zero_failing);
                let fit = (a / none_weight).min(a / weight_of(&seen, &zero).max(f64::MIN_POSITIVE));
                (fit, k, zero_failing)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((_, k, zero_failing)) = fails_when_none.filter(|f| f.0 >= 0.95) {
            for &i in &zero_failing {
                explained[i] = true;
            }
            if let Some(&best) = zero_failing
                .iter()
                .min_by_key(|&&i| deep::simplicity(&seen[i].item.cards))
            {
                findings.push(finding(
                    Area::RULES[k],
                    RuleVerdict::FailsWhenNone,
                    weight_of(&seen, &zero_failing) / failing,
                    &seen[best],
                    Some(0),
                    None,
                ));
            }
        }
    }
    // What the model leaves: by where each error shows (as the areas), among what is left.
    let left: Vec<(usize, Vec<Area>)> = (0..seen.len())
        .filter(|&i| seen[i].failure.is_some() && !explained[i])
        .map(|i| {
            let s = &seen[i];
            let kind = s.failure.unwrap_or(FailureKind::WrongAnswer);
            (i, super::candidates(kind, s.got, s.item))
        })
        .collect();
    let support = super::support(
        left.iter()
            .map(|(i, areas)| (seen[*i].item.weight, &areas[..])),
    );
    let mut by_area: Vec<(Area, Vec<usize>)> = Vec::new();
    for (i, areas) in &left {
        let area = super::likeliest(areas, &support);
        match by_area.iter_mut().find(|(a, _)| *a == area) {
            Some((_, v)) => v.push(*i),
            None => by_area.push((area, vec![*i])),
        }
    }
    for (area, members) in by_area {
        let Some(&best) = members
            .iter()
            .min_by_key(|&&i| deep::simplicity(&seen[i].item.cards))
        else {
            continue;
        };
        let s = &seen[best];
        let expected = Area::RULES
            .iter()
            .position(|a| *a == area)
            .map(|k| s.points.right[k]);
        findings.push(finding(
            area,
            RuleVerdict::Unexplained,
            weight_of(&seen, &members) / failing,
            s,
            expected,
            None,
        ));
    }
    findings.sort_by(|a, b| a.rule.cmp(&b.rule).then(b.explains.total_cmp(&a.explains)));
    findings
}

/// Returns the way of counting each rule that predicts the most answers (weighted), found
/// rule by rule from the rules; a mistake is taken only when it predicts more than the rules
/// and at least [`MIN_PRECISION`] of the answers where it differs from them.
fn search(seen: &[Seen<'_>], ways: &[Vec<Way>; 5]) -> [Way; 5] {
    let mut chosen: [Way; 5] = [None; 5];
    let mut predicted: Vec<i64> = seen
        .iter()
        .map(|s| s.points.right.iter().map(|&p| i64::from(p)).sum())
        .collect();
    // (answers predicted, precision) of counting rule `k` the way `way`.
    let score = |k: usize, way: Way, predicted: &[i64], chosen: &[Way; 5]| -> (f64, f64) {
        let (mut hits, mut differ, mut differ_hits) = (0.0, 0.0, 0.0);
        for (s, &p) in seen.iter().zip(predicted) {
            let points = s.points.of(k, way);
            let hit = s
                .value
                .is_some_and(|v| p - i64::from(s.points.of(k, chosen[k])) + i64::from(points) == v);
            let w = s.item.weight;
            if hit {
                hits += w;
            }
            if points != s.points.right[k] {
                differ += w;
                if hit {
                    differ_hits += w;
                }
            }
        }
        let precision = if differ > 0.0 {
            differ_hits / differ
        } else {
            1.0
        };
        (hits, precision)
    };
    for _ in 0..ROUNDS {
        let mut changed = false;
        for k in 0..5 {
            let (current, _) = score(k, chosen[k], &predicted, &chosen);
            let best = ways[k]
                .iter()
                .map(|&w| (w, score(k, w, &predicted, &chosen)))
                .filter(|(w, (_, precision))| w.is_none() || *precision >= MIN_PRECISION)
                .fold((chosen[k], current), |acc, (w, (hits, _))| {
                    if hits > acc.1 + 1e-9 {
                        (w, hits)
                    } else {
                        acc
                    }
                })
                .0;
            if best != chosen[k] {
                for (s, p) in seen.iter().zip(predicted.iter_mut()) {
                    *p += i64::from(s.points.of(k, best)) - i64::from(s.points.of(k, chosen[k]));
                }
                chosen[k] = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    chosen
}

/// Returns the summed weight of the items at `indices`.
fn weight_of(seen: &[Seen<'_>], indices: &[usize]) -> f64 {
    indices.iter().map(|&i| seen[i].item.weight).sum()
}

/// Returns a finding with `s` as its example.
fn finding(
    rule: Area,
    verdict: RuleVerdict,
    explains: f64,
    s: &Seen<'_>,
    expected_points: Option<u8>,
    got_points: Option<u8>,
) -> RuleFinding {
    let kind = s.failure.unwrap_or(FailureKind::WrongAnswer);
    RuleFinding {
        rule,
        verdict,
        explains: explains.clamp(0.0, 1.0),
        example: deep::counterexample(kind, &s.item.cards, s.got),
        expected_points,
        got_points,
    }
}

#[cfg(test)]
mod tests;
