use super::*;
use crib_core::{discard_summary_over, Rank};

#[test]
fn a_slice_formats_every_deal_once_and_names_select_hands_choice() {
    let ranks = [Rank::Four, Rank::Five, Rank::Six, Rank::Jack];
    let summary = discard_summary_over(6, &ranks).unwrap();
    let [distribution, extremes] = tables(&summary).unwrap();
    assert_eq!(distribution.path, "fixtures/discards-6.tsv");
    let rows: Vec<Vec<&str>> = distribution
        .contents
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    let deals: u64 = rows.iter().map(|r| r[2].parse::<u64>().unwrap()).sum();
    assert_eq!(deals, 8008); // C(16, 6)
    assert_eq!(rows.last().unwrap()[4], "100.000000");
    let extreme_rows: Vec<&str> = extremes
        .contents
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .collect();
    assert_eq!(extreme_rows.len(), summary.most.len() + summary.least.len());
    let first: Vec<&str> = extreme_rows[0].split('\t').collect();
    let dealt = crib_core::parse_cards(&first[2].split(' ').collect::<Vec<_>>()).unwrap();
    let best = select_hand(&dealt).unwrap().best;
    assert_eq!(first[3], cards_text(&best.keep));
    assert_eq!(first[6], best.total.to_string());
    assert_eq!(
        first[6],
        rows.last().unwrap()[0],
        "the most valuable has the top total"
    );
}
