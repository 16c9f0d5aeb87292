//! `cargo bench -p crib-bench --bench intake`: the benchmarks of [`crib_bench::intake`], which says
//! what they measure and their targets.

fn main() {
    crib_bench::main(crib_bench::intake::benches);
}
