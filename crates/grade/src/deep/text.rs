//! crib-core's breakdown in words, as the deep check's counterexamples show it.

use crib_core::{cards_text, Breakdown, Card};

/// Returns crib-core's breakdown in words: `fifteens 2 (7H+8C), runs 3 (7H 8C 9D)`.
pub(crate) fn breakdown_words(b: &Breakdown) -> String {
    let p = b.points();
    let sets = |sets: &[Vec<Card>], join: &str| -> String {
        sets.iter()
            .map(|s| s.iter().map(Card::to_string).collect::<Vec<_>>().join(join))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if p.fifteens > 0 {
        parts.push(format!(
            "fifteens {} ({})",
            p.fifteens,
            sets(&b.fifteens, "+")
        ));
    }
    if p.pairs > 0 {
        parts.push(format!("pairs {} ({})", p.pairs, sets(&b.pairs, " ")));
    }
    if p.runs > 0 {
        parts.push(format!("runs {} ({})", p.runs, sets(&b.runs, " ")));
    }
    if p.flush > 0 {
        parts.push(format!("flush {} ({})", p.flush, cards_text(&b.flush)));
    }
    if let Some(jack) = b.nob {
        parts.push(format!("nob 1 ({jack})"));
    }
    if parts.is_empty() {
        "no points".into()
    } else {
        parts.join(", ")
    }
}
