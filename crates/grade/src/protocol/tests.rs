use super::*;
use crib_child::{read_frames, MAX_FRAME};

fn frame(json: &str) -> Frame {
    parse(json.as_bytes()).unwrap_or_else(|| panic!("not a frame: {json}"))
}

#[test]
fn every_frame_kind_parses() {
    assert_eq!(
        frame(r#"{"type":"diag","kind":"error","file":"a.pl","line":3,"message":"m"}"#),
        Frame::Diag(Diagnostic {
            kind: "error".into(),
            file: "a.pl".into(),
            line: 3,
            message: "m".into()
        })
    );
    assert_eq!(
        frame(r#"{"type":"loaded","hand_value":"user","select_hand":null}"#),
        Frame::Loaded(Found {
            hand_value: Some("user".into()),
            select_hand: None
        })
    );
    assert_eq!(frame(r#"{"type":"done"}"#), Frame::Done);
    assert_eq!(
        frame(r#"{"type":"overrun","item":5}"#),
        Frame::Overrun { item: 5 }
    );
    assert_eq!(
        frame(
            r#"{"type":"outcomes","first":4,"outcomes":[{"outcome":"fail"}],"cpu_ms":[3],"wall_ms":[9]}"#
        ),
        Frame::Outcomes {
            first: 4,
            outcomes: vec![ItemOutcome::Outcome(Outcome::Fail)],
            cpu_ms: vec![3],
            wall_ms: vec![9],
        }
    );
}

#[test]
fn every_outcome_parses() {
    let outcome = |json: &str| {
        let json = format!(r#"{{"type":"outcomes","first":7,"outcomes":[{json}]}}"#);
        match frame(&json) {
            Frame::Outcomes { mut outcomes, .. } if outcomes.len() == 1 => {
                match outcomes.remove(0) {
                    ItemOutcome::Outcome(outcome) => outcome,
                    other => panic!("{json}: {other:?}"),
                }
            }
            other => panic!("{json}: {other:?}"),
        }
    };
    assert_eq!(
        outcome(r#"{"outcome":"value","value":{"int":"12"}}"#),
        Outcome::Value {
            value: Answer::Int("12".into())
        }
    );
    assert_eq!(
        outcome(r#"{"crib":{"term":"foo"},"hand":{"cards":["5H","JD"]},"outcome":"cards"}"#),
        Outcome::Cards {
            hand: Answer::Cards(vec!["5H".into(), "JD".into()]),
            crib: Answer::Term("foo".into())
        }
    );
    assert_eq!(outcome(r#"{"outcome":"fail"}"#), Outcome::Fail);
    assert_eq!(
        outcome(r#"{"outcome":"halt","status":"3"}"#),
        Outcome::Halt { status: "3".into() }
    );
    for (kind, want) in [
        ("timeout", ExceptionKind::Timeout),
        ("memory", ExceptionKind::Memory),
        ("exception", ExceptionKind::Exception),
    ] {
        let json = format!(r#"{{"outcome":"exception","kind":"{kind}","message":"m"}}"#);
        assert_eq!(
            outcome(&json),
            Outcome::Exception {
                kind: want,
                message: "m".into()
            }
        );
    }
}

#[test]
fn what_is_not_a_frame_is_dropped() {
    for line in [
        "",
        "hello",
        r#"{"start":4}"#,
        r#"{"type":"overrun"}"#,
        r#"{"type":"outcomes","first":1}"#,
        r#"{"type":"outcomes","first":1,"outcomes":[{"outcome":"value"}]}"#,
        r#"{"type":"nonsense"}"#,
    ] {
        assert_eq!(parse(line.as_bytes()), None, "{line}");
    }
}

#[test]
fn the_reader_skips_bad_and_oversized_lines() {
    let long = format!(
        "{{\"type\":\"diag\",\"kind\":\"error\",\"file\":\"\",\"line\":0,\"message\":\"{}\"}}\n",
        "x".repeat(MAX_FRAME as usize)
    );
    let input =
        format!("garbage\n{long}{{\"type\":\"overrun\",\"item\":1}}\n{{\"type\":\"done\"}}\n");
    let frames: Vec<Frame> = read_frames(std::io::Cursor::new(input.into_bytes()))
        .iter()
        .collect();
    assert_eq!(frames, [Frame::Overrun { item: 1 }, Frame::Done]);
}

#[test]
fn a_batch_of_outcomes_parses() {
    let batch = r#"{"type":"outcomes","first":7,"outcomes":[8,{"outcome":"value","value":{"int":"8"}},{"outcome":"fail"},{"outcome":"exception","kind":"backstop","message":""}]}"#;
    assert_eq!(
        frame(batch),
        Frame::Outcomes {
            first: 7,
            outcomes: vec![
                ItemOutcome::Int(8),
                ItemOutcome::Outcome(Outcome::Value {
                    value: Answer::Int("8".into())
                }),
                ItemOutcome::Outcome(Outcome::Fail),
                ItemOutcome::Outcome(Outcome::Exception {
                    kind: ExceptionKind::Backstop,
                    message: String::new()
                }),
            ],
            cpu_ms: Vec::new(),
            wall_ms: Vec::new(),
        }
    );
    // One outcome that is not one spoils the frame.
    assert_eq!(
        parse(br#"{"type":"outcomes","first":0,"outcomes":[{"outcome":"maybe"}]}"#),
        None
    );
}
