use super::*;
use crib_core::{parse_cards, rank_keeps};

fn keeps(cards: &[&str]) -> Vec<Keep> {
    rank_keeps(&parse_cards(cards).unwrap()).unwrap()
}

#[test]
fn the_best_keeps_earn_full_credit_and_the_worst_none() {
    let keeps = keeps(&["5H", "5S", "5C", "JD", "2C", "9H"]);
    let best = keeps[0].total;
    let worst = keeps[keeps.len() - 1].total;
    for scale in [SelectCredit::Graded, SelectCredit::Ratio] {
        assert_eq!(scale.credit(best, &keeps), 1.0);
    }
    assert_eq!(SelectCredit::Graded.credit(worst, &keeps), 0.0);
    assert_eq!(
        SelectCredit::Ratio.credit(worst, &keeps),
        f64::from(worst) / f64::from(best)
    );
}

#[test]
fn graded_credit_is_half_the_fourth_power_of_the_gap_closed() {
    let keeps = keeps(&["AS", "2D", "3H", "4S", "9C", "KD"]);
    let best = f64::from(keeps[0].total);
    let worst = f64::from(keeps[keeps.len() - 1].total);
    for keep in keeps.iter().filter(|k| f64::from(k.total) < best) {
        let x = (f64::from(keep.total) - worst) / (best - worst);
        let credit = SelectCredit::Graded.credit(keep.total, &keeps);
        assert!((credit - 0.5 * x.powi(4)).abs() < 1e-12, "{keep:?}");
        assert!(credit < 0.5);
    }
}

#[test]
fn credit_never_falls_as_the_keep_gets_better() {
    let mut dealer = crib_core::Dealer::new(3);
    for _ in 0..200 {
        let keeps = rank_keeps(&dealer.deal(6)).unwrap();
        for scale in [SelectCredit::Graded, SelectCredit::Ratio] {
            let credits: Vec<f64> = keeps
                .iter()
                .map(|k| scale.credit(k.total, &keeps))
                .collect();
            assert!(credits.windows(2).all(|w| w[0] >= w[1]), "{credits:?}");
            assert!(credits.iter().all(|c| (0.0..=1.0).contains(c)));
        }
    }
}
