//! Grades each submission under many seeds and prints, per submission, the least, greatest
//! and mean total, hand_value and select_hand marks, and the mean share of pairs wrong: the
//! evidence that marks do not depend on the seed. Seeds are `Seed::from_bytes([k; 32])`
//! for k = K..K+N (K = 1 unless `--first K`), so the table can be made again, and a run cut
//! short can be finished with `--first` (its `--each` lines kept).
//!
//! `cargo run --release -p crib-lab --bin seed_stability -- [--seeds N] [--first K]
//! [-j N] PATH...`
//! (a PATH is a .pl file or a directory of them, as for `crib grade`); `--markdown` prints a
//! Markdown table; `--same-seed` grades N times under the first seed, to show how much of the
//! spread a submission makes by itself (one that chooses at random); `--each` prints every
//! submission's total, hand_value and select_hand marks under every seed on stderr as each
//! seed is done, so that a run cut short still leaves the seeds it finished.

use std::path::PathBuf;

use crib_grade::{Grader, Limits, WorkerPool};
use crib_isolation::IsolationChoice;
use crib_results::Marks;
use crib_submission::{discover, Submission};
use crib_testset::{Seed, Tests};

#[derive(Default, Clone)]
struct Spread {
    total: Vec<f64>,
    hand_value: Vec<f64>,
    select_hand: Vec<f64>,
    share: Vec<f64>,
}

fn stats(v: &[f64]) -> (f64, f64, f64) {
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (min, max, v.iter().sum::<f64>() / v.len().max(1) as f64)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut seeds, mut jobs, mut markdown, mut paths) = (20u8, 2usize, false, Vec::new());
    let (mut same_seed, mut each, mut first) = (false, false, 1u8);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seeds" => seeds = args.next().ok_or("--seeds N")?.parse()?,
            "-j" => jobs = args.next().ok_or("-j N")?.parse()?,
            "--first" => first = args.next().ok_or("--first K")?.parse()?,
            "--markdown" => markdown = true,
            "--same-seed" => same_seed = true,
            "--each" => each = true,
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    let subs: Vec<Submission> = discover(&paths, false)?;
    let last = first
        .checked_add(seeds)
        .ok_or("--first K plus --seeds N must stay within 255")?;
    let ks: Vec<u8> = (first..last).collect();
    let graded = WorkerPool::new(jobs).run_each(
        &ks,
        |slot, &k| {
            let seed = Seed::from_bytes([if same_seed { first } else { k }; 32]);
            let grader = Grader::new(
                "swipl".as_ref(),
                IsolationChoice::Auto,
                Limits::default(),
                &Tests::Drawn(seed),
            )
            .expect("a grader");
            let marks: Vec<Marks> = subs
                .iter()
                .map(|sub| grader.grade(sub, slot).marks)
                .collect();
            if each {
                for (sub, m) in subs.iter().zip(&marks) {
                    eprintln!(
                        "{} seed {k}: total {:.2} hand_value {:.2} select_hand {:.2}",
                        sub.name, m.total, m.hand_value, m.select_hand
                    );
                }
            }
            marks
        },
        |i, _| eprintln!("seed {} done", ks[i]),
    );
    let mut spreads = vec![Spread::default(); subs.len()];
    for marks in graded {
        for (spread, m) in spreads.iter_mut().zip(marks?) {
            spread.total.push(m.total);
            spread.hand_value.push(m.hand_value);
            spread.select_hand.push(m.select_hand);
            spread.share.push(m.hand_value_share_wrong);
        }
    }
    if markdown {
        println!("| submission | total min | max | mean | hand_value min | max | select_hand min | max | share of pairs wrong (mean) |");
        println!("|---|---|---|---|---|---|---|---|---|");
    }
    for (sub, s) in subs.iter().zip(&spreads) {
        let (t0, t1, tm) = stats(&s.total);
        let (h0, h1, _) = stats(&s.hand_value);
        let (s0, s1, _) = stats(&s.select_hand);
        let (_, _, share) = stats(&s.share);
        if markdown {
            println!(
                "| {} | {t0:.2} | {t1:.2} | {tm:.2} | {h0:.2} | {h1:.2} | {s0:.2} | {s1:.2} | {:.4}% |",
                sub.name,
                share * 100.0
            );
        } else {
            println!(
                "{:<32} total {t0:6.2} .. {t1:6.2} (mean {tm:6.2}, spread {:.2})  hand_value {h0:6.2} .. {h1:6.2}  select_hand {s0:6.2} .. {s1:6.2}  share {:.4}%",
                sub.name,
                t1 - t0,
                share * 100.0
            );
        }
    }
    Ok(())
}
