use super::*;
use crib_core::parse_cards;

#[test]
fn text_marks_the_best_and_ranks_ties_together() {
    // The four fives are interchangeable with each other, and so are the aces.
    let dealt = parse_cards(&["5C", "5D", "5H", "AH", "AS", "5S"]).unwrap();
    let mut keeps = analyze_crib(&dealt).unwrap();
    keeps.sort_by_key(|k| std::cmp::Reverse(k.dealer.sum));
    let rows = rows(&keeps, Role::Dealer);
    assert_eq!(rows.len(), 15);
    assert!(rows[0].best && rows.iter().skip(1).all(|r| !r.best));
    assert!(rows.windows(2).all(|w| w[0].rank <= w[1].rank));
    assert!(
        rows.iter().enumerate().any(|(i, r)| r.rank != i + 1),
        "interchangeable cards make ties"
    );
    let mut text = Vec::new();
    write_text(&mut text, Role::Dealer, &rows).unwrap();
    let text = String::from_utf8(text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("dealer:"), "{text}");
    assert!(lines[3].starts_with("*  1  "), "{text}");
    assert_eq!(lines.len(), 3 + 15 + 2, "{text}");
}
