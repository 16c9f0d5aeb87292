//! Asks the Prolog reference, embedded in this process, the questions crib-core answers.
//!
//! crib-oracle is the only crate that links SWI-Prolog (through the `swipl` crate). It loads a
//! Prolog implementation of the assignment, by default the reference prolog/cribbage.pl
//! ([`default_path`]), and calls its `hand_value/3`, `hand_value/4` (crib rule) and
//! `select_hand/3` on crib-core's [`Card`](crib_core::Card) and [`Hand`](crib_core::Hand),
//! converting `card(Rank, Suit)` terms both ways. A Prolog exception or failure comes back
//! as an [`OracleError`] that names the goal and carries Prolog's message; nothing here
//! panics on Prolog's answers.
//!
//! - [`Reference::load`] loads a file, once per process (SWI-Prolog has one database).
//! - [`Oracle`] is one Prolog engine; it serves one thread at a time.
//! - [`Pool`] holds one oracle per rayon worker, for sweeps; [`Oracle::hand_values`] values a
//!   hand against many start cards in one call.
//!
//! The questions themselves are prolog/oracle.pl, built into the crate: each call goes through
//! it, so that failures and exceptions come back as one answer term.
//!
//! **Trusted code only.** The loaded file runs inside this process with full rights: a
//! `halt/0` ends the process, a loop hangs it. Student submissions never come here; crib-grade
//! runs them in isolated child processes.
//!
//! Building needs SWI-Prolog's headers and libclang (bindgen): on Debian,
//! `apt-get install swi-prolog-nox libclang-dev` (`cargo xtask verify` does it).
//!
//! # Example
//! ```
//! use crib_core::{parse_cards, Card, Hand, Rule};
//! let reference = crib_oracle::Reference::load(crib_oracle::default_path())?;
//! let oracle = reference.oracle();
//! let hand = Hand::from_slice(&parse_cards(&["6C", "7C", "8C", "9C"])?)?;
//! assert_eq!(oracle.hand_value(&hand, Card::parse("8S")?, Rule::Hand)?, 20);
//! assert_eq!(oracle.hand_value(&hand, Card::parse("8S")?, Rule::Crib)?, 16);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod error;
mod fli;
mod oracle;
mod pool;
mod reference;

pub use error::OracleError;
pub use oracle::{Choice, Oracle};
pub use pool::Pool;
pub use reference::{default_path, Reference};

#[cfg(test)]
mod tests;
