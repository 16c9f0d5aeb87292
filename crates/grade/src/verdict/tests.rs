use super::*;
use crate::test_set;

const GRADED: SelectCredit = SelectCredit::Graded;

fn case(id: &str) -> &'static TestCase {
    test_set().cases.iter().find(|c| c.id == id).unwrap()
}

/// Returns the deal of select_hand case `case` and its keeps.
fn deal(case: &TestCase) -> (&[Card], &[Keep]) {
    (&case.cards, &case.keeps)
}

fn cards(tokens: &[&str]) -> Answer {
    Answer::Cards(tokens.iter().map(|t| t.to_string()).collect())
}

#[test]
fn select_hand_answers() {
    // 5H 5S 5C JD 2C 9H: keep the fives and the jack.
    let (dealt, keeps) = deal(case("sh:named:keep-three-fives-and-jack"));
    let best = judge_keep(
        dealt,
        keeps,
        &cards(&["JD", "5C", "5S", "5H"]),
        &cards(&["9H", "2C"]),
        GRADED,
    );
    assert_eq!(best, (Verdict::Pass, 1.0));
    let (verdict, credit) = judge_keep(
        dealt,
        keeps,
        &cards(&["5H", "5S", "2C", "9H"]),
        &cards(&["5C", "JD"]),
        GRADED,
    );
    let Verdict::Suboptimal { chosen, best } = &verdict else {
        panic!("{verdict:?}")
    };
    // Cards are listed in the order dealt, which the seed draws.
    let sorted = |text: &str| {
        let mut cards: Vec<&str> = text.split(' ').collect();
        cards.sort_unstable();
        cards.join(" ")
    };
    assert_eq!(sorted(&chosen.keep.to_string()), "2C 5H 5S 9H");
    assert_eq!(sorted(&chosen.discard.to_string()), "5C JD");
    assert_eq!(best.len(), 1);
    assert_eq!(sorted(&best[0].keep.to_string()), "5C 5H 5S JD");
    assert_eq!(best[0].expected_value, 16.6522);
    assert!(chosen.expected_value < best[0].expected_value);
    assert!(credit > 0.0 && credit < 0.5, "{credit}");
    let text = verdict.describe();
    assert!(
        text.contains(&format!(
            "kept {} (discard {}, expected",
            chosen.keep, chosen.discard
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "the best: {} (discard {}, expected 16.6522)",
            best[0].keep, best[0].discard
        )),
        "{text}"
    );
    let (_, ratio) = judge_keep(
        dealt,
        keeps,
        &cards(&["5H", "5S", "2C", "9H"]),
        &cards(&["5C", "JD"]),
        SelectCredit::Ratio,
    );
    assert!(ratio > credit, "{ratio} {credit}");
    let wrong =
        |hand: &[&str], crib: &[&str]| judge_keep(dealt, keeps, &cards(hand), &cards(crib), GRADED);
    for (hand, crib, reason) in [
        (&["5H", "5S", "5C"][..], &["JD", "2C", "9H"][..], "4 cards"),
        (&["5H", "5S", "5C", "AS"], &["JD", "2C"], "not dealt"),
        (&["5H", "5S", "5C", "JD"], &["2C"], "split"),
        (&["5H", "5S", "5C", "JD"], &["2C", "2C"], "split"),
        (&["5H", "5S", "5C", "JD"], &["2C", "AS"], "split"),
        (&["5H", "5H", "5C", "JD"], &["2C", "9H"], "split"),
        (&["2C", "9H"], &["5H", "5S", "5C", "JD"], "4 cards"),
    ] {
        let (verdict, credit) = wrong(hand, crib);
        assert!(
            matches!(&verdict, Verdict::WrongType { reason: r, .. } if r.contains(reason)),
            "{hand:?} {crib:?}: {verdict:?}"
        );
        assert_eq!(credit, 0.0);
    }
    let not_cards = Answer::Term("[a,b]".into());
    assert!(matches!(
        judge_keep(dealt, keeps, &not_cards, &cards(&["2C", "9H"]), GRADED).0,
        Verdict::WrongType { .. }
    ));
}

#[test]
fn outcomes_other_than_answers() {
    let sh = case("sh:named:keep-three-fives-and-jack");
    assert_eq!(
        judge(sh, &Outcome::Fail, (4000, 12000), GRADED),
        (Verdict::NoSolution, 0.0)
    );
    assert_eq!(
        judge(
            sh,
            &Outcome::Halt { status: "7".into() },
            (1000, 3000),
            GRADED
        )
        .0,
        Verdict::Crashed {
            code: Some(7),
            signal: None,
            message: "halt(7) called".into()
        }
    );
    let exception = |kind| Outcome::Exception {
        kind,
        message: "'<meta-call>'/1: Unknown procedure: foo/0".into(),
    };
    assert_eq!(
        judge(sh, &exception(ExceptionKind::Timeout), (1000, 3000), GRADED).0,
        Verdict::Timeout {
            limit_ms: 1000,
            killed: false,
            wall: false
        }
    );
    assert_eq!(
        judge(
            sh,
            &exception(ExceptionKind::Backstop),
            (1000, 3000),
            GRADED
        )
        .0,
        Verdict::Timeout {
            limit_ms: 3000,
            killed: false,
            wall: true
        }
    );
    // Results written before the wall-clock backstop existed still read.
    let old: Verdict =
        serde_json::from_str(r#"{"verdict":"timeout","limit_ms":1000,"killed":false}"#).unwrap();
    assert!(matches!(old, Verdict::Timeout { wall: false, .. }));
    assert_eq!(
        judge(sh, &exception(ExceptionKind::Memory), (1000, 3000), GRADED).0,
        Verdict::Memory {
            message: "Unknown procedure: foo/0".into()
        }
    );
    assert_eq!(
        judge(
            sh,
            &exception(ExceptionKind::Exception),
            (4000, 12000),
            GRADED
        ),
        (
            Verdict::Exception {
                message: "Unknown procedure: foo/0".into()
            },
            0.0
        )
    );
    let value = Outcome::Value {
        value: Answer::Int("29".into()),
    };
    assert!(matches!(
        judge(sh, &value, (4000, 12000), GRADED),
        (Verdict::WrongType { .. }, q) if q == 0.0
    ));
    let keep = Outcome::Cards {
        hand: cards(&["JD", "5C", "5S", "5H"]),
        crib: cards(&["9H", "2C"]),
    };
    assert_eq!(
        judge(sh, &keep, (4000, 12000), GRADED),
        (Verdict::Pass, 1.0)
    );
}
