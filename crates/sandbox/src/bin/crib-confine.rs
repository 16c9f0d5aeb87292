//! The confiner on its own: `crib-confine __crib-confine --read PATH... --write PATH... --
//! PROGRAM ARGS...` restricts itself with Landlock, then execs PROGRAM.
//!
//! `crib grade` needs no separate confiner (the `crib` binary confines itself when bubblewrap
//! runs it so); this one is for programs that use crib-grade as a library, and for its tests:
//! pass its path to `Jail::confine_with` (crib-grade: `Grader::confine_with`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match crib_sandbox::confine_main(&args) {
        Some(error) => {
            eprintln!("crib-confine: {error}");
            ExitCode::from(126)
        }
        None => {
            eprintln!(
                "usage: crib-confine {} [--read PATH]... [--write PATH]... -- PROGRAM [ARG]...",
                crib_sandbox::CONFINE_ARG
            );
            ExitCode::from(2)
        }
    }
}
