use super::*;
use crate::testset::test_set;

const GRADED: SelectCredit = SelectCredit::Graded;

fn case(id: &str) -> &'static TestCase {
    test_set().cases.iter().find(|c| c.id == id).unwrap()
}

fn cards(tokens: &[&str]) -> Answer {
    Answer {
        cards: Some(tokens.iter().map(|t| t.to_string()).collect()),
        ..Answer::default()
    }
}

#[test]
fn hand_value_answers() {
    let c = case("hv:spec:assignment-6");
    let int = |s: &str| Answer {
        int: Some(s.into()),
        ..Answer::default()
    };
    assert_eq!(judge_value(c, &int("29")), Verdict::Pass);
    assert_eq!(
        judge_value(c, &int("28")),
        Verdict::WrongAnswer {
            expected: "29".into(),
            got: "28".into()
        }
    );
    assert!(matches!(
        judge_value(c, &int("123456789012345678901234567890")),
        Verdict::WrongAnswer { .. }
    ));
    let atom = Answer {
        term: Some("twentynine".into()),
        ..Answer::default()
    };
    assert!(matches!(judge_value(c, &atom), Verdict::WrongType { .. }));
}

#[test]
fn select_hand_answers() {
    // 5H 5S 5C JD 2C 9H: keep the fives and the jack.
    let c = case("sh:named:keep-three-fives-and-jack");
    let best = judge_keep(
        c,
        &cards(&["JD", "5C", "5S", "5H"]),
        &cards(&["9H", "2C"]),
        GRADED,
    );
    assert_eq!(best, (Verdict::Pass, 1.0));
    let (verdict, credit) = judge_keep(
        c,
        &cards(&["5H", "5S", "2C", "9H"]),
        &cards(&["5C", "JD"]),
        GRADED,
    );
    let Verdict::Suboptimal { chosen, best } = &verdict else {
        panic!("{verdict:?}")
    };
    assert_eq!(chosen.keep, "2C 5H 9H 5S");
    assert_eq!(chosen.discard, "5C JD");
    assert_eq!(best.len(), 1);
    assert_eq!(best[0].keep, "5H 5S 5C JD");
    assert_eq!(best[0].expected_value, 16.6522);
    assert!(chosen.expected_value < best[0].expected_value);
    assert!(credit > 0.0 && credit < 0.5, "{credit}");
    let text = verdict.describe();
    assert!(
        text.contains("kept 2C 5H 9H 5S (discard 5C JD, expected"),
        "{text}"
    );
    assert!(
        text.contains("the best: 5H 5S 5C JD (discard 2C 9H, expected 16.6522)"),
        "{text}"
    );
    let (_, ratio) = judge_keep(
        c,
        &cards(&["5H", "5S", "2C", "9H"]),
        &cards(&["5C", "JD"]),
        SelectCredit::Ratio,
    );
    assert!(ratio > credit, "{ratio} {credit}");
    let wrong = |hand: &[&str], crib: &[&str]| judge_keep(c, &cards(hand), &cards(crib), GRADED);
    for (hand, crib, reason) in [
        (&["5H", "5S", "5C"][..], &["JD", "2C", "9H"][..], "4 cards"),
        (&["5H", "5S", "5C", "AS"], &["JD", "2C"], "not dealt"),
        (&["5H", "5S", "5C", "JD"], &["2C"], "split"),
        (&["5H", "5S", "5C", "JD"], &["2C", "2C"], "split"),
    ] {
        let (verdict, quality) = wrong(hand, crib);
        assert!(
            matches!(&verdict, Verdict::WrongType { reason: r, .. } if r.contains(reason)),
            "{hand:?} {crib:?}: {verdict:?}"
        );
        assert_eq!(quality, 0.0);
    }
    let not_cards = Answer {
        term: Some("[a,b]".into()),
        ..Answer::default()
    };
    assert!(matches!(
        judge_keep(c, &not_cards, &cards(&["2C", "9H"]), GRADED).0,
        Verdict::WrongType { .. }
    ));
}

#[test]
fn names_match_the_json() {
    let v = Verdict::Timeout {
        limit_ms: 1000,
        killed: true,
    };
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["verdict"], v.name());
    assert_eq!(json["killed"], true);
}
