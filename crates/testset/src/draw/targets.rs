//! The calibrated targets of the select_hand balance: for each of `balance_features`, the
//! sum over a test set's select_hand cases that the balance aims at, the same under every
//! seed: what the balance achieves on average ([`calibrate`]). Why: docs/DESIGN.md, "Targets".
//!
//! The table, `targets.tsv`, is made by `cargo run --release -p crib-lab --bin
//! balance_targets > crates/testset/src/draw/targets.tsv` on seeds that no test set is
//! drawn from in the tests or the stability table, and a test checks that it names every
//! feature in order. The targets are averages over deals anyone can deal: they say nothing
//! about any seed's tests.

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::seed::Seed;

use super::{balance_feature_names, balance_features, named_deals, pool_deals, Deal};

/// The table of calibrated targets: lines of `name<TAB>target`, `#` comments.
pub(crate) const TABLE: &str = include_str!("targets.tsv");

/// Returns the calibrated target of each of [`balance_features`], in its order: `None` for a
/// feature the table does not name (the balance then aims at the pool's mean; a test fails
/// until the table is made again).
pub(crate) fn calibrated() -> &'static [Option<f64>] {
    static TARGETS: OnceLock<Vec<Option<f64>>> = OnceLock::new();
    TARGETS.get_or_init(|| {
        let table = parse(TABLE);
        balance_feature_names()
            .iter()
            .map(|name| table.iter().find(|(n, _)| n == name).map(|&(_, t)| t))
            .collect()
    })
}

/// Returns the (name, target) rows of a table, skipping comments, blank lines and rows that
/// do not parse.
pub(crate) fn parse(table: &str) -> Vec<(String, f64)> {
    table
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (name, target) = l.split_once('\t')?;
            Some((name.to_string(), target.trim().parse().ok()?))
        })
        .collect()
}

/// Returns the targets as the table's text, with its header.
pub fn tsv(targets: &[(String, f64)], seeds: usize, rounds: usize) -> String {
    let mut out = format!(
        "# The select_hand balance's calibrated targets (crates/testset/src/draw/targets.rs):\n\
         # for each feature, its mean sum over a test set's select_hand cases under {seeds}\n\
         # calibration seeds, after {rounds} rounds. Made by `cargo run --release -p crib-lab\n\
         # --bin balance_targets`; not edited by hand.\n"
    );
    for (name, target) in targets {
        out.push_str(&format!("{name}\t{target:.6}\n"));
    }
    out
}

/// Returns the targets calibrated on `seeds`: the first round balances every seed's deals
/// towards its own pool's means, and each later round towards the mean sums the round before
/// achieved over the seeds. Uses every core; about a quarter of a second a seed a round.
pub fn calibrate(seeds: &[Seed], rounds: usize) -> Vec<(String, f64)> {
    let names = balance_feature_names();
    let mut targets: Vec<Option<f64>> = Vec::new();
    for _ in 0..rounds.max(1) {
        let sums: Vec<Vec<f64>> = seeds
            .par_iter()
            .map(|seed| {
                let named = named_deals(seed);
                let chosen: Vec<Deal> = pool_deals(seed, &named, &targets)
                    .into_iter()
                    .map(|(_, d)| d)
                    .collect();
                let mut sum = vec![0.0; names.len()];
                for deal in named.iter().chain(&chosen) {
                    for (s, v) in sum.iter_mut().zip(balance_features(deal).0) {
                        *s += v;
                    }
                }
                sum
            })
            .collect();
        targets = (0..names.len())
            .map(|f| Some(sums.iter().map(|s| s[f]).sum::<f64>() / sums.len() as f64))
            .collect();
    }
    names
        .into_iter()
        .zip(targets)
        .map(|(name, t)| (name, t.unwrap_or(0.0)))
        .collect()
}
