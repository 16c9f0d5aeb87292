//! Class lists as Canvas, Moodle and Gradescope export them.

use super::*;
use crate::intake::DownloadedSubmission;
use crib_results::Record;

fn download(layout: Layout, students: &[(&str, Option<&str>)]) -> Download {
    Download {
        layout,
        source: PathBuf::from("d.zip"),
        submissions: students
            .iter()
            .map(|(id, name)| DownloadedSubmission {
                name: format!("s{id}"),
                dir: PathBuf::new(),
                record: Record {
                    layout,
                    students: vec![Student {
                        id: id.to_string(),
                        name: name.map(str::to_string),
                        ..Student::default()
                    }],
                    submission_id: None,
                    submitted_at: None,
                    late: None,
                    entries: Vec::new(),
                },
            })
            .collect(),
        set_aside: Vec::new(),
        problems: Vec::new(),
        ignored: Vec::new(),
        missing: Vec::new(),
        root: PathBuf::new(),
    }
}

#[test]
fn a_canvas_gradebook_export() {
    let csv = "Student,ID,SIS User ID,SIS Login ID,Section,Project 1 (81)\r\n\
               Points Possible,,,,,70\r\n\
               \"Smith, Jane\",1001,S1001,jsmith,Lab 1,\r\n\
               \"Doe, John\",1002,S1002,jdoe,Lab 2,\r\n\
               \"Student, Test\",9999,,,Lab 1,\r\n\
               \"Lee, Ann\",1003,S1003,alee,Lab 1,\r\n";
    let roster = Roster::parse(csv.as_bytes(), Path::new("grades.csv")).unwrap();
    let lines: Vec<u64> = roster.students.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [3, 4, 6]);
    let mut d = download(
        Layout::Canvas,
        &[("1001", Some("smithjane")), ("1002", Some("doejohn"))],
    );
    roster.apply(&mut d);
    let jane = &d.submissions[0].record.students[0];
    assert_eq!(jane.name.as_deref(), Some("Smith, Jane"));
    assert_eq!(jane.sis_id.as_deref(), Some("S1001"));
    assert_eq!(jane.sis_login.as_deref(), Some("jsmith"));
    assert_eq!(jane.section.as_deref(), Some("Lab 1"));
    let missing: Vec<&str> = d.missing.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(missing, ["1003"]);
}

#[test]
fn a_moodle_grading_worksheet_and_participants() {
    let csv = "Identifier,\"Full name\",\"Email address\",Status,Grade\n\
               \"Participant 4242\",\"Jane Smith\",jane@example.edu,\"Submitted for grading\",\n\
               \"Participant 4243\",\"John Doe\",john@example.edu,\"No submission\",\n";
    let roster = Roster::parse(csv.as_bytes(), Path::new("worksheet.csv")).unwrap();
    let mut d = download(Layout::Moodle, &[("4242", Some("Jane Smith"))]);
    roster.apply(&mut d);
    let jane = &d.submissions[0].record.students[0];
    assert_eq!(jane.email.as_deref(), Some("jane@example.edu"));
    assert_eq!(d.missing.len(), 1);
    assert_eq!(d.missing[0].name.as_deref(), Some("John Doe"));
    // The participants page has no participant ids: matched by name.
    let csv = "First name,Last name,Email address,Roles,Groups\n\
               Jane,Smith,jane@example.edu,Student,Lab 1\n\
               Tom,Tutor,tom@example.edu,Teacher,\n";
    let roster = Roster::parse(csv.as_bytes(), Path::new("participants.csv")).unwrap();
    assert_eq!(roster.students.len(), 1);
    let mut d = download(Layout::Moodle, &[("4242", Some("Jane Smith"))]);
    roster.apply(&mut d);
    assert_eq!(
        d.submissions[0].record.students[0].section.as_deref(),
        Some("Lab 1")
    );
    assert!(d.missing.is_empty());
}

#[test]
fn bad_rosters_name_the_file_and_line() {
    let err = Roster::parse(b"Name,Section\nJane,1\n", Path::new("r.csv")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "r.csv:1: not a class list: no column of ids (ID, Identifier, SID, Student ID, ID number) or emails"
    );
    let err =
        Roster::parse(b"ID,Name\r\n\r\n1,Jane\r\n2,\xff\r\n", Path::new("r.csv")).unwrap_err();
    assert!(err.to_string().starts_with("r.csv:4: "), "{err}");
    let roster = Roster::parse(b"ID,Name\n\n\n7,Jane\n", Path::new("r.csv")).unwrap();
    assert_eq!(roster.students[0].0, 4);
}
