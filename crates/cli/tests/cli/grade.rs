//! `crib grade` end to end: exit codes, --json, --resume, --gradescope, and
//! gradescope/run_autograder with /autograder redirected to a temporary directory.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{
    crib_process as crib, grade_empty, json_lines, reference, submission, submissions, write_zip,
    zip_bytes,
};

#[test]
fn bad_paths_and_usage_exit_2() {
    let out = crib()
        .args(["grade", "/no/such/submission.pl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read /no/such/submission.pl"), "{err}");
    let out = crib().args(["grade"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = crib()
        .args(["grade", "--hand-value-timeout", "0", "x.pl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_says_how_many_tests_and_where_from() {
    let out = crib().args(["grade", "--help"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let deals = crib_grade_count();
    assert!(
        text.contains(&format!("select_hand/3 on {deals} deals")),
        "{text}"
    );
    assert!(
        text.contains("23647 rank patterns") && text.contains("secret seed"),
        "{text}"
    );
}

fn crib_grade_count() -> usize {
    // The CLI prints the library's count; read it back from --json instead of linking.
    let dir = tempfile::tempdir().unwrap();
    let out = crib()
        .args(["grade", "--json", "--out"])
        .arg(dir.path())
        .arg(submission("empty.pl"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    report["tests"].as_array().unwrap().len()
}

#[test]
fn json_resume_and_gradescope() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    for name in ["correct.pl", "halt_call.pl", "empty.pl"] {
        std::fs::copy(submission(name), subs.join(name)).unwrap();
    }
    let out_dir = dir.path().join("results");
    let gs = dir.path().join("gs");
    let run = |extra: &[&str]| {
        let out = crib()
            .arg("grade")
            .args(extra)
            .arg("--out")
            .arg(&out_dir)
            .arg("--gradescope")
            .arg(&gs)
            .arg(&subs)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let out = run(&["--json"]);
    let lines = json_lines(&out.stdout);
    let names: Vec<&str> = lines.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["correct", "empty", "halt_call"]);
    assert_eq!(lines[0]["marks"]["total"], 70.0);
    // Each result has crib lint's findings; correct.pl has no PlDoc mode line.
    let quality = &lines[0]["quality"];
    assert_eq!(quality["name"], "correct");
    assert_eq!(quality["summary"]["by_rule"]["D104"], 1, "{quality}");
    assert!(lines[1]["load"]["load_failed"].is_string());
    // halt(7) on the hands of four fives: crashed items of the hand_value check.
    assert_eq!(lines[2]["hand_value"]["kinds"][0]["kind"], "crashed");
    assert!(lines[2]["seed_id"].is_string());
    for name in ["correct", "empty", "halt_call"] {
        assert!(out_dir.join(format!("{name}.json")).is_file());
        let results: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(gs.join(name).join("results.json")).unwrap(),
        )
        .unwrap();
        assert!(results["score"].is_number() && results["tests"].is_array());
    }

    // A second run resumes all three; a changed submission is graded again.
    std::fs::write(subs.join("empty.pl"), "hand_value(_, _, 0).\n").unwrap();
    let out = run(&["--resume"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("(2 resumed)"), "{table}");
    assert!(table.contains("missing_predicate select_hand/3"), "{table}");
}

#[test]
fn run_autograder_writes_results_json() {
    let root = tempfile::tempdir().unwrap();
    let submission = root.path().join("submission");
    std::fs::create_dir(&submission).unwrap();
    for name in ["cribbage.pl", "scoring.pl"] {
        std::fs::copy(
            submissions().join("module").join(name),
            submission.join(name),
        )
        .unwrap();
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../gradescope/run_autograder");
    let out = Command::new("bash")
        .arg(&script)
        .env("AUTOGRADER_ROOT", root.path())
        .env("CRIB", env!("CARGO_BIN_EXE_crib"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.path().join("results/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(results["score"], 70.0, "{results}");
    let tests = results["tests"].as_array().unwrap();
    let max: f64 = tests.iter().map(|t| t["max_score"].as_f64().unwrap()).sum();
    assert!((max - 70.0).abs() < 0.01, "{max}");
    let output = results["output"].as_str().unwrap();
    assert!(output.contains("code quality: not assessed"), "{output}");
    // Which crib and which SWI-Prolog graded it, for staff and for a regrade next term.
    assert!(output.contains("graded by crib "), "{output}");
    let producer = &results["extra_data"]["produced_by"];
    assert!(
        producer["swipl"]
            .as_str()
            .is_some_and(|s| s.starts_with("SWI-Prolog version ")),
        "{results}"
    );

    // With a course seed in the zip, each submission's tests derive from it and its id:
    // the same submission graded again gets the same tests, another one other tests.
    let seed = crib_testset::Seed::from_bytes([3; 32]);
    std::fs::create_dir_all(root.path().join("source")).unwrap();
    std::fs::write(root.path().join("source/seed"), seed.to_hex()).unwrap();
    // Which tests a run draws is all these runs compare: a crib that asks a few of them
    // (the options of a quick trial run, after the script's own) says so as well.
    let quick = root.path().join("quick-crib");
    std::fs::write(
        &quick,
        format!(
            "#!/bin/sh\nexec '{}' \"$@\" --hand-value-patterns 300 --select-hand-deals 3\n",
            env!("CARGO_BIN_EXE_crib")
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&quick, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let seed_of = |id: u32| {
        std::fs::write(
            root.path().join("submission_metadata.json"),
            format!("{{\"id\": {id}, \"created_at\": \"2026-09-01T10:00:00Z\"}}"),
        )
        .unwrap();
        let out = Command::new("bash")
            .arg(&script)
            .env("AUTOGRADER_ROOT", root.path())
            .env("CRIB", &quick)
            .output()
            .unwrap();
        assert!(out.status.success());
        let results: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.path().join("results/results.json")).unwrap(),
        )
        .unwrap();
        results["output"].as_str().unwrap().to_string()
    };
    let first = seed_of(17);
    let expected = seed.derive("gradescope submission 17").id();
    assert!(first.contains(&format!("seed {expected}")), "{first}");
    assert_eq!(
        seed_of(17),
        first,
        "a regrade gets the same tests and marks"
    );
    assert!(
        !seed_of(18).contains(&expected),
        "another submission, other tests"
    );
    std::fs::remove_file(root.path().join("source/seed")).unwrap();
    std::fs::remove_file(root.path().join("submission_metadata.json")).unwrap();

    // A crib that cannot run (an autograder built without its binary) still leaves a
    // results file, which says what is missing.
    let out = Command::new("bash")
        .arg(&script)
        .env("AUTOGRADER_ROOT", root.path())
        .env("CRIB", "/no/such/crib")
        .output()
        .unwrap();
    assert!(out.status.success());
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.path().join("results/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(results["score"], 0);
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("no crib binary (/no/such/crib)") && output.contains("cargo xtask dist"),
        "{output}"
    );
}

/// Writes an executable shell script `name` in `dir` and returns its path.
fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{text}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_swipl_too_old_crashing_or_untried_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let empty = submissions().join("empty.pl");
    let grade = |swipl: &Path| {
        crib()
            .args(["grade", "--no-lint", "--hand-value-patterns", "50"])
            .args(["--select-hand-deals", "2", "--out"])
            .arg(dir.path().join("out"))
            .arg("--swipl")
            .arg(swipl)
            .arg(&empty)
            .output()
            .unwrap()
    };
    for (swipl, says) in [
        (
            script(
                dir.path(),
                "old",
                "echo 'SWI-Prolog version 7.6.4 for amd64'",
            ),
            "SWI-Prolog 7.6.4 is too old: crib's children need 8.2.0 or newer",
        ),
        (
            script(
                dir.path(),
                "crash",
                "echo 'cannot map the boot file' >&2; exit 3",
            ),
            "--version exited with exit status: 3: cannot map the boot file",
        ),
        (dir.path().join("missing"), "not found"),
    ] {
        let out = grade(&swipl);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    }
    // A version outside the proven range grades, with a warning.
    let newer = script(
        dir.path(),
        "newer",
        "if [ \"$1\" = --version ]; then echo 'SWI-Prolog version 10.1.0 for x86_64-linux'; \
         exit 0; fi\nexec swipl \"$@\"",
    );
    let out = grade(&newer);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("crib: warning: SWI-Prolog 10.1.0 is outside the versions crib's marks are proven on (8.2.4 to 9.2.9"),
        "{err}"
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("SWI-Prolog 10.1.0"), "{table}");
}

#[test]
fn output_directories_are_not_graded_and_write_failures_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(submission("empty.pl"), dir.path().join("empty.pl")).unwrap();
    let out_dir = dir.path().join("results");
    let gs = dir.path().join("gs");
    std::fs::create_dir_all(gs.join("old")).unwrap();
    let grade = || {
        crib()
            .args(["grade", "--json", "--out"])
            .arg(&out_dir)
            .arg("--gradescope")
            .arg(&gs)
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let out = grade();
    assert_eq!(out.status.code(), Some(0));
    let names: Vec<String> = json_lines(&out.stdout)
        .iter()
        .map(|r| r["name"].to_string())
        .collect();
    assert_eq!(names, ["\"empty\""]);

    // The result file is a directory now: grading finishes, then exits 2 naming it.
    let result = out_dir.join("empty.json");
    std::fs::remove_file(&result).unwrap();
    std::fs::create_dir_all(result.join("x")).unwrap();
    let out = grade();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("cannot write {}", result.display())),
        "{err}"
    );
}

#[test]
fn no_submission_and_skipped_entries_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("results");
    let subs = dir.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    std::fs::write(subs.join("notes.txt"), "not prolog").unwrap();
    let out = crib()
        .args(["grade", "--out"])
        .arg(&out_dir)
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no submission in"), "{err}");
    assert!(err.contains("no submission found"), "{err}");
    // A link and a .PL file: the link is skipped with a warning, the .PL file graded.
    std::os::unix::fs::symlink("/etc/passwd", subs.join("passwd.pl")).unwrap();
    std::fs::copy(submission("empty.pl"), subs.join("LOUD.PL")).unwrap();
    let out = crib()
        .args(["grade", "--out"])
        .arg(&out_dir)
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: skipped") && err.contains("passwd.pl: a symbolic link"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("LOUD") && text.contains("1 skipped"),
        "{text}"
    );
}

/// Starts `crib grade` on a submission that sleeps in every test, with its temporary
/// directory in `tmp`, and returns once its child is running.
fn grading_sleeper(tmp: &Path) -> std::process::Child {
    let sub = tmp.join("sleeper.pl");
    std::fs::write(&sub, "hand_value(_, _, 0) :- sleep(30).\n").unwrap();
    let child = crib()
        .args([
            "grade",
            "--isolation",
            "rlimits",
            "--hand-value-timeout",
            "60",
            "--out",
        ])
        .arg(tmp.join("results"))
        .arg(&sub)
        .env("TMPDIR", tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while work_dirs(tmp)
        .iter()
        .all(|d| std::fs::read_dir(d).map_or(0, |e| e.count()) < 3)
    {
        assert!(started.elapsed().as_secs() < 60, "no child started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    child
}

fn work_dirs(tmp: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("crib-grade-"))
        .map(|e| e.path())
        .collect()
}

#[test]
fn sigint_and_sigterm_remove_the_work_dirs() {
    let tmp = tempfile::tempdir().unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    }
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let mut child = grading_sleeper(tmp.path());
        let before = work_dirs(tmp.path());
        // The grader's alone: the linter runs in the grader's jail and work directory.
        assert_eq!(before.len(), 1, "{before:?}");
        // SAFETY: kill only sends a signal to the child started above.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "signal {signal}");
        assert!(
            work_dirs(tmp.path()).is_empty(),
            "signal {signal} left {before:?}"
        );
    }
}

#[test]
fn under_bubblewrap_crib_confines_its_children_with_landlock_too() {
    // Reads the mount table, which bubblewrap alone leaves readable: one point too many on
    // every hand if it can.
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string(submission("correct.pl")).unwrap();
    let base = correct.replacen(
        "hand_value(Hand, Start, Value) :-\n",
        "base_value(Hand, Start, Value) :-\n",
        1,
    );
    assert_ne!(base, correct);
    let probe = format!(
        "hand_value(Hand, Start, Value) :-\n\
         \x20   base_value(Hand, Start, V0),\n\
         \x20   (   catch(read_file_to_string('/proc/self/mounts', _, []), _, fail)\n\
         \x20   ->  Value is V0 + 1\n\
         \x20   ;   Value = V0\n\
         \x20   ).\n\n{base}"
    );
    let subs = dir.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    std::fs::write(subs.join("proc_reader.pl"), probe).unwrap();
    let grade = |isolation: &str| {
        let out = crib()
            // A sample of the tests serves: the probe adds a point to every hand it can.
            .args(["grade", "--json", "--hand-value-patterns", "2000"])
            .args([
                "--select-hand-deals",
                "3",
                "--isolation",
                isolation,
                "--out",
            ])
            .arg(dir.path().join(isolation))
            .arg(&subs)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (report, stderr)
    };
    let (bare, _) = grade("rlimits");
    let landlock = bare["isolation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l.as_str().unwrap().starts_with("landlock-v"))
        .cloned()
        .expect("this test needs a kernel with Landlock");
    let (bwrap, stderr) = grade("bwrap");
    assert_eq!(
        bwrap["isolation"],
        serde_json::json!(["bwrap", "seccomp", landlock]),
        "{stderr}"
    );
    assert!(!stderr.contains("warning"), "{stderr}");
    for report in [&bare, &bwrap] {
        assert_eq!(report["marks"]["total"], 70.0, "{}", report["isolation"]);
    }
    // The probe can fail: outside the sandbox the mount table is readable.
    let status = Command::new("swipl")
        .args([
            "-g",
            "read_file_to_string('/proc/self/mounts', _, [])",
            "-t",
            "halt",
        ])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Writes a submission that memorises every goal and expected answer the JSON result and
/// Gradescope's results.json of one run show (hand_value's counterexamples and simplest
/// hands, select_hand's best keeps), falling back to 0 and the first four cards; returns
/// its path and how many answers it memorised.
fn memoriser(
    dir: &Path,
    json: &serde_json::Value,
    results: &serde_json::Value,
) -> (PathBuf, usize) {
    use std::collections::BTreeSet;
    let mut facts = BTreeSet::new();
    let mut hand_value = |goal: &str, expected: &serde_json::Value| {
        // `hand_value([card(..),...], card(..), V)` becomes `memo_hv([...], card(..), N).`
        let args = goal
            .strip_prefix("hand_value(")
            .and_then(|g| g.strip_suffix(", V)"))
            .unwrap_or_else(|| panic!("a hand_value goal: {goal}"));
        facts.insert(format!("memo_hv({args}, {expected})."));
    };
    let hv = &json["hand_value"];
    for c in hv["counterexamples"].as_array().unwrap() {
        hand_value(c["goal"].as_str().unwrap(), &c["expected"]);
    }
    for a in hv["areas"].as_array().unwrap() {
        hand_value(
            a["simplest"]["goal"].as_str().unwrap(),
            &a["simplest"]["expected"],
        );
    }
    let terms = |tokens: &str| -> String {
        let cards: Vec<String> = tokens
            .split_whitespace()
            .map(|t| crib_core::Card::parse(t).unwrap().prolog())
            .collect();
        format!("[{}]", cards.join(","))
    };
    for t in json["tests"].as_array().unwrap() {
        let goal = t["goal"].as_str().unwrap();
        let cards = goal
            .strip_prefix("select_hand(")
            .and_then(|g| g.strip_suffix(",Hand,Cribcards)"))
            .unwrap();
        if let Some(best) = t["best"].as_array().and_then(|b| b.first()) {
            facts.insert(format!(
                "memo_sh({cards}, {}, {}).",
                terms(best["keep"].as_str().unwrap()),
                terms(best["discard"].as_str().unwrap())
            ));
        }
    }
    // What Gradescope shows adds nothing the JSON lacks: every goal it prints is in it.
    for test in results["tests"].as_array().unwrap() {
        for line in test["output"].as_str().unwrap().lines() {
            if let Some(goal) = line.trim().strip_prefix("?- hand_value(") {
                let args = goal.strip_suffix(", V)").unwrap();
                assert!(
                    facts
                        .iter()
                        .any(|f| f.starts_with(&format!("memo_hv({args},"))),
                    "results.json shows a goal the JSON does not: {goal}"
                );
            }
        }
    }
    let path = dir.join("memoriser.pl");
    std::fs::write(
        &path,
        format!(
            "% Answers what an earlier run showed, and guesses otherwise.\n\
             hand_value(H, S, V) :- memo_hv(H, S, V), !.\n\
             hand_value(_, _, 0).\n\
             select_hand(Cards, Hand, Crib) :- memo_sh(Cards, Hand, Crib), !.\n\
             select_hand([A, B, C, D | Crib], [A, B, C, D], Crib).\n\n{}\n",
            facts.iter().cloned().collect::<Vec<_>>().join("\n")
        ),
    )
    .unwrap();
    (path, facts.len())
}

/// Issue 26: a file that memorises everything one grading run shows earns at most 5 of 70
/// when graded as staff grade (a fresh seed for each run), whether it was built from staff's
/// own feedback of an earlier run or from a student's own run of the open-source crib. The
/// control: graded again under the very seed it was built from, it does earn the marks it
/// memorised, so the file works and the low mark is the seed's doing.
#[test]
fn memorised_answers_earn_almost_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // Wrong everywhere, so that the run shows as many expected answers as it can.
    let weak = dir.path().join("weak");
    std::fs::create_dir(&weak).unwrap();
    std::fs::write(
        weak.join("weak.pl"),
        "hand_value(_, _, 0).\nselect_hand([A, B, C, D | Crib], [A, B, C, D], Crib).\n",
    )
    .unwrap();
    let grade =
        |subs: &Path, out: &str, extra: &[&str]| -> (serde_json::Value, serde_json::Value) {
            let (out_dir, gs) = (dir.path().join(out), dir.path().join(format!("{out}-gs")));
            let run = crib()
                .args(["grade", "--json", "--no-lint", "--out"])
                .arg(&out_dir)
                .arg("--gradescope")
                .arg(&gs)
                .args(extra)
                .arg(subs)
                .output()
                .unwrap();
            assert_eq!(
                run.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&run.stderr)
            );
            let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
            let name = json["name"].as_str().unwrap().to_string();
            let results = std::fs::read_to_string(gs.join(name).join("results.json")).unwrap();
            (json, serde_json::from_str(&results).unwrap())
        };
    let (shown, shown_gs) = grade(&weak, "first", &[]);
    assert!(shown["marks"]["total"].as_f64().unwrap() < 5.0);
    let memo_dir = dir.path().join("memo");
    std::fs::create_dir(&memo_dir).unwrap();
    let (memo, facts) = memoriser(&memo_dir, &shown, &shown_gs);
    assert!(facts >= 40, "only {facts} answers memorised");

    // Graded as staff grade: a fresh seed, so nothing it memorised is asked again.
    let (again, again_gs) = grade(&memo, "second", &[]);
    assert_ne!(again["seed_id"], shown["seed_id"]);
    let total = again["marks"]["total"].as_f64().unwrap();
    eprintln!("the memoriser of {facts} answers earns {total} of 70 under a fresh seed");
    assert!(total <= 5.0, "the memoriser earns {total} of 70");
    assert_eq!(again_gs["score"].as_f64().unwrap(), total);

    // crib lint points the markers to it.
    let lint = crib().args(["lint", "--json"]).arg(&memo).output().unwrap();
    let lint: serde_json::Value = serde_json::from_slice(&lint.stdout).unwrap();
    assert!(
        lint["summary"]["by_rule"]["A601"].as_u64() >= Some(1),
        "crib lint says nothing of the memorised answers: {lint}"
    );

    // The control: under the seed it was built from, it earns what it memorised.
    let seed_file = dir.path().join("first").join("seed");
    let (control, _) = grade(
        &memo,
        "control",
        &["--seed-file", seed_file.to_str().unwrap()],
    );
    assert_eq!(control["seed_id"], shown["seed_id"]);
    let select = control["marks"]["select_hand"].as_f64().unwrap();
    eprintln!(
        "under the seed it was built from: {} of 70, select_hand {select} of 20",
        control["marks"]["total"]
    );
    assert!(
        select >= 19.0,
        "the memoriser works under its own seed: {select} of 20"
    );
}

/// A Canvas bulk download, named as Canvas names files, graded as it comes: a student
/// with two files, a late re-upload, a resubmission, a hostile entry, and a roster with a
/// student who submitted nothing (issue 27, part 1).
#[test]
fn a_canvas_download_is_graded_as_it_comes() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read(submission("correct.pl")).unwrap();
    let empty = std::fs::read(submission("empty.pl")).unwrap();
    let zip = dir.path().join("submissions.zip");
    write_zip(
        &zip,
        &[
            ("smithjane_1001_5001_cribbage.pl", &correct),
            ("smithjane_1001_5001_notes.pl", b"% my notes\n"),
            ("doejohn_LATE_1002_5002_cribbage-1.pl", &correct),
            ("kimbo_1004_5004_cribbage.pl", &empty),
            ("kimbo_1004_5010_cribbage.pl", &correct),
            ("../escape.pl", b"evil.\n"),
        ],
    );
    let roster = dir.path().join("grades.csv");
    std::fs::write(
        &roster,
        "Student,ID,SIS User ID,SIS Login ID,Section,Project 1 (81)\r\n\
         Points Possible,,,,,70\r\n\
         \"Smith, Jane\",1001,S1001,jsmith,Lab 1,\r\n\
         \"Doe, John\",1002,S1002,jdoe,Lab 2,\r\n\
         \"Kim, Bo\",1004,S1004,bkim,Lab 2,\r\n\
         \"Lee, Ann\",1003,S1003,alee,Lab 1,\r\n",
    )
    .unwrap();
    let results = dir.path().join("results");
    let out = crib()
        .args([
            "grade",
            "--json",
            "--no-lint",
            "--hand-value-patterns",
            "400",
            "--select-hand-deals",
            "3",
        ])
        .arg("--roster")
        .arg(&roster)
        .arg("--out")
        .arg(&results)
        .arg(&zip)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let lines = json_lines(&out.stdout);
    let names: Vec<&str> = lines.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["doejohn-1002", "kimbo-1004", "smithjane-1001"]);
    for report in &lines {
        assert_eq!(report["marks"]["total"], 70.0, "{}", report["name"]);
        assert_eq!(report["lms"]["layout"], "canvas");
    }
    let (john, kim, jane) = (&lines[0]["lms"], &lines[1]["lms"], &lines[2]["lms"]);
    assert_eq!(jane["students"][0]["id"], "1001");
    assert_eq!(jane["students"][0]["name"], "Smith, Jane");
    assert_eq!(jane["students"][0]["sis_id"], "S1001");
    assert_eq!(jane["students"][0]["section"], "Lab 1");
    assert_eq!(jane["submission_id"], "5001");
    assert_eq!(jane["late"], false);
    assert_eq!(
        lines[2]["load"]["files"],
        serde_json::json!(["cribbage.pl", "notes.pl"])
    );
    assert_eq!(john["late"], true);
    assert_eq!(
        lines[0]["load"]["files"],
        serde_json::json!(["cribbage.pl"])
    );
    assert_eq!(kim["submission_id"], "5010");
    // What was set aside, left out and missing: on stderr, and in lms/intake.json.
    assert!(err.contains("a canvas download, 3 submissions"), "{err}");
    assert!(
        err.contains("set aside an earlier attempt of Kim, Bo (1004) (submission 5004"),
        "{err}"
    );
    assert!(
        err.contains("../escape.pl: a path outside the destination"),
        "{err}"
    );
    assert!(
        err.contains("on the roster with no submission: Lee, Ann (1003)"),
        "{err}"
    );
    let intake: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("lms/intake.json")).unwrap())
            .unwrap();
    let download = &intake["downloads"][0];
    assert_eq!(download["layout"], "canvas");
    assert_eq!(download["submissions"].as_array().unwrap().len(), 3);
    assert_eq!(download["set_aside"][0]["record"]["submission_id"], "5004");
    assert_eq!(download["set_aside"][0]["kept"], "kimbo-1004");
    assert_eq!(download["problems"][0]["entry"], "../escape.pl");
    assert_eq!(download["problems"][0]["problem"]["kind"], "escapes");
    assert_eq!(intake["missing"][0]["id"], "1003");
    // Each result file keeps the record; nothing escaped the work directory.
    let saved: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(results.join("smithjane-1001.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(saved["lms"]["students"][0]["id"], "1001");
    assert!(!dir.path().join("escape.pl").exists());
    // crib report reads the results back, records and all.
    let out = crib()
        .args(["report", "--csv", "-"])
        .arg(&results)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let csv = String::from_utf8_lossy(&out.stdout);
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(csv.contains("smithjane-1001"), "{csv}");
}

#[test]
fn a_download_that_is_not_a_zip_is_said_and_the_rest_graded() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.zip");
    std::fs::write(&bad, b"PK\x03\x04 truncated").unwrap();
    let results = dir.path().join("results");
    let out = crib()
        .args([
            "grade",
            "--no-lint",
            "--hand-value-patterns",
            "100",
            "--out",
        ])
        .arg(&results)
        .arg(&bad)
        .arg(submission("empty.pl"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!("{}: not a zip archive", bad.display())),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("empty"));
    let out = crib()
        .args(["grade", "--layout", "blackboard", "x.zip"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A roster that is no class list is a usage error, named by file and line.
    let roster = dir.path().join("r.csv");
    std::fs::write(&roster, "Name,Section\nJane,1\n").unwrap();
    let out = crib()
        .args(["grade", "--roster"])
        .arg(&roster)
        .arg(submission("empty.pl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}:1: not a class list", roster.display())),
        "{err}"
    );
}

/// A Moodle download unpacked into a folder (a zip in one participant's folder) and a
/// Gradescope export (a resubmission), given together and recognised by their names; a
/// plain folder beside them is graded as before.
#[test]
fn moodle_and_gradescope_downloads_are_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read(submission("correct.pl")).unwrap();
    let moodle = dir.path().join("moodle");
    let jane = moodle.join("Jane Smith_4242_assignsubmission_file_");
    std::fs::create_dir_all(&jane).unwrap();
    std::fs::write(jane.join("cribbage.pl"), &correct).unwrap();
    let john = moodle.join("John Doe_4243_assignsubmission_file_");
    std::fs::create_dir_all(&john).unwrap();
    write_zip(&john.join("work.zip"), &[("work/cribbage.pl", &correct)]);
    let gradescope = dir.path().join("export.zip");
    let metadata = "submission_7:\n  :submitters:\n  - :name: Ann Lee\n    :sid: '77'\n  \
                    :created_at: 2026-09-01 10:00:00.000000000 +10:00\n\
                    submission_8:\n  :submitters:\n  - :name: Ann Lee\n    :sid: '77'\n  \
                    :created_at: 2026-09-01 11:00:00.000000000 +10:00\n";
    write_zip(
        &gradescope,
        &[
            ("submission_metadata.yml", metadata.as_bytes()),
            ("submission_7/cribbage.pl", b"% first try\n"),
            ("submission_8/cribbage.pl", &correct),
        ],
    );
    let plain = dir.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    std::fs::copy(submission("empty.pl"), plain.join("empty.pl")).unwrap();
    let results = dir.path().join("results");
    let out = crib()
        .args([
            "grade",
            "--json",
            "--no-lint",
            "--hand-value-patterns",
            "200",
            "--select-hand-deals",
            "3",
        ])
        .arg("--out")
        .arg(&results)
        .args([&plain, &moodle, &gradescope])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let lines = json_lines(&out.stdout);
    let names: Vec<&str> = lines.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["empty", "jane-smith-4242", "john-doe-4243", "ann-lee-77"]
    );
    assert!(lines[0].get("lms").is_none());
    assert_eq!(lines[1]["lms"]["layout"], "moodle");
    assert_eq!(lines[1]["lms"]["students"][0]["name"], "Jane Smith");
    assert_eq!(lines[2]["marks"]["total"], 70.0);
    assert_eq!(lines[3]["lms"]["layout"], "gradescope");
    assert_eq!(lines[3]["lms"]["submission_id"], "8");
    assert_eq!(lines[3]["lms"]["submitted_at"], "2026-09-01T01:00:00Z");
    assert_eq!(lines[3]["marks"]["total"], 70.0);
    assert!(err.contains("a moodle download, 2 submissions"), "{err}");
    assert!(err.contains("a gradescope download, 1 submission"), "{err}");
    assert!(
        err.contains("set aside an earlier attempt of Ann Lee (77) (submission 7"),
        "{err}"
    );
}

/// crib's own reference is published for students: graded as a submission it is named on
/// stderr and in the summary as a match of the reference; an independent solution is not.
/// Never a mark: both get theirs.
#[test]
fn a_copy_of_cribs_reference_is_pointed_out() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    std::fs::copy(reference(), subs.join("copied.pl")).unwrap();
    std::fs::copy(submission("correct.pl"), subs.join("own.pl")).unwrap();
    let out = crib()
        .args(["grade", "--no-lint", "--hand-value-patterns", "400"])
        .args(["--select-hand-deals", "3", "--out"])
        .arg(dir.path().join("results"))
        .arg(&subs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        err.contains("crib: copied: matches crib's own reference"),
        "{err}"
    );
    assert!(!err.contains("own: matches"), "{err}");
    assert!(
        stdout.contains("1 match crib's own published reference (see the warnings): copied"),
        "{stdout}"
    );
    assert!(stdout.contains("70.00"), "both keep their marks: {stdout}");
}

