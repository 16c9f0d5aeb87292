use super::*;
use crate::class::tests::report;

fn at(s: &str) -> Timestamp {
    crib_lms::parse_time(s).unwrap()
}

#[test]
fn good_policies_parse() {
    let p = Policy::parse("10% per day, at most 5 days, then 0").unwrap();
    assert_eq!((p.per_day, p.max_days, p.then_zero), (0.1, Some(5), true));
    let p = Policy::parse("  2.5 %  PER day ").unwrap();
    assert_eq!((p.per_day, p.max_days, p.then_zero), (0.025, None, false));
    let p = Policy::parse("20% per day, at most 1 day").unwrap();
    assert_eq!((p.max_days, p.then_zero), (Some(1), false));
    assert_eq!(p.to_string(), "20% per day, at most 1 day");
    assert_eq!(
        Policy::parse("10% per day,at most 5 days,then 0")
            .unwrap()
            .to_string(),
        "10% per day, at most 5 days, then 0"
    );
}

#[test]
fn bad_policies_name_the_bad_part() {
    let cases = [
        ("", "\"\": empty"),
        (
            "10 per day",
            "\"10 per day\": a percentage needs its % sign",
        ),
        (
            "ten% per day",
            "\"ten% per day\": the percentage is not a number",
        ),
        (
            "150% per day",
            "\"150% per day\": the percentage is outside 0 to 100",
        ),
        ("10% a day", "\"10% a day\": the policy starts with"),
        (
            "10% per day, at most 0 days",
            "\"at most 0 days\": the days must be a whole number",
        ),
        (
            "10% per day, at most 2.5 days",
            "\"at most 2.5 days\": the days must be",
        ),
        (
            "10% per day, then 0",
            "\"then 0\": needs \"at most <N> days\" before it",
        ),
        (
            "10% per day, at most 5 days, then 0, then 0",
            "\"then 0\": given twice",
        ),
        (
            "10% per day, at most 5 days, then 50%",
            "\"then 50%\": unknown clause",
        ),
        ("10% per day,, then 0", "\"\": an empty clause"),
    ];
    for (text, want) in cases {
        let got = Policy::parse(text).unwrap_err().to_string();
        assert!(got.contains(want), "{text:?}: {got}");
        assert!(got.starts_with(&format!("late policy {text:?}")), "{got}");
    }
}

#[test]
fn fractions_count_capped_and_zero() {
    let p = Policy::parse("10% per day, at most 5 days, then 0").unwrap();
    let got: Vec<f64> = (0..8).map(|d| p.fraction(d)).collect();
    assert_eq!(got, [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 1.0, 1.0]);
    let capped = Policy::parse("10% per day, at most 3 days").unwrap();
    assert_eq!(capped.fraction(9), 0.3);
    let steep = Policy::parse("40% per day").unwrap();
    assert_eq!(steep.fraction(3), 1.0, "never more than the whole mark");
}

#[test]
fn days_count_any_part_of_a_day() {
    let due = at("2026-09-01T17:00+10:00");
    let none = SignedDuration::ZERO;
    assert_eq!(days_late(at("2026-09-01T16:59:59+10:00"), due, none), 0);
    assert_eq!(days_late(due, due, none), 0, "at the due time is on time");
    assert_eq!(days_late(at("2026-09-01T07:00:01Z"), due, none), 1);
    assert_eq!(days_late(at("2026-09-02T17:00+10:00"), due, none), 1);
    assert_eq!(days_late(at("2026-09-02T17:00:01+10:00"), due, none), 2);
    let grace = parse_grace("15m").unwrap();
    assert_eq!(days_late(at("2026-09-01T17:15+10:00"), due, grace), 0);
    assert_eq!(
        days_late(at("2026-09-01T17:15:01+10:00"), due, grace),
        1,
        "past the grace, counted from the due time"
    );
}

