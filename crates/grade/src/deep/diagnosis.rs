//! Naming what failing shows have in common: the features (and pairs of features) that
//! separate failing from passing shows best, and the shape of the errors.

use std::collections::HashMap;

use crib_core::Points;
use crib_results::{percent, Diagnosis, DiagnosisFinding, ErrorShape, Literal};

use super::features::Feature;

/// One checked show, for the diagnosis.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Observation {
    /// Its features, as bits of [`Feature`].
    pub features: u64,
    /// How many (hand, start) pairs it stands for.
    pub weight: u64,
    /// Whether the submission's answer was anything but right.
    pub failing: bool,
    /// For a wrong integer: got − expected, and the expected points per rule.
    pub wrong: Option<(i64, Points)>,
}

/// A conjunction of one or two literals: (feature index, present).
type Conjunction = Vec<(usize, bool)>;

/// The most findings reported.
const FINDINGS: usize = 3;

/// Returns the diagnosis of `observations`.
pub(crate) fn diagnose(observations: &[Observation]) -> Diagnosis {
    let failing: u64 = observations
        .iter()
        .filter(|o| o.failing)
        .map(|o| o.weight)
        .sum();
    let total: u64 = observations.iter().map(|o| o.weight).sum();
    if failing == 0 {
        return Diagnosis {
            summary: "no failing hand".into(),
            findings: Vec::new(),
            errors: Vec::new(),
        };
    }
    let errors = error_shapes(observations);
    if failing == total {
        let mut summary = "every hand checked fails, so no feature of the hand tells failing \
                           from passing"
            .to_string();
        if let Some(e) = errors.first() {
            summary.push_str(&format!("; {}", e.text));
        }
        return Diagnosis {
            summary,
            findings: Vec::new(),
            errors,
        };
    }
    let findings = findings(observations, failing);
    let mut summary = findings
        .first()
        .map(|f| f.text.clone())
        .unwrap_or_else(|| "no feature separates failing from passing hands".into());
    if let Some(e) = errors.first().filter(|e| e.share >= 0.5) {
        summary.push_str(&format!("; {}", e.text));
    }
    Diagnosis {
        summary,
        findings,
        errors,
    }
}

fn findings(observations: &[Observation], failing: u64) -> Vec<DiagnosisFinding> {
    let mut groups: HashMap<u64, (u64, u64)> = HashMap::new();
    for o in observations {
        let g = groups.entry(o.features).or_default();
        if o.failing {
            g.0 += o.weight;
        } else {
            g.1 += o.weight;
        }
    }
    let groups: Vec<(u64, u64, u64)> = groups.into_iter().map(|(m, (f, p))| (m, f, p)).collect();
    let n = Feature::ALL.len();
    let mut rules: Vec<Conjunction> = Vec::new();
    for i in 0..n {
        for yes in [true, false] {
            rules.push(vec![(i, yes)]);
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            for (a, b) in [(true, true), (true, false), (false, true)] {
                rules.push(vec![(i, a), (j, b)]);
            }
        }
    }
    let mut scored: Vec<(f64, Conjunction, u64, u64)> = rules
        .into_iter()
        .filter_map(|rule| {
            let (mut f, mut p) = (0u64, 0u64);
            for &(mask, gf, gp) in &groups {
                if rule.iter().all(|&(i, yes)| (mask >> i & 1 == 1) == yes) {
                    f += gf;
                    p += gp;
                }
            }
            (f > 0).then(|| (f1(f, p, failing), rule, f, p))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(a.1.len().cmp(&b.1.len()))
            .then(positives(&b.1).cmp(&positives(&a.1)))
            .then(a.1.cmp(&b.1))
    });
    let single: HashMap<(usize, bool), f64> = scored
        .iter()
        .filter(|s| s.1.len() == 1)
        .map(|s| (s.1[0], s.0))
        .collect();
    let mut out: Vec<DiagnosisFinding> = Vec::new();
    for (score, rule, f, p) in scored {
        if out.len() == FINDINGS {
            break;
        }
        // A pair must do better than each of its literals alone.
        if rule.len() == 2
            && rule
                .iter()
                .any(|l| single.get(l).is_some_and(|s| score <= s + 0.01))
        {
            continue;
        }
        let best = |b: &DiagnosisFinding| f1(b.failing_pairs, b.passing_pairs, failing);
        if out.first().is_some_and(|b| score < 0.5 * best(b)) {
            break;
        }
        out.push(finding(&rule, f, p, failing));
    }
    out
}

fn positives(rule: &Conjunction) -> usize {
    rule.iter().filter(|l| l.1).count()
}

