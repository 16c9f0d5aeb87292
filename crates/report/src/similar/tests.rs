use std::collections::BTreeMap;

use super::*;
use crate::quality::SourceFile;

fn found(text: &str) -> SubmissionSource {
    SubmissionSource::Found(vec![SourceFile {
        file: "main.pl".into(),
        text: text.into(),
        truncated: false,
    }])
}

/// A submission that is crib's reference as it is, is named in the section and its pair
/// with the reference is marked; one written apart is not.
#[test]
fn a_submission_matching_the_reference_is_flagged() {
    let reference = include_str!("../../../../prolog/cribbage.pl");
    let own = include_str!("../../../similar/tests/independent/tally.pl");
    let sources = Sources {
        by_name: BTreeMap::from([
            ("mallory".to_string(), found(reference)),
            ("alice".to_string(), found(own)),
        ]),
    };
    let similar = SimilarPairs::new(&sources, "similar.html");
    assert_eq!(similar.reference_matches.len(), 1, "{similar:?}");
    assert_eq!(similar.reference_matches[0].0, "mallory");
    assert!(similar.reference_matches[0].1 > 0.99);
    let first = &similar.pairs[0];
    assert!(first.reference && first.a == "mallory", "{first:?}");
    let html = section(&similar).into_string();
    assert!(html.contains("Matches crib's own reference"), "{html}");
    assert!(html.contains("mallory (1.000)"), "{html}");
    assert!(html.contains("(crib's reference)"), "{html}");
    assert!(html.contains("never a mark"), "{html}");

    let honest = Sources {
        by_name: BTreeMap::from([("alice".to_string(), found(own))]),
    };
    let similar = SimilarPairs::new(&honest, "similar.html");
    assert!(similar.reference_matches.is_empty(), "{similar:?}");
    assert!(!section(&similar)
        .into_string()
        .contains("Matches crib's own reference"));
}
