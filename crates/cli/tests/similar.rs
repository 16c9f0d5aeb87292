//! `crib similar` end to end: submissions read as crib grade stages them (nested and
//! upper-case `.pl` files included, the same size limit), a submission too big to stage left
//! out and named rather than read or fatal, JSON Lines, and bad input exiting 2.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn correct() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grade/tests/submissions/correct.pl");
    std::fs::read_to_string(path).unwrap()
}

fn crib(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::cargo_bin("crib")
        .unwrap()
        .arg("similar")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn copies_are_found_in_staged_files_and_a_huge_submission_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path();
    for d in ["alice", "bob/lib", "carol"] {
        std::fs::create_dir_all(class.join(d)).unwrap();
    }
    std::fs::write(class.join("alice/main.pl"), correct()).unwrap();
    // Bob's copy is in a nested, upper-case file: crib grade stages it, so it counts.
    std::fs::write(
        class.join("bob/main.pl"),
        ":- ensure_loaded('lib/Cards.PL').\n",
    )
    .unwrap();
    std::fs::write(class.join("bob/lib/Cards.PL"), correct()).unwrap();
    // Carol's sparse 3 GiB file is over crib grade's limit: never read, and said so.
    std::fs::write(class.join("carol/main.pl"), correct()).unwrap();
    std::fs::File::create(class.join("carol/huge.pl"))
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let out = crib(&["--json".as_ref(), class.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("carol: left out: too big"), "{stderr}");
    let pairs: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    let pair = &pairs[0];
    assert_eq!(
        (pair["a"].as_str(), pair["b"].as_str()),
        (Some("alice"), Some("bob"))
    );
    assert!(pair["similarity"].as_f64().unwrap() > 0.9, "{pair}");
    let fragment = &pair["fragments"][0];
    assert_eq!(fragment["b_file"], "lib/Cards.PL");
    assert_eq!(fragment["a_lines"].as_array().unwrap().len(), 2);

    // --max-size is crib grade's: 2 MiB of comments in bob's files, with a limit of 1 MiB,
    // leave bob out too; with the default of 8 MiB, bob is compared.
    std::fs::remove_file(class.join("carol/huge.pl")).unwrap();
    std::fs::write(class.join("bob/notes.pl"), "%\n".repeat(1 << 20)).unwrap();
    let small = crib(&["--max-size".as_ref(), "1".as_ref(), class.as_os_str()]);
    let stderr = String::from_utf8_lossy(&small.stderr);
    assert!(small.status.success(), "{stderr}");
    assert!(stderr.contains("bob: left out: too big"), "{stderr}");
    let default = crib(&[class.as_os_str()]);
    assert!(String::from_utf8_lossy(&default.stdout).contains("alice  bob"));
    assert!(String::from_utf8_lossy(&default.stderr).is_empty());
}

#[test]
fn bad_input_exits_2_naming_it() {
    let out = crib(&["/no/such/dir".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/dir"));
    let out = crib(&["--threshold".as_ref(), "1.5".as_ref(), ".".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1.5"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("alice.pl"), correct()).unwrap();
    let out = crib(&[
        "--against".as_ref(),
        dir.path().join("missing").as_os_str(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--against"));
}
