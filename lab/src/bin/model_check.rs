//! Grades submissions' select_hand/3 under several seeds and compares each deal's credit
//! with every modelled strategy ([`balance_models`]: [`crib_testset::SELECT_MISTAKES`], and
//! every select_hand built on a wrong hand value under each [`TieBreak`]; then the
//! baselines' [`BASELINE_MODELS`]): the evidence that a model chooses as its submission does
//! on every deal, beyond the one seed the catalog test grades under. For each submission it
//! prints the models that agree on every deal, and, for a submission that
//! [`SELECT_MISTAKES`], [`MODELLED_MISTAKES`] or [`BASELINE_MODELS`] names, whether its named
//! model is one of them (exit status 1 if not). Seeds are `Seed::from_bytes([k; 32])` for
//! k = K..K+N (K = 1 unless `--first K`), as in `seed_stability`.
//!
//! `cargo run --release -p crib-lab --bin model_check -- [--seeds N] [--first K] [-j N]
//! [--each] PATH...` (a PATH is a .pl file or a directory of them; `--each` prints every submission's
//! select_hand marks under every seed on stderr, as `seed_stability --each` does).
//! hand_value/3 is asked on a small sample of patterns only: it is not what this checks.

use std::collections::HashMap;
use std::path::PathBuf;

use crib_grade::{Grader, Limits, WorkerPool};
use crib_isolation::IsolationChoice;
use crib_results::{Predicate, SelectCredit};
use crib_submission::{discover, Submission};
use crib_testset::{
    balance_models, model_name, Deal, Strategy, TieBreak, BASELINE_MODELS, MODELLED_MISTAKES,
    SELECT_MISTAKES,
};
use crib_testset::{Seed, TestCase, Tests};

/// Every model: the select_hand mistakes, then the select_hand built on wrong hand values,
/// then the baselines' models that are none of those.
fn models() -> Vec<(Strategy, TieBreak)> {
    let mut models: Vec<(Strategy, TieBreak)> = balance_models().map(|(_, s, t)| (s, t)).collect();
    for m in BASELINE_MODELS {
        if !models.contains(&(m.strategy, m.ties)) {
            models.push((m.strategy, m.ties));
        }
    }
    models
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut seeds, mut jobs, mut each, mut paths) = (3u8, 2usize, false, Vec::new());
    let mut first = 1u8;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seeds" => seeds = args.next().ok_or("--seeds N")?.parse()?,
            "-j" => jobs = args.next().ok_or("-j N")?.parse()?,
            "--each" => each = true,
            "--first" => first = args.next().ok_or("--first K")?.parse()?,
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    let subs: Vec<Submission> = discover(&paths, false)?;
    let models = models();
    let last = first
        .checked_add(seeds)
        .ok_or("--first K plus --seeds N must stay within 255")?;
    let ks: Vec<u8> = (first..last).collect();
    // For each seed, each submission's disagreements with each model, and the deals compared.
    let per_seed = WorkerPool::new(jobs).run_each(
        &ks,
        |slot, &k| {
            let seed = Seed::from_bytes([k; 32]);
            let limits = Limits {
                hand_value_patterns: Some(50),
                ..Limits::default()
            };
            let tests = Tests::Drawn(seed);
            let grader = Grader::new("swipl".as_ref(), IsolationChoice::Auto, limits, &tests)
                .expect("a grader");
            // Each deal's credit under each model, the same for every submission.
            let credits: HashMap<&str, Vec<f64>> = grader
                .test_set()
                .cases
                .iter()
                .map(
                    |TestCase {
                         id, cards, keeps, ..
                     }| {
                        let deal = Deal::new(cards.clone());
                        let credit = |&(strategy, ties): &(Strategy, TieBreak)| {
                            SelectCredit::Graded.credit(deal.choice(strategy, ties).total, keeps)
                        };
                        (id.as_str(), models.iter().map(credit).collect())
                    },
                )
                .collect();
            subs.iter()
                .map(|sub| {
                    let result = grader.grade(sub, slot);
                    if each {
                        eprintln!(
                            "{} seed {k}: select_hand {:.2}",
                            sub.name, result.marks.select_hand
                        );
                    }
                    let mut wrong = vec![0usize; models.len()];
                    let mut compared = 0;
                    for test in &result.tests {
                        if test.predicate != Predicate::SelectHand {
                            continue;
                        }
                        let (Some(model), Some(got)) = (credits.get(test.id.as_str()), test.credit)
                        else {
                            continue;
                        };
                        compared += 1;
                        for (w, m) in wrong.iter_mut().zip(model) {
                            if (m - got).abs() > 1e-9 {
                                *w += 1;
                            }
                        }
                    }
                    (wrong, compared)
                })
                .collect::<Vec<_>>()
        },
        |i, _| eprintln!("seed {} done", ks[i]),
    );
    let mut wrong = vec![vec![0usize; models.len()]; subs.len()];
    let mut compared = vec![0usize; subs.len()];
    for seed in per_seed {
        for (s, (w, c)) in seed?.into_iter().enumerate() {
            compared[s] += c;
            for (total, n) in wrong[s].iter_mut().zip(w) {
                *total += n;
            }
        }
    }
    let mut failed = false;
    let names: Vec<String> = models.iter().map(|&(s, t)| model_name(s, t)).collect();
    for (s, sub) in subs.iter().enumerate() {
        let agree: Vec<&str> = names
            .iter()
            .zip(&wrong[s])
            .filter(|(_, &w)| w == 0)
            .map(|(name, _)| name.as_str())
            .collect();
        let closest = names
            .iter()
            .zip(&wrong[s])
            .min_by_key(|(_, &w)| w)
            .map(|(name, w)| format!("{name} ({w} deals apart)"))
            .unwrap_or_default();
        let named = SELECT_MISTAKES
            .iter()
            .chain(MODELLED_MISTAKES)
            .chain(BASELINE_MODELS)
            .find(|m| m.id == sub.name);
        let verdict = match named {
            Some(m) => {
                let i = models
                    .iter()
                    .position(|&model| model == (m.strategy, m.ties))
                    .expect("every named model is a model");
                if wrong[s][i] == 0 {
                    format!("named model {} agrees", names[i])
                } else {
                    failed = true;
                    format!(
                        "NAMED MODEL {} DISAGREES on {} deals",
                        names[i], wrong[s][i]
                    )
                }
            }
            None => "no named model".to_string(),
        };
        println!(
            "{:<30} {} deals; {verdict}; agree: {}",
            sub.name,
            compared[s],
            if agree.is_empty() {
                format!("none (closest {closest})")
            } else {
                agree.join(", ")
            }
        );
    }
    if failed {
        std::process::exit(1);
    }
    Ok(())
}