#[test]
fn grace_and_due_errors_name_the_text() {
    assert_eq!(
        parse_grace("1h 30m").unwrap(),
        SignedDuration::from_mins(90)
    );
    assert_eq!(parse_grace("PT15M").unwrap(), SignedDuration::from_mins(15));
    assert!(parse_grace("soon")
        .unwrap_err()
        .to_string()
        .contains("\"soon\""));
    assert!(parse_grace("-15m").is_err());
    assert!(parse_due("2026-09-01T17:00+10:00").is_ok());
    let e = parse_due("2026-09-01 17:00").unwrap_err().to_string();
    assert!(
        e.starts_with("due date \"2026-09-01 17:00\": not a time"),
        "{e}"
    );
}

/// Returns a report whose LMS record has one student, `id`, and the time and late flag given.
pub(crate) fn with_lms(
    name: &str,
    id: &str,
    submitted: Option<&str>,
    late: Option<bool>,
) -> SubmissionResult {
    let mut r = report(name, &[]);
    r.lms = Some(crib_results::Record {
        layout: crib_results::Layout::Gradescope,
        students: vec![crib_results::Student {
            id: id.into(),
            name: Some(format!("Student {id}")),
            ..Default::default()
        }],
        submission_id: None,
        submitted_at: submitted.map(at),
        late,
        entries: vec![],
    });
    r
}

/// Returns a deadline of 2026-09-01T17:00+10:00, 10% per day, at most 5 days, then 0, with
/// 15 minutes' grace.
pub(crate) fn deadline() -> Deadline {
    let mut d = Deadline::new(
        at("2026-09-01T17:00+10:00"),
        Policy::parse("10% per day, at most 5 days, then 0").unwrap(),
    );
    d.grace = parse_grace("15m").unwrap();
    d
}

#[test]
fn penalties_on_time_grace_late_capped_and_zero() {
    let d = deadline();
    let cases = [
        ("2026-09-01T16:00+10:00", 0, 0.0, 70.0),
        ("2026-09-01T17:14+10:00", 0, 0.0, 70.0),
        ("2026-09-01T18:00+10:00", 1, 7.0, 63.0),
        ("2026-09-06T17:00+10:00", 5, 35.0, 35.0),
        ("2026-09-06T17:01+10:00", 6, 70.0, 0.0),
    ];
    for (time, days, penalty, after) in cases {
        let a = d.assess(&with_lms("s", "1", Some(time), None));
        assert_eq!(a.days, Some(days), "{time}");
        assert_eq!(a.penalty(70.0), Some(penalty), "{time}");
        assert_eq!(a.after(70.0), Some(after), "{time}");
        assert_eq!(a.source, TimeSource::Lms);
    }
    let capped = Deadline::new(d.due, Policy::parse("10% per day, at most 5 days").unwrap());
    let a = capped.assess(&with_lms("s", "1", Some("2026-09-20T00:00Z"), None));
    assert_eq!((a.days, a.penalty(70.0)), (Some(19), Some(35.0)));
}

#[test]
fn extensions_and_times_win_and_flags_say_what_they_know() {
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("ext.csv");
    std::fs::write(
        &ext,
        "student,extension\nSTUDENT 2,2 days\n3,2026-09-10T17:00+10:00\n",
    )
    .unwrap();
    let times = dir.path().join("times.csv");
    std::fs::write(
        &times,
        "lee-4,2026-09-02T17:30+10:00\nnobody,2026-09-02T17:30+10:00\n",
    )
    .unwrap();
    let mut d = deadline();
    d.extensions = Extensions::read(&ext).unwrap();
    d.times = Times::read(&times).unwrap();
    // Two days' extension by name (any case): a day and a half late is on time.
    let a = d.assess(&with_lms("x", "2", Some("2026-09-03T05:00+10:00"), None));
    assert_eq!((a.days, a.extended), (Some(0), true));
    assert_eq!(a.describe(), "on time (extended)");
    // A new due date by id: late by a day past it.
    let a = d.assess(&with_lms("y", "3", Some("2026-09-11T00:00+10:00"), None));
    assert_eq!((a.days, a.penalty(50.0)), (Some(1), Some(5.0)));
    // The times file wins over the LMS's time and its flag.
    let a = d.assess(&with_lms(
        "lee-4",
        "4",
        Some("2026-09-01T00:00Z"),
        Some(false),
    ));
    assert_eq!((a.source, a.days), (TimeSource::Times, Some(2)));
    assert_eq!(a.describe(), "2 days late: \u{2212}20%");
    // Canvas's _LATE alone: unknown, no penalty guessed.
    let a = d.assess(&with_lms("z", "5", None, Some(true)));
    assert_eq!(
        (a.source, a.days, a.penalty(70.0)),
        (TimeSource::LateFlag, None, None)
    );
    assert!(a.describe().contains("by how much unknown"));
    let a = d.assess(&with_lms("w", "6", None, Some(false)));
    assert_eq!((a.days, a.penalty(70.0)), (Some(0), Some(0.0)));
    let a = d.assess(&report("plain", &[]));
    assert_eq!((a.source, a.days), (TimeSource::Unknown, None));
    let reports = [with_lms("lee-4", "4", None, None)];
    let unmatched = d.unmatched(&reports);
    assert_eq!(unmatched.len(), 3, "{unmatched:?}");
    assert!(unmatched[2].ends_with("times.csv:2: \"nobody\" names no submission"));
}

