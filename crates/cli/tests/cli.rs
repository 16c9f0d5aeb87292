//! The `crib` command as a user meets it: output, --json, exit codes, error messages.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn crib() -> Command {
    Command::cargo_bin("crib").unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = crib().args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn score_prints_the_breakdown_and_29() {
    crib()
        .args(["score", "5H", "5S", "5C", "JD", "5D"])
        .assert()
        .success()
        .stdout(predicate::str::contains("total 29"))
        .stdout(predicate::str::contains("nob       1  JD"));
}

#[test]
fn score_reads_every_notation() {
    for args in [
        ["5♥", "5♠", "5♣", "J♦", "5♦"],
        [
            "card(5,hearts)",
            "card(5,spades)",
            "card(5,clubs)",
            "card(jack,diamonds)",
            "card(5,diamonds)",
        ],
        ["5h", "5s", "5c", "jd", "5d"],
    ] {
        assert_eq!(json(&[&["score"][..], &args].concat())["total"], 29);
    }
}

#[test]
fn score_json_has_every_rule() {
    let v = json(&["score", "6C", "7C", "8C", "9C", "8S"]);
    assert_eq!(v["hand"], serde_json::json!(["6C", "7C", "8C", "9C"]));
    assert_eq!(v["start"], "8S");
    assert_eq!(v["crib"], false);
    let rules: Vec<u64> = ["fifteens", "pairs", "runs", "flush", "nob", "total"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .collect();
    assert_eq!(rules, [6, 2, 8, 4, 0, 20]);
    assert_eq!(v["combinations"]["runs"].as_array().unwrap().len(), 2);
}

#[test]
fn score_crib_rule_drops_a_four_card_flush() {
    assert_eq!(json(&["score", "2H", "4H", "6H", "8H", "TS"])["flush"], 4);
    let v = json(&["score", "--crib", "2H", "4H", "6H", "8H", "TS"]);
    assert_eq!(
        (v["flush"].as_u64(), v["crib"].as_bool()),
        (Some(0), Some(true))
    );
}

#[test]
fn select_json_reports_keep_discard_and_exact_totals() {
    let v = json(&["select", "5H", "5S", "5C", "JD", "2C", "9H"]);
    assert_eq!(v["keep"], serde_json::json!(["5H", "5S", "5C", "JD"]));
    assert_eq!(v["discard"], serde_json::json!(["2C", "9H"]));
    assert_eq!(v["expected_total"], 766);
    assert_eq!(v["starts"], 46);
    assert!((v["expected_value"].as_f64().unwrap() - 766.0 / 46.0).abs() < 1e-12);
    assert_eq!(v["ties"], serde_json::json!([]));
}

#[test]
fn select_reports_ties_and_ranks_all_keeps() {
    let v = json(&["select", "--all", "7C", "8D", "9H", "2S", "2H", "KC"]);
    assert_eq!(
        v["ties"][0]["keep"],
        serde_json::json!(["7C", "8D", "9H", "2H"])
    );
    let all = v["all"].as_array().unwrap();
    assert_eq!(all.len(), 15);
    assert!(all
        .windows(2)
        .all(|w| w[0]["expected_total"].as_u64() >= w[1]["expected_total"].as_u64()));
    crib()
        .args(["select", "7C", "8D", "9H", "2S", "2H", "KC"])
        .assert()
        .success()
        .stdout(predicate::str::contains("tie      keep 7C 8D 9H 2H"));
}

#[test]
fn select_five_cards_discards_one() {
    let v = json(&["select", "7C", "QH", "2C", "JC", "9H"]);
    assert_eq!(v["discard"].as_array().unwrap().len(), 1);
    assert_eq!(v["starts"], 47);
}

#[test]
fn bad_input_exits_2_naming_the_token() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["score", "5H", "5D", "1C", "JC", "5C"],
            "invalid card \"1C\": rank must be one of A 2-10 T J Q K",
        ),
        (
            &["score", "5H", "5D", "5X", "JC", "5C"],
            "invalid card \"5X\": suit must be one of C D H S",
        ),
        (
            &["score", "5H", "5H", "5C", "JC", "5S"],
            "card 5H is given twice",
        ),
        (
            &["score", "5H", "5D", "5C", "JC", "JC"],
            "card JC is given twice",
        ),
        (
            &["score", "5H", "5D", "5C", "JC"],
            "expected 5 cards (four hand cards, then the start card), got 4",
        ),
        (
            &["select", "5H", "5D", "5C", "JC"],
            "expected 5 or 6 cards, got 4",
        ),
        (
            &["select", "5H", "5D", "5C", "JC", "2C", "3C", "4C"],
            "expected 5 or 6 cards, got 7",
        ),
        (
            &["select", "5H", "5D", "5C", "JC", "5h"],
            "card 5H is given twice",
        ),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
    ];
    for (args, message) in cases {
        crib()
            .args(*args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(*message));
    }
}

#[test]
fn help_explains_cards_and_exit_codes() {
    crib()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("card(5,hearts)"))
        .stdout(predicate::str::contains("Exit codes"));
}

#[test]
fn select_dealer_and_pone_rank_keeps_by_net() {
    let dealer = json(&["select", "--dealer", "5H", "5S", "5C", "JD", "2C", "9H"]);
    let pone = json(&["select", "--pone", "5H", "5S", "5C", "JD", "2C", "9H"]);
    for (v, role) in [(&dealer, "dealer"), (&pone, "pone")] {
        assert_eq!(v["role"], role);
        assert_eq!(v["outcomes"], 45540);
        let keeps = v["keeps"].as_array().unwrap();
        assert_eq!(keeps.len(), 15);
        assert_eq!(keeps[0]["best"], true);
        let nets: Vec<f64> = keeps
            .iter()
            .map(|k| k["net"]["mean"].as_f64().unwrap())
            .collect();
        assert!(
            nets.windows(2).all(|w| w[0] >= w[1]),
            "{role}: ranked by net"
        );
        for k in keeps {
            let (hand, crib, net) = (&k["hand"]["sum"], &k["crib"]["sum"], &k["net"]["sum"]);
            let (hand, crib, net) = (
                hand.as_i64().unwrap(),
                crib.as_i64().unwrap(),
                net.as_i64().unwrap(),
            );
            assert_eq!(
                net,
                if role == "dealer" {
                    hand + crib
                } else {
                    hand - crib
                }
            );
        }
    }
    // Hand part agrees with the assignment's select_hand: 766 over 46 starts for this keep.
    let hand_mean = dealer["keeps"][0]["hand"]["mean"].as_f64().unwrap();
    assert!((hand_mean - 766.0 / 46.0).abs() < 1e-9);
}

#[test]
fn select_dealer_refuses_five_cards_and_both_roles() {
    crib()
        .args(["select", "--dealer", "5H", "5S", "5C", "JD", "2C"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("five-card deals"));
    crib()
        .args([
            "select", "--dealer", "--pone", "5H", "5S", "5C", "JD", "2C", "9H",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}
