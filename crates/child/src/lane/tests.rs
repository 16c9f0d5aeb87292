use super::*;

use std::time::Duration;

use crib_isolation::IsolationChoice;
use crib_sandbox::WorkDir;

/// The frames of these tests.
#[derive(Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Frame {
    Files { count: usize },
    Done,
}

/// A child program: says how many files it was given, then, by its argument, says `done`
/// and exits, exits with status 3 after a line on stderr, or hangs.
const CHILD: &str = r#"
:- initialization(main, main).
main :-
    current_prolog_flag(argv, [Pipe, Mode | Files]),
    open(Pipe, write, S),
    length(Files, N),
    format(S, '{"type":"files","count":~d}~n', [N]),
    flush_output(S),
    act(Mode, S).
act(done, S) :- format(S, '{"type":"done"}~n', []), flush_output(S), halt(0).
act(die, _) :- format(user_error, "dying here~n", []), halt(3).
act(hang, _) :- repeat, sleep(1), fail.
"#;

/// Reads the frames until `done`, or two seconds.
struct Collect {
    deadline: Instant,
    frames: Vec<Frame>,
}

impl Reader<Frame> for Collect {
    type Output = String;

    fn started(&mut self) {
        self.deadline = Instant::now() + Duration::from_secs(2);
    }

    fn deadline(&self) -> Instant {
        self.deadline
    }

    fn frame(&mut self, frame: Frame) -> Flow<String> {
        if frame == Frame::Done {
            return Flow::Finish("done".into());
        }
        self.frames.push(frame);
        Flow::Read
    }

    fn end(&mut self, end: End<'_>) -> String {
        match end {
            End::Silent => "silent".into(),
            End::Exited(death) => death.explain(" on purpose"),
        }
    }
}

#[test]
fn a_session_stages_runs_reads_and_explains_its_children() {
    let root = WorkDir::create(&std::env::temp_dir(), crib_sandbox::is_root()).unwrap();
    let jail = Jail::new(
        "swipl".as_ref(),
        crate::SWIPL_PROBE,
        IsolationChoice::Auto,
        root.path(),
    )
    .expect("these tests need swipl");
    let grader = root.path().join("grader");
    fs::create_dir(&grader).unwrap();
    fs::write(grader.join("child.pl"), CHILD).unwrap();
    crib_sandbox::open_up(&grader).unwrap();
    // A submission of one file and a link, which staging never follows.
    let given = tempfile::tempdir().unwrap();
    fs::write(given.path().join("a.pl"), "a.\n").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", given.path().join("b.pl")).unwrap();
    let submission = Submission {
        name: "s".into(),
        path: given.path().to_path_buf(),
        lms: None,
    };
    let work = root.path().join("s0");
    fs::create_dir(&work).unwrap();
    let session = Lane::new(
        &jail,
        &grader,
        &work,
        "scratch",
        crib_sandbox::Slot::First(crib_sandbox::Worker::FIRST),
    );
    let staged = session
        .stage(&submission, crib_submission::MAX_BYTES, &[])
        .unwrap();
    assert_eq!(staged.load, ["a.pl"]);
    assert_eq!(staged.skipped.len(), 1, "{:?}", staged.skipped);
    assert!(session.copy().join("a.pl").is_file());
    assert!(!session.copy().join("b.pl").exists());

    let run = |mode: &str| {
        let args = [mode.to_string()];
        let program = Program {
            name: "child.pl",
            args: &args,
            files: &staged.load,
            rlimits: Rlimits::PROBE,
            siblings: false,
        };
        let mut reader = Collect {
            deadline: Instant::now(),
            frames: Vec::new(),
        };
        let finished = session.run(&program, &mut reader).unwrap();
        assert_eq!(reader.frames, [Frame::Files { count: 1 }], "{mode}");
        finished.output
    };
    assert_eq!(run("done"), "done");
    assert_eq!(
        run("die"),
        "swipl exited with status 3 on purpose: dying here"
    );
    assert_eq!(run("hang"), "silent");
}
