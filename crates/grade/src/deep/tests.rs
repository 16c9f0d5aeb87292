use super::classes::{self, classes, items, permutations, relabel};
use super::diagnosis::{diagnose, Observation};
use super::features::{features, Feature};
use crib_core::{parse_cards, Card, PreparedHand, Rule, PAIRS};

fn cards(tokens: &[&str]) -> Vec<Card> {
    parse_cards(tokens).expect("test cards are written correctly")
}

#[test]
fn class_weights_add_up_to_every_pair() {
    let all = classes();
    assert_eq!(all.iter().map(|c| u64::from(c.weight)).sum::<u64>(), PAIRS);
    assert_eq!(all.len(), 652_353);
}

#[test]
fn a_relabelled_item_keeps_its_class_value() {
    for item in items(Some(500)) {
        let class = &classes()[item.class as usize];
        let got = PreparedHand::from_cards(item.hand()).value(item.start(), Rule::Hand);
        assert_eq!(got, class.expected);
    }
}

#[test]
fn a_limited_check_has_probes_then_the_classes() {
    let items = items(Some(3000));
    assert_eq!(items.len(), classes::PROBES + 3000);
    assert!(items[..classes::PROBES].iter().all(|i| i.probe));
    assert!(items[classes::PROBES..].iter().all(|i| !i.probe));
}

#[test]
fn permutations_are_the_24_of_four_suits() {
    let perms = permutations();
    let mut sorted = perms.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 24);
    let card = cards(&["5H"])[0];
    assert_eq!(relabel(card, &[0, 1, 3, 2]).to_string(), "5S");
}

#[test]
fn features_of_a_run_with_a_pair_outside_it() {
    // The example: 9D 8S 4C 4D with start TC.
    let c = cards(&["9D", "8S", "4C", "4D", "TC"]);
    let f = features([c[0], c[1], c[2], c[3]], c[4]);
    for yes in [Feature::Run, Feature::PairOutsideRun, Feature::Pair] {
        assert!(f & yes.bit() != 0, "{:?}", yes);
    }
    for no in [Feature::DoubleRun, Feature::Flush4, Feature::Nob] {
        assert!(f & no.bit() == 0, "{:?}", no);
    }
    // A double run's pair is inside the run.
    let c = cards(&["3D", "4S", "4C", "5D", "KC"]);
    let f = features([c[0], c[1], c[2], c[3]], c[4]);
    assert!(f & Feature::DoubleRun.bit() != 0);
    assert!(f & Feature::PairOutsideRun.bit() == 0);
}

#[test]
fn features_of_suits_and_jacks() {
    let c = cards(&["2H", "5H", "9H", "JS", "KH"]);
    let f = features([c[0], c[1], c[2], c[3]], c[4]);
    assert!(f & Feature::ThreePlusStart.bit() != 0);
    assert!(f & Feature::JackOtherSuit.bit() != 0);
    assert!(f & Feature::Nob.bit() == 0);
    assert!(f & Feature::FifteenWithFace.bit() != 0);
    assert!(f & Feature::JackOfFirstSuit.bit() == 0);
}

fn observation(features: u64, failing: bool) -> Observation {
    Observation {
        features,
        weight: 24,
        failing,
        wrong: None,
    }
}

#[test]
fn the_diagnosis_names_the_separating_conjunction() {
    let run = Feature::Run.bit();
    let outside = Feature::PairOutsideRun.bit();
    let pair = Feature::Pair.bit();
    let obs = vec![
        observation(run | outside | pair, true),
        observation(run | outside | pair, true),
        observation(run, false),
        observation(pair, false),
        observation(run | pair, false),
        observation(0, false),
    ];
    let d = diagnose(&obs);
    let best = &d.findings[0];
    assert_eq!(best.precision, 1.0);
    assert_eq!(best.recall, 1.0);
    assert!(
        d.summary.contains("a run and a pair of cards outside it")
            && d.summary.contains("no passing hand does"),
        "{}",
        d.summary
    );
}

#[test]
fn the_diagnosis_sees_a_rule_counted_twice() {
    let nob = crib_core::Points {
        nob: 1,
        fifteens: 2,
        ..Default::default()
    };
    let obs = vec![
        Observation {
            features: Feature::Nob.bit(),
            weight: 12,
            failing: true,
            wrong: Some((1, nob)),
        },
        observation(0, false),
    ];
    let d = diagnose(&obs);
    assert!(
        d.errors[0]
            .text
            .contains("the nob points are counted twice"),
        "{:?}",
        d.errors
    );
}

#[test]
fn no_failures_no_findings() {
    let d = diagnose(&[observation(0, false)]);
    assert_eq!(d.summary, "no failing hand");
    assert!(d.findings.is_empty());
}

#[test]
fn each_outcome_becomes_how_an_item_ended() {
    use crate::batch::Got;
    use crate::protocol::{Answer, ExceptionKind, Outcome};
    let value = |text: &str| Outcome::Value {
        value: Answer::Int(text.into()),
    };
    let exception = |kind, message: &str| Outcome::Exception {
        kind,
        message: message.into(),
    };
    let cards = |tokens: &[&str]| Answer::Cards(tokens.iter().map(|t| t.to_string()).collect());
    let long = "x".repeat(400);
    let cases = [
        (value("12"), Got::Int(12)),
        (value("-1000"), Got::Int(-1000)),
        (value("1001"), Got::Term("1001".into())),
        (
            value("123456789012345678901234567890"),
            Got::Term("123456789012345678901234567890".into()),
        ),
        (
            Outcome::Value {
                value: Answer::Term("foo".into()),
            },
            Got::Term("foo".into()),
        ),
        (
            Outcome::Cards {
                hand: cards(&["5H", "5C", "5D", "JS"]),
                crib: cards(&[]),
            },
            Got::Keep("5H 5C 5D JS".into(), String::new()),
        ),
        (
            Outcome::Cards {
                hand: Answer::Term("foo".into()),
                crib: cards(&["AS", "2S"]),
            },
            Got::Keep("?".into(), "AS 2S".into()),
        ),
        (Outcome::Fail, Got::Fail),
        (
            Outcome::Halt { status: "3".into() },
            Got::Crashed("halt(3) called".into()),
        ),
        (
            exception(ExceptionKind::Timeout, "Time limit exceeded"),
            Got::Timeout { wall: false },
        ),
        (
            exception(ExceptionKind::Backstop, ""),
            Got::Timeout { wall: true },
        ),
        (
            exception(ExceptionKind::Memory, "Stack limit (1.0Gb) exceeded"),
            Got::Memory("Stack limit (1.0Gb) exceeded".into()),
        ),
        (
            exception(ExceptionKind::Exception, &long),
            Got::Exception("x".repeat(300)),
        ),
        (
            exception(ExceptionKind::Exception, ""),
            Got::Exception(String::new()),
        ),
    ];
    for (outcome, want) in cases {
        assert_eq!(Got::from_outcome(outcome.clone()), want, "{outcome:?}");
    }
    // The bare integer of an `outcomes` frame reads as the same integer answer.
    use crate::protocol::ItemOutcome;
    assert_eq!(Got::from_item(ItemOutcome::Int(12)), Got::Int(12));
    assert_eq!(
        Got::from_item(ItemOutcome::Int(5000)),
        Got::Term("5000".into())
    );
    assert_eq!(
        Got::from_item(ItemOutcome::Outcome(Outcome::Fail)),
        Got::Fail
    );
}