#[test]
fn a_root_without_proc_is_refused_with_the_reason() {
    // Its own results directory: the run writes the seed before it stops.
    let out_dir = tempfile::tempdir().unwrap();
    // Only root gives children uids of their own, which need /proc; and only root unshares.
    assert!(crib_sandbox::is_root(), "this test needs root");
    let out = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "--", "sh", "-c"])
        .arg("umount -l /proc && exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_crib"))
        .args(["grade", "--no-lint", "--out"])
        .arg(out_dir.path())
        .arg(submissions().join("empty.pl"))
        .output()
        .expect("unshare (util-linux) runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("crib needs /proc to give children uids of their own"),
        "{err}"
    );
}

/// A course's seed draws the same tests on every run: `crib grade --seed-file` draws them
/// once, keeps them beside the seeds (readable by their owner only: they hold every expected
/// answer) and reads them back, with the same fingerprint (issue 41).
#[test]
fn a_course_seeds_tests_are_drawn_once_and_kept() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let grade = |out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let mut args: Vec<&OsStr> = extra.iter().map(OsStr::new).collect();
        args.extend([OsStr::new("--out"), out.as_os_str()]);
        grade_empty(&args)
    };
    let first = grade("first", &[]);
    let seed = dir.path().join("first").join("seed");
    let seed_id = first["seed_id"].as_str().unwrap();
    let kept = dir
        .path()
        .join("course")
        .join("seeds")
        .join(format!("{seed_id}.testset"));
    let course = grade("course", &["--seed-file", seed.to_str().unwrap()]);
    assert_eq!(course["test_set"], first["test_set"]);
    let meta = std::fs::metadata(&kept).expect("the course's tests are kept");
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    let written = meta.modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = grade("course", &["--seed-file", seed.to_str().unwrap()]);
    assert_eq!(again["test_set"], first["test_set"]);
    assert_eq!(
        std::fs::metadata(&kept).unwrap().modified().unwrap(),
        written,
        "the kept tests are read back, not drawn and written again"
    );
    // A salted seed is met once: its tests are not kept.
    let salted = grade(
        "salted",
        &["--seed-file", seed.to_str().unwrap(), "--seed-salt", "s1"],
    );
    assert_ne!(salted["test_set"], first["test_set"]);
    let salted_dir = dir.path().join("salted").join("seeds");
    assert!(std::fs::read_dir(salted_dir).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".testset")));
}

