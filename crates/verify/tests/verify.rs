//! crib-verify end to end: a clean sample passes, and a broken Prolog file is caught.
//!
//! Each test runs the binary in its own process, since a process loads one Prolog file.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prolog/cribbage.pl")
}

/// Writes `text` to a file of the test's own under cargo's scratch directory.
fn scratch(name: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn verify() -> Command {
    Command::cargo_bin("crib-verify").unwrap()
}

#[test]
fn a_clean_sample_passes() {
    verify()
        .args(["--sample", "300", "--deals", "200", "--seed", "7"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "pairs: 0 differences in 14,400 pairs",
        ))
        .stdout(predicate::str::contains(
            "select_hand: 0 differences in 200 deals",
        ))
        .stdout(predicate::str::contains("clean in"));
}

#[test]
fn json_writes_one_summary() {
    let output = verify()
        .args(["--sample", "50", "--json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let summary: serde_json::Value = serde_json::from_slice(&output).unwrap();
    assert_eq!(summary["clean"], true);
    assert_eq!(summary["pairs"]["pairs"], 50 * 48);
    assert_eq!(summary["select_hand"]["deals"], 50);
}

/// The reference with one clause put before its flush rule, so that a flush counts when any
/// four of the five cards share a suit: three hand cards and the start score 4.
fn broken_flush() -> String {
    let text = std::fs::read_to_string(reference()).unwrap();
    let at = text
        .find("\nflush(")
        .expect("prolog/cribbage.pl defines flush/4 at the start of a line");
    let wrong = "\nflush(_, Hand, card(_, Suit), 4) :-\n    \
                 aggregate_all(count, member(card(_, Suit), Hand), 3),\n    \
                 !.";
    format!("{}{wrong}{}", &text[..at], &text[at..])
}

#[test]
fn a_broken_flush_rule_is_caught() {
    let broken = scratch("broken_flush.pl", &broken_flush());
    let assert = verify()
        .args(["--sample", "400", "--deals", "100", "--prolog"])
        .arg(&broken)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("the first 20:"))
        .stdout(predicate::str::contains("DIFFERENCES FOUND"));
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("hand "))
        .expect("a difference is listed");
    assert!(line.contains("flush 0"), "{line}");
    assert!(line.contains("prolog"), "{line}");
}

#[test]
fn an_implementation_without_the_batch_predicate_is_asked_pair_by_pair() {
    let plain = scratch(
        "plain.pl",
        &format!(
            ":- use_module({:?}, [hand_value/3, select_hand/3]).\n",
            reference().canonicalize().unwrap().display().to_string()
        ),
    );
    verify()
        .args(["--sample", "100", "--deals", "20", "--prolog"])
        .arg(&plain)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "pairs: 0 differences in 4,800 pairs",
        ));
}

#[test]
fn prolog_that_raises_is_an_error_naming_the_goal() {
    let raising = scratch(
        "raising.pl",
        "hand_value(_, _, _) :- type_error(card, nothing).\nselect_hand(_, [], []).\n",
    );
    verify()
        .args(["--sample", "3", "--prolog"])
        .arg(&raising)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("hand_value([card("))
        .stderr(predicate::str::contains(
            "Type error: `card' expected, found `nothing'",
        ));
}

#[test]
fn prolog_that_fails_or_answers_nonsense_is_an_error_naming_the_goal() {
    let failing = scratch(
        "failing.pl",
        "hand_value(_, _, _) :- fail.\nselect_hand(_, [], []).\n",
    );
    verify()
        .args(["--sample", "3", "--prolog"])
        .arg(&failing)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("hand_value([card("))
        .stderr(predicate::str::contains(
            "each of 48 start cards, Value) failed",
        ));
    let nonsense = scratch(
        "nonsense.pl",
        "hand_value(_, _, lots).\nselect_hand(_, [], []).\n",
    );
    verify()
        .args(["--sample", "3", "--prolog"])
        .arg(&nonsense)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("answered [lots,lots,"))
        .stderr(predicate::str::contains(
            "which is not a list of integers 0..=255",
        ));
}

#[test]
fn the_crib_rule_agrees_too() {
    verify()
        .args(["--rule", "crib", "--sample", "200", "--deals", "20"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("(crib rule, 200 sampled hands"));
}

#[test]
fn prolog_without_select_hand_cannot_be_verified() {
    let partial = scratch("partial.pl", "hand_value(_, _, 0).\n");
    verify()
        .args(["--sample", "3", "--prolog"])
        .arg(&partial)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not define select_hand/3"));
}

#[test]
fn usage_errors_exit_2() {
    verify().arg("--sample").arg("many").assert().code(2);
    verify()
        .args(["--prolog", "no/such/file.pl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot load no/such/file.pl"));
}
