//! `crib similar`: finds copied Prolog, within a class and against known sources.
//!
//! Each submission's files are tokenized as SWI-Prolog reads them ([`token`]), each clause
//! read as a term ([`term`]) to tell the student's predicates, where called or defined, from
//! data; normalised so that layout, comments, variable names and the names of the
//! student's own predicates do not matter; cut into k-grams that never cross a clause's end
//! (the order of predicates matters little), and winnowed ([`fingerprint`], Schleimer,
//! Wilkerson and Aiken, SIGMOD 2003, the algorithm behind MOSS). An inverted index from
//! fingerprint to submissions finds the pairs that share any ([`compare`]); fingerprints
//! of code every student was given (`base`) and those the class has in common are left out
//! of matches and sizes alike, unless the submissions holding them are copies of one
//! source ([`Common::copied`]). crib's own reference is a known source ([`reference()`]).
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
