//! Prints the select_hand balance's calibrated targets as the table
//! `crates/grade/src/testset/targets.tsv` holds them: every feature's mean sum over the
//! select_hand cases of 40 calibration seeds (`Seed::from_bytes([k; 32])`, k = 100..=139,
//! none of which the tests or the stability table draw from), after two rounds.
//!
//! `cargo run --release -p crib-grade --example balance_targets > crates/grade/src/testset/targets.tsv`

use crib_grade::{balance_targets, Seed};

const SEEDS: std::ops::RangeInclusive<u8> = 100..=139;
const ROUNDS: usize = 2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seeds: Vec<Seed> = SEEDS.map(|k| Seed::from_bytes([k; 32])).collect();
    let jobs = std::thread::available_parallelism().map_or(1, usize::from);
    let targets = balance_targets::calibrate(&seeds, ROUNDS, jobs)?;
    print!("{}", balance_targets::tsv(&targets, seeds.len(), ROUNDS));
    Ok(())
}
