//! Prints, for every modelled strategy (the select_hand mistakes of the catalog, and the
//! select_hand/3 built on a wrong hand value, once for each [`TieBreak`]), the
//! least and greatest select_hand marks over many seeds' test sets, without running any
//! Prolog: how well the deals are balanced. Seeds are `Seed::from_bytes([k; 32])`, k = 1..=N.
//!
//! `cargo run --release -p crib-lab --bin balance_check -- [--seeds N] [--each]`
//! (`--each`: every strategy's marks under every seed, on stderr, to compare with
//! `seed_stability --each`).

use crib_results::{SelectCredit, TestSource};
use crib_testset::{balance_models, Deal, Seed, Strategy, TestSet, TieBreak};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut seeds, mut each) = (20u8, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seeds" => seeds = args.next().ok_or("--seeds N")?.parse()?,
            "--each" => each = true,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let strategies: Vec<(String, Strategy, TieBreak)> = balance_models().collect();
    let mut marks = vec![Vec::new(); strategies.len()];
    let mut named = vec![Vec::new(); strategies.len()];
    let started = std::time::Instant::now();
    let mut items = Vec::new();
    for k in 1..=seeds {
        let set = TestSet::new(&Seed::from_bytes([k; 32]));
        items.push(set.hand_value.len());
        let deals: Vec<(bool, Deal)> = set
            .cases
            .iter()
            .map(|c| (c.source == TestSource::Named, Deal::new(c.cards.clone())))
            .collect();
        for (m, (_, strategy, ties)) in strategies.iter().enumerate() {
            let credit =
                |d: &Deal| SelectCredit::Graded.credit(d.choice(*strategy, *ties).total, &d.keeps);
            let sum: f64 = deals.iter().map(|(_, d)| credit(d)).sum();
            let from_named: f64 = deals
                .iter()
                .filter(|(n, _)| *n)
                .map(|(_, d)| credit(d))
                .sum();
            marks[m].push(20.0 * sum / deals.len() as f64);
            if each {
                eprintln!(
                    "{} seed {k}: {:.2}",
                    strategies[m].0,
                    20.0 * sum / deals.len() as f64
                );
            }
            named[m].push(20.0 * from_named / deals.len() as f64);
        }
    }
    eprintln!(
        "{seeds} test sets in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let (least, most) = (items.iter().min(), items.iter().max());
    println!("hand_value items per test set: {least:?} to {most:?}");
    let mut worst = 0.0f64;
    for (((name, _, _), v), w) in strategies.iter().zip(&marks).zip(&named) {
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        worst = worst.max(max - min);
        let (wmin, wmax) = (
            w.iter().copied().fold(f64::INFINITY, f64::min),
            w.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        println!(
            "{name:<50} {min:6.2} {max:6.2} {mean:6.2} spread {:5.2} (named deals {:4.2})",
            max - min,
            wmax - wmin
        );
    }
    println!("greatest spread {worst:.2}");
    Ok(())
}
