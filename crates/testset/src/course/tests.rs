use super::*;
use crate::draw::{TestCase, NAMED_DEALS};
use crate::kept::tests::same;
use crate::COVER_DEPTH;
use crib_results::TestSource;

/// A course for unit tests; grading never uses this seed.
pub(crate) fn course() -> &'static Course {
    static COURSE: std::sync::OnceLock<Course> = std::sync::OnceLock::new();
    COURSE.get_or_init(|| Course::new(&Seed::from_bytes([0x5c; 32])))
}

#[test]
fn the_same_salt_draws_the_same_set_and_another_salt_another() {
    let course = course();
    let a = course.draw("submission 1");
    same(&a, &course.draw("submission 1"));
    let b = course.draw("submission 2");
    assert_ne!(a.fingerprint, b.fingerprint);
    let derived = Seed::from_bytes([0x5c; 32]).derive("submission 1");
    assert_eq!(
        a.seed_id,
        derived.id(),
        "a salted set is named by its derived seed"
    );
    assert!(a.fingerprint.starts_with(&format!("{SALTED_DESIGN}-")));
    assert!(a.fingerprint.ends_with(&a.seed_id));
    // Other deals: the pool deals two salts share are few of 45 (about 1.4 on average).
    let pool_indices = |set: &TestSet| -> Vec<u64> {
        let ids = set.cases.iter().map(|c| c.id.strip_prefix("sh:pool-"));
        ids.flatten().map(|i| i.parse().unwrap()).collect()
    };
    let (pa, pb) = (pool_indices(&a), pool_indices(&b));
    assert_eq!(pa.len(), POOL_DEALS_OF_A_SET);
    let shared = pa.iter().filter(|i| pb.contains(i)).count();
    assert!(shared <= 10, "{shared} pool deals shared");
    // Other cards: the named deals' order, and nearly every hand_value item.
    let goals = |s: &TestSet| -> Vec<String> { s.cases.iter().map(TestCase::goal).collect() };
    assert!(goals(&a)[..NAMED_DEALS.len()] != goals(&b)[..NAMED_DEALS.len()]);
    let cards: std::collections::HashSet<[Card; 5]> =
        a.hand_value.iter().map(|i| i.cards).collect();
    let same_items = b
        .hand_value
        .iter()
        .filter(|i| cards.contains(&i.cards))
        .count();
    assert!(
        same_items < b.hand_value.len() / 20,
        "{same_items} hand_value items shared"
    );
    // A pool deal two salts share is shown with other suits (a renaming of the salt's):
    // feedback on one submission shows no deal of the next as it was.
    let sets: Vec<TestSet> = (0..8).map(|k| course.draw(&format!("salt {k}"))).collect();
    let (mut shared, mut shown_alike) = (0, 0);
    for (i, x) in sets.iter().enumerate() {
        for y in &sets[i + 1..] {
            for case in x.cases.iter().filter(|c| c.source == TestSource::Pool) {
                if let Some(other) = y.cases.iter().find(|c| c.id == case.id) {
                    shared += 1;
                    shown_alike += usize::from(other.cards == case.cards);
                }
            }
        }
    }
    assert!(
        shared > 0,
        "no two of the salts share a pool deal: nothing checked"
    );
    assert!(
        shown_alike * 4 <= shared,
        "{shown_alike} of {shared} shared pool deals shown alike"
    );
    // And not the unsalted set of the derived seed, nor of the course seed.
    let plain = crate::draw::tests::test_set();
    assert_ne!(a.fingerprint, plain.fingerprint);
}

/// How many pool deals a set asks.
const POOL_DEALS_OF_A_SET: usize = crate::POOL_DEALS;

#[test]
fn a_salted_set_has_its_parts_and_every_mistake_its_cover() {
    for salt in ["a", "b", "gradescope submission 123456"] {
        let set = course().draw(salt);
        let named = set.cases.iter().filter(|c| c.source == TestSource::Named);
        assert_eq!(named.count(), NAMED_DEALS.len());
        assert_eq!(set.cases.len(), NAMED_DEALS.len() + crate::POOL_DEALS);
        let mut ids: Vec<&str> = set.cases.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), set.cases.len(), "duplicate test ids");
        for case in &set.cases {
            // Every expected answer is crib-core's, for these cards.
            assert_eq!(case.keeps, crib_core::rank_keeps(&case.cards).unwrap());
            let best = case.keeps[0].total;
            let first = case.keeps.iter().find(|k| k.keep[..] == case.cards[..4]);
            assert!(first.is_none_or(|k| k.total < best), "{}", case.id);
        }
        let deals: Vec<Deal> = set
            .cases
            .iter()
            .map(|c| Deal::new(c.cards.clone()))
            .collect();
        for mistake in SELECT_MISTAKES {
            let errs = deals
                .iter()
                .filter(|d| d.missed_by(mistake.strategy, mistake.ties))
                .count();
            assert!(errs >= COVER_DEPTH, "{salt}: {} errs on {errs}", mistake.id);
        }
        assert_eq!(patterns::patterns_in(&set.hand_value), patterns::PATTERNS);
        assert_eq!(set.hand_value.len(), course().items.len());
    }
}

#[test]
fn a_salted_item_is_its_course_item_with_suits_renamed_and_hand_reordered() {
    let course = course();
    let set = course.draw("relabel");
    let mut by_pattern: std::collections::HashMap<u32, Vec<&PatternItem>> = Default::default();
    for item in &course.items {
        by_pattern.entry(item.pattern).or_default().push(item);
    }
    let key = |cards: &[Card]| {
        let mut ranks: Vec<u8> = cards[..4].iter().map(|c| c.rank().number()).collect();
        ranks.sort_unstable();
        (ranks, cards[4].rank())
    };
    let mut moved = 0;
    for item in &set.hand_value {
        let hand = item.hand();
        let value = PreparedHand::from_cards(hand).value(item.start(), Rule::Hand);
        assert_eq!(item.expected, value);
        let course_items = &by_pattern[&item.pattern];
        let same_class = course_items.iter().any(|c| {
            key(&c.cards) == key(&item.cards)
                && c.weight == item.weight
                && c.expected == item.expected
        });
        assert!(same_class, "{item:?}");
        moved += usize::from(course_items.iter().all(|c| c.cards != item.cards));
    }
    assert!(moved > set.hand_value.len() * 9 / 10, "{moved}");
}

#[test]
fn the_untabled_parts_are_the_tabled_ones() {
    for (k, salt) in ["x", "y"].iter().enumerate() {
        let named = crate::draw::named_deals(&Seed::from_bytes([k as u8; 32]).derive(salt));
        for deal in named {
            let untabled = Deal::new(deal.cards.clone()).with_parts_untabled();
            assert_eq!(untabled.parts(), deal.parts());
        }
    }
    let deal = crate::draw::pool_deal(&Seed::from_bytes([4; 32]), 17);
    let untabled = Deal::new(deal.cards.clone()).with_parts_untabled();
    assert_eq!(untabled.parts(), deal.parts());
}