#[test]
fn file_errors_name_the_line_an_editor_shows() {
    let path = Path::new("ext.csv");
    let days = |text: &str| {
        parse_keyed(text.as_bytes(), path, |c| {
            c.parse::<u32>().map_err(|_| format!("{c:?} bad"))
        })
    };
    let e = days("student,days\n\na,1\r\n\"b\nc\",2\nd,x\n").unwrap_err();
    assert_eq!(e.to_string(), "ext.csv:6: \"x\" bad");
    let e = days("a,1\nb,1,2\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "ext.csv:2: 3 cells; expected two: the student, then the value"
    );
    let e = days("a,1\n,1\n").unwrap_err();
    assert_eq!(e.to_string(), "ext.csv:2: the student is empty");
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("e.csv");
    std::fs::write(&ext, "a,3 days\nb,+2\nc,next week\n").unwrap();
    let e4 = dir.path().join("e4.csv");
    std::fs::write(&e4, "a,3 days\nb,+2\n\nc,2.5 days\n").unwrap();
    let e = Extensions::read(&e4).unwrap_err().to_string();
    assert!(
        e.ends_with("e4.csv:4: \"2.5 days\": the days must be a whole number, 0 or more"),
        "{e}"
    );
    let e = Extensions::read(&ext).unwrap_err().to_string();
    assert!(e.ends_with("e.csv:3: \"next week\" is neither a due time with its UTC offset (2026-09-03T17:00+10:00) nor days (3 days)"), "{e}");
    let times = dir.path().join("t.csv");
    std::fs::write(&times, "a,2026-09-01T10:00Z\nb,tuesday\n").unwrap();
    let e = Times::read(&times).unwrap_err().to_string();
    assert!(e.contains("t.csv:2: \"tuesday\" is not a time"), "{e}");
    assert!(Times::read(&dir.path().join("none.csv")).is_err());
}

#[test]
fn rekeyed_lines_follow_renamed_reports() {
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("ext.csv");
    std::fs::write(&ext, "Student 7,3 days\nnobody,1 day\n").unwrap();
    let mut d = deadline();
    d.extensions = Extensions::read(&ext).unwrap();
    let real = [with_lms("lee-7", "7", Some("2026-09-03T17:00+10:00"), None)];
    let renamed = d.rekeyed(&real, |r| format!("anon-{}", r.name));
    assert_eq!(renamed.extensions.lines[0].key, "anon-lee-7");
    assert_eq!(renamed.extensions.lines[1].key, "nobody");
    let mut anon = report("anon-lee-7", &[]);
    anon.lms = real[0].lms.clone();
    anon.lms.as_mut().unwrap().students.clear();
    let a = renamed.assess(&anon);
    assert_eq!((a.extended, a.days), (true, Some(0)));
    assert_eq!(
        d.assess(&anon).days,
        Some(2),
        "without the rekeying, no extension"
    );
}
