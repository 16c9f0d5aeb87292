//! The `crib` command; everything but this entry point is in the crib-cli library.

fn main() -> std::process::ExitCode {
    crib_cli::main()
}
