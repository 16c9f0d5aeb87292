//! Times crib-core's hot paths against the project's targets (issue: foundation):
//! `hand_value` per call, the full sweep of 12,994,800 pairs (target <= 20 ms on 2 cores),
//! `select_hand` of 5 and 6 cards (target <= 3 us for 6), and the one-time rank table build.

use std::hint::black_box;

use crib_core::{hand_value, score_distribution, select_hand, Card, Hand, Rule};
use criterion::Criterion;

/// crib-core's hot paths: `cargo bench -p crib-bench --bench score`.
pub fn benches(c: &mut Criterion) {
    let mut rng = crib_core::Dealer::new(0x2545_f491_4f6c_dd1d);
    let shows: Vec<(Hand, Card)> = (0..1024)
        .map(|_| {
            let d = rng.deal(5);
            (Hand::from_slice(&d[..4]).unwrap(), d[4])
        })
        .collect();
    let sixes: Vec<Vec<Card>> = (0..256).map(|_| rng.deal(6)).collect();
    let fives: Vec<Vec<Card>> = (0..256).map(|_| rng.deal(5)).collect();

    c.bench_function("rank_table_build", |b| {
        b.iter(|| black_box(crib_core::build_rank_table()))
    });
    let mut i = 0;
    c.bench_function("hand_value", |b| {
        b.iter(|| {
            i = (i + 1) % shows.len();
            let (hand, start) = &shows[i];
            hand_value(black_box(hand), black_box(*start), Rule::Hand).unwrap()
        })
    });
    for (name, deals) in [("select_hand_6", &sixes), ("select_hand_5", &fives)] {
        let mut i = 0;
        c.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % deals.len();
                select_hand(black_box(&deals[i])).unwrap()
            })
        });
    }
    let mut group = c.benchmark_group("sweep");
    group.sample_size(20);
    group.bench_function("score_distribution_all_pairs", |b| {
        b.iter(|| score_distribution(black_box(Rule::Hand)))
    });
    group.finish();
}
