//! `cargo xtask fixtures [--check]`: the tables in fixtures/, generated from crib-core.
//!
//! Every table is computed here (or by [`crate::discards`]) and written through
//! [`crate::generated`]; none is written by hand. Each
//! file opens with `#` lines saying what it is and which command made it; nothing in a file
//! depends on the date or the machine, so regenerating an unchanged tree changes nothing.
//! `--check` regenerates in memory and names each stale file, its first differing line and
//! the command to run.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, ensure, Context, Result};
use crib_core::{
    cards_text, rule_distribution, score_distribution, select_hand, Breakdown, Card, Dealer, Hand,
    Rank, Rule, Suit, PAIRS, RULES,
};

use crate::generated::{write_or_check, Fixture, COMMAND};

/// `cargo xtask fixtures`: writes every table, or with `check` compares them with fixtures/.
/// Returns whether everything was current (always true when writing).
pub fn run(root: &Path, check: bool) -> Result<bool> {
    let fixtures = generate()?;
    let stale = write_or_check(root, &fixtures, check, "fixtures")?;
    if stale > 0 {
        eprintln!(
            "xtask: {stale} of {} fixtures are stale; run `{COMMAND}` and commit the result",
            fixtures.len()
        );
    }
    Ok(stale == 0)
}

/// Returns every fixture, computed afresh.
pub fn generate() -> Result<Vec<Fixture>> {
    let mut all = vec![fifteens()?];
    all.extend(distributions()?);
    all.push(select_table(6, 1000)?);
    all.push(select_table(5, 1000)?);
    all.extend(crate::discards::fixtures().context("generating the discard tables")?);
    let mut paths: Vec<_> = all.iter().map(|f| f.path.as_str()).collect();
    paths.sort_unstable();
    if let Some(w) = paths.windows(2).find(|w| w[0] == w[1]) {
        bail!("two generators write {}", w[0]);
    }
    Ok(all)
}

/// Every way to count fifteen with two to five cards, found by crib-core's fifteens rule.
fn fifteens() -> Result<Fixture> {
    let mut rows = String::new();
    let mut per_size = Vec::new();
    for size in 2..=5 {
        let mut found = 0;
        for values in value_multisets(size) {
            if counts_fifteen(&values)? {
                found += 1;
                let shown: Vec<String> = values.iter().map(|&v| value_symbol(v)).collect();
                writeln!(rows, "{size}\t{}", shown.join(" "))?;
            }
        }
        per_size.push(found);
    }
    let published = published_fifteens()?;
    ensure!(
        per_size[..] == published[2..],
        "fifteens with 2, 3, 4, 5 cards: found {per_size:?}, spec/fifteens.tsv has {:?}",
        &published[2..]
    );
    let about = format!(
        "every way to count fifteen with 2, 3, 4 and 5 cards, as the cards' values:
A is an ace, T a ten, jack, queen or king, 2 to 9 their number; a deck has four of each.
There are {}, {}, {} and {} of them, as in the table of E. McDonnell, \"At Play With J:
Cribbage 15s\" (Vector 11.4, 1995). Each row is a set of cards that crib-core's fifteens
rule (Breakdown::fifteens) counts as a fifteen; rows ascend within each size.",
        published[2], published[3], published[4], published[5]
    );
    let mut fixture = Fixture::new("fixtures/fifteens.tsv", &about, "cards\tvalues");
    fixture.contents.push_str(&rows);
    Ok(fixture)
}

/// Returns the published number of ways to count fifteen with each number of cards (entry
/// `n` for `n` cards), from spec/fifteens.tsv.
pub fn published_fifteens() -> Result<[usize; 6]> {
    let path = crate::project_root().join("spec/fifteens.tsv");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let ways =
        crib_core::FifteenWays::parse(&text).with_context(|| format!("{}", path.display()))?;
    Ok(ways.0)
}

