//! `crib score` and `crib select` (and the `crib` command itself) as a user meets them:
//! output, --json, exit codes, error messages, batches of hands.

use predicates::prelude::*;
use serde_json::Value;

use crate::common::crib;

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
fn select_dealer_refuses_five_cards_and_all() {
    crib()
        .args(["select", "--dealer", "5H", "5S", "5C", "JD", "2C"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("five-card deals"));
    crib()
        .args([
            "select", "--all", "--pone", "5H", "5S", "5C", "JD", "2C", "9H",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "--all cannot be used with --dealer",
        ));
}

#[test]
fn select_both_roles_prints_both_rankings_in_one_run() {
    let deal = ["5H", "5S", "5C", "JD", "2C", "9H"];
    for both in [&["--dealer", "--pone"][..], &["--role", "both"]] {
        let out = crib()
            .arg("select")
            .args(both)
            .arg("--json")
            .args(deal)
            .output()
            .unwrap();
        assert!(out.status.success());
        let reports: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(reports.len(), 2);
        assert_eq!(
            reports[0],
            json(&[&["select", "--dealer"][..], &deal].concat())
        );
        assert_eq!(
            reports[1],
            json(&[&["select", "--pone"][..], &deal].concat())
        );
    }
    let text = crib()
        .args(["select", "--role", "both"])
        .args(deal)
        .output()
        .unwrap()
        .stdout;
    let text = String::from_utf8(text).unwrap();
    assert!(text.starts_with("dealer: "), "{text}");
    assert!(text.contains("\n\npone: "), "{text}");
}

#[test]
fn text_output_has_no_trailing_spaces() {
    for args in [
        &["score", "5H", "5S", "5C", "JD", "5D"][..],
        &["score", "AH", "3S", "7C", "9D", "QD"],
        &["select", "--all", "5H", "5S", "5C", "JD", "2C"],
        &["select", "--dealer", "5H", "5S", "5C", "JD", "2C", "9H"],
    ] {
        let out = crib().args(args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.is_empty());
        for line in text.lines() {
            assert_eq!(line, line.trim_end(), "{args:?}");
        }
    }
}

/// Runs `crib ARGS` with `input` on stdin.
fn with_stdin(args: &[&str], input: impl Into<Vec<u8>>) -> std::process::Output {
    crib().args(args).write_stdin(input).output().unwrap()
}

#[test]
fn batch_score_answers_each_line_in_order_in_every_format() {
    let input = "5H 5S 5C JD 5D\n# a comment\n\n2H, 4H, 6H, 8H, TS\n7♥ 9♠ 8♣ 7♣ 8♥\n\
                 [card(ace,spades), card(2,spades), card(3,spades), card(4,spades), card(5,spades)]\n";
    let out = with_stdin(&["score", "--json", "-"], input);
    assert!(out.status.success());
    let rows: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let got: Vec<(u64, u64)> = rows
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["total"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, [(1, 29), (4, 4), (5, 24), (6, 12)]);
    // each record is the single-hand record plus its line number
    let mut first = rows[0].clone();
    first.as_object_mut().unwrap().remove("line");
    assert_eq!(first, json(&["score", "5H", "5S", "5C", "JD", "5D"]));

    let out = with_stdin(&["score", "--csv", "--crib", "-"], input);
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "line,hand,start,crib,total,fifteens,pairs,runs,flush,nob"
    );
    assert_eq!(lines[2], "4,2H 4H 6H 8H,TS,true,0,0,0,0,0,0");
    assert_eq!(lines.len(), 5);

    let out = with_stdin(&["score", "-"], input);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().next(),
        Some("hand 5H 5S 5C JD  start 5D  total 29  fifteens 16  pairs 12  runs 0  flush 0  nob 1")
    );
    assert_eq!(text.lines().count(), 4);
}

