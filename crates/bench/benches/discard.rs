//! `cargo bench -p crib-bench --bench discard`: the benchmarks of [`crib_bench::discard`], which says
//! what they measure and their targets.

fn main() {
    crib_bench::main(crib_bench::discard::benches);
}
