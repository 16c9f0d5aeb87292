//! `cargo bench -p crib-bench --bench report`: the benchmarks of [`crib_bench::report`], which says
//! what they measure and their targets.

fn main() {
    crib_bench::main(crib_bench::report::benches);
}
