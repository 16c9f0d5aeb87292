//! The hand-written truth in spec/: every worked example, rule by rule, and the published
//! distribution of scores over all 12,994,800 (hand, start) pairs.

use crib_core::{hand_value, score_distribution, Breakdown, Card, Hand, Rule, ScoreCounts};
use serde::Deserialize;

use crate::read;

#[derive(Deserialize)]
struct Example {
    id: String,
    hand: Vec<String>,
    start: String,
    crib: bool,
    fifteens: u8,
    pairs: u8,
    runs: u8,
    flush: u8,
    nob: u8,
    points: u8,
}

fn spec(file: &str) -> String {
    read(&format!("spec/{file}"))
}

#[test]
fn worked_examples() {
    let text = spec("examples.jsonl");
    let mut checked = 0;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let where_ = format!("spec/examples.jsonl:{}", n + 1);
        let ex: Example = serde_json::from_str(line).unwrap_or_else(|e| panic!("{where_}: {e}"));
        let cards = crib_core::parse_cards(&ex.hand).unwrap_or_else(|e| panic!("{where_}: {e}"));
        let hand = Hand::from_slice(&cards).unwrap_or_else(|e| panic!("{where_}: {e}"));
        let start = Card::parse(&ex.start).unwrap_or_else(|e| panic!("{where_}: {e}"));
        let rule = if ex.crib { Rule::Crib } else { Rule::Hand };
        let got = Breakdown::new(&hand, start, rule).unwrap().points();
        let want = (ex.fifteens, ex.pairs, ex.runs, ex.flush, ex.nob);
        assert_eq!(
            (got.fifteens, got.pairs, got.runs, got.flush, got.nob),
            want,
            "{where_} {}",
            ex.id
        );
        assert_eq!(
            got.total(),
            ex.points,
            "{where_} {}: rules do not add up",
            ex.id
        );
        assert_eq!(
            hand_value(&hand, start, rule).unwrap(),
            ex.points,
            "{where_} {}",
            ex.id
        );
        checked += 1;
    }
    assert!(
        checked >= 6,
        "the six worked examples of the assignment at least"
    );
}

#[test]
fn published_distribution() {
    let want = ScoreCounts::parse(&spec("distribution.tsv"))
        .unwrap_or_else(|e| panic!("spec/distribution.tsv: {e}"));
    let got = score_distribution(Rule::Hand);
    assert_eq!(got, want);
    assert!((got.mean() - 4.7692).abs() < 5e-5);
}
