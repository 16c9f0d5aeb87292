//! What the integration tests share: the seed they grade under, judging a diagnosis, and
//! submissions written for a test.
// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use crib_core::{Card, Rank};
use crib_grade::{Grader, Limits};
use crib_isolation::IsolationChoice;
use crib_results::Diagnosis;
use crib_testset::{Seed, Tests};

/// A grader of the swipl on the PATH, in `isolation`, with `limits`, on [`tests`].
pub fn grader(isolation: IsolationChoice, limits: Limits) -> Grader {
    Grader::new("swipl".as_ref(), isolation, limits, &tests()).expect("these tests need swipl")
}

/// The tests of [`seed`], drawn in the run.
pub fn tests() -> Tests {
    Tests::Drawn(seed())
}

/// The seed the integration tests grade under (tests only: grading never uses it).
pub fn seed() -> Seed {
    Seed::from_bytes([0x7e; 32])
}

/// The feature a mistake's diagnosis must name in its first finding, and whether it is
/// present in the failing hands (`false`: its absence is the cause).
pub type Cause = (&'static str, &'static str, bool);

/// Returns what is wrong with submission `name`'s diagnosis, if anything: no failing pair
/// found (`failing_pairs` is 0), or (when `causes` lists it) a first finding that does not
/// name its cause.
pub fn diagnosis_problem(
    name: &str,
    failing_pairs: u64,
    diagnosis: &Diagnosis,
    causes: &[Cause],
) -> Option<String> {
    if failing_pairs == 0 {
        return Some(format!("{name}: no failing pair found"));
    }
    let &(_, feature, present) = causes.iter().find(|c| c.0 == name)?;
    let named = diagnosis.findings.first().is_some_and(|f| {
        f.features
            .iter()
            .any(|l| l.feature == feature && l.present == present)
    });
    (!named).then(|| {
        format!(
            "{name}: expected {}{feature}, diagnosis: {}",
            if present { "" } else { "no " },
            diagnosis.summary
        )
    })
}

/// The corpus of submissions, tests/submissions.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/submissions")
}

/// Whether `hand` is four fives: the corpus's trigger (12 items under every seed).
pub fn four_fives(hand: &[Card]) -> bool {
    hand.iter().filter(|c| c.rank() == Rank::Five).count() == 4
}

/// Returns crib-sandbox's confiner, `crib-confine`, built beside this test binary (`cargo
/// test --workspace` builds it for crib-sandbox's own tests).
pub fn confiner() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("crib-confine"))
        .unwrap();
    assert!(
        path.is_file(),
        "{} is missing: build it with `cargo build -p crib-sandbox --bin crib-confine`",
        path.display()
    );
    path
}

/// Returns infinite_loop.pl's correct base (base_value/3, base_select/3), for submissions
/// written here to wrap.
pub fn correct_base() -> String {
    let text = std::fs::read_to_string(corpus_dir().join("infinite_loop.pl")).unwrap();
    let at = text.find("% ---- the correct base").unwrap();
    text[at..].to_string()
}

/// A submission whose hand_value calls with four fives (12 items) sleep `secs` (no CPU),
/// otherwise correct.
pub fn sleeper(secs: f64) -> String {
    format!(
        "hand_value(Hand, Start, Value) :-\n\
         \x20   (   include(is_five, Hand, [_, _, _, _]) -> sleep({secs}) ; true ),\n\
         \x20   base_value(Hand, Start, Value).\n\
         is_five(card(5, _)).\n\
         select_hand(Cards, Hand, Crib) :- base_select(Cards, Hand, Crib).\n\n{}",
        correct_base()
    )
}
