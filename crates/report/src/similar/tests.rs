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

/// A one-sided copy (a third of a solution, then a whole solution of the copier's own) has
/// a similarity below 0.5 with its source but a larger share above the threshold: it is
/// ranked by that share and links to its side-by-side view, with both shares shown.
#[test]
fn a_one_sided_copy_links_by_its_larger_share() {
    let source = include_str!("../../../similar/tests/independent/gamma.pl");
    let own = include_str!("../../../similar/tests/independent/tally.pl");
    let lines: Vec<&str> = source.lines().collect();
    let cut = (lines.len() / 3..lines.len())
        .find(|&i| lines[i].trim().is_empty())
        .unwrap_or(lines.len());
    let copier = format!("{}\n{own}", lines[..cut].join("\n"));
    let sources = Sources {
        by_name: BTreeMap::from([
            ("copier".to_string(), found(&copier)),
            ("source".to_string(), found(source)),
        ]),
    };
    let similar = SimilarPairs::new(&sources, "similar.html");
    let (rank, pair) = similar
        .pairs
        .iter()
        .enumerate()
        .find(|(_, p)| p.a == "copier" && p.b == "source")
        .unwrap_or_else(|| panic!("{similar:?}"));
    assert!(pair.similarity < 0.5, "{pair:?}");
    assert!(
        pair.reported(crib_similar::html::DEFAULT_THRESHOLD),
        "{pair:?}"
    );
    let html = section(&similar).into_string();
    assert!(
        html.contains(&format!("similar.html#pair-{}", rank + 1)),
        "{html}"
    );
    for share in [pair.share_a, pair.share_b] {
        assert!(html.contains(&format!("{:.0}%", 100.0 * share)), "{html}");
    }
}
