//! `cargo bench -p crib-bench --bench score`: the benchmarks of [`crib_bench::score`], which says
//! what they measure and their targets.

fn main() {
    crib_bench::main(crib_bench::score::benches);
}
