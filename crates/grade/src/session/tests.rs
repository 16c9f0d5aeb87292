use super::*;
use crate::limits::Limits;
use crib_isolation::IsolationChoice;

#[test]
fn file_stems_are_safe_and_distinct() {
    assert_eq!(file_stem("ok_name"), "ok_name");
    assert_eq!(file_stem("bob~2"), "bob~2");
    // Pinned: results written by earlier versions keep their names.
    assert_eq!(file_stem("a b"), "_a_b-04833892");
    assert_eq!(file_stem(".hidden"), "_hidden-cdcb6865");
    assert_eq!(file_stem("é"), "__-b7181e01");
    assert_ne!(file_stem("a b"), file_stem("a_b"));
    let session = Session::new("/results");
    assert_eq!(
        session.result_path("../x"),
        Path::new("/results").join(format!("{}.json", file_stem("../x")))
    );
    assert!(!file_stem("../x").contains('/'));
}

#[test]
fn discover_leaves_out_the_output_directories() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("alice.pl"), "a.").unwrap();
    fs::create_dir(root.join("gs")).unwrap();
    fs::create_dir(root.join("bob")).unwrap();
    let session = Session {
        gradescope: Some(root.join("gs")),
        ..Session::new(root.join("results"))
    };
    let subs = session
        .survey(&[root.to_path_buf()], false)
        .unwrap()
        .submissions;
    let names: Vec<&str> = subs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    assert!(root.join("results").is_dir());
    assert!(matches!(
        session.survey(&[root.join("nope.pl")], false),
        Err(SessionError::Survey(SurveyError::Path { .. }))
    ));
}

#[derive(Default)]
struct Heard {
    started: Vec<usize>,
    graded: Vec<String>,
}

impl SessionProgress for Heard {
    fn start(&mut self, to_grade: usize) {
        self.started.push(to_grade);
    }
    fn graded(&mut self, report: &SubmissionResult) {
        self.graded.push(report.name.clone());
    }
}

/// Grades two quick submissions, then resumes, then fails to save one result and checks
/// that the other is still saved. (Not `Rlimits`: as root, ending the leftovers after each child kills
/// every process of the worker's uid, which other graders on this machine may be using.)
#[test]
fn saves_resumes_and_survives_a_failed_write() {
    let dir = tempfile::tempdir().unwrap();
    let subs_dir = dir.path().join("subs");
    fs::create_dir(&subs_dir).unwrap();
    fs::write(subs_dir.join("one.pl"), "hand_value(_, _, 0).\n").unwrap();
    fs::write(subs_dir.join("two.pl"), "select_hand(_, _, _) :- fail.\n").unwrap();
    let session = Session {
        jobs: NonZeroUsize::new(2).unwrap(),
        gradescope: Some(dir.path().join("gs")),
        ..Session::new(dir.path().join("results"))
    };
    let tests = session.tests(&SeedChoice::default()).unwrap();
    let seed = tests.seed();
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Auto,
        Limits::default(),
        &tests,
    )
    .expect("these tests need swipl");
    let subs = session.survey(&[subs_dir], false).unwrap().submissions;
    let mut heard = Heard::default();
    let graded = session.grade(&grader, &subs, &mut heard).unwrap();
    let names: Vec<&str> = graded.reports.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["one", "two"]);
    assert_eq!(graded.resumed, 0);
    assert_eq!(heard.started, [2]);
    heard.graded.sort();
    assert_eq!(heard.graded, ["one", "two"]);
    for report in &graded.reports {
        let saved: SubmissionResult =
            serde_json::from_str(&fs::read_to_string(session.result_path(&report.name)).unwrap())
                .unwrap();
        assert_eq!(&saved, report);
        assert!(dir
            .path()
            .join("gs")
            .join(&report.name)
            .join("results.json")
            .is_file());
    }
    // `one` answers 0 to every hand: right on the hands worth nothing.
    let one = graded.reports[0].hand_value.as_ref().unwrap();
    assert!(
        one.share_wrong > 0.5 && one.share_wrong < 1.0,
        "{}",
        one.share_wrong
    );
    assert!(graded.reports[0].marks.hand_value > 0.0);

    // Resuming reuses both, with the seed the results directory kept; a changed
    // submission is graded again.
    let resuming = Session {
        resume: true,
        ..session.clone()
    };
    assert_eq!(resuming.tests(&SeedChoice::default()).unwrap().seed(), seed);
    let mut heard = Heard::default();
    let again = resuming.grade(&grader, &subs, &mut heard).unwrap();
    assert_eq!((again.resumed, heard.started.as_slice()), (2, &[0][..]));
    assert_eq!(again.reports, graded.reports);
    fs::write(&subs[1].path, "select_hand(_, _, _) :- true.\n").unwrap();
    let changed = resuming.grade(&grader, &subs, &mut ()).unwrap();
    assert_eq!(changed.resumed, 1);

    // A result that cannot be written: the other is still written, then the error comes.
    fs::remove_file(session.result_path("one")).unwrap();
    fs::create_dir(session.result_path("one")).unwrap();
    fs::write(session.result_path("one").join("keep"), "").unwrap();
    fs::remove_file(session.result_path("two")).unwrap();
    let err = session.grade(&grader, &subs, &mut ()).unwrap_err();
    assert!(
        matches!(&err, SessionError::Write { path, .. } if path == &session.result_path("one")),
        "{err:?}"
    );
    assert!(session.result_path("two").is_file());
}

