//! Prints the select_hand balance's calibrated targets as the table
//! `crates/testset/src/draw/targets.tsv` holds them: every feature's mean sum over the
//! select_hand cases of 40 calibration seeds (`Seed::from_bytes([k; 32])`, k = 100..=139,
//! none of which the tests or the stability table draw from), after two rounds.
//!
//! `cargo run --release -p crib-lab --bin balance_targets > crates/testset/src/draw/targets.tsv`

use crib_testset::{balance_targets, Seed};

const SEEDS: std::ops::RangeInclusive<u8> = 100..=139;
const ROUNDS: usize = 2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seeds: Vec<Seed> = SEEDS.map(|k| Seed::from_bytes([k; 32])).collect();
    let targets = balance_targets::calibrate(&seeds, ROUNDS);
    print!("{}", balance_targets::tsv(&targets, seeds.len(), ROUNDS));
    Ok(())
}
