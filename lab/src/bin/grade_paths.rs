//! Grades the submissions under the paths given and prints the table, verbose: the library
//! without the CLI, for debugging the corpus (`cargo run -p crib-lab --bin grade_paths
//! -- crates/grade/tests/submissions`).

use std::path::PathBuf;

use crib_grade::{table, Grader, Limits};
use crib_isolation::IsolationChoice;
use crib_submission::discover;
use crib_testset::{Seed, Tests};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let tests = Tests::Drawn(Seed::fresh()?);
    let grader = Grader::new(
        "swipl".as_ref(),
        IsolationChoice::Auto,
        Limits::default(),
        &tests,
    )?;
    let reports: Vec<_> = discover(&paths, false)?
        .iter()
        .map(|s| grader.grade(s, crib_sandbox::Worker::FIRST))
        .collect();
    print!("{}", table(&reports, true));
    for r in &reports {
        eprintln!(
            "{}: {} children, {} ms (hand_value {} ms, select_hand tests {} ms); output:\n{}",
            r.name,
            r.children,
            r.elapsed_ms,
            r.hand_value.as_ref().map_or(0, |h| h.elapsed_ms),
            r.tests.iter().map(|t| t.time_ms).sum::<u64>(),
            r.output
        );
    }
    Ok(())
}