/// A fresh run makes a fresh seed and keeps it; resuming and a seed file give it back; a
/// salt derives another; a missing seed file is an error naming it. Each keeps its tests
/// where `crib grade` keeps them.
#[test]
fn seeds_are_kept_and_found_again() {
    let dir = tempfile::tempdir().unwrap();
    let session = Session::new(dir.path().join("results"));
    let seeds = session.seeds_dir();
    let first = session.tests(&SeedChoice::default()).unwrap();
    let second = session.tests(&SeedChoice::default()).unwrap();
    let (first, second) = (first.seed(), second.seed());
    assert_ne!(first, second, "each run without --resume has a fresh seed");
    let kept = dir.path().join("results").join(SEED_FILE);
    assert_eq!(Seed::read(&kept).unwrap(), second);
    for seed in [first, second] {
        let archived = seeds.join(format!("{}.seed", seed.id()));
        assert_eq!(Seed::read(&archived).unwrap(), seed);
    }
    let resuming = Session {
        resume: true,
        ..session.clone()
    };
    let kept_in = |dir: &std::path::Path| Tests::Kept {
        seed: second,
        dir: dir.to_owned(),
    };
    assert_eq!(
        resuming.tests(&SeedChoice::default()).unwrap(),
        kept_in(&seeds)
    );
    let from_file = SeedChoice {
        file: Some(kept.clone()),
        ..SeedChoice::default()
    };
    assert_eq!(session.tests(&from_file).unwrap(), kept_in(&seeds));
    let elsewhere = dir.path().join("kept");
    let kept_elsewhere = SeedChoice {
        kept_dir: Some(elsewhere.clone()),
        ..from_file.clone()
    };
    assert_eq!(session.tests(&kept_elsewhere).unwrap(), kept_in(&elsewhere));
    let salted = SeedChoice {
        salt: Some("submission 42".into()),
        ..kept_elsewhere
    };
    let tests = session.tests(&salted).unwrap();
    assert_eq!(tests.seed(), second.derive("submission 42"));
    assert_eq!(
        tests,
        Tests::Salted {
            course: second,
            salt: "submission 42".into(),
            dir: elsewhere,
        }
    );
    assert_eq!(Seed::read(&kept).unwrap(), tests.seed(), "the run's seed");
    // A salt without a seed file salts a fresh seed: nothing kept would serve again.
    let fresh_salted = SeedChoice {
        salt: Some("x".into()),
        ..SeedChoice::default()
    };
    assert!(matches!(
        session.tests(&fresh_salted).unwrap(),
        Tests::Drawn(_)
    ));
    let missing = SeedChoice {
        file: Some(dir.path().join("nope")),
        ..SeedChoice::default()
    };
    let err = session.tests(&missing).unwrap_err().to_string();
    assert!(err.contains("nope"), "{err}");
}

#[test]
fn idle_cores_go_to_the_submissions_graded() {
    let session = |jobs: usize, cores: usize| Session {
        jobs: NonZeroUsize::new(jobs).unwrap(),
        cores: NonZeroUsize::new(cores).unwrap(),
        ..Session::new("/results")
    };
    // One submission on four cores: all four; two: two each; more than the workers: one.
    assert_eq!(session(4, 4).cores_each(1).get(), 4);
    assert_eq!(session(4, 4).cores_each(2).get(), 2);
    assert_eq!(session(4, 4).cores_each(3).get(), 1);
    assert_eq!(session(4, 4).cores_each(100).get(), 1);
    // Fewer cores than workers: still one.
    assert_eq!(session(4, 2).cores_each(4).get(), 1);
}

/// The same submission graded alone on three cores (its hand_value check on three
/// children) and on one gets the same answers, so the same check and marks.
#[test]
fn more_cores_give_the_same_marks() {
    let dir = tempfile::tempdir().unwrap();
    let subs_dir = dir.path().join("subs");
    fs::create_dir(&subs_dir).unwrap();
    // Right on the hands worth nothing, and counting only pairs elsewhere.
    fs::write(
        subs_dir.join("pairs.pl"),
        "hand_value(H, card(R, _), V) :- findall(R1, member(card(R1, _), H), Rs),\n\
         aggregate_all(count, (select(A, [R|Rs], T), member(A, T)), N), V is N.\n\
         select_hand([A, B, C, D | Crib], [A, B, C, D], Crib).\n",
    )
    .unwrap();
    let limits = Limits {
        hand_value_patterns: Some(1_500),
        select_hand_deals: Some(1),
        ..Limits::default()
    };
    let session = Session::new(dir.path().join("results"));
    let tests = session.tests(&SeedChoice::default()).unwrap();
    let grader = Grader::new("swipl".as_ref(), IsolationChoice::Auto, limits, &tests)
        .expect("these tests need swipl");
    let subs = session.survey(&[subs_dir], false).unwrap().submissions;
    let graded = |cores: usize| {
        Session {
            jobs: NonZeroUsize::new(2).unwrap(),
            cores: NonZeroUsize::new(cores).unwrap(),
            ..session.clone()
        }
        .grade(&grader, &subs, &mut ())
        .unwrap()
        .reports
        .remove(0)
    };
    let (alone, spread) = (graded(1), graded(3));
    let (one, three) = (
        alone.hand_value.clone().unwrap(),
        spread.hand_value.clone().unwrap(),
    );
    // Beside the select_hand tests, the check starts on the cores but one: several children.
    assert_eq!(one.children, 1);
    assert!(three.children >= 2, "{} children", three.children);
    assert!(
        one.share_wrong > 0.1 && one.share_wrong < 1.0,
        "{}",
        one.share_wrong
    );
    assert_eq!(one.checked, three.checked);
    assert_eq!(one.share_wrong, three.share_wrong);
    assert_eq!(one.areas, three.areas);
    assert_eq!(one.counterexamples, three.counterexamples);
    assert_eq!(alone.marks, spread.marks);
}
