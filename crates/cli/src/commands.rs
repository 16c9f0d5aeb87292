//! The glue of each `crib` subcommand: its arguments (clap) and `run`, over the library that
//! does the work (crib-core for `score` and `select`, crib-grade, crib-report, crib-lint and
//! crib-similar for the others).

pub(crate) mod grade;
pub(crate) mod lint;
pub(crate) mod report;
pub(crate) mod score;
pub(crate) mod select;
pub(crate) mod similar;
