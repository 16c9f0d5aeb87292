//! Prints, in seconds, the longest one submission can take to grade with the default limits
//! (`Limits::submission_budget`: the select_hand tests' load limit, limits and grace, then
//! the marked hand_value check's load limit and budget). `cargo xtask bench` puts it in its
//! table.

fn main() {
    // Every seed gives the same number of tests; this one grades nothing.
    let tests = crib_testset::TestSet::new(&crib_testset::Seed::from_bytes([0; 32]));
    let budget = crib_grade::Limits::default().submission_budget(&tests);
    println!("{}", budget.as_secs_f64());
}
