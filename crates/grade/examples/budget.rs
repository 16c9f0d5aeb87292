//! Prints, in seconds, the longest one submission can take to grade with the default limits
//! (`Limits::budget`: the load limit and every test's limit and grace). `cargo xtask bench`
//! puts it in its table.

fn main() {
    let budget = crib_grade::Limits::default().budget(crib_grade::test_set());
    println!("{}", budget.as_secs_f64());
}