#[test]
fn batch_a_bad_line_in_the_middle_is_named_and_the_rest_survive_with_keep_going() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hands.txt");
    std::fs::write(
        &file,
        "5H 5S 5C JD 5D\nAH 2H 1C 4H 5H\n5H 5S 5C JD\n7H 9S 8C 7C 8H\n",
    )
    .unwrap();
    let name = file.display().to_string();

    // stops at the first bad line, after the results before it
    let out = crib()
        .args(["score", "--json", "--input", &name])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!("{name}:2: invalid card \"1C\"")),
        "{err}"
    );
    assert!(!err.contains(":3:"), "{err}");

    // --keep-going: every bad line reported, every good line answered, still exit 2
    let out = crib()
        .args(["score", "--json", "--keep-going", "-i", &name])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<u64> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter::<Value>()
        .map(|v| v.unwrap()["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 4]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(":2: invalid card \"1C\""), "{err}");
    assert!(err.contains(":3: expected 5 cards"), "{err}");
    assert!(err.contains("2 of 4 hands"), "{err}");
}

#[test]
fn batch_empty_input_succeeds_with_no_results() {
    for (format, want) in [
        ("--json", ""),
        (
            "--csv",
            "line,dealt,rank,keep,discard,expected_value,expected_total,starts,ties\n",
        ),
    ] {
        crib()
            .args(["select", format, "-"])
            .write_stdin("")
            .assert()
            .success()
            .stdout(want);
    }
    crib()
        .args(["score", "-"])
        .write_stdin("\n\n# only comments\n")
        .assert()
        .success()
        .stdout("");
}

#[test]
fn batch_of_100000_hands_keeps_every_line_in_order() {
    let mut dealer = crib_core::Dealer::new(13);
    let mut input = String::new();
    let mut want = Vec::new();
    for _ in 0..100_000 {
        let dealt = dealer.deal(5);
        input.push_str(&crib_core::cards_text(&dealt));
        input.push('\n');
        let hand = crib_core::Hand::from_slice(&dealt[..4]).unwrap();
        want.push(crib_core::hand_value(&hand, dealt[4], crib_core::Rule::Hand).unwrap());
    }
    let out = with_stdin(&["score", "--csv", "-"], input);
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    let got: Vec<(usize, u8)> = csv
        .lines()
        .skip(1)
        .map(|row| {
            let f: Vec<&str> = row.split(',').collect();
            (f[0].parse().unwrap(), f[4].parse().unwrap())
        })
        .collect();
    assert_eq!(got.len(), 100_000);
    for (i, (line, total)) in got.into_iter().enumerate() {
        assert_eq!((line, total), (i + 1, want[i]), "line {}", i + 1);
    }
}

#[test]
fn batch_select_with_roles_and_all() {
    let input = "5H 5S 5C JD 2C 9H\nAS 2D 3H 4S 5C 6D\n";
    let out = with_stdin(&["select", "--csv", "--role", "both", "-"], input);
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * 2 * 15);
    assert!(csv
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("1,5H 5S 5C JD 2C 9H,dealer,1,true,5H 5S 5C JD,2C 9H,"));
    let out = with_stdin(&["select", "--json", "--all", "-"], input);
    let rows: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[1]["dealt"],
        serde_json::json!(["AS", "2D", "3H", "4S", "5C", "6D"])
    );
    assert_eq!(rows[1]["all"].as_array().unwrap().len(), 15);
    let out = with_stdin(&["select", "-"], input);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "dealt 5H 5S 5C JD 2C 9H  keep 5H 5S 5C JD  discard 2C 9H  expected 16.6522"
        ),
        "{text}"
    );
}

#[test]
fn batch_usage_errors_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["score", "-", "5H"], "must be the only CARD"),
        (
            &["score", "--keep-going", "5H", "5S", "5C", "JD", "5D"],
            "--keep-going applies only",
        ),
        (&["score", "--json", "--csv", "-"], "cannot be used with"),
        (
            &["score", "--input", "/nonexistent/hands.txt"],
            "cannot open /nonexistent/hands.txt",
        ),
    ];
    for (args, message) in cases {
        crib()
            .args(*args)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*message));
    }
}
