//! `cargo bench -p crib-bench --bench lint`: the benchmarks of [`crib_bench::lint`], which says
//! what they measure and their targets.

fn main() {
    crib_bench::main(crib_bench::lint::benches);
}
