//! `cargo bench -p crib-bench --bench similar`: the benchmarks of [`crib_bench::similar`], which says
//! what they measure and their targets.

fn main() {
    crib_bench::main(crib_bench::similar::benches);
}
