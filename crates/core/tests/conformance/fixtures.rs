//! The generated tables in fixtures/, read back: every select_hand answer must still be what
//! crib-core gives, and the hand-rule distribution must be spec/'s published one.
//!
//! A failure here after a change to crib-core means the change alters answers: if it is meant
//! to, rerun `cargo xtask fixtures` and commit the tables with it.

use crib_core::{parse_cards, select_hand};

use crate::read;

/// Returns the data rows of a fixture as (line number, fields), checking the column names.
fn rows(path: &str, text: &str, columns: &[&str]) -> Vec<(usize, Vec<String>)> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'));
    let (_, head) = lines
        .next()
        .unwrap_or_else(|| panic!("{path}: no column names"));
    assert_eq!(
        head.split('\t').collect::<Vec<_>>(),
        columns,
        "{path}: columns"
    );
    lines
        .map(|(n, l)| {
            let fields: Vec<String> = l.split('\t').map(str::to_string).collect();
            assert_eq!(fields.len(), columns.len(), "{path}:{}: fields", n + 1);
            (n + 1, fields)
        })
        .collect()
}

fn cards(text: &str) -> Vec<crib_core::Card> {
    parse_cards(&text.split(' ').collect::<Vec<_>>()).unwrap()
}

fn check_select(path: &str, dealt_size: usize) {
    let text = read(path);
    let columns = [
        "dealt",
        "keep",
        "discard",
        "expected_value",
        "expected_total",
        "starts",
        "ties",
    ];
    let rows = rows(path, &text, &columns);
    assert_eq!(rows.len(), 1000, "{path}: deals");
    for (n, f) in rows {
        let at = format!("{path}:{n}");
        let dealt = cards(&f[0]);
        assert_eq!(dealt.len(), dealt_size, "{at}");
        let choice = select_hand(&dealt).unwrap_or_else(|e| panic!("{at}: {e}"));
        let best = choice.best;
        assert_eq!(best.keep.to_vec(), cards(&f[1]), "{at}: keep");
        assert_eq!(best.discard(), &cards(&f[2])[..], "{at}: discard");
        assert_eq!(
            format!("{:.6}", best.expected_value()),
            f[3],
            "{at}: expected_value"
        );
        assert_eq!(best.total.to_string(), f[4], "{at}: expected_total");
        assert_eq!(best.starts.to_string(), f[5], "{at}: starts");
        assert_eq!(choice.ties.len().to_string(), f[6], "{at}: ties");
    }
}

#[test]
fn select_hand_answers_six_cards() {
    check_select("fixtures/select-6.tsv", 6);
}

#[test]
fn select_hand_answers_five_cards() {
    check_select("fixtures/select-5.tsv", 5);
}

#[test]
fn the_hand_distribution_is_the_published_one() {
    let published = crib_core::ScoreCounts::parse(&read("spec/distribution.tsv"))
        .unwrap_or_else(|e| panic!("spec/distribution.tsv: {e}"))
        .0;
    let path = "fixtures/distribution.tsv";
    let text = read(path);
    let columns = ["points", "hand", "hand_percent", "crib", "crib_percent"];
    let rows = rows(path, &text, &columns);
    assert_eq!(rows.len(), 30, "{path}: one row per score 0..=29");
    for (n, f) in rows {
        let points: usize = f[0].parse().unwrap();
        assert_eq!(
            f[1],
            published[points].to_string(),
            "{path}:{n}: hand, score {points}"
        );
    }
}

#[test]
fn every_way_to_count_fifteen_adds_up_to_fifteen() {
    let path = "fixtures/fifteens.tsv";
    let text = read(path);
    let rows = rows(path, &text, &["cards", "values"]);
    let mut per_size = [0; 6];
    for (n, f) in rows {
        let values: Vec<u32> = f[1]
            .split(' ')
            .map(|v| match v {
                "A" => 1,
                "T" => 10,
                d => d.parse().unwrap(),
            })
            .collect();
        assert_eq!(values.len().to_string(), f[0], "{path}:{n}");
        assert_eq!(values.iter().sum::<u32>(), 15, "{path}:{n}");
        per_size[values.len()] += 1;
    }
    let published = crib_core::FifteenWays::parse(&read("spec/fifteens.tsv")).unwrap();
    assert_eq!(per_size, published.0, "{path} against spec/fifteens.tsv");
}
