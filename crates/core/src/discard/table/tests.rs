use super::*;
use crate::select_hand;

/// The class representative the table uses, recomputed from a deal: its suits' rank sets
/// sorted by size then mask, both descending, dealt to clubs, diamonds, hearts, spades.
fn canonical(deal: &[Card]) -> Vec<Card> {
    let mut masks = [0u16; 4];
    for c in deal {
        masks[c.suit().index() as usize] |= 1 << (c.rank().number() - 1);
    }
    masks.sort_by(|a, b| (b.count_ones(), b).cmp(&(a.count_ones(), a)));
    let mut out = [Card::from_index(0).unwrap(); 6];
    let n = deal_of(masks, &mut out);
    out[..n].to_vec()
}

/// Every `n`-card deal from `cards`, in lexicographic order.
fn deals_from(cards: &[Card], n: usize) -> Vec<Vec<Card>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for (i, &c) in cards.iter().enumerate() {
        for mut rest in deals_from(&cards[i + 1..], n - 1) {
            rest.insert(0, c);
            out.push(rest);
        }
    }
    out
}

/// The summary recomputed deal by deal with select_hand, without symmetry.
fn brute(deal_size: usize, ranks: &[Rank]) -> DiscardSummary {
    let cards: Vec<Card> = Card::deck().filter(|c| ranks.contains(&c.rank())).collect();
    let mut summary = DiscardSummary::empty(deal_size);
    let mut classes = std::collections::BTreeMap::<Vec<Card>, (u64, u32)>::new();
    for deal in deals_from(&cards, deal_size) {
        let total = select_hand(&deal).unwrap().best.total;
        summary.deals += 1;
        summary.best_totals[total as usize] += 1;
        let class = classes.entry(canonical(&deal)).or_insert((0, total));
        class.0 += 1;
        assert_eq!(
            class.1, total,
            "suit relabelling keeps the best total: {deal:?}"
        );
    }
    summary.classes = classes.len() as u64;
    let mut all: Vec<DealClass> = classes
        .into_iter()
        .map(|(cards, (deals, best_total))| DealClass {
            cards,
            deals,
            best_total,
        })
        .collect();
    all.sort_by(|a, b| b.best_total.cmp(&a.best_total).then(a.cards.cmp(&b.cards)));
    summary.most = all.iter().take(EXTREMES).cloned().collect();
    all.sort_by(|a, b| a.best_total.cmp(&b.best_total).then(a.cards.cmp(&b.cards)));
    summary.least = all.iter().take(EXTREMES).cloned().collect();
    summary
}

#[test]
fn a_slice_of_six_card_deals_matches_select_hand_deal_by_deal() {
    // runs, fifteens (5 + J), pairs and nobs are all possible
    let ranks = [Rank::Four, Rank::Five, Rank::Six, Rank::Jack];
    let fast = discard_summary_over(6, &ranks).unwrap();
    assert_eq!(fast, brute(6, &ranks));
    assert_eq!(fast.deals, 8008); // C(16, 6)
    assert_eq!(fast.starts, 46);
}

#[test]
fn a_slice_of_five_card_deals_matches_select_hand_deal_by_deal() {
    let ranks = [Rank::Ace, Rank::Seven, Rank::Eight, Rank::King];
    let fast = discard_summary_over(5, &ranks).unwrap();
    assert_eq!(fast, brute(5, &ranks));
    assert_eq!(fast.deals, 4368); // C(16, 5)
    assert_eq!(fast.starts, 47);
}

#[test]
fn the_classes_of_the_whole_deck_count_every_deal_once() {
    for (n, deals) in [(5u32, 2_598_960u64), (6, 20_358_520)] {
        let sets = RankSets::new((1 << 13) - 1, n);
        let mut total = 0;
        let mut classes = 0u64;
        for first in 0..sets.list.len() {
            if 4 * sets.list[first].count_ones() >= n {
                sets.classes_from(first, n, |masks, orbit| {
                    debug_assert_eq!(masks.iter().map(|m| m.count_ones()).sum::<u32>(), n);
                    total += orbit;
                    classes += 1;
                });
            }
        }
        assert_eq!(total, deals, "{n}-card deals");
        assert!(
            classes * 24 >= deals && classes * 12 < deals,
            "{classes} classes"
        );
    }
}

#[test]
fn mean_and_sum_follow_the_histogram() {
    let mut s = DiscardSummary::empty(6);
    s.best_totals[46] = 3; // expected value 1
    s.best_totals[92] = 1; // expected value 2
    s.deals = 4;
    assert_eq!(s.sum_of_best_totals(), 3 * 46 + 92);
    assert!((s.mean() - 1.25).abs() < 1e-12);
    assert_eq!(DiscardSummary::empty(5).mean(), 0.0);
}
