use super::classes::{self, classes, items, permutations, relabel};
use super::diagnosis::{diagnose, Observation};
use super::features::{features, Feature};
use super::{failure, got_text, shape};
use crib_core::{parse_cards, Card, PreparedHand, Rule, PAIRS};
use crib_results::FailureKind;

fn cards(tokens: &[&str]) -> Vec<Card> {
    parse_cards(tokens).expect("test cards are written correctly")
}

fn features_of(tokens: &[&str]) -> u64 {
    features(&cards(tokens).try_into().expect("a hand and a start"))
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
        let got =
            PreparedHand::from_cards(super::hand_of(&item.cards)).value(item.cards[4], Rule::Hand);
        assert_eq!(got, class.expected);
    }
}

#[test]
fn a_limited_check_has_probes_then_the_classes() {
    let items = items(Some(3000));
    assert_eq!(items.len(), classes::PROBES + 3000);
    assert!(items[..classes::PROBES].iter().all(|i| i.probe));
    assert!(items[classes::PROBES..].iter().all(|i| !i.probe));
    let (probes, main) = items.split_at(classes::PROBES);
    assert!(
        probes.iter().zip(main).all(|(p, m)| p.class == m.class),
        "analyse relies on it"
    );
}

#[test]
fn permutations_are_the_24_of_four_suits() {
    let perms = permutations();
    let mut sorted = perms.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 24);
    assert_eq!(
        &sorted[..],
        perms,
        "in lexicographic order, which the seeded draws index"
    );
    let card = cards(&["5H"])[0];
    assert_eq!(relabel(card, &[0, 1, 3, 2]).to_string(), "5S");
}

#[test]
fn features_of_a_run_with_a_pair_outside_it() {
    // The example: 9D 8S 4C 4D with start TC.
    let f = features_of(&["9D", "8S", "4C", "4D", "TC"]);
    for yes in [Feature::Run, Feature::PairOutsideRun, Feature::Pair] {
        assert!(f & yes.bit() != 0, "{:?}", yes);
    }
    for no in [Feature::DoubleRun, Feature::Flush4, Feature::Nob] {
        assert!(f & no.bit() == 0, "{:?}", no);
    }
    // A double run's pair is inside the run.
    let f = features_of(&["3D", "4S", "4C", "5D", "KC"]);
    assert!(f & Feature::DoubleRun.bit() != 0);
    assert!(f & Feature::PairOutsideRun.bit() == 0);
}

#[test]
fn features_of_suits_and_jacks() {
    let f = features_of(&["2H", "5H", "9H", "JS", "KH"]);
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
fn each_outcome_reads_as_the_words_and_kind_of_how_an_item_ended() {
    use crate::protocol::{Answer, ChildDeath, ExceptionKind, ItemOutcome, Kill, Outcome};
    use FailureKind::*;
    let value = |value| ItemOutcome::Outcome(Outcome::Value { value });
    let int = |text: &str| value(Answer::Int(text.into()));
    let exception = |kind, message: &str| {
        let message = message.into();
        ItemOutcome::Outcome(Outcome::Exception { kind, message })
    };
    let cards = |tokens: &[&str]| Answer::Cards(tokens.iter().map(|t| t.to_string()).collect());
    let keep = |hand, crib| ItemOutcome::Outcome(Outcome::Cards { hand, crib });
    let died = ItemOutcome::Died(ChildDeath {
        status: None,
        tail: String::new(),
        explained: "swipl was killed by signal 9".into(),
    });
    let long = format!("exception: {}", "x".repeat(300));
    let backstop = "over the time limit: no answer by the wall-clock backstop (it waited \
                    rather than computed, or hung)";
    let not_int = "Value = 123456789012345678901234567890 (not an integer)";
    // Each outcome, what the deep check says it was, and how it fails an item worth 12.
    let cases = [
        (int("12"), "12", None),
        (int("-1000"), "-1000", Some(WrongAnswer)),
        (
            int("1001"),
            "Value = 1001 (not an integer)",
            Some(WrongType),
        ),
        (
            int("123456789012345678901234567890"),
            not_int,
            Some(WrongType),
        ),
        (
            value(Answer::Term("foo".into())),
            "Value = foo (not an integer)",
            Some(WrongType),
        ),
        (
            value(cards(&["5H", "5C"])),
            "Value = [5H,5C] (not an integer)",
            Some(WrongType),
        ),
        (
            keep(cards(&["5H", "5C", "5D", "JS"]), cards(&[])),
            "Hand = [5H 5C 5D JS], Cribcards = []",
            Some(WrongType),
        ),
        (
            keep(Answer::Term("foo".into()), cards(&["AS", "2S"])),
            "Hand = [?], Cribcards = [AS 2S]",
            Some(WrongType),
        ),
        (
            ItemOutcome::Outcome(Outcome::Fail),
            "no solution (the goal failed)",
            Some(NoSolution),
        ),
        (
            ItemOutcome::Outcome(Outcome::Halt { status: "3".into() }),
            "crashed: halt(3) called",
            Some(Crashed),
        ),
        (
            exception(ExceptionKind::Timeout, "Time limit exceeded"),
            "over the time limit (CPU time)",
            Some(Timeout),
        ),
        (
            exception(ExceptionKind::Backstop, ""),
            backstop,
            Some(Timeout),
        ),
        (ItemOutcome::Killed(Kill::Silent), backstop, Some(Timeout)),
        (
            exception(ExceptionKind::Memory, "Stack limit (1.0Gb) exceeded"),
            "out of memory: Stack limit (1.0Gb) exceeded",
            Some(Memory),
        ),
        (
            exception(ExceptionKind::Exception, &"x".repeat(400)),
            &long,
            Some(Exception),
        ),
        (
            exception(ExceptionKind::Exception, ""),
            "an exception",
            Some(Exception),
        ),
        (died, "crashed: swipl was killed by signal 9", Some(Crashed)),
        // The bare integer of an `outcomes` frame reads as the same integer answer.
        (ItemOutcome::Int(12), "12", None),
        (ItemOutcome::Int(3), "3", Some(WrongAnswer)),
        (
            ItemOutcome::Int(5000),
            "Value = 5000 (not an integer)",
            Some(WrongType),
        ),
    ];
    for (outcome, text, kind) in cases {
        assert_eq!(got_text(&outcome), text, "{outcome:?}");
        assert_eq!(failure(&outcome, 12), kind, "{outcome:?}");
    }
    // A bare integer and the same integer as a value are one answer to the probes.
    assert_eq!(shape(&ItemOutcome::Int(12)), shape(&int("12")));
    assert_ne!(shape(&ItemOutcome::Int(12)), shape(&int("13")));
    assert_eq!(
        shape(&exception(ExceptionKind::Timeout, "")),
        shape(&ItemOutcome::Killed(Kill::Silent))
    );
    assert_ne!(shape(&int("foo")), shape(&keep(cards(&[]), cards(&[]))));
}
