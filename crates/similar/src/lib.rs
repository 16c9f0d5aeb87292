//! `crib similar`: finds copied Prolog, within a class and against known sources.
//!
//! Each submission's files are tokenized as SWI-Prolog reads them ([`token`]), each clause
//! read as a term ([`term`]), normalised and winnowed into fingerprints ([`fingerprint`],
//! MOSS's algorithm); an inverted index from fingerprint to submissions finds the pairs that
//! share any ([`compare`]), given and class-common code left out ([`Common`]). crib's own
//! reference is a known source ([`reference()`]).
//!
//! Similarity is evidence for a person to review, never a verdict: nothing here changes a
//! mark.

#![deny(missing_docs)]

mod calls;
mod compare;
pub mod fingerprint;
mod hash;
pub mod html;
pub mod term;
pub mod token;

pub use compare::{
    compare, reference, Common, Comparison, Fragment, Options, Pair, Source, Unread, REFERENCE,
};
pub use fingerprint::Winnowing;
