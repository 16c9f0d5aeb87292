//! Times `crib similar`'s engine on a class of 500 submissions of about 10 KB (target:
//! under 1 s on 2 cores, issue 29): every file tokenized, read as terms, normalised and
//! winnowed, the index built, the class-common cut made, and every pair that shares a
//! fingerprint (crib's reference included) scored with its fragments. The class is made from
//! the project's own solutions, each submission a seeded shuffle of their clauses with its
//! variables renamed, so most pairs share something, as in a real class.

use crib_similar::{compare, Options, Source};
use criterion::Criterion;

/// The class: 500 submissions of ~10 KB.
pub fn class() -> Vec<Source> {
    let root = crate::repo_path("");
    let mut clauses: Vec<String> = Vec::new();
    for file in [
        "prolog/cribbage.pl",
        "crates/grade/tests/submissions/correct.pl",
        "crates/grade/tests/submissions/module/scoring.pl",
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        clauses.extend(text.split(".\n").map(|c| format!("{}.\n", c.trim())));
    }
    let mut dealer = crib_core::Dealer::new(2026);
    let mut next = move || dealer.next_u64();
    (0..500)
        .map(|i| {
            let mut text = String::new();
            while text.len() < 10_000 {
                let c = &clauses[(next() % clauses.len() as u64) as usize];
                text.push_str(&c.replace("Hand", &format!("H{}", next() % 7)));
                text.push('\n');
            }
            Source {
                name: format!("s{i:03}"),
                files: vec![("main.pl".into(), text)],
            }
        })
        .collect()
}

/// `crib similar` on a class of 500: `cargo bench -p crib-bench --bench similar`.
pub fn benches(c: &mut Criterion) {
    let class = class();
    let mut group = c.benchmark_group("similar");
    group.sample_size(10);
    group.bench_function("class_of_500", |b| {
        b.iter(|| compare(&class, &[], &[], &Options::default()))
    });
    group.finish();
}
