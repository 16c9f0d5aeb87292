//! Grades the submissions under the paths given and prints the table, verbose: the library
//! without the CLI, for debugging the corpus (`cargo run -p crib-grade --example grade_paths
//! -- crates/grade/tests/submissions`).

use std::path::PathBuf;

use crib_grade::{discover, table, Grader, IsolationChoice, Limits};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let grader = Grader::new("swipl".as_ref(), IsolationChoice::Auto, Limits::default())?;
    let reports: Vec<_> = discover(&paths, false)?
        .iter()
        .map(|s| grader.grade(s, 0))
        .collect();
    print!("{}", table(&reports, true));
    for r in &reports {
        eprintln!(
            "{}: {} children, {} ms; output:\n{}",
            r.name, r.children, r.elapsed_ms, r.output
        );
    }
    Ok(())
}