/// Returns the non-decreasing lists of `size` card values (1..=10), no value more than four
/// times, in lexicographic order.
fn value_multisets(size: usize) -> Vec<Vec<u8>> {
    fn extend(list: &mut Vec<u8>, size: usize, out: &mut Vec<Vec<u8>>) {
        if list.len() == size {
            out.push(list.clone());
            return;
        }
        let low = list.last().copied().unwrap_or(1);
        for v in low..=10 {
            if list.iter().filter(|&&x| x == v).count() < 4 {
                list.push(v);
                extend(list, size, out);
                list.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), size, &mut out);
    out
}

fn value_symbol(value: u8) -> String {
    match value {
        1 => "A".into(),
        10 => "T".into(),
        v => v.to_string(),
    }
}

/// Returns whether crib-core counts cards of these values (tens for 10), made into a show with
/// kings added up to five cards, as a fifteen.
fn counts_fifteen(values: &[u8]) -> Result<bool> {
    let mut cards = Vec::with_capacity(5);
    for &v in values {
        let rank = Rank::from_number(v).context("card values are 1..=10")?;
        let nth = cards.iter().filter(|c: &&Card| c.rank() == rank).count();
        cards.push(Card::new(rank, Suit::ALL[nth]));
    }
    let mut mine = cards.clone();
    mine.sort();
    for suit in Suit::ALL.into_iter().take(5 - values.len()) {
        cards.push(Card::new(Rank::King, suit));
    }
    let hand = Hand::from_slice(&cards[..4])?;
    let show = Breakdown::new(&hand, cards[4], Rule::Hand)?;
    Ok(show.fifteens.iter().any(|f| {
        let mut f = f.clone();
        f.sort();
        f == mine
    }))
}

/// The score distribution under both rules, and where the points come from.
fn distributions() -> Result<[Fixture; 2]> {
    let hand = score_distribution(Rule::Hand);
    let crib = score_distribution(Rule::Crib);
    ensure!(
        hand.shows() == PAIRS && crib.shows() == PAIRS,
        "the sweep missed pairs"
    );
    let percent = |n: u64| 100.0 * n as f64 / PAIRS as f64;

    let about = format!(
        "how many of the 12,994,800 (hand, start) pairs of a deck score each total in the show.
hand: the hand rule (four hand cards of a suit score a flush of 4, 5 with the start);
crib: the crib rule (a flush needs all five cards). Percentages are of all pairs.
Mean score: hand {:.6}, crib {:.6}. Totals 19, 25, 26 and 27 never occur.",
        hand.mean(),
        crib.mean()
    );
    let columns = "points\thand\thand_percent\tcrib\tcrib_percent";
    let mut distribution = Fixture::new("fixtures/distribution.tsv", &about, columns);
    for p in 0..30 {
        let (h, c) = (hand.0[p], crib.0[p]);
        let (hp, cp) = (percent(h), percent(c));
        writeln!(distribution.contents, "{p}\t{h}\t{hp:.4}\t{c}\t{cp:.4}")?;
    }

    let split = rule_distribution(Rule::Hand);
    for (p, tally) in split.0.iter().enumerate() {
        ensure!(
            tally.shows == hand.0[p],
            "points by rule: {} shows score {p}, the sweep says {}",
            tally.shows,
            hand.0[p]
        );
    }
    let crib_split = rule_distribution(Rule::Crib);
    ensure!(
        crib_split.0.iter().map(|t| t.shows).eq(crib.0),
        "points by rule, crib rule: the totals disagree with the sweep"
    );
    let overall = split.overall();
    let all_points: u64 = overall.points.iter().sum();
    let shares: Vec<String> = RULES
        .iter()
        .zip(overall.points)
        .map(|(r, p)| format!("{r} {:.1}%", 100.0 * p as f64 / all_points as f64))
        .collect();
    let about = format!(
        "where the points come from, for each total of the show (hand rule, all
12,994,800 pairs). For each rule, <rule>_shows is how many of the pairs with that total
score anything under it, and <rule>_mean the mean points it gives them; the means add up to
the total. The last row, all, is every pair. Of all points, {}.
Why this table: it tells a student which rules carry a typical hand (fifteens and pairs)
and which are rare bonuses (flush, nob), and which totals need runs or several rules at once;
a tutor can check a scorer's per-rule answers against the columns.",
        shares.join(", ")
    );
    let shows = RULES.map(|r| format!("\t{r}_shows")).concat();
    let means = RULES.map(|r| format!("\t{r}_mean")).concat();
    let columns = format!("points\tshows{shows}{means}");
    let mut by_rule = Fixture::new("fixtures/points-by-rule.tsv", &about, &columns);
    let text = &mut by_rule.contents;
    let rows = split.0.iter().enumerate().map(|(p, t)| (p.to_string(), *t));
    for (label, tally) in rows.chain([("all".to_string(), overall)]) {
        write!(text, "{label}\t{}", tally.shows)?;
        for n in tally.scoring {
            write!(text, "\t{n}")?;
        }
        for points in tally.points {
            let mean = if tally.shows == 0 {
                0.0
            } else {
                points as f64 / tally.shows as f64
            };
            write!(text, "\t{mean:.4}")?;
        }
        text.push('\n');
    }
    Ok([distribution, by_rule])
}

/// select_hand's answers to `deals` seeded deals of `size` cards.
fn select_table(size: usize, deals: usize) -> Result<Fixture> {
    ensure!(size == 5 || size == 6, "deals are of 5 or 6 cards");
    let seed = size as u64;
    let about = format!(
        "select_hand's answers to {deals} deals of {size} cards (Dealer::new({seed})).
dealt: the cards dealt, in order; keep and discard: the chosen four and the rest, in dealt
order; expected_total: the kept hand's points summed over the {} start cards not dealt
(starts), hand rule; expected_value = expected_total / starts; ties: how many other keeps
have the same total. Of equal keeps the first is chosen, counting keeps by the positions of
the kept cards in lexicographic order (0123, 0124, ...). Read by
crates/core/tests/conformance/fixtures.rs and prolog/select_fixtures.plt; cards in short
notation (5H, TD: rank, then suit C D H S).",
        52 - size
    );
    let columns = "dealt\tkeep\tdiscard\texpected_value\texpected_total\tstarts\tties";
    let mut fixture = Fixture::new(format!("fixtures/select-{size}.tsv"), &about, columns);
    let mut dealer = Dealer::new(seed);
    for _ in 0..deals {
        let dealt = dealer.deal(size);
        let choice = select_hand(&dealt)?;
        let best = &choice.best;
        writeln!(
            fixture.contents,
            "{}\t{}\t{}\t{:.6}\t{}\t{}\t{}",
            cards_text(&dealt),
            cards_text(&best.keep),
            cards_text(best.discard()),
            best.expected_value(),
            best.total,
            best.starts,
            choice.ties.len()
        )?;
    }
    Ok(fixture)
}

#[cfg(test)]
mod tests;
