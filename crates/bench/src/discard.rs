//! Times the discard analyses against issue 7's targets: the full dealer/pone crib analysis of
//! one six-card deal (15 keeps × 1,035 opponent discards × 44 start cards; target <= 10 ms on
//! one core), and the exhaustive tables of every 6-card deal (target <= 10 s wall on two
//! cores) and every 5-card deal.

use std::hint::black_box;

use crib_core::{analyze_crib, discard_summary, Card};
use criterion::Criterion;

/// The discard analyses: `cargo bench -p crib-bench --bench discard`.
pub fn benches(c: &mut Criterion) {
    let mut rng = crib_core::Dealer::new(0x9e37_79b9_7f4a_7c15);
    let sixes: Vec<Vec<Card>> = (0..64).map(|_| rng.deal(6)).collect();
    crib_core::rank_table();
    let mut i = 0;
    c.bench_function("analyze_crib_6", |b| {
        b.iter(|| {
            i = (i + 1) % sixes.len();
            analyze_crib(black_box(&sixes[i])).expect("six distinct cards")
        })
    });
    let mut group = c.benchmark_group("discard_table");
    group.sample_size(10);
    group.bench_function("every_5_card_deal", |b| {
        b.iter(|| discard_summary(black_box(5)).expect("5 is a deal size"))
    });
    group.bench_function("every_6_card_deal", |b| {
        b.iter(|| discard_summary(black_box(6)).expect("6 is a deal size"))
    });
    group.finish();
}