/// A salted seed's tests (one per Gradescope submission) come from its course seed's kept
/// part: made and kept the first time (in --kept-dir, else beside the seeds, owner-only), read
/// back by later runs; the same salt draws the same tests, another salt other ones.
#[test]
fn a_salted_seeds_tests_come_from_the_course_part_kept() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let seed_file = dir.path().join("course.seed");
    let course = crib_testset::Seed::from_bytes([0x2a; 32]);
    course.write_new(&seed_file).unwrap();
    let kept_dir = dir.path().join("kept");
    let grade = |out: &str, salt: &str, kept: bool| {
        let out = dir.path().join(out);
        let mut args = vec![
            OsStr::new("--seed-file"),
            seed_file.as_os_str(),
            OsStr::new("--seed-salt"),
            OsStr::new(salt),
            OsStr::new("--out"),
            out.as_os_str(),
        ];
        if kept {
            args.extend([OsStr::new("--kept-dir"), kept_dir.as_os_str()]);
        }
        grade_empty(&args)
    };
    let first = grade("a", "submission 1", true);
    assert_eq!(first["seed_id"], course.derive("submission 1").id());
    let kept = kept_dir.join(format!("{}.course", course.id()));
    let meta = std::fs::metadata(&kept).expect("the course part is kept in --kept-dir");
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    let written = meta.modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = grade("b", "submission 1", true);
    assert_eq!(
        again["test_set"], first["test_set"],
        "the same salt, the same tests"
    );
    assert_eq!(
        std::fs::metadata(&kept).unwrap().modified().unwrap(),
        written,
        "the course part is read back, not made and written again"
    );
    let other = grade("c", "submission 2", true);
    assert_ne!(other["test_set"], first["test_set"]);
    // Without --kept-dir, beside the run's seeds; the same tests either way.
    let beside = grade("d", "submission 1", false);
    assert_eq!(beside["test_set"], first["test_set"]);
    let seeds = dir.path().join("d").join("seeds");
    assert!(seeds.join(format!("{}.course", course.id())).is_file());
}

/// A download that cannot be read does not stop the next: each is read into a folder of its
/// own (both were once `download-1`, and the second stopped the run).
#[test]
fn an_unreadable_download_leaves_the_next_one_graded() {
    let dir = tempfile::tempdir().unwrap();
    let empty = std::fs::read(submission("empty.pl")).unwrap();
    let good = zip_bytes(&[("leeann_1003_70004_cribbage.pl", &empty)]);
    std::fs::write(dir.path().join("bad.zip"), &good[..good.len() / 2]).unwrap();
    std::fs::write(dir.path().join("good.zip"), &good).unwrap();
    let out = crib()
        .current_dir(dir.path())
        .args(["grade", "--out", "out", "bad.zip", "good.zip"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("bad.zip: not a zip archive"), "{err}");
    assert!(dir.path().join("out/leeann-1003.json").is_file(), "{err}");
}
