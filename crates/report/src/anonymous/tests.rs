use super::*;
use crate::class::tests::report;

fn key(dir: &Path) -> Key {
    Key::read_or_create(&dir.join("k")).unwrap().0
}

#[test]
fn the_key_is_created_owner_only_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("anonymous.key");
    let (a, created) = Key::read_or_create(&path).unwrap();
    assert!(created);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let (b, created) = Key::read_or_create(&path).unwrap();
    assert!(!created);
    assert_eq!(a, b);
    assert_eq!(a.pseudonym("smithjane-1001"), b.pseudonym("smithjane-1001"));
    assert_ne!(a.pseudonym("smithjane-1001"), a.pseudonym("kimbo-1004"));
    let other = key(dir.path());
    assert_ne!(
        a.pseudonym("smithjane-1001"),
        other.pseudonym("smithjane-1001")
    );
    let p = a.pseudonym("smithjane-1001");
    assert!(
        p.starts_with(PSEUDONYM_PREFIX) && p.len() == PSEUDONYM_PREFIX.len() + 10,
        "{p}"
    );
    assert!(format!("{a:?}") == "Key(..)", "a key never prints");
}

#[test]
fn a_bad_or_exposed_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k");
    std::fs::write(&path, "not hex\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let e = Key::read(&path).unwrap_err().to_string();
        assert!(
            e.ends_with("k: not a crib key (64 hex digits on one line)"),
            "{e}"
        );
        std::fs::write(&path, format!("{}\n", "ab".repeat(32))).unwrap();
        assert!(Key::read(&path).is_ok());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = Key::read(&path).unwrap_err().to_string();
        assert!(
            e.contains("others than its owner may read it (mode 644)"),
            "{e}"
        );
    }
    assert!(Key::read(&dir.path().join("none")).is_err());
}

fn smith() -> SubmissionResult {
    let mut r = report("smithjane-1001", &[]);
    r.path = "/home/staff/subs/smithjane-1001".into();
    r.output = "Jane SMITH's solution, jane.smith@uni.edu.au\nhand_value ready".into();
    r.lms = Some(crib_results::Record {
        layout: crib_results::Layout::Canvas,
        students: vec![crib_results::Student {
            id: "1001".into(),
            name: Some("Smith, Jane".into()),
            email: Some("jane.smith@uni.edu.au".into()),
            sis_id: Some("z5551234".into()),
            ..Default::default()
        }],
        submission_id: Some("5001".into()),
        submitted_at: crib_lms::parse_time("2026-09-01T06:00Z"),
        late: Some(false),
        entries: vec!["smithjane_1001_5001_cribbage.pl".into()],
    });
    r
}

#[test]
fn an_anonymized_result_holds_no_trace_of_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let key = key(dir.path());
    let reports = [smith(), report("kimbo-1004", &[])];
    let p = Pseudonyms::new(&key, &reports).unwrap();
    let anon = p.anonymize(&reports).unwrap();
    let json = serde_json::to_string(&anon).unwrap().to_lowercase();
    for word in [
        "smith",
        "jane",
        "1001",
        "5001",
        "z5551234",
        "kimbo",
        "staff/subs",
    ] {
        assert!(!json.contains(word), "{word} in {json}");
    }
    assert_eq!(anon[0].name, key.pseudonym("smithjane-1001"));
    assert_eq!(p.by_pseudonym[&anon[0].name], "smithjane-1001");
    let record = anon[0].lms.as_ref().unwrap();
    assert_eq!(
        record.submitted_at,
        reports[0].lms.as_ref().unwrap().submitted_at
    );
    assert_eq!(record.late, Some(false));
    assert!(
        anon[0].output.ends_with("\nhand_value ready"),
        "{}",
        anon[0].output
    );
    assert_eq!(anon[0].marks.total, reports[0].marks.total);
    assert_eq!(anon[0].tests, reports[0].tests);
}

#[test]
fn the_scrubber_takes_whole_words_only() {
    let s = Scrubber::new(["Smith, Jane", "Al", "value"], "anon-x");
    assert_eq!(
        s.text("% Author: JANE smith (al)\nhand_value(H, S, V) :- values(V). % value"),
        "% Author: anon-x anon-x (al)\nhand_value(H, S, V) :- values(V). % anon-x"
    );
    assert_eq!(s.text("Smith, Jane"), "anon-x");
    assert_eq!(
        Scrubber::new([] as [&str; 0], "anon-x").text("Jane"),
        "Jane"
    );
}

#[test]
fn sources_are_keyed_by_pseudonym_and_scrubbed() {
    let dir = tempfile::tempdir().unwrap();
    let key = key(dir.path());
    let reports = [smith()];
    let p = Pseudonyms::new(&key, &reports).unwrap();
    let mut sources = Sources::default();
    sources.by_name.insert(
        "smithjane-1001".into(),
        SubmissionSource::Found(vec![SourceFile {
            file: "smithjane.pl".into(),
            text: "% cribbage by Jane Smith (z5551234)\n".into(),
            truncated: false,
        }]),
    );
    let anon = p.anonymize_sources(&sources, &reports);
    let pseudonym = key.pseudonym("smithjane-1001");
    let SubmissionSource::Found(files) = &anon.by_name[&pseudonym] else {
        panic!("found")
    };
    assert_eq!(files[0].file, format!("{pseudonym}.pl"));
    assert_eq!(
        files[0].text,
        format!("% cribbage by {pseudonym} {pseudonym} ({pseudonym})\n")
    );
}
