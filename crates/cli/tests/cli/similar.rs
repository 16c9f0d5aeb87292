//! `crib similar` end to end: submissions read as crib grade stages them (nested and
//! upper-case `.pl` files included, the same size limit), a submission too big to stage left
//! out and named rather than read or fatal, JSON Lines, and bad input exiting 2; every pair
//! at or above the threshold printed unless --top, each cut said on stderr; files that are
//! not Prolog named; crib's reference a known source, flagged, unless --no-reference.

use serde_json::Value;

use crate::common::{crib_similar, json_lines, reference, submission};

fn correct() -> String {
    std::fs::read_to_string(submission("correct.pl")).unwrap()
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
    let out = crib_similar(&["--json".as_ref(), class.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("carol: left out: too big"), "{stderr}");
    let pairs = json_lines(&out.stdout);
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
    let small = crib_similar(&["--max-size".as_ref(), "1".as_ref(), class.as_os_str()]);
    let stderr = String::from_utf8_lossy(&small.stderr);
    assert!(small.status.success(), "{stderr}");
    assert!(stderr.contains("bob: left out: too big"), "{stderr}");
    let default = crib_similar(&[class.as_os_str()]);
    assert!(String::from_utf8_lossy(&default.stdout).contains("alice  bob"));
    assert!(!String::from_utf8_lossy(&default.stderr).contains("left out: too big"));
}

#[test]
fn bad_input_exits_2_naming_it() {
    let out = crib_similar(&["/no/such/dir".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/dir"));
    let out = crib_similar(&["--threshold".as_ref(), "1.5".as_ref(), ".".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1.5"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("alice.pl"), correct()).unwrap();
    let out = crib_similar(&[
        "--against".as_ref(),
        dir.path().join("missing").as_os_str(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--against"));
}

fn lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn every_pair_at_or_above_the_threshold_unless_top_and_each_cut_said() {
    let dir = tempfile::tempdir().unwrap();
    // Twelve copies: 66 pairs, more than the 50 that --json once stopped at without a word.
    // (All twelve are the same: with --max-share 1 nothing is common.)
    for i in 0..12 {
        std::fs::write(dir.path().join(format!("s{i:02}.pl")), correct()).unwrap();
    }
    let crib = |args: &[&std::ffi::OsStr]| {
        let mut all: Vec<&std::ffi::OsStr> = vec!["--max-share".as_ref(), "1".as_ref()];
        all.extend(args);
        crib_similar(&all)
    };
    for format in ["--json", "--csv"] {
        let out = crib(&[format.as_ref(), dir.path().as_os_str()]);
        assert!(out.status.success());
        let header = usize::from(format == "--csv");
        assert_eq!(lines(&out).len(), 66 + header, "{format}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("--top"), "{stderr}");
        let top = crib(&[
            format.as_ref(),
            "--top".as_ref(),
            "5".as_ref(),
            dir.path().as_os_str(),
        ]);
        assert_eq!(lines(&top).len(), 5 + header, "{format} --top 5");
        let stderr = String::from_utf8_lossy(&top.stderr);
        assert!(
            stderr.contains(
                "--top 5 left out 61 more pairs with a share at or above --threshold 0.33"
            ),
            "{stderr}"
        );
    }
    // The pairs with crib's reference are below the threshold: said, and printed with 0.
    let out = crib(&["--json".as_ref(), dir.path().as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("12 of 78 pairs sharing code have both shares below --threshold 0.33"),
        "{stderr}"
    );
    let all = crib(&[
        "--json".as_ref(),
        "--threshold".as_ref(),
        "0".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(lines(&all).len(), 78);
    assert!(String::from_utf8_lossy(&all.stderr).is_empty());
}

#[test]
fn files_that_are_not_prolog_are_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("alice.pl"), correct()).unwrap();
    std::fs::write(
        dir.path().join("perl.pl"),
        "#!/usr/bin/perl\nuse strict;\nmy %value = (ace => 1, jack => 10);\n\
         sub hand_value { my ($hand, $start) = @_; return $value{$start} . \"\\n\"; }\n\
         print hand_value([1, 2], 'ace') . \"\\n\";\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("empty.pl"), "% nothing yet\n/* to do */\n").unwrap();
    let out = crib_similar(&[dir.path().as_os_str()]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("crib: perl: perl.pl: does not read as Prolog"),
        "{stderr}"
    );
    assert!(
        stderr.contains("crib: empty: empty.pl: no Prolog tokens"),
        "{stderr}"
    );
    assert!(!stderr.contains("alice"), "{stderr}");
}

#[test]
fn the_reference_is_a_known_source_unless_no_reference() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(reference(), dir.path().join("mallory.pl")).unwrap();
    std::fs::write(dir.path().join("alice.pl"), correct()).unwrap();
    let out = crib_similar(&[dir.path().as_os_str()]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("mallory  crib:prolog/cribbage.pl (crib's reference)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 submission matches crib's own reference (prolog/cribbage.pl) at or above 0.50: mallory"),
        "{stdout}"
    );
    // Pair names and fragment places agree: a one-file submission is its name.
    assert!(stdout.contains(" mallory:"), "{stdout}");
    assert!(!stdout.contains("mallory.pl"), "{stdout}");
    let json = crib_similar(&["--json".as_ref(), dir.path().as_os_str()]);
    let pair: Value = serde_json::from_str(&lines(&json)[0]).unwrap();
    assert_eq!(pair["reference"], true);
    assert_eq!(pair["known"], true);
    assert!(String::from_utf8_lossy(&json.stderr).contains("matches crib's own reference"));
    let without = crib_similar(&["--no-reference".as_ref(), dir.path().as_os_str()]);
    let stdout = String::from_utf8_lossy(&without.stdout);
    assert!(!stdout.contains("crib:prolog/cribbage.pl"), "{stdout}");
    assert!(!stdout.contains("reference"), "{stdout}");
}

#[test]
fn anonymous_names_pseudonyms_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for name in ["smithjane-1001", "kimbo-1004"] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::write(
            class.join(name).join(format!("{name}.pl")),
            format!("% by {name}\n{}", correct()),
        )
        .unwrap();
    }
    let key = dir.path().join("anonymous.key");
    let page = dir.path().join("similar.html");
    let run = |extra: &[&std::ffi::OsStr]| {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "--anonymous".as_ref(),
            "--anonymous-key".as_ref(),
            key.as_os_str(),
            "--no-reference".as_ref(),
        ];
        args.extend_from_slice(extra);
        args.push(class.as_os_str());
        let out = crib_similar(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let json = run(&["--json".as_ref(), "--html".as_ref(), page.as_os_str()]);
    let csv = run(&["--csv".as_ref()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(json.contains("\"anon-"), "{json}");
    assert!(
        html.contains("correct") || html.contains("hand_value"),
        "the code is shown"
    );
    for (what, text) in [("json", &json), ("csv", &csv), ("html", &html)] {
        for name in ["smithjane", "kimbo", "1001", "1004"] {
            assert!(!text.to_lowercase().contains(name), "{name} in {what}");
        }
    }
    // The same key gives the same pseudonyms.
    assert_eq!(run(&["--json".as_ref()]), json);
}

/// Under --anonymous, a submission left out (too big) is named on stderr by its
/// pseudonym, and nothing on stderr names a student.
#[test]
fn anonymous_names_pseudonyms_for_submissions_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for name in ["smithjane-1001", "leeann-1003"] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::write(class.join(name).join("main.pl"), correct()).unwrap();
    }
    // 2 MiB of comments, over --max-size 1.
    std::fs::write(class.join("leeann-1003/notes.pl"), "%\n".repeat(1 << 20)).unwrap();
    let key = dir.path().join("anonymous.key");
    let out = crib_similar(&[
        "--anonymous".as_ref(),
        "--anonymous-key".as_ref(),
        key.as_os_str(),
        "--max-size".as_ref(),
        "1".as_ref(),
        class.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.contains("left out: too big"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.starts_with("crib: anon-"), "{line}");
    // (Digits alone could come from the temporary directory's random name.)
    for name in ["leeann", "smithjane"] {
        assert!(!stderr.to_lowercase().contains(name), "{name} in {stderr}");
    }
}

/// A file that is a third of one solution (crib's reference, given here as a submission)
/// followed by a whole solution of its own (tally.pl) has a similarity well below 0.5 with
/// the source, but much of it is found there: it is reported by default, in text, JSON and
/// CSV with both shares, and shown side by side in --html. (Until issue 42 the threshold
/// applied to the similarity and hid it.)
#[test]
fn a_one_sided_copy_is_reported_by_its_larger_share() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(reference()).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    // Cut at a blank line after the first third, between clauses.
    let cut = (lines.len() / 3..lines.len())
        .find(|&i| lines[i].trim().is_empty())
        .unwrap();
    let own = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../similar/tests/independent/tally.pl"),
    )
    .unwrap();
    std::fs::write(dir.path().join("source.pl"), &source).unwrap();
    std::fs::write(
        dir.path().join("copier.pl"),
        format!("{}\n{own}", lines[..cut].join("\n")),
    )
    .unwrap();
    let run = |extra: &[&std::ffi::OsStr]| {
        let mut args: Vec<&std::ffi::OsStr> = vec!["--no-reference".as_ref()];
        args.extend_from_slice(extra);
        args.push(dir.path().as_os_str());
        let out = crib_similar(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let page = dir.path().join("similar.html");
    let json = run(&["--json".as_ref(), "--html".as_ref(), page.as_os_str()]);
    let pairs = json_lines(&json.stdout);
    assert_eq!(pairs.len(), 1, "{}", String::from_utf8_lossy(&json.stderr));
    let pair = &pairs[0];
    assert_eq!(
        (pair["a"].as_str(), pair["b"].as_str()),
        (Some("copier"), Some("source"))
    );
    let (share_a, share_b, similarity) = (
        pair["share_a"].as_f64().unwrap(),
        pair["share_b"].as_f64().unwrap(),
        pair["similarity"].as_f64().unwrap(),
    );
    assert!(similarity < 0.5, "{pair}");
    assert!(share_a >= 0.33 && share_a > share_b, "{pair}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"pair-1\""), "shown side by side");
    assert!(html.contains(&format!("{:.0}%", 100.0 * share_a)));
    assert!(html.contains(&format!("{:.0}%", 100.0 * share_b)));
    let csv = String::from_utf8(run(&["--csv".as_ref()]).stdout).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(
        rows[0].starts_with("a,b,similarity,share_a,share_b,"),
        "{csv}"
    );
    assert!(
        rows[1].starts_with(&format!(
            "copier,source,{similarity:.4},{share_a:.4},{share_b:.4},"
        )),
        "{csv}"
    );
    let text = String::from_utf8(run(&[]).stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("copier  source"))
        .unwrap_or_else(|| panic!("{text}"));
    for cell in [
        format!("{:.0}%", 100.0 * share_a),
        format!("{:.0}%", 100.0 * share_b),
        format!("{similarity:.3}"),
    ] {
        assert!(line.contains(&cell), "{cell} in {line}");
    }
    // --threshold still chooses: above both shares, the pair is left out and said so.
    let strict = run(&["--json".as_ref(), "--threshold".as_ref(), "0.9".as_ref()]);
    assert!(strict.stdout.is_empty());
    assert!(String::from_utf8_lossy(&strict.stderr)
        .contains("1 of 1 pairs sharing code have both shares below --threshold 0.90"));
}