fn f1(f: u64, p: u64, failing: u64) -> f64 {
    let precision = f as f64 / (f + p) as f64;
    let recall = f as f64 / failing as f64;
    2.0 * precision * recall / (precision + recall)
}

fn finding(rule: &Conjunction, f: u64, p: u64, failing: u64) -> DiagnosisFinding {
    let precision = f as f64 / (f + p) as f64;
    let recall = f as f64 / failing as f64;
    let what: Vec<&str> = rule
        .iter()
        .map(|&(i, yes)| {
            let (_, has, lacks) = Feature::ALL[i].words();
            if yes {
                has
            } else {
                lacks
            }
        })
        .collect();
    let what = what.join(" and ");
    let text = match (p == 0, f == failing) {
        (true, true) => format!("every failing hand has {what}, and no passing hand does"),
        (false, true) => format!(
            "every failing hand has {what}; {} of the hands with it fail",
            percent(precision)
        ),
        (true, false) => format!(
            "every hand with {what} fails; they are {} of the failing hands",
            percent(recall)
        ),
        (false, false) => format!(
            "{} of the failing hands have {what}; {} of the hands with it fail",
            percent(recall),
            percent(precision)
        ),
    };
    DiagnosisFinding {
        features: rule
            .iter()
            .map(|&(i, yes)| Literal {
                feature: Feature::ALL[i].words().0.into(),
                present: yes,
            })
            .collect(),
        text,
        precision: round4(precision),
        recall: round4(recall),
        failing_pairs: f,
        passing_pairs: p,
    }
}

fn round4(x: f64) -> f64 {
    (x * 10000.0).round() / 10000.0
}

/// The shapes of the wrong integers: a rule whose points explain got − expected, and the most
/// common differences.
fn error_shapes(observations: &[Observation]) -> Vec<ErrorShape> {
    let wrong: Vec<(i64, Points, u64)> = observations
        .iter()
        .filter_map(|o| o.wrong.map(|(d, p)| (d, p, o.weight)))
        .collect();
    let total: u64 = wrong.iter().map(|w| w.2).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    // got − expected = num/den × (one rule's points)
    // Simplest first: a later hypothesis must explain strictly more to be preferred.
    // (num, den, how the rule's points are written before and after, what happened)
    let factors: [(i64, i64, &str, &str, &str); 5] = [
        (-1, 1, "−", "", "missing"),
        (1, 1, "+", "", "counted twice"),
        (-1, 2, "−", "/2", "halved"),
        (1, 2, "+", "/2", "one and a half times what they should be"),
        (-2, 1, "−2×", "", "subtracted instead of added"),
    ];
    type RulePoints = fn(&Points) -> u8;
    let rules: [(&str, RulePoints); 5] = [
        ("fifteens", |p| p.fifteens),
        ("pairs", |p| p.pairs),
        ("runs", |p| p.runs),
        ("flush", |p| p.flush),
        ("nob", |p| p.nob),
    ];
    let mut best: Option<(u64, String)> = None;
    for (num, den, before, after, what) in factors {
        for (name, points) in rules {
            let explained: u64 = wrong
                .iter()
                .filter(|(d, p, _)| {
                    let r = i64::from(points(p));
                    r > 0 && d * den == num * r
                })
                .map(|w| w.2)
                .sum();
            if explained > 0 && best.as_ref().is_none_or(|b| explained > b.0) {
                best = Some((
                    explained,
                    format!(
                        "got − expected = {before}({name} points){after}: the {name} points are \
                         {what}"
                    ),
                ));
            }
        }
    }
    if let Some((explained, text)) = best {
        let share = explained as f64 / total as f64;
        if share >= 0.5 {
            out.push(ErrorShape {
                text: format!("in {} of the wrong answers, {text}", percent(share)),
                share: round4(share),
                pairs: explained,
            });
        }
    }
    let mut deltas: HashMap<i64, u64> = HashMap::new();
    for (d, _, w) in &wrong {
        *deltas.entry(*d).or_default() += w;
    }
    let mut deltas: Vec<(i64, u64)> = deltas.into_iter().collect();
    deltas.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (d, w) in deltas.into_iter().take(3) {
        let share = w as f64 / total as f64;
        let how = if d > 0 {
            format!("{d} too many")
        } else {
            format!("{} too few", -d)
        };
        out.push(ErrorShape {
            text: format!("{how} in {} of the wrong answers", percent(share)),
            share: round4(share),
            pairs: w,
        });
    }
    out.sort_by(|a, b| b.share.total_cmp(&a.share));
    out
}
